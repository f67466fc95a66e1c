// mnist_cnn_b64: exported by scripts/export_torch.py (torch 2.15.0+cu132, output_type="linalg-on-tensors").
// Arguments: the input, then conv1.weight, conv1.bias, conv2.weight, conv2.bias, fc1.weight, fc1.bias, fc2.weight, fc2.bias.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @forward(%arg0: tensor<64x1x28x28xf32>, %arg1: tensor<16x1x3x3xf32>, %arg2: tensor<16xf32>, %arg3: tensor<32x16x3x3xf32>, %arg4: tensor<32xf32>, %arg5: tensor<1024x6272xf32>, %arg6: tensor<1024xf32>, %arg7: tensor<10x1024xf32>, %arg8: tensor<10xf32>) -> tensor<64x10xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg9: index, %arg10: index, %arg11: index, %arg12: index):
      tensor.yield %cst : f32
    } : tensor<64x1x28x28xf32> to tensor<64x1x30x30xf32>
    %0 = tensor.empty() : tensor<64x16x28x28xf32>
    %broadcasted = linalg.broadcast ins(%arg2 : tensor<16xf32>) outs(%0 : tensor<64x16x28x28xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %arg1 : tensor<64x1x30x30xf32>, tensor<16x1x3x3xf32>) outs(%broadcasted : tensor<64x16x28x28xf32>) -> tensor<64x16x28x28xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<64x16x28x28xf32>) outs(%0 : tensor<64x16x28x28xf32>) {
    ^bb0(%in: f32, %out: f32):
      %23 = arith.cmpf ugt, %in, %cst : f32
      %24 = arith.select %23, %in, %cst : f32
      linalg.yield %24 : f32
    } -> tensor<64x16x28x28xf32>
    %padded_1 = tensor.pad %2 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg9: index, %arg10: index, %arg11: index, %arg12: index):
      tensor.yield %cst : f32
    } : tensor<64x16x28x28xf32> to tensor<64x16x30x30xf32>
    %3 = tensor.empty() : tensor<64x32x28x28xf32>
    %broadcasted_2 = linalg.broadcast ins(%arg4 : tensor<32xf32>) outs(%3 : tensor<64x32x28x28xf32>) dimensions = [0, 2, 3] 
    %4 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_1, %arg3 : tensor<64x16x30x30xf32>, tensor<32x16x3x3xf32>) outs(%broadcasted_2 : tensor<64x32x28x28xf32>) -> tensor<64x32x28x28xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4 : tensor<64x32x28x28xf32>) outs(%3 : tensor<64x32x28x28xf32>) {
    ^bb0(%in: f32, %out: f32):
      %23 = arith.cmpf ugt, %in, %cst : f32
      %24 = arith.select %23, %in, %cst : f32
      linalg.yield %24 : f32
    } -> tensor<64x32x28x28xf32>
    %6 = tensor.empty() : tensor<64x32x14x14xf32>
    %7 = linalg.fill ins(%cst_0 : f32) outs(%6 : tensor<64x32x14x14xf32>) -> tensor<64x32x14x14xf32>
    %8 = tensor.empty() : tensor<2x2xf32>
    %9 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%5, %8 : tensor<64x32x28x28xf32>, tensor<2x2xf32>) outs(%7 : tensor<64x32x14x14xf32>) -> tensor<64x32x14x14xf32>
    %collapsed = tensor.collapse_shape %9 [[0], [1, 2, 3]] : tensor<64x32x14x14xf32> into tensor<64x6272xf32>
    %10 = tensor.empty() : tensor<6272x1024xf32>
    %transposed = linalg.transpose ins(%arg5 : tensor<1024x6272xf32>) outs(%10 : tensor<6272x1024xf32>) permutation = [1, 0] 
    %11 = tensor.empty() : tensor<64x1024xf32>
    %12 = linalg.fill ins(%cst : f32) outs(%11 : tensor<64x1024xf32>) -> tensor<64x1024xf32>
    %13 = linalg.matmul ins(%collapsed, %transposed : tensor<64x6272xf32>, tensor<6272x1024xf32>) outs(%12 : tensor<64x1024xf32>) -> tensor<64x1024xf32>
    %14 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel"]} ins(%arg6 : tensor<1024xf32>) outs(%11 : tensor<64x1024xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<64x1024xf32>
    %15 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%13, %14 : tensor<64x1024xf32>, tensor<64x1024xf32>) outs(%11 : tensor<64x1024xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %23 = arith.addf %in, %in_4 : f32
      linalg.yield %23 : f32
    } -> tensor<64x1024xf32>
    %16 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%15 : tensor<64x1024xf32>) outs(%11 : tensor<64x1024xf32>) {
    ^bb0(%in: f32, %out: f32):
      %23 = arith.cmpf ugt, %in, %cst : f32
      %24 = arith.select %23, %in, %cst : f32
      linalg.yield %24 : f32
    } -> tensor<64x1024xf32>
    %17 = tensor.empty() : tensor<1024x10xf32>
    %transposed_3 = linalg.transpose ins(%arg7 : tensor<10x1024xf32>) outs(%17 : tensor<1024x10xf32>) permutation = [1, 0] 
    %18 = tensor.empty() : tensor<64x10xf32>
    %19 = linalg.fill ins(%cst : f32) outs(%18 : tensor<64x10xf32>) -> tensor<64x10xf32>
    %20 = linalg.matmul ins(%16, %transposed_3 : tensor<64x1024xf32>, tensor<1024x10xf32>) outs(%19 : tensor<64x10xf32>) -> tensor<64x10xf32>
    %21 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel"]} ins(%arg8 : tensor<10xf32>) outs(%18 : tensor<64x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<64x10xf32>
    %22 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%20, %21 : tensor<64x10xf32>, tensor<64x10xf32>) outs(%18 : tensor<64x10xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %23 = arith.addf %in, %in_4 : f32
      linalg.yield %23 : f32
    } -> tensor<64x10xf32>
    return %22 : tensor<64x10xf32>
  }
}
