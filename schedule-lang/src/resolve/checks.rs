//! Checks that need the whole schedule, made once every chain is applied:
//! `compute_at` placements (no cycles, the consumer uses the producer), the
//! loops packs and prefetches name, and loop orders.

use super::loops::{loop_names, stage_label};
use super::warnings;
use super::Resolver;
use crate::diagnostic::{did_you_mean, Diagnostic};
use crate::model::Placement;
use std::collections::HashSet;

impl Resolver<'_> {
    /// Each `compute_at` must form no cycle, and the consumer (or a func computed
    /// inside it) must use the producer's result.
    pub(super) fn check_placements(&mut self) {
        let count = self.funcs.len();
        let inlined: HashSet<usize> = self
            .funcs
            .values()
            .filter(|state| matches!(state.model.placement, Placement::Inline { .. }))
            .flat_map(|state| state.model.stages.iter().map(|s| s.op))
            .collect();
        for func in 0..count {
            let Placement::At { consumer, span, .. } = self.funcs[func].model.placement.clone()
            else {
                continue;
            };
            let mut seen = vec![func];
            let mut cursor = consumer;
            let mut cyclic = false;
            while let Placement::At { consumer: next, .. } = &self.funcs[cursor].model.placement {
                if seen.contains(&cursor) {
                    cyclic = true;
                    break;
                }
                seen.push(cursor);
                cursor = *next;
            }
            if cyclic || seen.contains(&cursor) && cursor == func {
                self.errors.push(Diagnostic::error(
                    "compute-at-cycle",
                    span,
                    format!(
                        "`compute_at` makes a cycle through `{}`",
                        self.funcs[func].model.name
                    ),
                ));
                continue;
            }
            // Ops that run inside the consumer's loop: the consumer's and those of funcs placed inside it.
            // (Sets: a chain of n producers placed in one consumer checks n
            // funcs against n ops each.)
            let mut inside: HashSet<usize> = HashSet::new();
            for (other, state) in self.funcs.values().enumerate() {
                if other != func && (other == consumer || self.placed_inside(other, consumer)) {
                    inside.extend(state.model.stages.iter().map(|s| s.op));
                }
            }
            // An inlined func read inside runs there too, as part of its
            // readers: follow the operands of the ops inside to inlined
            // producers (each edge once).
            let mut work: Vec<usize> = inside.iter().copied().collect();
            while let Some(reader) = work.pop() {
                let Some(reader) = self.payload.ops.get(reader) else {
                    continue;
                };
                for producer in reader.operands.iter().filter_map(|o| o.producer) {
                    if inlined.contains(&producer) && inside.insert(producer) {
                        work.push(producer);
                    }
                }
            }
            let own: HashSet<usize> = self.funcs[func].model.stages.iter().map(|s| s.op).collect();
            let used = self
                .payload
                .ops
                .iter()
                .filter(|op| inside.contains(&op.id))
                .any(|op| {
                    op.operands
                        .iter()
                        .any(|o| o.producer.is_some_and(|p| own.contains(&p)))
                });
            let views: Vec<&str> = self
                .payload
                .ops
                .iter()
                .filter(|op| inside.contains(&op.id))
                .flat_map(|op| op.operands.iter())
                .filter(|o| o.producer.is_some_and(|p| own.contains(&p)) && !o.via.is_empty())
                .map(|o| o.via[0].as_str())
                .collect();
            // A sliding window (`store_at`) reads all the views from one buffer.
            if views.len() > 1 && self.funcs[func].model.stored_at.is_none() {
                let Placement::At { loop_name, .. } = &self.funcs[func].model.placement else {
                    unreachable!("matched above")
                };
                let model = &self.funcs[func].model;
                self.notes.push(
                    Diagnostic::note(
                        "compute-per-view",
                        span,
                        format!(
                            "`{}` reads `{}` through {} views ({}): each iteration of `{loop_name}` \
                             computes it once over the box covering the slices it reads, when that \
                             box is no larger than the slices together (else once per view)",
                            self.funcs[consumer].model.name,
                            model.name,
                            views.len(),
                            views.join(", ")
                        ),
                    )
                    .with_help(
                        "where the boxes of two iterations overlap (a stencil's shifted rows), the \
                         next iteration computes the overlap again; `store_at` at the loop just \
                         outside keeps it for the next instead (a sliding window)",
                    ),
                );
            }
            if !used {
                let model = &self.funcs[func].model;
                self.errors.push(
                    Diagnostic::error("not-a-producer", span, format!("`{}` does not feed `{}`", model.name, self.funcs[consumer].model.name))
                        .with_help("`compute_at(f, loop)` needs `f` (or a func computed inside `f`) to use this func's result"),
                );
            }
        }
    }

    pub(super) fn placed_inside(&self, func: usize, consumer: usize) -> bool {
        let mut cursor = func;
        for _ in 0..self.funcs.len() {
            match &self.funcs[cursor].model.placement {
                Placement::At { consumer: next, .. } if *next == consumer => return true,
                Placement::At { consumer: next, .. } => cursor = *next,
                Placement::Root | Placement::Inline { .. } => return false,
            }
        }
        false
    }

    /// A `pack` or `prefetch` loop must enclose the stage: one of its own
    /// loops, or a loop of the func it is computed in, at or outside the
    /// `compute_at` loop.
    pub(super) fn check_operand_loops(&mut self) {
        let mut errors = Vec::new();
        for state in self.funcs.values() {
            let model = &state.model;
            for stage in &model.stages {
                for (pack, verb) in stage
                    .packs
                    .iter()
                    .map(|p| (p, "pack"))
                    .chain(stage.prefetches.iter().map(|p| (p, "prefetch")))
                {
                    if stage.find_loop(&pack.loop_name).is_some() {
                        continue;
                    }
                    let outer: Vec<String> = match &model.placement {
                        Placement::At {
                            consumer,
                            loop_name,
                            ..
                        } => {
                            let last = self.funcs[*consumer]
                                .model
                                .stages
                                .last()
                                .expect("a func has a stage");
                            let units = last.visible_loops();
                            let until = units
                                .iter()
                                .position(|u| last.loops[u.start].visible_name() == loop_name)
                                .map_or(0, |p| p + 1);
                            units[..until]
                                .iter()
                                .map(|u| last.loops[u.start].visible_name().to_string())
                                .collect()
                        }
                        Placement::Root | Placement::Inline { .. } => Vec::new(),
                    };
                    if outer.contains(&pack.loop_name) {
                        continue;
                    }
                    let label = stage_label(stage, &model.name);
                    let mut candidates: Vec<String> = outer.clone();
                    candidates.extend(
                        stage
                            .visible_loops()
                            .into_iter()
                            .map(|u| stage.loops[u.start].visible_name().to_string()),
                    );
                    let mut error = Diagnostic::error(
                        "unknown-loop",
                        pack.loop_span,
                        format!("`{}` is not a loop around {label}", pack.loop_name),
                    )
                    .with_label("not a loop around it");
                    error = match did_you_mean(
                        &pack.loop_name,
                        candidates.iter().map(String::as_str),
                    ) {
                        Some(close) => error.with_help(format!("did you mean `{close}`?")),
                        None => error.with_help(format!(
                            "{verb} at one of {label}'s loops ({}){}",
                            loop_names(stage),
                            if outer.is_empty() {
                                String::new()
                            } else {
                                format!(
                                    " or of the loops it is computed in: {}",
                                    outer
                                        .iter()
                                        .map(|l| format!("`{l}`"))
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                )
                            }
                        )),
                    };
                    errors.push(error);
                }
            }
        }
        self.errors.extend(errors);
    }

    /// The planner materializes loops by tiling, so the loops of one dimension
    /// must stay nested outer-to-inner in split order.
    pub(super) fn check_loop_orders(&mut self) {
        for state in self.funcs.values() {
            for stage in &state.model.stages {
                for (position, inner) in stage.loops.iter().enumerate() {
                    let misplaced = stage.loops[position + 1..]
                        .iter()
                        .find(|outer| outer.dim == inner.dim && outer.step > inner.step);
                    if let Some(outer) = misplaced {
                        let blame = stage.order_span.unwrap_or(outer.span);
                        self.errors.push(
                            Diagnostic::error("split-order", blame, format!("this order puts `{}` outside `{}`, but both iterate `{}` and `{}` was split inside `{}`", inner.name, outer.name, stage.dims[inner.dim].name, inner.name, outer.name))
                                .with_help("loops are materialized by tiling, so the inner part of a split must stay inside its outer part"),
                        );
                    }
                }
            }
        }
    }

    /// Warns about register tiles too large for the vector registers, once
    /// per directive (the ops a `[*]` func binds share them). Only for funcs
    /// in their own loop nest: a func computed at a consumer's loop covers
    /// the tile that loop reads, which its own loops do not say.
    pub(super) fn warn_register_tiles(&mut self) {
        let mut warnings: Vec<Diagnostic> = Vec::new();
        for state in self.funcs.values() {
            let model = &state.model;
            if model.placement != Placement::Root {
                continue;
            }
            for stage in &model.stages {
                let element = stage.op(self.payload).element();
                let Some(warning) = element
                    .and_then(|e| warnings::register_tile_spills(stage, e, &model.name, self.unit))
                else {
                    continue;
                };
                if !warnings.iter().any(|w| w.span == warning.span) {
                    warnings.push(warning);
                }
            }
        }
        self.warnings.extend(warnings);
    }

    /// Warns about packs repeated by loops outside them that their tile
    /// does not depend on, once per directive.
    pub(super) fn warn_repeated_packs(&mut self) {
        let mut warnings: Vec<Diagnostic> = Vec::new();
        for state in self.funcs.values() {
            let model = &state.model;
            for stage in &model.stages {
                let op = stage.op(self.payload);
                for pack in &stage.packs {
                    let Some(warning) = warnings::repeated_pack(stage, op, pack, &model.name)
                    else {
                        continue;
                    };
                    if !warnings.iter().any(|w| w.span == warning.span) {
                        warnings.push(warning);
                    }
                }
            }
        }
        self.warnings.extend(warnings);
    }

    /// Warns about parallel loops nested in another parallel loop: of the
    /// same stage, or of the consumer a func is computed in.
    pub(super) fn warn_nested_parallel(&mut self) {
        let mut warnings = Vec::new();
        for state in self.funcs.values() {
            let model = &state.model;
            let outside = match &model.placement {
                Placement::At {
                    consumer,
                    loop_name,
                    ..
                } => {
                    let consumer = &self.funcs[*consumer].model;
                    let last = consumer.stages.last().expect("a func has a stage");
                    let until = last.find_loop(loop_name).map_or(0, |r| r.end);
                    last.loops[..until]
                        .iter()
                        .find(|l| l.parallel.is_some())
                        .map(|l| (l, consumer.name.as_str()))
                }
                _ => None,
            };
            for stage in &model.stages {
                for (inner, outer) in
                    warnings::nested_parallel_loops(stage, outside.map(|(l, _)| l))
                {
                    let outer_func = outside
                        .filter(|(l, _)| l.name == outer.name && l.parallel == outer.parallel)
                        .map(|(_, f)| f);
                    warnings.push(warnings::nested_parallel(&inner, &outer, outer_func));
                }
            }
        }
        self.warnings.extend(warnings);
    }
}
