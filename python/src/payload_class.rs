//! `sched_apply.Payload`: MLIR text, checked once, that schedules apply to.

use crate::errors::{payload_error, pipeline_error, warn};
use crate::program_class::Program;
use interpreter::pipeline::{self, Stop};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use runner::cache::Role;
use schedule_lang::SourceFile;

/// A payload: an MLIR module of linalg ops on tensors of static shape.
#[pyclass(module = "sched_apply", frozen)]
pub struct Payload {
    name: String,
    text: String,
    entry: Option<String>,
}

impl Payload {
    fn source(&self) -> SourceFile {
        SourceFile::new(self.name.clone(), self.text.clone())
    }

    /// The pipeline run with `schedule` (`name` in messages) up to `stop`,
    /// its warnings given as `UserWarning`s (and the note that it was tuned on
    /// another CPU, [`tuner::provenance`]).
    fn run_to(
        &self,
        py: Python<'_>,
        source: &SourceFile,
        stop: Stop,
    ) -> PyResult<pipeline::Outcome> {
        let outcome = pipeline::run(
            source,
            &self.name,
            &self.text,
            stop,
            &pipeline::Machine::host(),
        )
        .map_err(pipeline_error)?;
        let elsewhere = tuner::provenance::note(source);
        for warning in elsewhere.iter().chain(&outcome.warnings) {
            warn(py, warning)?;
        }
        Ok(outcome)
    }

    /// The schedule applied: the transformed module's text.
    fn applied(&self, py: Python<'_>, schedule: &str, name: &str) -> PyResult<String> {
        let source = SourceFile::new(name.to_string(), schedule.to_string());
        let outcome = self.run_to(py, &source, Stop::Apply)?;
        outcome.payload.ok_or_else(|| {
            PyRuntimeError::new_err(format!(
                "internal error: applying {name} to {} gave no payload",
                self.name
            ))
        })
    }
}

#[pymethods]
impl Payload {
    /// Parses and verifies `text` (MLIR). `name` is the payload's name in
    /// messages; `entry` the function to call (default: the only public one).
    #[new]
    #[pyo3(signature = (text, name = "payload.mlir".to_string(), entry = None))]
    fn new(text: String, name: String, entry: Option<String>) -> PyResult<Self> {
        let payload = Self { name, text, entry };
        let context = payload::new_context();
        payload::parse_module(&context, &payload.name, &payload.text)
            .map_err(|e| payload_error(e, &payload.source()))?;
        Ok(payload)
    }

