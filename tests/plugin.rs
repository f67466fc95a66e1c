//! The scripts sched-apply generates run in upstream MLIR: `mlir-opt`, given
//! the dialect plugin of sched-apply's own transform ops (`sched-apply
//! plugin`), applies every example's script, as written, to the payload the
//! script applies to (after the loading and inline phases, `--emit
//! inlined`) and prints the same IR as `sched-apply`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Every example schedule with its payload: `NAME.sched` beside `NAME.mlir`,
/// or beside the payload its name starts with (`conv_16x25.sched` →
/// `conv.mlir`, `mnist_cnn_b64.linalg.accel.sched` →
/// `mnist_cnn_b64.linalg.mlir`).
fn example_pairs() -> Vec<(PathBuf, PathBuf)> {
    let mut pairs = Vec::new();
    for folder in std::fs::read_dir(common::root().join("examples")).unwrap() {
        let folder = folder.unwrap().path();
        let Ok(files) = std::fs::read_dir(&folder) else {
            continue;
        };
        let mut payloads: Vec<String> = Vec::new();
        let mut schedules: Vec<PathBuf> = Vec::new();
        for file in files {
            let path = file.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if let Some(stem) = name.strip_suffix(".mlir") {
                payloads.push(stem.to_string());
            } else if name.ends_with(".sched") {
                schedules.push(path);
            }
        }
        // The longest payload name a schedule's name starts with.
        payloads.sort_by_key(|p| std::cmp::Reverse(p.len()));
        for schedule in schedules {
            let name = schedule.file_stem().unwrap().to_string_lossy().to_string();
            if let Some(payload) = payloads.iter().find(|p| name.starts_with(p.as_str())) {
                pairs.push((folder.join(format!("{payload}.mlir")), schedule));
            }
        }
    }
    pairs.sort();
    pairs
}

/// `sched-apply ARGS`'s standard output, after asserting it succeeded.
fn sched_apply(args: &[&Path], extra: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_sched-apply"))
        .args(args)
        .args(extra)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "sched-apply {args:?} {extra:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// What upstream `mlir-opt --transform-interpreter` prints after applying
/// `script` to `payload`, with the dialect plugin loaded when given.
fn upstream_applies(payload: &str, script: &str, plugin: Option<&str>) -> String {
    let directory = common::tempdir();
    let script_path = directory.join("script.mlir");
    std::fs::write(&script_path, script).unwrap();
    let mut args = vec![
        format!(
            "--transform-preload-library=transform-library-paths={}",
            script_path.display()
        ),
        "--transform-interpreter".to_string(),
    ];
    if let Some(plugin) = plugin {
        args.insert(0, format!("--load-dialect-plugin={plugin}"));
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let upstream = common::mlir_opt(payload, &args);
    let _ = std::fs::remove_dir_all(&directory);
    upstream
}

#[test]
fn upstream_mlir_opt_with_the_plugin_applies_every_examples_script_alike() {
    let plugin = sched_apply(&[], &["plugin"]);
    let plugin = plugin.trim_end();
    assert!(Path::new(plugin).is_file(), "no plugin at {plugin}");
    let pairs = example_pairs();
    assert!(pairs.len() >= 30, "only {} examples found", pairs.len());
    let mut with_own_ops = 0;
    for (payload, schedule) in &pairs {
        let inputs = [payload.as_path(), schedule.as_path()];
        let script = sched_apply(&inputs, &["--emit", "transform"]);
        with_own_ops += usize::from(script.contains("transform.sched."));
        let applied_to = sched_apply(&inputs, &["--emit", "inlined"]);
        let ours = sched_apply(&inputs, &[]);
        let upstream = upstream_applies(&applied_to, &script, Some(plugin));
        assert_eq!(
            upstream.trim_end(),
            ours.trim_end(),
            "{}: mlir-opt and sched-apply disagree",
            schedule.display()
        );
    }
    // Most examples' scripts need the plugin (compute_at's fusion is ours).
    assert!(
        with_own_ops >= 20,
        "only {with_own_ops} scripts use our ops"
    );
}

#[test]
fn upstream_mlir_opt_alone_applies_every_portable_script_alike() {
    let (mut portable, mut refused) = (0, 0);
    for (payload, schedule) in &example_pairs() {
        let inputs = [payload.as_path(), schedule.as_path()];
        let output = Command::new(env!("CARGO_BIN_EXE_sched-apply"))
            .args(inputs)
            .args(["--emit", "transform", "--portable"])
            .output()
            .unwrap();
        if !output.status.success() {
            // Refused only for an op of our own the script needs, at its directive.
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(1), "{stderr}");
            let schedule_name = schedule.display().to_string();
            assert!(
                stderr.starts_with(&format!("{schedule_name}:"))
                    && stderr.contains("error: this directive needs `transform.sched."),
                "{stderr}"
            );
            let script = sched_apply(&inputs, &["--emit", "transform"]);
            let op = stderr.split('`').nth(1).unwrap();
            assert!(script.contains(op), "{op} is not in the script: {stderr}");
            refused += 1;
            continue;
        }
        let script = String::from_utf8(output.stdout).unwrap();
        assert!(!script.contains("= transform.sched."), "{script}");
        let applied_to = sched_apply(&inputs, &["--emit", "inlined"]);
        let upstream = upstream_applies(&applied_to, &script, None);
        // `sched.fresh_init` only changes where a fused fill writes (storage),
        // so the portable script leaves it out: where the full script has it,
        // ours is the portable script applied by our interpreter.
        let full = sched_apply(&inputs, &["--emit", "transform"]);
        let ours = if full.contains("transform.sched.fresh_init ") {
            let context = payload::new_context();
            let mut module = payload::parse_module(&context, "payload.mlir", &applied_to).unwrap();
            payload::transform::apply_script(&context, &mut module, &script).unwrap();
            payload::ffi::print_module(&module)
        } else {
            sched_apply(&inputs, &[])
        };
        assert_eq!(
            upstream.trim_end(),
            ours.trim_end(),
            "{}: mlir-opt without the plugin and sched-apply disagree",
            schedule.display()
        );
        portable += 1;
    }
    eprintln!("{portable} examples' scripts are portable, {refused} need our own ops");
    assert!(
        portable >= 20 && refused >= 3,
        "{portable} portable, {refused} refused"
    );
}

#[test]
fn portable_is_for_the_script_only() {
    let root = common::root();
    let payload = root.join("examples/halide_conv/conv.mlir");
    let output = Command::new(env!("CARGO_BIN_EXE_sched-apply"))
        .arg(&payload)
        .arg("--portable")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("add --emit transform"));
}
