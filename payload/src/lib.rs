//! # payload: loading, describing and transforming MLIR payloads
//!
//! Creates MLIR contexts with every upstream dialect and pass registered, parses
//! payload `.mlir` text (TOSA lowered to linalg as it loads) while capturing
//! MLIR's diagnostics, describes a module's structured ops as a [`PayloadInfo`]
//! for the schedule language and its entry function's tensor [`signature`],
//! and applies transform scripts ([`transform`]) and the inline phase
//! ([`inline`]). It never lowers or runs code: the `runner` crate does.
//! All direct C API calls live in [`ffi`].

#![deny(missing_docs)]
#![deny(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::todo,
    clippy::dbg_macro
)]

pub mod attributes;
pub mod collapse;
pub mod describe;
pub mod diagnostics;
pub mod error;
pub mod ffi;
pub mod inline;
pub mod isolate;
pub mod loops;
pub mod prefetch_lines;
pub mod signature;
pub mod tosa;
pub mod transform;
pub mod types;

pub use describe::describe;
pub use diagnostics::{capture_diagnostics, MlirMessage};
pub use error::{ErrorKind, PayloadError};
pub use melior;
pub use schedule_lang::PayloadInfo;

use melior::dialect::DialectRegistry;
use melior::ir::operation::OperationLike;
use melior::ir::Module;
use melior::Context;
use std::sync::Once;

/// A context with all upstream dialects registered (each is loaded when
/// first used: loading all of them eagerly is a cost every context pays),
/// only the transform extensions sched-apply uses ([`ffi::register_dialects`]),
/// and all passes registered.
pub fn new_context() -> Context {
    static PASSES: Once = Once::new();
    PASSES.call_once(|| {
        melior::utility::register_all_passes();
        ffi::print_ops_briefly_in_diagnostics();
    });
    let registry = DialectRegistry::new();
    ffi::register_dialects(&registry);
    Context::new_with_registry(&registry, false)
}

/// The first bytes of an MLIR bytecode file.
pub const BYTECODE_MAGIC: &[u8] = b"ML\xefR";

/// The text of an MLIR bytecode payload (`.mlirbc`, as `mlir-opt
/// --emit-bytecode` and exporters write it), which the rest of sched-apply
/// reads like any payload. `name` is used in messages.
pub fn bytecode_to_text(name: &str, bytes: &[u8]) -> Result<String, PayloadError> {
    let context = new_context();
    let (module, messages) =
        capture_diagnostics(&context, || ffi::parse_bytecode(&context, bytes, name));
    match module {
        Some(module) => Ok(ffi::print_module(&module)),
        None => Err(PayloadError::input(
            format!("{name}: cannot read the MLIR bytecode"),
            messages,
        )),
    }
}

/// Parses payload text; `name` is used in messages. A TOSA payload is
/// lowered to linalg as it loads ([`tosa`]), results of generics nothing
/// reads are dropped ([`ffi::drop_unread_results`]), and so are the unit
/// dimensions their outputs keep ([`ffi::drop_kept_dims`]).
pub fn parse_module<'c>(
    context: &'c Context,
    name: &str,
    text: &str,
) -> Result<Module<'c>, PayloadError> {
    if let Some(nul) = text.find('\0') {
        // MLIR's parser takes a C string, which cannot hold one.
        let line = text[..nul].matches('\n').count() + 1;
        let column = text[..nul]
            .rsplit('\n')
            .next()
            .unwrap_or("")
            .chars()
            .count()
            + 1;
        return Err(PayloadError::input(
            format!("{name}: cannot parse the payload"),
            vec![MlirMessage {
                severity: "error",
                location: format!("loc({name:?}:{line}:{column})"),
                message: "a NUL byte: MLIR text cannot contain one".to_string(),
                notes: Vec::new(),
            }],
        ));
    }
    let (module, messages) = capture_diagnostics(context, || Module::parse(context, text));
    match module {
        Some(module) => {
            let (valid, messages) = capture_diagnostics(context, || module.as_operation().verify());
            if valid {
                let mut module = module;
                tosa::lower_tosa(context, &mut module, name)?;
                ffi::drop_unread_results(&mut module);
                ffi::drop_kept_dims(&mut module);
                Ok(module)
            } else {
                Err(PayloadError::input(
                    format!("{name}: the payload does not verify"),
                    messages,
                ))
            }
        }
        None => Err(PayloadError::input(
            format!("{name}: cannot parse the payload"),
            messages,
        )),
    }
}

/// An op location as MLIR prints it (`loc("p.mlir":5:10)`) as a user reads
/// it (`p.mlir:5:10`). The parser names the payload's own buffer `-`, which
/// is shown as `payload_name`.
pub fn plain_location(location: &str, payload_name: &str) -> String {
    let plain = location
        .trim_start_matches("loc(")
        .trim_end_matches(')')
        .replace('"', "");
    match plain.strip_prefix("-:") {
        Some(line_column) => format!("{payload_name}:{line_column}"),
        None => plain,
    }
}
