//! The candidates of a 1x1 convolution that `fuse` its rows and columns
//! into one run of pixels (`tuner/src/pixels.rs`): vectorized along the
//! pixels beside a block of output channels, each planning without a
//! warning, with a `parallel` loop only with threads; none for a 3x3
//! window, whose rows are no run of the input.

mod common;

use common::{described, planned, schedule_of};
use tuner::space::candidates;
use tuner::tasks::tasks;

/// MobileNet-v2's 1x1 convolution of 576 into 96 channels, at 7 x 14.
const POINTWISE: &str = r#"
func.func @f(%in: tensor<1x576x7x14xf32>, %w: tensor<96x576x1x1xf32>, %o: tensor<1x96x7x14xf32>)
    -> tensor<1x96x7x14xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%in, %w : tensor<1x576x7x14xf32>, tensor<96x576x1x1xf32>) outs(%o : tensor<1x96x7x14xf32>) -> tensor<1x96x7x14xf32>
  return %r : tensor<1x96x7x14xf32>
}
"#;

/// A 3x3 convolution of the same channels.
const WINDOW: &str = r#"
func.func @f(%in: tensor<1x16x9x16xf32>, %w: tensor<32x16x3x3xf32>, %o: tensor<1x32x7x14xf32>)
    -> tensor<1x32x7x14xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%in, %w : tensor<1x16x9x16xf32>, tensor<32x16x3x3xf32>) outs(%o : tensor<1x32x7x14xf32>) -> tensor<1x32x7x14xf32>
  return %r : tensor<1x32x7x14xf32>
}
"#;

#[test]
fn a_pointwise_convolution_gets_its_pixels_vectorized_beside_unrolled_channels() {
    let info = described(POINTWISE);
    let tasks = tasks(&info);
    let task = &tasks[0];
    let op = &info.ops[task.ops[0]];
    let [f, y, x] = [1, 2, 3].map(|d| task.dims[d].as_str());
    let fused = format!(".fuse({x}, {y}, {y}{x})");
    for threads in [1, 2] {
        let all = candidates(task, op, 16, threads);
        let pixels: Vec<_> = all.iter().filter(|c| c.chain.starts_with(&fused)).collect();
        // 98 pixels: tiles of 16 to 64, beside 2 to 16 channels within 24
        // accumulators, two loop orders.
        assert!(pixels.len() >= 20, "{all:?}");
        assert!(
            pixels.iter().any(
                |c| c.chain.contains(&format!(".split({f}, {f}o, {f}i, 12)"))
                    && c.chain
                        .contains(&format!(".split({y}{x}, {y}{x}o, {y}{x}i, 32)"))
            ),
            "{pixels:?}"
        );
        for candidate in &pixels {
            let warnings = planned(POINTWISE, &schedule_of(task, &info, candidate))
                .unwrap_or_else(|message| panic!("{}: {message}", candidate.chain));
            assert!(warnings.is_empty(), "{}: {warnings:?}", candidate.chain);
            assert!(candidate.tile.is_none(), "{}", candidate.chain);
            assert!(
                candidate.vector_tile * candidate.unroll_tile <= 24 * 16,
                "{}",
                candidate.chain
            );
        }
        assert_eq!(
            pixels.iter().any(|c| c.chain.contains(".parallel(")),
            threads > 1,
            "{pixels:?}"
        );
    }
}

#[test]
fn a_window_of_three_by_three_gets_no_fused_pixels() {
    let info = described(WINDOW);
    let tasks = tasks(&info);
    let op = &info.ops[tasks[0].ops[0]];
    let all = candidates(&tasks[0], op, 16, 1);
    assert!(!all.is_empty());
    assert!(all.iter().all(|c| !c.chain.contains(".fuse(")), "{all:?}");
}
