//! A zero init in the tiles: the `linalg.fill` no func names that a stage
//! accumulates into (a convolution's or a matmul's init) is computed inside
//! the stage's foralls, one tile at a time, and vectorized in the innermost
//! of the leading ones (those right inside each other) whose tiles are whole
//! and small, else in the outermost's when those are. Cleanups then fold the
//! filled tile into the accumulators' first value, so the output is written
//! once, by the stage; left outside, the fill was a pass over the whole
//! output before the stage's (2.7 ms of mobilenet_v2's 19 on one core).
//! Filled an outer forall's tile at a time, each register tile of the
//! foralls inside read its start back from memory: one gathered element at a
//! time for a 1x1 stride-2 convolution; for a 128x1024x256 linear layer with
//! its weight packed per 16-column block, a zero pass over each 128 x 16
//! block and a read of each 4 x 16 tile (1.20 against 1.11 ms alone, Zen 3).
//! A stage computed inside another's loops (`compute_at`) has its init fill
//! fused with it into each of those loops instead, given a tensor of its own
//! there (`sched.fresh_init`, our own op: CSE had often made it the
//! consumer's output) and vectorized when the stage's region in the
//! innermost loop is whole and small. Left outside, the fill wrote the whole
//! output and every tile read it back as its start (mobilenet_v2's expansion
//! convolution inside its ReLU6 clamp); written into the consumer's output,
//! each tile was copied out of it, and a nest of foralls copied whole blocks.
//! An init a broadcast no func names computes (a convolution's or a linear
//! layer's bias, as torch-mlir exports them) is computed in the tiles of
//! each forall run from the outermost on (the stage's own tiles), not
//! vectorized: once the stage's vectorized
//! tile reads it, the lowering reads the bias itself and drops the
//! broadcast (`payload/shim/broadcasts.cpp`), so the broadcast output is
//! never written (6.4 MB for the MNIST CNN's conv2). Inside another stage's
//! loops (`compute_at`) only a fill goes along.
//! Not for a stage resumed after a split, offloaded to an accelerator, or
//! factored (`rfactor`).

use super::nest::{uses_forall, Nest};
use super::{MaterializedLoop, Planner};
use crate::script::ANY_OP;
use schedule_lang::model::Placement;

/// Fill tiles of at most this many elements are vectorized (16 KB of f32,
/// as much as a core's first-level cache holds with room to spare); larger
/// ones are filled by a loop, in the tile all the same.
const MOST_VECTORIZED_FILL: i64 = 4096;

/// A stage's init fill, taken before tiling: the handle to it, and whether
/// its tiles in the first forall are whole and small enough to vectorize.
pub(super) struct InitFill {
    handle: String,
    vectorize: bool,
    /// The forall runs it is still to be fused into, the next first: a
    /// broadcast goes on into each forall run after the first, down to the
    /// stage's own tile; a fill into those that end in a small whole tile,
    /// else it stays in the first.
    pub foralls_left: usize,
}

/// What computes an init no func names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum InitKind {
    /// A `linalg.fill` (a zero, say).
    Fill,
    /// A `linalg.broadcast`, or a generic that only copies its one input.
    Broadcast,
}

