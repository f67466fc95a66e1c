//! The language, without MLIR in the loop: any bytes as a `.sched` file are
//! parsed, formatted, resolved against the test payloads (described once, at
//! start-up) and, when they resolve, planned into a script. Nothing may panic;
//! formatting must parse back to the same items.

#![no_main]

#[path = "driver.rs"]
mod driver;

use libfuzzer_sys::fuzz_target;
use schedule_lang::{PayloadInfo, SourceFile};
use std::sync::OnceLock;

/// The payloads under `tests/payloads`, described once.
fn payloads() -> &'static [PayloadInfo] {
    static PAYLOADS: OnceLock<Vec<PayloadInfo>> = OnceLock::new();
    PAYLOADS.get_or_init(|| {
        let directory = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/payloads");
        let mut infos = Vec::new();
        let mut paths: Vec<_> = std::fs::read_dir(directory)
            .expect("tests/payloads")
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).expect("a payload");
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let context = payload::new_context();
            let module = payload::parse_module(&context, &name, &text).expect("a valid payload");
            infos.push(payload::describe(&context, &module, &name).expect("describable"));
        }
        infos
    })
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let source = SourceFile::new("fuzz.sched", text.as_ref());
    let (file, errors) = schedule_lang::parse(&source.text);
    for error in &errors {
        let _ = error.render(&source);
    }
    if errors.is_empty() {
        let formatted = schedule_lang::format(&file);
        let (again, errors_again) = schedule_lang::parse(&formatted);
        assert!(
            errors_again.is_empty(),
            "formatted text does not parse:\n{formatted}"
        );
        assert_eq!(
            schedule_lang::format(&again),
            formatted,
            "formatting is not stable"
        );
    }
    for info in payloads() {
        match schedule_lang::resolve(&file, info) {
            Ok(model) => match interpreter::plan(&model, info, &source) {
                Ok(script) => {
                    let _ = script.render();
                }
                Err(diagnostics) => {
                    let _ = schedule_lang::render_all_diagnostics(&diagnostics, &source);
                }
            },
            Err(diagnostics) => {
                let _ = schedule_lang::render_all_diagnostics(&diagnostics, &source);
            }
        }
    }
});
