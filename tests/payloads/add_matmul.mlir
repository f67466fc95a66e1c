// A matmul whose left operand is the sum of two tensors (an elementwise op
// with two inputs, inlined into the matmul in the fixtures).
func.func @f(%a: tensor<32x64xf32>, %b: tensor<32x64xf32>, %w: tensor<64x48xf32>) -> tensor<32x48xf32> {
  %zero = arith.constant 0.0 : f32
  %empty_sum = tensor.empty() : tensor<32x64xf32>
  %sum = linalg.add ins(%a, %b : tensor<32x64xf32>, tensor<32x64xf32>) outs(%empty_sum : tensor<32x64xf32>) -> tensor<32x64xf32>
  %empty = tensor.empty() : tensor<32x48xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<32x48xf32>) -> tensor<32x48xf32>
  %out = linalg.matmul ins(%sum, %w : tensor<32x64xf32>, tensor<64x48xf32>) outs(%init : tensor<32x48xf32>) -> tensor<32x48xf32>
  return %out : tensor<32x48xf32>
}
