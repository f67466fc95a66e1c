// mnist_cnn_b64: exported by scripts/export_torch.py (torch 2.15.0+cu132, output_type="tosa").
// Arguments: the input, then conv1.weight, conv1.bias, conv2.weight, conv2.bias, fc1.weight, fc1.bias, fc2.weight, fc2.bias.
module {
  func.func @forward(%arg0: tensor<64x1x28x28xf32>, %arg1: tensor<16x1x3x3xf32>, %arg2: tensor<16xf32>, %arg3: tensor<32x16x3x3xf32>, %arg4: tensor<32xf32>, %arg5: tensor<1024x6272xf32>, %arg6: tensor<1024xf32>, %arg7: tensor<10x1024xf32>, %arg8: tensor<10xf32>) -> tensor<64x10xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %1 = tosa.const_shape  {values = dense<[1, 64, 6272]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = tosa.const_shape  {values = dense<[1, 6272, 1024]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = tosa.const_shape  {values = dense<[64, 1024]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %4 = tosa.const_shape  {values = dense<[1, 1024]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %5 = tosa.const_shape  {values = dense<[1, 64, 1024]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = tosa.const_shape  {values = dense<[1, 1024, 10]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[64, 10]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %8 = tosa.const_shape  {values = dense<[1, 10]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %9 = tosa.const_shape  {values = dense<[64, 28, 28, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %10 = tosa.const_shape  {values = dense<[16, 3, 3, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %11 = tosa.reshape %arg0, %9 : (tensor<64x1x28x28xf32>, !tosa.shape<4>) -> tensor<64x28x28x1xf32>
    %12 = tosa.reshape %arg1, %10 : (tensor<16x1x3x3xf32>, !tosa.shape<4>) -> tensor<16x3x3x1xf32>
    %13 = tosa.conv2d %11, %12, %arg2, %0, %0 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<64x28x28x1xf32>, tensor<16x3x3x1xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<64x28x28x16xf32>
    %14 = tosa.clamp %13 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<64x28x28x16xf32>) -> tensor<64x28x28x16xf32>
    %15 = tosa.transpose %arg3 {perms = array<i32: 0, 2, 3, 1>} : (tensor<32x16x3x3xf32>) -> tensor<32x3x3x16xf32>
    %16 = tosa.conv2d %14, %15, %arg4, %0, %0 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<64x28x28x16xf32>, tensor<32x3x3x16xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<64x28x28x32xf32>
    %17 = tosa.clamp %16 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<64x28x28x32xf32>) -> tensor<64x28x28x32xf32>
    %18 = tosa.max_pool2d %17 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<64x28x28x32xf32>) -> tensor<64x14x14x32xf32>
    %19 = tosa.transpose %18 {perms = array<i32: 0, 3, 1, 2>} : (tensor<64x14x14x32xf32>) -> tensor<64x32x14x14xf32>
    %20 = tosa.transpose %arg5 {perms = array<i32: 1, 0>} : (tensor<1024x6272xf32>) -> tensor<6272x1024xf32>
    %21 = tosa.reshape %19, %1 : (tensor<64x32x14x14xf32>, !tosa.shape<3>) -> tensor<1x64x6272xf32>
    %22 = tosa.reshape %20, %2 : (tensor<6272x1024xf32>, !tosa.shape<3>) -> tensor<1x6272x1024xf32>
    %23 = tosa.matmul %21, %22, %0, %0 : (tensor<1x64x6272xf32>, tensor<1x6272x1024xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x1024xf32>
    %24 = tosa.reshape %23, %3 : (tensor<1x64x1024xf32>, !tosa.shape<2>) -> tensor<64x1024xf32>
    %25 = tosa.reshape %arg6, %4 : (tensor<1024xf32>, !tosa.shape<2>) -> tensor<1x1024xf32>
    %26 = tosa.add %24, %25 : (tensor<64x1024xf32>, tensor<1x1024xf32>) -> tensor<64x1024xf32>
    %27 = tosa.clamp %26 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<64x1024xf32>) -> tensor<64x1024xf32>
    %28 = tosa.transpose %arg7 {perms = array<i32: 1, 0>} : (tensor<10x1024xf32>) -> tensor<1024x10xf32>
    %29 = tosa.reshape %27, %5 : (tensor<64x1024xf32>, !tosa.shape<3>) -> tensor<1x64x1024xf32>
    %30 = tosa.reshape %28, %6 : (tensor<1024x10xf32>, !tosa.shape<3>) -> tensor<1x1024x10xf32>
    %31 = tosa.matmul %29, %30, %0, %0 : (tensor<1x64x1024xf32>, tensor<1x1024x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x10xf32>
    %32 = tosa.reshape %31, %7 : (tensor<1x64x10xf32>, !tosa.shape<2>) -> tensor<64x10xf32>
    %33 = tosa.reshape %arg8, %8 : (tensor<10xf32>, !tosa.shape<2>) -> tensor<1x10xf32>
    %34 = tosa.add %32, %33 : (tensor<64x10xf32>, tensor<1x10xf32>) -> tensor<64x10xf32>
    return %34 : tensor<64x10xf32>
  }
}
