//! numpy arrays to the runner's tensors and back. An argument is anything
//! `numpy.asarray` takes (a CPU torch tensor too) whose dtype and shape are
//! the entry's; its elements are copied into the call's aligned buffer
//! (one copy, C-contiguous or not; the buffers are kept from call to call),
//! and each result becomes a new array.

use numpy::{Element, PyArray1, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use payload::types::ElementType;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use runner::tensor::Tensor;

/// The numpy dtype name of an element type.
pub(crate) fn dtype_name(element: ElementType) -> &'static str {
    match element {
        ElementType::F32 => "float32",
        ElementType::F64 => "float64",
        ElementType::I32 => "int32",
        ElementType::I64 => "int64",
    }
}

/// An element type a payload takes, as numpy and plain bytes see it (the
/// host is little-endian: x86-64, as the JIT's code is).
trait Bytes: Element + bytemuck::Pod {}
impl<T: Element + bytemuck::Pod> Bytes for T {}

/// `values` (in row-major order) written over `tensor`'s elements.
fn fill<T: Bytes>(tensor: &mut Tensor, values: impl Iterator<Item = T>) {
    let size = std::mem::size_of::<T>();
    for (chunk, value) in tensor.buffer.bytes_mut().chunks_exact_mut(size).zip(values) {
        chunk.copy_from_slice(bytemuck::bytes_of(&value));
    }
}

/// The elements of `array`, an array of `T` already checked to have
/// `tensor`'s shape, copied over `tensor`'s: one copy of the bytes when it
/// is row-major, else element by element in its logical order.
fn copy_into<T: Bytes>(array: &Bound<'_, PyAny>, tensor: &mut Tensor) -> PyResult<()> {
    let array: PyReadonlyArrayDyn<'_, T> = array.extract()?;
    // `as_slice` takes Fortran order too: memory order only when row-major.
    let row_major = array
        .is_c_contiguous()
        .then(|| array.as_slice().ok())
        .flatten();
    match row_major {
        Some(slice) => tensor
            .buffer
            .bytes_mut()
            .copy_from_slice(bytemuck::cast_slice(slice)),
        None => fill(tensor, array.as_array().iter().copied()),
    }
    Ok(())
}

/// Argument `index` copied over `tensor` (of the entry's type for it): a
/// `TypeError` when its dtype differs (no silent conversion), a
/// `ValueError` when its shape does.
pub(crate) fn argument(
    py: Python<'_>,
    object: &Bound<'_, PyAny>,
    tensor: &mut Tensor,
    index: usize,
) -> PyResult<()> {
    let ty = tensor.ty.clone();
    let numpy = py.import("numpy")?;
    let array = numpy.call_method1("asarray", (object,))?;
    let untyped = array.cast::<numpy::PyUntypedArray>()?;
    let want = dtype_name(ty.element);
    let dtype: String = untyped.dtype().str()?.extract()?;
    let dtype_name: String = untyped.dtype().getattr("name")?.extract()?;
    if dtype_name != want {
        return Err(PyTypeError::new_err(format!(
            "argument {index}: the payload takes {want}, this array is {dtype_name} ({dtype}); \
             convert it with .astype(numpy.{want})"
        )));
    }
    let shape: Vec<i64> = untyped.shape().iter().map(|&d| d as i64).collect();
    if shape != ty.shape {
        return Err(PyValueError::new_err(format!(
            "argument {index}: the payload takes shape {:?}, this array has {:?}",
            ty.shape, shape
        )));
    }
    match ty.element {
        ElementType::F32 => copy_into::<f32>(&array, tensor),
        ElementType::F64 => copy_into::<f64>(&array, tensor),
        ElementType::I32 => copy_into::<i32>(&array, tensor),
        ElementType::I64 => copy_into::<i64>(&array, tensor),
    }
}

/// A new array holding `tensor`'s elements with its shape.
fn array_of<'py, T: Bytes>(py: Python<'py>, tensor: &Tensor) -> PyResult<Bound<'py, PyAny>> {
    let values: Vec<T> = bytemuck::allocation::pod_collect_to_vec(tensor.buffer.bytes());
    let shape: Vec<usize> = tensor.ty.shape.iter().map(|&d| d as usize).collect();
    Ok(PyArray1::from_vec(py, values).reshape(shape)?.into_any())
}

/// A result as a new numpy array.
pub(crate) fn result<'py>(py: Python<'py>, tensor: &Tensor) -> PyResult<Bound<'py, PyAny>> {
    match tensor.ty.element {
        ElementType::F32 => array_of::<f32>(py, tensor),
        ElementType::F64 => array_of::<f64>(py, tensor),
        ElementType::I32 => array_of::<i32>(py, tensor),
        ElementType::I64 => array_of::<i64>(py, tensor),
    }
}
