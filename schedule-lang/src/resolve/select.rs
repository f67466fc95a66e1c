//! Selectors matched against the payload's ops: by the name the payload
//! gives an op (`"name"`), or by kind, optionally scoped to a function and
//! indexed in payload order (`@forward:linalg.matmul[1]`). Each names
//! exactly one op; every other outcome is a located error saying what the
//! payload has.

use crate::ast::{Ident, Selector};
use crate::diagnostic::{did_you_mean, Diagnostic};
use crate::payload_info::{PayloadInfo, PayloadOp};
use crate::Span;

/// What a selector names, or why it names no single op.
type Selected<'a> = Result<&'a PayloadOp, Box<Diagnostic>>;

/// The one op of `payload` that `selector` names.
pub(super) fn select<'a>(payload: &'a PayloadInfo, selector: &Selector) -> Selected<'a> {
    match selector {
        Selector::Named { name, span } => select_named(payload, name, *span),
        Selector::Op {
            function,
            kind,
            index,
            span,
        } => {
            if let Some(function) = function {
                check_function(payload, function)?;
            }
            let candidates: Vec<&PayloadOp> = payload
                .ops
                .iter()
                .filter(|op| {
                    op.kind == kind.name && function.as_ref().is_none_or(|f| f.name == op.function)
                })
                .collect();
            if candidates.is_empty() {
                return Err(Box::new(no_op_of_kind(payload, kind)));
            }
            match index {
                Some((i, index_span)) => match candidates.get(*i as usize) {
                    Some(op) => Ok(op),
                    None => Err(Box::new(out_of_range(&candidates, kind, *i, *index_span))),
                },
                None if candidates.len() == 1 => Ok(candidates[0]),
                None => Err(Box::new(ambiguous_kind(&candidates, kind, *span))),
            }
        }
    }
}

/// The op whose `sched.name` is `name`.
fn select_named<'a>(payload: &'a PayloadInfo, name: &str, span: Span) -> Selected<'a> {
    let matches: Vec<&PayloadOp> = payload
        .ops
        .iter()
        .filter(|op| op.name.as_deref() == Some(name))
        .collect();
    match matches.as_slice() {
        [op] => Ok(op),
        [] => {
            let names = payload.ops.iter().filter_map(|op| op.name.as_deref());
            let error = Diagnostic::error(
                "no-match",
                span,
                format!("no op in `{}` is named \"{name}\"", payload.name),
            )
            .with_label("matches nothing");
            Err(Box::new(match did_you_mean(name, names) {
                Some(close) => error.with_help(format!("did you mean \"{close}\"?")),
                None => error.with_help(
                    "name an op by giving it a `sched.name = \"...\"` attribute in the payload",
                ),
            }))
        }
        _ => Err(Box::new(
            Diagnostic::error(
                "ambiguous",
                span,
                format!("{} ops are named \"{name}\"", matches.len()),
            )
            .with_label("matches more than one op"),
        )),
    }
}

/// Whether the payload has the function a selector is scoped to.
fn check_function(payload: &PayloadInfo, function: &Ident) -> Result<(), Box<Diagnostic>> {
    if payload.functions.contains(&function.name) {
        return Ok(());
    }
    let mut error = Diagnostic::error(
        "unknown-function",
        function.span,
        format!("no function `@{}` in `{}`", function.name, payload.name),
    );
    let functions = payload.functions.iter().map(String::as_str);
    if let Some(close) = did_you_mean(&function.name, functions) {
        error = error.with_help(format!("did you mean `@{close}`?"));
    }
    Err(Box::new(error))
}

/// No op of the selector's kind: a close kind, the kinds the payload has,
/// or (none at all) how to lower a TOSA payload.
fn no_op_of_kind(payload: &PayloadInfo, kind: &Ident) -> Diagnostic {
    let mut kinds: Vec<&str> = payload.ops.iter().map(|op| op.kind.as_str()).collect();
    kinds.dedup();
    let error = Diagnostic::error(
        "no-match",
        kind.span,
        format!("no `{}` op in `{}`", kind.name, payload.name),
    )
    .with_label("matches nothing");
    match did_you_mean(&kind.name, kinds.iter().copied()) {
        Some(close) => error.with_help(format!("did you mean `{close}`?")),
        None if !kinds.is_empty() => {
            let mut unique = kinds.clone();
            unique.sort();
            unique.dedup();
            error.with_help(format!("the payload has: {}", unique.join(", ")))
        }
        None => error.with_help(
            "the payload has no linalg ops to schedule; a TOSA payload must be lowered to linalg \
             first: `mlir-opt --pass-pipeline=\"builtin.module(func.func(tosa-to-linalg-named,\
             tosa-to-linalg,tosa-to-arith,tosa-to-tensor))\"`",
        ),
    }
}

/// An index past the ops of the selector's kind.
fn out_of_range(candidates: &[&PayloadOp], kind: &Ident, i: u32, span: Span) -> Diagnostic {
    let (are, ops) = match candidates.len() {
        1 => ("is 1".to_string(), "op"),
        n => (format!("are {n}"), "ops"),
    };
    Diagnostic::error(
        "index-out-of-range",
        span,
        format!(
            "index {i} is out of range: there {are} `{}` {ops}",
            kind.name
        ),
    )
    .with_help(format!(
        "indices count from 0, in payload order: use 0 to {}",
        candidates.len() - 1
    ))
}

/// Several ops of the selector's kind and no index: where each one is, and
/// how to pick one.
fn ambiguous_kind(candidates: &[&PayloadOp], kind: &Ident, span: Span) -> Diagnostic {
    // Where each one is: `[0]` in @forward, `[1]` in @loss.
    let places: Vec<String> = candidates
        .iter()
        .enumerate()
        .map(|(i, op)| format!("`[{i}]` in @{}", op.function))
        .collect();
    let mut functions: Vec<&str> = candidates.iter().map(|op| op.function.as_str()).collect();
    functions.dedup();
    let mut help = format!(
        "add an index in payload order, from `{0}[0]` to `{0}[{1}]`",
        kind.name,
        candidates.len() - 1
    );
    if functions.len() > 1 {
        help.push_str(&format!(
            ", or pick by function, as in `@{}:{}`",
            functions[0], kind.name
        ));
    }
    Diagnostic::error(
        "ambiguous",
        span,
        format!(
            "`{}` matches {} ops: {}",
            kind.name,
            candidates.len(),
            places.join(", ")
        ),
    )
    .with_label("which one?")
    .with_help(help)
}
