// A small NHWC convolution whose weights arrive FCHW (PyTorch's layout) and
// are transposed to FHWC first, as the TOSA lowering of a torch-mlir export
// writes it (16 input and 32 output channels, a 4 x 16 output).
func.func @conv(%input: tensor<1x6x18x16xf32>, %weight: tensor<32x16x3x3xf32>) -> tensor<1x4x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty_filter = tensor.empty() : tensor<32x3x3x16xf32>
  %filter = linalg.transpose ins(%weight : tensor<32x16x3x3xf32>) outs(%empty_filter : tensor<32x3x3x16xf32>) permutation = [0, 2, 3, 1]
  %empty = tensor.empty() : tensor<1x4x16x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x4x16x32xf32>) -> tensor<1x4x16x32xf32>
  %out = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%input, %filter : tensor<1x6x18x16xf32>, tensor<32x3x3x16xf32>)
    outs(%init : tensor<1x4x16x32xf32>) -> tensor<1x4x16x32xf32>
  return %out : tensor<1x4x16x32xf32>
}
