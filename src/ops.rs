//! `sched-apply ops PAYLOAD`: the payload's linalg ops as `func` lines ready
//! to paste into a `.sched` file: a selector that finds each op, a name for
//! it, and names for its iteration dimensions in linalg order (reductions
//! after `|`), with the extents, the op's location and its FLOPs in a
//! comment. `--json` gives the same as data.

use crate::files::read;
use crate::Exit;
use schedule_lang::{IteratorKind, PayloadInfo, SourceFile};
use serde::Serialize;
use std::path::Path;

/// One op as `ops` lists it.
#[derive(Serialize)]
struct OpLine {
    func: String,
    selector: String,
    kind: String,
    /// Dimension names, then whether each is a reduction, in linalg order.
    dims: Vec<String>,
    reduction: Vec<bool>,
    /// Static extents (`None`: dynamic).
    extents: Vec<Option<i64>>,
    flops: Option<u64>,
    /// The words of its body (`sub`, `cmp select`), what `where body == ...` matches.
    body: Vec<String>,
    /// Its windows' strides and dilations (empty for an op without windows).
    strides: Vec<i64>,
    dilations: Vec<i64>,
    /// Its input's padding, low and high amounts per input dimension, when
    /// a `tensor.pad` computes its first input.
    padding: Option<(Vec<i64>, Vec<i64>)>,
    /// The kinds of the ops reading its result (`conv_2d_nchw_fchw`), what
    /// `where reader == ...` matches.
    readers: Vec<String>,
    location: String,
    /// The `func` line to paste.
    line: String,
}

/// Runs `sched-apply ops`.
pub(crate) fn list(payload_path: &Path, json: bool) -> Result<(), Exit> {
    let name = payload_path.display().to_string();
    let text = read(payload_path)?;
    let source = SourceFile::new(name.clone(), text.clone());
    let context = payload::new_context();
    let module = payload::parse_module(&context, &name, &text)
        .map_err(|e| crate::run::payload_failure(e, &source))?;
    let info = payload::describe(&context, &module, &name)
        .map_err(|e| Exit::internal(format!("internal error: {e}")))?;
    let lines = op_lines(&info, &name);
    let out = if json {
        serde_json::to_string_pretty(&lines).expect("plain data serializes") + "\n"
    } else {
        let mut out = format!(
            "# The linalg ops of {name}, as `func` lines for a .sched file (rename freely).\n"
        );
        let mut function = None;
        for (op, line) in info.ops.iter().zip(&lines) {
            if function != Some(&op.function) {
                out.push_str(&format!("\n# @{}\n", op.function));
                function = Some(&op.function);
            }
            out.push_str(&line.line);
            out.push('\n');
        }
        out
    };
    crate::files::print_text(&out)
}

fn op_lines(info: &PayloadInfo, payload_name: &str) -> Vec<OpLine> {
    let several_functions = info.functions.len() > 1;
    let mut names = schedule_lang::naming::FuncNames::default();
    info.ops
        .iter()
        .map(|op| {
            let func = names.next(&op.kind);
            let index = info.index_in_function(op);
            let count = info.count_in_function(&op.function, &op.kind);
            let scope = if several_functions {
                format!("@{}:", op.function)
            } else {
                String::new()
            };
            let selector = if count > 1 {
                format!("{scope}{}[{index}]", op.kind)
            } else {
                format!("{scope}{}", op.kind)
            };
            let dims = schedule_lang::naming::dim_names(op);
            let reduction: Vec<bool> = op
                .iterators
                .iter()
                .map(|k| *k == IteratorKind::Reduction)
                .collect();
            let binding = schedule_lang::naming::binding(op, &dims);
            let extent = |e: &Option<i64>| e.map_or("?".to_string(), |e| e.to_string());
            let of = |reduced: bool| -> Vec<String> {
                op.extents
                    .iter()
                    .zip(&reduction)
                    .filter(|(_, r)| **r == reduced)
                    .map(|(e, _)| extent(e))
                    .collect()
            };
            let (parallel_extents, reduction_extents) = (of(false), of(true));
            let flops = op
                .extents
                .iter()
                .try_fold(op.flops_per_point, |p, e| e.map(|e| p * e as u64));
            let location = payload::plain_location(&op.location, payload_name);
            // A 0-d op has no loops: "scalar" in place of its (empty) extents.
            let mut comment = if op.extents.is_empty() {
                "scalar".to_string()
            } else {
                parallel_extents.join(" x ")
            };
            if !reduction_extents.is_empty() {
                comment.push_str(&format!(" | {}", reduction_extents.join(" x ")));
            }
            if let Some(flops) = flops.filter(|f| *f > 0) {
                comment.push_str(&format!(", {flops} FLOPs"));
            }
            comment.push_str(&shape_notes(info, op));
            comment.push_str(&format!(", {location}"));
            // The language binds ops whose reduction dimensions come last.
            let bindable = !reduction.windows(2).any(|pair| pair[0] && !pair[1]);
            let line = if bindable {
                format!("func {func} = {selector} ({binding})  # {comment}")
            } else {
                format!(
                    "# {selector}: a reduction dimension before a parallel one, which a binding \
                     cannot name yet  # {comment}"
                )
            };
            OpLine {
                func,
                selector,
                kind: op.kind.clone(),
                dims,
                reduction,
                extents: op.extents.clone(),
                flops,
                body: op.body_words(),
                strides: op.strides(),
                dilations: op.dilations(),
                padding: op.operands.first().and_then(|o| o.padding.clone()),
                readers: info
                    .reader_kinds(op)
                    .iter()
                    .map(|k| k.to_string())
                    .collect(),
                location,
                line,
            }
        })
        .collect()
}

/// What a `where` can select this op by, besides its extents: a generic's
/// body words (`, body: cmp select`) and the kinds of the ops reading it
/// (`, read by: conv_2d_nchw_fchw`), a windowed op's strides and dilations
/// (`, stride 2, dilation 1`), one value when all are alike, and its
/// input's padding (`, padding 1`).
fn shape_notes(info: &schedule_lang::PayloadInfo, op: &schedule_lang::PayloadOp) -> String {
    let mut notes = String::new();
    let list = |values: Vec<i64>| match values.as_slice() {
        [first, rest @ ..] if rest.iter().all(|v| v == first) => first.to_string(),
        _ => format!("{values:?}"),
    };
    let strides = op.strides();
    if !strides.is_empty() {
        notes.push_str(&format!(
            ", stride {}, dilation {}",
            list(strides),
            list(op.dilations())
        ));
        if let Some(padding) = op.operands.first().and_then(|o| o.padding.as_ref()) {
            notes.push_str(&format!(", padding {}", padding_text(padding)));
        }
    }
    if op.kind == "linalg.generic" {
        notes.push_str(&format!(", body: {}", op.body_words().join(" ")));
        let readers = info.reader_kinds(op);
        if !readers.is_empty() {
            notes.push_str(&format!(", read by: {}", readers.join(" and ")));
        }
    }
    notes
}

/// A pad's amounts as `ops` prints them: `1` when every padded dimension
/// gets 1 on both sides (`0` when none is padded), else both lists.
fn padding_text((low, high): &(Vec<i64>, Vec<i64>)) -> String {
    let padded: Vec<i64> = low
        .iter()
        .chain(high)
        .copied()
        .filter(|v| *v != 0)
        .collect();
    match padded.first() {
        None => "0".to_string(),
        Some(first) if low == high && padded.iter().all(|v| v == first) => first.to_string(),
        _ => format!("low {low:?} high {high:?}"),
    }
}
