func.func @f(%i0: tensor<1x32x28x28xf32>, %i1: tensor<2x2xf32>, %o: tensor<1x32x14x14xf32>) -> tensor<1x32x14x14xf32> {
  %r = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i0, %i1 : tensor<1x32x28x28xf32>, tensor<2x2xf32>) outs(%o : tensor<1x32x14x14xf32>) -> tensor<1x32x14x14xf32>
  return %r : tensor<1x32x14x14xf32>
}
