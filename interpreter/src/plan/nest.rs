//! The loop-nest walk: for one stage, from the loops the schedule asks for
//! (outermost first) to a [`Nest`], the plain data the other steps read: each
//! loop's trip count and tile size, the stage's tile after each loop, the
//! `compute_at` and `pack` points, which innermost loops stay implicit in the
//! tiled op, and the tiling runs. It emits nothing.
//!
//! Implicit loops: in a vectorized stage, the innermost loops that are
//! vectorized or unrolled stay in the tile (they become one
//! multi-dimensional vector op, whose lowering unrolls it; see
//! [`super::vector`]); otherwise the innermost unit-step loops already in the
//! op's own order do. The other loops are materialized by tiling, one tiling
//! op per run of loops whose dimensions come in the op's order; loops of one
//! iteration are skipped unless something is placed at them. Loops over
//! parallel dimensions become `scf.forall`, loops over reduction dimensions
//! and loops to unroll `scf.for`, and a run holds loops of one kind only
//! (and, among foralls, either only loops marked `parallel` or none).

use super::{ceil_div, Planner, Region};
use schedule_lang::model::{Loop, Placement, Stage};
use std::ops::Range;

/// What the walk decided for one stage, from loop `start` on.
pub(super) struct Nest<'a> {
    /// The stage's loops, outermost first.
    pub loops: &'a [Loop],
    /// Loops before `start` are materialized already (a resumed stage).
    pub start: usize,
    /// The stage's tile entering the first loop.
    pub region: Region,
    /// Iterations of each loop; `None` when not static.
    pub trips: Vec<Option<i64>>,
    /// Tile size of each loop: its step, or the whole extent when smaller
    /// (a loop of one iteration kept as a `compute_at` or `pack` point).
    pub tile_sizes: Vec<i64>,
    /// The stage's tile inside each loop.
    pub after: Vec<Region>,
    /// Ranges of `loops` joined by `fuse`.
    pub groups: Vec<Range<usize>>,
    /// Whether loop `i` is where producers are computed (`compute_at`).
    pub targets: Vec<bool>,
    /// Whether loop `i` is where a pack copies.
    pub pack_points: Vec<bool>,
    /// Whether any loop is vectorized.
    pub vector_mode: bool,
    /// Loops from this one on stay implicit in the tiled op.
    pub first_implicit: usize,
    /// In a vectorized stage, the loop whose last tile is partial, where
    /// the op is split in two.
    pub tail: Option<Tail>,
    /// The loops to tile, outermost first.
    pub materialized: Vec<usize>,
    /// The tiling runs: loops tiled by one op each.
    pub runs: Vec<Vec<usize>>,
}

/// Whether a loop is materialized as `scf.forall` (independent iterations over
/// a parallel dimension, not unrolled) rather than `scf.for`.
/// A loop carrying a reuse buffer (`reuse_at`) is sequential.
pub(super) fn uses_forall(stage: &Stage, the_loop: &Loop) -> bool {
    !stage.dims[the_loop.dim].reduction
        && the_loop.unroll.is_none()
        && !reuses_at(stage, the_loop.visible_name())
}

/// Whether `stage` keeps a reuse buffer at the loop named `name` (which
/// must then be a sequential loop).
pub(super) fn reuses_at(stage: &Stage, name: &str) -> bool {
    stage.reuse_buffers.iter().any(|r| r.loop_name == name)
}

/// A loop whose last tile is partial, in a stage that must have static tiles.
pub(super) struct Tail {
    /// Index of the loop in the stage's loops.
    pub at: usize,
    /// The stage's tile entering that loop.
    pub region: Region,
    /// The split dimension.
    pub dim: usize,
    /// The dimension's extent there.
    pub extent: i64,
    /// The extent of the whole tiles.
    pub whole: i64,
}

