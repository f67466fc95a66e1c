//! `sched_apply.Program`: a compiled payload, called on numpy arrays.

use crate::arrays::{argument, dtype_name, result};
use crate::errors::{payload_error, RunError};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use schedule_lang::SourceFile;

/// A JIT-compiled payload (scheduled or not). Made by `Payload.apply` or
/// `Payload.compile`; usable from the thread that made it.
#[pyclass(module = "sched_apply", unsendable)]
pub struct Program {
    program: runner::jit::Program,
    name: String,
}

impl Program {
    /// Compiles payload `text` (`name` in messages).
    pub(crate) fn compile(name: &str, text: &str, entry: Option<&str>) -> PyResult<Self> {
        let program = runner::jit::Program::compile(name, text, entry)
            .map_err(|e| payload_error(e, &SourceFile::new(name.to_string(), text.to_string())))?;
        Ok(Self {
            program,
            name: name.to_string(),
        })
    }
}

/// `(dtype, shape)` of each tensor of a signature.
fn described(types: &[payload::types::TensorType]) -> Vec<(&'static str, Vec<i64>)> {
    types
        .iter()
        .map(|t| (dtype_name(t.element), t.shape.clone()))
        .collect()
}

#[pymethods]
impl Program {
    /// Calls the entry on `arrays` (one per argument, each of the entry's
    /// dtype and shape; copied in) and returns its results as new numpy
    /// arrays: one array for one result, else a tuple.
    #[pyo3(signature = (*arrays))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        arrays: &Bound<'py, PyTuple>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let inputs = &self.program.signature.inputs;
        if arrays.len() != inputs.len() {
            return Err(PyTypeError::new_err(format!(
                "{} takes {} arrays, {} given",
                self.name,
                inputs.len(),
                arrays.len()
            )));
        }
        let mut tensors = arrays
            .iter()
            .zip(inputs)
            .enumerate()
            .map(|(index, (array, ty))| argument(py, &array, ty, index))
            .collect::<PyResult<Vec<_>>>()?;
        let mut results = self.program.new_results();
        self.program
            .call(&mut tensors, &mut results)
            .map_err(|e| RunError::new_err(format!("{}: {e}", self.name)))?;
        let arrays = results
            .iter()
            .map(|tensor| result(py, tensor))
            .collect::<PyResult<Vec<_>>>()?;
        match arrays.len() {
            1 => Ok(arrays.into_iter().next().expect("one result")),
            _ => Ok(PyTuple::new(py, arrays)?.into_any()),
        }
    }

    /// The same as `run`.
    #[pyo3(signature = (*arrays))]
    fn __call__<'py>(
        &self,
        py: Python<'py>,
        arrays: &Bound<'py, PyTuple>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.run(py, arrays)
    }

    /// `(dtype, shape)` of each argument.
    #[getter]
    fn inputs(&self) -> Vec<(&'static str, Vec<i64>)> {
        described(&self.program.signature.inputs)
    }

    /// `(dtype, shape)` of each result.
    #[getter]
    fn results(&self) -> Vec<(&'static str, Vec<i64>)> {
        described(&self.program.signature.results)
    }

    /// Whether the schedule made parallel loops (`parallel`), which run on
    /// `threads` threads.
    #[getter]
    fn parallel(&self) -> bool {
        self.program.is_parallel()
    }

    /// Threads the parallel loops run on (None for a program without them).
    #[getter]
    fn threads(&self) -> Option<usize> {
        self.program.threads()
    }

    #[setter]
    fn set_threads(&self, threads: usize) -> PyResult<()> {
        if threads == 0 {
            return Err(PyValueError::new_err("threads must be at least 1"));
        }
        self.program
            .set_threads(threads)
            .map_err(PyValueError::new_err)
    }

    fn __repr__(&self) -> String {
        format!("Program(name={:?})", self.name)
    }
}
