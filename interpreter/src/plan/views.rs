//! Producers reached through views. A consumer may read a producer through
//! `tensor.extract_slice`, `tensor.pad` or a reshape (a stencil's shifted
//! windows, a padded convolution input). Such a view stays outside the
//! consumer's loops when the consumer is tiled, so `compute_at` moves it in
//! first: each view is fused into the outermost loop (`tensor.pad` is tiled to
//! the consumer's tile, slices and casts are cloned) and the slices of slices
//! it leaves are merged (`merge_consecutive_insert_extract_slice`), so the
//! producer is read through one slice per view and is fused, tiled to each,
//! as usual. Upstream's patterns do not move a tile's slice above a
//! reshape (its offset depends on the loop), so before each fusion of a
//! producer read through one, `transform.sched.slice_through_reshapes`
//! (`payload/shim/reshapes.cpp`) makes the slice the reshape of a slice of
//! the producer, where that is a rectangle, and fails with the reshape
//! located where it is not.
//! A producer read through several slices (the three rows of a 3-point
//! stencil) is computed once over their union at each loop it is fused
//! into (`union_slices`), when the union is no larger than the slices
//! together; else once per slice. One in a sliding window (`store_at`) is
//! not fused here: the window reads through the views itself.

use super::{MaterializedLoop, Planner};
use crate::script::ANY_OP;
use schedule_lang::model::Placement;

impl Planner<'_> {
    /// Handles to the views between each bound stage and the producers
    /// computed at a loop of some consumer, taken before any tiling:
    /// `get_producer_of_operand`, nearest the reading op first.
    pub(super) fn bind_views(&mut self) {
        let placed: Vec<usize> = self
            .model
            .funcs
            .iter()
            .filter(|f| matches!(f.placement, Placement::At { .. }) && f.stored_at.is_none())
            .flat_map(|f| f.stages.iter().map(|s| s.op))
            .collect();
        let bound: Vec<((usize, usize), String)> = self
            .stage_handles
            .iter()
            .map(|(key, handle)| (*key, handle.clone()))
            .collect();
        for ((func, stage), handle) in bound {
            let op = self.model.funcs[func].stages[stage].op;
            for (index, operand) in self.payload.ops[op].operands.iter().enumerate() {
                let Some(producer) = operand.producer else {
                    continue;
                };
                if operand.via.is_empty() || !placed.contains(&producer) {
                    continue;
                }
                self.script.comment(format!(
                    "{} reads operand {index} through {}",
                    self.stage_name(func, stage),
                    operand.via.join(" of ")
                ));
                let mut handles = Vec::new();
                let mut reader = handle.clone();
                let mut position = index;
                for view in &operand.via {
                    let short = view.rsplit('.').next().unwrap_or(view);
                    let name = self.script.fresh(short);
                    self.script.op(
                        format!(
                            "%{name} = transform.get_producer_of_operand %{reader}[{position}] \
                             : ({ANY_OP}) -> {ANY_OP}"
                        ),
                        None,
                    );
                    handles.push(name.clone());
                    reader = name;
                    position = 0;
                }
                self.view_handles.insert((op, index), handles);
            }
        }
    }

    /// Emits the fusion of the ops `handle` holds into `loop`
    /// (`transform.sched.fuse_into`, which `payload/shim/fuse.cpp`
    /// implements: upstream's `fuse_into_containing_op` prints the loop at
    /// every fusion, quadratic in a chain's length). Consumes `handle`,
    /// moves `loop`'s handle to the loop after it, and returns the handle to
    /// what was fused, named after `hint`.
    pub(super) fn fuse_into(
        &mut self,
        handle: &str,
        hint: &str,
        loop_: &mut MaterializedLoop,
        location: Option<(usize, usize)>,
    ) -> String {
        let fused = self.script.fresh(hint);
        let new_loop = self.script.fresh(&loop_.handle);
        self.script.op(
            format!(
                "%{fused}, %{new_loop} = transform.sched.fuse_into %{handle} into %{} \
                 : ({ANY_OP}, {ANY_OP}) -> ({ANY_OP}, {ANY_OP})",
                loop_.handle
            ),
            location,
        );
        loop_.handle = new_loop;
        fused
    }

    /// Moves the views through which the ops in `readers` read `producer`
    /// into `outermost`, the outermost loop the producer is fused into, and
    /// folds the slices they leave. Does nothing when there are none;
    /// returns how many there were.
    pub(super) fn fuse_views(
        &mut self,
        producer: usize,
        readers: &[usize],
        outermost: &mut MaterializedLoop,
        location: Option<(usize, usize)>,
    ) -> usize {
        let keys: Vec<(usize, usize)> = self
            .view_handles
            .keys()
            .filter(|(op, index)| {
                readers.contains(op)
                    && self.payload.ops[*op].operands[*index].producer == Some(producer)
            })
            .copied()
            .collect();
        if keys.is_empty() {
            return 0;
        }
        let views = keys.len();
        for key in keys {
            let handles = self.view_handles.shift_remove(&key).unwrap_or_default();
            for view in handles {
                self.fuse_into(&view, &format!("{view}_fused"), outermost, location);
            }
        }
        let handle = outermost.handle.clone();
        self.apply_patterns_at(
            &[handle],
            &["tensor.merge_consecutive_insert_extract_slice"],
            false,
            location,
        );
        views
    }

    /// Whether payload op `reader` reads payload op `producer` through a
    /// `tensor.collapse_shape` or `expand_shape`.
    pub(super) fn read_through_reshape(&self, producer: usize, reader: usize) -> bool {
        self.payload.ops[reader]
            .operands
            .iter()
            .any(|o| o.producer == Some(producer) && o.via.iter().any(|v| v.ends_with("_shape")))
    }

    /// Emits `transform.sched.<op> %handle in %loop_`, a rewrite of the
    /// loop's reads of the producer `handle` holds, before it is fused
    /// there: `slice_through_reshapes` (`payload/shim/reshapes.cpp`: the
    /// slices its consumers take of a reshape of it become reshapes of
    /// slices of it, which fusion can tile it to) or `union_slices`
    /// (`payload/shim/union.cpp`: its slices in each block become slices of
    /// one covering slice, so fusion computes their union once, as
    /// Halide's bounds inference does, instead of each slice).
    pub(super) fn before_fusion(
        &mut self,
        op: &str,
        handle: &str,
        loop_: &MaterializedLoop,
        location: Option<(usize, usize)>,
    ) {
        self.script.op(
            format!(
                "transform.sched.{op} %{handle} in %{} : {ANY_OP}, {ANY_OP}",
                loop_.handle
            ),
            location,
        );
    }
}
