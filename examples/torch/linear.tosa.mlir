// linear: exported by scripts/export_torch.py (torch 2.15.0+cu132, output_type="tosa").
// Arguments: the input, then weight, bias.
module {
  func.func @forward(%arg0: tensor<8x16xf32>, %arg1: tensor<10x16xf32>, %arg2: tensor<10xf32>) -> tensor<8x10xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %1 = tosa.const_shape  {values = dense<[1, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = tosa.const_shape  {values = dense<[1, 16, 10]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = tosa.const_shape  {values = dense<[8, 10]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %4 = tosa.const_shape  {values = dense<[1, 10]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %5 = tosa.transpose %arg1 {perms = array<i32: 1, 0>} : (tensor<10x16xf32>) -> tensor<16x10xf32>
    %6 = tosa.reshape %arg0, %1 : (tensor<8x16xf32>, !tosa.shape<3>) -> tensor<1x8x16xf32>
    %7 = tosa.reshape %5, %2 : (tensor<16x10xf32>, !tosa.shape<3>) -> tensor<1x16x10xf32>
    %8 = tosa.matmul %6, %7, %0, %0 : (tensor<1x8x16xf32>, tensor<1x16x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x10xf32>
    %9 = tosa.reshape %8, %3 : (tensor<1x8x10xf32>, !tosa.shape<2>) -> tensor<8x10xf32>
    %10 = tosa.reshape %arg2, %4 : (tensor<10xf32>, !tosa.shape<2>) -> tensor<1x10xf32>
    %11 = tosa.add %9, %10 : (tensor<8x10xf32>, tensor<1x10xf32>) -> tensor<8x10xf32>
    return %11 : tensor<8x10xf32>
  }
}
