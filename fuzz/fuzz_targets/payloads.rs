//! The payloads every fuzz target runs against: each file under
//! `tests/payloads`, in byte order of its name (as `scripts/fuzz.sh` seeds),
//! with its text and its description, read once.

// Each target reads the fields it needs.
#![allow(dead_code)]

use schedule_lang::PayloadInfo;
use std::sync::OnceLock;

/// One test payload.
pub struct TestPayload {
    /// Its file name.
    pub name: String,
    /// Its text.
    pub text: String,
    /// Its linalg ops, as the resolver and planner see them.
    pub info: PayloadInfo,
}

/// All test payloads.
pub fn payloads() -> &'static [TestPayload] {
    static PAYLOADS: OnceLock<Vec<TestPayload>> = OnceLock::new();
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
                let text = std::fs::read_to_string(&path).expect("a payload");
                let context = payload::new_context();
                let module = payload::parse_module(&context, &name, &text).expect("valid");
                let info = payload::describe(&context, &module, &name).expect("describable");
                TestPayload { name, text, info }
            })
            .collect()
    })
}
