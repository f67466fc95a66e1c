// nn.Linear(16, 10) + ReLU on a batch of 8, as a TOSA exporter writes it:
// tosa.matmul (with its zero points), tosa.add of the bias, tosa.clamp.
func.func @linear(%x: tensor<1x8x16xf32>, %w: tensor<1x16x10xf32>, %b: tensor<1x1x10xf32>) -> tensor<1x8x10xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %mm = tosa.matmul %x, %w, %zp, %zp : (tensor<1x8x16xf32>, tensor<1x16x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x10xf32>
  %sum = tosa.add %mm, %b : (tensor<1x8x10xf32>, tensor<1x1x10xf32>) -> tensor<1x8x10xf32>
  %relu = tosa.clamp %sum {min_val = 0.0 : f32, max_val = 3.4028235e38 : f32} : (tensor<1x8x10xf32>) -> tensor<1x8x10xf32>
  return %relu : tensor<1x8x10xf32>
}
