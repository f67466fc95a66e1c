//! `fuse` of two whole loops makes them one dimension of the op where the
//! op allows it (`schedule_lang::collapse`): a 1x1 convolution's rows and
//! columns become one run of pixels, which a later `split` cuts and
//! `vectorize` reads as a matrix multiplication reads its columns. The
//! payload's collapse phase rewrites the op; the results are the
//! unscheduled payload's.

mod common;

use common::sched_apply_on;

/// `sched-apply ARGS` on the pointwise payload (`tests/payloads/pointwise.mlir`)
/// and `schedule`, both as `p.*` in a temporary directory: the exit code,
/// and everything printed.
fn on_pointwise(schedule: &str, args: &[&str]) -> (Option<i32>, String) {
    let payload =
        std::fs::read_to_string(common::root().join("tests/payloads/pointwise.mlir")).unwrap();
    sched_apply_on(&payload, schedule, args)
}

/// The convolution's pixels as one dimension of 96, split in tiles of 32
/// vectorized by 16 with 6 output channels unrolled: a 6 x 32 register
/// tile; its input's scale and ReLU inlined into it first.
const GEMM_FORM: &str = "func scaled = linalg.generic[0] (n, c, y, x)\n\
    func conv = linalg.conv_2d_nchw_fchw (n, f, y, x | c, ky, kx)\n\
    func relu = linalg.generic[1] (n, c, y, x)\n\
    scaled.compute_inline()\n\
    conv.fuse(x, y, p).split(p, po, pi, 32).split(f, fo, fi, 6)\n    \
    .reorder(pi, fi, kx, ky, c, po, fo, n).vectorize(pi, 16).unroll(pi).unroll(fi)\n\
    relu.vectorize(x)\n";

#[test]
fn a_pointwise_convolutions_pixels_fused_split_and_vectorized_compute_the_same() {
    let (code, report) = on_pointwise(GEMM_FORM, &["run", "--check"]);
    assert_eq!(code, Some(0), "{report}");
    assert!(report.contains("check: ok"), "{report}");
}

#[test]
fn the_fused_op_reads_its_input_as_rows_of_pixels_in_a_register_tile() {
    let (code, payload) = on_pointwise(GEMM_FORM, &["--emit", "payload"]);
    assert_eq!(code, Some(0), "{payload}");
    // The input and the output as channels x pixels, the output expanded
    // back for the ReLU.
    assert!(
        payload.contains("tensor<1x32x8x12xf32> into tensor<1x32x96xf32>"),
        "{payload}"
    );
    assert!(
        payload.contains("tensor<1x48x96xf32> into tensor<1x48x8x12xf32>"),
        "{payload}"
    );
    // Rows of 32 pixels read as vectors, the 6 x 32 accumulators kept.
    assert!(payload.contains("vector<6x32xf32>"), "{payload}");
    assert!(!payload.contains("vector.contract"), "{payload}");
}

#[test]
fn explain_shows_the_two_loops_as_one_dimension() {
    let (code, text) = on_pointwise(GEMM_FORM, &["explain"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("for p in 96  `y` and `x` as one dimension"),
        "{text}"
    );
    assert!(text.contains("for po in 3  (p by 32)"), "{text}");
}

#[test]
fn a_fused_dimension_runs_in_parallel_on_two_threads() {
    let schedule = "func conv = linalg.conv_2d_nchw_fchw (n, f, y, x | c, ky, kx)\n\
                    conv.fuse(x, y, p).split(p, po, pi, 16).reorder(pi, f, c, ky, kx, po, n)\n    \
                    .vectorize(pi).unroll(f, 4).parallel(po)\n";
    let (code, report) = on_pointwise(schedule, &["run", "--check", "--threads", "2"]);
    assert_eq!(code, Some(0), "{report}");
    assert!(report.contains("check: ok"), "{report}");
}

/// `sched-apply check` of `schedule` against the pointwise payload: the
/// exit code, and everything printed.
fn checked(schedule: &str) -> (Option<i32>, String) {
    let directory = common::tempdir();
    let path = directory.join("p.sched");
    std::fs::write(&path, schedule).unwrap();
    let payload = common::root().join("tests/payloads/pointwise.mlir");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_sched-apply"))
        .arg("check")
        .arg(&path)
        .arg("--payload")
        .arg(&payload)
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// `scaled` computed at `po` of the fused convolution, `p` split by `tile`.
fn scaled_at_po(tile: usize) -> String {
    format!(
        "func scaled = linalg.generic[0] (n, c, y, x)\n\
         func conv = linalg.conv_2d_nchw_fchw (n, f, y, x | c, ky, kx)\n\
         conv.fuse(x, y, p).split(p, po, pi, {tile}).reorder(pi, f, kx, ky, c, po, n)\n    \
         .vectorize(pi, 8)\n\
         scaled.compute_at(conv, po)\n"
    )
}

#[test]
fn check_refuses_a_producer_computed_in_part_of_a_row_of_the_fused_pixels() {
    // A tile of 32 of 96 pixels is no rectangle of 8 x 12: the reshape
    // between the scale and the fused op cannot follow it, so `check`
    // says so before MLIR would.
    let (code, report) = checked(&scaled_at_po(32));
    assert_eq!(code, Some(1), "{report}");
    assert!(report.contains("p.sched:5:8: error:"), "{report}");
    assert!(
        report.contains("for 32 of the 96 points of `p`") && report.contains("no rectangle"),
        "{report}"
    );
    assert!(
        report.contains("split `p` by a multiple of 12 that divides 96 (12, 24, 48)"),
        "{report}"
    );
    // Tiles that do not divide the pixels leave a partial one: refused too.
    let (code, report) = checked(&scaled_at_po(36));
    assert_eq!(code, Some(1), "{report}");
    assert!(report.contains("for 36 of the 96 points"), "{report}");
}

#[test]
fn a_producer_computed_in_whole_rows_of_the_fused_pixels_computes_the_same() {
    let (code, report) = on_pointwise(&scaled_at_po(24), &["run", "--check"]);
    assert_eq!(code, Some(0), "{report}");
    assert!(report.contains("check: ok"), "{report}");
}
