// Halide's 3x3 box blur (the first example of the Halide paper) as two
// separable passes, the stencil windows written as shifted slices: each pass
// reads three `tensor.extract_slice`s of its input, each with identity maps.
// blur_x(y, x) = (in(y, x) + in(y, x+1) + in(y, x+2)) / 3     (1026 x 1024)
// blur_y(y, x) = (blur_x(y, x) + blur_x(y+1, x) + blur_x(y+2, x)) / 3   (1024 x 1024)
#id = affine_map<(y, x) -> (y, x)>
func.func @blur(%in: tensor<1026x1026xf32>) -> tensor<1024x1024xf32> {
  %third = arith.constant 3.0 : f32
  %x0 = tensor.extract_slice %in[0, 0] [1026, 1024] [1, 1] : tensor<1026x1026xf32> to tensor<1026x1024xf32>
  %x1 = tensor.extract_slice %in[0, 1] [1026, 1024] [1, 1] : tensor<1026x1026xf32> to tensor<1026x1024xf32>
  %x2 = tensor.extract_slice %in[0, 2] [1026, 1024] [1, 1] : tensor<1026x1026xf32> to tensor<1026x1024xf32>
  %bx_init = tensor.empty() : tensor<1026x1024xf32>
  %bx = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x0, %x1, %x2 : tensor<1026x1024xf32>, tensor<1026x1024xf32>, tensor<1026x1024xf32>)
      outs(%bx_init : tensor<1026x1024xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32, %out: f32):
      %s = arith.addf %a, %b : f32
      %t = arith.addf %s, %c : f32
      %r = arith.divf %t, %third : f32
      linalg.yield %r : f32
  } -> tensor<1026x1024xf32>
  %y0 = tensor.extract_slice %bx[0, 0] [1024, 1024] [1, 1] : tensor<1026x1024xf32> to tensor<1024x1024xf32>
  %y1 = tensor.extract_slice %bx[1, 0] [1024, 1024] [1, 1] : tensor<1026x1024xf32> to tensor<1024x1024xf32>
  %y2 = tensor.extract_slice %bx[2, 0] [1024, 1024] [1, 1] : tensor<1026x1024xf32> to tensor<1024x1024xf32>
  %by_init = tensor.empty() : tensor<1024x1024xf32>
  %by = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y0, %y1, %y2 : tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>)
      outs(%by_init : tensor<1024x1024xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32, %out: f32):
      %s = arith.addf %a, %b : f32
      %t = arith.addf %s, %c : f32
      %r = arith.divf %t, %third : f32
      linalg.yield %r : f32
  } -> tensor<1024x1024xf32>
  return %by : tensor<1024x1024xf32>
}
