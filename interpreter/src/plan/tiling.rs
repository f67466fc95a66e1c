//! Tiling: one op per run of the [`Nest`], outermost first. A run of loops
//! over parallel dimensions becomes one `scf.forall` (`tile_using_forall`:
//! fusion can go through its shared outputs, so a producer of the consumer's
//! init can be computed inside it); a run over reduction dimensions or loops
//! to unroll becomes a nest of `scf.for`s (`tile_using_for`), whose fused
//! parts are coalesced ([`super::fuse`]). After each run, the packs and
//! prefetches placed at its innermost loop are planned, and the producers
//! computed there are fused in ([`super::compute_at`]).

use super::init::InitFill;
use super::nest::{uses_forall, Nest};
use super::LOOP_NAME;
use super::{MaterializedLoop, Planner};
use crate::script::ANY_OP;
use schedule_lang::model::{Model, Stage};

impl<'a> Planner<'a> {
    /// Emits the runs of `nest` on the op `handle`, inside the loops
    /// `containing` already materialized; `init`, the fill of the op's init
    /// taken before, is computed in the first run's forall (a broadcast in
    /// each leading forall run's, a fill in those down to a small whole
    /// tile, [`super::init`]).
    /// Returns the handle to the tiled op and the loops around it,
    /// `containing` first, or `None` when the op was split at a tail (each
    /// part planned itself).
    pub(super) fn materialize(
        &mut self,
        func: usize,
        stage_index: usize,
        mut handle: String,
        nest: &Nest<'a>,
        mut containing: Vec<MaterializedLoop>,
        mut init: Option<InitFill>,
    ) -> Option<(String, Vec<MaterializedLoop>)> {
        let model: &'a Model = self.model;
        let stage = &model.funcs[func].stages[stage_index];
        let loops = nest.loops;
        for run in &nest.runs {
            if let Some(tail) = nest.tail.as_ref().filter(|t| t.at == run[0]) {
                self.split_tail(func, stage_index, &handle, tail, &containing);
                return None;
            }
            let forall = uses_forall(stage, &loops[run[0]]);
            // A forall with one iteration along some of its dimensions and more
            // along others is rebuilt by MLIR's canonicalization, which clones
            // its body: every handle to an op inside (the tiled op's) would be
            // dropped, and the op left scalar. Such a loop is left out of the
            // forall instead (tile size 0: the whole extent, as one iteration).
            let unit_left_out = forall && run.iter().any(|&i| nest.trips[i] != Some(1));
            let sizes: Vec<String> = (0..stage.dims.len())
                .map(|d| {
                    let tiled = run.iter().find(|&&i| loops[i].dim == d);
                    let tiled = tiled.filter(|&&i| !(unit_left_out && nest.trips[i] == Some(1)));
                    tiled.map_or(0, |&i| nest.tile_sizes[i]).to_string()
                })
                .collect();
            self.transformed = true;
            let (tiled, new_loop) = if forall {
                self.tile_forall_run(func, stage_index, &handle, nest, run, &sizes)
            } else {
                self.tile_for_run(func, stage_index, &handle, nest, run, &sizes)
            };
            containing.push(new_loop);
            handle = tiled;
            if let Some(mut fill) = init.take().filter(|_| forall) {
                let forall = containing
                    .last_mut()
                    .expect("the run's loop was just pushed");
                self.fuse_init_fill(&mut fill, forall);
                if fill.foralls_left > 0 {
                    init = Some(fill);
                }
            }
            let last = *run.last().expect("a run has loops");
            let at = loops[last].visible_name().to_string();
            self.plan_packs(func, stage_index, &at, &mut handle, &nest.after[last]);
            self.plan_write_buffer(func, stage_index, &at, &mut handle, &nest.after[last]);
            self.plan_reuse_buffers(
                func,
                stage_index,
                &at,
                &handle,
                &containing,
                &nest.after[last],
            );
            let innermost = containing
                .last()
                .expect("the run's loop was just pushed")
                .clone();
            self.plan_prefetches(func, stage_index, &innermost, &nest.after[last]);
            if nest.targets[last] {
                let region = nest.after[last].clone();
                self.fuse_producers(func, stage, &loops[last], &mut containing, region);
            }
        }
        Some((handle, containing))
    }

