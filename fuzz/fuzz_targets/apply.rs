//! The whole apply path on small payloads: the first byte picks a payload
//! from `tests/payloads`, the rest is the `.sched` file. Parsing, resolution,
//! planning and MLIR's transform interpreter run as `sched-apply` runs them;
//! the answer must be a transformed payload or a rendered failure, never a
//! panic, an abort or a hang. An internal failure (our bug, exit 2) is a crash
//! too.

#![no_main]

#[path = "driver.rs"]
mod driver;
#[path = "payloads.rs"]
mod payloads;

use interpreter::pipeline::{run, Stop};
use interpreter::Failure;
use libfuzzer_sys::fuzz_target;
use payloads::payloads;
use schedule_lang::SourceFile;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let payloads = payloads();
    let chosen = &payloads[pick as usize % payloads.len()];
    let (name, text) = (&chosen.name, &chosen.text);
    let source = SourceFile::new("fuzz.sched", String::from_utf8_lossy(rest).as_ref());
    if let Err(Failure::Internal(message)) = run(
        &source,
        name,
        text,
        Stop::Apply,
        &microkernels::builtin_targets(),
    ) {
        panic!("internal failure on {name}:\n{}\n{message}", source.text);
    }
});
