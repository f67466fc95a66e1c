//! The module's exceptions, and the CLI's reports turned into them.

use interpreter::failure::Failure;
use interpreter::pipeline::render_on_payload;
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use schedule_lang::SourceFile;

create_exception!(
    sched_apply,
    ScheduleError,
    PyValueError,
    "A schedule that does not parse, resolve, plan or apply: the message is the located report `sched-apply check` prints."
);
create_exception!(
    sched_apply,
    PayloadError,
    PyValueError,
    "A payload that does not parse, verify or compile: the message has MLIR's diagnostics with their lines."
);
create_exception!(
    sched_apply,
    RunError,
    PyRuntimeError,
    "A compiled payload's call that failed (an accelerator kernel's error, say)."
);

/// A payload error as the CLI prints it: the message, then MLIR's
/// diagnostics with the payload's lines.
pub(crate) fn payload_error(error: payload::PayloadError, source: &SourceFile) -> PyErr {
    let mut text = error.message.clone();
    for diagnostic in &error.diagnostics {
        text.push('\n');
        text.push_str(render_on_payload(diagnostic, source).trim_end());
    }
    match error.kind {
        payload::ErrorKind::Internal => PyRuntimeError::new_err(text),
        _ => PayloadError::new_err(text),
    }
}

/// A failure of the pipeline as an exception: the located report.
pub(crate) fn pipeline_error(failure: Failure) -> PyErr {
    match failure {
        Failure::Input(text) => ScheduleError::new_err(text.trim_end().to_string()),
        Failure::Internal(text) => PyRuntimeError::new_err(text.trim_end().to_string()),
    }
}

/// `message` (a rendered warning) as a Python `UserWarning`.
pub(crate) fn warn(py: Python<'_>, message: &str) -> PyResult<()> {
    let text = std::ffi::CString::new(message.trim_end().replace('\0', " ")).unwrap_or_default();
    PyErr::warn(py, &py.get_type::<PyUserWarning>(), &text, 2)
}
