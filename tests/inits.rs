//! A zero init no func names is computed in its op's outermost forall
//! (`interpreter/src/plan/init.rs`): with whole tiles the output is never
//! filled as a whole (the tile's zeros fold into the accumulators), also
//! when two ops share one fill, and when only a nested forall's tiles are
//! small enough; with partial tiles, or a fill a func names,
//! it stays whole, and the parts of a split op write into one fill without
//! a copy; fused into a reader's loops (`compute_at`), it goes along and is
//! written apart from the reader's output; the results are the unscheduled
//! payload's every time.

mod common;

use common::sched_apply_on as sched_apply;

/// Two 1x1 convolutions from one zero fill (as CSE leaves those of one
/// shape), `F` output channels each.
fn two_convolutions(f: usize) -> String {
    format!(
        r#"
func.func @f(%a: tensor<1x16x8x8xf32>, %w1: tensor<{f}x16x1x1xf32>, %w2: tensor<{f}x16x1x1xf32>) -> (tensor<1x{f}x8x8xf32>, tensor<1x{f}x8x8xf32>) {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x{f}x8x8xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x{f}x8x8xf32>) -> tensor<1x{f}x8x8xf32>
  %r1 = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}}
      ins(%a, %w1 : tensor<1x16x8x8xf32>, tensor<{f}x16x1x1xf32>) outs(%o : tensor<1x{f}x8x8xf32>) -> tensor<1x{f}x8x8xf32>
  %r2 = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}}
      ins(%a, %w2 : tensor<1x16x8x8xf32>, tensor<{f}x16x1x1xf32>) outs(%o : tensor<1x{f}x8x8xf32>) -> tensor<1x{f}x8x8xf32>
  return %r1, %r2 : tensor<1x{f}x8x8xf32>, tensor<1x{f}x8x8xf32>
}}
"#
    )
}

/// 8 output channels and 2 rows per tile, the row vectorized.
const SCHEDULE: &str = "func convs = linalg.conv_2d_nchw_fchw[*] (n, f, y, x | c, ky, kx)\n\
                        convs.split(f, fo, fi, 8).split(y, yo, yi, 2)\n    \
                        .reorder(x, yi, fi, ky, kx, c, yo, fo, n).vectorize(x).unroll(fi).unroll(yi)\n";

/// The channel blocks outermost, their filters packed (one forall of
/// 8-channel slabs, too large to vectorize the fill in), then each column's
/// register tile in a forall of its own: 8 channels vectorized, the input
/// broadcast.
const BLOCKS_OUTERMOST: &str =
    "func convs = linalg.conv_2d_nchw_fchw[*] (n, f, y, x | c, ky, kx)\n\
                                convs.split(f, fo, fi, 8).reorder(fi, kx, ky, c, x, y, n, fo)\n    \
                                .vectorize(fi).pack(in1, fo, f)\n";

/// The bufferized payload and whether `run --check` passes.
fn bufferized_and_checked(payload: &str, schedule: &str) -> String {
    let (code, bufferized) = sched_apply(payload, schedule, &["--emit", "offloaded"]);
    assert_eq!(code, Some(0), "{bufferized}");
    let (code, report) = sched_apply(payload, schedule, &["run", "--check"]);
    assert_eq!(code, Some(0), "{report}");
    assert!(report.contains("check: ok"), "{report}");
    bufferized
}

#[test]
fn a_shared_zero_init_is_computed_in_each_ops_tiles() {
    let (code, script) = sched_apply(&two_convolutions(16), SCHEDULE, &["--emit", "transform"]);
    assert_eq!(code, Some(0), "{script}");
    assert_eq!(
        script
            .matches("its zero init, computed in its outermost forall's tiles")
            .count(),
        2,
        "{script}"
    );
    let bufferized = bufferized_and_checked(&two_convolutions(16), SCHEDULE);
    // The tiles' zeros became the accumulators' first value: nothing fills.
    assert!(!bufferized.contains("linalg.fill"), "{bufferized}");
    assert!(!bufferized.contains("copy"), "{bufferized}");
}

#[test]
fn a_zero_init_goes_on_into_the_forall_whose_tiles_are_small() {
    // A slab of 8 channels by 8x8 points is 512 elements, within the
    // vectorized fill's limit (4096): the outermost forall is enough. At
    // 128 rows the slab (8192) is not, and the fill goes on into the
    // forall of the register tiles (8 channels) and is vectorized there.
    let payload = two_convolutions(16).replace("x8x8x", "x128x8x");
    let (code, script) = sched_apply(&payload, BLOCKS_OUTERMOST, &["--emit", "transform"]);
    assert_eq!(code, Some(0), "{script}");
    assert_eq!(
        script
            .matches("its zero init, computed in the tiles of its foralls, vectorized in the innermost's")
            .count(),
        2,
        "{script}"
    );
    let bufferized = bufferized_and_checked(&payload, BLOCKS_OUTERMOST);
    // Nothing fills the slabs, and no tile reads its start back.
    assert!(!bufferized.contains("linalg.fill"), "{bufferized}");
    assert!(
        !bufferized.contains("vector.transfer_read %subview"),
        "{bufferized}"
    );
    assert!(!bufferized.contains("vector.gather"), "{bufferized}");
    assert!(!bufferized.contains("copy"), "{bufferized}");
}

