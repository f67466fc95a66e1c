//! `sched_apply.Program`: a compiled payload, called on numpy arrays.

use crate::arrays::{checked, copy_in, dtype_name, lend, new_result, LentBytes};
use crate::errors::{payload_error, warn, RunError};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use runner::cache::{Cache, Role};
use runner::call::Argument;
use runner::tensor::Tensor;
use schedule_lang::SourceFile;
use std::cell::RefCell;

/// A JIT-compiled payload (scheduled or not). Made by `Payload.apply` or
/// `Payload.compile`; usable from the thread that made it.
#[pyclass(module = "sched_apply", unsendable)]
pub struct Program {
    program: runner::jit::Program,
    name: String,
    /// The argument tensors, kept from call to call (fresh ones would cost
    /// a page fault per 4 KiB: ResNet-18's weights are 47 MB), for the
    /// arguments copied in.
    scratch: RefCell<Vec<Tensor>>,
    /// Per argument: whether `bind` copied it in for every call.
    bound: RefCell<Vec<bool>>,
    /// The arguments the last `run` copied in (the others it lent).
    copied: RefCell<Vec<usize>>,
}

/// The compile cache in its default directory for code of `role`, keyed by
/// this module's file; None (with a `UserWarning` saying why) when the
/// directory cannot be trusted.
fn open_cache(py: Python<'_>, role: Role) -> PyResult<Option<Cache>> {
    let Some(directory) = Cache::default_directory() else {
        return Ok(None);
    };
    let file: String = py
        .import("sched_apply._native")?
        .getattr("__file__")?
        .extract()?;
    match Cache::open(&directory) {
        Ok(cache) => Ok(Some(cache.built_by(file.into()).for_role(role))),
        Err(why) => {
            warn(
                py,
                &format!(
                    "not using the compile cache {}: {why}; compiling without it \
                     (point SCHED_APPLY_CACHE at a directory only you can write, or pass cache=False)",
                    directory.display()
                ),
            )?;
            Ok(None)
        }
    }
}

impl Program {
    /// Compiles payload `text` (`name` in messages), through the compile
    /// cache for code of `role` when given.
    pub(crate) fn compile(
        py: Python<'_>,
        name: &str,
        text: &str,
        entry: Option<&str>,
        role: Option<Role>,
    ) -> PyResult<Self> {
        let source = || SourceFile::new(name.to_string(), text.to_string());
        let cache = match role {
            Some(role) => open_cache(py, role)?,
            None => None,
        };
        let program = runner::jit::Program::compile_cached(name, text, entry, &[], cache.as_ref())
            .map_err(|e| payload_error(e, &source()))?;
        let signature = &program.signature;
        let count = signature.inputs.len();
        let inputs = signature
            .inputs
            .iter()
            .cloned()
            .map(Tensor::zeros)
            .collect();
        let scratch = RefCell::new(inputs);
        Ok(Self {
            program,
            name: name.to_string(),
            scratch,
            bound: RefCell::new(vec![false; count]),
            copied: RefCell::new(Vec::new()),
        })
    }
}

