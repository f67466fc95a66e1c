// The reference's five-point stencil: B[i, j] = A[i, j+1] + A[i+1, j] +
// A[i+1, j+1] + A[i+1, j+2] + A[i+2, j+1] on a 1026 x 1026 input (1024 x
// 1024 output), f32. The five shifted windows of A are slices with identity
// maps (linalg infers a loop's extent from the first operand that indexes it
// plainly, so five shifted maps of one 1026 x 1026 input do not verify).
#id = affine_map<(i, j) -> (i, j)>
func.func @stencil5(%A: tensor<1026x1026xf32>) -> tensor<1024x1024xf32> {
  %n = tensor.extract_slice %A[0, 1] [1024, 1024] [1, 1] : tensor<1026x1026xf32> to tensor<1024x1024xf32>
  %w = tensor.extract_slice %A[1, 0] [1024, 1024] [1, 1] : tensor<1026x1026xf32> to tensor<1024x1024xf32>
  %c = tensor.extract_slice %A[1, 1] [1024, 1024] [1, 1] : tensor<1026x1026xf32> to tensor<1024x1024xf32>
  %e = tensor.extract_slice %A[1, 2] [1024, 1024] [1, 1] : tensor<1026x1026xf32> to tensor<1024x1024xf32>
  %s = tensor.extract_slice %A[2, 1] [1024, 1024] [1, 1] : tensor<1026x1026xf32> to tensor<1024x1024xf32>
  %empty = tensor.empty() : tensor<1024x1024xf32>
  %B = linalg.generic {
      indexing_maps = [#id, #id, #id, #id, #id, #id],
      iterator_types = ["parallel", "parallel"]}
      ins(%n, %w, %c, %e, %s : tensor<1024x1024xf32>, tensor<1024x1024xf32>,
          tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>)
      outs(%empty : tensor<1024x1024xf32>) {
  ^bb0(%vn: f32, %vw: f32, %vc: f32, %ve: f32, %vs: f32, %out: f32):
    %0 = arith.addf %vn, %vw : f32
    %1 = arith.addf %0, %vc : f32
    %2 = arith.addf %1, %ve : f32
    %3 = arith.addf %2, %vs : f32
    linalg.yield %3 : f32
  } -> tensor<1024x1024xf32>
  return %B : tensor<1024x1024xf32>
}
