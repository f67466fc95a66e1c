//! The compile cache end to end: `sched-apply run` keeps each compiled
//! payload (`SCHED_APPLY_CACHE` points every run here at a fresh directory),
//! and a second run of the same scheduled payload loads the code instead of
//! compiling it, and computes the same results.

mod common;

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::Command;

/// `run --check --json` of the chain fixture with the cache in `cache`,
/// results saved in `outputs`; returns the report.
fn run(cache: &Path, outputs: &Path, extra: &[&str]) -> serde_json::Value {
    let payload = common::root().join("tests/payloads/chain.mlir");
    run_payload(cache, &payload, outputs, extra).0
}

/// `run --check --json` of `payload` under the chain fixture's schedule with
/// the cache in `cache`, results saved in `outputs`, stopped after a minute
/// (a cache entry must never make a run hang); returns the report and
/// what the run printed on standard error.
fn run_payload(
    cache: &Path,
    payload: &Path,
    outputs: &Path,
    extra: &[&str],
) -> (serde_json::Value, String) {
    let root = common::root();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sched-apply"))
        .env("SCHED_APPLY_CACHE", cache)
        .arg("run")
        .arg(payload)
        .arg(root.join("tests/fixtures/chain_compute_at.sched"))
        .args(["--check", "--json", "--save-outputs"])
        .arg(outputs)
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the run did not finish within a minute");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["check"], "ok", "{report}");
    (report, stderr)
}

/// The first result a run saved in `directory`.
fn saved(directory: &Path) -> Vec<u8> {
    std::fs::read(directory.join("result0.npy")).unwrap()
}

/// Fills a fresh cache with one run of the chain, lets `damage` change its
/// entries, and asserts that the next run loads nothing (it compiles again)
/// and computes what the first did. Returns the scratch directory (the
/// runs' results in `first` and `again`) and the cache in it.
fn compiled_again_after(damage: impl FnOnce(&Path)) -> (common::TempDir, std::path::PathBuf) {
    let scratch = common::tempdir();
    let cache = scratch.join("cache");
    run(&cache, &scratch.join("first"), &[]);
    damage(&cache);
    let again = run(&cache, &scratch.join("again"), &[]);
    assert_eq!(again["compile_s"]["cached"], false, "{again}");
    assert_eq!(saved(&scratch.join("first")), saved(&scratch.join("again")));
    (scratch, cache)
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
    let (scratch, cache) = compiled_again_after(|cache| {
        for object in files(cache, "o") {
            std::fs::write(&object, b"not an object file").unwrap();
        }
    });
    let repaired = run(&cache, &scratch.join("repaired"), &[]);
    assert_eq!(repaired["compile_s"]["cached"], true, "{repaired}");
    let _ = std::fs::remove_dir_all(scratch);
}

#[test]
fn a_truncated_entry_is_compiled_again() {
    // Cut every cached file of objects short (each holds one object per
    // part the code was generated in, after its length): a truncated one.
    let (scratch, _) = compiled_again_after(|cache| {
        for object in files(cache, "o") {
            let bytes = std::fs::read(&object).unwrap();
            std::fs::write(&object, &bytes[..bytes.len() / 2]).unwrap();
        }
    });
    let _ = std::fs::remove_dir_all(scratch);
}

#[test]
fn the_cache_directory_is_created_private() {
    let scratch = common::tempdir();
    let cache = scratch.join("cache");
    run(&cache, &scratch.join("first"), &[]);
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&cache), 0o700);
    for entry in files(&cache, "o").iter().chain(&files(&cache, "meta")) {
        assert_eq!(mode(entry), 0o600, "{}", entry.display());
    }
    let _ = std::fs::remove_dir_all(scratch);
}

#[test]
fn a_cache_directory_others_can_write_is_neither_read_nor_written() {
    let scratch = common::tempdir();
    let cache = scratch.join("cache");
    run(&cache, &scratch.join("first"), &[]);
    // Another user could have planted these entries: nothing in them runs.
    std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o777)).unwrap();
    let before: Vec<_> = files(&cache, "o");
    let (shared, warning) = run_payload(
        &cache,
        &common::root().join("tests/payloads/chain.mlir"),
        &scratch.join("shared"),
        &[],
    );
    assert_eq!(shared["compile_s"]["cached"], false, "{shared}");
    assert!(
        warning.contains("warning: not using the compile cache")
            && warning.contains("writable by its group or by others"),
        "{warning}"
    );
    assert_eq!(warning.matches("warning:").count(), 1, "{warning}");
    assert_eq!(files(&cache, "o"), before, "nothing was written into it");
    assert_eq!(
        saved(&scratch.join("first")),
        saved(&scratch.join("shared"))
    );
    let _ = std::fs::remove_dir_all(scratch);
}

