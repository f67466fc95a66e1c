//! The only `unsafe` of this crate: a safe wrapper over
//! `mlirTransformApplyNamedSequence`, which melior 0.27 does not wrap.

use melior::ir::operation::OperationRef;
use mlir_sys::{
    mlirTransformApplyNamedSequence, mlirTransformOptionsCreate, mlirTransformOptionsDestroy,
    mlirTransformOptionsEnableExpensiveChecks, MlirTransformOptions,
};

/// Owned transform-interpreter options.
struct TransformOptions(MlirTransformOptions);

impl TransformOptions {
    fn new(expensive_checks: bool) -> Self {
        // SAFETY: creating options has no preconditions; the handle is destroyed in Drop.
        let raw = unsafe { mlirTransformOptionsCreate() };
        // SAFETY: `raw` was just created and is valid.
        unsafe { mlirTransformOptionsEnableExpensiveChecks(raw, expensive_checks) };
        Self(raw)
    }
}

impl Drop for TransformOptions {
    fn drop(&mut self) {
        // SAFETY: created by `mlirTransformOptionsCreate` and destroyed exactly once.
        unsafe { mlirTransformOptionsDestroy(self.0) }
    }
}

/// Runs the named sequence `entry` of `transform_module` on `payload`.
/// `expensive_checks` makes the interpreter verify every handle use (slower,
/// catches use-after-invalidation). Returns whether it succeeded; diagnostics
/// go to the context's handlers.
pub fn apply_named_sequence(payload: OperationRef, entry: OperationRef, transform_module: OperationRef, expensive_checks: bool) -> bool {
    let options = TransformOptions::new(expensive_checks);
    // SAFETY: all three operations are alive for the duration of the call (borrowed),
    // belong to the same context, and `entry` is nested in `transform_module`
    // (checked by the caller); the options outlive the call.
    let result = unsafe { mlirTransformApplyNamedSequence(payload.to_raw(), entry.to_raw(), transform_module.to_raw(), options.0) };
    result.value != 0
}
