// Halide's 3x3 box blur as two separable passes, the stencil windows
// written as shifted maps: each pass reads one larger tensor through a
// window map, `(y, x, k) -> (y, x + k)` and `(y, x, k) -> (y + k, x)`, and
// sums the three taps (k) with weight 1/3, as an exporter writes a
// 1-D convolution. linalg infers a loop's extent from the first operand that
// reads it through a plain dimension, so the shifted reads cannot be three
// inputs one of which is `(y, x)` on the larger tensor: the taps tensor gives
// k its extent instead.
// blur_x(y, x) = sum_k in(y, x+k) / 3       (1026 x 1024)
// blur_y(y, x) = sum_k blur_x(y+k, x) / 3   (1024 x 1024)
#id = affine_map<(y, x, k) -> (y, x)>
#xk = affine_map<(y, x, k) -> (y, x + k)>
#yk = affine_map<(y, x, k) -> (y + k, x)>
#k = affine_map<(y, x, k) -> (k)>
func.func @blur(%in: tensor<1026x1026xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %taps = arith.constant dense<0.333333343> : tensor<3xf32>
  %bx_init = tensor.empty() : tensor<1026x1024xf32>
  %bx_zero = linalg.fill ins(%zero : f32) outs(%bx_init : tensor<1026x1024xf32>) -> tensor<1026x1024xf32>
  %bx = linalg.generic {indexing_maps = [#xk, #k, #id], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%in, %taps : tensor<1026x1026xf32>, tensor<3xf32>)
      outs(%bx_zero : tensor<1026x1024xf32>) {
    ^bb0(%a: f32, %w: f32, %acc: f32):
      %p = arith.mulf %a, %w : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
  } -> tensor<1026x1024xf32>
  %by_init = tensor.empty() : tensor<1024x1024xf32>
  %by_zero = linalg.fill ins(%zero : f32) outs(%by_init : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %by = linalg.generic {indexing_maps = [#yk, #k, #id], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%bx, %taps : tensor<1026x1024xf32>, tensor<3xf32>)
      outs(%by_zero : tensor<1024x1024xf32>) {
    ^bb0(%a: f32, %w: f32, %acc: f32):
      %p = arith.mulf %a, %w : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
  } -> tensor<1024x1024xf32>
  return %by : tensor<1024x1024xf32>
}
