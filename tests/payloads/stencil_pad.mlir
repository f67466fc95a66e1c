// A stencil on a zero-padded producer: `scaled` (8x16) is padded by one row
// above and below (tensor.pad), and `smooth` sums three rows of it through the
// window map (y + k, x), as an exported 3x1 convolution with padding 1 reads.
#id = affine_map<(y, x) -> (y, x)>
#yk = affine_map<(y, x, k) -> (y + k, x)>
#k = affine_map<(y, x, k) -> (k)>
#out = affine_map<(y, x, k) -> (y, x)>
func.func @stencil_pad(%in: tensor<8x16xf32>, %taps: tensor<3xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %scaled_init = tensor.empty() : tensor<8x16xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%in : tensor<8x16xf32>) outs(%scaled_init : tensor<8x16xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %two : f32
      linalg.yield %m : f32
  } -> tensor<8x16xf32>
  %padded = tensor.pad %scaled low[1, 0] high[1, 0] {
    ^bb0(%i: index, %j: index):
      tensor.yield %zero : f32
  } : tensor<8x16xf32> to tensor<10x16xf32>
  %init = tensor.empty() : tensor<8x16xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  %smooth = linalg.generic {indexing_maps = [#yk, #k, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%padded, %taps : tensor<10x16xf32>, tensor<3xf32>) outs(%filled : tensor<8x16xf32>) {
    ^bb0(%a: f32, %w: f32, %acc: f32):
      %p = arith.mulf %a, %w : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %smooth : tensor<8x16xf32>
}