    /// The loop names of a run, a fresh name for the op it tiles, and the
    /// tiling op's location (the loop order's directive, or the first loop's);
    /// says in the script which loops the run makes, as `kind`.
    fn start_run(
        &mut self,
        func: usize,
        stage_index: usize,
        nest: &Nest<'a>,
        run: &[usize],
        kind: &str,
    ) -> (Vec<&'a str>, String, Option<(usize, usize)>) {
        let model: &'a Model = self.model;
        let stage = &model.funcs[func].stages[stage_index];
        let loops = nest.loops;
        let names: Vec<&'a str> = run.iter().map(|&i| loops[i].name.as_str()).collect();
        let tiled = self
            .script
            .fresh(&format!("{}_tiled", model.funcs[func].name));
        let location = self.at(stage.order_span.unwrap_or(loops[run[0]].span));
        let name = self.stage_name(func, stage_index);
        self.script
            .comment(format!("{name}: loop(s) {} ({kind})", names.join(", ")));
        (names, tiled, location)
    }

    /// Tiles a run over parallel dimensions into one `scf.forall`.
    fn tile_forall_run(
        &mut self,
        func: usize,
        stage_index: usize,
        handle: &str,
        nest: &Nest<'a>,
        run: &[usize],
        sizes: &[String],
    ) -> (String, MaterializedLoop) {
        let stage = &self.model.funcs[func].stages[stage_index];
        let loops = nest.loops;
        let (names, tiled, location) = self.start_run(func, stage_index, nest, run, "scf.forall");
        for group in nest
            .groups
            .iter()
            .filter(|g| run.iter().filter(|i| g.contains(i)).count() > 1)
        {
            let fused = loops[group.start].fused.as_ref().expect("a group is fused");
            self.script.comment(format!(
                "fuse: {} is this forall's iteration space over their dimensions",
                fused.name
            ));
        }
        let unit: Vec<&str> = run
            .iter()
            .filter(|&&i| nest.trips[i] == Some(1))
            .map(|&i| loops[i].name.as_str())
            .collect();
        if unit.len() < run.len() && !unit.is_empty() {
            self.script.comment(format!(
                "{}: one iteration, left out of the forall's tile sizes (a forall with some \
                 unit dimensions is rebuilt by cloning its body, which drops handles)",
                unit.join(", ")
            ));
        }
        let forall = self.script.fresh(&names.join("_"));
        self.script.op(
            format!(
                "%{tiled}, %{forall} = transform.structured.tile_using_forall %{handle} \
                 tile_sizes [{}] : ({ANY_OP}) -> ({ANY_OP}, {ANY_OP})",
                sizes.join(", ")
            ),
            location,
        );
        self.queue_parallel(loops, run, &forall);
        self.name_loop(func, stage_index, &forall, &names.join(", "), location);
        for &i in run {
            self.queue_pipeline(&loops[i], &forall);
        }
        let last = *run.last().expect("a run has loops");
        let ivs = (0..stage.dims.len())
            .filter_map(|d| {
                let tiling = run
                    .iter()
                    .find(|&&i| loops[i].dim == d && nest.trips[i] != Some(1));
                tiling.map(|&i| (d, nest.tile_sizes[i]))
            })
            .collect();
        let dynamic_loop = run
            .iter()
            .find(|&&i| nest.trips[i].is_none())
            .map(|&i| loops[i].name.clone());
        let new_loop = MaterializedLoop {
            handle: forall,
            name: loops[last].visible_name().to_string(),
            region: nest.after[last].clone(),
            op: stage.op,
            ivs: Some(ivs),
            dynamic_loop,
        };
        (tiled, new_loop)
    }

