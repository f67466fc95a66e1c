// An i32 matmul: hwacc16 computes f32 tiles only.
func.func @mmi(%a: tensor<32x16xi32>, %b: tensor<16x24xi32>, %c: tensor<32x24xi32>) -> tensor<32x24xi32> {
  %r = linalg.matmul ins(%a, %b : tensor<32x16xi32>, tensor<16x24xi32>) outs(%c : tensor<32x24xi32>) -> tensor<32x24xi32>
  return %r : tensor<32x24xi32>
}
