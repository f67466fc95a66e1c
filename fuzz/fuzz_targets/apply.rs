//! The whole apply path on small payloads: the first byte picks a payload
//! from `tests/payloads`, the rest is the `.sched` file. Parsing, resolution,
//! planning and MLIR's transform interpreter run as `sched-apply` runs them;
//! the answer must be a transformed payload or a rendered failure, never a
//! panic, an abort or a hang. An internal failure (our bug, exit 2) is a crash
//! too.

#![no_main]

#[path = "driver.rs"]
mod driver;

use interpreter::pipeline::{run, Failure, Stop};
use libfuzzer_sys::fuzz_target;
use schedule_lang::SourceFile;
use std::sync::OnceLock;

/// `(name, text)` of each payload under `tests/payloads`.
fn payloads() -> &'static [(String, String)] {
    static PAYLOADS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    PAYLOADS.get_or_init(|| {
        let directory = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/payloads");
        let mut paths: Vec<_> = std::fs::read_dir(directory)
            .expect("tests/payloads")
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        paths.sort();
        paths
            .into_iter()
            .map(|path| {
                let name = path.file_name().unwrap().to_string_lossy().to_string();
                (name, std::fs::read_to_string(&path).expect("a payload"))
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let payloads = payloads();
    let (name, text) = &payloads[pick as usize % payloads.len()];
    let source = SourceFile::new("fuzz.sched", String::from_utf8_lossy(rest).as_ref());
    if let Err(Failure::Internal(message)) = run(&source, name, text, Stop::Apply) {
        panic!("internal failure on {name}:\n{}\n{message}", source.text);
    }
});
