//! `fuse` of two whole loops: after [`super::loops::fuse`] joined them, the
//! two dimensions become one dimension of the op where [`crate::collapse`]
//! allows it, so later directives split, vectorize and unroll the fused
//! loop as any other. Where it does not, the loops stay joined after tiling
//! and the reason is kept for the error a later split gets.

use crate::collapse::collapse;
use crate::model::{Collapsed, Stage};
use crate::payload_info::{PayloadInfo, PayloadOp};
use crate::span::Span;

/// Makes the fused loop `name` (two loops, just joined by the `fuse` at
/// `span`) one dimension of `stage`'s op when both are whole loops over
/// neighbouring dimensions the op lets collapse; else records on them why
/// not. `only_stage`: the func has no update definition.
pub(super) fn collapse_fused(
    stage: &mut Stage,
    payload: &PayloadInfo,
    name: &str,
    span: Span,
    only_stage: bool,
) {
    let Some(range) = stage.find_loop(name) else {
        return;
    };
    if range.len() != 2 {
        return;
    }
    let (outer, inner) = (&stage.loops[range.start], &stage.loops[range.start + 1]);
    let why_not = if !only_stage {
        Some("the func has an update definition".to_string())
    } else if [outer, inner].iter().any(|l| {
        l.step != 1
            || l.tile.is_some()
            || stage
                .loops
                .iter()
                .filter(|other| other.dim == l.dim)
                .count()
                > 1
    }) {
        Some("a fused loop that was split is not a whole dimension".to_string())
    } else if [outer, inner]
        .iter()
        .any(|l| l.vectorize.is_some() || l.unroll.is_some() || l.parallel.is_some())
    {
        Some("a loop was marked before `fuse`".to_string())
    } else if !stage.packs.is_empty()
        || !stage.prefetches.is_empty()
        || stage.accelerate.is_some()
        || stage.write_buffer.is_some()
        || !stage.reuse_buffers.is_empty()
    {
        Some("a directive about the func's inputs or output comes before `fuse`".to_string())
    } else if inner.dim != outer.dim + 1 {
        Some(format!(
            "`{}` is not the op's dimension just inside `{}` (an index of the fused loop would \
             not be one run of elements)",
            stage.dims[inner.dim].name, stage.dims[outer.dim].name
        ))
    } else {
        let names: Vec<String> = stage.dims.iter().map(|d| d.name.clone()).collect();
        match collapse(stage.op(payload), outer.dim, &names) {
            Ok(op) => {
                apply(stage, range.start, name, span, op);
                return;
            }
            Err(refusal) => Some(refusal.0),
        }
    };
    for the_loop in &mut stage.loops[range] {
        if let Some(fused) = &mut the_loop.fused {
            fused.kept_apart = why_not.clone();
        }
    }
}

/// The loops at `at` and `at + 1` become one loop `name` over one
/// dimension `name`, the op `op`.
fn apply(stage: &mut Stage, at: usize, name: &str, span: Span, op: PayloadOp) {
    let outer = stage.loops[at].dim;
    let inner = outer + 1;
    let extent = stage.dims[outer]
        .extent
        .zip(stage.dims[inner].extent)
        .map(|(a, b)| a * b);
    let joined: Vec<String> = [outer, inner]
        .iter()
        .flat_map(|&d| match stage.dims[d].joined.is_empty() {
            true => vec![stage.dims[d].name.clone()],
            false => stage.dims[d].joined.clone(),
        })
        .collect();
    stage.dims[outer].name = name.to_string();
    stage.dims[outer].extent = extent;
    stage.dims[outer].joined = joined;
    stage.dims.remove(inner);
    stage.loops.remove(at + 1);
    let joined = &mut stage.loops[at];
    joined.name = name.to_string();
    joined.fused = None;
    joined.span = span;
    for the_loop in &mut stage.loops {
        if the_loop.dim > inner {
            the_loop.dim -= 1;
        }
    }
    let collapsed = stage.collapsed.get_or_insert_with(|| Collapsed {
        steps: Vec::new(),
        op: op.clone(),
    });
    collapsed.steps.push((outer, span));
    collapsed.op = op;
}
