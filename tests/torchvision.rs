//! The whole networks in `examples/torchvision` (torch-mlir's
//! linalg-on-tensors exports of torchvision's resnet18 at batch 1 and 8,
//! mobilenet_v2 and a transformer encoder layer, parameters as arguments,
//! written by `scripts/export_torch.py`), each under every schedule beside
//! it (one for one thread, `*.parallel.sched` for two, `*.tuned.sched` written by
//! `sched-apply tune`, `*.tuned.parallel.sched` by `tune --threads 2`): JIT-run with `run --check` against the unscheduled payload on seeded
//! inputs, and, when the exporter's data is there (`examples/torchvision/data`,
//! not committed: it needs PyTorch), with `--expect` against PyTorch's own
//! output on PyTorch's inputs.

mod common;

use common::exports::{exports_in, for_every_schedule, run_json};

const EXPORTS: &str = "examples/torchvision";

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
    let payloads = exports_in(&common::root().join(EXPORTS));
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
    let mut against_pytorch = 0;
    let runs = for_every_schedule(&payloads, |payload, schedule, inputs| {
        let what = format!("{} with {}", payload.display(), schedule.display());
        let report = run_json(payload, schedule, &["--inputs", inputs, "--check"]);
        assert_eq!(report["check"], "ok", "{what}: {report}");
        assert_eq!(report["non_finite_results"], 0, "{what}: {report}");
        let stem = payload.file_stem().unwrap().to_string_lossy().into_owned();
        if let Some((inputs, expected)) = pytorch_data(&stem) {
            let args = ["--inputs", inputs.as_str(), "--expect", expected.as_str()];
            let report = run_json(payload, schedule, &args);
            assert_eq!(report["check"], "ok", "{what} against PyTorch: {report}");
            against_pytorch += 1;
        }
    });
    assert_eq!(
        runs, 13,
        "a one-thread, a two-thread and a tuned (`sched-apply tune`) schedule per export, \
         and resnet18_b1's tuned for two threads"
    );
    eprintln!("{runs} runs checked against the unscheduled payload, {against_pytorch} against PyTorch's outputs");
}

#[test]
fn resnet18_runs_at_batch_8_under_its_batch_1_schedule() {
    let directory = common::root().join(EXPORTS);
    for kind in ["sched", "parallel.sched"] {
        let batch_1 = std::fs::read_to_string(directory.join(format!("resnet18_b1.linalg.{kind}")));
        let batch_8 = std::fs::read_to_string(directory.join(format!("resnet18_b8.linalg.{kind}")));
        assert_eq!(batch_1.unwrap(), batch_8.unwrap());
    }
    let batch_1 = std::fs::read_to_string(directory.join("resnet18_b1.linalg.sched")).unwrap();
    let lines = batch_1
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    assert!(lines.count() < 40, "resnet18's schedule is under 40 lines");
}
