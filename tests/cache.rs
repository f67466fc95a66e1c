//! The compile cache end to end: `sched-apply run` keeps each compiled
//! payload (`SCHED_APPLY_CACHE` points every run here at a fresh directory),
//! and a second run of the same scheduled payload loads the code instead of
//! compiling it, and computes the same results.

mod common;

use std::path::Path;
use std::process::Command;

/// `run --check --json` of the chain fixture with the cache in `cache`,
/// results saved in `outputs`; returns the report.
fn run(cache: &Path, outputs: &Path, extra: &[&str]) -> serde_json::Value {
    let root = common::root();
    let output = Command::new(env!("CARGO_BIN_EXE_sched-apply"))
        .env("SCHED_APPLY_CACHE", cache)
        .arg("run")
        .arg(root.join("tests/payloads/chain.mlir"))
        .arg(root.join("tests/fixtures/chain_compute_at.sched"))
        .args(["--check", "--json", "--save-outputs"])
        .arg(outputs)
        .args(extra)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["check"], "ok", "{report}");
    report
}

/// The files of `directory` ending in `extension`.
fn files(directory: &Path, extension: &str) -> Vec<std::path::PathBuf> {
    let mut found: Vec<_> = std::fs::read_dir(directory)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    found.sort();
    found
}

#[test]
fn a_second_run_loads_the_code_and_computes_the_same_results() {
    let scratch = common::tempdir();
    let cache = scratch.join("cache");
    let first = run(&cache, &scratch.join("first"), &[]);
    assert_eq!(first["compile_s"]["cached"], false, "{first}");
    // The scheduled payload and the unscheduled one (for --check).
    assert_eq!(files(&cache, "o").len(), 2);
    assert_eq!(files(&cache, "meta").len(), 2);
    let second = run(&cache, &scratch.join("second"), &[]);
    assert_eq!(second["compile_s"]["cached"], true, "{second}");
    assert_eq!(second["compile_s"]["lower"], 0.0, "{second}");
    let saved = |run: &str| std::fs::read(scratch.join(run).join("result0.npy")).unwrap();
    assert_eq!(saved("first"), saved("second"));
    let _ = std::fs::remove_dir_all(scratch);
}

#[test]
fn no_cache_compiles_again() {
    let scratch = common::tempdir();
    let cache = scratch.join("cache");
    run(&cache, &scratch.join("first"), &[]);
    let again = run(&cache, &scratch.join("again"), &["--no-cache"]);
    assert_eq!(again["compile_s"]["cached"], false, "{again}");
    let _ = std::fs::remove_dir_all(scratch);
}

#[test]
fn a_damaged_entry_is_compiled_again_and_replaced() {
    let scratch = common::tempdir();
    let cache = scratch.join("cache");
    run(&cache, &scratch.join("first"), &[]);
    for object in files(&cache, "o") {
        std::fs::write(&object, b"not an object file").unwrap();
    }
    let damaged = run(&cache, &scratch.join("damaged"), &[]);
    assert_eq!(damaged["compile_s"]["cached"], false, "{damaged}");
    let repaired = run(&cache, &scratch.join("repaired"), &[]);
    assert_eq!(repaired["compile_s"]["cached"], true, "{repaired}");
    let _ = std::fs::remove_dir_all(scratch);
}

#[test]
fn a_truncated_entry_is_compiled_again() {
    let scratch = common::tempdir();
    let cache = scratch.join("cache");
    run(&cache, &scratch.join("first"), &[]);
    // Cut every cached file of objects short (each holds one object per
    // part the code was generated in, after its length): a truncated one.
    for object in files(&cache, "o") {
        let bytes = std::fs::read(&object).unwrap();
        std::fs::write(&object, &bytes[..bytes.len() / 2]).unwrap();
    }
    let again = run(&cache, &scratch.join("again"), &[]);
    assert_eq!(again["compile_s"]["cached"], false, "{again}");
    let saved = |run: &str| std::fs::read(scratch.join(run).join("result0.npy")).unwrap();
    assert_eq!(saved("first"), saved("again"));
    let _ = std::fs::remove_dir_all(scratch);
}
