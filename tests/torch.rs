//! The PyTorch exports in `examples/torch` (torch-mlir's linalg-on-tensors and
//! TOSA forms, written by `scripts/export_torch.py`; one model frozen, its
//! weights `dense_resource` blobs in the file), each under every
//! schedule beside it, JIT-run with `run --check` against the unscheduled
//! payload. The inputs are seeded and written as `.npy` files, with each
//! batch norm's running variance made positive: with `run`'s default inputs
//! in [-1, 1) its square root is NaN and the whole output with it, which
//! would make the check compare NaN with NaN. (The comparison with PyTorch's
//! own outputs needs PyTorch: `scripts/export_torch.py --check`.)

mod common;

use common::exports::{schedules_of, write_inputs};
use std::path::PathBuf;
use std::process::Command;

const EXPORTS: &str = "examples/torch";

#[test]
fn every_export_under_every_schedule_beside_it_gives_the_unscheduled_outputs() {
    let directory = common::root().join(EXPORTS);
    let mut payloads: Vec<PathBuf> = std::fs::read_dir(&directory)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "mlir"))
        .collect();
    payloads.sort();
    assert_eq!(
        payloads.len(),
        12,
        "six models (one frozen), two forms each"
    );
    let inputs_directory = common::tempdir();
    let mut runs = 0;
    for payload in &payloads {
        let schedules = schedules_of(payload);
        assert!(
            !schedules.is_empty(),
            "{} has a schedule",
            payload.display()
        );
        let stem = payload.file_stem().unwrap().to_string_lossy().into_owned();
        let model_inputs = inputs_directory.join(&stem);
        std::fs::create_dir_all(&model_inputs).unwrap();
        let inputs = write_inputs(payload, &model_inputs);
        for schedule in schedules {
            let output = Command::new(env!("CARGO_BIN_EXE_sched-apply"))
                .arg("run")
                .arg(payload)
                .arg(&schedule)
                .args(["--inputs", &inputs, "--check", "--json"])
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            let what = format!("{} with {}", payload.display(), schedule.display());
            assert!(output.status.success(), "{what}: {stderr}");
            let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
            assert_eq!(report["check"], "ok", "{what}: {report}");
            assert_eq!(report["non_finite_results"], 0, "{what}: {report}");
            runs += 1;
        }
    }
    // Every export has its own schedule, the batch-64 CNN an accelerated one too, and the
    // ResNet block one written as recipes (funcs of many ops).
    assert_eq!(runs, 14);
    let _ = std::fs::remove_dir_all(inputs_directory);
}
