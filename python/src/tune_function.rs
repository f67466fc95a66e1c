//! `Payload.tune`: `sched-apply tune` in the Python process ([`tuner::run`]).

use crate::errors::{payload_error, warn};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use schedule_lang::SourceFile;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tuner::records::Records;
use tuner::run::{list_kinds, tune_payload, Failure, Request};

/// What `Payload.tune` was given.
pub(crate) struct TuneOptions {
    pub(crate) budget: f64,
    pub(crate) threads: usize,
    pub(crate) records: Option<PathBuf>,
    pub(crate) patience: usize,
    pub(crate) warm: bool,
    pub(crate) min_seconds: f64,
    pub(crate) only: Vec<String>,
}

/// Tunes payload `text` (`name`): the written schedule. The GIL is released
/// meanwhile; Ctrl-C (a `KeyboardInterrupt` pending between measurements)
/// ends the search with what was found, with a warning; the records are
/// read and appended to.
pub(crate) fn tune(
    py: Python<'_>,
    name: &str,
    text: &str,
    options: TuneOptions,
) -> PyResult<String> {
    if !(options.budget.is_finite() && options.budget > 0.0) {
        return Err(PyValueError::new_err(
            "budget must be a positive number of seconds",
        ));
    }
    if options.threads == 0 {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let mut records = match &options.records {
        Some(path) => Records::open(path).map_err(PyValueError::new_err)?,
        None => Records::in_memory(),
    };
    let request = Request {
        budget: Duration::from_secs_f64(options.budget),
        threads: options.threads,
        patience: options.patience,
        warm: options.warm,
        min_seconds: options.min_seconds,
        only: options.only,
    };
    let stop = AtomicBool::new(false);
    // The GIL is released while tuning (other Python threads run), and
    // taken back between measurements to look for a pending Ctrl-C.
    let mut progress = |_: tuner::Progress<'_>| {
        if Python::attach(|py| py.check_signals()).is_err() {
            stop.store(true, Ordering::SeqCst);
        }
    };
    let tuned = py
        .detach(|| {
            tune_payload(
                name,
                text,
                &request,
                &mut records,
                None,
                &mut progress,
                &stop,
            )
        })
        .map_err(|failure| tune_error(failure, name, text))?;
    for note in tuned.notes.iter().filter(|n| n.starts_with("warning:")) {
        warn(py, note)?;
    }
    if stop.load(Ordering::SeqCst) {
        warn(
            py,
            "tune was interrupted: the schedule has what was found; kinds of op not reached are left unscheduled",
        )?;
    }
    Ok(tuned.schedule)
}

/// The kinds of op of payload `text` (`name`), as `Payload.kinds` returns
/// them.
pub(crate) fn kinds<'py>(
    py: Python<'py>,
    name: &str,
    text: &str,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let kinds = list_kinds(name, text).map_err(|failure| tune_error(failure, name, text))?;
    kinds
        .into_iter()
        .map(|kind| {
            let dict = PyDict::new(py);
            dict.set_item("task", kind.task)?;
            dict.set_item("op", kind.op)?;
            dict.set_item("ops", kind.ops)?;
            dict.set_item("flops", kind.flops)?;
            dict.set_item("cpu", kind.cpu)?;
            Ok(dict)
        })
        .collect()
}

/// A failure of the tuner as an exception: a payload's as `PayloadError`,
/// the user's input (an unknown kind, unreadable records) as `ValueError`.
fn tune_error(failure: Failure, name: &str, text: &str) -> PyErr {
    match failure {
        Failure::Payload(e) => payload_error(e, &SourceFile::new(name, text)),
        Failure::Input(message) => PyValueError::new_err(message),
        Failure::Internal(message) => PyRuntimeError::new_err(message),
    }
}
