// Four elementwise stages: s = x * w, t = s + b (b by row), u = max(t, 0), out = u * u + x.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @chain4(%x: tensor<24x80xf32>, %w: tensor<24x80xf32>, %b: tensor<80xf32>) -> tensor<24x80xf32> {
  %empty = tensor.empty() : tensor<24x80xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %w : tensor<24x80xf32>, tensor<24x80xf32>) outs(%empty : tensor<24x80xf32>) {
  ^bb0(%xv: f32, %wv: f32, %out: f32):
    %m = arith.mulf %xv, %wv : f32
    linalg.yield %m : f32
  } -> tensor<24x80xf32>
  %t = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s, %b : tensor<24x80xf32>, tensor<80xf32>) outs(%empty : tensor<24x80xf32>) {
  ^bb0(%sv: f32, %bv: f32, %out: f32):
    %a = arith.addf %sv, %bv : f32
    linalg.yield %a : f32
  } -> tensor<24x80xf32>
  %zero = arith.constant 0.0 : f32
  %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<24x80xf32>) outs(%empty : tensor<24x80xf32>) {
  ^bb0(%tv: f32, %out: f32):
    %r = arith.maximumf %tv, %zero : f32
    linalg.yield %r : f32
  } -> tensor<24x80xf32>
  %result = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%u, %x : tensor<24x80xf32>, tensor<24x80xf32>) outs(%empty : tensor<24x80xf32>) {
  ^bb0(%uv: f32, %xv: f32, %out: f32):
    %sq = arith.mulf %uv, %uv : f32
    %o = arith.addf %sq, %xv : f32
    linalg.yield %o : f32
  } -> tensor<24x80xf32>
  return %result : tensor<24x80xf32>
}
