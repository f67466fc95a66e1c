// The reference's conv2d in NCHW: 1 x 16 x 66 x 66 input, 32 filters of
// 16 x 3 x 3, 1 x 32 x 64 x 64 output accumulated from its initial value.
func.func @conv2d(%I: tensor<1x16x66x66xf32>, %W: tensor<32x16x3x3xf32>, %O: tensor<1x32x64x64xf32>) -> tensor<1x32x64x64xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%I, %W : tensor<1x16x66x66xf32>, tensor<32x16x3x3xf32>)
      outs(%O : tensor<1x32x64x64xf32>) -> tensor<1x32x64x64xf32>
  return %r : tensor<1x32x64x64xf32>
}
