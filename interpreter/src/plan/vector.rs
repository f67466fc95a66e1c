//! `vectorize` and `unroll`, and keeping the accumulator in registers.
//!
//! In a vectorized stage, the innermost loops that are vectorized or unrolled
//! stay implicit in the tiled op, which becomes one multi-dimensional vector
//! op (`structured.vectorize`); its lowering unrolls it into hardware-sized
//! vectors. Every loop outside the vector tile must be materialized, and the
//! tile must have a static shape. Contractions vectorize with their reduction
//! (a `vector.contract`, lowered to fused multiply-adds) before unit
//! dimensions are folded; other ops, such as convolutions indexed by `y + rz`,
//! only after folding (`fold_unit_extent_dims_via_slices`).
//!
//! After vectorizing, loop-invariant subsets (the accumulator tile) are hoisted
//! out of every sequential loop, innermost first, so they become loop-carried
//! vectors (`loop.hoist_loop_invariant_subsets`), and `transform.verify`
//! checks the result. Materialized loops marked `unroll` are unrolled last,
//! innermost first (`loop.unroll`: unrolling an outer loop first would
//! invalidate the handles to the inner ones).

use super::nest::Nest;
use super::strided::TileShape;
use super::tail::find_tail;
use super::Planner;
use crate::script::ANY_OP;
use schedule_lang::model::{Loop, Placement};
use schedule_lang::{Diagnostic, MapResult, PayloadOp, Span};

/// The most iterations a materialized loop may have to be unrolled (a fused
/// loop counts the product of its parts). Unrolled copies are chains of
/// tensor slice ops, and one-shot bufferization's analysis of them grows much
/// faster than their number (figures in `docs/performance.md`).
pub(super) const MOST_UNROLLED_COPIES: i64 = 32;

/// When a tile is vectorized relative to folding unit dimensions.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum VectorizeWhen {
    /// Before: a reduction over plain dimensions (a contraction) vectorizes as
    /// is, and keeps its reduction, which becomes a `vector.contract` whose
    /// lowering emits fused multiply-adds.
    BeforeFolding,
    /// After: ops indexed by expressions (convolutions' `y + rz`) vectorize
    /// only once their unit dimensions are folded away.
    AfterFolding,
}

/// A tiled op to vectorize once every stage is tiled.
struct VectorTile {
    /// The handle to the tiled op.
    handle: String,
    /// The `vectorize` call that asked.
    span: Span,
    /// Before or after folding unit dimensions.
    when: VectorizeWhen,
    /// What to do to the op first (after folding).
    shape: TileShape,
}

/// Work queued while stages are tiled, emitted once all of them are.
#[derive(Default)]
pub(super) struct LateSteps {
    /// Tiles to vectorize.
    vectorize: Vec<VectorTile>,
    /// Loops to unroll (handle, factor, the `unroll` call), in creation order.
    unroll: Vec<(String, i64, Span)>,
    /// Sequential `scf.for` loops, outer before inner, whose loop-invariant
    /// subsets (the accumulator tile) are hoisted into loop-carried values.
    pub hoist: Vec<String>,
}

