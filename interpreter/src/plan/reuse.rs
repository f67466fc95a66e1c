//! `reuse_at(input, loop)`, HeteroCL's reuse buffer: what the stage reads
//! of one tensor inside `loop` is kept from one iteration to the next. The
//! loop is materialized as an `scf.for` (its iterations carry the buffer, so
//! it cannot be a forall), the tiling run ends there, and
//! `transform.sched.reuse_buffer` (our own transform op, in the payload
//! crate's shim) rewrites it: the loop carries the rectangular hull of the
//! tiles every input reading that tensor takes, shifts it by the loop's
//! step each iteration, extracts only the new elements from the tensor, and
//! the inputs read their tiles from the buffer. Applied again at an inner
//! loop, the tiles there are slices of the outer buffer, so the new buffer
//! (HeteroCL's window buffer) is filled from the line buffer. Whether the
//! accesses have reuse at the loop is the op's to say (a silenceable error
//! at the `reuse_at` call: the tiles do not move with the loop, or share
//! nothing from one iteration to the next).

use super::nest::Nest;
use super::{MaterializedLoop, Planner, Region};
use schedule_lang::model::{Model, ReuseAt};
use schedule_lang::{Diagnostic, Span};

impl Planner<'_> {
    /// Plans the stage's reuse buffers and sliding windows at loop `at`, the
    /// last of `containing` (an `scf.for`), now that the op (`handle`) is
    /// inside it, where its tile is `region`.
    pub(super) fn plan_reuse_buffers(
        &mut self,
        func: usize,
        stage_index: usize,
        at: &str,
        handle: &str,
        containing: &[MaterializedLoop],
        region: &Region,
    ) {
        let model: &Model = self.model;
        let stage = &model.funcs[func].stages[stage_index];
        let Some(loop_handle) = containing.last().map(|l| l.handle.clone()) else {
            return;
        };
        for (index, reuse) in stage.reuse_buffers.iter().enumerate() {
            if reuse.loop_name != at {
                continue;
            }
            self.reused.push((func, stage_index, index));
            let marked = stage.loops.iter().find(|l| l.visible_name() == at);
            if let Some(span) = marked.and_then(|l| l.parallel.as_ref()) {
                self.refuse_parallel(reuse, at, *span);
                continue;
            }
            if reuse.computing.is_some() {
                self.plan_sliding_window(func, stage_index, reuse, handle, containing, region);
                continue;
            }
            let name = self.stage_name(func, stage_index);
            self.script.comment(format!(
                "reuse_at: {name} reads `{}` (input {} and every input reading the same tensor) \
                 from a buffer carried by {at}, shifted each iteration, only the new elements \
                 read",
                reuse.input_name, reuse.input
            ));
            self.script.op(
                format!(
                    "transform.sched.reuse_buffer %{handle} input {} at %{loop_handle} : \
                     !transform.any_op, !transform.any_op",
                    reuse.input
                ),
                self.at(reuse.span),
            );
            self.transformed = true;
        }
    }

    /// Refuses the buffer `reuse` (a reuse buffer, or a sliding window) at
    /// `at`, which the schedule runs in parallel (`marked` there): the
    /// buffer carries data from one iteration to the next.
    fn refuse_parallel(&mut self, reuse: &ReuseAt, at: &str, marked: Span) {
        let error = match reuse.computing {
            Some(producer) => {
                let producer = &self.model.funcs[producer].name;
                Diagnostic::error(
                    "store-at-parallel",
                    reuse.span,
                    format!(
                        "cannot slide `{producer}`'s window along `{at}`: `{at}` runs in \
                         parallel, and each iteration reuses what the one before computed"
                    ),
                )
                .with_note(Some(marked), "marked parallel here")
                .with_help(format!(
                    "run the loop `{producer}` is stored at in parallel instead"
                ))
            }
            None => Diagnostic::error(
                "reuse-at-parallel",
                reuse.span,
                format!(
                    "cannot keep a reuse buffer of `{}` at `{at}`: `{at}` runs in parallel, and \
                     the buffer carries data from one iteration to the next",
                    reuse.input_name
                ),
            )
            .with_note(Some(marked), "marked parallel here")
            .with_help(format!(
                "split `{at}` and run the outer loop in parallel, keeping the buffer at the inner \
                 one"
            )),
        };
        self.errors.push(error);
    }

    /// Reports the reuse buffers no materialized loop took.
    pub(super) fn report_unplanned_reuse_buffers(
        &mut self,
        func: usize,
        stage_index: usize,
        nest: &Nest,
    ) {
        let stage = &self.model.funcs[func].stages[stage_index];
        for (index, reuse) in stage.reuse_buffers.iter().enumerate() {
            if self.reused.contains(&(func, stage_index, index)) {
                continue;
            }
            let at = &reuse.loop_name;
            let why = nest.why_not_a_loop(at);
            if let Some(producer) = reuse.computing {
                let name = &self.model.funcs[producer].name;
                self.errors.push(
                    Diagnostic::error(
                        "store-at-unplannable",
                        reuse.span,
                        format!("cannot slide `{name}`'s window along `{at}`: {why}"),
                    )
                    .with_help(format!(
                        "compute `{name}` at a loop that is materialized and not vectorized, and \
                         store it at the loop just outside"
                    )),
                );
                continue;
            }
            self.errors.push(
                Diagnostic::error(
                    "reuse-at-unplannable",
                    reuse.span,
                    format!(
                        "cannot keep a reuse buffer of `{}` at `{at}`: {why}",
                        reuse.input_name
                    ),
                )
                .with_help(
                    "keep it at a loop that is materialized and not vectorized: a split's \
                     outer loop, or a loop with others inside it",
                ),
            );
        }
    }
}
