// A row broadcast to a matrix, summed back over the broadcast dimension:
// fused, nothing would say how far j runs.
func.func @sum(%a: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %wide = linalg.broadcast ins(%a : tensor<64xf32>) outs(%e : tensor<64x128xf32>) dimensions = [1]
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.reduce ins(%wide : tensor<64x128xf32>) outs(%z : tensor<64xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  return %s : tensor<64xf32>
}
