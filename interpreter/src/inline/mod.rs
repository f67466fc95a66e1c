//! `compute_inline` in the pipeline: the payload's inline phase
//! ([`payload::inline`]) fuses the inlined funcs' ops into their readers
//! before the script is planned, and the model's stages are mapped onto the
//! rewritten payload's ops. The script is then planned, and applies, on
//! that payload (`--emit inlined` shows it).

mod operands;

use crate::failure::Failure;
use payload::ffi::InlineRefusal;
use payload::inline::{inline, InlineError};
use payload::PayloadInfo;
use schedule_lang::model::{Model, Placement};
use schedule_lang::{render_all_diagnostics, Diagnostic, SourceFile, Span};

/// The model and payload description the planner works on after inlining.
pub struct Inlined {
    /// The model, its stages bound to the rewritten payload's ops.
    pub model: Model,
    /// The rewritten payload's structured ops.
    pub info: PayloadInfo,
}

/// Inlines the model's `compute_inline` funcs into `module` (described by
/// `info`); `None` when there are none (the payload is untouched).
pub fn inline_funcs(
    context: &melior::Context,
    module: &mut melior::ir::Module,
    info: &PayloadInfo,
    model: &Model,
    schedule: &SourceFile,
) -> Result<Option<Inlined>, Failure> {
    let payload_name = info.name.as_str();
    let inlined: Vec<(usize, Span, &str)> = model
        .funcs
        .iter()
        .filter_map(|f| match f.placement {
            Placement::Inline { span } => Some((f.stages[0].op, span, f.name.as_str())),
            _ => None,
        })
        .collect();
    if inlined.is_empty() {
        return Ok(None);
    }
    let producers: Vec<usize> = inlined.iter().map(|(op, _, _)| *op).collect();
    let result =
        inline(context, module, payload_name, &producers).map_err(|error| match error {
            InlineError::Payload(error) => Failure::Internal(error.to_string()),
            InlineError::Refused { producer, refusal } => {
                let (_, span, func) = inlined
                    .iter()
                    .find(|(op, _, _)| *op == producer)
                    .expect("every producer comes from an inlined func");
                let diagnostic = refusal_diagnostic(*span, func, &refusal, payload_name);
                Failure::Input(render_all_diagnostics(&[diagnostic], schedule))
            }
        })?;
    let mut model = model.clone();
    operands::map_operand_directives(&mut model, info, &result.ids, &result.info, schedule)?;
    for func in &mut model.funcs {
        if matches!(func.placement, Placement::Inline { .. }) {
            continue;
        }
        for stage in &mut func.stages {
            stage.op = result.ids.get(stage.op).copied().flatten().ok_or_else(|| {
                Failure::Internal(format!(
                    "internal error: the inline phase lost the op of `{}`",
                    func.name
                ))
            })?;
        }
    }
    Ok(Some(Inlined {
        model,
        info: result.info,
    }))
}

/// The located error for a fusion MLIR refused.
fn refusal_diagnostic(
    span: Span,
    func: &str,
    refusal: &InlineRefusal,
    payload_name: &str,
) -> Diagnostic {
    match refusal {
        InlineRefusal::Reader { kind, location } if kind.ends_with("_shape") => Diagnostic::error(
            "inline-refused",
            span,
            format!(
                "`{func}` cannot be inlined through the `{kind}` at {}: the reshape cannot move \
                 above it (the dimensions it regroups must stay together, in order and as plain \
                 dimensions, in every operand map of `{func}`)",
                payload::plain_location(location, payload_name)
            ),
        )
        .with_help(
            "compute it at root, or at a loop of its reader (`compute_at`, which follows a \
             reshape where a tile is a rectangle of the func)",
        ),
        InlineRefusal::Reader { kind, location } => Diagnostic::error(
            "inline-refused",
            span,
            format!(
                "MLIR's elementwise fusion cannot inline `{func}` into the `{kind}` at {}",
                payload::plain_location(location, payload_name)
            ),
        )
        .with_help(
            "fusion composes the reader's map of the operand with the inverse of the func's \
             (a permutation), and needs every loop bound of the fused op still computable from its \
             operands; compute the func at root or at a loop instead",
        ),
        InlineRefusal::Producer | InlineRefusal::NotFound => Diagnostic::error(
            "inline-refused",
            span,
            format!("`{func}` cannot be inlined: its op does not become a `linalg.generic` with one result"),
        ),
    }
}
