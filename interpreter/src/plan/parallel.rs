//! `parallel(loop)`: loops over parallel dimensions are `scf.forall`s
//! anyway; the ones the schedule marks `parallel` are annotated
//! `sched.parallel` (`transform.annotate`), which lowering turns into OpenMP
//! loops after bufferization. The other foralls run sequentially. A loop
//! cannot be both parallel and vectorized or unrolled. `parallel` marks one
//! loop, as in Halide: marked and unmarked loops are tiled into separate,
//! nested foralls.

use super::Planner;
use crate::script::ANY_OP;
use schedule_lang::model::{Loop, Stage};
use schedule_lang::Diagnostic;

impl Planner<'_> {
    /// Refuses a loop marked parallel and also vectorized or unrolled. False
    /// after an error.
    pub(super) fn check_parallel_marks(&mut self, stage: &Stage) -> bool {
        for l in &stage.loops {
            if let (Some(parallel), Some(other)) = (l.parallel, l.unroll.or(l.vectorize)) {
                let what = if l.unroll.is_some() {
                    "unrolled"
                } else {
                    "vectorized"
                };
                self.errors.push(
                    Diagnostic::error(
                        "parallel-conflict",
                        parallel,
                        format!("`{}` cannot be both parallel and {what}", l.name),
                    )
                    .with_note(Some(other), "marked here")
                    .with_help(
                        "split the loop and mark the outer part parallel, as `parallel(x, 16)` \
                         does",
                    ),
                );
                return false;
            }
        }
        true
    }

    /// Queues the annotation of the forall `forall` tiled from `run` when its
    /// loops are marked parallel (a run's foralls are all marked or none:
    /// [`super::nest`] starts a new run where the mark changes).
    pub(super) fn queue_parallel(&mut self, loops: &[Loop], run: &[usize], forall: &str) {
        if let Some(marked) = run.iter().find_map(|&i| loops[i].parallel) {
            self.annotate_parallel.push((forall.to_string(), marked));
        }
    }

    /// Annotates the queued foralls `sched.parallel`.
    pub(super) fn emit_parallel_annotations(&mut self) {
        for (handle, span) in std::mem::take(&mut self.annotate_parallel) {
            self.script
                .comment(format!("parallel: {}", self.source.slice(span)));
            self.script.op(
                format!("transform.annotate %{handle} \"sched.parallel\" : {ANY_OP}"),
                self.at(span),
            );
        }
    }

    /// Queues the `sched.pipeline` annotation of a loop the script made, when
    /// the schedule pipelined it (an HLS back end reads it; a CPU ignores it).
    pub(super) fn queue_pipeline(&mut self, l: &Loop, handle: &str) {
        if let Some((span, interval)) = l.pipeline {
            if !self.annotate_pipeline.iter().any(|(_, _, s)| *s == span) {
                self.annotate_pipeline
                    .push((handle.to_string(), interval, span));
            }
        }
    }

    /// Annotates the queued loops `sched.pipeline = ii`.
    pub(super) fn emit_pipeline_annotations(&mut self) {
        for (handle, interval, span) in self.annotate_pipeline.clone() {
            self.script
                .comment(format!("pipeline: {}", self.source.slice(span)));
            self.script.annotate(
                &handle,
                "sched.pipeline",
                &format!("{interval} : i64"),
                "interval",
                self.at(span),
            );
        }
    }

    /// A `pipeline` mark on a loop the script did not make (kept in the
    /// op's tile, unrolled, vectorized, of one iteration) is an error.
    pub(super) fn check_pipelined(&mut self) {
        for (func, model_func) in self.model.funcs.iter().enumerate() {
            for (stage, s) in model_func.stages.iter().enumerate() {
                for l in &s.loops {
                    let Some((span, _)) = l.pipeline else {
                        continue;
                    };
                    let annotated = self.annotate_pipeline.iter().any(|(_, _, s)| *s == span);
                    // An unrolled or vectorized loop is gone after the script.
                    if annotated && l.unroll.is_none() && l.vectorize.is_none() {
                        continue;
                    }
                    let name = self.stage_name(func, stage);
                    self.errors.push(
                        Diagnostic::error(
                            "pipeline-not-a-loop",
                            span,
                            format!(
                                "`{}` of `{name}` is no loop of the generated code (it is unrolled, \
                                 vectorized, of one iteration, or kept in the op's tile), so there \
                                 is nothing to pipeline",
                                l.name
                            ),
                        )
                        .with_help("pipeline a loop the schedule makes: split or reorder so it is outside the vectorized and unrolled ones"),
                    );
                }
            }
        }
    }
}
