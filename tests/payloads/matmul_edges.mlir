// C = A * B on shapes no 16 divides (100x50 times 50x70), after a zero fill.
func.func @mm(%a: tensor<100x50xf32>, %b: tensor<50x70xf32>) -> tensor<100x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x70xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<100x70xf32>) -> tensor<100x70xf32>
  %r = linalg.matmul ins(%a, %b : tensor<100x50xf32>, tensor<50x70xf32>) outs(%c : tensor<100x70xf32>) -> tensor<100x70xf32>
  return %r : tensor<100x70xf32>
}
