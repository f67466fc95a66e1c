// The reference's diag3d: a three-point stencil along the main diagonal of a
// 3-D tensor, B[i, j, k] = A[i, j, k] + A[i+1, j+1, k+1] + A[i+2, j+2, k+2],
// on a 130 x 130 x 130 input (128^3 output), f32; the windows as slices.
#id = affine_map<(i, j, k) -> (i, j, k)>
func.func @diag3d(%A: tensor<130x130x130xf32>) -> tensor<128x128x128xf32> {
  %a0 = tensor.extract_slice %A[0, 0, 0] [128, 128, 128] [1, 1, 1] : tensor<130x130x130xf32> to tensor<128x128x128xf32>
  %a1 = tensor.extract_slice %A[1, 1, 1] [128, 128, 128] [1, 1, 1] : tensor<130x130x130xf32> to tensor<128x128x128xf32>
  %a2 = tensor.extract_slice %A[2, 2, 2] [128, 128, 128] [1, 1, 1] : tensor<130x130x130xf32> to tensor<128x128x128xf32>
  %empty = tensor.empty() : tensor<128x128x128xf32>
  %B = linalg.generic {
      indexing_maps = [#id, #id, #id, #id],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a0, %a1, %a2 : tensor<128x128x128xf32>, tensor<128x128x128xf32>, tensor<128x128x128xf32>)
      outs(%empty : tensor<128x128x128xf32>) {
  ^bb0(%v0: f32, %v1: f32, %v2: f32, %out: f32):
    %0 = arith.addf %v0, %v1 : f32
    %1 = arith.addf %0, %v2 : f32
    linalg.yield %1 : f32
  } -> tensor<128x128x128xf32>
  return %B : tensor<128x128x128xf32>
}
