// C += A * B^T with B stored [n, k], as a linear layer's weight is (48x32 times (40x32)^T).
func.func @linear(%a: tensor<48x32xf32>, %b: tensor<40x32xf32>, %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    ins(%a, %b : tensor<48x32xf32>, tensor<40x32xf32>) outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}
