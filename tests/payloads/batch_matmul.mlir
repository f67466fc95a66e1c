// A batched matmul (torch.bmm, TOSA's matmul lowered): 4 batches of 32x64 times 64x48.
func.func @bmm(%a: tensor<4x32x64xf32>, %b: tensor<4x64x48xf32>, %c: tensor<4x32x48xf32>) -> tensor<4x32x48xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x32x64xf32>, tensor<4x64x48xf32>) outs(%c : tensor<4x32x48xf32>) -> tensor<4x32x48xf32>
  return %r : tensor<4x32x48xf32>
}