    /// The payload's name in messages.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The payload's MLIR text, as given.
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }

    /// Checks `schedule` against the payload without applying it: raises
    /// `ScheduleError` with the located report when it does not plan, and
    /// returns its warnings (directives that do nothing), rendered.
    #[pyo3(signature = (schedule, name = "schedule.sched"))]
    fn check(&self, schedule: &str, name: &str) -> PyResult<Vec<String>> {
        let source = SourceFile::new(name.to_string(), schedule.to_string());
        let outcome = pipeline::run(
            &source,
            &self.name,
            &self.text,
            Stop::Plan,
            &pipeline::Machine::host(),
        )
        .map_err(pipeline_error)?;
        Ok(outcome.warnings)
    }

    /// What `schedule` does to the payload, as `sched-apply explain` prints
    /// it: each func's loop nest after each directive and in the end (funcs
    /// computed at its loops, packs, prefetches), then the generated IR's
    /// loops under the schedule's names. Warnings become `UserWarning`s.
    #[pyo3(signature = (schedule, name = "schedule.sched"))]
    fn explain(&self, py: Python<'_>, schedule: &str, name: &str) -> PyResult<String> {
        let source = SourceFile::new(name.to_string(), schedule.to_string());
        let outcome = self.run_to(py, &source, Stop::ApplyNamingLoops)?;
        let explanation =
            interpreter::explain::explain(&outcome, &source).map_err(PyRuntimeError::new_err)?;
        Ok(explanation.render())
    }

    /// The payload with `schedule` applied, as MLIR text (what
    /// `sched-apply apply` prints). Warnings become `UserWarning`s.
    #[pyo3(signature = (schedule, name = "schedule.sched"))]
    fn transform(&self, py: Python<'_>, schedule: &str, name: &str) -> PyResult<String> {
        self.applied(py, schedule, name)
    }

    /// Applies `schedule` (`.sched` text; `name` in its messages) and
    /// JIT-compiles the result. Warnings become `UserWarning`s. With
    /// `cache` (the default) the code is kept in sched-apply's compile cache
    /// (`$SCHED_APPLY_CACHE`, else `~/.cache/sched-apply`, as the CLI's `run`
    /// keeps it) and loaded from there the next time.
    #[pyo3(signature = (schedule, name = "schedule.sched", cache = true))]
    fn apply(&self, py: Python<'_>, schedule: &str, name: &str, cache: bool) -> PyResult<Program> {
        let text = self.applied(py, schedule, name)?;
        let scheduled = format!("{} (scheduled by {name})", self.name);
        let role = cache.then_some(Role::Scheduled);
        Program::compile(py, &scheduled, &text, self.entry.as_deref(), role)
    }

    /// JIT-compiles the payload as it is, unscheduled (the reference);
    /// `cache` as for `apply`.
    #[pyo3(signature = (cache = true))]
    fn compile(&self, py: Python<'_>, cache: bool) -> PyResult<Program> {
        let role = cache.then_some(Role::Reference);
        Program::compile(py, &self.name, &self.text, self.entry.as_deref(), role)
    }

    /// Writes a schedule for the payload by measuring, as `sched-apply
    /// tune` does (`docs/tuning.md`): each kind of op tuned alone within
    /// its share of `budget` seconds, checked against itself unscheduled,
    /// elementwise ops inlined where the whole model is no slower; returns
    /// the schedule's text. `records` names a JSON-lines file of
    /// measurements, read first and appended to (a second run takes
    /// seconds). `warm` times calls back to back instead of flushing the
    /// caches first. Measures on this process's cores: run it pinned
    /// (`taskset -c 1`) for one-thread figures.
    /// `only` (keys from `kinds()`) tunes those kinds alone and makes none
    /// of the whole-model decisions: one worker's part of a tune spread
    /// over machines (`sched_apply.tune(..., cluster=...)`); its
    /// measurements go to `records` and the returned schedule binds only
    /// those kinds.
    #[pyo3(signature = (budget = 600.0, threads = 1, records = None, patience = 24, warm = false, min_seconds = 0.05, only = None))]
    // Each Python keyword argument is a parameter here: PyO3 takes them so.
    #[allow(clippy::too_many_arguments)]
    fn tune(
        &self,
        py: Python<'_>,
        budget: f64,
        threads: usize,
        records: Option<std::path::PathBuf>,
        patience: usize,
        warm: bool,
        min_seconds: f64,
        only: Option<Vec<String>>,
    ) -> PyResult<String> {
        if only.as_ref().is_some_and(|keys| keys.is_empty()) {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "only= names no kind of op: pass None (the default) to tune them all",
            ));
        }
        let options = crate::tune_function::TuneOptions {
            budget,
            threads,
            records,
            patience,
            warm,
            min_seconds,
            only: only.unwrap_or_default(),
        };
        crate::tune_function::tune(py, &self.name, &self.text, options)
    }

    /// The kinds of op `tune` would tune, largest FLOPs first, as
    /// `sched-apply tune --list-kinds` prints them: dicts with `task` (the
    /// key in the records, for `tune(only=...)`), `op` (what the key
    /// hashes), `ops` (how many of the payload's ops), `flops` (of one) and
    /// `cpu` (the CPU whose records count for it: this one).
    fn kinds<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, pyo3::types::PyDict>>> {
        crate::tune_function::kinds(py, &self.name, &self.text)
    }

    fn __repr__(&self) -> String {
        format!("Payload(name={:?}, {} bytes)", self.name, self.text.len())
    }
}
