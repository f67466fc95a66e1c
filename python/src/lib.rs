//! `sched_apply._native`, the Rust half of the Python package `sched_apply`
//! (`python/sched_apply/` re-exports it): a payload (MLIR text) with a schedule
//! (`.sched` text) applied, JIT-compiled in this process, and called on
//! numpy arrays.
//!
//! ```python
//! import numpy as np, sched_apply
//! payload = sched_apply.Payload(open("gemm.mlir").read(), name="gemm.mlir")
//! program = payload.apply(open("gemm.sched").read(), name="gemm.sched")
//! c = program.run(a, b)          # one array per result; a tuple for several
//! ```
//!
//! Errors are the CLI's located reports, raised as `ScheduleError` (the
//! schedule) or `PayloadError` (the payload); a call whose arrays do not
//! match the entry's signature raises `TypeError` or `ValueError`.

mod arrays;
mod detached;
mod errors;
mod exports;
mod found_file;
mod payload_class;
mod program_class;
mod tune_function;

use errors::{PayloadError, RunError, ScheduleError};
use pyo3::prelude::*;

/// The extension module `sched_apply._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<payload_class::Payload>()?;
    m.add_class::<program_class::Program>()?;
    m.add_function(wrap_pyfunction!(found_file::read_found_file, m)?)?;
    m.add_function(wrap_pyfunction!(exports::cached_export, m)?)?;
    m.add_function(wrap_pyfunction!(exports::store_export, m)?)?;
    m.add("ScheduleError", m.py().get_type::<ScheduleError>())?;
    m.add("PayloadError", m.py().get_type::<PayloadError>())?;
    m.add("RunError", m.py().get_type::<RunError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // `maturin develop` builds without optimizations unless given
    // `--release`: the Rust around each call is then ten times slower.
    m.add("DEBUG_BUILD", cfg!(debug_assertions))?;
    Ok(())
}
