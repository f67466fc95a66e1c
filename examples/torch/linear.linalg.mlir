// linear: exported by scripts/export_torch.py (torch 2.15.0+cu132, output_type="linalg-on-tensors").
// Arguments: the input, then weight, bias.
#map = affine_map<(d0, d1) -> (d1)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @forward(%arg0: tensor<8x16xf32>, %arg1: tensor<10x16xf32>, %arg2: tensor<10xf32>) -> tensor<8x10xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<16x10xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<10x16xf32>) outs(%0 : tensor<16x10xf32>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<8x10xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x10xf32>) -> tensor<8x10xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<8x16xf32>, tensor<16x10xf32>) outs(%2 : tensor<8x10xf32>) -> tensor<8x10xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg2 : tensor<10xf32>) outs(%1 : tensor<8x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<8x10xf32>
    %5 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%3, %4 : tensor<8x10xf32>, tensor<8x10xf32>) outs(%1 : tensor<8x10xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %6 = arith.addf %in, %in_0 : f32
      linalg.yield %6 : f32
    } -> tensor<8x10xf32>
    return %5 : tensor<8x10xf32>
  }
}
