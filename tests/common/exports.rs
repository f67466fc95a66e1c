//! The PyTorch exports' helpers (`tests/torch.rs`, `tests/torchvision.rs`):
//! the arguments an export's header names, seeded inputs for them, and the
//! schedules beside an export.

use payload::types::parse_tensor_type;
use runner::tensor::Tensor;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The argument names the export's header lists (`// Arguments: the input,
/// then a, b, …`, or `the input.` for a frozen model), the input first.
pub fn argument_names(payload: &str) -> Vec<String> {
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
pub fn argument_types(payload: &str) -> Vec<String> {
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
/// Values are uniform in [-1, 1) but for batch norms' variances, in
/// [0.5, 1.5) (a negative one makes the output NaN), and weights of two or
/// more dimensions, scaled by 1/sqrt(fan-in) as PyTorch initializes them:
/// unscaled, a deep network amplifies each layer's rounding by its gain
/// (MobileNet-v2's output moved by 30% between two summation orders).
pub fn write_inputs(payload: &Path, directory: &Path) -> String {
    let text = std::fs::read_to_string(payload).unwrap();
    let names = argument_names(&text);
    let types = argument_types(&text);
    assert_eq!(names.len(), types.len(), "{}", payload.display());
    let mut paths = Vec::new();
    for (i, (name, ty)) in names.iter().zip(&types).enumerate() {
        let ty = parse_tensor_type(ty).unwrap();
        let mut tensor = Tensor::random(ty.clone(), 1000 + i as u64);
        let fan_in: i64 = ty.shape.iter().skip(1).product();
        let map: Option<Box<dyn Fn(f64) -> f64>> = if name.ends_with("running_var") {
            Some(Box::new(|v: f64| v.abs() + 0.5))
        } else if name.ends_with("weight") && ty.shape.len() >= 2 {
            let scale = 1.0 / (fan_in as f64).sqrt();
            Some(Box::new(move |v: f64| v * scale))
        } else {
            None
        };
        if let Some(map) = map {
            let values: Vec<u8> = tensor
                .to_f64()
                .into_iter()
                .flat_map(|v| (map(v) as f32).to_le_bytes())
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
pub fn schedules_of(payload: &Path) -> Vec<PathBuf> {
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

/// The `.mlir` exports in `directory`, sorted.
pub fn exports_in(directory: &Path) -> Vec<PathBuf> {
    let mut payloads: Vec<PathBuf> = std::fs::read_dir(directory)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "mlir"))
        .collect();
    payloads.sort();
    payloads
}

/// Calls `check(payload, schedule, inputs)` for every export in `payloads`
/// under every schedule beside it (each export must have one), `inputs`
/// being seeded `--inputs` written into a scratch directory. Returns the
/// calls made.
pub fn for_every_schedule(
    payloads: &[PathBuf],
    mut check: impl FnMut(&Path, &Path, &str),
) -> usize {
    let inputs_directory = super::tempdir();
    let mut runs = 0;
    for payload in payloads {
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
            check(payload, &schedule, &inputs);
            runs += 1;
        }
    }
    let _ = std::fs::remove_dir_all(inputs_directory);
    runs
}

/// Runs `payload` unscheduled (under an empty schedule) on `inputs` and
/// saves its results into `directory`; returns them as `--expect` takes
/// them. Schedules then checked with `--expect` are checked as `--check`
/// would, against one run of the unscheduled payload instead of one each
/// (resnet18 at batch 8 takes 19 s unscheduled on a Zen 1).
pub fn unscheduled_results(payload: &Path, inputs: &str, directory: &Path) -> String {
    let empty = directory.join("unscheduled.sched");
    std::fs::write(&empty, "").unwrap();
    let saved = directory.join("unscheduled");
    let saved_text = saved.to_string_lossy().into_owned();
    let report = run_json(
        payload,
        &empty,
        &["--inputs", inputs, "--save-outputs", &saved_text],
    );
    let results: Vec<String> = report["saved"]
        .as_array()
        .expect("`saved` lists the results written")
        .iter()
        .map(|path| path.as_str().unwrap().to_string())
        .collect();
    assert!(
        !results.is_empty(),
        "{}: no results saved",
        payload.display()
    );
    results.join(",")
}

/// `sched-apply run PAYLOAD SCHEDULE ARGS --json`'s report; fails the test,
/// naming the payload and schedule, when the run fails.
pub fn run_json(payload: &Path, schedule: &Path, args: &[&str]) -> serde_json::Value {
    let output = Command::new(env!("CARGO_BIN_EXE_sched-apply"))
        .arg("run")
        .arg(payload)
        .arg(schedule)
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let what = format!("{} with {}", payload.display(), schedule.display());
    assert!(output.status.success(), "{what}: {stderr}");
    serde_json::from_slice(&output.stdout).unwrap()
}
