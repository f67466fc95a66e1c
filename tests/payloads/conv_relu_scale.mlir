// A named convolution followed by two generics (ReLU, then a scale by 2), small.
#nchw = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @net(%x: tensor<1x4x10x18xf32>, %w: tensor<8x4x3x3xf32>, %init: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%x, %w : tensor<1x4x10x18xf32>, tensor<8x4x3x3xf32>) outs(%init : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %r = linalg.generic {indexing_maps = [#nchw, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%c : tensor<1x8x8x16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x16xf32>
  %s = linalg.generic {indexing_maps = [#nchw, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%r : tensor<1x8x8x16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.mulf %in, %two : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x16xf32>
  return %s : tensor<1x8x8x16xf32>
}
