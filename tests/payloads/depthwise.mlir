// A depthwise 3x3 convolution in PyTorch's NHWC export layout.
func.func @dw(%in: tensor<1x18x18x32xf32>, %w: tensor<3x3x32xf32>, %out: tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %w : tensor<1x18x18x32xf32>, tensor<3x3x32xf32>) outs(%out : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  return %r : tensor<1x16x16x32xf32>
}
