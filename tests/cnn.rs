//! The MNIST CNN test bench (`examples/cnn`): the payload in the form the
//! torch-mlir exporter writes, under its three schedules (none, CPU, CPU with
//! both matmuls on the host accelerator), each JIT-run on the same seeded
//! inputs and checked against the unscheduled payload (`run --check`).

mod common;

use std::process::Command;

fn run(schedule: &str) -> serde_json::Value {
    let output = Command::new(env!("CARGO_BIN_EXE_sched-apply"))
        .args([
            "run",
            "examples/cnn/mnist.mlir",
            schedule,
            "--check",
            "--counters",
            "--json",
        ])
        .current_dir(common::root())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{schedule}: {stderr}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["check"], "ok", "{schedule}: {report}");
    report
}

#[test]
fn every_schedule_of_the_test_bench_gives_the_unscheduled_outputs() {
    for schedule in [
        "examples/cnn/mnist_loops.sched",
        "examples/cnn/mnist_cpu.sched",
    ] {
        let report = run(schedule);
        assert_eq!(
            report["counters"],
            serde_json::json!({}),
            "{schedule} offloads nothing"
        );
    }
    let report = run("examples/cnn/mnist_accel.sched");
    let host = &report["counters"]["host"];
    // fc1 (64 x 6272 x 1024) in 4 calls, fc2 (64 x 1024 x 10) in one.
    assert_eq!(host["tiles"], 5);
    assert_eq!(host["macs"], 64 * 6272 * 1024 + 64 * 1024 * 10);
}