/// The error of a call made while another is under way (an argument's
/// `__array__` calling the same program).
fn busy(name: &str) -> PyErr {
    RunError::new_err(format!("{name} is already being called"))
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
    /// Calls the entry on `arrays` (one per argument not bound by `bind`,
    /// each of the entry's dtype and shape) and returns its results as new
    /// numpy arrays: one array for one result, else a tuple. An argument
    /// the code only reads is read where it is, without a copy, when it is
    /// row-major and aligned (do not change it from another thread during
    /// the call); any other is copied in. The GIL is released while the
    /// compiled code runs.
    #[pyo3(signature = (*arrays))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        arrays: &Bound<'py, PyTuple>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let bound = self.bound.try_borrow().map_err(|_| busy(&self.name))?;
        let free: Vec<usize> = (0..bound.len()).filter(|&i| !bound[i]).collect();
        if arrays.len() != free.len() {
            let besides = match bound.len() - free.len() {
                0 => String::new(),
                n => format!(" besides the {n} bound"),
            };
            return Err(PyTypeError::new_err(format!(
                "{} takes {} arrays{besides}, {} given",
                self.name,
                free.len(),
                arrays.len()
            )));
        }
        let mut scratch = self
            .scratch
            .try_borrow_mut()
            .map_err(|_| busy(&self.name))?;
        let mut copied = self.copied.try_borrow_mut().map_err(|_| busy(&self.name))?;
        copied.clear();
        let tensors = &mut *scratch;
        let mut lent: Vec<Option<Box<dyn LentBytes + 'py>>> = Vec::new();
        lent.resize_with(tensors.len(), || None);
        for (array, &index) in arrays.iter().zip(&free) {
            let ty = &tensors[index].ty;
            let array = checked(py, &array, ty, index)?;
            if self.program.reads_only(index) {
                lent[index] = lend(&array, ty.element)?;
            }
            if lent[index].is_none() {
                copy_in(&array, &mut tensors[index])?;
                copied.push(index);
            }
        }
        let mut arguments: Vec<Argument<'_>> = tensors
            .iter_mut()
            .zip(&lent)
            .map(|(tensor, lent)| match lent {
                Some(lent) => Argument::Lent(lent.bytes()),
                None => Argument::Tensor(tensor),
            })
            .collect();
        let (arrays, mut written): (Vec<_>, Vec<_>) = self
            .program
            .signature
            .results
            .iter()
            .map(|ty| new_result(py, ty))
            .collect::<PyResult<Vec<_>>>()?
            .into_iter()
            .unzip();
        let mut results: Vec<&mut [u8]> = written.iter_mut().map(|w| w.bytes_mut()).collect();
        crate::detached::call(py, &self.program, &mut arguments, &mut results)
            .map_err(|e| RunError::new_err(format!("{}: {e}", self.name)))?;
        drop(results);
        drop(written);
        match arrays.len() {
            1 => Ok(arrays.into_iter().next().expect("one result")),
            _ => Ok(PyTuple::new(py, arrays)?.into_any()),
        }
    }

    /// Copies `arrays` in as arguments `first`, `first + 1`, ... once, for
    /// every later call, which then takes only the other arguments (a
    /// model's weights, say: `run(x)` copies only `x`). Arrays changed
    /// afterwards are not seen until bound again. An argument the call
    /// writes (an `outs` operand, or one a result is computed in) cannot be
    /// bound: a `ValueError`.
    #[pyo3(signature = (first, *arrays))]
    fn bind(&self, py: Python<'_>, first: usize, arrays: &Bound<'_, PyTuple>) -> PyResult<()> {
        let count = self.program.signature.inputs.len();
        if first + arrays.len() > count {
            return Err(PyValueError::new_err(format!(
                "{} takes {count} arguments: {} from argument {first} are too many",
                self.name,
                arrays.len()
            )));
        }
        if let Some(index) = (first..first + arrays.len()).find(|&i| !self.program.reads_only(i)) {
            return Err(PyValueError::new_err(format!(
                "argument {index} of {} is written by the call (an op writes into it, as its `outs` or `dest`, or a result \
                 is computed in it), so it cannot be bound",
                self.name
            )));
        }
        let mut scratch = self
            .scratch
            .try_borrow_mut()
            .map_err(|_| busy(&self.name))?;
        let mut bound = self.bound.try_borrow_mut().map_err(|_| busy(&self.name))?;
        for (offset, array) in arrays.iter().enumerate() {
            let index = first + offset;
            bound[index] = false;
            let array = checked(py, &array, &scratch[index].ty, index)?;
            copy_in(&array, &mut scratch[index])?;
            bound[index] = true;
        }
        Ok(())
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

    /// The arguments (by index) the last call copied in: those the code
    /// writes into, and those not row-major or not aligned. It read the
    /// others where they were. Bound arguments are not counted.
    #[getter]
    fn copied_arguments(&self) -> PyResult<Vec<usize>> {
        let copied = self.copied.try_borrow().map_err(|_| busy(&self.name))?;
        Ok(copied.clone())
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

    /// Whether the code was loaded from the compile cache instead of compiled.
    #[getter]
    fn cached(&self) -> bool {
        self.program.times.cached
    }

    /// Seconds spent lowering and compiling (or loading the cached code).
    #[getter]
    fn compile_seconds(&self) -> f64 {
        self.program.times.lower_s + self.program.times.jit_s
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
