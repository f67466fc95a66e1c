//! The language, without MLIR in the loop: any bytes as a `.sched` file are
//! parsed, formatted, resolved against the test payloads (described once, at
//! start-up) and, when they resolve, planned into a script. Nothing may panic;
//! formatting must parse back to the same items.

#![no_main]

#[path = "driver.rs"]
mod driver;
#[path = "payloads.rs"]
mod payloads;

use libfuzzer_sys::fuzz_target;
use payloads::payloads;
use schedule_lang::SourceFile;

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
    for info in payloads().iter().map(|p| &p.info) {
        match schedule_lang::resolve(&file, info) {
            Ok(model) => {
                match interpreter::plan(&model, info, &source, &microkernels::builtin_targets()) {
                    Ok(script) => {
                        let _ = script.render();
                    }
                    Err(diagnostics) => {
                        let _ = schedule_lang::render_all_diagnostics(&diagnostics, &source);
                    }
                }
            }
            Err(diagnostics) => {
                let _ = schedule_lang::render_all_diagnostics(&diagnostics, &source);
            }
        }
    }
});
