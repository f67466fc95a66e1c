//! `sched_apply.Payload`: MLIR text, checked once, that schedules apply to.

use crate::errors::{payload_error, pipeline_error};
use crate::program_class::Program;
use interpreter::pipeline::{self, Stop};
use pyo3::exceptions::{PyRuntimeError, PyUserWarning};
use pyo3::prelude::*;
use schedule_lang::SourceFile;

/// A payload: an MLIR module of linalg ops on tensors of static shape.
#[pyclass(module = "sched_apply", frozen)]
pub struct Payload {
    name: String,
    text: String,
    entry: Option<String>,
}

/// Each of the schedule's warnings as a Python `UserWarning`.
fn warn_all(py: Python<'_>, warnings: &[String]) -> PyResult<()> {
    let category = py.get_type::<PyUserWarning>();
    for warning in warnings {
        let message =
            std::ffi::CString::new(warning.trim_end().replace('\0', " ")).unwrap_or_default();
        PyErr::warn(py, &category, &message, 2)?;
    }
    Ok(())
}

impl Payload {
    fn source(&self) -> SourceFile {
        SourceFile::new(self.name.clone(), self.text.clone())
    }

    /// The schedule applied: the transformed module's text.
    fn applied(&self, py: Python<'_>, schedule: &str, name: &str) -> PyResult<String> {
        let source = SourceFile::new(name.to_string(), schedule.to_string());
        let outcome = pipeline::run(&source, &self.name, &self.text, Stop::Apply, &[])
            .map_err(pipeline_error)?;
        warn_all(py, &outcome.warnings)?;
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

    /// Checks `schedule` against the payload without applying it: raises
    /// `ScheduleError` with the located report when it does not plan, and
    /// returns its warnings (directives that do nothing), rendered.
    #[pyo3(signature = (schedule, name = "schedule.sched"))]
    fn check(&self, schedule: &str, name: &str) -> PyResult<Vec<String>> {
        let source = SourceFile::new(name.to_string(), schedule.to_string());
        let outcome = pipeline::run(&source, &self.name, &self.text, Stop::Plan, &[])
            .map_err(pipeline_error)?;
        Ok(outcome.warnings)
    }

    /// The payload with `schedule` applied, as MLIR text (what
    /// `sched-apply apply` prints). Warnings become `UserWarning`s.
    #[pyo3(signature = (schedule, name = "schedule.sched"))]
    fn transform(&self, py: Python<'_>, schedule: &str, name: &str) -> PyResult<String> {
        self.applied(py, schedule, name)
    }

    /// Applies `schedule` (`.sched` text; `name` in its messages) and
    /// JIT-compiles the result. Warnings become `UserWarning`s.
    #[pyo3(signature = (schedule, name = "schedule.sched"))]
    fn apply(&self, py: Python<'_>, schedule: &str, name: &str) -> PyResult<Program> {
        let text = self.applied(py, schedule, name)?;
        let scheduled = format!("{} (scheduled by {name})", self.name);
        Program::compile(&scheduled, &text, self.entry.as_deref())
    }

    /// JIT-compiles the payload as it is, unscheduled (the reference).
    fn compile(&self) -> PyResult<Program> {
        Program::compile(&self.name, &self.text, self.entry.as_deref())
    }

    fn __repr__(&self) -> String {
        format!("Payload(name={:?}, {} bytes)", self.name, self.text.len())
    }
}
