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

use payload::types::parse_tensor_type;
use runner::tensor::Tensor;
use std::path::{Path, PathBuf};
use std::process::Command;

const EXPORTS: &str = "examples/torch";

/// The argument names the export's header lists (`// Arguments: the input,
/// then a, b, …`, or `the input.` for a frozen model), the input first.
fn argument_names(payload: &str) -> Vec<String> {
    let line = payload
        .lines()
        .find_map(|l| l.strip_prefix("// Arguments: the input"))
        .expect("an export names its arguments");
    let parameters = line.strip_prefix(", then ").unwrap_or("");
    std::iter::once("input".to_string())
        .chain(
            parameters
                .trim_end_matches('.')
                .split(", ")
                .filter(|name| !name.is_empty())
                .map(str::to_string),
        )
        .collect()
}

/// The tensor types of `@forward`'s arguments.
fn argument_types(payload: &str) -> Vec<String> {
    let start = payload.find("func.func @forward(").expect("@forward");
    let signature = &payload[start..];
    let arguments = &signature[..signature.find(") ->").expect("a result")];
    arguments
        .split("%arg")
        .skip(1)
        .map(|a| {
            let ty = a.split_once(": ").expect("a typed argument").1;
            ty.trim_end_matches([',', ' ']).to_string()
        })
        .collect()
}

/// Writes seeded inputs for `payload` into `directory`; returns `--inputs`.
fn write_inputs(payload: &Path, directory: &Path) -> String {
    let text = std::fs::read_to_string(payload).unwrap();
    let names = argument_names(&text);
    let types = argument_types(&text);
    assert_eq!(names.len(), types.len(), "{}", payload.display());
    let mut paths = Vec::new();
    for (i, (name, ty)) in names.iter().zip(&types).enumerate() {
        let ty = parse_tensor_type(ty).unwrap();
        let mut tensor = Tensor::random(ty.clone(), 1000 + i as u64);
        if name.ends_with("running_var") {
            // Variances in [0.5, 1.5).
            let values: Vec<u8> = tensor
                .to_f64()
                .iter()
                .flat_map(|v| ((v.abs() + 0.5) as f32).to_le_bytes())
                .collect();
            tensor = Tensor::from_bytes(ty, &values).unwrap();
        }
        let path = directory.join(format!("arg{i}.npy"));
        std::fs::write(&path, runner::npy::write(&tensor)).unwrap();
        paths.push(path.to_string_lossy().into_owned());
    }
    paths.join(",")
}

/// Every schedule beside `NAME.FORM.mlir`: `NAME.FORM.sched` and `NAME.FORM.*.sched`.
fn schedules_of(payload: &Path) -> Vec<PathBuf> {
    let stem = payload.file_stem().unwrap().to_string_lossy().into_owned();
    let mut schedules: Vec<PathBuf> = std::fs::read_dir(payload.parent().unwrap())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            name == format!("{stem}.sched")
                || (name.starts_with(&format!("{stem}.")) && name.ends_with(".sched"))
        })
        .collect();
    schedules.sort();
    schedules
}

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
