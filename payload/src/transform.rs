//! Applies a rendered transform script to a payload module in-process, with
//! `mlirTransformApplyNamedSequence`, capturing every diagnostic MLIR emits.

use crate::diagnostics::{capture_diagnostics, MlirMessage};
use crate::ffi;
use melior::ir::block::BlockLike;
use melior::ir::operation::OperationLike;
use melior::ir::Module;
use melior::Context;

/// Why applying a script failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApplyError {
    /// The script itself did not parse or lacks `@__transform_main`: our bug.
    BadScript(Vec<MlirMessage>, String),
    /// The transform interpreter reported failure (messages point at the `.sched` file where they can).
    Failed(Vec<MlirMessage>),
    /// The transformed payload does not verify.
    Invalid(Vec<MlirMessage>),
}

/// The MLIR dialect plugin that registers sched-apply's own transform ops
/// (`transform.sched.*`) in upstream tools: `mlir-opt
/// --load-dialect-plugin=PATH --transform-interpreter` runs the scripts
/// sched-apply generates (built from `shim/plugin.cpp` by `build.rs`).
pub const TRANSFORM_PLUGIN: &str = env!("SCHED_TRANSFORM_PLUGIN");

/// The file name MLIR gives the script's own lines, for ops without a
/// location of their own (cleanups): `--emit transform` prints that text.
pub const SCRIPT_SOURCE_NAME: &str = "(transform script)";

/// The entry point every generated script defines.
pub const ENTRY: &str = "__transform_main";

/// Applies `script` (a transform module as text) to `payload`. On success,
/// the payload has been transformed in place and verified.
pub fn apply_script(
    context: &Context,
    payload: &mut Module,
    script: &str,
) -> Result<Vec<MlirMessage>, ApplyError> {
    let (transform_module, messages) = capture_diagnostics(context, || {
        ffi::parse_module_named(context, script, SCRIPT_SOURCE_NAME)
    });
    let Some(transform_module) = transform_module else {
        return Err(ApplyError::BadScript(
            messages,
            "the generated transform script does not parse".into(),
        ));
    };
    let mut entry = None;
    let mut cursor = transform_module.body().first_operation();
    while let Some(op) = cursor {
        let is_entry = op.name().as_string_ref().as_str().ok() == Some("transform.named_sequence")
            && op.attribute("sym_name").ok().map(|a| a.to_string()) == Some(format!("\"{ENTRY}\""));
        if is_entry {
            entry = Some(op);
            break;
        }
        cursor = op.next_in_block();
    }
    let Some(entry) = entry else {
        return Err(ApplyError::BadScript(
            Vec::new(),
            format!("the transform script has no `@{ENTRY}`"),
        ));
    };
    let (succeeded, messages) = capture_diagnostics(context, || {
        ffi::apply_named_sequence(
            payload.as_operation(),
            entry,
            transform_module.as_operation(),
            false,
        )
    });
    if !succeeded || messages.iter().any(|m| m.severity == "error") {
        return Err(ApplyError::Failed(messages));
    }
    let (valid, verify_messages) = capture_diagnostics(context, || payload.as_operation().verify());
    if !valid {
        return Err(ApplyError::Invalid(verify_messages));
    }
    Ok(messages)
}
