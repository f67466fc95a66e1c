//! `pipeline(l[, ii])`: a mark for HLS back ends. The loop the script makes
//! for `l` is annotated `sched.pipeline = ii` at the end of the script
//! (after hoisting, so the handle is the loop's final one); a CPU ignores
//! it, and `resolve` says so in a note. A pipelined loop the script does not
//! make (unrolled, vectorized, of one iteration, kept in the op's tile) is an
//! error here.

use super::Planner;
use schedule_lang::model::Loop;
use schedule_lang::Diagnostic;

impl Planner<'_> {
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
                payload::attributes::PIPELINE,
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
