//! Vector tiles that read an input with a stride (convolutions and poolings
//! with stride 2), and the order of a vector op's dimensions.
//!
//! Once a tile's window loops (`kx`) are outside it and its unit dimensions
//! are folded, a stride-2 input is read at `2 * x`: not a projected
//! permutation, which MLIR's vectorizer refuses. Read through a slice with
//! stride 2 (`sched.slice_strided_reads`, our own op), the same elements are
//! read at `x`, and the tile vectorizes. A window loop in the tile beside the
//! strided one (`2 * x + kx`, both vectorized or unrolled) stays an error.
//!
//! The vector op's dimensions follow the op's iterators, not the schedule's
//! order: output channels `fi` vectorized inside unrolled output columns `xi`
//! of an op iterating `f` before `x` would make `xi` the vector's innermost
//! dimension. Such a tile is interchanged first (`structured.interchange`),
//! so its dimensions nest as the schedule ordered them.

use super::nest::Nest;
use super::Planner;
use schedule_lang::model::Loop;
use schedule_lang::Diagnostic;

/// How a tile is prepared before it is vectorized.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct TileShape {
    /// Inputs are read with a stride along a tile dimension: read them
    /// through strided slices (`sched.slice_strided_reads`).
    pub strided: bool,
    /// The op's iterators in the order the schedule nests the tile's loops
    /// (`structured.interchange`'s permutation), when that is not theirs.
    pub interchange: Option<Vec<usize>>,
}

/// The loops of a nest's vector tile that span more than one iteration.
fn tile_loops<'n>(nest: &'n Nest) -> impl Iterator<Item = &'n Loop> + 'n {
    (nest.first_implicit..nest.loops.len())
        .filter(|&i| nest.trips[i] != Some(1))
        .map(|i| &nest.loops[i])
}

/// The dimensions a nest's vector tile spans, outermost loop first, each once.
fn tile_dims(nest: &Nest) -> Vec<usize> {
    let mut dims = Vec::new();
    for l in tile_loops(nest) {
        if !dims.contains(&l.dim) {
            dims.push(l.dim);
        }
    }
    dims
}

impl Planner<'_> {
    /// An error when the vector tile holds a loop over a dimension an input
    /// is read along with a stride and, in the same index, a window
    /// dimension of the tile too: MLIR's vectorizer cannot read that.
    pub(super) fn check_strided_tile(
        &self,
        func: usize,
        stage_index: usize,
        nest: &Nest,
    ) -> Option<Diagnostic> {
        let stage = &self.model.funcs[func].stages[stage_index];
        let op = &self.payload.ops[stage.op];
        let dims = tile_dims(nest);
        for strided in tile_loops(nest) {
            for read in op.strided_reads(strided.dim) {
                let Some(&window) = read.others.iter().find(|d| dims.contains(d)) else {
                    continue;
                };
                let window = tile_loops(nest)
                    .find(|l| l.dim == window)
                    .map_or(stage.dims[window].name.as_str(), |l| l.visible_name());
                let (verb, span) = match strided.vectorize {
                    Some(span) => ("vectorize", span),
                    None => ("unroll", strided.unroll.unwrap_or(strided.span)),
                };
                return Some(
                    Diagnostic::error(
                        "vectorize-strided",
                        span,
                        format!(
                            "cannot {verb} `{}` in the vector tile of `{}` with `{window}` in \
                             it: `in{}` is read at `{}` (in the op's dimensions), with stride {} \
                             along `{}`, and MLIR's vectorizer does not read a strided window",
                            strided.visible_name(),
                            self.stage_name(func, stage_index),
                            read.operand,
                            read.index,
                            read.stride,
                            stage.dims[strided.dim].name,
                        ),
                    )
                    .with_help(format!(
                        "order `{window}` outside the vector tile (reorder lists loops \
                         innermost first), rolled or unrolled there: the tile then reads `in{}` \
                         through a slice with stride {}",
                        read.operand, read.stride
                    )),
                );
            }
        }
        None
    }

    /// How the tile of a nest that passed [`Planner::check_strided_tile`]
    /// is prepared before it is vectorized (after folding unit dimensions).
    pub(super) fn tile_shape(&self, func: usize, stage_index: usize, nest: &Nest) -> TileShape {
        let stage = &self.model.funcs[func].stages[stage_index];
        let op = &self.payload.ops[stage.op];
        let dims = tile_dims(nest);
        let strided = dims.iter().any(|&d| !op.strided_reads(d).is_empty());
        // The tile's dimensions take the places they have among the op's
        // iterators, in the schedule's order; the others stay where they are.
        let mut places: Vec<usize> = dims.clone();
        places.sort_unstable();
        let mut order: Vec<usize> = (0..stage.dims.len()).collect();
        for (place, dim) in places.into_iter().zip(&dims) {
            order[place] = *dim;
        }
        let identity = order.iter().enumerate().all(|(i, d)| i == *d);
        TileShape {
            strided,
            interchange: (!identity).then_some(order),
        }
    }
}
