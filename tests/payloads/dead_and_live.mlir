// A linalg op whose result is unused (a matmul into %d), before the matmul
// that computes the result: both are bound by index in payload order.
func.func @matmul(%a: tensor<64x128xf32>, %b: tensor<128x96xf32>, %c: tensor<64x96xf32>, %d: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %dead = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x96xf32>) outs(%d : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}
