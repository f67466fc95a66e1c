// A small NHWC convolution with FHWC weights, as the TOSA lowering writes
// them (16 input and 32 output channels, a 4 x 16 output): a vector of
// output channels reads weights 3 x 3 x 16 floats apart.
func.func @conv(%input: tensor<1x6x18x16xf32>, %filter: tensor<32x3x3x16xf32>) -> tensor<1x4x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x4x16x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x4x16x32xf32>) -> tensor<1x4x16x32xf32>
  %out = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%input, %filter : tensor<1x6x18x16xf32>, tensor<32x3x3x16xf32>)
    outs(%init : tensor<1x4x16x32xf32>) -> tensor<1x4x16x32xf32>
  return %out : tensor<1x4x16x32xf32>
}
