//! What the environment and the flags cannot break: an `OMP_NUM_THREADS`
//! the OpenMP runtime would abort on, peaks that are not numbers, a
//! benchmark of no calls, types `run` cannot pass, functions the payload
//! declares and nothing defines. Each is an input error (exit 1) that says
//! what to change, never a signal or a figure like "NaN%".

mod common;

use common::stderr;
use std::process::{Command, Output};

/// `sched-apply ARGS` in the workspace root with `variables` set.
fn sched_apply_with(variables: &[(&str, &str)], args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sched-apply"))
        .args(args)
        .envs(variables.iter().copied())
        .current_dir(common::root())
        .output()
        .unwrap()
}

const PARALLEL: [&str; 3] = [
    "run",
    "tests/payloads/batch_matmul.mlir",
    "tests/fixtures/batch_matmul_parallel_batch.sched",
];

#[test]
fn an_openmp_thread_count_the_runtime_would_abort_on_is_refused() {
    for value in ["abc", "100000", "0", "4,x", ""] {
        let output = sched_apply_with(&[("OMP_NUM_THREADS", value)], &PARALLEL);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{value:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains("OMP_NUM_THREADS=") && stderr(&output).contains("--threads N"),
            "{value:?}: {}",
            stderr(&output)
        );
    }
    let mut args = PARALLEL.to_vec();
    args.push("--check");
    let output = sched_apply_with(&[("OMP_NUM_THREADS", "2")], &args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

#[test]
fn a_peak_that_is_not_a_positive_finite_number_is_refused_or_measured_again() {
    let base = [
        "run",
        "tests/payloads/matmul.mlir",
        "tests/fixtures/matmul_tile.sched",
        "--bench",
        "1",
        "--reference-calls",
        "0",
    ];
    for value in ["0", "nan", "-5", "inf"] {
        let mut args = base.to_vec();
        let flag = format!("--peak-gflops={value}");
        args.push(&flag);
        let output = sched_apply_with(&[], &args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{value}: a usage error, as clap reports them"
        );
        assert!(
            stderr(&output).contains("a peak is a positive, finite number"),
            "{}",
            stderr(&output)
        );
    }
    // A cached peak of NaN: measured in the run instead.
    let scratch = common::tempdir();
    let cache = scratch.join("sched-apply");
    std::fs::create_dir_all(&cache).unwrap();
    let measured = sched_apply_with(
        &[("XDG_CACHE_HOME", scratch.to_str().unwrap())],
        &["peak", "--calls", "1"],
    );
    assert_eq!(measured.status.code(), Some(0), "{}", stderr(&measured));
    let text = std::fs::read_to_string(cache.join("peak")).unwrap();
    let model = text.rsplit_once('\t').unwrap().0.to_string();
    std::fs::write(cache.join("peak"), format!("{model}\tNaN\n")).unwrap();
    let mut args = base.to_vec();
    args.push("--cached-peak");
    let output = sched_apply_with(&[("XDG_CACHE_HOME", scratch.to_str().unwrap())], &args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        report.contains("of the peak measured before timing") && !report.contains("NaN"),
        "{report}"
    );
    let _ = std::fs::remove_dir_all(scratch);
}

#[test]
fn a_benchmark_of_no_calls_is_a_usage_error() {
    let output = sched_apply_with(
        &[],
        &[
            "run",
            "tests/payloads/matmul.mlir",
            "tests/fixtures/matmul_tile.sched",
            "--bench",
            "0",
        ],
    );
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("'--bench <N>'"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn an_element_type_run_cannot_pass_is_named_whole() {
    let scratch = common::tempdir();
    let payload = scratch.join("complex.mlir");
    let text = std::fs::read_to_string(common::root().join("tests/payloads/matmul.mlir")).unwrap();
    std::fs::write(&payload, text.replace("xf32>", "xcomplex<f32>>")).unwrap();
    let output = sched_apply_with(
        &[],
        &[
            "run",
            payload.to_str().unwrap(),
            "tests/fixtures/matmul_tile.sched",
        ],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("element type `complex<f32>` is not supported"),
        "{}",
        stderr(&output)
    );
    let _ = std::fs::remove_dir_all(scratch);
}

#[test]
fn a_function_declared_without_a_body_that_nothing_defines_is_the_payloads_error() {
    let scratch = common::tempdir();
    let payload = scratch.join("extern.mlir");
    let text = std::fs::read_to_string(common::root().join("tests/payloads/matmul.mlir")).unwrap();
    let (head, body) = text.split_once("{\n").unwrap();
    std::fs::write(
        &payload,
        format!("func.func private @not_anywhere()\n{head}{{\n  func.call @not_anywhere() : () -> ()\n{body}"),
    )
    .unwrap();
    let output = sched_apply_with(
        &[],
        &[
            "run",
            payload.to_str().unwrap(),
            "tests/fixtures/matmul_tile.sched",
            "--no-cache",
        ],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("declares without a body (@not_anywhere)")
            && stderr(&output)
                .contains("extern.mlir:1:1: error: @not_anywhere is declared here without a body"),
        "{}",
        stderr(&output)
    );
    let _ = std::fs::remove_dir_all(scratch);
}
