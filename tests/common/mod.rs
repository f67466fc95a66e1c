//! Helpers shared by the integration tests: fixtures, the installed MLIR
//! tools, and the differential check that runs a payload before and after a
//! schedule with upstream `mlir-runner` and compares the results.

#![allow(dead_code)]

pub mod exports;
pub mod scale;

use schedule_lang::SourceFile;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs the `sched-apply` binary with `args` in the workspace root.
pub fn sched_apply(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sched-apply"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

/// `sched-apply` with `args`, then the path of `payload` written to a
/// temporary directory as `p.mlir` with `schedule` beside it as `p.sched`:
/// the exit code, and stdout followed by stderr.
pub fn sched_apply_on(payload: &str, schedule: &str, args: &[&str]) -> (Option<i32>, String) {
    let directory = tempdir();
    let path = directory.join("p.mlir");
    std::fs::write(&path, payload).unwrap();
    std::fs::write(directory.join("p.sched"), schedule).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_sched-apply"))
        .args(args)
        .arg(&path)
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr),
    )
}

/// A command's standard error, as text.
pub fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The row of func `name` in a `sched-apply profile --json` report.
pub fn stage_row(report: &serde_json::Value, name: &str) -> serde_json::Value {
    report["stages"]
        .as_array()
        .expect("a list of stages")
        .iter()
        .find(|s| s["name"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("no row `{name}` in {report}"))
}

/// The script `sched-apply --emit transform` generates (its comments
/// left out, and checked to contain `op`), then the transformed payload:
/// the text the reuse-buffer and sliding-window snapshots hold.
#[allow(dead_code)]
pub fn script_and_payload(payload: &str, schedule: &str, op: &str) -> String {
    let script = sched_apply(&[payload, schedule, "--emit", "transform"]);
    assert_eq!(script.status.code(), Some(0), "{}", stderr(&script));
    let script = String::from_utf8_lossy(&script.stdout).to_string();
    assert!(script.contains(op), "{schedule}: {script}");
    let transformed = sched_apply(&[payload, schedule]);
    assert_eq!(
        transformed.status.code(),
        Some(0),
        "{}",
        stderr(&transformed)
    );
    let script: Vec<&str> = script
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect();
    format!(
        "{}\n// ---- transformed payload ----\n{}",
        script.join("\n"),
        String::from_utf8_lossy(&transformed.stdout)
    )
}

/// The workspace root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// An installed LLVM 22 tool (`mlir-opt`, `mlir-runner`).
pub fn tool(name: &str) -> PathBuf {
    PathBuf::from("/usr/lib/llvm-22/bin").join(name)
}

/// A schedule fixture: its source and the payload its `# payload:` header names.
pub struct Fixture {
    pub schedule: SourceFile,
    pub payload_path: PathBuf,
    pub payload_text: String,
    /// False when the header says `# check: skip` (too large for the reference run).
    pub run_check: bool,
}

/// Loads `tests/fixtures/NAME.sched` (or any `.sched` path) and its payload.
pub fn fixture(path: &Path) -> Fixture {
    let text = std::fs::read_to_string(path).unwrap();
    let payload = text
        .lines()
        .find_map(|l| l.strip_prefix("# payload: "))
        .unwrap_or_else(|| panic!("{} has no `# payload:` header", path.display()))
        .trim();
    let payload_path = path.parent().unwrap().join("../payloads").join(payload);
    let payload_text = std::fs::read_to_string(&payload_path).unwrap();
    let run_check = !text.lines().any(|l| l.trim() == "# check: skip");
    let name = format!("{}", path.file_name().unwrap().to_string_lossy());
    Fixture {
        schedule: SourceFile::new(name, text),
        payload_path,
        payload_text,
        run_check,
    }
}

/// Runs `mlir-opt` with `args` on `input`, returning stdout or panicking with stderr.
pub fn mlir_opt(input: &str, args: &[&str]) -> String {
    let directory = tempdir();
    let path = directory.join("input.mlir");
    std::fs::write(&path, input).unwrap();
    let output = Command::new(tool("mlir-opt"))
        .arg(&path)
        .args(args)
        .output()
        .expect("mlir-opt runs");
    assert!(
        output.status.success(),
        "mlir-opt {args:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let _ = std::fs::remove_dir_all(&directory);
    String::from_utf8(output.stdout).unwrap()
}

/// A fresh temporary directory, removed with what it holds when dropped
/// (at the end of the test, passed or failed).
pub fn tempdir() -> TempDir {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let directory = std::env::temp_dir().join(format!(
        "sched-apply-test-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&directory).unwrap();
    TempDir(directory)
}

/// A test's temporary directory ([`tempdir`]).
pub struct TempDir(PathBuf);

impl std::ops::Deref for TempDir {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl AsRef<std::path::Path> for TempDir {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The signature of a payload function: its argument types and single result type.
struct Signature {
    name: String,
    arguments: Vec<String>,
    result: String,
}

fn split_top_level(text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut current = String::new();
    for c in text.chars() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(current.trim().to_string());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        parts.push(current.trim().to_string());
    }
    parts
}

/// Reads the first function's signature from a module printed with local scope.
fn signature(module: &str) -> Signature {
    let line = module
        .lines()
        .find(|l| l.trim_start().starts_with("func.func @"))
        .expect("a function");
    let after = &line[line.find('@').unwrap() + 1..];
    let name = after[..after.find('(').unwrap()].to_string();
    let open = after.find('(').unwrap();
    let mut depth = 0;
    let mut close = open;
    for (i, c) in after[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    close = open + i;
                    break;
                }
            }
            _ => {}
        }
    }
    let arguments = split_top_level(&after[open + 1..close])
        .into_iter()
        .map(|a| a.split_once(": ").unwrap().1.to_string())
        .collect();
    let result = after[close..]
        .split("->")
        .nth(1)
        .unwrap()
        .trim()
        .trim_end_matches('{')
        .trim()
        .to_string();
    Signature {
        name,
        arguments,
        result,
    }
}

fn shape(ty: &str) -> Vec<usize> {
    let inner = ty
        .strip_prefix("tensor<")
        .unwrap()
        .strip_suffix('>')
        .unwrap();
    let parts: Vec<&str> = inner.split('x').collect();
    parts[..parts.len() - 1]
        .iter()
        .map(|p| p.parse().unwrap())
        .collect()
}

/// `module { BODY }` printed by mlir-opt → BODY, with function `@name` renamed.
fn body_renamed(module: &str, name: &str, new_name: &str) -> String {
    let start = module.find("module {").unwrap() + "module {".len();
    let end = module.rfind('}').unwrap();
    module[start..end].replace(
        &format!("func.func @{name}("),
        &format!("func.func @{new_name}("),
    )
}

/// Deterministic, varied input values for argument `a`.
fn generate(ty: &str, a: usize) -> String {
    let dims = shape(ty);
    let indices: Vec<String> = (0..dims.len()).map(|k| format!("%i{k}: index")).collect();
    let mut body = format!("    %acc0 = arith.constant {} : index\n", 5 * a + 1);
    for k in 0..dims.len() {
        body.push_str(&format!("    %m{k} = arith.constant {} : index\n    %p{k} = arith.muli %i{k}, %m{k} : index\n    %acc{} = arith.addi %acc{k}, %p{k} : index\n", 7 * k + 3, k + 1));
    }
    let last = dims.len();
    body.push_str(&format!(
        "    %mod = arith.constant 13 : index\n    %r = arith.remui %acc{last}, %mod : index\n    %ri = arith.index_cast %r : index to i32\n    %rf = arith.sitofp %ri : i32 to f32\n    %q = arith.constant 0.25 : f32\n    %o = arith.constant 1.5 : f32\n    %s = arith.mulf %rf, %q : f32\n    %v = arith.subf %s, %o : f32\n    tensor.yield %v : f32\n"
    ));
    format!(
        "  %in{a} = tensor.generate {{\n  ^bb0({}):\n{body}  }} : {ty}\n",
        indices.join(", ")
    )
}

/// Runs the payload before and after scheduling on the same inputs with
/// `mlir-runner`; returns (max |difference|, max |reference|).
pub fn differential(original: &str, transformed: &str) -> (f64, f64) {
    // A TOSA payload is lowered by upstream's own conversions here,
    // independently of sched-apply's loading phase.
    let tosa = "--pass-pipeline=builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),remove-dead-values)";
    let original = mlir_opt(original, &["--mlir-print-local-scope", tosa]);
    let transformed = mlir_opt(transformed, &["--mlir-print-local-scope"]);
    let signature = signature(&original);
    let mut harness = String::from("module {\n");
    harness.push_str(&body_renamed(&original, &signature.name, "reference"));
    harness.push_str(&body_renamed(&transformed, &signature.name, "scheduled"));
    harness.push_str("func.func @main() {\n");
    for (a, ty) in signature.arguments.iter().enumerate() {
        harness.push_str(&generate(ty, a));
    }
    let args: Vec<String> = (0..signature.arguments.len())
        .map(|a| format!("%in{a}"))
        .collect();
    let types = signature.arguments.join(", ");
    let result = &signature.result;
    let rank = shape(result).len();
    let dims: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    let identity = format!("affine_map<({0}) -> ({0})>", dims.join(", "));
    let scalar = format!("affine_map<({}) -> ()>", dims.join(", "));
    let reductions = vec!["\"reduction\""; rank].join(", ");
    harness.push_str(&format!(
        "  %ref = call @reference({a}) : ({types}) -> {result}\n  %got = call @scheduled({a}) : ({types}) -> {result}\n  %zero = arith.constant 0.0 : f32\n  %e = tensor.empty() : tensor<f32>\n  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>\n  %diff = linalg.generic {{indexing_maps = [{identity}, {identity}, {scalar}], iterator_types = [{reductions}]}} ins(%ref, %got : {result}, {result}) outs(%init : tensor<f32>) {{\n  ^bb0(%x: f32, %y: f32, %m: f32):\n    %d = arith.subf %x, %y : f32\n    %ad = math.absf %d : f32\n    %mx = arith.maximumf %ad, %m : f32\n    linalg.yield %mx : f32\n  }} -> tensor<f32>\n  %mag = linalg.generic {{indexing_maps = [{identity}, {scalar}], iterator_types = [{reductions}]}} ins(%ref : {result}) outs(%init : tensor<f32>) {{\n  ^bb0(%x: f32, %m: f32):\n    %ax = math.absf %x : f32\n    %mx = arith.maximumf %ax, %m : f32\n    linalg.yield %mx : f32\n  }} -> tensor<f32>\n  %dv = tensor.extract %diff[] : tensor<f32>\n  %mv = tensor.extract %mag[] : tensor<f32>\n  vector.print %dv : f32\n  vector.print %mv : f32\n  return\n}}\n}}\n",
        a = args.join(", ")
    ));
    let directory = tempdir();
    std::fs::write(directory.join("harness.mlir"), &harness).unwrap();
    let lowered = mlir_opt(
        &harness,
        &[
            "--one-shot-bufferize=bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map",
            // Self-copies of strided views left by bufferization are folded here;
            // lowered as-is, MLIR 22 turns some of them into a plain memcpy of the wrong extent.
            "--canonicalize",
            "--cse",
            "--scf-forall-to-for",
            "--convert-linalg-to-loops",
            // Transfers lowered to scf loops (test-lower-to-llvm's default) crashed at run time on
            // MLIR 22 for broadcasting transfer_reads; fully unrolled, they run correctly.
            "--convert-vector-to-scf=full-unroll",
            // MLIR 22's vector-to-LLVM conversion leaves multi-reductions alone.
            "--lower-vector-multi-reduction",
            "--test-lower-to-llvm",
        ],
    );
    let path = directory.join("lowered.mlir");
    std::fs::write(&path, lowered).unwrap();
    let output = Command::new(tool("mlir-runner"))
        .args(["-e", "main", "-entry-point-result=void"])
        .arg(format!(
            "-shared-libs={}",
            tool("../lib/libmlir_c_runner_utils.so").display()
        ))
        .arg(&path)
        .output()
        .expect("mlir-runner runs");
    assert!(
        output.status.success(),
        "mlir-runner failed on {}:\n{}",
        path.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let _ = std::fs::remove_dir_all(&directory);
    let stdout = String::from_utf8(output.stdout).unwrap();
    let values: Vec<f64> = stdout
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect();
    assert_eq!(values.len(), 2, "unexpected runner output: {stdout}");
    (values[0], values[1])
}

/// Writes each input as `directory/NAME.npy` and runs `payload` under
/// `schedule` on them (with `extra` flags), its results saved in
/// `directory/out`, which it returns; the run must succeed.
pub fn run_on_npy(
    directory: &Path,
    (payload, schedule): (&str, &str),
    inputs: &[(&str, &runner::tensor::Tensor)],
    extra: &[&str],
) -> PathBuf {
    let mut paths = Vec::new();
    for (name, tensor) in inputs {
        let path = directory.join(format!("{name}.npy"));
        std::fs::write(&path, runner::npy::write(tensor)).unwrap();
        paths.push(path.display().to_string());
    }
    let out = directory.join("out");
    let paths = paths.join(",");
    let mut args = vec!["run", payload, schedule, "--inputs", &paths];
    args.extend(["--save-outputs", out.to_str().unwrap()]);
    args.extend_from_slice(extra);
    let output = sched_apply(&args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    out
}