    /// Tiles a run of sequential loops into a nest of `scf.for`s, coalescing
    /// the fused loops at its end, and queues their hoisting and unrolling.
    fn tile_for_run(
        &mut self,
        func: usize,
        stage_index: usize,
        handle: &str,
        nest: &Nest<'a>,
        run: &[usize],
        sizes: &[String],
    ) -> (String, MaterializedLoop) {
        let stage: &Stage = &self.model.funcs[func].stages[stage_index];
        let loops = nest.loops;
        let (names, mut tiled, location) = self.start_run(func, stage_index, nest, run, "scf.for");
        let loop_handles: Vec<String> = names.iter().map(|n| self.script.fresh(n)).collect();
        self.tile_using_for(&tiled, &loop_handles, handle, sizes, location);
        for ((loop_handle, name), &i) in loop_handles.iter().zip(&names).zip(run) {
            self.name_loop(func, stage_index, loop_handle, name, location);
            if nest.trips[i] != Some(1) {
                self.queue_pipeline(&loops[i], loop_handle);
            }
        }
        // The fused components at the end of the run, coalesced into one loop.
        let last = *run.last().expect("a run has loops");
        let components: Vec<usize> = nest.group_of(last).map_or(Vec::new(), |g| {
            run.iter().copied().filter(|i| g.contains(i)).collect()
        });
        let coalesced = if components.len() > 1 {
            let (fused_handle, retiled) =
                self.coalesce_fused(func, stage_index, nest, run, &components, &loop_handles);
            tiled = retiled;
            Some(fused_handle)
        } else {
            None
        };
        for (&i, loop_handle) in run.iter().zip(&loop_handles) {
            if coalesced.is_some() && components.contains(&i) {
                continue;
            }
            // A loop of one iteration (kept as a pack or compute_at point) is
            // folded away by the cleanups before hoisting: no handle may
            // outlive it, and there is nothing to hoist or unroll.
            if nest.trips[i] == Some(1) {
                continue;
            }
            // Every loop of the nest, unrolled ones too: hoisting from an
            // outer loop across an inner loop that kept its subset ops
            // leaves the inner loop's partial sums out (wrong results).
            self.late.hoist.push(loop_handle.clone());
            self.plan_unroll(&loops[i], loop_handle, nest.trips[i]);
        }
        let innermost = match coalesced {
            Some(fused_handle) => {
                self.late.hoist.push(fused_handle.clone());
                self.plan_fused_unroll(nest, &components, &fused_handle);
                fused_handle
            }
            None => loop_handles.last().expect("a run has loops").clone(),
        };
        let new_loop = MaterializedLoop {
            handle: innermost,
            name: loops[last].visible_name().to_string(),
            region: nest.after[last].clone(),
            op: stage.op,
            ivs: None,
            dynamic_loop: None,
        };
        (tiled, new_loop)
    }

    /// Emits `tile_using_for` of `handle` with `sizes` (one per dimension),
    /// naming the tiled op `tiled` and the loops `loops` (one per non-zero size).
    pub(super) fn tile_using_for(
        &mut self,
        tiled: &str,
        loops: &[String],
        handle: &str,
        sizes: &[String],
        location: Option<(usize, usize)>,
    ) {
        let results: Vec<String> = loops.iter().map(|l| format!("%{l}")).collect();
        let types = vec![ANY_OP; loops.len() + 1].join(", ");
        self.script.op(
            format!(
                "%{tiled}, {} = transform.structured.tile_using_for %{handle} tile_sizes [{}] : \
                 ({ANY_OP}) -> ({types})",
                results.join(", "),
                sizes.join(", ")
            ),
            location,
        );
    }

    /// With [`super::PlanOptions::name_loops`], annotates a loop the script
    /// just made with its stage and the schedule's names of the loops it
    /// holds (`sched.loop = "relu: n, y, xo"`), so `explain` can map the
    /// generated IR back.
    pub(super) fn name_loop(
        &mut self,
        func: usize,
        stage_index: usize,
        handle: &str,
        names: &str,
        location: Option<(usize, usize)>,
    ) {
        if self.options.name_loops {
            let value = format!("\"{}: {names}\"", self.stage_name(func, stage_index));
            self.script
                .annotate(handle, LOOP_NAME, &value, "loop_name", location);
        }
    }
}
