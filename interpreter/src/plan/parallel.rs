//! `parallel(loop)`: loops over parallel dimensions are `scf.forall`s
//! anyway; the ones the schedule marks `parallel` are annotated
//! `sched.parallel` (`transform.annotate`), which lowering turns into OpenMP
//! loops after bufferization. The other foralls run sequentially. A loop
//! cannot be both parallel and vectorized or unrolled. `parallel` marks one
//! loop, as in Halide: marked and unmarked loops are tiled into separate,
//! nested foralls.

use super::Planner;
use crate::script::ANY_OP;
use payload::attributes::PARALLEL;
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
                format!("transform.annotate %{handle} \"{PARALLEL}\" : {ANY_OP}"),
                self.at(span),
            );
        }
    }
}
