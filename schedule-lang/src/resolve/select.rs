//! Selectors matched against the payload's ops: by the name the payload
//! gives an op (`"name"`), or by kind, optionally scoped to a function,
//! narrowed by `where` conditions and indexed in payload order
//! (`@forward:linalg.matmul[1]`). A single selector names exactly one op;
//! `[*]` names every op of its kind with the definition's dimensions that
//! the conditions keep ([`every`]). Every other outcome is a located error
//! saying what the payload has.

use crate::ast::{Comparison, Definition, Filter, FilterValue, Ident, Selector};
use crate::diagnostic::{did_you_mean, Diagnostic};
use crate::payload_info::{IteratorKind, PayloadInfo, PayloadOp};
use crate::Span;

/// What a selector names, or why it names no single op.
type Selected<'a> = Result<&'a PayloadOp, Box<Diagnostic>>;

/// The properties a `where` condition may name besides dimensions.
const PROPERTIES: [&str; 5] = ["stride", "dilation", "type", "body", "reader"];

/// The one op of `payload` that `definition`'s selector and conditions name.
pub(super) fn select<'a>(payload: &'a PayloadInfo, definition: &Definition) -> Selected<'a> {
    match &definition.selector {
        Selector::Named { name, span } => {
            if let Some(filter) = definition.filters.first() {
                return Err(Box::new(
                    Diagnostic::error(
                        "where-on-name",
                        filter.span,
                        "`where` narrows the ops a kind matches; a `\"name\"` names one op \
                         already",
                    )
                    .with_help("select by kind, as in `linalg.generic[*] (...) where ...`"),
                ));
            }
            select_named(payload, name, *span)
        }
        Selector::Op {
            kind, index, span, ..
        } => {
            let candidates = of_kind(payload, &definition.selector)?;
            let candidates = kept(payload, &candidates, definition, kind)?;
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

/// Every op a `[*]` definition binds: the ops of its kind (in its function)
/// with as many parallel and reduction dimensions as it names, that its
/// conditions keep. An error when none is left, saying why.
pub(super) fn every<'a>(
    payload: &'a PayloadInfo,
    definition: &Definition,
) -> Result<Vec<&'a PayloadOp>, Box<Diagnostic>> {
    let Selector::Op { kind, span, .. } = &definition.selector else {
        unreachable!("only kind selectors take [*]");
    };
    let all = of_kind(payload, &definition.selector)?;
    let (parallel, reduction) = (definition.dims.len(), definition.reduction_dims.len());
    let shaped: Vec<&PayloadOp> = all
        .iter()
        .copied()
        .filter(|op| op.dimension_counts() == (parallel, reduction))
        .collect();
    if shaped.is_empty() {
        let mut shapes: Vec<String> = all
            .iter()
            .map(|op| {
                let (p, r) = op.dimension_counts();
                format!("{p} parallel and {r} reduction dimensions")
            })
            .collect();
        shapes.sort();
        shapes.dedup();
        return Err(Box::new(
            Diagnostic::error(
                "no-match",
                *span,
                format!(
                    "no `{}` has {parallel} parallel and {reduction} reduction dimensions, as \
                     named here",
                    kind.name
                ),
            )
            .with_label("matches nothing")
            .with_help(format!(
                "the payload's `{}` ops have {}",
                kind.name,
                shapes.join("; ")
            )),
        ));
    }
    kept(payload, &shaped, definition, kind)
}

/// The ops of a kind selector's kind (in its function, if scoped); an error
/// when there are none.
fn of_kind<'a>(
    payload: &'a PayloadInfo,
    selector: &Selector,
) -> Result<Vec<&'a PayloadOp>, Box<Diagnostic>> {
    let Selector::Op { function, kind, .. } = selector else {
        unreachable!("called for kind selectors");
    };
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
    Ok(candidates)
}

/// The candidates every condition keeps; an error at the condition that
/// left none (with the values the candidates have), or at one that names
/// neither a dimension nor a property.
fn kept<'a>(
    payload: &PayloadInfo,
    candidates: &[&'a PayloadOp],
    definition: &Definition,
    kind: &Ident,
) -> Result<Vec<&'a PayloadOp>, Box<Diagnostic>> {
    let mut kept = candidates.to_vec();
    for filter in &definition.filters {
        let mut left = Vec::new();
        for &op in &kept {
            if holds(payload, op, definition, filter)? {
                left.push(op);
            }
        }
        if left.is_empty() {
            let values: Vec<String> = kept
                .iter()
                .map(|op| value_of(payload, op, definition, filter))
                .collect();
            return Err(Box::new(none_kept(&values, filter, kind)));
        }
        kept = left;
    }
    Ok(kept)
}

