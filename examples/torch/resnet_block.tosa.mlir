// resnet_block: exported by scripts/export_torch.py (torch 2.15.0+cu132, output_type="tosa").
// Arguments: the input, then conv1.weight, bn1.weight, bn1.bias, conv2.weight, bn2.weight, bn2.bias, bn1.running_mean, bn1.running_var, bn2.running_mean, bn2.running_var.
module {
  func.func @forward(%arg0: tensor<1x64x14x14xf32>, %arg1: tensor<64x64x3x3xf32>, %arg2: tensor<64xf32>, %arg3: tensor<64xf32>, %arg4: tensor<64x64x3x3xf32>, %arg5: tensor<64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<64xf32>, %arg8: tensor<64xf32>, %arg9: tensor<64xf32>, %arg10: tensor<64xf32>) -> tensor<1x64x14x14xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %1 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<64xf32>}> : () -> tensor<64xf32>
    %2 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %3 = tosa.const_shape  {values = dense<[1, 64, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %4 = "tosa.const"() <{values = dense<9.99999974E-6> : tensor<1xf32>}> : () -> tensor<1xf32>
    %5 = tosa.const_shape  {values = dense<[1, 1, 1, 64]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %6 = tosa.transpose %arg0 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x64x14x14xf32>) -> tensor<1x14x14x64xf32>
    %7 = tosa.transpose %arg1 {perms = array<i32: 0, 2, 3, 1>} : (tensor<64x64x3x3xf32>) -> tensor<64x3x3x64xf32>
    %8 = tosa.conv2d %6, %7, %1, %0, %0 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x14x14x64xf32>, tensor<64x3x3x64xf32>, tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x14x14x64xf32>
    %9 = tosa.add %arg8, %4 : (tensor<64xf32>, tensor<1xf32>) -> tensor<64xf32>
    %10 = tosa.rsqrt %9 : (tensor<64xf32>) -> tensor<64xf32>
    %11 = tosa.reshape %arg7, %5 : (tensor<64xf32>, !tosa.shape<4>) -> tensor<1x1x1x64xf32>
    %12 = tosa.sub %8, %11 : (tensor<1x14x14x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x14x14x64xf32>
    %13 = tosa.reshape %10, %5 : (tensor<64xf32>, !tosa.shape<4>) -> tensor<1x1x1x64xf32>
    %14 = tosa.mul %12, %13, %2 : (tensor<1x14x14x64xf32>, tensor<1x1x1x64xf32>, tensor<1xi8>) -> tensor<1x14x14x64xf32>
    %15 = tosa.reshape %arg2, %5 : (tensor<64xf32>, !tosa.shape<4>) -> tensor<1x1x1x64xf32>
    %16 = tosa.mul %14, %15, %2 : (tensor<1x14x14x64xf32>, tensor<1x1x1x64xf32>, tensor<1xi8>) -> tensor<1x14x14x64xf32>
    %17 = tosa.reshape %arg3, %5 : (tensor<64xf32>, !tosa.shape<4>) -> tensor<1x1x1x64xf32>
    %18 = tosa.add %16, %17 : (tensor<1x14x14x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x14x14x64xf32>
    %19 = tosa.clamp %18 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
    %20 = tosa.transpose %arg4 {perms = array<i32: 0, 2, 3, 1>} : (tensor<64x64x3x3xf32>) -> tensor<64x3x3x64xf32>
    %21 = tosa.conv2d %19, %20, %1, %0, %0 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x14x14x64xf32>, tensor<64x3x3x64xf32>, tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x14x14x64xf32>
    %22 = tosa.transpose %21 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x14x14x64xf32>) -> tensor<1x64x14x14xf32>
    %23 = tosa.add %arg10, %4 : (tensor<64xf32>, tensor<1xf32>) -> tensor<64xf32>
    %24 = tosa.rsqrt %23 : (tensor<64xf32>) -> tensor<64xf32>
    %25 = tosa.reshape %arg9, %3 : (tensor<64xf32>, !tosa.shape<4>) -> tensor<1x64x1x1xf32>
    %26 = tosa.sub %22, %25 : (tensor<1x64x14x14xf32>, tensor<1x64x1x1xf32>) -> tensor<1x64x14x14xf32>
    %27 = tosa.reshape %24, %3 : (tensor<64xf32>, !tosa.shape<4>) -> tensor<1x64x1x1xf32>
    %28 = tosa.mul %26, %27, %2 : (tensor<1x64x14x14xf32>, tensor<1x64x1x1xf32>, tensor<1xi8>) -> tensor<1x64x14x14xf32>
    %29 = tosa.reshape %arg5, %3 : (tensor<64xf32>, !tosa.shape<4>) -> tensor<1x64x1x1xf32>
    %30 = tosa.mul %28, %29, %2 : (tensor<1x64x14x14xf32>, tensor<1x64x1x1xf32>, tensor<1xi8>) -> tensor<1x64x14x14xf32>
    %31 = tosa.reshape %arg6, %3 : (tensor<64xf32>, !tosa.shape<4>) -> tensor<1x64x1x1xf32>
    %32 = tosa.add %30, %31 : (tensor<1x64x14x14xf32>, tensor<1x64x1x1xf32>) -> tensor<1x64x14x14xf32>
    %33 = tosa.add %32, %arg0 : (tensor<1x64x14x14xf32>, tensor<1x64x14x14xf32>) -> tensor<1x64x14x14xf32>
    %34 = tosa.clamp %33 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<1x64x14x14xf32>) -> tensor<1x64x14x14xf32>
    return %34 : tensor<1x64x14x14xf32>
  }
}
