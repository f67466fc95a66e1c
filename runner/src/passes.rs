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
/// The module is verified once, before the pipeline ([`verify_module`]), not
/// after each pass as MLIR's pass manager does by default: upstream's passes
/// keep the IR valid, and what could break it are our own rewrites between
/// pipelines. Verifying after every pass (and every function of a nested
/// pipeline) was a third of MobileNet-v2's lowering, 1.1 of 3.4 s.
pub fn run_passes(
    context: &melior::Context,
    module: &mut melior::ir::Module,
    pipeline: &str,
    payload_name: &str,
) -> Result<(), PayloadError> {
    let manager = PassManager::new(context);
    manager.enable_verifier(false);
    melior::utility::parse_pass_pipeline(manager.as_operation_pass_manager(), pipeline).map_err(
        |e| PayloadError::internal(format!("the lowering pipeline does not parse: {e}")),
    )?;
    verify_module(
        context,
        module,
        &format!("before `{pipeline}`"),
        payload_name,
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

/// Verifies `module` (`when`: where lowering is, for the message); invalid IR
/// there is ours, reported with MLIR's diagnostics rather than handed to a
/// pass or to LLVM, which may crash on it.
pub(crate) fn verify_module(
    context: &melior::Context,
    module: &melior::ir::Module,
    when: &str,
    payload_name: &str,
) -> Result<(), PayloadError> {
    use melior::ir::operation::OperationLike;
    let (valid, messages) = capture_diagnostics(context, || module.as_operation().verify());
    if !valid {
        return Err(PayloadError::internal_with(
            format!("{payload_name}: the module is not valid {when}"),
            messages,
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::attribute::{Attribute, TypeAttribute};
    use melior::ir::block::BlockLike;
    use melior::ir::operation::OperationMutLike;
    use melior::ir::r#type::FunctionType;

    /// A module one of our rewrites could have broken is refused before a
    /// pipeline runs on it, with MLIR's diagnostic, not handed to the passes.
    #[test]
    fn an_invalid_module_is_refused_before_a_pipeline() {
        let context = payload::new_context();
        let text = "func.func @f(%a: i32) -> i32 {\n  return %a : i32\n}";
        let mut module = melior::ir::Module::parse(&context, text).expect("parses");
        run_passes(
            &context,
            &mut module,
            "builtin.module(canonicalize)",
            "t.mlir",
        )
        .expect("a valid module lowers");
        let broken: Attribute =
            TypeAttribute::new(FunctionType::new(&context, &[], &[]).into()).into();
        module
            .body()
            .first_operation_mut()
            .expect("the function")
            .set_attribute("function_type", broken);
        let error = run_passes(
            &context,
            &mut module,
            "builtin.module(canonicalize)",
            "t.mlir",
        )
        .expect_err("an invalid module is refused");
        assert!(error.is_internal());
        let report = format!("{error}");
        assert!(
            report
                .contains("t.mlir: the module is not valid before `builtin.module(canonicalize)`"),
            "{report}"
        );
        assert!(!error.diagnostics.is_empty(), "{report}");
    }
}
