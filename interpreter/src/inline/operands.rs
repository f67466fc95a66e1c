//! The directives about one input (`pack`, `prefetch`, `reuse_at`) after
//! the inline phase. They name inputs as the payload had them; fusion
//! splices each inlined producer's inputs into its reader in place of the
//! producer's result, so positions after it move, and the producer's own
//! input takes the place of its result. This maps each directive onto the
//! fused op's inputs, and finds `pack`'s innermost axis again in the map the
//! fused op reads that input through.

use crate::failure::Failure;
use payload::PayloadInfo;
use schedule_lang::model::{Model, Placement};
use schedule_lang::{render_all_diagnostics, Diagnostic, SourceFile, Span};
use std::ops::Range;

/// Where each input of a reader went: the fused op's inputs that replace
/// it, and the inlined func whose result it was, if it was one.
struct Spliced {
    inputs: Range<usize>,
    inlined: Option<usize>,
}

/// Maps the operand directives of `model`'s stages (still bound to the ops
/// of `before`) from the inputs of those ops onto the inputs of the ops of
/// `after` that replace them (`ids[op]`; an op without one is left to the
/// caller, which rebinds the stages). Errors are located at the directive
/// that can no longer be applied.
pub(super) fn map_operand_directives(
    model: &mut Model,
    before: &PayloadInfo,
    ids: &[Option<usize>],
    after: &PayloadInfo,
    schedule: &SourceFile,
) -> Result<(), Failure> {
    let inlined: Vec<(usize, usize)> = model
        .funcs
        .iter()
        .enumerate()
        .filter(|(_, f)| matches!(f.placement, Placement::Inline { .. }))
        .map(|(index, f)| (f.stages[0].op, index))
        .collect();
    let names: Vec<String> = model.funcs.iter().map(|f| f.name.clone()).collect();
    let mut errors = Vec::new();
    for func in &mut model.funcs {
        for stage in &mut func.stages {
            if stage.packs.is_empty()
                && stage.prefetches.is_empty()
                && stage.reuse_buffers.is_empty()
            {
                continue;
            }
            let Some(fused) = ids
                .get(stage.op)
                .copied()
                .flatten()
                .map(|id| &after.ops[id])
            else {
                continue;
            };
            let spliced = splice(before, &inlined, stage.op);
            let fused_inputs = fused.operands.iter().filter(|o| !o.is_init).count();
            let expected = input_count(&spliced);
            if expected != fused_inputs {
                return Err(Failure::Internal(format!(
                    "internal error: after inlining, `{}` has {fused_inputs} inputs, not the \
                     {expected} fusion splices in, so its pack, prefetch and reuse_at cannot be placed",
                    func.name
                )));
            }
            let moved = |input: usize, span: Span, what: &str| -> Result<usize, Box<Diagnostic>> {
                let Some(s) = spliced.get(input) else {
                    return Ok(input);
                };
                match s.inlined {
                    Some(producer) if s.inputs.len() != 1 => Err(Box::new(Diagnostic::error(
                        "inline-operand",
                        span,
                        format!(
                            "`in{input}` of `{}` is `{}`'s result, which is inlined: `{}` now reads \
                             `{}`'s {} inputs instead, so there is no one tensor to {what}",
                            func.name,
                            names[producer],
                            func.name,
                            names[producer],
                            s.inputs.len()
                        ),
                    )
                    .with_help(format!(
                        "compute `{}` at root (or at a loop) to {what} its result",
                        names[producer]
                    )))),
                    _ => Ok(s.inputs.start),
                }
            };
            for pack in &mut stage.packs {
                match moved(pack.operand, pack.span, "pack") {
                    Ok(input) => pack.operand = input,
                    Err(error) => {
                        errors.push(*error);
                        continue;
                    }
                }
                if let Some(innermost) = &mut pack.innermost {
                    match fused.operands[pack.operand].axes_indexed_by(innermost.dim)[..] {
                        [axis] => innermost.axis = axis,
                        _ => errors.push(Diagnostic::error(
                            "pack-innermost-unindexed",
                            innermost.span,
                            format!(
                                "after inlining, `{}` reads the input it packs without an axis \
                                 indexed by `{}` alone, so no axis of the copy can hold it innermost",
                                func.name, stage.dims[innermost.dim].name
                            ),
                        )
                        .with_help("pack it without a dimension, or do not inline its producer")),
                    }
                }
            }
            for prefetch in &mut stage.prefetches {
                match moved(prefetch.operand, prefetch.span, "prefetch") {
                    Ok(input) => prefetch.operand = input,
                    Err(error) => errors.push(*error),
                }
            }
            for reuse in &mut stage.reuse_buffers {
                match moved(reuse.input, reuse.span, "keep in a reuse buffer") {
                    Ok(input) => reuse.input = input,
                    Err(error) => errors.push(*error),
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Failure::Input(render_all_diagnostics(&errors, schedule)))
    }
}

/// Where each input of op `op` (of `before`) goes once the inlined funcs
/// (`(op, func)` pairs) are fused into it.
fn splice(before: &PayloadInfo, inlined: &[(usize, usize)], op: usize) -> Vec<Spliced> {
    let mut next = 0;
    before.ops[op]
        .operands
        .iter()
        .filter(|o| !o.is_init)
        .map(|operand| {
            let producer = operand
                .producer
                .and_then(|p| inlined.iter().find(|(inlined_op, _)| *inlined_op == p));
            let count = match producer {
                Some(&(p, _)) => input_count(&splice(before, inlined, p)),
                None => 1,
            };
            next += count;
            Spliced {
                inputs: next - count..next,
                inlined: producer.map(|&(_, func)| func),
            }
        })
        .collect()
}

/// How many inputs an op has once spliced.
fn input_count(spliced: &[Spliced]) -> usize {
    spliced.last().map_or(0, |s| s.inputs.end)
}
