//! `store_at` with `compute_at`: Halide's sliding window. The blur's
//! producer, stored at the strip loop and computed at the row loop, keeps
//! semantics on both stencil forms (`run --check`), computes each of its
//! rows once per strip (the static FLOP count), shows as
//! `transform.sched.sliding_window` in the script, and every misuse is a
//! located error or warning that says what to write.

mod common;

use common::{sched_apply, stderr};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
}

/// The two forms of the blur (examples/blur), each with its sliding-window
/// schedule, and blur_x's FLOPs per point (3 adds; 3 multiply-adds).
const FORMS: [(&str, u64); 2] = [("slices", 3), ("maps", 6)];

fn paths(form: &str) -> (String, String) {
    (
        format!("examples/blur/blur_{form}.mlir"),
        format!("examples/blur/blur_{form}_sliding.sched"),
    )
}

#[test]
fn the_sliding_window_keeps_semantics_on_both_forms() {
    for (form, _) in FORMS {
        let (payload, schedule) = paths(form);
        let output = sched_apply(&["run", &payload, &schedule, "--check", "--json"]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let stdout = text(&output.stdout);
        assert!(stdout.contains("\"check\": \"ok\""), "{form}: {stdout}");
        // Nothing is said about recomputing per view: there is none.
        assert!(!stderr(&output).contains("once per view"), "{form}");
    }
}

/// blur_y's 1024 rows come in 128 strips of 8; each strip computes 8 + 2
/// rows of blur_x (1280 rows of 1024 points), where `compute_at` alone
/// computes 3 per row of blur_y (3072) and the unscheduled payload 1026.
#[test]
fn each_row_of_the_producer_is_computed_once_per_strip() {
    for (form, flops_per_point) in FORMS {
        let (payload, schedule) = paths(form);
        let output = sched_apply(&["profile", &payload, &schedule, "--json"]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let blur_x = common::stage_row(&report, "blur_x");
        assert_eq!(
            blur_x["before"]["flops"].as_u64(),
            Some(1026 * 1024 * flops_per_point),
            "{form}"
        );
        assert_eq!(
            blur_x["after"]["flops"].as_u64(),
            Some(128 * 10 * 1024 * flops_per_point),
            "{form}"
        );
    }
}

/// The script and the transformed payload, read and accepted as snapshots:
/// before the row loop, a 2-row tile of blur_x fills the buffer's last two
/// rows; the row loop carries a 3-row buffer, moves its rows up one, and
/// computes one new row of blur_x straight into the last (no copy); blur_y
/// reads its three rows from the buffer.
#[test]
fn the_script_and_payload_show_the_window() {
    for (form, _) in FORMS {
        let (payload, schedule) = paths(form);
        let text =
            common::script_and_payload(&payload, &schedule, "transform.sched.sliding_window");
        let transformed = &text[text.find("---- transformed payload").unwrap_or(0)..];
        assert!(
            !transformed.contains("linalg.copy"),
            "{form}: {transformed}"
        );
        insta::assert_snapshot!(format!("sliding_{form}"), text);
    }
}

/// Applies `lines` (after the func declarations) to the slices-form blur;
/// returns the exit code and standard error.
fn apply(lines: &str) -> (Option<i32>, String) {
    let directory = common::tempdir();
    let schedule = directory.join("sliding.sched");
    let head = "func blur_x = linalg.generic[0] (y, x)\nfunc blur_y = linalg.generic[1] (y, x)\n";
    std::fs::write(&schedule, format!("{head}{lines}")).unwrap();
    let output = sched_apply(&["examples/blur/blur_slices.mlir", schedule.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&directory);
    (output.status.code(), stderr(&output))
}

#[test]
fn misplaced_storage_is_a_located_error_that_says_what_to_write() {
    let cases = [
        // Stored, but computed at root.
        (
            "blur_y.split(y, yo, yi, 8)\nblur_x.store_at(blur_y, yo)\n",
            "sliding.sched:4:8: error: `blur_x` is stored at `yo` of `blur_y` but not computed inside it",
            "add `.compute_at(blur_y, LOOP)`",
        ),
        // Stored inside the loop it is computed at.
        (
            "blur_y.split(y, yo, yi, 8)\nblur_x.store_at(blur_y, yi).compute_at(blur_y, yo)\n",
            "sliding.sched:4:25: error: `blur_x` is stored at `yi`, inside `yo`",
            "store it at the loop just outside `yo`",
        ),
        // A loop between the storage and the computation.
        (
            "blur_y.split(y, yo, yi, 8).split(x, xo, xi, 64).reorder(xi, xo, yi, yo)\n\
             blur_x.store_at(blur_y, yo).compute_at(blur_y, xo)\n",
            "which is `yi`, not `yo`",
            "write `store_at(blur_y, yi)`",
        ),
        // The window slides along a parallel loop.
        (
            "blur_y.split(y, yo, yi, 8).parallel(yi)\n\
             blur_x.store_at(blur_y, yo).compute_at(blur_y, yi)\n",
            "sliding.sched:4:8: error: cannot slide `blur_x`'s window along `yi`: `yi` runs in parallel",
            "marked parallel here",
        ),
        // Along x, consecutive tiles of blur_x share nothing (the op says so).
        (
            "blur_y.split(x, xo, xi, 8)\nblur_x.store_at(blur_y, y).compute_at(blur_y, xo)\n",
            "sliding.sched:4:8: error: MLIR: no sliding window here: each iteration moves 8 along \
             dimension 1 and the tiles span 8 there: consecutive iterations share no elements",
            "",
        ),
        // Computed in one consumer, stored in another's loops.
        (
            "blur_y.split(y, yo, yi, 8)\nblur_x.compute_at(blur_y, yi).store_at(blur_x, yo)\n",
            "a func cannot be computed inside its own loops",
            "",
        ),
    ];
    for (lines, message, help) in cases {
        let (code, report) = apply(lines);
        assert_eq!(code, Some(1), "{lines}: {report}");
        assert!(report.contains(message), "{lines}: {report}");
        assert!(report.contains(help), "{lines}: {report}");
        assert!(!report.contains("panicked"), "{report}");
    }
}

#[test]
fn storage_at_the_compute_loop_is_a_warning_that_it_does_nothing() {
    let (code, report) =
        apply("blur_y.split(y, yo, yi, 8)\nblur_x.store_at(blur_y, yi).compute_at(blur_y, yi)\n");
    assert_eq!(code, Some(0), "{report}");
    assert!(
        report.contains(
            "warning: `store_at` at `yi`, the loop `blur_x` is computed at, does nothing"
        ),
        "{report}"
    );
}
