// A 1x1 convolution (32 to 48 channels over 8 x 12 pixels) reading a
// per-channel scale of its input through a ReLU, and read by a ReLU: the
// shape of MobileNet-v2's pointwise convolutions, small.
#id = affine_map<(n, c, y, x) -> (n, c, y, x)>
#channel = affine_map<(n, c, y, x) -> (c)>
func.func @pointwise(%input: tensor<1x32x8x12xf32>, %scale: tensor<32xf32>,
                     %filter: tensor<48x32x1x1xf32>) -> tensor<1x48x8x12xf32> {
  %zero = arith.constant 0.0 : f32
  %in_empty = tensor.empty() : tensor<1x32x8x12xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #channel, #id],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%input, %scale : tensor<1x32x8x12xf32>, tensor<32xf32>) outs(%in_empty : tensor<1x32x8x12xf32>) {
  ^bb0(%v: f32, %s: f32, %out: f32):
    %m = arith.mulf %v, %s : f32
    %r = arith.maximumf %m, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x32x8x12xf32>
  %empty = tensor.empty() : tensor<1x48x8x12xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x48x8x12xf32>) -> tensor<1x48x8x12xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%scaled, %filter : tensor<1x32x8x12xf32>, tensor<48x32x1x1xf32>) outs(%init : tensor<1x48x8x12xf32>) -> tensor<1x48x8x12xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv : tensor<1x48x8x12xf32>) outs(%empty : tensor<1x48x8x12xf32>) {
  ^bb0(%v: f32, %out: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x48x8x12xf32>
  return %relu : tensor<1x48x8x12xf32>
}
