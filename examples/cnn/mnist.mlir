// The MNIST CNN of the HWACC report (conv 1->16 3x3 pad 1 + ReLU, conv 16->32 3x3 pad 1 + ReLU,
// 2x2 max pool, flatten to 6272, linear 6272->1024 + ReLU, linear 1024->10), batch 64, written
// in the form torch-mlir's linalg-on-tensors export takes: padded inputs, named convolutions
// whose init is the broadcast bias, ReLU generics, a named pooling, weights transposed by
// linalg.transpose for linalg.matmul, bias additions as generics. Weights are arguments.
#nchw = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#rows = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @forward(%x: tensor<64x1x28x28xf32>,
                   %w1: tensor<16x1x3x3xf32>, %b1: tensor<16xf32>,
                   %w2: tensor<32x16x3x3xf32>, %b2: tensor<32xf32>,
                   %w3: tensor<1024x6272xf32>, %b3: tensor<1024xf32>,
                   %w4: tensor<10x1024xf32>, %b4: tensor<10xf32>) -> tensor<64x10xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant 0xFF800000 : f32
  // conv1 + ReLU
  %x_pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<64x1x28x28xf32> to tensor<64x1x30x30xf32>
  %e1 = tensor.empty() : tensor<64x16x28x28xf32>
  %bias1 = linalg.broadcast ins(%b1 : tensor<16xf32>) outs(%e1 : tensor<64x16x28x28xf32>) dimensions = [0, 2, 3]
  %conv1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%x_pad, %w1 : tensor<64x1x30x30xf32>, tensor<16x1x3x3xf32>) outs(%bias1 : tensor<64x16x28x28xf32>) -> tensor<64x16x28x28xf32>
  %relu1 = linalg.generic {indexing_maps = [#nchw, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv1 : tensor<64x16x28x28xf32>) outs(%e1 : tensor<64x16x28x28xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<64x16x28x28xf32>
  // conv2 + ReLU
  %r1_pad = tensor.pad %relu1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<64x16x28x28xf32> to tensor<64x16x30x30xf32>
  %e2 = tensor.empty() : tensor<64x32x28x28xf32>
  %bias2 = linalg.broadcast ins(%b2 : tensor<32xf32>) outs(%e2 : tensor<64x32x28x28xf32>) dimensions = [0, 2, 3]
  %conv2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%r1_pad, %w2 : tensor<64x16x30x30xf32>, tensor<32x16x3x3xf32>) outs(%bias2 : tensor<64x32x28x28xf32>) -> tensor<64x32x28x28xf32>
  %relu2 = linalg.generic {indexing_maps = [#nchw, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv2 : tensor<64x32x28x28xf32>) outs(%e2 : tensor<64x32x28x28xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<64x32x28x28xf32>
  // 2x2 max pool, stride 2
  %e3 = tensor.empty() : tensor<64x32x14x14xf32>
  %pool_init = linalg.fill ins(%lowest : f32) outs(%e3 : tensor<64x32x14x14xf32>) -> tensor<64x32x14x14xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %pool = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
    ins(%relu2, %window : tensor<64x32x28x28xf32>, tensor<2x2xf32>) outs(%pool_init : tensor<64x32x14x14xf32>) -> tensor<64x32x14x14xf32>
  %flat = tensor.collapse_shape %pool [[0], [1, 2, 3]] : tensor<64x32x14x14xf32> into tensor<64x6272xf32>
  // linear 6272 -> 1024 + ReLU
  %e4 = tensor.empty() : tensor<6272x1024xf32>
  %w3_t = linalg.transpose ins(%w3 : tensor<1024x6272xf32>) outs(%e4 : tensor<6272x1024xf32>) permutation = [1, 0]
  %e5 = tensor.empty() : tensor<64x1024xf32>
  %zeros5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %fc1 = linalg.matmul ins(%flat, %w3_t : tensor<64x6272xf32>, tensor<6272x1024xf32>) outs(%zeros5 : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %hidden = linalg.generic {indexing_maps = [#rows, #bias, #rows], iterator_types = ["parallel", "parallel"]}
    ins(%fc1, %b3 : tensor<64x1024xf32>, tensor<1024xf32>) outs(%e5 : tensor<64x1024xf32>) {
  ^bb0(%in: f32, %b: f32, %o: f32):
    %s = arith.addf %in, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<64x1024xf32>
  // linear 1024 -> 10
  %e6 = tensor.empty() : tensor<1024x10xf32>
  %w4_t = linalg.transpose ins(%w4 : tensor<10x1024xf32>) outs(%e6 : tensor<1024x10xf32>) permutation = [1, 0]
  %e7 = tensor.empty() : tensor<64x10xf32>
  %zeros7 = linalg.fill ins(%zero : f32) outs(%e7 : tensor<64x10xf32>) -> tensor<64x10xf32>
  %fc2 = linalg.matmul ins(%hidden, %w4_t : tensor<64x1024xf32>, tensor<1024x10xf32>) outs(%zeros7 : tensor<64x10xf32>) -> tensor<64x10xf32>
  %logits = linalg.generic {indexing_maps = [#rows, #bias, #rows], iterator_types = ["parallel", "parallel"]}
    ins(%fc2, %b4 : tensor<64x10xf32>, tensor<10xf32>) outs(%e7 : tensor<64x10xf32>) {
  ^bb0(%in: f32, %b: f32, %o: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<64x10xf32>
  return %logits : tensor<64x10xf32>
}
