//! Loop-nest edits (`split`, `reorder`, `fuse`) and the helpers that name
//! loops and dimensions in messages.

use crate::ast::Ident;
use crate::diagnostic::{did_you_mean, Diagnostic};
use crate::directives;
use crate::directives::DirectiveKind;
use crate::model::Stage;
use crate::model::{BufferAt, Fused, Loop};
use crate::payload_info::{IteratorKind, PayloadOp};
use crate::span::Span;
use std::ops::Range;

pub(super) fn info_name(kind: DirectiveKind) -> &'static str {
    directives::DIRECTIVES
        .iter()
        .find(|d| d.kind == kind)
        .map_or("mark", |d| d.name)
}

pub(super) fn dims_hint(op: &PayloadOp) -> String {
    let parallel: Vec<String> = op
        .iterators
        .iter()
        .enumerate()
        .filter(|(_, k)| **k == IteratorKind::Parallel)
        .map(|(i, _)| format!("d{i}"))
        .collect();
    let reduction: Vec<String> = op
        .iterators
        .iter()
        .enumerate()
        .filter(|(_, k)| **k == IteratorKind::Reduction)
        .map(|(i, _)| format!("d{i}"))
        .collect();
    if reduction.is_empty() {
        parallel.join(", ")
    } else {
        format!("{} | {}", parallel.join(", "), reduction.join(", "))
    }
}

