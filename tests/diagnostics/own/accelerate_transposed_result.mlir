// C^T = A * B written into C stored [n, m]: the kernel writes C's rows, so a transposed result is refused.
func.func @mmt(%a: tensor<32x16xf32>, %b: tensor<16x24xf32>, %c: tensor<24x32xf32>) -> tensor<24x32xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (j, i)>], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : tensor<32x16xf32>, tensor<16x24xf32>) outs(%c : tensor<24x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<24x32xf32>
  return %r : tensor<24x32xf32>
}
