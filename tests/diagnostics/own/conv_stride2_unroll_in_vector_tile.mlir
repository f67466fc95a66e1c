// A stride-2 convolution: its input is read at `x * 2 + kx`.
func.func @conv(%x: tensor<1x8x17x17xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x17x17xf32>, tensor<16x8x3x3xf32>) outs(%i : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %r : tensor<1x16x8x8xf32>
}
