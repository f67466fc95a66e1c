// Two layers of a small MLP: matmul, bias add, ReLU, twice (the matmuls
// alike, and the ReLUs), for `sched-apply tune`'s tests.
#rows = affine_map<(i, j) -> (i, j)>
#bias = affine_map<(i, j) -> (j)>
func.func @mlp(%x: tensor<32x64xf32>, %w1: tensor<64x64xf32>, %b1: tensor<64xf32>,
               %w2: tensor<64x64xf32>) -> tensor<32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<32x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<32x64xf32>) -> tensor<32x64xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<32x64xf32>, tensor<64x64xf32>)
                      outs(%init : tensor<32x64xf32>) -> tensor<32x64xf32>
  %a1 = linalg.generic {indexing_maps = [#rows, #bias, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%m1, %b1 : tensor<32x64xf32>, tensor<64xf32>) outs(%empty : tensor<32x64xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %r1 = linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%a1 : tensor<32x64xf32>) outs(%empty : tensor<32x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<32x64xf32>
  %m2 = linalg.matmul ins(%r1, %w2 : tensor<32x64xf32>, tensor<64x64xf32>)
                      outs(%init : tensor<32x64xf32>) -> tensor<32x64xf32>
  %r2 = linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%m2 : tensor<32x64xf32>) outs(%empty : tensor<32x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<32x64xf32>
  return %r2 : tensor<32x64xf32>
}
