// A matmul whose second input's column blocks are long: 2048 rows of 64 floats per block.
func.func @matmul(%a: tensor<16x2048xf32>, %b: tensor<2048x512xf32>, %c: tensor<16x512xf32>) -> tensor<16x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x2048xf32>, tensor<2048x512xf32>) outs(%c : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %r : tensor<16x512xf32>
}
