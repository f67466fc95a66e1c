//! `reuse_at(input, loop)`: which input the reuse buffer keeps, and at
//! which loop. Whether the accesses have reuse there is known once the loop
//! exists (the planner's transform op says why not, at this call).

use super::loops::{find_loop, stage_label};
use crate::ast::Ident;
use crate::diagnostic::Diagnostic;
use crate::model::ReuseAt;
use crate::model::Stage;
use crate::payload_info::PayloadOp;
use crate::span::Span;

/// Resolves `stage.reuse_at(input, target)`. `producers` are the payload
/// ops of the func `input` names, when it names one.
pub(super) fn reuse_buffer(
    stage: &mut Stage,
    func: &str,
    op: &PayloadOp,
    input: &Ident,
    producers: Option<&[usize]>,
    target: &Ident,
    span: Span,
) -> Result<(), Box<Diagnostic>> {
    let inputs: Vec<usize> = (0..op.operands.len())
        .filter(|&k| !op.operands[k].is_init && !op.operands[k].map.is_empty())
        .collect();
    let listed = inputs
        .iter()
        .map(|k| format!("`in{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let position = input
        .name
        .strip_prefix("in")
        .and_then(|k| k.parse::<usize>().ok())
        .filter(|k| input.name == format!("in{k}"));
    let chosen = match (position, producers) {
        (Some(k), _) if inputs.contains(&k) => k,
        (Some(k), _) => {
            return Err(Box::new(
                Diagnostic::error(
                    "unknown-operand",
                    input.span,
                    format!("{} has no tensor input `in{k}`", stage_label(stage, func)),
                )
                .with_help(format!(
                    "inputs are named in payload order (`ins(...)` of `{}`): {listed}",
                    op.kind
                )),
            ))
        }
        (None, Some(ops)) => {
            let read = inputs
                .iter()
                .find(|&&k| op.operands[k].producer.is_some_and(|p| ops.contains(&p)));
            match read {
                Some(&k) => k,
                None => {
                    return Err(Box::new(
                        Diagnostic::error(
                            "reuse-not-read",
                            input.span,
                            format!(
                                "{} does not read `{}`",
                                stage_label(stage, func),
                                input.name
                            ),
                        )
                        .with_help(format!(
                            "name the func it reads, or an input by its position: {listed}"
                        )),
                    ))
                }
            }
        }
        (None, None) => {
            return Err(Box::new(
                Diagnostic::error(
                    "unknown-operand",
                    input.span,
                    format!(
                        "`{}` is neither an input of {} nor a func",
                        input.name,
                        stage_label(stage, func)
                    ),
                )
                .with_help(format!(
                    "name an input by its position in the op's `ins(...)` ({listed}), or the func \
                     that produces it"
                )),
            ))
        }
    };
    find_loop(stage, func, target)?;
    if let Some(previous) = stage
        .reuse_buffers
        .iter()
        .find(|r| r.input == chosen && r.loop_name == target.name)
    {
        return Err(Box::new(
            Diagnostic::error(
                "duplicate-reuse-at",
                span,
                format!(
                    "`{}` already has a reuse buffer at `{}`",
                    input.name, target.name
                ),
            )
            .with_note(Some(previous.span), "buffered here"),
        ));
    }
    stage.reuse_buffers.push(ReuseAt {
        input: chosen,
        input_name: input.name.clone(),
        loop_name: target.name.clone(),
        loop_span: target.span,
        span,
        computing: None,
    });
    Ok(())
}
