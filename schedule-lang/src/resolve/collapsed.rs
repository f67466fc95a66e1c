//! `fuse` of two whole loops: after [`super::loops::fuse`] joined them, the
//! two dimensions become one dimension of the op where [`crate::collapse`]
//! allows it, so later directives split, vectorize and unroll the fused
//! loop as any other. Where it does not, the loops stay joined after tiling
//! and the reason is kept for the error a later split gets. A func computed
//! in a collapsed stage's loops must be needed in whole rows of the fused
//! dimension, as the payload's reshape rewrite requires.

use crate::collapse::collapse;
use crate::diagnostic::Diagnostic;
use crate::model::{Collapsed, Placement, Stage};
use crate::payload_info::{MapResult, PayloadInfo, PayloadOp};
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

impl super::Resolver<'_> {
    /// A func computed at a loop of a stage whose `fuse` collapsed two
    /// loops is read through the collapse's reshape: each
    /// iteration's tile of the fused dimension must be whole rows of its
    /// inner dimension, the same size every time (a multiple of the inner
    /// extent dividing the fused one), or the part of the func it needs is
    /// no rectangle, which the payload's reshape rewrite refuses.
    pub(super) fn check_collapsed_placements(&mut self) {
        let mut errors = Vec::new();
        for state in self.funcs.values() {
            let Placement::At {
                consumer,
                loop_name,
                span,
            } = &state.model.placement
            else {
                continue;
            };
            let Some(produced) = state.model.stages.last().map(|s| s.op) else {
                continue;
            };
            let consumer = &self.funcs[*consumer].model;
            let Some(stage) = consumer.stages.last() else {
                continue;
            };
            let Some(tile) = stage_tile(stage, self.payload, produced, loop_name) else {
                continue;
            };
            if tile.whole_rows() {
                continue;
            }
            let fused = &stage.dims[tile.dim];
            let [rows, columns] = fused.joined.as_slice() else {
                continue;
            };
            let fitting: Vec<String> = (1..=tile.extent / tile.row)
                .map(|k| k * tile.row)
                .filter(|t| tile.extent % t == 0 && *t < tile.extent)
                .take(4)
                .map(|t| t.to_string())
                .collect();
            errors.push(
                Diagnostic::error(
                    "fused-tile-not-rectangle",
                    *span,
                    format!(
                        "`{}` computed at `{loop_name}` of `{}` would be computed for {} of the \
                         {} points of `{}` (`{rows}` and `{columns}` as one dimension) at a time, \
                         which are not whole rows ({} points of `{columns}` each): no rectangle of `{}`",
                        state.model.name,
                        consumer.name,
                        tile.size,
                        tile.extent,
                        fused.name,
                        tile.row,
                        state.model.name,
                    ),
                )
                .with_label("not whole rows of the fused dimension")
                .with_help(if fitting.is_empty() {
                    format!(
                        "compute `{}` at a loop outside every loop of `{}`",
                        state.model.name, fused.name
                    )
                } else {
                    format!(
                        "split `{}` by a multiple of {} that divides {} ({}), or compute `{}` \
                         at a loop outside it",
                        fused.name,
                        tile.row,
                        tile.extent,
                        fitting.join(", "),
                        state.model.name
                    )
                }),
            );
        }
        self.errors.extend(errors);
    }
}

/// The part of a fused dimension one iteration of a loop covers.
struct FusedTile {
    /// The stage's dimension.
    dim: usize,
    /// Its extent.
    extent: i64,
    /// The inner joined dimension's extent: one row.
    row: i64,
    /// Points of it one iteration covers.
    size: i64,
}

impl FusedTile {
    /// The same number of whole rows each iteration.
    fn whole_rows(&self) -> bool {
        self.size % self.row == 0 && self.extent % self.size == 0
    }
}

/// The tile of the dimension `fuse` collapsed (once, of two dimensions) in
/// `stage` that one iteration of its loop `loop_name` covers, when the op
/// reads the result of the payload op `produced` by that dimension
/// (through the collapse's reshape, no other view).
fn stage_tile(
    stage: &Stage,
    payload: &PayloadInfo,
    produced: usize,
    loop_name: &str,
) -> Option<FusedTile> {
    let collapsed = stage.collapsed.as_ref()?;
    let [(outer, _)] = collapsed.steps.as_slice() else {
        return None;
    };
    let original = &payload.ops[stage.op];
    let reshaped = original
        .operands
        .iter()
        .enumerate()
        .any(|(index, operand)| {
            operand.producer == Some(produced)
                && operand.via.is_empty()
                && collapsed
                    .op
                    .operands
                    .get(index)
                    .is_some_and(|o| o.map.contains(&MapResult::Dim(*outer)))
        });
    if !reshaped {
        return None;
    }
    let row = original
        .extents
        .get(outer + 1)
        .copied()
        .flatten()
        .filter(|&r| r > 0)?;
    let extent = stage.dims[*outer].extent?;
    let at = stage.find_loop(loop_name)?.end;
    let size = stage.loops[..at]
        .iter()
        .rfind(|l| l.dim == *outer)
        .map_or(extent, |l| l.step.min(extent));
    Some(FusedTile {
        dim: *outer,
        extent,
        row,
        size,
    })
}
