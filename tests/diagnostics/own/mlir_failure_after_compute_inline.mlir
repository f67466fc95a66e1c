// A row sum written into column 0 of a 4x2 tensor: after `rfactor`, the
// partial op's output map `(d0, d1, d2) -> (d0, 0, d2)` is not a projected
// permutation, and MLIR's vectorizer refuses it. `check` does not predict
// this; the failure is traced to `vectorize` by applying parts of the script
// to the payload as the script saw it, with `sq` inlined.
func.func @f(%a: tensor<4x64xf32>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %e = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x64xf32>) outs(%a : tensor<4x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<4x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<4x64xf32>) outs(%c : tensor<4x2xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %o : f32
    linalg.yield %y : f32
  } -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
