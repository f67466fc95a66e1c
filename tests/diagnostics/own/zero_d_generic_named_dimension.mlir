// A 0-d generic: no iteration dimensions, so no loop to name or split.
#m = affine_map<() -> ()>
func.func @f(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<f32>
  %r = linalg.generic {indexing_maps = [#m, #m, #m], iterator_types = []} ins(%a, %b : tensor<f32>, tensor<f32>) outs(%e : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
