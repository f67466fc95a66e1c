//! Every kind of bad input gets a located, whole diagnostic, exit code 1, no
//! output file and never a panic, as a user of the binary sees it.
//!
//! One case is one file: `tests/diagnostics/PAYLOAD/NAME.sched` runs against
//! `tests/payloads/PAYLOAD.mlir`, and `tests/diagnostics/own/NAME.sched`
//! against its own `NAME.mlir` beside it. The whole report (standard error,
//! carets included) is an insta snapshot, `tests/snapshots/diagnostics__report@…`.
//! Adding a case is adding a file (and reviewing its new snapshot).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A case that takes longer than this is a hang.
const TIME_LIMIT: Duration = Duration::from_secs(60);

/// The payload a case runs against, relative to the repository root.
fn payload_of(case: &Path) -> PathBuf {
    let folder = case.parent().and_then(Path::file_name).unwrap();
    if folder == "own" {
        case.with_extension("mlir")
    } else {
        let name = format!("{}.mlir", folder.to_string_lossy());
        common::root().join("tests/payloads").join(name)
    }
}

/// Runs `sched-apply PAYLOAD CASE -o OUT` from the repository root, with a
/// time limit; returns the exit code and standard error.
fn run_case(case: &Path, out: &Path) -> (Option<i32>, String) {
    let root = common::root();
    let relative = |path: &Path| path.strip_prefix(&root).unwrap_or(path).to_path_buf();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sched-apply"))
        .arg(relative(&payload_of(case)))
        .arg(relative(case))
        .arg("-o")
        .arg(out)
        .current_dir(&root)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut text).unwrap();
        text
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            panic!("{} ran longer than {TIME_LIMIT:?}", case.display());
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stderr = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    (status.code(), stderr)
}

#[test]
fn report() {
    let directory = common::tempdir();
    insta::glob!("diagnostics/**/*.sched", |case| {
        let out = directory.join("out.mlir");
        let (code, stderr) = run_case(case, &out);
        let name = case.display();
        assert!(
            !stderr.contains("panicked"),
            "{name}: sched-apply panicked:\n{stderr}"
        );
        assert_eq!(code, Some(1), "{name}: exit code, with:\n{stderr}");
        assert!(
            !out.exists(),
            "{name}: an output file was written on failure"
        );
        assert!(
            stderr.contains(": error: "),
            "{name}: no located error:\n{stderr}"
        );
        insta::assert_snapshot!(stderr.trim_end());
    });
    let _ = std::fs::remove_dir_all(&directory);
}
