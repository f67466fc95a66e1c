//! The candidates of windowed ops that vectorize output channels from a
//! packed filter (`tuner/src/packed.rs`): inside unrolled output columns,
//! packed once for the whole batch, a small filter also packed once with
//! its channel blocks inside each row, a panel beyond the second-level
//! cache also in blocks of input channels; each plans without a warning.

mod common;

use common::{described, planned, plans_on, schedule_of};
use tuner::space::{candidates, Candidate};
use tuner::tasks::tasks;

/// A ResNet downsampling convolution: 3x3, stride 2.
const STRIDE_2: &str = r#"
func.func @f(%in: tensor<1x16x29x29xf32>, %w: tensor<64x16x3x3xf32>, %o: tensor<1x64x14x14xf32>)
    -> tensor<1x64x14x14xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%in, %w : tensor<1x16x29x29xf32>, tensor<64x16x3x3xf32>) outs(%o : tensor<1x64x14x14xf32>) -> tensor<1x64x14x14xf32>
  return %r : tensor<1x64x14x14xf32>
}
"#;

#[test]
fn a_stride_2_convolution_gets_packed_channels_inside_unrolled_output_columns() {
    let info = described(STRIDE_2);
    let tasks = tasks(&info);
    let op = &info.ops[tasks[0].ops[0]];
    let mut all = candidates(&tasks[0], op, 16, 1);
    let column = &tasks[0].dims[3];
    let tiled: Vec<&Candidate> = all
        .iter()
        .filter(|c| {
            c.chain.contains(".pack(in1, ") && c.chain.contains(&format!(".unroll({column}i)"))
        })
        .collect();
    assert!(!tiled.is_empty(), "{all:?}");
    for candidate in &tiled {
        assert!(
            plans_on(STRIDE_2, &tasks[0], &info, candidate),
            "{}",
            candidate.chain
        );
    }
    // Broadcast columns fill the register tile: the model ranks such a
    // candidate first, above the packed channels alone and above the output
    // row vectorized, whose stride-2 input is gathered lane by lane.
    tuner::cost::rank(&mut all);
    assert!(all[0].packed && all[0].unroll_tile > 1, "{}", all[0].chain);
    assert!(!all[0].strided_vector);
    let row = all
        .iter()
        .find(|c| c.strided_vector)
        .expect("a candidate vectorizes the row");
    assert!(
        tuner::cost::score(row) < 0.5 * tuner::cost::score(&all[0]),
        "{}",
        row.chain
    );
}

/// An NHWC convolution at batch 2, its filters FHWC.
const NHWC_BATCH_2: &str = r#"
func.func @f(%in: tensor<2x10x10x16xf32>, %w: tensor<64x3x3x16xf32>, %o: tensor<2x8x8x64xf32>)
    -> tensor<2x8x8x64xf32> {
  %r = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%in, %w : tensor<2x10x10x16xf32>, tensor<64x3x3x16xf32>) outs(%o : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>
  return %r : tensor<2x8x8x64xf32>
}
"#;

/// The stride-2 convolution at batch 2.
const STRIDE_2_BATCH_2: &str = r#"
func.func @f(%in: tensor<2x16x29x29xf32>, %w: tensor<64x16x3x3xf32>, %o: tensor<2x64x14x14xf32>)
    -> tensor<2x64x14x14xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%in, %w : tensor<2x16x29x29xf32>, tensor<64x16x3x3xf32>) outs(%o : tensor<2x64x14x14xf32>) -> tensor<2x64x14x14xf32>
  return %r : tensor<2x64x14x14xf32>
}
"#;

#[test]
fn a_packed_filter_block_is_packed_once_for_the_whole_batch() {
    // The batch loop runs inside the loop the filters are packed at, so
    // `check` has no repeated-pack warning for any candidate.
    for payload in [STRIDE_2_BATCH_2, NHWC_BATCH_2] {
        let info = described(payload);
        let tasks = tasks(&info);
        let op = &info.ops[tasks[0].ops[0]];
        let task = &tasks[0];
        for threads in [1, 2] {
            let all = candidates(task, op, 16, threads);
            let packed: Vec<&Candidate> =
                all.iter().filter(|c| c.chain.contains(".pack(")).collect();
            assert!(packed.len() >= 4, "{all:?}");
            for candidate in packed {
                let warnings = planned(payload, &schedule_of(task, &info, candidate))
                    .unwrap_or_else(|message| panic!("{}: {message}", candidate.chain));
                assert!(
                    warnings.iter().all(|w| !w.contains("packs the same tile")),
                    "{}: {warnings:?}",
                    candidate.chain
                );
            }
        }
    }
}

