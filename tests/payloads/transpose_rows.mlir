// A producer whose result is transposed and then regrouped: `swapped`
// swaps the two outer dimensions of a 4x2x16 tensor (into 2x4x16), and a
// tensor.collapse_shape merges them into the 8 rows `shifted` reads. Row r
// of the collapsed tensor is (r / 4, r % 4) of `swapped`, which is
// input[r % 4, r / 4]: no producer over the 8 rows reads its input in order.
#id3 = affine_map<(a, b, x) -> (a, b, x)>
#swap = affine_map<(a, b, x) -> (b, a, x)>
#id = affine_map<(y, x) -> (y, x)>
func.func @transpose_rows(%in: tensor<4x2x16xf32>) -> tensor<8x16xf32> {
  %one = arith.constant 1.0 : f32
  %swapped_init = tensor.empty() : tensor<2x4x16xf32>
  %swapped = linalg.generic {indexing_maps = [#swap, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%in : tensor<4x2x16xf32>) outs(%swapped_init : tensor<2x4x16xf32>) {
    ^bb0(%a: f32, %o: f32):
      linalg.yield %a : f32
  } -> tensor<2x4x16xf32>
  %rows = tensor.collapse_shape %swapped [[0, 1], [2]] : tensor<2x4x16xf32> into tensor<8x16xf32>
  %init = tensor.empty() : tensor<8x16xf32>
  %shifted = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%rows : tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.addf %a, %one : f32
      linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %shifted : tensor<8x16xf32>
}
