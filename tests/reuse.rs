//! `reuse_at`: HeteroCL's reuse buffers on linalg payloads. Every example
//! keeps semantics (`run --check` against the unscheduled payload), the
//! static counts show one off-chip load per input element, the script shows
//! the step (`transform.sched.reuse_buffer`), and what cannot be buffered is
//! a located error that says why.

mod common;

use common::{sched_apply, stderr};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
}

/// The examples with reuse buffers: (payload, schedule) in examples/heterocl.
const EXAMPLES: [(&str, &str); 5] = [
    ("blur", "blur_lb"),
    ("stencil5", "stencil5_lb"),
    ("stencil5", "stencil5_lb_wb"),
    ("conv2d", "conv2d_lb_wb"),
    ("diag3d", "diag3d"),
];

fn paths(payload: &str, schedule: &str) -> (String, String) {
    (
        format!("examples/heterocl/{payload}.mlir"),
        format!("examples/heterocl/{schedule}.sched"),
    )
}

#[test]
fn every_reuse_example_runs_and_matches_the_unscheduled_payload() {
    for (payload, schedule) in EXAMPLES {
        let (payload_path, schedule_path) = paths(payload, schedule);
        let output = sched_apply(&["run", &payload_path, &schedule_path, "--check", "--json"]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert!(
            text(&output.stdout).contains("\"check\": \"ok\""),
            "{schedule}: {}",
            text(&output.stdout)
        );
    }
}

/// The transformed payloads, read and accepted as snapshots: the line
/// buffer is an iteration argument of the row loop, shifted one row per
/// iteration, with one new row extracted from the input; the window buffer
/// is filled from the line buffer.
#[test]
fn the_scripts_and_payloads_show_the_buffers() {
    for (payload, schedule) in EXAMPLES {
        let (payload_path, schedule_path) = paths(payload, schedule);
        let text = common::script_and_payload(
            &payload_path,
            &schedule_path,
            "transform.sched.reuse_buffer",
        );
        insta::assert_snapshot!(format!("reuse_{schedule}"), text);
    }
}

/// A line buffer loads each element of the input once: the five-point
/// stencil read A five times per output point (5·1024² loads), and reads
/// its 1026² elements once with the buffer; the output is stored once.
#[test]
fn a_line_buffer_loads_each_input_element_once() {
    for schedule in ["stencil5_lb", "stencil5_lb_wb"] {
        let (payload_path, schedule_path) = paths("stencil5", schedule);
        let output = sched_apply(&["profile", &payload_path, &schedule_path, "--json"]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let total = &report["total"];
        assert_eq!(
            total["before"]["bytes_read"].as_u64(),
            Some(4 * 5 * 1024 * 1024)
        );
        assert_eq!(
            total["after"]["bytes_read"].as_u64(),
            Some(4 * 1026 * 1026),
            "{schedule}"
        );
        assert_eq!(
            total["after"]["bytes_written"].as_u64(),
            Some(4 * 1024 * 1024)
        );
    }
}

fn error_of(payload: &str, schedule_text: &str) -> String {
    let directory = common::tempdir();
    let schedule = directory.join("reuse.sched");
    std::fs::write(&schedule, schedule_text).unwrap();
    let output = sched_apply(&[payload, schedule.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&directory);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{schedule_text}: {}",
        stderr(&output)
    );
    stderr(&output)
}

#[test]
fn a_loop_without_reuse_is_a_located_error_that_says_why() {
    // Along x, each point of the blur reads new elements only.
    let message = error_of(
        "examples/heterocl/blur.mlir",
        "func B = linalg.generic (y, x)\nB.reuse_at(in0, x)\n",
    );
    assert!(message.contains("reuse.sched:2:3"), "{message}");
    assert!(message.contains("share no elements"), "{message}");
    // The weights of a convolution do not move with its output rows.
    let message = error_of(
        "examples/heterocl/conv2d.mlir",
        "func O = linalg.conv_2d_nchw_fchw (n, f, y, x | rc, ry, rx)\nO.reuse_at(in1, y)\n",
    );
    assert!(message.contains("reuse.sched:2:3"), "{message}");
    assert!(message.contains("do not move with the loop"), "{message}");
}

#[test]
fn what_cannot_carry_a_buffer_is_refused_at_the_directive() {
    let blur = "examples/heterocl/blur.mlir";
    let head = "func B = linalg.generic (y, x)\n";
    // A parallel loop cannot carry data from one iteration to the next.
    let message = error_of(blur, &format!("{head}B.reuse_at(in0, y).parallel(y)\n"));
    assert!(message.contains("runs in parallel"), "{message}");
    assert!(message.contains("reuse.sched:2:3"), "{message}");
    // A vectorized loop is not a loop of the generated code.
    let message = error_of(blur, &format!("{head}B.reuse_at(in0, x).vectorize(x)\n"));
    assert!(message.contains("stays inside the op's tile"), "{message}");
    // Inputs are named by position or by the func producing them.
    let message = error_of(blur, &format!("{head}B.reuse_at(in3, y)\n"));
    assert!(message.contains("no tensor input `in3`"), "{message}");
    let message = error_of(blur, &format!("{head}B.reuse_at(A, y)\n"));
    assert!(
        message.contains("neither an input of `B` nor a func"),
        "{message}"
    );
}
