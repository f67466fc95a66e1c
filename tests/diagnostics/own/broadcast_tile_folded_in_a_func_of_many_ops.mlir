#map = affine_map<(d0, d1) -> (d1)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%x: tensor<8x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>) -> tensor<8x64xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %m = linalg.matmul ins(%x, %w : tensor<8x32xf32>, tensor<32x64xf32>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
  %bb = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<64xf32>) outs(%e : tensor<8x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x64xf32>
  %r = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%m, %bb : tensor<8x64xf32>, tensor<8x64xf32>) outs(%e : tensor<8x64xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %in2 : f32
    linalg.yield %s : f32
  } -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}
