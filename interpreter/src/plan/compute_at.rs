//! `compute_at(consumer, loop)`: a producer computed inside a consumer's
//! loop. Right after the tiling run that ends at that loop, each producer
//! func (the nearest consumer's first) is fused into every loop materialized
//! so far, outermost first (`sched.fuse_into`, see `views::fuse_into`), and then
//! its own loops are planned inside, on the region the consumer's tile needs.
//! A producer that initializes what the consumer accumulates cannot be
//! computed inside one of the consumer's reduction or unrolled loops.
//! Chains work the same way down: a producer computed inside a producer is
//! fused into every loop around it, its consumer's consumer's loops first.
//! A producer's unnamed zero init goes with it into each loop ([`super::init`]).

use super::{MaterializedLoop, Planner, Region, Resume};
use schedule_lang::model::{Loop, Placement, Stage};
use schedule_lang::{Diagnostic, MapResult, Span};

impl Planner<'_> {
    /// Funcs computed at loop `loop_name` of `func`, the nearest consumer first.
    pub(super) fn producers_at(&self, func: usize, loop_name: &str) -> Vec<usize> {
        let mut producers: Vec<usize> = self
            .model
            .funcs
            .iter()
            .enumerate()
            .filter(|(_, f)| {
                matches!(&f.placement, Placement::At { consumer, loop_name: l, .. }
                    if *consumer == func && l == loop_name)
            })
            .map(|(i, _)| i)
            .collect();
        let last_op = |f: usize| {
            self.model.funcs[f]
                .stages
                .iter()
                .map(|s| s.op)
                .max()
                .unwrap_or(0)
        };
        producers.sort_by_key(|&f| std::cmp::Reverse(last_op(f)));
        producers
    }

    /// The `compute_at` call of a func (its declaration when computed at root).
    pub(super) fn compute_at_span(&self, func: usize) -> Span {
        match &self.model.funcs[func].placement {
            Placement::At { span, .. } | Placement::Inline { span } => *span,
            Placement::Root => self.model.funcs[func].span,
        }
    }

    /// Fuses the funcs computed at `target` into the loops materialized so
    /// far, then plans their own loops. `region` is the consumer's tile there.
    pub(super) fn fuse_producers(
        &mut self,
        func: usize,
        stage: &Stage,
        target: &Loop,
        containing: &mut [MaterializedLoop],
        region: Region,
    ) {
        let loop_name = target.name.as_str();
        // The target itself, or a loop around it, may iterate a reduction.
        let target_index = stage
            .loops
            .iter()
            .position(|l| l.name == target.name)
            .unwrap_or(0);
        let reduction_loop = stage.loops[..=target_index]
            .iter()
            .rev()
            .find(|l| stage.dims[l.dim].reduction);
        let mut fused = Vec::new();
        // Per containing loop, the tiles there of the consumer and of the
        // producers fused so far (for the tile shapes of their packs).
        // A loop of a consumer further out (this stage is itself computed
        // inside it) holds that consumer's tile: this stage's is derived from it.
        let mut known_at: Vec<Vec<(usize, Region)>> = containing
            .iter()
            .map(|l| {
                let mut known = vec![(l.op, l.region.clone())];
                if l.op != stage.op {
                    known.push((stage.op, self.derive_region(stage.op, &known)));
                }
                known
            })
            .collect();
        for producer in self.producers_at(func, loop_name) {
            // A sliding window (`store_at`) computes it ([`super::sliding`]).
            if self.model.funcs[producer].stored_at.is_some() {
                continue;
            }
            let span = self.compute_at_span(producer);
            let feeds_init = self.model.funcs[producer].stages.iter().any(|s| {
                let operands = &self.payload.ops[stage.op].operands;
                operands
                    .iter()
                    .any(|o| o.is_init && o.producer == Some(s.op))
            });
            if let (Some(reduction_loop), true) = (reduction_loop, feeds_init) {
                self.refuse_inside(func, producer, target, reduction_loop, stage, span);
                continue;
            }
            // An unrolled loop is an `scf.for` whose accumulator is loop-carried:
            // fusion cannot reach the init through it.
            let sequential = containing.iter().filter(|l| l.ivs.is_none()).find_map(|l| {
                stage
                    .loops
                    .iter()
                    .find(|s| s.visible_name() == l.name && s.unroll.is_some())
            });
            if let (Some(unrolled), true) = (sequential, feeds_init) {
                self.refuse_inside(func, producer, target, unrolled, stage, span);
                continue;
            }
            for producer_stage in (0..self.model.funcs[producer].stages.len()).rev() {
                let mut handle = self.stage_handles[&(producer, producer_stage)].clone();
                self.script.comment(format!(
                    "compute_at: {} inside loop {loop_name} of {}",
                    self.stage_name(producer, producer_stage),
                    self.model.funcs[func].name
                ));
                let op = self.model.funcs[producer].stages[producer_stage].op;
                let mut views = 0;
                if let Some(outermost) = containing.first_mut() {
                    let mut readers = vec![stage.op];
                    readers.extend(fused.iter().map(|&(f, s, _): &(usize, usize, String)| {
                        self.model.funcs[f].stages[s].op
                    }));
                    let location = self.at(span);
                    views = self.fuse_views(op, &readers, outermost, location);
                }
                let reshaped = self.read_through_reshape(op, stage.op);
                let mut init = self.take_fused_init_fill(producer, producer_stage, &handle);
                for (containing_loop, known) in containing.iter_mut().zip(known_at.iter_mut()) {
                    let hint = format!("{}_fused", self.model.funcs[producer].name);
                    let location = self.at(span);
                    if reshaped {
                        let rewrite = "slice_through_reshapes";
                        self.before_fusion(rewrite, &handle, containing_loop, location);
                    }
                    if views > 1 {
                        self.before_fusion("union_slices", &handle, containing_loop, location);
                    }
                    handle = self.fuse_into(&handle, &hint, containing_loop, location);
                    if let Some(init) = init.as_mut() {
                        self.fuse_fill_into(init, containing_loop);
                    }
                    // A consumer's loops tile only the producer's parallel
                    // dimensions; its reductions are whole there.
                    let region_here = self.derive_region(op, known);
                    let at = containing_loop.name.clone();
                    self.plan_packs(producer, producer_stage, &at, &mut handle, &region_here);
                    self.plan_prefetches(producer, producer_stage, containing_loop, &region_here);
                    known.push((op, region_here));
                }
                // Its region in the innermost loop, pushed last there.
                let innermost = known_at.last().and_then(|known| known.last());
                if let (Some(init), Some((_, region))) = (init, innermost) {
                    self.finish_fused_init_fill(&init, producer, producer_stage, region);
                }
                fused.push((producer, producer_stage, handle));
            }
        }
        // Regions of the fused ops, derived from the ops that use them.
        let mut known: Vec<(usize, Region)> = vec![(stage.op, region)];
        for (producer, producer_stage, handle) in fused {
            let op = self.model.funcs[producer].stages[producer_stage].op;
            let region = self.derive_region(op, &known);
            known.push((op, region.clone()));
            // Inside the same loops, so producers computed inside it are
            // fused into these loops first, outermost first.
            let resume = Resume {
                start: 0,
                region,
                containing: containing.to_vec(),
                whole: false,
            };
            self.stage_from(producer, producer_stage, handle, resume);
        }
    }

    /// Refuses computing `producer`, which initializes what `func`
    /// accumulates, inside `target` when `blocking` (the target or a loop
    /// around it) iterates a reduction or is unrolled: either way the
    /// accumulator is carried from one iteration to the next.
    fn refuse_inside(
        &mut self,
        func: usize,
        producer: usize,
        target: &Loop,
        blocking: &Loop,
        stage: &Stage,
        span: Span,
    ) {
        let loop_name = &target.name;
        let producer_name = &self.model.funcs[producer].name;
        let consumer_name = &self.model.funcs[func].name;
        let where_ = if blocking.name == target.name {
            format!("`{loop_name}`")
        } else {
            format!("`{}`, a loop around `{loop_name}`,", blocking.name)
        };
        let (code, note_span, note, help) = if stage.dims[blocking.dim].reduction {
            let note = format!(
                "{where_} iterates reduction dimension `{}`, and `{producer_name}` initializes \
                 what `{consumer_name}` accumulates: it would be reset at every step",
                stage.dims[blocking.dim].name
            );
            let help = "compute it at a loop outside the reduction loops";
            ("compute-at-reduction", blocking.span, note, help)
        } else {
            let note = format!(
                "{where_} is unrolled, so it is a sequential loop that carries \
                 `{consumer_name}`'s accumulator from one iteration to the next, and \
                 `{producer_name}` initializes that accumulator: it cannot be computed inside"
            );
            let help = "compute it at a loop outside the unrolled loops, or vectorize the \
                        unrolled loops so they stay inside the tile";
            let at = blocking.unroll.unwrap_or(blocking.span);
            ("compute-at-unrolled", at, note, help)
        };
        self.errors.push(
            Diagnostic::error(
                code,
                span,
                format!(
                    "cannot compute `{producer_name}` inside `{loop_name}` of `{consumer_name}`"
                ),
            )
            .with_note(Some(note_span), note)
            .with_help(help),
        );
    }

    /// The region of `op` computed for the users in `known` (op, region).
    pub(super) fn derive_region(&self, op: usize, known: &[(usize, Region)]) -> Region {
        let producer = &self.payload.ops[op];
        let mut region = producer.extents.clone();
        let Some(output) = producer.operands.iter().find(|o| o.is_init) else {
            return region;
        };
        for (user, user_region) in known.iter().rev() {
            let operands = &self.payload.ops[*user].operands;
            let Some(operand) = operands.iter().find(|o| o.producer == Some(op)) else {
                continue;
            };
            let one_reading = operands
                .iter()
                .filter(|o| o.producer == Some(op))
                .all(|o| o.map == operand.map && o.via == operand.via);
            // Slices and casts keep positions and tile sizes; a pad's tile
            // is clipped at the edges, and a reshape regroups dimensions.
            let keeps_positions = operand.map.len() == output.map.len()
                && operand
                    .via
                    .iter()
                    .all(|v| v == "tensor.extract_slice" || v == "tensor.cast");
            for (position, result) in output.map.iter().enumerate() {
                if let MapResult::Dim(dim) = result {
                    if !keeps_positions {
                        region[*dim] = None;
                        continue;
                    }
                    let extent = |user_dim: usize| user_region.get(user_dim).copied().flatten();
                    region[*dim] = match operand.map.get(position) {
                        Some(MapResult::Dim(user_dim)) => extent(*user_dim),
                        // A window (`d2 * 2 + d5`) reads its span of the
                        // tile; reads at other offsets too (a stencil's
                        // `d1 + 1`, `d1 + 2`) would widen it.
                        Some(window @ MapResult::Expression(_)) if one_reading => {
                            window.footprint(extent)
                        }
                        _ => None,
                    };
                }
            }
            break;
        }
        region
    }
}