/// Whether `op` satisfies the condition.
fn holds(
    payload: &PayloadInfo,
    op: &PayloadOp,
    definition: &Definition,
    filter: &Filter,
) -> Result<bool, Box<Diagnostic>> {
    let subject = filter.subject.name.as_str();
    let comparison = filter.comparison;
    match (subject, &filter.value) {
        ("stride" | "dilation", FilterValue::Int(value, _)) => {
            let values = if subject == "stride" {
                op.strides()
            } else {
                op.dilations()
            };
            Ok(!values.is_empty() && values.iter().all(|v| comparison.holds(*v, *value)))
        }
        ("type", FilterValue::Name(name)) if equality(comparison) => {
            Ok(comparison.holds(op.element(), Some(name.name.as_str())))
        }
        ("body", FilterValue::Name(name)) if equality(comparison) => {
            let has = op.body_words().contains(&name.name);
            Ok(has == (comparison == Comparison::Eq))
        }
        ("reader", FilterValue::Name(name)) if equality(comparison) => {
            let kinds = payload.reader_kinds(op);
            // `none`: no op reads it (a result of the function).
            let has = match name.name.as_str() {
                "none" => kinds.is_empty(),
                kind => kinds.contains(&kind),
            };
            Ok(has == (comparison == Comparison::Eq))
        }
        _ => match dimension(op, definition, subject) {
            Some(dim) => match &filter.value {
                FilterValue::Int(value, _) => {
                    Ok(op.extents[dim].is_some_and(|e| comparison.holds(e, *value)))
                }
                FilterValue::Name(_) => Err(Box::new(misused(filter, definition))),
            },
            None => Err(Box::new(misused(filter, definition))),
        },
    }
}

/// `==` or `!=`: the comparisons a name takes.
fn equality(comparison: Comparison) -> bool {
    matches!(comparison, Comparison::Eq | Comparison::Ne)
}

/// The op's dimension (in linalg order) a definition's name stands for.
fn dimension(op: &PayloadOp, definition: &Definition, name: &str) -> Option<usize> {
    let parallel: Vec<usize> = (0..op.iterators.len())
        .filter(|&d| op.iterators[d] == IteratorKind::Parallel)
        .collect();
    let reduction: Vec<usize> = (0..op.iterators.len())
        .filter(|&d| op.iterators[d] == IteratorKind::Reduction)
        .collect();
    let at = |names: &[Ident], dims: &[usize]| {
        names
            .iter()
            .position(|n| n.name == name)
            .and_then(|p| dims.get(p).copied())
    };
    at(&definition.dims, &parallel).or_else(|| at(&definition.reduction_dims, &reduction))
}

/// What `op` has of the condition's subject, as the error lists it.
fn value_of(
    payload: &PayloadInfo,
    op: &PayloadOp,
    definition: &Definition,
    filter: &Filter,
) -> String {
    let list = |values: Vec<i64>| match values.as_slice() {
        [] => "none".to_string(),
        [first, rest @ ..] if rest.iter().all(|v| v == first) => first.to_string(),
        _ => format!("{values:?}"),
    };
    match filter.subject.name.as_str() {
        "stride" => list(op.strides()),
        "dilation" => list(op.dilations()),
        "type" => op.element().unwrap_or("none").to_string(),
        "body" => op.body_words().join(" "),
        "reader" => match payload.reader_kinds(op).join(" and ") {
            readers if readers.is_empty() => "none".to_string(),
            readers => readers,
        },
        name => match dimension(op, definition, name).and_then(|d| op.extents[d]) {
            Some(extent) => extent.to_string(),
            None => "dynamic".to_string(),
        },
    }
}

/// No candidate satisfies `filter`: what they have instead.
fn none_kept(values: &[String], filter: &Filter, kind: &Ident) -> Diagnostic {
    let mut distinct = values.to_vec();
    distinct.sort();
    distinct.dedup();
    let what = match filter.subject.name.as_str() {
        "stride" => "strides",
        "dilation" => "dilations",
        "type" => "element types",
        "body" => "bodies",
        "reader" => "readers",
        _ => "extents",
    };
    Diagnostic::error(
        "no-match",
        filter.span,
        format!("no `{}` left satisfies this condition", kind.name),
    )
    .with_label("matches nothing")
    .with_help(if what == "readers" {
        format!(
            "the ops there are read by: {} (an op's readers' kinds joined by `and`)",
            distinct.join(", ")
        )
    } else {
        format!(
            "the {what} of `{}` there: {}",
            filter.subject.name,
            distinct.join(", ")
        )
    })
}

/// A condition whose subject is neither a dimension nor a property, or
/// whose value does not suit it.
fn misused(filter: &Filter, definition: &Definition) -> Diagnostic {
    let subject = filter.subject.name.as_str();
    let names: Vec<&str> = definition
        .dims
        .iter()
        .chain(&definition.reduction_dims)
        .map(|d| d.name.as_str())
        .collect();
    if PROPERTIES.contains(&subject) || names.contains(&subject) {
        let wants = match subject {
            "type" => "`==` or `!=` and an element type, as in `type == f32`",
            "body" => "`==` or `!=` and a word, as in `body == max`",
            "reader" => {
                "`==` or `!=` and an op kind, as in `reader == conv_2d_nchw_fchw`, or `none`"
            }
            "stride" | "dilation" => "a number, as in `stride == 2`",
            _ => "a number: it compares the dimension's extent",
        };
        return Diagnostic::error(
            "where-value",
            filter.span,
            format!("`{subject}` takes {wants}"),
        );
    }
    let known = names.iter().copied().chain(PROPERTIES);
    let mut error = Diagnostic::error(
        "where-subject",
        filter.subject.span,
        format!(
            "`{subject}` is neither a dimension named here ({}) nor a property ({})",
            names.join(", "),
            PROPERTIES.join(", ")
        ),
    );
    if let Some(close) = did_you_mean(subject, known) {
        error = error.with_help(format!("did you mean `{close}`?"));
    }
    error
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
