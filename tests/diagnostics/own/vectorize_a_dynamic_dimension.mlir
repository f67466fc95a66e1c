// A matmul whose rows are dynamic.
func.func @matmul(%a: tensor<?x128xf32>, %b: tensor<128x96xf32>, %c: tensor<?x96xf32>) -> tensor<?x96xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x128xf32>, tensor<128x96xf32>) outs(%c : tensor<?x96xf32>) -> tensor<?x96xf32>
  return %r : tensor<?x96xf32>
}
