//! A convolution's bias broadcast computed in its tiles costs one vector
//! read of the bias: the vectorized tile's read of the broadcast reads the
//! bias itself (`shim/broadcasts.cpp`), and the broadcast, whose values the
//! tile then overwrites unread, is not computed at all; a broadcast read
//! elsewhere too stays. A bias no func names is computed in the tiles all
//! the same. The results are the unscheduled payload's every time.

mod common;

use common::sched_apply_on as sched_apply;

/// A 3x3 convolution (16 output channels, 2 images) into its bias, given
/// as `bias` (an op computing `%bias` from `%b`), returning `results`.
fn convolution(bias: &str, results: &str, types: &str) -> String {
    format!(
        r#"
#bias = affine_map<(n, f, y, x) -> (f)>
#id = affine_map<(n, f, y, x) -> (n, f, y, x)>
func.func @f(%a: tensor<2x4x10x10xf32>, %w: tensor<16x4x3x3xf32>, %b: tensor<16xf32>) -> ({types}) {{
  %e = tensor.empty() : tensor<2x16x8x8xf32>
{bias}
  %r = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}}
      ins(%a, %w : tensor<2x4x10x10xf32>, tensor<16x4x3x3xf32>) outs(%bias : tensor<2x16x8x8xf32>) -> tensor<2x16x8x8xf32>
  return {results} : {types}
}}
"#
    )
}

const BROADCAST: &str = "  %bias = linalg.broadcast ins(%b : tensor<16xf32>) outs(%e : tensor<2x16x8x8xf32>) dimensions = [0, 2, 3]";

/// A bias as TOSA's lowering writes it: a generic that copies it.
const COPYING_GENERIC: &str = r#"  %bias = linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<16xf32>) outs(%e : tensor<2x16x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x16x8x8xf32>"#;

/// 16 output channels in a vector, 4 columns unrolled, the bias computed
/// in each tile.
fn schedule(bias_kind: &str) -> String {
    format!(
        "func conv = linalg.conv_2d_nchw_fchw (n, f, y, x | c, ky, kx)\n\
         func bias = {bias_kind}[0] (n, f, y, x)\n\
         conv.split(x, xo, xi, 4).reorder(f, xi, kx, ky, c, xo, y, n).vectorize(f).unroll(xi)\n\
         bias.compute_at(conv, xo)\n"
    )
}

/// The bufferized payload, after checking that `run --check` passes.
fn bufferized_and_checked(payload: &str, schedule: &str) -> String {
    let (code, report) = sched_apply(payload, schedule, &["run", "--check"]);
    assert_eq!(code, Some(0), "{report}");
    assert!(report.contains("check: ok"), "{report}");
    let (code, bufferized) = sched_apply(payload, schedule, &["--emit", "offloaded"]);
    assert_eq!(code, Some(0), "{bufferized}");
    bufferized
}

/// The tile's accumulators start from one read of the bias (`%arg2`), as a
/// 4 x 16 vector, and nothing else reads or writes the broadcast.
fn assert_read_from_the_bias(bufferized: &str) {
    assert!(
        bufferized.contains("vector.transfer_read %arg2[%c0]")
            && bufferized.contains("memref<16xf32>, vector<4x16xf32>"),
        "{bufferized}"
    );
    assert!(!bufferized.contains("linalg.broadcast"), "{bufferized}");
    assert!(!bufferized.contains("linalg.generic"), "{bufferized}");
}

#[test]
fn a_bias_broadcast_computed_in_the_tiles_is_a_read_of_the_bias() {
    let types = "tensor<2x16x8x8xf32>";
    for (kind, bias) in [
        ("linalg.broadcast", BROADCAST),
        ("linalg.generic", COPYING_GENERIC),
    ] {
        let payload = convolution(bias, "%r", types);
        assert_read_from_the_bias(&bufferized_and_checked(&payload, &schedule(kind)));
    }
}

#[test]
fn a_broadcast_also_returned_is_still_computed() {
    let types = "tensor<2x16x8x8xf32>, tensor<2x16x8x8xf32>";
    let payload = convolution(BROADCAST, "%r, %bias", types);
    // Unscheduled, the convolution accumulates into the broadcast's buffer,
    // which is returned too: the broadcast is computed (and copied).
    let bufferized = bufferized_and_checked(&payload, "");
    assert!(bufferized.contains("linalg.broadcast"), "{bufferized}");
}

#[test]
fn a_bias_no_func_names_is_computed_in_the_tiles_too() {
    // The schedule names only the convolution: its bias broadcast goes into
    // each of its foralls, down to the 16 x 4 tile, and is then read as the
    // bias itself.
    let types = "tensor<2x16x8x8xf32>";
    let only_the_convolution = "func conv = linalg.conv_2d_nchw_fchw (n, f, y, x | c, ky, kx)\n\
         conv.split(x, xo, xi, 4).reorder(f, xi, kx, ky, c, xo, y, n).vectorize(f).unroll(xi)\n";
    for bias in [BROADCAST, COPYING_GENERIC] {
        let payload = convolution(bias, "%r", types);
        let (code, script) = sched_apply(&payload, only_the_convolution, &["--emit", "transform"]);
        assert_eq!(code, Some(0), "{script}");
        assert!(
            script.contains("conv: its init, a broadcast, computed in its foralls' tiles"),
            "{script}"
        );
        assert_read_from_the_bias(&bufferized_and_checked(&payload, only_the_convolution));
    }
}
