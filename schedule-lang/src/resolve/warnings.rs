//! The warnings resolution gives for directives that do nothing: a
//! `reorder` into the order the loops have, a mark on a loop of one
//! iteration, a split factor equal to the loop's iteration count.

use super::loops::{info_name, loop_names, stage_label};
use crate::ast::Ident;
use crate::diagnostic::Diagnostic;
use crate::directives::DirectiveKind;
use crate::model::{Loop, Stage};
use crate::span::Span;

/// A `reorder` that left the loops as they were.
pub(super) fn reorder_no_op(stage: &Stage, func: &str, span: Span) -> Diagnostic {
    Diagnostic::warning(
        "reorder-no-op",
        span,
        "this `reorder` changes nothing: the loops are already in this order",
    )
    .with_help(format!(
        "{}'s loops, outermost first: {}",
        stage_label(stage, func),
        loop_names(stage)
    ))
}

/// `vectorize(l, f)` or `unroll(l, f)` where `l` has exactly `f` iterations.
pub(super) fn factor_is_extent(
    kind: DirectiveKind,
    target: &Ident,
    factor: i64,
    span: Span,
) -> Diagnostic {
    Diagnostic::warning(
        "factor-is-extent",
        span,
        format!(
            "`{}` has exactly {factor} iterations, so splitting it by {factor} leaves an outer \
             loop of one iteration",
            target.name
        ),
    )
    .with_help(format!(
        "`{}({})` says the same",
        info_name(kind),
        target.name
    ))
}

/// A `vectorize`, `unroll` or `parallel` whose loop has one iteration.
pub(super) fn one_iteration(kind: DirectiveKind, target: &Ident, span: Span) -> Diagnostic {
    let verb = info_name(kind);
    let (what, fix) = match kind {
        DirectiveKind::Parallel => ("leaves one task", "parallelize"),
        _ => ("changes nothing", verb),
    };
    Diagnostic::warning(
        "one-iteration",
        span,
        format!(
            "`{}` has one iteration here, so `{verb}` {what}",
            target.name
        ),
    )
    .with_help(format!(
        "{fix} a loop with more iterations, or remove this directive"
    ))
}

/// The parallel loops of `stage` that run inside another parallel loop of
/// it, with that outer loop: OpenMP (as lowering runs it) gives a parallel
/// loop nested in another one thread, so its iterations run in turn.
/// Adjacent parallel loops over different dimensions become one
/// multi-dimensional `scf.forall` and do not nest; a loop of the same
/// dimension, a sequential loop between, or `rfactor`'s forall ends that run.
pub(super) fn nested_parallel_loops(stage: &Stage, outside: Option<&Loop>) -> Vec<(Loop, Loop)> {
    let mut nested = Vec::new();
    // The outermost parallel loop so far (the consumer's, when given).
    let mut first: Option<&Loop> = outside;
    // The dimensions of the open run of adjacent parallel loops (one forall).
    let mut run: Option<Vec<usize>> = None;
    for l in &stage.loops {
        if l.parallel.is_none() {
            run = None;
            continue;
        }
        match (&mut run, first) {
            (Some(dims), _) if !dims.contains(&l.dim) => dims.push(l.dim),
            (_, Some(outer)) => {
                nested.push((l.clone(), outer.clone()));
                run = None;
            }
            (_, None) => {
                first = Some(l);
                run = Some(vec![l.dim]);
            }
        }
        if l.rfactor.is_some() {
            // rfactor's forall is a loop of its own: nothing joins it.
            run = None;
        }
    }
    nested
}

/// The warning for a parallel loop nested in another.
pub(super) fn nested_parallel(inner: &Loop, outer: &Loop, outer_func: Option<&str>) -> Diagnostic {
    let span = inner.parallel.expect("a parallel loop");
    let whose = outer_func.map_or(String::new(), |f| format!(" of `{f}`"));
    Diagnostic::warning(
        "nested-parallel",
        span,
        format!(
            "`{}` runs inside parallel loop `{}`{whose}: OpenMP gives a parallel loop nested in \
             another one thread, so `parallel` here changes nothing",
            inner.name, outer.name
        ),
    )
    .with_note(outer.parallel, format!("`{}` is parallel here", outer.name))
    .with_help("mark only the outer loop, or make the two adjacent loops over different dimensions (one multi-dimensional forall)")
}
