//! The whole networks in `examples/torchvision` (torch-mlir's
//! linalg-on-tensors exports of torchvision's resnet18 at batch 1 and 8,
//! mobilenet_v2 and a transformer encoder layer, parameters as arguments,
//! written by `scripts/export_torch.py`), each under every schedule beside
//! it (one for one thread, `*.parallel.sched` for two, `*.tuned.sched` written by
//! `sched-apply tune`, `*.tuned.parallel.sched` by `tune --threads 2`, and
//! `*.tuned.avx2.sched`, `*.tuned.znver3.sched`, `*.tuned.rocketlake.sched` the same
//! on those CPUs): JIT-run on
//! seeded inputs and compared with the unscheduled payload's results on them
//! (run once per export, then `--expect`ed of every schedule: the same
//! comparison as `--check`'s), and, when the exporter's data is there
//! (`examples/torchvision/data`, not committed: it needs PyTorch), with
//! `--expect` against PyTorch's own output on PyTorch's inputs. One test per
//! export, so that the test harness runs two at once.

mod common;

use common::exports::{exports_in, run_json, schedules_of, unscheduled_results, write_inputs};

const EXPORTS: &str = "examples/torchvision";

/// PyTorch's inputs and output for `model`, when the exporter wrote them:
/// (`--inputs`, `--expect`).
fn pytorch_data(model: &str) -> Option<(String, String)> {
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

/// Runs export `MODEL.linalg.mlir` under every schedule beside it, checking
/// each against the unscheduled payload (and PyTorch, when its data is
/// there); returns the schedules' file names.
fn check_every_schedule_of(model: &str) -> Vec<String> {
    let payload = common::root()
        .join(EXPORTS)
        .join(format!("{model}.linalg.mlir"));
    let directory = common::tempdir();
    let inputs = write_inputs(&payload, &directory);
    let unscheduled = unscheduled_results(&payload, &inputs, &directory);
    let pytorch = pytorch_data(model);
    let mut names = Vec::new();
    for schedule in schedules_of(&payload) {
        let what = format!("{} with {}", payload.display(), schedule.display());
        let args = [
            "--inputs",
            inputs.as_str(),
            "--expect",
            unscheduled.as_str(),
        ];
        let report = run_json(&payload, &schedule, &args);
        assert_eq!(report["check"], "ok", "{what}: {report}");
        assert_eq!(report["non_finite_results"], 0, "{what}: {report}");
        if let Some((inputs, expected)) = &pytorch {
            let args = ["--inputs", inputs.as_str(), "--expect", expected.as_str()];
            let report = run_json(&payload, &schedule, &args);
            assert_eq!(report["check"], "ok", "{what} against PyTorch: {report}");
        }
        names.push(schedule.file_name().unwrap().to_string_lossy().into_owned());
    }
    eprintln!(
        "{model}: {} schedules checked against the unscheduled payload{}",
        names.len(),
        if pytorch.is_some() {
            " and PyTorch's outputs"
        } else {
            ""
        }
    );
    names
}

#[test]
fn the_exports_are_the_four_networks_tested_below() {
    let names: Vec<String> = exports_in(&common::root().join(EXPORTS))
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
}

#[test]
fn mobilenet_v2_under_each_schedule_computes_what_it_does_unscheduled() {
    let schedules = check_every_schedule_of("mobilenet_v2");
    assert_eq!(
        schedules,
        [
            "mobilenet_v2.linalg.parallel.sched",
            "mobilenet_v2.linalg.sched",
            "mobilenet_v2.linalg.tuned.avx2.parallel.sched",
            "mobilenet_v2.linalg.tuned.avx2.sched",
            "mobilenet_v2.linalg.tuned.rocketlake.parallel.sched",
            "mobilenet_v2.linalg.tuned.rocketlake.sched",
            "mobilenet_v2.linalg.tuned.sched",
            "mobilenet_v2.linalg.tuned.znver3.parallel.sched",
            "mobilenet_v2.linalg.tuned.znver3.sched"
        ]
    );
}

#[test]
fn resnet18_under_each_schedule_computes_what_it_does_unscheduled() {
    let schedules = check_every_schedule_of("resnet18_b1");
    assert_eq!(
        schedules,
        [
            "resnet18_b1.linalg.parallel.sched",
            "resnet18_b1.linalg.sched",
            "resnet18_b1.linalg.tuned.avx2.parallel.sched",
            "resnet18_b1.linalg.tuned.avx2.sched",
            "resnet18_b1.linalg.tuned.parallel.sched",
            "resnet18_b1.linalg.tuned.rocketlake.parallel.sched",
            "resnet18_b1.linalg.tuned.rocketlake.sched",
            "resnet18_b1.linalg.tuned.sched",
            "resnet18_b1.linalg.tuned.znver3.parallel.sched",
            "resnet18_b1.linalg.tuned.znver3.sched"
        ]
    );
}

#[test]
fn resnet18_at_batch_8_under_each_schedule_computes_what_it_does_unscheduled() {
    let schedules = check_every_schedule_of("resnet18_b8");
    assert_eq!(
        schedules,
        [
            "resnet18_b8.linalg.parallel.sched",
            "resnet18_b8.linalg.sched",
            "resnet18_b8.linalg.tuned.avx2.parallel.sched",
            "resnet18_b8.linalg.tuned.avx2.sched",
            "resnet18_b8.linalg.tuned.rocketlake.parallel.sched",
            "resnet18_b8.linalg.tuned.rocketlake.sched",
            "resnet18_b8.linalg.tuned.sched",
            "resnet18_b8.linalg.tuned.znver3.parallel.sched",
            "resnet18_b8.linalg.tuned.znver3.sched"
        ]
    );
}

#[test]
fn the_transformer_layer_under_each_schedule_computes_what_it_does_unscheduled() {
    let schedules = check_every_schedule_of("transformer");
    assert_eq!(
        schedules,
        [
            "transformer.linalg.parallel.sched",
            "transformer.linalg.sched",
            "transformer.linalg.tuned.avx2.parallel.sched",
            "transformer.linalg.tuned.avx2.sched",
            "transformer.linalg.tuned.rocketlake.parallel.sched",
            "transformer.linalg.tuned.rocketlake.sched",
            "transformer.linalg.tuned.sched",
            "transformer.linalg.tuned.znver3.parallel.sched",
            "transformer.linalg.tuned.znver3.sched"
        ]
    );
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
