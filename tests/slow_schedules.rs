//! `check`'s warnings about schedules that run slower than they ask: a
//! parallel loop nested in another, a register tile larger than the vector
//! registers, a pack copied again by a loop its tile does not depend on.

mod common;

use common::{sched_apply, stderr};
use std::path::Path;

/// `check` of `text`, written to `schedule`, against `payload`, which must
/// exit 0: what it printed to stderr.
fn checked(schedule: &Path, text: &str, payload: &str) -> String {
    std::fs::write(schedule, text).unwrap();
    let checked = sched_apply(&["check", schedule.to_str().unwrap(), "--payload", payload]);
    assert_eq!(checked.status.code(), Some(0), "{}", stderr(&checked));
    stderr(&checked)
}

#[test]
fn a_parallel_loop_nested_in_another_is_a_warning() {
    // OpenMP runs a parallel region nested in another on one thread (measured:
    // a run with such a schedule never has more than its outer team's threads).
    let directory = common::tempdir();
    let schedule = directory.join("nested.sched");
    std::fs::write(
        &schedule,
        "func scaled = linalg.generic[0] (i, j)\nfunc out = linalg.generic[1] (i, j)\n\
         out.split(i, io, ii, 8).parallel(io).parallel(ii)\n\
         scaled.compute_at(out, ii).parallel(j)\n",
    )
    .unwrap();
    let checked = sched_apply(&[
        "check",
        schedule.to_str().unwrap(),
        "--payload",
        "tests/payloads/chain.mlir",
    ]);
    let text = stderr(&checked);
    assert_eq!(checked.status.code(), Some(0), "{text}");
    for expected in [
        "nested.sched:3:38: warning: `ii` runs inside parallel loop `io`: OpenMP gives",
        "nested.sched:4:28: warning: `j` runs inside parallel loop `io` of `out`",
        "(2 warnings)",
    ] {
        assert!(text.contains(expected), "{expected}\n in\n{text}");
    }
    // Adjacent parallel loops over different dimensions are one forall: no warning.
    std::fs::write(
        &schedule,
        "func out = linalg.generic[1] (i, j)\nout.parallel(i).parallel(j)\n",
    )
    .unwrap();
    let adjacent = sched_apply(&[
        "check",
        schedule.to_str().unwrap(),
        "--payload",
        "tests/payloads/chain.mlir",
    ]);
    assert!(
        !stderr(&adjacent).contains("warning"),
        "{}",
        stderr(&adjacent)
    );
}

