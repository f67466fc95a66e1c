// A running difference: out = x - out is not associative.
func.func @difference(%x: tensor<64x32xf32>, %out: tensor<64xf32>) -> tensor<64xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
     ins(%x : tensor<64x32xf32>) outs(%out : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.subf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
