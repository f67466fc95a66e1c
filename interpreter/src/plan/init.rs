//! A zero init in the tiles: the `linalg.fill` no func names that a stage
//! accumulates into (a convolution's or a matmul's init) is computed inside
//! the stage's outermost `scf.forall`, one tile at a time, and vectorized
//! there when its tiles are whole and small. Cleanups then fold the filled
//! tile into the accumulators' first value, so the output is written once,
//! by the stage; left outside, the fill was a pass over the whole output
//! before the stage's (2.7 ms of mobilenet_v2's 19 on one core).
//! Not for a stage computed inside another's loops, resumed after a split,
//! offloaded to an accelerator, or factored (`rfactor`).

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
}

impl Planner<'_> {
    /// The position of `op`'s init operand when a `linalg.fill` no func
    /// names computes it directly.
    fn unnamed_init_fill(&self, op: usize) -> Option<usize> {
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
        let fill_op = &self.payload.ops[fill];
        (fill_op.kind == "linalg.fill" && !named && fill_op.extents.iter().all(Option::is_some))
            .then_some(position)
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
        let position = self.unnamed_init_fill(stage.op)?;
        let extents = &self.payload.ops[stage.op].extents;
        let mut elements = 1;
        let mut whole = true;
        for (dim, extent) in extents.iter().enumerate() {
            if stage.dims[dim].reduction {
                continue;
            }
            let extent = (*extent)?;
            let tile = first
                .iter()
                .find(|&&i| nest.loops[i].dim == dim)
                .map_or(extent, |&i| nest.tile_sizes[i]);
            whole &= extent % tile == 0;
            elements *= tile;
        }
        let fill = self
            .script
            .fresh(&format!("{}_init", self.model.funcs[func].name));
        self.script.comment(format!(
            "{}: its zero init, computed in its outermost forall's tiles",
            self.stage_name(func, stage_index)
        ));
        self.script.op(
            format!(
                "%{fill} = transform.get_producer_of_operand %{handle}[{position}] \
                 : ({ANY_OP}) -> {ANY_OP}"
            ),
            None,
        );
        Some(InitFill {
            handle: fill,
            vectorize: whole && elements <= MOST_VECTORIZED_FILL,
        })
    }

    /// Fuses the init fill into `forall`, the stage's outermost loop, and
    /// vectorizes the filled tile when it is whole and small.
    pub(super) fn fuse_init_fill(&mut self, init: InitFill, forall: &mut MaterializedLoop) {
        let fused = self.fuse_into(&init.handle, &init.handle, forall, None);
        if init.vectorize {
            self.script.op(
                format!("transform.structured.vectorize %{fused} : {ANY_OP}"),
                None,
            );
        }
    }
}
