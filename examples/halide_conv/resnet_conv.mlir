// The second convolution shape: a ResNet layer's 3x3 convolution, as in ResNet's conv2_x
// stage: N=8, H=W=56, CI=CO=64 (input pre-padded to 58x58), bias broadcast, conv, ReLU;
// the same algorithm as conv.mlir (conv_layer), in the same NHWC/FHWC layouts.
!tinput = tensor<8x58x58x64xf32>
!tfilter = tensor<64x3x3x64xf32>
!tbias = tensor<64xf32>
!toutput = tensor<8x56x56x64xf32>

func.func @conv(%input: !tinput, %filter: !tfilter, %bias: !tbias,
                %output: !toutput) -> !toutput {
  %bias_init = tensor.empty() : !toutput
  %biased = linalg.broadcast ins(%bias : !tbias)
    outs(%bias_init : !toutput) dimensions = [0, 1, 2]
  %convolved = linalg.generic {
    iterator_types = ["parallel", "parallel", "parallel", "parallel",
                      "reduction", "reduction", "reduction"],
    indexing_maps = [
      affine_map<(n, y, x, c, rz, ry, rx) -> (rx, rz, ry, c)>,
      affine_map<(n, y, x, c, rz, ry, rx) -> (n, y+rz, x+ry, rx)>,
      affine_map<(n, y, x, c, rz, ry, rx) -> (n, y, x, c)>
    ]
  } ins(%filter, %input : !tfilter, !tinput) outs(%biased : !toutput) {
  ^bb0(%f: f32, %in: f32, %b: f32):
    %m = arith.mulf %in, %f {fastmath = #arith.fastmath<fast>} : f32
    %s = arith.addf %b, %m {fastmath = #arith.fastmath<fast>} : f32
    linalg.yield %s : f32
  } -> !toutput
  %c0 = arith.constant 0.0 : f32
  %relued = linalg.generic {
    iterator_types = ["parallel", "parallel", "parallel", "parallel"],
    indexing_maps = [
      affine_map<(d0, d1, d2, d3) -> ()>,
      affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
      affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
    ]
  } ins(%c0, %convolved : f32, !toutput) outs(%output : !toutput) {
  ^bb0(%cst: f32, %in: f32, %out: f32):
    %m = arith.maximumf %cst, %in : f32
    linalg.yield %m : f32
  } -> !toutput
  return %relued : !toutput
}
