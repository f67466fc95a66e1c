// The reference's blur: B[y, x] = A[y, x] + A[y+1, x] + A[y+2, x] on a
// 1026 x 1024 input (1024 x 1024 output), f32: three row-shifted windows of
// A, as slices with identity maps.
#id = affine_map<(y, x) -> (y, x)>
func.func @blur(%A: tensor<1026x1024xf32>) -> tensor<1024x1024xf32> {
  %a0 = tensor.extract_slice %A[0, 0] [1024, 1024] [1, 1] : tensor<1026x1024xf32> to tensor<1024x1024xf32>
  %a1 = tensor.extract_slice %A[1, 0] [1024, 1024] [1, 1] : tensor<1026x1024xf32> to tensor<1024x1024xf32>
  %a2 = tensor.extract_slice %A[2, 0] [1024, 1024] [1, 1] : tensor<1026x1024xf32> to tensor<1024x1024xf32>
  %empty = tensor.empty() : tensor<1024x1024xf32>
  %B = linalg.generic {
      indexing_maps = [#id, #id, #id, #id],
      iterator_types = ["parallel", "parallel"]}
      ins(%a0, %a1, %a2 : tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>)
      outs(%empty : tensor<1024x1024xf32>) {
  ^bb0(%v0: f32, %v1: f32, %v2: f32, %out: f32):
    %0 = arith.addf %v0, %v1 : f32
    %1 = arith.addf %0, %v2 : f32
    linalg.yield %1 : f32
  } -> tensor<1024x1024xf32>
  return %B : tensor<1024x1024xf32>
}
