//! Convolutions computed in the rows of the pool reading them (through
//! their ReLU, inlined): the fusion the tuner offers when a convolution
//! was tuned with a channel tile and a pool reads it in windows that tile
//! its output exactly. The written schedule, with the bias broadcast
//! computed in the convolution's tiles, plans without a warning and
//! computes what the payload does.

mod common;

use common::fused::{computes_the_same, isolated, tuned_inlining, written};
use common::{described, planned};
use schedule_lang::PayloadInfo;
use tuner::producers::{apply, variants};
use tuner::space::RegisterTile;
use tuner::TaskResult;

/// A 3x3 convolution of 16 channels into 32 on 14 x 14 outputs,
/// initialized by a bias broadcast, a ReLU, and a max pool of `window` x
/// `window` windows at stride `stride` (`out` x `out` outputs), NCHW.
fn conv_relu_pool(window: i64, stride: i64, out: i64) -> String {
    conv_relu_pool_in(false, window, stride, out)
}

/// The same in NHWC (filters HWCF), with a 2 x 2 max pool at stride 2.
fn conv_relu_pool_nhwc() -> String {
    conv_relu_pool_in(true, 2, 2, 7)
}

/// [`conv_relu_pool`], NHWC when `nhwc`.
fn conv_relu_pool_in(nhwc: bool, window: i64, stride: i64, out: i64) -> String {
    let (conv, pooled, input, filter, spread, conv_kind, pool_kind, dims) = match nhwc {
        false => (
            "1x32x14x14xf32".to_string(),
            format!("1x32x{out}x{out}xf32"),
            "1x16x16x16xf32",
            "32x16x3x3xf32",
            "[0, 2, 3]",
            "conv_2d_nchw_fchw",
            "pooling_nchw_max",
            "(n, c, y, x)",
        ),
        true => (
            "1x14x14x32xf32".to_string(),
            format!("1x{out}x{out}x32xf32"),
            "1x16x16x16xf32",
            "3x3x16x32xf32",
            "[0, 1, 2]",
            "conv_2d_nhwc_hwcf",
            "pooling_nhwc_max",
            "(n, y, x, c)",
        ),
    };
    format!(
        r#"
#id = affine_map<{dims} -> {dims}>
func.func @f(%a: tensor<{input}>, %w: tensor<{filter}>, %b: tensor<32xf32>)
    -> tensor<{pooled}> {{
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<{conv}>
  %bias = linalg.broadcast ins(%b : tensor<32xf32>) outs(%e : tensor<{conv}>) dimensions = {spread}
  %c = linalg.{conv_kind} {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}}
      ins(%a, %w : tensor<{input}>, tensor<{filter}>) outs(%bias : tensor<{conv}>) -> tensor<{conv}>
  %r = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      ins(%c : tensor<{conv}>) outs(%e : tensor<{conv}>) {{
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  }} -> tensor<{conv}>
  %pe = tensor.empty() : tensor<{pooled}>
  %init = linalg.fill ins(%lowest : f32) outs(%pe : tensor<{pooled}>) -> tensor<{pooled}>
  %k = tensor.empty() : tensor<{window}x{window}xf32>
  %p = linalg.{pool_kind} {{dilations = dense<1> : vector<2xi64>, strides = dense<{stride}> : vector<2xi64>}}
      ins(%r, %k : tensor<{conv}>, tensor<{window}x{window}xf32>) outs(%init : tensor<{pooled}>) -> tensor<{pooled}>
  return %p : tensor<{pooled}>
}}
"#
    )
}

/// The packed-channels tile of 16 channels (one vector) by 7 columns.
fn packed_16_by_7(tile: &RegisterTile) -> bool {
    tile.packed.is_some() && tile.tile == 16 && tile.unrolled == [(3, 7)]
}

/// The tasks as tuning leaves them: the convolution's best the packed 16 x
/// 7 tile, the ReLU inlined, the pool with no schedule of its own.
fn tuned(info: &PayloadInfo) -> Vec<TaskResult> {
    tuned_inlining(info, packed_16_by_7, "max")
}

