// A matmul whose row count is dynamic inside a function with static arguments
// (so it can run): the planner sees `i` without an extent.
func.func @matmul(%a: tensor<64x128xf32>, %b: tensor<128x96xf32>, %c: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %ad = tensor.cast %a : tensor<64x128xf32> to tensor<?x128xf32>
  %cd = tensor.cast %c : tensor<64x96xf32> to tensor<?x96xf32>
  %r = linalg.matmul ins(%ad, %b : tensor<?x128xf32>, tensor<128x96xf32>) outs(%cd : tensor<?x96xf32>) -> tensor<?x96xf32>
  %rs = tensor.cast %r : tensor<?x96xf32> to tensor<64x96xf32>
  return %rs : tensor<64x96xf32>
}