#[test]
fn partial_tiles_and_a_named_fill_keep_the_whole_fill() {
    // 12 channels in tiles of 8: the op is split at its partial tile first.
    let bufferized = bufferized_and_checked(&two_convolutions(12), SCHEDULE);
    assert!(bufferized.contains("linalg.fill"), "{bufferized}");
    // A func names the fill: the schedule says where it is computed (at root).
    let named = format!("{SCHEDULE}func zeros = linalg.fill (n, c, y, x)\n");
    let bufferized = bufferized_and_checked(&two_convolutions(16), &named);
    assert_eq!(
        bufferized.matches("linalg.fill ins").count(),
        2,
        "{bufferized}"
    );
}

/// A matmul whose columns end in a partial tile of 40: the op is split
/// there, and both parts write into slices of one zero fill.
const SPLIT_MATMUL: &str = r#"
func.func @f(%a: tensor<32x64xf32>, %b: tensor<64x1000xf32>) -> tensor<32x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x1000xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<32x1000xf32>) -> tensor<32x1000xf32>
  %r = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x1000xf32>) outs(%o : tensor<32x1000xf32>) -> tensor<32x1000xf32>
  return %r : tensor<32x1000xf32>
}
"#;

#[test]
fn the_parts_of_a_split_op_share_their_fill_without_a_copy() {
    let schedule = "func mm = linalg.matmul (i, j | k)\n\
                    mm.split(j, jo, ji, 48).reorder(ji, k, i, jo).vectorize(ji)\n";
    let bufferized = bufferized_and_checked(SPLIT_MATMUL, schedule);
    // One fill, read through a slice and inserted into: not one per use.
    assert_eq!(
        bufferized.matches("linalg.fill ins").count(),
        1,
        "{bufferized}"
    );
    assert!(!bufferized.contains("copy"), "{bufferized}");
}

/// A 1x1 convolution read by a ReLU, both writing into one empty tensor
/// (as CSE leaves those of one shape).
const CONV_RELU: &str = r#"
#id = affine_map<(n, c, y, x) -> (n, c, y, x)>
func.func @f(%a: tensor<1x16x8x8xf32>, %w: tensor<16x16x1x1xf32>) -> tensor<1x16x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%a, %w : tensor<1x16x8x8xf32>, tensor<16x16x1x1xf32>) outs(%o : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x16x8x8xf32>) outs(%e : tensor<1x16x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x16x8x8xf32>
  return %r : tensor<1x16x8x8xf32>
}
"#;

/// The convolution computed in the ReLU's tiles of 8 channels x 2 rows,
/// the ReLU's outer loops `outer` (innermost first).
fn conv_in_relu_tiles(outer: &str) -> String {
    format!(
        "func conv = linalg.conv_2d_nchw_fchw (n, f, y, x | c, ky, kx)\n\
         func relu = linalg.generic (n, c, y, x)\n\
         relu.split(c, co, ci, 8).split(y, yo, yi, 2).reorder(x, yi, ci, yo, {outer})\n    \
         .vectorize(x)\n\
         conv.compute_at(relu, yo).reorder(x, y, f, ky, kx, c).vectorize(x).unroll(f).unroll(y)\n"
    )
}

#[test]
fn a_convolution_computed_in_its_readers_tiles_takes_its_zero_init_along() {
    let schedule = &conv_in_relu_tiles("co, n");
    let (code, script) = sched_apply(CONV_RELU, schedule, &["--emit", "transform"]);
    assert_eq!(code, Some(0), "{script}");
    assert!(
        script.contains("conv: its zero init, fused with it into each loop it is computed in"),
        "{script}"
    );
    // Fused into both of relu's loops, then vectorized in the inner one.
    let fill = script
        .lines()
        .find(|l| l.contains("get_producer_of_operand"))
        .and_then(|l| l.trim().strip_prefix('%'))
        .and_then(|l| l.split(' ').next())
        .expect("a handle to the fill");
    assert!(
        script.contains(&format!("transform.sched.fuse_into %{fill} into")),
        "{script}"
    );
    let bufferized = bufferized_and_checked(CONV_RELU, schedule);
    // Each tile starts from zeros: the output is never filled whole, nor read back.
    assert!(!bufferized.contains("linalg.fill"), "{bufferized}");
}

#[test]
fn a_fused_convolution_computes_its_tile_apart_from_its_readers_output() {
    // The batch inside the channel blocks: two runs of loops, two foralls.
    let payload = CONV_RELU.replace("1x16x8x8", "2x16x8x8");
    let schedule = &conv_in_relu_tiles("n, co");
    let (code, script) = sched_apply(&payload, schedule, &["--emit", "transform"]);
    assert_eq!(code, Some(0), "{script}");
    assert!(script.contains("transform.sched.fresh_init %"), "{script}");
    let bufferized = bufferized_and_checked(&payload, schedule);
    // Written into the ReLU's output, each block of 8 channels was copied
    // out of it and back around the inner forall.
    assert!(!bufferized.contains("copy"), "{bufferized}");
    assert!(!bufferized.contains("linalg.fill"), "{bufferized}");
    // The portable script leaves the storage-only op out.
    let (code, portable) = sched_apply(&payload, schedule, &["--emit", "transform", "--portable"]);
    assert_eq!(code, Some(0), "{portable}");
    assert!(!portable.contains("fresh_init"), "{portable}");
}
