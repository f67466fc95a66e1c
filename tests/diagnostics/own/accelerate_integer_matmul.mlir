// An i32 x i32 matmul: hwacc16 computes f32 tiles and i8 x i8 -> i32 ones, not i32 x i32.
func.func @mmi(%a: tensor<32x16xi32>, %b: tensor<16x24xi32>, %c: tensor<32x24xi32>) -> tensor<32x24xi32> {
  %r = linalg.matmul ins(%a, %b : tensor<32x16xi32>, tensor<16x24xi32>) outs(%c : tensor<32x24xi32>) -> tensor<32x24xi32>
  return %r : tensor<32x24xi32>
}
