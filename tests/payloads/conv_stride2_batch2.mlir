func.func @conv(%x: tensor<2x3x17x17xf32>, %w: tensor<16x3x3x3xf32>) -> tensor<2x16x8x8xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x8x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<2x16x8x8xf32>) -> tensor<2x16x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<2x3x17x17xf32>, tensor<16x3x3x3xf32>) outs(%z : tensor<2x16x8x8xf32>) -> tensor<2x16x8x8xf32>
  return %r : tensor<2x16x8x8xf32>
}
