//! A producer computed in a window's tile (a convolution in a stride-2 max
//! pool's rows) has a static tile there, the window's span of it, so it can
//! be vectorized; the results are the unscheduled payload's.

mod common;

use common::sched_apply_on as sched_apply;

/// A 3x3 convolution into zeros, its ReLU read by a 2x2 max pool of stride
/// 2, 32 channels.
const CONV_RELU_POOL: &str = r#"
#id = affine_map<(n, c, y, x) -> (n, c, y, x)>
func.func @f(%a: tensor<1x8x10x10xf32>, %w: tensor<32x8x3x3xf32>) -> tensor<1x32x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x32x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%a, %w : tensor<1x8x10x10xf32>, tensor<32x8x3x3xf32>) outs(%z : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x32x8x8xf32>) outs(%e : tensor<1x32x8x8xf32>) {
  ^bb0(%v: f32, %out: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x32x8x8xf32>
  %pe = tensor.empty() : tensor<1x32x4x4xf32>
  %pi = linalg.fill ins(%ninf : f32) outs(%pe : tensor<1x32x4x4xf32>) -> tensor<1x32x4x4xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%relu, %window : tensor<1x32x8x8xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x32x4x4xf32>) -> tensor<1x32x4x4xf32>
  return %p : tensor<1x32x4x4xf32>
}
"#;

#[test]
fn a_convolution_computed_in_a_strided_pools_rows_is_vectorized_there() {
    // Each pool row reads two rows of 8 columns of the convolution's ReLU
    // (2 * (4 - 1) + 2): a static 32 x 2 x 8 tile, vectorized along the
    // channels with 4 columns unrolled.
    let schedule = "func conv = linalg.conv_2d_nchw_fchw (n, f, y, x | c, ky, kx)\n\
                    func relu = linalg.generic (n, c, y, x)\n\
                    func pool = linalg.pooling_nchw_max (n, c, y, x | ky, kx)\n\
                    relu.compute_inline()\n\
                    pool.reorder(x, kx, ky, c, y, n).vectorize(x)\n\
                    conv.compute_at(pool, y).split(x, xo, xi, 4)\n    \
                    .reorder(f, xi, kx, ky, c, xo, y).vectorize(f).unroll(xi)\n";
    let (code, report) = sched_apply(CONV_RELU_POOL, schedule, &["run", "--check"]);
    assert_eq!(code, Some(0), "{report}");
    assert!(report.contains("check: ok"), "{report}");
    let (code, scheduled) = sched_apply(CONV_RELU_POOL, schedule, &["--emit", "payload"]);
    assert_eq!(code, Some(0), "{scheduled}");
    assert!(scheduled.contains("tensor<1x32x2x8xf32>"), "{scheduled}");
    assert!(scheduled.contains("vector<4x32xf32>"), "{scheduled}");
}
