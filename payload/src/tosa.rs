//! The TOSA phase: a payload written in the TOSA dialect (as TOSA exporters
//! and `torch_mlir`'s `output_type="tosa"` write it) is lowered to linalg on
//! tensors when it is loaded, with upstream's conversions, before anything
//! describes, schedules or runs it. Schedules bind to the resulting ops
//! (`sched-apply ops` lists them); `--emit inlined` prints the lowered module.

use crate::diagnostics::capture_diagnostics;
use crate::ffi::OpView;
use crate::PayloadError;
use melior::ir::Module;
use melior::pass::PassManager;
use melior::Context;

/// Upstream's TOSA conversions, in the order `tosa-to-linalg-pipelines`
/// documents: named ops (matmul, convolutions, pooling) first, then the
/// elementwise ops, constants and shape ops; then the shape constants
/// (`tosa.const_shape`) the lowered reshapes no longer use are removed.
pub const TOSA_TO_LINALG: &str = "builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),remove-dead-values)";

/// Whether `module` holds any op of the TOSA dialect.
pub fn has_tosa(module: &Module) -> bool {
    fn walk(op: OpView<'_>) -> bool {
        op.children()
            .into_iter()
            .any(|child| child.name().starts_with("tosa.") || walk(child))
    }
    walk(OpView::of_module(module))
}

/// Lowers the TOSA ops of `module` to linalg, in place. Returns whether
/// there were any. A TOSA op upstream cannot lower is the payload's error,
/// reported with MLIR's diagnostics (which carry its location).
pub fn lower_tosa(
    context: &Context,
    module: &mut Module,
    payload_name: &str,
) -> Result<bool, PayloadError> {
    if !has_tosa(module) {
        return Ok(false);
    }
    let manager = PassManager::new(context);
    melior::utility::parse_pass_pipeline(manager.as_operation_pass_manager(), TOSA_TO_LINALG)
        .map_err(|e| PayloadError::internal(format!("the TOSA pipeline does not parse: {e}")))?;
    let (lowered, messages) = capture_diagnostics(context, || manager.run(module));
    if lowered.is_err() {
        return Err(PayloadError::input(
            format!("{payload_name}: lowering its TOSA ops to linalg failed"),
            messages,
        ));
    }
    if has_tosa(module) {
        return Err(PayloadError::input(
            format!(
                "{payload_name}: some TOSA ops have no lowering to linalg (upstream's \
                 tosa-to-linalg left them; `mlir-opt --pass-pipeline='{TOSA_TO_LINALG}'` shows which)"
            ),
            messages,
        ));
    }
    Ok(true)
}
