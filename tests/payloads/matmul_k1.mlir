// C += A * B with a reduction of one element (k = 1).
func.func @matmul(%a: tensor<64x1xf32>, %b: tensor<1x96xf32>, %c: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x1xf32>, tensor<1x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}