#[test]
fn a_convolution_read_by_a_pool_is_computed_in_its_rows_with_its_bias() {
    let payload = conv_relu_pool(2, 2, 7);
    let info = described(&payload);
    let mut results = tuned(&info);
    let found = variants(&info, &results, 1);
    assert_eq!(found.len(), 1, "the pool, with the convolution");
    let options = &found[0];
    // Blocks of the tile's 16 channels, then of twice them (two vectors by
    // 7 columns: 14 accumulators).
    assert_eq!(options.len(), 2);
    assert_eq!(
        options[0].tiled,
        ".split(c, co, ci, 16).reorder(x, kx, ky, ci, y, n, co).vectorize(x)"
    );
    assert!(options[1].tiled.starts_with(".split(c, co, ci, 32)."));
    for (option, vector) in options
        .iter()
        .zip([".vectorize(f)", ".vectorize(f, 16).unroll(f)"])
    {
        let (_, computed) = &option.producers[0];
        assert_eq!(computed.at, "y");
        assert_eq!(
            computed.chain,
            format!(
                ".split(x, xo, xi, 7).reorder(f, xi, kx, ky, c, xo, y){vector}.unroll(xi)\
                 .pack(in1, co, f)"
            )
        );
        assert_eq!(computed.init_at.as_deref(), Some("xo"));
        // The broadcast is measured with the group, ahead of it.
        assert!(option.init.is_some());
        apply(&mut results, &[option]);
        let text = written(&info, &results, 1);
        assert!(
            text.contains("bcast0.compute_at(conv0, xo)\n"),
            "the bias computed in the convolution's tiles: {text}"
        );
        assert_eq!(planned(&payload, &text), Ok(Vec::new()), "{text}");
        assert!(computes_the_same(&payload, &text), "{text}");
        // The same on its ops alone, as the variants are measured.
        let mut ops: Vec<usize> = option.init.into_iter().collect();
        ops.extend(&option.group);
        let alone = isolated(&payload, &ops);
        let schedule = tuner::fused::group_schedule(&info, &results, option);
        assert!(schedule.contains("b.compute_at(p, xo)\n"), "{schedule}");
        assert_eq!(planned(&alone, &schedule), Ok(Vec::new()), "{schedule}");
        assert!(computes_the_same(&alone, &schedule), "{schedule}");
    }

    // On two threads the blocks of channels are shared.
    let found = variants(&info, &results, 2);
    assert!(
        found[0][0].tiled.ends_with(".parallel(co)"),
        "{}",
        found[0][0].tiled
    );
    apply(&mut results, &[&found[0][0]]);
    let text = written(&info, &results, 2);
    assert_eq!(planned(&payload, &text), Ok(Vec::new()), "{text}");
    assert!(computes_the_same(&payload, &text), "{text}");
}

#[test]
fn a_pool_whose_windows_overlap_takes_no_convolution_in() {
    // 3 x 3 windows at stride 2 share rows: a convolution computed per row
    // of the pool would compute them twice.
    let payload = conv_relu_pool(3, 2, 6);
    let info = described(&payload);
    let results = tuned(&info);
    assert!(variants(&info, &results, 1).is_empty());
}

#[test]
fn a_pool_takes_a_channel_tile_much_slower_alone_than_the_best() {
    // On two threads the best tile alone can be one a pool cannot take (its
    // vector along the batch or the columns), and the channel tiles, with
    // no parallel loop of their own, run at one thread's speed alone: a
    // pool's rows, parallel, take them within twice the best.
    let payload = conv_relu_pool(2, 2, 7);
    let info = described(&payload);
    let mut results = tuned(&info);
    let columns =
        tuner::space::candidates(&results[0].task, &info.ops[results[0].task.ops[0]], 16, 2)
            .into_iter()
            .find_map(|c| c.tile.filter(|t| t.vector == 3))
            .expect("a tile along the columns");
    let channels = results[0].tiles[0].0.clone();
    results[0].tiles = vec![(columns, 5e-4), (channels, 9.5e-4)];
    results[0].best.as_mut().expect("tuned").1 = 5e-4;
    let found = variants(&info, &results, 2);
    assert_eq!(
        found.len(),
        1,
        "the pool takes the channel tile, 1.9x the best"
    );
    assert!(found[0][0].tiled.starts_with(".split(c, co, ci, 16)."));
    // Slower than twice the best, it is not offered.
    results[0].tiles[1].1 = 1.1e-3;
    assert!(variants(&info, &results, 2).is_empty());
}

/// A tile of 16 output channels (NHWC's innermost) by 7 columns.
fn channels_16_by_7_nhwc(tile: &RegisterTile) -> bool {
    tile.vector == 3 && tile.tile == 16 && tile.unrolled == [(2, 7)]
}

#[test]
fn an_nhwc_pool_takes_its_convolution_with_its_channels_vectorized() {
    let payload = conv_relu_pool_nhwc();
    let info = described(&payload);
    let mut results = tuned_inlining(&info, channels_16_by_7_nhwc, "max");
    let found = variants(&info, &results, 1);
    assert_eq!(found.len(), 1, "the pool, with the convolution");
    let option = &found[0][0];
    // The channels, contiguous, vectorized in the pool as in the tile.
    assert_eq!(
        option.tiled,
        ".split(c, co, ci, 16).reorder(ci, kx, ky, x, y, n, co).vectorize(ci)"
    );
    let (_, computed) = &option.producers[0];
    assert_eq!(computed.at, "y");
    assert!(
        computed
            .chain
            .starts_with(".split(x, xo, xi, 7).reorder(f, xi, "),
        "{}",
        computed.chain
    );
    for option in &found[0] {
        apply(&mut results, &[option]);
        let text = written(&info, &results, 1);
        assert!(text.contains("bcast0.compute_at(conv0, xo)\n"), "{text}");
        assert_eq!(planned(&payload, &text), Ok(Vec::new()), "{text}");
        assert!(computes_the_same(&payload, &text), "{text}");
    }
}