impl Planner<'_> {
    /// The position of `op`'s init operand when a fill or a broadcast no
    /// func names computes it directly, and which of the two.
    fn unnamed_init(&self, op: usize) -> Option<(usize, InitKind)> {
        let operands = &self.payload.ops[op].operands;
        let (position, fill) = operands
            .iter()
            .enumerate()
            .find_map(|(i, o)| (o.is_init && o.via.is_empty()).then_some((i, o.producer?)))?;
        // (An inlined func's op is gone: its id is of the payload before.)
        let named = self.model.funcs.iter().any(|f| {
            !matches!(f.placement, Placement::Inline { .. })
                && f.stages.iter().any(|s| s.op == fill)
        });
        let init = &self.payload.ops[fill];
        let inputs = init.operands.iter().filter(|o| !o.is_init).count();
        let kind = match init.kind.as_str() {
            "linalg.fill" => InitKind::Fill,
            "linalg.broadcast" => InitKind::Broadcast,
            "linalg.generic" if init.body.is_empty() && inputs == 1 => InitKind::Broadcast,
            _ => return None,
        };
        (!named && init.extents.iter().all(Option::is_some)).then_some((position, kind))
    }

    /// Emits, before the stage's first tiling, the handle to the fill that
    /// computes its init, when that fill can be computed in the stage's
    /// outermost forall (the first run of `nest`, with no partial-tile
    /// split there). Called only for a stage's whole op (`Resume::whole`).
    pub(super) fn take_init_fill(
        &mut self,
        func: usize,
        stage_index: usize,
        handle: &str,
        nest: &Nest<'_>,
    ) -> Option<InitFill> {
        let stage = &self.model.funcs[func].stages[stage_index];
        let first = nest.runs.first()?;
        if !uses_forall(stage, &nest.loops[first[0]])
            || nest.tail.as_ref().is_some_and(|t| first.contains(&t.at))
        {
            return None;
        }
        let (position, kind) = self.unnamed_init(stage.op)?;
        // The leading runs that are foralls, with no partial-tile split.
        let foralls = nest
            .runs
            .iter()
            .take_while(|run| {
                uses_forall(stage, &nest.loops[run[0]])
                    && !nest.tail.as_ref().is_some_and(|t| run.contains(&t.at))
            })
            .count();
        let extents = &self.payload.ops[stage.op].extents;
        let tiles_after = |runs: usize| -> Vec<Option<i64>> {
            (0..extents.len())
                .map(|dim| {
                    let tile = nest.runs[..runs]
                        .iter()
                        .flatten()
                        .rfind(|&&i| nest.loops[i].dim == dim);
                    tile.map_or(extents[dim], |&i| Some(nest.tile_sizes[i]))
                })
                .collect()
        };
        let (vectorize, foralls_left) = match kind {
            InitKind::Broadcast => (false, foralls),
            InitKind::Fill if self.small_whole_tiles(func, stage_index, &tiles_after(foralls)) => {
                (true, foralls)
            }
            InitKind::Fill if self.small_whole_tiles(func, stage_index, &tiles_after(1)) => {
                (true, 1)
            }
            InitKind::Fill => (false, 1),
        };
        let place = match kind {
            InitKind::Fill if foralls_left > 1 => {
                "computed in the tiles of its foralls, vectorized in the innermost's"
            }
            InitKind::Fill => "computed in its outermost forall's tiles",
            InitKind::Broadcast => "computed in its foralls' tiles",
        };
        let handle = self.init_fill_handle(func, stage_index, handle, position, kind, place);
        Some(InitFill {
            handle,
            vectorize,
            foralls_left,
        })
    }

    /// The handle to the unnamed zero init of a producer stage about to be
    /// fused into its consumer's loops (`compute_at`); `handle` is the
    /// stage's, not fused yet.
    pub(super) fn take_fused_init_fill(
        &mut self,
        func: usize,
        stage_index: usize,
        handle: &str,
    ) -> Option<String> {
        let op = self.model.funcs[func].stages[stage_index].op;
        let (position, InitKind::Fill) = self.unnamed_init(op)? else {
            return None;
        };
        let place = "fused with it into each loop it is computed in";
        Some(self.init_fill_handle(func, stage_index, handle, position, InitKind::Fill, place))
    }

    /// Gives a fused producer's init fill (`fill`), now in the innermost
    /// loop it is computed in, a tensor of its own, and vectorizes it when
    /// the producer's `region` there is whole and small.
    pub(super) fn finish_fused_init_fill(
        &mut self,
        fill: &str,
        func: usize,
        stage_index: usize,
        region: &[Option<i64>],
    ) {
        // Its destination was the consumer's output when CSE had merged
        // their empties: the producer's tile is its own.
        self.script.op(
            format!("transform.sched.fresh_init %{fill} : {ANY_OP}"),
            None,
        );
        if self.small_whole_tiles(func, stage_index, region) {
            self.vectorize_fill(fill);
        }
    }

    /// Whether tiles of `tiles` elements along each of the stage's parallel
    /// dimensions are all whole (each dividing its extent) and together
    /// small enough to vectorize.
    fn small_whole_tiles(&self, func: usize, stage_index: usize, tiles: &[Option<i64>]) -> bool {
        let stage = &self.model.funcs[func].stages[stage_index];
        let extents = &self.payload.ops[stage.op].extents;
        let mut elements: i64 = 1;
        for (dim, (extent, tile)) in extents.iter().zip(tiles).enumerate() {
            if stage.dims[dim].reduction {
                continue;
            }
            let (Some(extent), Some(tile)) = (*extent, *tile) else {
                return false;
            };
            if tile <= 0 || extent % tile != 0 {
                return false;
            }
            elements = elements.saturating_mul(tile);
        }
        elements <= MOST_VECTORIZED_FILL
    }

    /// Emits the handle to the fill or broadcast (`kind`) computing operand
    /// `position` of the stage's op (`handle`), with a comment saying where
    /// it goes.
    fn init_fill_handle(
        &mut self,
        func: usize,
        stage_index: usize,
        handle: &str,
        position: usize,
        kind: InitKind,
        place: &str,
    ) -> String {
        let fill = self
            .script
            .fresh(&format!("{}_init", self.model.funcs[func].name));
        let what = match kind {
            InitKind::Fill => "its zero init,",
            InitKind::Broadcast => "its init, a broadcast,",
        };
        self.script.comment(format!(
            "{}: {what} {place}",
            self.stage_name(func, stage_index)
        ));
        self.script.op(
            format!(
                "%{fill} = transform.get_producer_of_operand %{handle}[{position}] \
                 : ({ANY_OP}) -> {ANY_OP}"
            ),
            None,
        );
        fill
    }

    /// Fuses the init fill into `forall`, one of the stage's foralls
    /// (outermost first), and, in the last it goes into, vectorizes the
    /// filled tile when it is whole and small.
    pub(super) fn fuse_init_fill(&mut self, init: &mut InitFill, forall: &mut MaterializedLoop) {
        self.fuse_fill_into(&mut init.handle, forall);
        init.foralls_left = init.foralls_left.saturating_sub(1);
        if init.vectorize && init.foralls_left == 0 {
            self.vectorize_fill(&init.handle);
        }
    }

    /// Fuses a fill (`fill`, updated to the fused one) into one more loop,
    /// outermost first, right after the stage it initializes.
    pub(super) fn fuse_fill_into(&mut self, fill: &mut String, loop_: &mut MaterializedLoop) {
        *fill = self.fuse_into(fill, fill, loop_, None);
    }

    /// Vectorizes a fill, once fused into its last loop.
    fn vectorize_fill(&mut self, fill: &str) {
        self.script.op(
            format!("transform.structured.vectorize %{fill} : {ANY_OP}"),
            None,
        );
    }
}