pub(super) fn loop_names(stage: &Stage) -> String {
    stage
        .visible_loops()
        .into_iter()
        .map(|unit| format!("`{}`", stage.loops[unit.start].visible_name()))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn stage_label(stage: &Stage, func: &str) -> String {
    if stage.is_update {
        format!("`{func}.update()`")
    } else {
        format!("`{func}`")
    }
}

/// The loops `name` refers to: one loop, or the components of a fused loop.
pub(super) fn find_loop(
    stage: &Stage,
    func: &str,
    name: &Ident,
) -> Result<Range<usize>, Box<Diagnostic>> {
    if let Some(range) = stage.find_loop(&name.name) {
        return Ok(range);
    }
    let stage_name = stage_label(stage, func);
    let error = Diagnostic::error(
        "unknown-loop",
        name.span,
        format!("`{}` is not a loop of {stage_name}", name.name),
    )
    .with_label(format!("not a loop of {stage_name}"));
    Err(
        match did_you_mean(&name.name, stage.loops.iter().map(|l| l.visible_name())) {
            Some(close) => error.with_help(format!("did you mean `{close}`?")),
            None => error.with_help(format!("{stage_name} has loops: {}", loop_names(stage))),
        }
        .into(),
    )
}

#[allow(clippy::too_many_arguments)]
pub(super) fn split(
    stage: &mut Stage,
    func: &str,
    target: &Ident,
    outer: &str,
    outer_span: Span,
    inner: &str,
    inner_span: Span,
    factor: i64,
    span: Span,
) -> Result<(), Box<Diagnostic>> {
    let range = find_loop(stage, func, target)?;
    if range.len() > 1 {
        let parts: Vec<String> = stage.loops[range.clone()]
            .iter()
            .map(|l| format!("`{}`", l.name))
            .collect();
        let why = stage.loops[range.start]
            .fused
            .as_ref()
            .and_then(|f| f.kept_apart.clone());
        let help = match why {
            Some(why) => format!("`fuse` of two whole loops makes them one dimension of the op where it can, and here it cannot: {why}; split before `fuse`"),
            None => "loops are materialized by tiling, which cannot split a fused iteration space; split before `fuse`".to_string(),
        };
        return Err(Box::new(
            Diagnostic::error(
                "split-fused",
                target.span,
                format!(
                    "cannot split `{}`: it is a fused loop (of {})",
                    target.name,
                    parts.join(", ")
                ),
            )
            .with_help(help),
        ));
    }
    let index = range.start;
    if let Some(rfactor) = stage.loops[index].rfactor {
        return Err(rfactor_loop_error("split", target, rfactor, span));
    }
    if outer == inner {
        return Err(Box::new(Diagnostic::error(
            "duplicate-loop",
            inner_span,
            format!("the outer and inner loops of a split are both named `{inner}`"),
        )));
    }
    for (new, new_span) in [(outer, outer_span), (inner, inner_span)] {
        if new != target.name && stage.loops.iter().any(|l| l.visible_name() == new) {
            return Err(Box::new(
                Diagnostic::error(
                    "duplicate-loop",
                    new_span,
                    format!("a loop named `{new}` already exists"),
                )
                .with_help("give the new loop a fresh name"),
            ));
        }
    }
    let original = stage.loops[index].clone();
    // Tiles beyond 2^31 elements cover any payload tensor; a step past that
    // could only come from splitting outer loops again and again.
    let step = original
        .step
        .checked_mul(factor)
        .filter(|step| *step <= 1 << 31)
        .ok_or_else(|| {
            Box::new(
                Diagnostic::error(
                    "split-too-large",
                    span,
                    format!(
                        "splitting `{}` by {factor} makes tiles of more than 2^31 elements of `{}`",
                        target.name, stage.dims[original.dim].name
                    ),
                )
                .with_help("an outer loop whose tile covers the whole dimension has one iteration: split a smaller loop"),
            )
        })?;
    let outer_loop = Loop {
        name: outer.to_string(),
        step,
        span,
        ..original.clone()
    };
    let inner_loop = Loop {
        name: inner.to_string(),
        step: original.step,
        tile: Some(step),
        span,
        vectorize: None,
        unroll: None,
        parallel: None,
        rfactor: None,
        pipeline: None,
        ..original
    };
    stage.loops.splice(index..=index, [outer_loop, inner_loop]);
    Ok(())
}

/// Reorders the named loops (innermost first) among the slots they occupy; a
/// fused loop moves as a whole.
pub(super) fn reorder(
    stage: &mut Stage,
    func: &str,
    loops: &[&Ident],
) -> Result<(), Box<Diagnostic>> {
    let units = stage.visible_loops();
    let mut positions = Vec::new();
    for (i, name) in loops.iter().enumerate() {
        if let Some(first) = loops[..i].iter().find(|other| other.name == name.name) {
            return Err(Box::new(
                Diagnostic::error(
                    "duplicate-loop",
                    name.span,
                    format!("loop `{}` is named twice", name.name),
                )
                .with_note(Some(first.span), "first named here"),
            ));
        }
        let range = find_loop(stage, func, name)?;
        positions.push(
            units
                .iter()
                .position(|u| *u == range)
                .expect("a found loop is a visible loop"),
        );
    }
    let mut slots = positions.clone();
    slots.sort_unstable();
    // `loops` lists innermost first; slots are outermost first.
    let mut order: Vec<usize> = (0..units.len()).collect();
    for (slot, unit) in slots.into_iter().zip(positions.into_iter().rev()) {
        order[slot] = unit;
    }
    stage.loops = order
        .into_iter()
        .flat_map(|unit| stage.loops[units[unit].clone()].to_vec())
        .collect();
    Ok(())
}

/// `fuse(inner, outer, fused)`: joins `outer` and the loop directly inside it.
pub(super) fn fuse(
    stage: &mut Stage,
    func: &str,
    inner: &Ident,
    outer: &Ident,
    fused: &Ident,
    span: Span,
) -> Result<(), Box<Diagnostic>> {
    let inner_range = find_loop(stage, func, inner)?;
    let outer_range = find_loop(stage, func, outer)?;
    for (range, ident) in [(&inner_range, inner), (&outer_range, outer)] {
        if let Some(rfactor) = stage.loops[range.clone()].iter().find_map(|l| l.rfactor) {
            return Err(rfactor_loop_error("fuse", ident, rfactor, span));
        }
        if let Some((pipeline, _)) = stage.loops[range.clone()].iter().find_map(|l| l.pipeline) {
            return Err(Box::new(
                Diagnostic::error(
                    "pipeline-fused",
                    span,
                    format!("cannot fuse `{}`: it is pipelined", ident.name),
                )
                .with_note(Some(pipeline), "pipelined here")
                .with_help("`pipeline` marks one loop of the generated code, and `fuse` joins loops: pipeline a loop that is not fused"),
            ));
        }
    }
    if inner_range == outer_range {
        return Err(Box::new(Diagnostic::error(
            "duplicate-loop",
            outer.span,
            format!(
                "`fuse` needs two different loops, but both are `{}`",
                outer.name
            ),
        )));
    }
    if outer_range.end != inner_range.start {
        return Err(Box::new(Diagnostic::error("fuse-not-adjacent", span, format!("cannot fuse `{}` into `{}`: `{}` must be the loop directly outside `{}`", inner.name, outer.name, outer.name, inner.name))
            .with_help(format!("{} has loops {} (outermost first); `fuse(inner, outer, fused)` lists the inner loop first", stage_label(stage, func), loop_names(stage)))));
    }
    if fused.name != inner.name
        && fused.name != outer.name
        && stage.find_loop(&fused.name).is_some()
    {
        return Err(Box::new(
            Diagnostic::error(
                "duplicate-loop",
                fused.span,
                format!("a loop named `{}` already exists", fused.name),
            )
            .with_help("give the fused loop a fresh name"),
        ));
    }
    for the_loop in &mut stage.loops[outer_range.start..inner_range.end] {
        the_loop.fused = Some(Fused {
            name: fused.name.clone(),
            span,
            kept_apart: None,
        });
    }
    Ok(())
}

/// `rfactor(r, u)`: loop `r` (over a reduction dimension) becomes loop `u`
/// over partial reductions, whose iterations are independent.
pub(super) fn rfactor(
    stage: &mut Stage,
    func: &str,
    target: &Ident,
    renamed: &Ident,
    span: Span,
) -> Result<(), Box<Diagnostic>> {
    if let Some(previous) = stage.loops.iter().find_map(|l| l.rfactor) {
        return Err(Box::new(
            Diagnostic::error(
                "duplicate-rfactor",
                span,
                format!("{} already has an rfactor", stage_label(stage, func)),
            )
            .with_note(Some(previous), "rfactor here"),
        ));
    }
    let range = find_loop(stage, func, target)?;
    if range.len() > 1 {
        return Err(Box::new(Diagnostic::error(
            "rfactor-fused",
            target.span,
            format!(
                "`{}` is a fused loop; rfactor takes one loop of one reduction dimension",
                target.name
            ),
        )));
    }
    let the_loop = &mut stage.loops[range.start];
    let dim = &stage.dims[the_loop.dim];
    if !dim.reduction {
        return Err(Box::new(
            Diagnostic::error(
                "rfactor-parallel-loop",
                target.span,
                format!(
                    "`{}` iterates parallel dimension `{}`; rfactor splits a reduction",
                    target.name, dim.name
                ),
            )
            .with_help("name a loop over a reduction dimension (after `|` in the binding)"),
        ));
    }
    the_loop.name = renamed.name.clone();
    the_loop.rfactor = Some(span);
    Ok(())
}

/// A split or fuse of the loop `rfactor` made: its iterations are the
/// partial reductions, planned as one forall, so its tiles are fixed.
fn rfactor_loop_error(verb: &str, target: &Ident, rfactor: Span, span: Span) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::error(
            "rfactor-loop",
            span,
            format!(
                "cannot {verb} `{}`: it is the loop of partial reductions `rfactor` made",
                target.name
            ),
        )
        .with_note(Some(rfactor), "rfactor here")
        .with_help("split the reduction before `rfactor`, and mark `u` only `parallel` (without a task size)"),
    )
}

