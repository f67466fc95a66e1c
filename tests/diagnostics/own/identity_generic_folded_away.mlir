// x * 1.0: canonicalization folds the op away while a handle still names it.
#id = affine_map<(i, j) -> (i, j)>
func.func @big(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %v0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 1.0 : f32
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<64x64xf32>
  return %v0 : tensor<64x64xf32>
}