#[test]
fn an_entry_owned_by_another_user_is_not_loaded() {
    if std::fs::metadata("/proc/self").unwrap().uid() != 0 {
        println!("skipped: only root can give a cache entry to another user here");
        return;
    }
    let nobody = 65534;
    let (scratch, cache) = compiled_again_after(|cache| {
        for entry in files(cache, "o").iter().chain(&files(cache, "meta")) {
            std::os::unix::fs::chown(entry, Some(nobody), Some(nobody)).unwrap();
        }
    });
    // Replaced by the user's own entries, which the next run loads.
    let third = run(&cache, &scratch.join("third"), &[]);
    assert_eq!(third["compile_s"]["cached"], true, "{third}");
    let _ = std::fs::remove_dir_all(scratch);
}

#[test]
fn a_flipped_bit_in_an_object_is_found_and_compiled_again() {
    let (scratch, _) = compiled_again_after(|cache| {
        for object in files(cache, "o") {
            let mut bytes = std::fs::read(&object).unwrap();
            let middle = bytes.len() / 2;
            bytes[middle] ^= 0x08;
            std::fs::write(&object, &bytes).unwrap();
        }
    });
    let _ = std::fs::remove_dir_all(scratch);
}

#[test]
fn another_payloads_objects_under_this_payloads_keys_are_not_loaded() {
    let scratch = common::tempdir();
    let cache = scratch.join("cache");
    let chain = common::root().join("tests/payloads/chain.mlir");
    // The same signature, another computation: out = max(scaled - b, 0).
    let other = scratch.join("chain_sub.mlir");
    let text = std::fs::read_to_string(&chain).unwrap();
    std::fs::write(
        &other,
        text.replace("arith.addf %s, %bv", "arith.subf %s, %bv"),
    )
    .unwrap();
    run_payload(&cache, &chain, &scratch.join("first"), &[]);
    let own = files(&cache, "o");
    run_payload(&cache, &other, &scratch.join("other"), &[]);
    let others: Vec<_> = files(&cache, "o")
        .into_iter()
        .filter(|o| !own.contains(o))
        .collect();
    assert_eq!((own.len(), others.len()), (2, 2));
    // Largest to largest: the scheduled code over the scheduled entry.
    let by_size = |mut paths: Vec<std::path::PathBuf>| {
        paths.sort_by_key(|p| std::fs::metadata(p).unwrap().len());
        paths
    };
    for (from, to) in by_size(others).iter().zip(by_size(own)) {
        std::fs::copy(from, to).unwrap();
    }
    let (again, _) = run_payload(&cache, &chain, &scratch.join("again"), &[]);
    assert_eq!(again["compile_s"]["cached"], false, "{again}");
    assert_eq!(saved(&scratch.join("first")), saved(&scratch.join("again")));
    let _ = std::fs::remove_dir_all(scratch);
}

#[test]
fn metadata_that_does_not_fit_the_payload_is_compiled_again() {
    let scratch = common::tempdir();
    let cache = scratch.join("cache");
    run(&cache, &scratch.join("first"), &[]);
    let metas = files(&cache, "meta");
    let original: Vec<String> = metas
        .iter()
        .map(|m| std::fs::read_to_string(m).unwrap())
        .collect();
    // A result computed in an argument that does not exist; a target no one
    // describes (the schedule offloads nothing).
    for (edit, name) in [
        (("results out", "results 9"), "results"),
        (
            ("parallel false", "parallel false\noffloaded nosuch f32"),
            "target",
        ),
    ] {
        for (meta, text) in metas.iter().zip(&original) {
            assert!(text.contains(edit.0), "{text}");
            std::fs::write(meta, text.replace(edit.0, edit.1)).unwrap();
            std::fs::set_permissions(meta, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        let again = run(&cache, &scratch.join(name), &[]);
        assert_eq!(again["compile_s"]["cached"], false, "{name}: {again}");
        assert_eq!(saved(&scratch.join("first")), saved(&scratch.join(name)));
    }
    let _ = std::fs::remove_dir_all(scratch);
}

#[test]
fn entries_that_are_not_regular_files_are_neither_waited_on_nor_read() {
    let (scratch, _) = compiled_again_after(|cache| {
        for meta in files(cache, "meta") {
            std::fs::remove_file(&meta).unwrap();
            let made = Command::new("mkfifo").arg(&meta).status().unwrap();
            assert!(made.success());
        }
    });
    let _ = std::fs::remove_dir_all(scratch);
    let (scratch, _) = compiled_again_after(|cache| {
        for object in files(cache, "o") {
            std::fs::remove_file(&object).unwrap();
            std::os::unix::fs::symlink("/dev/zero", &object).unwrap();
        }
    });
    let _ = std::fs::remove_dir_all(scratch);
}
