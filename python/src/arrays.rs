//! numpy arrays to the runner's arguments and back. An argument is
//! anything `numpy.asarray` takes (a CPU torch tensor too) whose dtype and
//! shape are the entry's. One the compiled code only reads is lent to the
//! call without a copy when it is row-major and aligned; any other is
//! copied into the call's aligned buffer (kept from call to call): one copy
//! when it is row-major and aligned, else numpy's row-major copy first.
//! Each result is a new array the call writes into directly.

use numpy::{
    Element, IxDyn, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn,
    PyReadwriteArrayDyn, PyUntypedArrayMethods,
};
use payload::types::{ElementType, TensorType};
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
        ElementType::I8 => "int8",
        ElementType::I1 => "bool",
    }
}

/// numpy's dtype of an element type.
fn element_dtype(py: Python<'_>, element: ElementType) -> Bound<'_, numpy::PyArrayDescr> {
    match element {
        ElementType::F32 => numpy::dtype::<f32>(py),
        ElementType::F64 => numpy::dtype::<f64>(py),
        ElementType::I32 => numpy::dtype::<i32>(py),
        ElementType::I64 => numpy::dtype::<i64>(py),
        ElementType::I8 => numpy::dtype::<i8>(py),
        ElementType::I1 => numpy::dtype::<bool>(py),
    }
}

/// An element type a payload takes, as numpy and plain bytes see it (the
/// host is little-endian: x86-64, as the JIT's code is).
trait Bytes: Element + bytemuck::Pod {}
impl<T: Element + bytemuck::Pod> Bytes for T {}

/// The row-major slice of `array` when it is row-major and aligned.
fn row_major<'a, T: Bytes>(array: &'a PyReadonlyArrayDyn<'_, T>) -> Option<&'a [T]> {
    // `as_slice` takes Fortran order too, and refuses unaligned memory.
    array
        .is_c_contiguous()
        .then(|| array.as_slice().ok())
        .flatten()
}

/// The elements of `array`, an array of `T` already checked to have
/// `tensor`'s shape, copied over `tensor`'s: one copy of the bytes when it
/// is row-major and aligned; else numpy makes an aligned row-major copy
/// first (of another order, a strided view, unaligned memory).
fn copy_into<T: Bytes>(array: &Bound<'_, PyAny>, tensor: &mut Tensor) -> PyResult<()> {
    let readonly: PyReadonlyArrayDyn<'_, T> = array.extract()?;
    if let Some(slice) = row_major(&readonly) {
        let bytes = bytemuck::cast_slice(slice);
        tensor.buffer.bytes_mut().copy_from_slice(bytes);
        return Ok(());
    }
    let numpy = array.py().import("numpy")?;
    let requirements = vec!["C_CONTIGUOUS", "ALIGNED"];
    let copy = numpy.call_method1("require", (array, array.py().None(), requirements))?;
    let readonly: PyReadonlyArrayDyn<'_, T> = copy.extract()?;
    let slice = row_major(&readonly).ok_or_else(|| {
        PyValueError::new_err("numpy.require made an array that is not row-major and aligned")
    })?;
    tensor
        .buffer
        .bytes_mut()
        .copy_from_slice(bytemuck::cast_slice(slice));
    Ok(())
}

/// Argument `index` as a numpy array, checked against `ty`, the entry's
/// type for it: a `TypeError` when its dtype differs (no silent
/// conversion), a `ValueError` when its shape does.
pub(crate) fn checked<'py>(
    py: Python<'py>,
    object: &Bound<'py, PyAny>,
    ty: &TensorType,
    index: usize,
) -> PyResult<Bound<'py, PyAny>> {
    // An array already is one (asarray and the dtype's name, a Python
    // property, took most of a small model's call).
    let array = match object.cast::<numpy::PyUntypedArray>() {
        Ok(_) => object.clone(),
        Err(_) => py.import("numpy")?.call_method1("asarray", (object,))?,
    };
    let untyped = array.cast::<numpy::PyUntypedArray>()?;
    if !untyped.dtype().is_equiv_to(&element_dtype(py, ty.element)) {
        let want = dtype_name(ty.element);
        let dtype: String = untyped.dtype().str()?.extract()?;
        let dtype_name: String = untyped.dtype().getattr("name")?.extract()?;
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
    Ok(array)
}

/// A `checked` bool array as numpy's `uint8` view of the same memory: numpy
/// stores a bool as one byte, 0 or 1, as compiled code stores an `i1`.
fn bool_bytes<'py>(array: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    array.call_method1("view", ("uint8",))
}

