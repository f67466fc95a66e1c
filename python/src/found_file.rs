//! `sched_apply._native.read_found_file`: a file the package found rather
//! than was given (the schedule beside a model's source), read only when
//! `runner::files::read_private_file` trusts it, as the CLI reads its cache.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use runner::files::{read_private_file, SCHEDULE_LIMIT};
use std::path::PathBuf;

/// The bytes of the schedule at `path` when it is a regular file (not
/// reached through a symbolic link) owned by this user, writable by no one
/// else and at most a schedule's limit; `None` for anything else.
#[pyfunction]
pub(crate) fn read_found_file(py: Python<'_>, path: PathBuf) -> Option<Bound<'_, PyBytes>> {
    read_private_file(&path, SCHEDULE_LIMIT).map(|bytes| PyBytes::new(py, &bytes))
}
