//! The warnings resolution gives for directives that do nothing: a
//! `reorder` into the order the loops have, a mark on a loop of one
//! iteration, a split factor equal to the loop's iteration count.

use super::*;

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
