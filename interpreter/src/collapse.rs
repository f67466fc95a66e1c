//! `fuse` of two whole loops in the pipeline: after the inline phase, the
//! payload's collapse phase ([`payload::collapse`]) joins the dimensions of
//! each stage the resolver collapsed (its dimensions, loops and op
//! description already are the collapsed op's), and the stages are mapped
//! onto the rewritten payload's ops. The script is then planned, and
//! applies, on that payload (`--emit inlined` shows it).

use crate::failure::Failure;
use crate::inline::Inlined;
use payload::collapse::{collapse, CollapseError};
use payload::PayloadInfo;
use schedule_lang::model::{Model, Placement};
use schedule_lang::{render_all_diagnostics, Diagnostic, SourceFile};

/// Collapses the model's collapsed stages' ops in `module` (described by
/// `info`, the model's stages bound to its ops); `None` when no stage is
/// collapsed (the payload is untouched).
pub fn collapse_stages(
    context: &melior::Context,
    module: &mut melior::ir::Module,
    info: &PayloadInfo,
    model: &Model,
    schedule: &SourceFile,
) -> Result<Option<Inlined>, Failure> {
    let steps: Vec<(usize, Vec<usize>)> = model
        .funcs
        .iter()
        .flat_map(|f| &f.stages)
        .filter_map(|s| {
            let collapsed = s.collapsed.as_ref()?;
            Some((
                s.op,
                collapsed.steps.iter().map(|(outer, _)| *outer).collect(),
            ))
        })
        .collect();
    if steps.is_empty() {
        return Ok(None);
    }
    let result = collapse(context, module, &info.name, &steps).map_err(|error| match error {
        CollapseError::Payload(error) => Failure::Internal(error.to_string()),
        CollapseError::Refused { op, outer } => Failure::Input(render_all_diagnostics(
            &[refusal(model, op, outer)],
            schedule,
        )),
    })?;
    let mut model = model.clone();
    for func in &mut model.funcs {
        if matches!(func.placement, Placement::Inline { .. }) {
            continue;
        }
        for stage in &mut func.stages {
            let id = result.ids.get(stage.op).copied().flatten();
            let described = id.and_then(|id| result.info.ops.get(id));
            let Some(described) = described else {
                return Err(Failure::Internal(format!(
                    "internal error: the collapse phase lost the op of `{}`",
                    func.name
                )));
            };
            if let Some(collapsed) = &stage.collapsed {
                if described.extents != collapsed.op.extents {
                    return Err(Failure::Internal(format!(
                        "internal error: the collapse phase made `{}`'s op of extents {:?}, \
                         not {:?} as resolved",
                        func.name, described.extents, collapsed.op.extents
                    )));
                }
            }
            stage.op = described.id;
        }
    }
    Ok(Some(Inlined {
        model,
        info: result.info,
    }))
}

/// The located error for an op the phase could not collapse: after the
/// inline phase gave it other operands, the rule the resolver checked no
/// longer holds.
fn refusal(model: &Model, op: usize, outer: usize) -> Diagnostic {
    let found = model.funcs.iter().find_map(|f| {
        let stage = f.stages.iter().find(|s| s.op == op)?;
        let (_, span) = stage
            .collapsed
            .as_ref()?
            .steps
            .iter()
            .find(|(o, _)| *o == outer)?;
        Some((f.name.as_str(), *span))
    });
    let (func, span) = found.unwrap_or(("?", schedule_lang::Span::new(0, 0)));
    Diagnostic::error(
        "fuse-refused",
        span,
        format!(
            "`fuse` cannot make these loops one dimension of `{func}` once `compute_inline` \
             fused its producers into it: an operand they brought is not indexed by both \
             dimensions on neighbouring axes"
        ),
    )
    .with_help("fuse the loops after splitting them (they are then joined after tiling), or leave the producers computed at root")
}