#[test]
fn a_small_filter_is_also_packed_once_with_its_channel_blocks_inside_each_row() {
    // The whole filter (64 x 16 x 3 x 3, 36 KB) fits the panel: besides the
    // blocks outermost, each register tile is also offered with the filter
    // packed once, in a loop of one iteration over all output channels,
    // and the blocks inside the rows, the batch outside them parallel with
    // two threads.
    let info = described(STRIDE_2_BATCH_2);
    let tasks = tasks(&info);
    let task = &tasks[0];
    let op = &info.ops[task.ops[0]];
    let [n, f, y, ..] = [0, 1, 2, 3].map(|d| task.dims[d].as_str());
    for threads in [1, 2] {
        let all = candidates(task, op, 16, threads);
        let whole = format!(".split({f}, {f}p, {f}r, 64).split({f}r, {f}o, {f}i, ");
        let resident: Vec<&Candidate> =
            all.iter().filter(|c| c.chain.starts_with(&whole)).collect();
        let blocked = all
            .iter()
            .filter(|c| c.chain.contains(&format!(".pack(in1, {f}o, {f})")))
            .count();
        assert!(!resident.is_empty() && resident.len() <= blocked, "{all:?}");
        let parallel = resident
            .iter()
            .filter(|c| c.chain.contains(".parallel("))
            .count();
        assert_eq!(parallel > 0, threads > 1, "{resident:?}");
        for candidate in resident {
            let chain = &candidate.chain;
            assert!(chain.contains(&format!(".pack(in1, {f}p, {f})")), "{chain}");
            // The blocks run inside the rows (and the batch).
            let rows = chain.find(&format!(", {y}, {n}, {f}p)")).expect(chain);
            assert!(chain[..rows].contains(&format!("{f}o")), "{chain}");
            if chain.contains(".parallel(") {
                assert!(
                    threads > 1 && chain.ends_with(&format!(".parallel({n})")),
                    "{chain}"
                );
            }
            let warnings = planned(STRIDE_2_BATCH_2, &schedule_of(task, &info, candidate))
                .unwrap_or_else(|message| panic!("{chain}: {message}"));
            assert!(warnings.is_empty(), "{chain}: {warnings:?}");
        }
    }
}

/// ResNet's last 3x3 convolutions at batch 2: 7 columns, 256 channels.
const DEEP_3X3: &str = r#"
func.func @f(%in: tensor<2x256x9x9xf32>, %w: tensor<256x256x3x3xf32>, %o: tensor<2x256x7x7xf32>)
    -> tensor<2x256x7x7xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%in, %w : tensor<2x256x9x9xf32>, tensor<256x256x3x3xf32>) outs(%o : tensor<2x256x7x7xf32>) -> tensor<2x256x7x7xf32>
  return %r : tensor<2x256x7x7xf32>
}
"#;

#[test]
fn a_packed_panel_beyond_the_second_level_cache_is_also_tried_in_blocks_of_input_channels() {
    // AVX2: 32 output channels by the whole 256 x 3 x 3 reduction is a
    // 295 KB panel; in blocks of 128 input channels, 147 KB. Seven columns
    // do not divide by two, so four vectors sit beside the two images.
    let info = described(DEEP_3X3);
    let tasks = tasks(&info);
    let (task, op) = (&tasks[0], &info.ops[tasks[0].ops[0]]);
    let all = candidates(task, op, 8, 1);
    let blocked: Vec<&Candidate> = all
        .iter()
        .filter(|c| c.chain.contains(".split(c, co, ci, 128)"))
        .collect();
    assert!(!blocked.is_empty(), "{all:?}");
    for candidate in &blocked {
        assert!(
            candidate.chain.contains(".split(f, fo, fi, 32)"),
            "{}",
            candidate.chain
        );
        assert!(
            candidate.chain.contains("co, fo)"),
            "the block loop just inside the filters' block: {}",
            candidate.chain
        );
        assert!(
            candidate.tile.is_none(),
            "a reader cannot rebuild the blocks"
        );
        let warnings = planned(DEEP_3X3, &schedule_of(task, &info, candidate))
            .unwrap_or_else(|message| panic!("{}: {message}", candidate.chain));
        assert!(warnings.is_empty(), "{}: {warnings:?}", candidate.chain);
    }
    // The 74 KB panel of 8 channels stays whole.
    assert!(all
        .iter()
        .filter(|c| c.chain.contains(".split(f, fo, fi, 8)"))
        .all(|c| !c.chain.contains(".split(c, co")));
    let images = blocked
        .iter()
        .find(|c| c.chain.contains(".unroll(n)"))
        .unwrap_or_else(|| panic!("{blocked:?}"));
    // The model measures the blocks before the whole panel streamed.
    let whole = all
        .iter()
        .find(|c| {
            c.chain
                == images
                    .chain
                    .replace(".split(c, co, ci, 128)", "")
                    .replace("ci, x, y, co, fo)", "c, x, y, fo)")
        })
        .unwrap_or_else(|| panic!("no unblocked twin of {}", images.chain));
    assert!(tuner::cost::score(images) > tuner::cost::score(whole));
}