impl Nest<'_> {
    /// Why the loop named `at` is not a loop of the generated code, so that no
    /// buffer (`buffer_at`, `reuse_at`) can be placed at it.
    pub(super) fn why_not_a_loop(&self, at: &str) -> String {
        match self.loops.iter().position(|l| l.visible_name() == at) {
            Some(i) if i >= self.first_implicit => format!(
                "`{at}` stays inside the op's tile (or the vector op), so it is not a loop of the \
                 generated code"
            ),
            Some(_) => format!("`{at}` has one iteration, so it is not a loop of the generated code"),
            None => format!(
                "`{at}` is tiled together with the loops inside it into one loop nest, so no buffer \
                 can be placed between them"
            ),
        }
    }

    /// The fused group loop `i` belongs to, if any.
    pub fn group_of(&self, i: usize) -> Option<Range<usize>> {
        self.groups.iter().find(|g| g.contains(&i)).cloned()
    }

    /// Whether loop `i` ends a loop as directives see it (a fused loop is a
    /// `compute_at` or `pack` point at its innermost component).
    fn ends_visible_loop(&self, i: usize) -> bool {
        self.group_of(i).is_none_or(|g| g.end == i + 1)
    }

    /// The stage's tile entering loop `i`.
    pub fn entering(&self, i: usize) -> &Region {
        if i == 0 {
            &self.region
        } else {
            &self.after[i - 1]
        }
    }

    /// Keeps the innermost unit-step loops in the op's dimension order
    /// implicit (a stage that is not vectorized), up to the innermost loop
    /// something is placed at.
    pub fn keep_plain_loops_implicit(&mut self) {
        let mut lowest_dim = usize::MAX;
        while self.first_implicit > 0 {
            let i = self.first_implicit - 1;
            let l = &self.loops[i];
            // Fused loops are materialized, so they become one loop.
            let plain = l.step == 1 && l.unroll.is_none() && l.parallel.is_none();
            // A loop that computes a producer, or places a pack or a write
            // buffer, is materialized, and so are the loops around it.
            let placed = self.targets[i] || self.pack_points[i];
            if plain && l.fused.is_none() && l.dim < lowest_dim && !placed {
                lowest_dim = l.dim;
                self.first_implicit -= 1;
            } else {
                break;
            }
        }
    }

    /// Picks the loops to materialize and groups them into tiling runs.
    pub fn group_runs(&mut self, stage: &Stage) {
        let loops = self.loops;
        self.materialized = (self.start..self.first_implicit)
            .filter(|&i| self.trips[i] != Some(1) || self.targets[i] || self.pack_points[i])
            .collect();
        let mut runs: Vec<Vec<usize>> = Vec::new();
        for &i in &self.materialized {
            let l = &loops[i];
            let extend = runs.last().is_some_and(|run: &Vec<usize>| {
                let last_index = *run.last().expect("runs are never empty");
                let last = &loops[last_index];
                // A fused scf.for nest is coalesced from its outermost loop down,
                // so nothing may be tiled inside it in the same run.
                let ends_fused_for = !uses_forall(stage, last)
                    && self
                        .group_of(last_index)
                        .is_some_and(|g| g.end == last_index + 1);
                let at_tail = self.tail.as_ref().is_some_and(|t| t.at == i);
                let placed_at = self.targets[last_index] || self.pack_points[last_index];
                // `parallel` marks one loop, as in Halide: a marked loop and an
                // unmarked one become nested foralls, each all parallel or not.
                let same_parallel = last.parallel.is_some() == l.parallel.is_some();
                !placed_at
                    && !ends_fused_for
                    && !at_tail
                    && uses_forall(stage, last) == uses_forall(stage, l)
                    && same_parallel
                    && l.dim > last.dim
            });
            if extend {
                runs.last_mut().expect("checked above").push(i);
            } else {
                runs.push(vec![i]);
            }
        }
        self.runs = runs;
    }
}

impl<'a> Planner<'a> {
    /// Walks a stage's loops from `start` on, with `region` its tile entering
    /// the first loop: trip counts, tile sizes, tiles, `compute_at` and pack
    /// points. No loop is implicit yet and there are no runs.
    pub(super) fn walk(
        &self,
        func: usize,
        stage_index: usize,
        start: usize,
        region: &Region,
    ) -> Nest<'a> {
        let model = self.model;
        let model_func = &model.funcs[func];
        let stage = &model_func.stages[stage_index];
        let loops: &'a [Loop] = &stage.loops;
        let is_last = stage_index + 1 == model_func.stages.len();
        let groups: Vec<Range<usize>> = stage
            .visible_loops()
            .into_iter()
            .filter(|unit| unit.len() > 1)
            .collect();
        // A `pack` copies at the end of a tiling run: this stage's packs, and
        // those of the funcs computed inside this one at its loops.
        // A write buffer (`buffer_at`) and a reuse buffer (`reuse_at`) are
        // placed the same way.
        let mut pack_loops: Vec<&str> = stage
            .packs
            .iter()
            .map(|p| p.loop_name.as_str())
            .chain(stage.write_buffer.iter().map(|b| b.loop_name.as_str()))
            .chain(stage.reuse_buffers.iter().map(|r| r.loop_name.as_str()))
            .collect();
        if is_last {
            for other in &model.funcs {
                if matches!(other.placement, Placement::At { consumer, .. } if consumer == func) {
                    let packs = other.stages.iter().flat_map(|s| s.packs.iter());
                    pack_loops.extend(packs.map(|p| p.loop_name.as_str()));
                }
            }
        }
        let mut nest = Nest {
            loops,
            start,
            region: region.clone(),
            trips: Vec::new(),
            tile_sizes: Vec::new(),
            after: Vec::new(),
            groups,
            targets: Vec::new(),
            pack_points: Vec::new(),
            vector_mode: loops.iter().any(|l| l.vectorize.is_some()),
            first_implicit: loops.len(),
            tail: None,
            materialized: Vec::new(),
            runs: Vec::new(),
        };
        for (i, l) in loops.iter().enumerate() {
            let name = l.visible_name();
            let ends = nest.ends_visible_loop(i);
            let target = is_last && !self.producers_at(func, name).is_empty();
            nest.targets.push(target && ends);
            nest.pack_points.push(pack_loops.contains(&name) && ends);
        }
        let mut current = region.clone();
        for (i, l) in loops.iter().enumerate() {
            if i < start {
                nest.trips.push(Some(1));
                nest.tile_sizes.push(l.step);
                nest.after.push(current.clone());
                continue;
            }
            let extent = current[l.dim];
            nest.trips.push(extent.map(|e| ceil_div(e, l.step)));
            nest.tile_sizes
                .push(extent.map_or(l.step, |e| e.min(l.step)));
            current[l.dim] = match extent {
                Some(e) if e <= l.step => Some(e),
                Some(e) if e % l.step == 0 => Some(l.step),
                // One element per iteration, whatever the extent.
                None if l.step == 1 => Some(1),
                _ => None,
            };
            nest.after.push(current.clone());
        }
        nest
    }

    /// Decides which innermost loops stay implicit in the tiled op (and, in a
    /// vectorized stage, where a partial tile is split off). False after an
    /// error.
    pub(super) fn choose_implicit_loops(
        &mut self,
        func: usize,
        stage_index: usize,
        nest: &mut Nest,
    ) -> bool {
        if nest.vector_mode {
            self.keep_vector_tile_implicit(func, stage_index, nest)
        } else {
            nest.keep_plain_loops_implicit();
            true
        }
    }
}