#[test]
fn a_register_tile_larger_than_the_registers_is_a_warning() {
    // 8 rows x 64 columns of a matmul: 32 vectors of accumulators on AVX-512,
    // which spill (the ResNet stem with such a tile ran at half the speed).
    let directory = common::tempdir();
    let schedule = directory.join("tile.sched");
    let check_for = |unit: &str| {
        let path = schedule.to_str().unwrap();
        let payload = "tests/payloads/matmul.mlir";
        sched_apply(&["check", path, "--payload", payload, "--vector-unit", unit])
    };
    let check = |text: &str, unit: &str| {
        std::fs::write(&schedule, text).unwrap();
        let checked = check_for(unit);
        assert_eq!(checked.status.code(), Some(0), "{}", stderr(&checked));
        stderr(&checked)
    };
    let chain = |rows: i64, columns: i64, unrolled: bool| {
        format!(
            "func mm = linalg.matmul (i, j | k)\n\
             mm.split(j, jo, ji, {columns}).split(i, io, ii, {rows}).reorder(ji, ii, k, jo, io)\n\
             \x20   .vectorize(ji){}\n",
            if unrolled { ".unroll(ii)" } else { "" }
        )
    };
    let spilled = check(&chain(8, 64, true), "avx512");
    assert!(
        spilled.contains(
            "tile.sched:3:6: warning: `mm` keeps 32 vectors of f32 accumulators in registers \
             (`ii` unrolled, `ji` vectorized), more than AVX-512's 32 vector registers of 64 \
             bytes hold"
        ),
        "{spilled}"
    );
    assert!(
        spilled.contains("keep the tile at 28 vectors or fewer"),
        "{spilled}"
    );
    // On AVX2 (16 registers of 8 floats) the same columns take twice the
    // vectors: 6 x 64 is 48 of them, 6 x 16 is BLIS's Haswell tile of 12.
    let avx2 = check(&chain(6, 64, true), "avx2");
    assert!(
        avx2.contains("keeps 48 vectors of f32 accumulators")
            && avx2.contains("more than AVX2's 16 vector registers of 32 bytes hold")
            && avx2.contains("keep the tile at 12 vectors or fewer"),
        "{avx2}"
    );
    // 6 x 64 on AVX-512 (24 accumulators), 6 x 16 on AVX2 (12), or rows not
    // unrolled (a loop inside `k`, so no tile held across it): no warning.
    for (fits, unit) in [
        (chain(6, 64, true), "avx512"),
        (chain(6, 16, true), "avx2"),
        (chain(8, 64, false), "avx512"),
        (chain(8, 64, false), "avx2"),
    ] {
        let text = check(&fits, unit);
        assert!(!text.contains("warning"), "{unit}: {fits}\n{text}");
    }
    // A unit with no such name is refused with the names there are.
    let unknown = check_for("neon");
    assert_eq!(unknown.status.code(), Some(2), "{}", stderr(&unknown));
    assert!(
        stderr(&unknown)
            .contains("no vector unit is named `neon`; the names are host, avx512, avx2, sse"),
        "{}",
        stderr(&unknown)
    );
}

#[test]
fn a_pack_repeated_by_a_loop_its_tile_does_not_use_is_a_warning() {
    // The filters of a batch-2 convolution packed per block of output
    // channels inside the batch loop: each block is copied once per image
    // (ResNet-18 at batch 8 took 10% longer so).
    let directory = common::tempdir();
    let schedule = directory.join("pack.sched");
    let check = |chain: &str| {
        let text =
            format!("func conv = linalg.conv_2d_nchw_fchw (n, f, y, x | c, ky, kx)\n{chain}\n");
        checked(&schedule, &text, "tests/payloads/conv_stride2_batch2.mlir")
    };
    let packed_filters = |order: &str| {
        format!("conv.split(f, fo, fi, 8).reorder({order}).vectorize(fi).pack(in1, fo, f)")
    };
    let repeated = check(&packed_filters("fi, kx, ky, c, x, y, fo, n"));
    assert!(
        repeated.contains(
            "pack.sched:2:76: warning: `conv` packs the same tile of in1 2 times: its index does \
             not use `n` (2 iterations), which runs outside `fo`"
        ),
        "{repeated}"
    );
    assert!(
        repeated.contains("help: move `n` inside `fo` (a `reorder`)"),
        "{repeated}"
    );
    // With the batch loop inside the block's, or the input packed per image
    // (it depends on `n`), no warning.
    let inside = check(&packed_filters("fi, kx, ky, c, x, y, n, fo"));
    assert!(!inside.contains("warning"), "{inside}");
    let per_image = "conv.split(f, fo, fi, 8).reorder(fi, kx, ky, c, x, y, fo, n).vectorize(fi)";
    let input = check(&format!("{per_image}.pack(in0, n)"));
    assert!(!input.contains("warning"), "{input}");
    // The input packed per block of output channels, which it does not
    // use: packed again at each iteration of the pack loop itself.
    let input = check(&format!("{per_image}.pack(in0, fo)"));
    assert!(
        input.contains(
            "warning: `conv` packs the same tile of in0 2 times: its index does not use `fo` \
             (2 iterations)\n"
        ),
        "{input}"
    );
    assert!(
        input.contains("help: pack at a loop outside `fo`"),
        "{input}"
    );
}
