//! Checks for `compute_inline`, made once every chain is applied: an inlined
//! func is elementwise (every dimension parallel, one result), is read as an
//! input by at least one op, has no schedule of its own, and no func is
//! computed at one of its loops. What fusion itself refuses is found later,
//! when the payload is rewritten.

use super::Resolver;
use crate::diagnostic::Diagnostic;
use crate::model::{Placement, Stage};
use crate::payload_info::{IteratorKind, PayloadOp};
use crate::span::Span;

impl Resolver<'_> {
    /// Checks every inlined func.
    pub(super) fn check_inlines(&mut self) {
        let mut errors = Vec::new();
        for (func, state) in self.funcs.values().enumerate() {
            let Placement::Inline { span } = state.model.placement else {
                continue;
            };
            let name = &state.model.name;
            let stage = &state.model.stages[0];
            let op = stage.op(self.payload);
            let error = inline_shape_error(name, stage, op, span)
                .or_else(|| self.inline_reader_error(name, op, span))
                .or_else(|| self.computed_inside_error(func, name, span));
            errors.extend(error);
        }
        self.errors.extend(errors);
    }

    /// Why the ops reading an inlined func cannot take it in: none reads
    /// it, one accumulates into it, or one reads it through a view other
    /// than a reshape.
    fn inline_reader_error(&self, name: &str, op: &PayloadOp, span: Span) -> Option<Diagnostic> {
        let readers: Vec<_> = self
            .payload
            .ops
            .iter()
            .filter(|other| other.operands.iter().any(|o| o.producer == Some(op.id)))
            .collect();
        if readers.is_empty() {
            return Some(
                Diagnostic::error(
                    "inline-unused",
                    span,
                    format!("no linalg op reads `{name}`, so there is nothing to inline it into"),
                )
                .with_help("remove `compute_inline()`"),
            );
        }
        let into_init = readers.iter().find(|r| {
            r.operands
                .iter()
                .any(|o| o.is_init && o.producer == Some(op.id))
        });
        if let Some(reader) = into_init {
            return Some(
                Diagnostic::error(
                    "inline-into-init",
                    span,
                    format!(
                        "{} accumulates into `{name}`'s result (its init operand), which \
                         inlining cannot replace",
                        self.op_label(reader)
                    ),
                )
                .with_help("compute it at root, or at a loop of that op (`compute_at`)"),
            );
        }
        // Reshapes are moved above the func by the inline phase; other
        // views (slices, pads, casts) would need it computed per view.
        let is_reshape =
            |view: &String| view == "tensor.expand_shape" || view == "tensor.collapse_shape";
        let (reader, operand) = readers.iter().find_map(|r| {
            r.operands
                .iter()
                .find(|o| o.producer == Some(op.id) && !o.via.iter().all(is_reshape))
                .map(|o| (r, o))
        })?;
        Some(
            Diagnostic::error(
                "inline-through-view",
                span,
                format!(
                    "{} reads `{name}` through `{}`; inlining replaces direct reads and reads \
                     through reshapes only",
                    self.op_label(reader),
                    operand.via.join("` of `")
                ),
            )
            .with_help(
                "compute it at a loop of that op (`compute_at`), which follows slices, \
                 pads and reshapes",
            ),
        )
    }

    /// A func computed at a loop of the inlined `func`, which has none.
    fn computed_inside_error(&self, func: usize, name: &str, span: Span) -> Option<Diagnostic> {
        self.funcs
            .values()
            .find_map(|other| match other.model.placement {
                Placement::At {
                    consumer, span: at, ..
                } if consumer == func => Some(
                    Diagnostic::error(
                        "inline-has-no-loops",
                        at,
                        format!(
                        "`{}` is computed at a loop of `{name}`, but `{name}` is inlined and has \
                         no loops",
                        other.model.name
                    ),
                    )
                    .with_note(Some(span), format!("`{name}` is inlined here")),
                ),
                _ => None,
            })
    }

    /// The func bound to `op` (`` `fc1` ``), or the op and its location.
    fn op_label(&self, op: &PayloadOp) -> String {
        self.funcs
            .values()
            .find(|state| state.model.stages.iter().any(|s| s.op == op.id))
            .map_or_else(
                || format!("`{}` at {}", op.kind, op.location),
                |state| format!("`{}`", state.model.name),
            )
    }
}

/// Where a stage was scheduled beyond its binding (a split, a reorder, a
/// mark, a pack, a prefetch, an offload), if it was.
fn own_schedule(stage: &Stage) -> Option<Span> {
    let marks = stage.loops.iter().find_map(|l| {
        l.vectorize
            .or(l.unroll)
            .or(l.parallel)
            .or(l.rfactor)
            .or(l.pipeline.map(|(span, _)| span))
            .or(l.fused.as_ref().map(|f| f.span))
    });
    let split = (stage.loops.len() != stage.dims.len())
        .then(|| stage.loops.iter().map(|l| l.span).max_by_key(|s| s.start))
        .flatten();
    stage
        .order_span
        .or(marks)
        .or(split)
        .or(stage.packs.first().map(|p| p.span))
        .or(stage.prefetches.first().map(|p| p.span))
        .or(stage.accelerate.as_ref().map(|a| a.span))
}

/// Why an inlined func is not elementwise with one result and no schedule
/// of its own.
fn inline_shape_error(name: &str, stage: &Stage, op: &PayloadOp, span: Span) -> Option<Diagnostic> {
    if let Some(directive) = own_schedule(stage) {
        return Some(
            Diagnostic::error(
                "inline-scheduled",
                span,
                format!("`{name}` is inlined, so it has no loops of its own to schedule"),
            )
            .with_note(Some(directive), "scheduled here")
            .with_help(format!(
                "remove the directives on `{name}`'s loops, or compute it at root or at a loop \
                 instead"
            )),
        );
    }
    let reductions: Vec<&str> = op
        .iterators
        .iter()
        .zip(&stage.dims)
        .filter(|(kind, _)| **kind == IteratorKind::Reduction)
        .map(|(_, dim)| dim.name.as_str())
        .collect();
    if !reductions.is_empty() {
        return Some(
            Diagnostic::error(
                "inline-reduction",
                span,
                format!(
                    "`{name}` reduces over `{}`; only an elementwise func (every dimension \
                     parallel) can be inlined",
                    reductions.join("`, `")
                ),
            )
            .with_help("compute it at root, or at a loop of its consumer (`compute_at`)"),
        );
    }
    (op.operands.iter().filter(|o| o.is_init).count() != 1).then(|| {
        Diagnostic::error(
            "inline-results",
            span,
            format!("`{name}` has several results; only an op with one result can be inlined"),
        )
    })
}
