// Looks like a matmul, but subtracts the products: no GEMM kernel computes that.
func.func @gm(%a: tensor<32x16xf32>, %b: tensor<16x24xf32>, %c: tensor<32x24xf32>) -> tensor<32x24xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : tensor<32x16xf32>, tensor<16x24xf32>) outs(%c : tensor<32x24xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.subf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<32x24xf32>
  return %r : tensor<32x24xf32>
}
