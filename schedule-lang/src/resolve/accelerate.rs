//! `accelerate(target[, loop][, edges])`: its optional arguments, a loop of
//! the stage and an edge policy, told apart.

use super::loops::{loop_names, stage_label};
use crate::ast::Ident;
use crate::diagnostic::{did_you_mean, Diagnostic};
use crate::model::{Edges, Stage};
use crate::span::Span;

/// The loop and the edge policy (with its span) `accelerate` was given.
type AccelerateArguments<'i> = (Option<&'i Ident>, Option<(Edges, Span)>);

/// The optional arguments of `accelerate(target[, loop][, edges])`: a loop
/// of the stage, then an edge policy (`partial`, `pad`, `split`); a name
/// that is both is the loop.
pub(super) fn accelerate_arguments<'i>(
    stage: &Stage,
    func_name: &str,
    rest: &[&'i Ident],
) -> Result<AccelerateArguments<'i>, Box<Diagnostic>> {
    let is_loop = |ident: &Ident| stage.loops.iter().any(|l| l.visible_name() == ident.name);
    let policy = |ident: &Ident| Edges::from_name(&ident.name).map(|edges| (edges, ident.span));
    let unknown = |ident: &Ident, what: &str| {
        let loops = stage.loops.iter().map(|l| l.visible_name());
        let candidates: Vec<&str> = loops.chain(Edges::NAMES.iter().copied()).collect();
        let usage = format!(
            "write `accelerate(target[, loop][, edges])`: a loop of {} ({}), then `partial`, `pad` or `split`",
            stage_label(stage, func_name),
            loop_names(stage)
        );
        let help = match did_you_mean(&ident.name, candidates) {
            Some(close) => format!("did you mean `{close}`? ({usage})"),
            None => usage,
        };
        let error = Diagnostic::error(
            "accelerate-argument",
            ident.span,
            format!("`{}` is not {what}", ident.name),
        )
        .with_help(help);
        Box::new(error)
    };
    match rest {
        [] => Ok((None, None)),
        [one] if is_loop(one) => Ok((Some(one), None)),
        [one] => policy(one)
            .map(|p| (None, Some(p)))
            .ok_or_else(|| unknown(one, "a loop or an edge policy")),
        [first, second] => {
            if !is_loop(first) {
                return Err(unknown(first, "a loop"));
            }
            let edges = policy(second).ok_or_else(|| unknown(second, "an edge policy"))?;
            Ok((Some(first), Some(edges)))
        }
        _ => unreachable!("accelerate takes at most three arguments (checked)"),
    }
}
