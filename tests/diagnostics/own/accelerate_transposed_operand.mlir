// C = A * B^T: B is stored n x k, so the kernel (which reads B as k x n rows) cannot take it as is.
func.func @mmt(%a: tensor<32x16xf32>, %b: tensor<24x16xf32>, %c: tensor<32x24xf32>) -> tensor<32x24xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    ins(%a, %b : tensor<32x16xf32>, tensor<24x16xf32>) outs(%c : tensor<32x24xf32>) -> tensor<32x24xf32>
  return %r : tensor<32x24xf32>
}
