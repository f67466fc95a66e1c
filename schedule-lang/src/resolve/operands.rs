//! `pack(inK, loop[, dim])` and `prefetch(inK, loop)`: directives about one
//! input operand of a stage at one of its loops. The operand is named by its
//! position among the op's inputs; `pack`'s optional dimension is the one
//! the packed copy stores innermost.

use super::loops::stage_label;
use super::plural;
use crate::ast::Ident;
use crate::diagnostic::Diagnostic;
use crate::directives::DirectiveKind;
use crate::model::OperandAtLoop;
use crate::model::{Innermost, Stage};
use crate::payload_info::{OperandInfo, PayloadOp};
use crate::span::Span;

/// Resolves `pack` or `prefetch` (`kind`) of `stage` with its name
/// arguments (`names`: the operand, the loop, and for `pack` perhaps a
/// dimension), and records it on the stage.
pub(super) fn operand_at_loop(
    op: &PayloadOp,
    stage: &mut Stage,
    func_name: &str,
    kind: DirectiveKind,
    names: &[&Ident],
    span: Span,
) -> Result<(), Box<Diagnostic>> {
    let k = input_position(op, stage, func_name, names[0])?;
    let input = &op.operands[k];
    if kind == DirectiveKind::Pack && input.map.is_empty() {
        let tensors: Vec<String> = op
            .operands
            .iter()
            .enumerate()
            .filter(|(_, o)| !o.is_init && !o.map.is_empty())
            .map(|(i, _)| format!("`in{i}`"))
            .collect();
        return Err(Box::new(
            Diagnostic::error(
                "pack-scalar",
                names[0].span,
                format!(
                    "`in{k}` of {} is a scalar ({}): only a tensor operand can be packed",
                    stage_label(stage, func_name),
                    input.element
                ),
            )
            .with_help(if tensors.is_empty() {
                format!("`{}` has no tensor input to pack", op.kind)
            } else {
                format!("pack an input that is a tensor: {}", tensors.join(", "))
            }),
        ));
    }
    let innermost = match names.get(2) {
        Some(dim) => Some(innermost_axis(stage, func_name, input, k, dim)?),
        None => None,
    };
    let (list, code, done) = match kind {
        DirectiveKind::Pack => (&mut stage.packs, "duplicate-pack", "packed"),
        _ => (&mut stage.prefetches, "duplicate-prefetch", "prefetched"),
    };
    if let Some(previous) = list.iter().find(|p| p.operand == k) {
        return Err(Box::new(
            Diagnostic::error(code, span, format!("`in{k}` is already {done}"))
                .with_note(Some(previous.span), format!("{done} here")),
        ));
    }
    list.push(OperandAtLoop {
        operand: k,
        written: k,
        loop_name: names[1].name.clone(),
        loop_span: names[1].span,
        innermost,
        span,
    });
    Ok(())
}

/// The position of input `inK` among the op's inputs (a located error when
/// the name is not `in` and a number, or the op has no such input).
fn input_position(
    op: &PayloadOp,
    stage: &Stage,
    func_name: &str,
    operand: &Ident,
) -> Result<usize, Box<Diagnostic>> {
    let inputs = op.operands.iter().filter(|o| !o.is_init).count();
    let index = operand
        .name
        .strip_prefix("in")
        .and_then(|k| k.parse::<usize>().ok())
        .filter(|k| operand.name == format!("in{k}"));
    let listed = (0..inputs)
        .map(|k| format!("`in{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let error = match index {
        Some(k) if k < inputs => return Ok(k),
        Some(k) => Diagnostic::error(
            "unknown-operand",
            operand.span,
            format!(
                "{} has {}, so there is no `in{k}`",
                stage_label(stage, func_name),
                plural(inputs, "input")
            ),
        )
        .with_help(format!(
            "inputs are named in payload order (`ins(...)` of `{}`): {listed}",
            op.kind
        )),
        None => Diagnostic::error(
            "unknown-operand",
            operand.span,
            format!(
                "`{}` does not name an input of {}",
                operand.name,
                stage_label(stage, func_name)
            ),
        )
        .with_help(format!(
            "name an input by its position in the op's `ins(...)`: {listed}"
        )),
    };
    Err(Box::new(error))
}

/// The axis of input `k` (`input`) that `pack`'s dimension
/// argument names: a dimension of the stage, or a loop over one. The input
/// must be indexed by that dimension alone along exactly one axis.
fn innermost_axis(
    stage: &Stage,
    func_name: &str,
    input: &OperandInfo,
    k: usize,
    dim: &Ident,
) -> Result<Innermost, Box<Diagnostic>> {
    let named = stage
        .dims
        .iter()
        .position(|d| d.name == dim.name)
        .or_else(|| {
            stage
                .loops
                .iter()
                .find(|l| l.visible_name() == dim.name)
                .map(|l| l.dim)
        });
    let Some(d) = named else {
        let dims: Vec<String> = stage.dims.iter().map(|d| format!("`{}`", d.name)).collect();
        return Err(Box::new(
            Diagnostic::error(
                "unknown-dimension",
                dim.span,
                format!(
                    "`{}` is neither a dimension nor a loop of {}",
                    dim.name,
                    stage_label(stage, func_name)
                ),
            )
            .with_help(format!(
                "name the dimension the packed copy stores innermost: {}",
                dims.join(", ")
            )),
        ));
    };
    let axes = input.axes_indexed_by(d);
    match axes[..] {
        [axis] => Ok(Innermost {
            dim: d,
            axis,
            span: dim.span,
        }),
        _ => Err(Box::new(
            Diagnostic::error(
                "pack-innermost-unindexed",
                dim.span,
                format!(
                    "`in{k}` of {} is not indexed by `{}` alone along one axis, so no axis of \
                     its copy can hold it innermost",
                    stage_label(stage, func_name),
                    stage.dims[d].name
                ),
            )
            .with_help({
                let plain: Vec<String> = (0..stage.dims.len())
                    .filter(|&x| input.axes_indexed_by(x).len() == 1)
                    .map(|x| format!("`{}`", stage.dims[x].name))
                    .collect();
                if plain.is_empty() {
                    format!(
                        "`in{k}` has no axis indexed by one dimension alone: pack it without one"
                    )
                } else {
                    format!(
                        "its axes indexed by one dimension alone: {}",
                        plain.join(", ")
                    )
                }
            }),
        )),
    }
}