impl Planner<'_> {
    /// Keeps the innermost vectorized or unrolled loops implicit, and finds a
    /// partial tile to split off; refuses a vectorized loop outside the tile
    /// and a tile whose shape is not static. False after an error.
    pub(super) fn keep_vector_tile_implicit(
        &mut self,
        func: usize,
        stage_index: usize,
        nest: &mut super::nest::Nest,
    ) -> bool {
        let stage = &self.model.funcs[func].stages[stage_index];
        let name = self.stage_name(func, stage_index);
        let loops = nest.loops;
        while nest.first_implicit > 0 {
            let i = nest.first_implicit - 1;
            let l = &loops[i];
            // An unrolled window loop (a convolution's reduction `kx`, read as
            // `x + kx`) stays a loop: MLIR cannot vectorize a window reduction.
            let unrolled_window = l.vectorize.is_none()
                && stage.dims[l.dim].reduction
                && self.indexes_a_window(stage.op, l.dim);
            // A loop of one iteration (a split by its whole extent) is part
            // of the tile as it is: it must not cut the vectorized loops
            // inside it off from the unrolled ones outside.
            let single = nest.trips[i] == Some(1) && !nest.pack_points[i];
            if (l.vectorize.is_some() || l.unroll.is_some() || single)
                && !nest.targets[i]
                && !unrolled_window
            {
                nest.first_implicit -= 1;
            } else {
                break;
            }
        }
        let first_implicit = nest.first_implicit;
        if let Some(outside) = loops[..first_implicit]
            .iter()
            .find(|l| l.vectorize.is_some())
        {
            let blocker = &loops[first_implicit - 1];
            let reason = if blocker.name == outside.name {
                format!(
                    "`{}` is a `compute_at` target, so it must stay a loop",
                    outside.name
                )
            } else {
                format!(
                    "`{}` is inside it and is neither vectorized nor unrolled",
                    blocker.name
                )
            };
            let message = format!("cannot vectorize `{}` in `{name}`: {reason}", outside.name);
            self.errors.push(
                Diagnostic::error(
                    "vectorize-outer",
                    outside.vectorize.unwrap_or(outside.span),
                    message,
                )
                .with_help(
                    "vectorize the innermost loop (reorder it inside), and unroll or vectorize \
                     the loops between",
                ),
            );
            return false;
        }
        if let Some(error) = self.check_strided_tile(func, stage_index, nest) {
            self.errors.push(error);
            return false;
        }
        if let Some(why) = &self.payload.ops[stage.op].unvectorizable_reduction {
            let span = loops.iter().find_map(|l| l.vectorize).unwrap_or(stage.span);
            self.errors.push(
                Diagnostic::error(
                    "vectorize-reduction",
                    span,
                    format!(
                        "MLIR's vectorizer cannot vectorize `{name}`, whatever its tile: {why} \
                         (it knows add, mul, min, max, and, or, xor, each reading the \
                         accumulator once)"
                    ),
                )
                .with_help(
                    "unroll its loops instead; an argmax's index could be a separate \
                     reduction (or left out, if nothing reads it: then it is dropped)",
                ),
            );
            return false;
        }
        // The dimensions the vector tile spans (more than one element of).
        let vector_dims: Vec<usize> = (first_implicit..loops.len())
            .filter(|&i| nest.trips[i] != Some(1))
            .map(|i| loops[i].dim)
            .collect();
        if let Some(error) =
            self.check_bit_tensors(stage.op, &name, loops, &vector_dims, stage.span)
        {
            self.errors.push(error);
            return false;
        }
        let entry = nest.entering(first_implicit).clone();
        let tail = find_tail(nest, nest.start..first_implicit);
        nest.tail = tail;
        let dynamic = (0..stage.dims.len()).find(|&d| entry[d].is_none());
        if let (None, Some(dim)) = (&nest.tail, dynamic) {
            let span = loops.iter().find_map(|l| l.vectorize).unwrap_or(stage.span);
            let dimension = &stage.dims[dim];
            let read_through = self.payload.ops.iter().find_map(|reader| {
                reader
                    .operands
                    .iter()
                    .find(|o| o.producer == Some(stage.op) && !o.via.is_empty())
                    .map(|o| o.via.join(" of "))
            });
            let placed = matches!(self.model.funcs[func].placement, Placement::At { .. });
            if let (Some(views), true) = (read_through, placed) {
                self.errors.push(
                    Diagnostic::error(
                        "vectorize-through-view",
                        span,
                        format!(
                            "cannot vectorize `{name}` here: its consumer reads it through \
                             {views}, whose tile shapes the planner does not follow, so the \
                             tile of `{}` it computes there has no known static shape",
                            dimension.name
                        ),
                    )
                    .with_help(
                        "vectorize it where it is computed whole (`compute_root`), or vectorize \
                         only dimensions the view keeps (a slice keeps them; a pad or a reshape \
                         does not)",
                    ),
                );
                return false;
            }
            let why = match dimension.extent {
                Some(extent) => format!(
                    "the tiles of `{}` are partial (its {extent} iterations are not divided \
                     evenly by the splits)",
                    dimension.name
                ),
                None => format!("`{}` has a dynamic extent", dimension.name),
            };
            let help = match dimension.extent {
                None => {
                    "only static tiles are vectorized: give the payload static shapes, or \
                     vectorize a stage whose dimensions are static"
                }
                Some(_) => "choose split factors that divide the extents",
            };
            self.errors.push(
                Diagnostic::error(
                    "vectorize-dynamic",
                    span,
                    format!(
                        "cannot vectorize `{name}`: the vectorized tile must have a static \
                         shape, but {why}"
                    ),
                )
                .with_help(help),
            );
            return false;
        }
        true
    }

    /// An error when op `op` reads or writes an `i1` tensor along a
    /// dimension of its vector tile (`vector_dims`): MLIR lowers a
    /// `vector<16xi1>` load or store to two bytes of packed bits, where
    /// scalar code (and numpy's `bool`) keeps one byte per element, so the
    /// vectorized op would silently read and write the wrong bits. One
    /// element broadcast across the tile (an attention mask's row flag read
    /// by the select over the row) is a scalar load, and right.
    fn check_bit_tensors(
        &self,
        op: usize,
        name: &str,
        loops: &[Loop],
        vector_dims: &[usize],
        stage: Span,
    ) -> Option<Diagnostic> {
        let bits = |init: bool| {
            self.payload.ops[op].operands.iter().any(|o| {
                o.element == "i1"
                    && o.is_init == init
                    && vector_dims.iter().any(|&d| o.depends_on(d) != Some(false))
            })
        };
        let (verb, help) = match (bits(false), bits(true)) {
            (false, false) => return None,
            (true, false) => (
                "reads",
                "leave it scalar (split and unroll instead), or inline the op computing the \
                 `i1` tensor into it (`compute_inline`) so none is stored",
            ),
            (reads, true) => (
                if reads { "reads and writes" } else { "writes" },
                "leave it scalar (split and unroll instead), or, when it is elementwise, inline \
                 it into its reader (`compute_inline`) so no `i1` tensor is stored",
            ),
        };
        let span = loops.iter().find_map(|l| l.vectorize).unwrap_or(stage);
        Some(
            Diagnostic::error(
                "vectorize-i1",
                span,
                format!(
                    "cannot vectorize `{name}`: it {verb} `i1` tensors along its vector tile, and MLIR stores a \
                     vector of `i1` as packed bits where scalar code keeps one byte per \
                     element, so the vectorized op would compute wrong values"
                ),
            )
            .with_help(help),
        )
    }

    /// Whether dimension `dim` of payload op `op` indexes an operand inside
    /// an expression (`d1 + d4`), as a convolution's window does.
    fn indexes_a_window(&self, op: usize, dim: usize) -> bool {
        expressions_with(&self.payload.ops[op], dim)
            .next()
            .is_some()
    }

    /// Queues the vectorization of a stage's tile (`handle`), tiled as
    /// `nest` says.
    pub(super) fn queue_vectorize(
        &mut self,
        func: usize,
        stage_index: usize,
        handle: String,
        nest: &Nest,
    ) {
        let stage = &self.model.funcs[func].stages[stage_index];
        let span = stage
            .loops
            .iter()
            .find_map(|l| l.vectorize)
            .unwrap_or(stage.span);
        let op = &self.payload.ops[stage.op];
        let plain = op.operands.iter().all(|o| {
            o.map
                .iter()
                .all(|r| matches!(r, MapResult::Dim(_) | MapResult::Constant(0)))
        });
        // A contraction keeps its iterators' order: `vector.contract` picks
        // its own. One with a reduction of extent 1 beside others (a 1x1
        // convolution's window, once `fuse` made it a generic) is folded
        // first, as a convolution is: a contraction over several unit
        // reductions lowers to a reduction per element, not to FMAs.
        let reductions = || stage.dims.iter().filter(|d| d.reduction);
        let unit_reduction = reductions().count() > 1 && reductions().any(|d| d.extent == Some(1));
        let (when, shape) = if plain && reductions().next().is_some() && !unit_reduction {
            (VectorizeWhen::BeforeFolding, TileShape::default())
        } else {
            let shape = self.tile_shape(func, stage_index, nest);
            (VectorizeWhen::AfterFolding, shape)
        };
        self.late.vectorize.push(VectorTile {
            handle,
            span,
            when,
            shape,
        });
        self.transformed = true;
    }

    /// Queues the unroll of a materialized loop marked `unroll`.
    pub(super) fn plan_unroll(&mut self, the_loop: &Loop, handle: &str, trip: Option<i64>) {
        let Some(span) = the_loop.unroll else { return };
        match trip {
            Some(trip) if trip > MOST_UNROLLED_COPIES => self.errors.push(
                Diagnostic::error(
                    "unroll-too-large",
                    span,
                    format!(
                        "cannot unroll `{}`: it has {trip} iterations, and `unroll` makes at most \
                         {MOST_UNROLLED_COPIES} copies of a loop body",
                        the_loop.visible_name()
                    ),
                )
                .with_help(if the_loop.fused.is_some() {
                    "a fused loop cannot be split: unroll fewer of its loops, or split one of \
                     them by a factor before fusing and unroll that (bufferization's analysis \
                     grows much faster than the unrolled code: 64 copies take seconds to \
                     compile)"
                        .to_string()
                } else {
                    format!(
                        "unroll by a factor: `unroll({}, 8)` splits the loop and unrolls the \
                         inner 8 iterations (bufferization's analysis grows much faster than \
                         the unrolled code: 64 copies take seconds to compile)",
                        the_loop.visible_name()
                    )
                }),
            ),
            Some(trip) => self.late.unroll.push((handle.to_string(), trip, span)),
            None => self.errors.push(
                Diagnostic::error(
                    "unroll-dynamic",
                    span,
                    format!(
                        "cannot unroll `{}`: its trip count is not static",
                        the_loop.visible_name()
                    ),
                )
                .with_help("unroll with a factor, as in `unroll(x, 4)`"),
            ),
        }
    }

    /// Vectorizes the queued tiles: contractions first, with their reduction,
    /// then the others after folding unit dimensions.
    pub(super) fn emit_vectorize(&mut self, functions: &[String]) {
        if self.late.vectorize.is_empty() {
            return;
        }
        let tiles = std::mem::take(&mut self.late.vectorize);
        let (early, mut late): (Vec<_>, Vec<_>) = tiles
            .into_iter()
            .partition(|tile| tile.when == VectorizeWhen::BeforeFolding);
        if !early.is_empty() {
            for tile in early {
                self.script.comment(format!(
                    "vectorize: {} (a contraction, vectorized with its reduction)",
                    self.source.slice(tile.span)
                ));
                self.vectorize_op(&tile.handle, tile.span);
            }
            // Before any canonicalization folds a unit reduction into a plain add.
            self.script.comment(
                "turn multiply-reduce pairs into vector.contract (its lowering emits fused \
                 multiply-adds)",
            );
            let patterns = [
                "vector.transfer_permutation_patterns",
                "vector.reduction_to_contract",
                "canonicalization",
            ];
            self.apply_patterns(functions, &patterns, false);
        }
        for tile in &mut late {
            let Some(order) = &tile.shape.interchange else {
                continue;
            };
            self.script.comment(format!(
                "{}: iterators interchanged so the vector's dimensions nest as the schedule orders them",
                self.source.slice(tile.span)
            ));
            let listed = order
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            let interchanged = self.script.fresh(&format!("{}_interchanged", tile.handle));
            self.script.op(
                format!(
                    "%{interchanged} = transform.structured.interchange %{} iterator_interchange = [{listed}] : ({ANY_OP}) -> {ANY_OP}",
                    tile.handle
                ),
                self.at(tile.span),
            );
            tile.handle = interchanged;
        }
        if !late.is_empty() {
            self.script
                .comment("fold unit dimensions so each tile vectorizes as one compact vector op");
            let patterns = [
                "linalg.fold_unit_extent_dims_via_slices",
                "canonicalization",
            ];
            self.apply_patterns(functions, &patterns, false);
        }
        for tile in late {
            self.script
                .comment(format!("vectorize: {}", self.source.slice(tile.span)));
            if tile.shape.strided {
                self.script.comment(
                    "inputs read with a stride along the tile are read through strided slices",
                );
                self.script.op(
                    format!(
                        "transform.sched.slice_strided_reads %{} : {ANY_OP}",
                        tile.handle
                    ),
                    self.at(tile.span),
                );
            }
            self.vectorize_op(&tile.handle, tile.span);
        }
    }

    /// Vectorizes the op `handle` holds, after checking that it still holds
    /// one: MLIR's cleanups can drop a tile from its handle (a forall with
    /// one iteration along some of its loops did, before the tiling left
    /// such loops out), and vectorize on an empty handle silently does
    /// nothing, leaving scalar code (50x slower there). The check fails with a located error
    /// that `mlir_report::explain_vanished_tile` explains.
    fn vectorize_op(&mut self, handle: &str, span: Span) {
        let location = self.at(span);
        self.script.op(
            format!("%{handle}_ops = transform.num_associations %{handle} : ({ANY_OP}) -> !transform.param<i64>"),
            location,
        );
        self.script.op(
            format!("%{handle}_none = transform.param.constant 0 : i64 -> !transform.param<i64>"),
            location,
        );
        self.script.op(
            format!("transform.match.param.cmpi gt %{handle}_ops, %{handle}_none : !transform.param<i64>"),
            location,
        );
        self.script.op(
            format!("transform.structured.vectorize %{handle} : {ANY_OP}"),
            location,
        );
    }

    /// Hoists loop-invariant subsets out of the queued loops, innermost
    /// first, then verifies each function.
    pub(super) fn emit_hoisting(&mut self, functions: &[String]) {
        if self.late.hoist.is_empty() {
            return;
        }
        self.script.comment(
            "keep accumulator tiles in loop-carried values: hoist loop-invariant subsets, \
             innermost loop first",
        );
        self.script
            .comment("(after a cleanup, so each read and write of the tile is one subset pair)");
        self.apply_patterns(functions, &["canonicalization"], true);
        for handle in std::mem::take(&mut self.late.hoist).into_iter().rev() {
            self.script.op(
                format!("transform.loop.hoist_loop_invariant_subsets %{handle} : {ANY_OP}"),
                None,
            );
        }
        // Hoisting has produced IR that fails to verify (a value used outside
        // its loop), which later steps then turned into wrong results: stop there.
        self.script.comment("the hoisted loops must still verify");
        for function in functions {
            self.script
                .op(format!("transform.verify %{function} : {ANY_OP}"), None);
        }
    }

    /// Unrolls the queued loops, innermost (last created) first.
    pub(super) fn emit_unrolls(&mut self) {
        let unrolls = std::mem::take(&mut self.late.unroll);
        for (handle, factor, span) in unrolls.into_iter().rev() {
            self.script
                .comment(format!("unroll: {}", self.source.slice(span)));
            self.script.op(
                format!("transform.loop.unroll %{handle} {{factor = {factor}}} : {ANY_OP}"),
                self.at(span),
            );
        }
    }
}

/// The index expressions of `op`'s operands that mention dimension `dim`
/// (`d1 + d4` for `d4`), with the operand's position.
fn expressions_with(op: &PayloadOp, dim: usize) -> impl Iterator<Item = (usize, &str)> {
    let name = format!("d{dim}");
    op.operands
        .iter()
        .enumerate()
        .flat_map(move |(k, operand)| {
            let name = name.clone();
            operand.map.iter().filter_map(move |result| match result {
                MapResult::Expression(text)
                    if text
                        .split(|c: char| !c.is_ascii_alphanumeric())
                        .any(|t| t == name) =>
                {
                    Some((k, text.as_str()))
                }
                _ => None,
            })
        })
}
