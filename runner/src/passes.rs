//! Running MLIR pass pipelines on a payload module and appending the
//! functions a lowering phase generates as text: the two steps every phase
//! of lowering (`lowering`, `offload`, `prefetch`, `stage_times`) and the
//! static profile share.

use melior::pass::PassManager;
use payload::diagnostics::capture_diagnostics;
use payload::PayloadError;

/// Parses `text` (functions a lowering phase generated: `what`) and appends
/// its ops to `module`'s body; a parse failure is ours.
pub(crate) fn append_generated(
    context: &melior::Context,
    module: &mut melior::ir::Module,
    text: &str,
    what: &str,
) -> Result<(), PayloadError> {
    use melior::ir::block::BlockLike;
    use melior::ir::operation::OperationLike;
    let parsed = melior::ir::Module::parse(context, text)
        .ok_or_else(|| PayloadError::internal(format!("the {what} do not parse:\n{text}")))?;
    let mut next = parsed.body().first_operation();
    while let Some(op) = next {
        module.body().append_operation((*op).clone());
        next = op.next_in_block();
    }
    Ok(())
}

/// Runs a textual pass pipeline on `module`; a failure is ours (the payload verified).
pub fn run_passes(
    context: &melior::Context,
    module: &mut melior::ir::Module,
    pipeline: &str,
    payload_name: &str,
) -> Result<(), PayloadError> {
    let manager = PassManager::new(context);
    melior::utility::parse_pass_pipeline(manager.as_operation_pass_manager(), pipeline).map_err(
        |e| PayloadError::internal(format!("the lowering pipeline does not parse: {e}")),
    )?;
    let (lowered, messages) = capture_diagnostics(context, || manager.run(module));
    if lowered.is_err() {
        return Err(PayloadError::internal_with(
            format!("{payload_name}: lowering to LLVM failed"),
            messages,
        ));
    }
    Ok(())
}
