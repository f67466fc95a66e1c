// mnist_cnn_b1: exported by scripts/export_torch.py (torch 2.15.0+cu132, output_type="tosa").
// Arguments: the input, then conv1.weight, conv1.bias, conv2.weight, conv2.bias, fc1.weight, fc1.bias, fc2.weight, fc2.bias.
module {
  func.func @forward(%arg0: tensor<1x1x28x28xf32>, %arg1: tensor<16x1x3x3xf32>, %arg2: tensor<16xf32>, %arg3: tensor<32x16x3x3xf32>, %arg4: tensor<32xf32>, %arg5: tensor<1024x6272xf32>, %arg6: tensor<1024xf32>, %arg7: tensor<10x1024xf32>, %arg8: tensor<10xf32>) -> tensor<1x10xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %1 = tosa.const_shape  {values = dense<[1, 1, 6272]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = tosa.const_shape  {values = dense<[1, 6272, 1024]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = tosa.const_shape  {values = dense<[1, 1024]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %4 = tosa.const_shape  {values = dense<[1, 1, 1024]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %5 = tosa.const_shape  {values = dense<[1, 1024, 10]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = tosa.const_shape  {values = dense<[1, 10]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %7 = tosa.const_shape  {values = dense<[1, 28, 28, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %8 = tosa.const_shape  {values = dense<[16, 3, 3, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %9 = tosa.reshape %arg0, %7 : (tensor<1x1x28x28xf32>, !tosa.shape<4>) -> tensor<1x28x28x1xf32>
    %10 = tosa.reshape %arg1, %8 : (tensor<16x1x3x3xf32>, !tosa.shape<4>) -> tensor<16x3x3x1xf32>
    %11 = tosa.conv2d %9, %10, %arg2, %0, %0 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x28x28x1xf32>, tensor<16x3x3x1xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x28x28x16xf32>
    %12 = tosa.clamp %11 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<1x28x28x16xf32>) -> tensor<1x28x28x16xf32>
    %13 = tosa.transpose %arg3 {perms = array<i32: 0, 2, 3, 1>} : (tensor<32x16x3x3xf32>) -> tensor<32x3x3x16xf32>
    %14 = tosa.conv2d %12, %13, %arg4, %0, %0 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x28x28x16xf32>, tensor<32x3x3x16xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x28x28x32xf32>
    %15 = tosa.clamp %14 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<1x28x28x32xf32>) -> tensor<1x28x28x32xf32>
    %16 = tosa.max_pool2d %15 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x28x28x32xf32>) -> tensor<1x14x14x32xf32>
    %17 = tosa.transpose %16 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x14x14x32xf32>) -> tensor<1x32x14x14xf32>
    %18 = tosa.transpose %arg5 {perms = array<i32: 1, 0>} : (tensor<1024x6272xf32>) -> tensor<6272x1024xf32>
    %19 = tosa.reshape %17, %1 : (tensor<1x32x14x14xf32>, !tosa.shape<3>) -> tensor<1x1x6272xf32>
    %20 = tosa.reshape %18, %2 : (tensor<6272x1024xf32>, !tosa.shape<3>) -> tensor<1x6272x1024xf32>
    %21 = tosa.matmul %19, %20, %0, %0 : (tensor<1x1x6272xf32>, tensor<1x6272x1024xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1024xf32>
    %22 = tosa.reshape %21, %3 : (tensor<1x1x1024xf32>, !tosa.shape<2>) -> tensor<1x1024xf32>
    %23 = tosa.reshape %arg6, %3 : (tensor<1024xf32>, !tosa.shape<2>) -> tensor<1x1024xf32>
    %24 = tosa.add %22, %23 : (tensor<1x1024xf32>, tensor<1x1024xf32>) -> tensor<1x1024xf32>
    %25 = tosa.clamp %24 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<1x1024xf32>) -> tensor<1x1024xf32>
    %26 = tosa.transpose %arg7 {perms = array<i32: 1, 0>} : (tensor<10x1024xf32>) -> tensor<1024x10xf32>
    %27 = tosa.reshape %25, %4 : (tensor<1x1024xf32>, !tosa.shape<3>) -> tensor<1x1x1024xf32>
    %28 = tosa.reshape %26, %5 : (tensor<1024x10xf32>, !tosa.shape<3>) -> tensor<1x1024x10xf32>
    %29 = tosa.matmul %27, %28, %0, %0 : (tensor<1x1x1024xf32>, tensor<1x1024x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x10xf32>
    %30 = tosa.reshape %29, %6 : (tensor<1x1x10xf32>, !tosa.shape<2>) -> tensor<1x10xf32>
    %31 = tosa.reshape %arg8, %6 : (tensor<10xf32>, !tosa.shape<2>) -> tensor<1x10xf32>
    %32 = tosa.add %30, %31 : (tensor<1x10xf32>, tensor<1x10xf32>) -> tensor<1x10xf32>
    return %32 : tensor<1x10xf32>
  }
}