/// A `checked` array copied over `tensor`.
pub(crate) fn copy_in(array: &Bound<'_, PyAny>, tensor: &mut Tensor) -> PyResult<()> {
    match tensor.ty.element {
        ElementType::F32 => copy_into::<f32>(array, tensor),
        ElementType::F64 => copy_into::<f64>(array, tensor),
        ElementType::I32 => copy_into::<i32>(array, tensor),
        ElementType::I64 => copy_into::<i64>(array, tensor),
        ElementType::I8 => copy_into::<i8>(array, tensor),
        ElementType::I1 => copy_into::<u8>(&bool_bytes(array)?, tensor),
    }
}

/// An array's elements, borrowed for a call.
pub(crate) trait LentBytes {
    /// Its row-major bytes.
    fn bytes(&self) -> &[u8];
}

impl<T: Bytes> LentBytes for PyReadonlyArrayDyn<'_, T> {
    fn bytes(&self) -> &[u8] {
        // `lend` made it only when `as_slice` succeeded; were it to fail,
        // the empty slice is a size the call refuses.
        self.as_slice()
            .map(bytemuck::cast_slice)
            .unwrap_or_default()
    }
}

/// A `checked` array of `T`, borrowed when it is row-major and aligned.
fn lend_as<'py, T: Bytes>(array: &Bound<'py, PyAny>) -> PyResult<Option<Box<dyn LentBytes + 'py>>> {
    let array: PyReadonlyArrayDyn<'py, T> = array.extract()?;
    let lendable = row_major(&array).is_some();
    Ok(lendable.then(|| Box::new(array) as Box<dyn LentBytes>))
}

/// A `checked` array of element type `element`, borrowed for a call when it
/// is row-major and aligned; `None` when it must be copied.
pub(crate) fn lend<'py>(
    array: &Bound<'py, PyAny>,
    element: ElementType,
) -> PyResult<Option<Box<dyn LentBytes + 'py>>> {
    match element {
        ElementType::F32 => lend_as::<f32>(array),
        ElementType::F64 => lend_as::<f64>(array),
        ElementType::I32 => lend_as::<i32>(array),
        ElementType::I64 => lend_as::<i64>(array),
        ElementType::I8 => lend_as::<i8>(array),
        ElementType::I1 => lend_as::<u8>(&bool_bytes(array)?),
    }
}

/// A new array a call writes a result into.
pub(crate) trait ResultBytes {
    /// Its row-major bytes, to write.
    fn bytes_mut(&mut self) -> &mut [u8];
}

impl<T: Bytes> ResultBytes for PyReadwriteArrayDyn<'_, T> {
    fn bytes_mut(&mut self) -> &mut [u8] {
        // A new array is row-major and aligned; were it not, the empty
        // slice is a size the call refuses.
        self.as_slice_mut()
            .map(bytemuck::cast_slice_mut)
            .unwrap_or_default()
    }
}

/// A new array and its bytes to write.
type NewResult<'py> = (Bound<'py, PyAny>, Box<dyn ResultBytes + 'py>);

/// A new zeroed array of `T` of `shape`, and its bytes to write.
fn new_result_as<'py, T: Bytes>(py: Python<'py>, shape: &[usize]) -> PyResult<NewResult<'py>> {
    let array = PyArrayDyn::<T>::zeros(py, IxDyn(shape), false);
    let bytes = array.try_readwrite()?;
    Ok((array.clone().into_any(), Box::new(bytes)))
}

/// A new zeroed numpy array of `ty` (returned to the caller once the call
/// wrote it), and its bytes to write.
pub(crate) fn new_result<'py>(py: Python<'py>, ty: &TensorType) -> PyResult<NewResult<'py>> {
    let shape: Vec<usize> = ty.shape.iter().map(|&d| d as usize).collect();
    match ty.element {
        ElementType::F32 => new_result_as::<f32>(py, &shape),
        ElementType::F64 => new_result_as::<f64>(py, &shape),
        ElementType::I32 => new_result_as::<i32>(py, &shape),
        ElementType::I64 => new_result_as::<i64>(py, &shape),
        ElementType::I8 => new_result_as::<i8>(py, &shape),
        ElementType::I1 => {
            let (bytes_view, bytes) = new_result_as::<u8>(py, &shape)?;
            Ok((bytes_view.call_method1("view", ("bool",))?, bytes))
        }
    }
}
