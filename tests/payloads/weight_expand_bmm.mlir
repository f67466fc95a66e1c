// A linear layer as TOSA's lowering writes it (batch 1): the weight W
// (32 outputs x 48 inputs) is transposed, expanded to a batch of one
// (tensor.expand_shape) and read by a batch_matmul with the input row.
func.func @weight_expand_bmm(%x: tensor<1x1x48xf32>, %w: tensor<32x48xf32>) -> tensor<1x1x32xf32> {
  %zero = arith.constant 0.0 : f32
  %t_init = tensor.empty() : tensor<48x32xf32>
  %t = linalg.transpose ins(%w : tensor<32x48xf32>) outs(%t_init : tensor<48x32xf32>) permutation = [1, 0]
  %batch = tensor.expand_shape %t [[0, 1], [2]] output_shape [1, 48, 32] : tensor<48x32xf32> into tensor<1x48x32xf32>
  %init = tensor.empty() : tensor<1x1x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1x1x32xf32>) -> tensor<1x1x32xf32>
  %y = linalg.batch_matmul ins(%x, %batch : tensor<1x1x48xf32>, tensor<1x48x32xf32>) outs(%acc : tensor<1x1x32xf32>) -> tensor<1x1x32xf32>
  return %y : tensor<1x1x32xf32>
}