/// `pipeline(l[, ii])`: marks loop `l` (one loop, not fused) with the
/// initiation interval; returns the note that on a CPU it changes nothing.
pub(super) fn pipeline(
    stage: &mut Stage,
    func: &str,
    target: &Ident,
    interval: i64,
    span: Span,
) -> Result<Diagnostic, Box<Diagnostic>> {
    let range = find_loop(stage, func, target)?;
    if range.len() > 1 {
        return Err(Box::new(Diagnostic::error(
            "pipeline-fused",
            target.span,
            format!(
                "`{}` is a fused loop; `pipeline` marks one loop",
                target.name
            ),
        )));
    }
    let the_loop = &mut stage.loops[range.start];
    if let Some((previous, _)) = the_loop.pipeline {
        return Err(Box::new(
            Diagnostic::error(
                "duplicate-pipeline",
                span,
                format!("`{}` is already pipelined", target.name),
            )
            .with_note(Some(previous), "pipelined here"),
        ));
    }
    the_loop.pipeline = Some((span, interval));
    Ok(Diagnostic::note(
        "pipeline-on-cpu",
        span,
        format!(
            "`{}` carries `sched.pipeline = {interval}` for an HLS back end; on a CPU this changes \
             nothing",
            target.name
        ),
    ))
}

/// `buffer_at([func,] loop)`: the stage's write buffer at one of its loops.
pub(super) fn write_buffer(
    stage: &mut Stage,
    func: &str,
    named: Option<&Ident>,
    target: &Ident,
    span: Span,
) -> Result<(), Box<Diagnostic>> {
    if let Some(other) = named.filter(|n| n.name != func) {
        return Err(Box::new(
            Diagnostic::error(
                "buffer-other-func",
                other.span,
                format!(
                    "`{func}.buffer_at` buffers `{func}`'s own output, not `{}`'s",
                    other.name
                ),
            )
            .with_help(format!(
                "write `{}.buffer_at(loop)` to buffer that func's output",
                other.name
            )),
        ));
    }
    find_loop(stage, func, target)?;
    if let Some(previous) = &stage.write_buffer {
        return Err(Box::new(
            Diagnostic::error(
                "duplicate-buffer-at",
                span,
                format!("{} already has a write buffer", stage_label(stage, func)),
            )
            .with_note(Some(previous.span), "buffered here"),
        ));
    }
    stage.write_buffer = Some(BufferAt {
        loop_name: target.name.clone(),
        loop_span: target.span,
        span,
    });
    Ok(())
}
