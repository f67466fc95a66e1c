//! The whole networks in `examples/torchvision` (torch-mlir's
//! linalg-on-tensors exports of torchvision's resnet18 at batch 1 and 8,
//! mobilenet_v2 and a transformer encoder layer, parameters as arguments,
//! written by `scripts/export_torch.py`), each under every schedule beside
//! it: JIT-run with `run --check` against the unscheduled payload on seeded
//! inputs, and, when the exporter's data is there (`examples/torchvision/data`,
//! not committed: it needs PyTorch), with `--expect` against PyTorch's own
//! output on PyTorch's inputs.

mod common;

use common::exports::{schedules_of, write_inputs};
use std::path::{Path, PathBuf};
use std::process::Command;

const EXPORTS: &str = "examples/torchvision";

/// `sched-apply run PAYLOAD SCHEDULE ARGS --json`'s report; fails the test,
/// naming `what`, when the run fails.
fn run(payload: &Path, schedule: &Path, args: &[&str], what: &str) -> serde_json::Value {
    let output = Command::new(env!("CARGO_BIN_EXE_sched-apply"))
        .arg("run")
        .arg(payload)
        .arg(schedule)
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{what}: {stderr}");
    serde_json::from_slice(&output.stdout).unwrap()
}

/// PyTorch's inputs and output for export `stem`, when the exporter wrote
/// them: (`--inputs`, `--expect`).
fn pytorch_data(stem: &str) -> Option<(String, String)> {
    let model = stem.strip_suffix(".linalg")?;
    let data = common::root().join(EXPORTS).join("data").join(model);
    let expected = data.join("expected.npy");
    if !expected.exists() {
        return None;
    }
    let mut inputs = Vec::new();
    while data.join(format!("arg{}.npy", inputs.len())).exists() {
        let path = data.join(format!("arg{}.npy", inputs.len()));
        inputs.push(path.to_string_lossy().into_owned());
    }
    Some((inputs.join(","), expected.to_string_lossy().into_owned()))
}

#[test]
fn every_whole_network_under_its_schedule_computes_what_the_unscheduled_payload_does() {
    let directory = common::root().join(EXPORTS);
    let mut payloads: Vec<PathBuf> = std::fs::read_dir(&directory)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "mlir"))
        .collect();
    payloads.sort();
    let names: Vec<String> = payloads
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "mobilenet_v2.linalg.mlir",
            "resnet18_b1.linalg.mlir",
            "resnet18_b8.linalg.mlir",
            "transformer.linalg.mlir"
        ]
    );
    let inputs_directory = common::tempdir();
    let mut runs = 0;
    let mut against_pytorch = 0;
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
            let what = format!("{} with {}", payload.display(), schedule.display());
            let report = run(payload, &schedule, &["--inputs", &inputs, "--check"], &what);
            assert_eq!(report["check"], "ok", "{what}: {report}");
            assert_eq!(report["non_finite_results"], 0, "{what}: {report}");
            runs += 1;
            if let Some((inputs, expected)) = pytorch_data(&stem) {
                let args = ["--inputs", inputs.as_str(), "--expect", expected.as_str()];
                let report = run(payload, &schedule, &args, &what);
                assert_eq!(report["check"], "ok", "{what} against PyTorch: {report}");
                against_pytorch += 1;
            }
        }
    }
    assert_eq!(runs, 4, "one schedule per export");
    eprintln!("{runs} runs checked against the unscheduled payload, {against_pytorch} against PyTorch's outputs");
    let _ = std::fs::remove_dir_all(inputs_directory);
}

#[test]
fn resnet18_runs_at_batch_8_under_its_batch_1_schedule() {
    let directory = common::root().join(EXPORTS);
    let batch_1 = std::fs::read_to_string(directory.join("resnet18_b1.linalg.sched")).unwrap();
    let batch_8 = std::fs::read_to_string(directory.join("resnet18_b8.linalg.sched")).unwrap();
    assert_eq!(batch_1, batch_8);
    let lines = batch_1
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    assert!(lines.count() < 40, "resnet18's schedule is under 40 lines");
}
