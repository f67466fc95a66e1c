//! Models of many ops (generated, `common::scale`) keep their semantics
//! through the phases that exist for size: every use of a shared
//! `tensor.empty` untied before bufferization, and every loop nest outlined
//! into a function of its own before LLVM once a function has more than 64.
//! Each runs under its schedule and
//! is checked against the unscheduled payload. How the phases' time grows
//! with the model is measured by `benches/scale.rs`, not here.

mod common;

use common::scale::{payload, schedule, Shape};
use std::process::Command;

/// Runs the generated model of `ops` ops with `run --check --json` and
/// returns the report.
fn run_checked(ops: usize, shape: Shape) -> serde_json::Value {
    let directory = common::tempdir();
    let payload_path = directory.join("model.mlir");
    let schedule_path = directory.join("model.sched");
    std::fs::write(&payload_path, payload(ops, shape)).unwrap();
    std::fs::write(&schedule_path, schedule(ops, shape)).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_sched-apply"))
        .arg("run")
        .arg(&payload_path)
        .arg(&schedule_path)
        .args(["--check", "--json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{ops} ops, {shape:?}: {stderr}");
    let _ = std::fs::remove_dir_all(&directory);
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn a_chain_of_eighty_matmuls_and_elementwise_ops_computes_what_it_did() {
    // 80 loop nests: outlined.
    let report = run_checked(80, Shape::Mixed);
    assert_eq!(report["check"], "ok", "{report}");
    assert_eq!(report["non_finite_results"], 0, "{report}");
}

#[test]
fn machine_code_generated_in_parts_on_threads_computes_the_same_bits() {
    // 80 loop nests, outlined: the module is split between the threads
    // (`payload/shim/compile.cpp`), each nest's constants propagated first.
    use interpreter::pipeline::{run, Machine, Stop};
    use runner::jit::Program;
    let source = schedule_lang::SourceFile::new("model.sched", schedule(80, Shape::Mixed));
    let scheduled = run(
        &source,
        "model.mlir",
        &payload(80, Shape::Mixed),
        Stop::Apply,
        &Machine::host(),
    )
    .unwrap_or_else(|failure| panic!("{}", failure.message()))
    .payload
    .expect("applied");
    let results = |threads: usize| {
        let program =
            Program::compile_on_threads("model.mlir", &scheduled, None, &[], None, threads)
                .unwrap_or_else(|error| panic!("{threads} threads: {}", error.message));
        let mut inputs = program.random_inputs(7);
        let mut results = program.new_results();
        program.call(&mut inputs, &mut results).unwrap();
        results[0].to_f64()
    };
    let whole = results(1);
    assert!(
        whole.iter().any(|v| *v != 0.0),
        "the check would prove nothing"
    );
    assert_eq!(whole, results(3));
}

#[test]
fn sixty_producers_computed_at_the_last_op_compute_what_they_did() {
    let report = run_checked(60, Shape::ComputeAtLast);
    assert_eq!(report["check"], "ok", "{report}");
    assert_eq!(report["non_finite_results"], 0, "{report}");
}

#[test]
fn the_generated_schedule_names_every_op_of_the_generated_payload() {
    let text = payload(8, Shape::Mixed);
    assert_eq!(text.matches("linalg.matmul").count(), 2);
    assert_eq!(text.matches("linalg.generic").count(), 6);
    let sched = schedule(8, Shape::Mixed);
    assert!(
        sched.contains("func s3 = linalg.matmul[0] (i, j | k)"),
        "{sched}"
    );
    assert!(
        sched.contains("func s7 = linalg.matmul[1] (i, j | k)"),
        "{sched}"
    );
    assert!(
        sched.contains("func s6 = linalg.generic[5] (i, j)"),
        "{sched}"
    );
    let chained = schedule(3, Shape::ComputeAtLast);
    assert!(
        chained.contains("s0.compute_at(s2, i)\ns1.compute_at(s2, i)"),
        "{chained}"
    );
}
