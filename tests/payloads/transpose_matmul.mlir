// A linear layer as torch-mlir exports it: the weight [n, k] transposed by
// linalg.transpose, then linalg.matmul into a zero-filled result.
func.func @linear(%a: tensor<24x64xf32>, %w: tensor<48x64xf32>) -> tensor<24x48xf32> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<64x48xf32>
  %wt = linalg.transpose ins(%w : tensor<48x64xf32>) outs(%et : tensor<64x48xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<24x48xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<24x48xf32>) -> tensor<24x48xf32>
  %r = linalg.matmul ins(%a, %wt : tensor<24x64xf32>, tensor<64x48xf32>) outs(%z : tensor<24x48xf32>) -> tensor<24x48xf32>
  return %r : tensor<24x48xf32>
}
