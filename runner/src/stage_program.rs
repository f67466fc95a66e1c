//! `Program`'s per-stage timing (`sched-apply profile --run`): compiling a
//! payload with stage marks ([`crate::stage_times`] inserts them and keeps
//! the clock) and calling it so that each stage's seconds come back.

use crate::call::CallError;
use crate::jit::{code_threads, Build, Program};
use crate::stage_times::{take_stage_seconds, Segments, StageOwners};
use crate::tensor::Tensor;
use payload::PayloadError;

impl Program {
    /// [`Program::compile_with_targets`] with the entry cut into segments
    /// by stage (`owners`), each timed at every call: see
    /// [`Program::call_by_stage`]. Never cached.
    pub fn compile_timing_stages(
        payload_name: &str,
        text: &str,
        entry: Option<&str>,
        targets: &[microkernels::Target],
        owners: &StageOwners,
    ) -> Result<Self, PayloadError> {
        let build = Build {
            cache: None,
            threads: code_threads(),
            stages: Some(owners),
        };
        Self::build(payload_name, text, entry, targets, build)
    }

    /// How the stage marks cut the entry (with
    /// [`Program::compile_timing_stages`]).
    pub fn segments(&self) -> Option<&Segments> {
        self.segments.as_ref().map(|(segments, _)| segments)
    }

    /// [`Program::call`], returning the seconds each stage's segments took
    /// (one per slot of the owners it was compiled with); empty for a
    /// program compiled without marks.
    pub fn call_by_stage(
        &self,
        inputs: &mut [Tensor],
        results: &mut [Tensor],
    ) -> Result<Vec<f64>, CallError> {
        let slots = self.segments.as_ref().map_or(0, |(_, slots)| *slots);
        take_stage_seconds(slots);
        self.call(inputs, results)?;
        Ok(take_stage_seconds(slots))
    }
}
