// A producer read through a reshape: `scaled` computes 4x2x16, which is
// collapsed (tensor.collapse_shape) to the 8x16 rows `shifted` reads.
#id3 = affine_map<(a, b, x) -> (a, b, x)>
#id = affine_map<(y, x) -> (y, x)>
func.func @reshape_chain(%in: tensor<4x2x16xf32>) -> tensor<8x16xf32> {
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %scaled_init = tensor.empty() : tensor<4x2x16xf32>
  %scaled = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%in : tensor<4x2x16xf32>) outs(%scaled_init : tensor<4x2x16xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %two : f32
      linalg.yield %m : f32
  } -> tensor<4x2x16xf32>
  %rows = tensor.collapse_shape %scaled [[0, 1], [2]] : tensor<4x2x16xf32> into tensor<8x16xf32>
  %init = tensor.empty() : tensor<8x16xf32>
  %shifted = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%rows : tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.addf %a, %one : f32
      linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %shifted : tensor<8x16xf32>
}
