//! `fuse(i, o, f)`: the loops a fused loop joins must become one loop of the
//! generated code. Either all its parts stay implicit in one vector op, or
//! one tiling op materializes them all: fused loops over parallel dimensions
//! share one multi-dimensional `scf.forall` (nothing to emit), and fused
//! `scf.for`s, which tiling makes a nest, are coalesced into one loop
//! (`loop.coalesce`). Anything else is refused at the `fuse` call.

use super::nest::{uses_forall, Nest};
use super::Planner;
use crate::script::ANY_OP;
use schedule_lang::model::Loop;
use schedule_lang::Diagnostic;

const ORDER_HELP: &str = "fuse loops of the same kind whose dimensions follow the op's order \
                          (linalg's d0, d1, …), outermost first";

impl Planner<'_> {
    /// Each fused loop must become one loop: all its components implicit in
    /// one vector op, or all materialized by one tiling op (one multi-dimensional
    /// `scf.forall`, or `scf.for`s coalesced into one). Reports the others.
    pub(super) fn check_fused(&mut self, func: usize, stage_index: usize, nest: &Nest) -> bool {
        let stage = &self.model.funcs[func].stages[stage_index];
        let name = self.stage_name(func, stage_index);
        let loops = nest.loops;
        let mut ok = true;
        for group in &nest.groups {
            let fused = loops[group.start].fused.as_ref().expect("a group is fused");
            let component = |i: usize| {
                let dim = &stage.dims[loops[i].dim].name;
                if *dim == loops[i].name {
                    format!("`{dim}`")
                } else {
                    format!("`{}` (over `{dim}`)", loops[i].name)
                }
            };
            let implicit: Vec<usize> = group
                .clone()
                .filter(|&i| i >= nest.first_implicit)
                .collect();
            let tiled: Vec<usize> = group
                .clone()
                .filter(|i| nest.materialized.contains(i))
                .collect();
            let mut runs: Vec<usize> = tiled
                .iter()
                .filter_map(|i| nest.runs.iter().position(|s| s.contains(i)))
                .collect();
            runs.dedup();
            let problem = if !implicit.is_empty() && !tiled.is_empty() {
                let help = format!(
                    "mark the whole fused loop, as in `vectorize({})`, or do not fuse a \
                     vectorized loop",
                    fused.name
                );
                let reason = format!(
                    "{} stays inside the vectorized op while {} must be a loop",
                    component(implicit[0]),
                    component(tiled[0])
                );
                Some((reason, help))
            } else if runs.len() > 1 {
                let (a, b) = (tiled[0], tiled[tiled.len() - 1]);
                if uses_forall(stage, &loops[a]) != uses_forall(stage, &loops[b]) {
                    let kind = |i: usize| {
                        if uses_forall(stage, &loops[i]) {
                            "an scf.forall (parallel dimension)"
                        } else {
                            "an scf.for (reduction or unrolled)"
                        }
                    };
                    let reason = format!(
                        "{} becomes {} but {} becomes {}",
                        component(a),
                        kind(a),
                        component(b),
                        kind(b)
                    );
                    Some((reason, ORDER_HELP.to_string()))
                } else {
                    let reason = format!(
                        "{} is outside {}, against the op's dimension order, so tiling makes \
                         them separate loops",
                        component(a),
                        component(b)
                    );
                    Some((reason, ORDER_HELP.to_string()))
                }
            } else {
                None
            };
            if let Some((reason, help)) = problem {
                let message = format!(
                    "cannot make `{}` one loop in `{name}`: {reason}",
                    fused.name
                );
                self.errors.push(
                    Diagnostic::error("fuse-unplannable", fused.span, message).with_help(help),
                );
                ok = false;
            }
        }
        ok
    }

    /// Coalesces the fused `scf.for`s `components` (positions in `loops`, all
    /// in `run`, whose loops are `loop_handles`) into one loop. Returns the
    /// handle to that loop and to the tiled op found again inside it.
    pub(super) fn coalesce_fused(
        &mut self,
        func: usize,
        stage_index: usize,
        nest: &Nest,
        run: &[usize],
        components: &[usize],
        loop_handles: &[String],
    ) -> (String, String) {
        let stage = &self.model.funcs[func].stages[stage_index];
        let loops = nest.loops;
        let last = *run.last().expect("a run has loops");
        let first = run
            .iter()
            .position(|&i| i == components[0])
            .expect("components are in the run");
        let fused = loops[last].fused.as_ref().expect("a group is fused");
        let parts: Vec<&str> = components.iter().map(|&i| loops[i].name.as_str()).collect();
        self.script.comment(format!(
            "fuse: loops {} become the one loop {}",
            parts.join(", "),
            fused.name
        ));
        let fused_handle = self.script.fresh(&fused.name);
        self.script.op(
            format!(
                "%{fused_handle} = transform.loop.coalesce %{} : ({ANY_OP}) -> {ANY_OP}",
                loop_handles[first]
            ),
            self.at(fused.span),
        );
        // Coalescing rebuilds the nest: find the tiled op again inside it.
        let retiled = self
            .script
            .fresh(&format!("{}_tiled", self.model.funcs[func].name));
        let kind = self.current_kind(stage.op).to_string();
        self.script.op(
            format!(
                "%{retiled} = transform.structured.match ops{{[\"{kind}\"]}} in %{fused_handle} \
                 : ({ANY_OP}) -> {ANY_OP}"
            ),
            self.at(fused.span),
        );
        (fused_handle, retiled)
    }

    /// Queues the unroll of a coalesced loop: all its parts must be marked.
    pub(super) fn plan_fused_unroll(&mut self, nest: &Nest, components: &[usize], handle: &str) {
        let loops = nest.loops;
        let marked: Vec<&Loop> = components
            .iter()
            .map(|&i| &loops[i])
            .filter(|l| l.unroll.is_some())
            .collect();
        if marked.len() == components.len() {
            let trip = components
                .iter()
                .try_fold(1, |product, &i| nest.trips[i].map(|t| product * t));
            self.plan_unroll(marked[0], handle, trip);
        } else if let Some(one) = marked.first() {
            self.errors.push(
                Diagnostic::error(
                    "unroll-fused-part",
                    one.unroll.unwrap_or(one.span),
                    format!(
                        "`{}` is unrolled, but it was fused into `{}` with loops that are not",
                        one.name,
                        one.visible_name()
                    ),
                )
                .with_help(format!(
                    "unroll the fused loop: `unroll({})`",
                    one.visible_name()
                )),
            );
        }
    }
}
