// mlp: exported by scripts/export_torch.py (torch 2.15.0+cu132, output_type="tosa").
// Arguments: the input, then layers.0.weight, layers.0.bias, layers.2.weight, layers.2.bias, layers.4.weight, layers.4.bias.
module {
  func.func @forward(%arg0: tensor<64x784xf32>, %arg1: tensor<256x784xf32>, %arg2: tensor<256xf32>, %arg3: tensor<128x256xf32>, %arg4: tensor<128xf32>, %arg5: tensor<10x128xf32>, %arg6: tensor<10xf32>) -> tensor<64x10xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %1 = tosa.const_shape  {values = dense<[1, 64, 784]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = tosa.const_shape  {values = dense<[1, 784, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = tosa.const_shape  {values = dense<[64, 256]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %4 = tosa.const_shape  {values = dense<[1, 256]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %5 = tosa.const_shape  {values = dense<[1, 64, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = tosa.const_shape  {values = dense<[1, 256, 128]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[64, 128]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %8 = tosa.const_shape  {values = dense<[1, 128]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %9 = tosa.const_shape  {values = dense<[1, 64, 128]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %10 = tosa.const_shape  {values = dense<[1, 128, 10]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %11 = tosa.const_shape  {values = dense<[64, 10]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %12 = tosa.const_shape  {values = dense<[1, 10]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %13 = tosa.transpose %arg1 {perms = array<i32: 1, 0>} : (tensor<256x784xf32>) -> tensor<784x256xf32>
    %14 = tosa.reshape %arg0, %1 : (tensor<64x784xf32>, !tosa.shape<3>) -> tensor<1x64x784xf32>
    %15 = tosa.reshape %13, %2 : (tensor<784x256xf32>, !tosa.shape<3>) -> tensor<1x784x256xf32>
    %16 = tosa.matmul %14, %15, %0, %0 : (tensor<1x64x784xf32>, tensor<1x784x256xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x256xf32>
    %17 = tosa.reshape %16, %3 : (tensor<1x64x256xf32>, !tosa.shape<2>) -> tensor<64x256xf32>
    %18 = tosa.reshape %arg2, %4 : (tensor<256xf32>, !tosa.shape<2>) -> tensor<1x256xf32>
    %19 = tosa.add %17, %18 : (tensor<64x256xf32>, tensor<1x256xf32>) -> tensor<64x256xf32>
    %20 = tosa.clamp %19 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<64x256xf32>) -> tensor<64x256xf32>
    %21 = tosa.transpose %arg3 {perms = array<i32: 1, 0>} : (tensor<128x256xf32>) -> tensor<256x128xf32>
    %22 = tosa.reshape %20, %5 : (tensor<64x256xf32>, !tosa.shape<3>) -> tensor<1x64x256xf32>
    %23 = tosa.reshape %21, %6 : (tensor<256x128xf32>, !tosa.shape<3>) -> tensor<1x256x128xf32>
    %24 = tosa.matmul %22, %23, %0, %0 : (tensor<1x64x256xf32>, tensor<1x256x128xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x128xf32>
    %25 = tosa.reshape %24, %7 : (tensor<1x64x128xf32>, !tosa.shape<2>) -> tensor<64x128xf32>
    %26 = tosa.reshape %arg4, %8 : (tensor<128xf32>, !tosa.shape<2>) -> tensor<1x128xf32>
    %27 = tosa.add %25, %26 : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    %28 = tosa.clamp %27 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<64x128xf32>) -> tensor<64x128xf32>
    %29 = tosa.transpose %arg5 {perms = array<i32: 1, 0>} : (tensor<10x128xf32>) -> tensor<128x10xf32>
    %30 = tosa.reshape %28, %9 : (tensor<64x128xf32>, !tosa.shape<3>) -> tensor<1x64x128xf32>
    %31 = tosa.reshape %29, %10 : (tensor<128x10xf32>, !tosa.shape<3>) -> tensor<1x128x10xf32>
    %32 = tosa.matmul %30, %31, %0, %0 : (tensor<1x64x128xf32>, tensor<1x128x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x10xf32>
    %33 = tosa.reshape %32, %11 : (tensor<1x64x10xf32>, !tosa.shape<2>) -> tensor<64x10xf32>
    %34 = tosa.reshape %arg6, %12 : (tensor<10xf32>, !tosa.shape<2>) -> tensor<1x10xf32>
    %35 = tosa.add %33, %34 : (tensor<64x10xf32>, tensor<1x10xf32>) -> tensor<64x10xf32>
    return %35 : tensor<64x10xf32>
  }
}
