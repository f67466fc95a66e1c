// A small 3-point blur in both directions with the stencil windows as shifted
// slices (tests/fixtures/stencil_slices_*.sched; examples/blur has the full size).
#id = affine_map<(y, x) -> (y, x)>
func.func @blur(%in: tensor<18x18xf32>) -> tensor<16x16xf32> {
  %third = arith.constant 3.0 : f32
  %x0 = tensor.extract_slice %in[0, 0] [18, 16] [1, 1] : tensor<18x18xf32> to tensor<18x16xf32>
  %x1 = tensor.extract_slice %in[0, 1] [18, 16] [1, 1] : tensor<18x18xf32> to tensor<18x16xf32>
  %x2 = tensor.extract_slice %in[0, 2] [18, 16] [1, 1] : tensor<18x18xf32> to tensor<18x16xf32>
  %bx_init = tensor.empty() : tensor<18x16xf32>
  %bx = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x0, %x1, %x2 : tensor<18x16xf32>, tensor<18x16xf32>, tensor<18x16xf32>)
      outs(%bx_init : tensor<18x16xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32, %out: f32):
      %s = arith.addf %a, %b : f32
      %t = arith.addf %s, %c : f32
      %r = arith.divf %t, %third : f32
      linalg.yield %r : f32
  } -> tensor<18x16xf32>
  %y0 = tensor.extract_slice %bx[0, 0] [16, 16] [1, 1] : tensor<18x16xf32> to tensor<16x16xf32>
  %y1 = tensor.extract_slice %bx[1, 0] [16, 16] [1, 1] : tensor<18x16xf32> to tensor<16x16xf32>
  %y2 = tensor.extract_slice %bx[2, 0] [16, 16] [1, 1] : tensor<18x16xf32> to tensor<16x16xf32>
  %by_init = tensor.empty() : tensor<16x16xf32>
  %by = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y0, %y1, %y2 : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>)
      outs(%by_init : tensor<16x16xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32, %out: f32):
      %s = arith.addf %a, %b : f32
      %t = arith.addf %s, %c : f32
      %r = arith.divf %t, %third : f32
      linalg.yield %r : f32
  } -> tensor<16x16xf32>
  return %by : tensor<16x16xf32>
}
