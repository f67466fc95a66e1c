//! The only place in this crate that calls the MLIR C API directly: walking a
//! module's operations and reading their names, attributes, operands and
//! locations as text, the ExecutionEngine, the transform interpreter's entry
//! point (`mlirTransformApplyNamedSequence`, which melior 0.27 does not wrap),
//! and the dialect registration of `shim/registry.cpp`. Each raw handle is
//! wrapped in a `Copy` view whose lifetime ties it to the module it came from.

use melior::ir::operation::OperationRef;
use mlir_sys::*;
use std::ffi::c_void;
use std::marker::PhantomData;

/// A borrowed view of one operation of a module that outlives `'m`.
#[derive(Clone, Copy)]
pub struct OpView<'m> {
    raw: MlirOperation,
    _module: PhantomData<&'m ()>,
}

unsafe extern "C" fn append_to_string(text: MlirStringRef, data: *mut c_void) {
    // SAFETY: `data` is the `&mut String` passed by `print_to_string`, alive for the call;
    // MLIR passes a valid (pointer, length) pair for the duration of the callback.
    unsafe {
        let out = &mut *(data as *mut String);
        let bytes = std::slice::from_raw_parts(text.data as *const u8, text.length);
        out.push_str(&String::from_utf8_lossy(bytes));
    }
}

fn print_to_string(print: impl FnOnce(MlirStringCallback, *mut c_void)) -> String {
    let mut out = String::new();
    print(
        Some(append_to_string),
        &mut out as *mut String as *mut c_void,
    );
    out
}

/// Parses `text`, which must be one explicit `module` op, as a module whose
/// locations name `source_name` (melior's `Module::parse` names every buffer
/// `-`, so the payload's and the transform script's locations could not be
/// told apart). `None` after a parse error, which MLIR reports through the
/// context's diagnostics, or when the text holds another kind of op.
pub fn parse_module_named<'c>(
    context: &'c melior::Context,
    text: &str,
    source_name: &str,
) -> Option<melior::ir::Module<'c>> {
    // SAFETY: the context outlives the call; both string refs point into
    // borrowed strings that live for the call; the result is checked for null.
    let raw = unsafe {
        mlirOperationCreateParse(context.to_raw(), string_ref(text), string_ref(source_name))
    };
    if raw.ptr.is_null() {
        return None;
    }
    // SAFETY: `raw` is a fresh top-level operation that nothing else owns;
    // `Operation::from_raw` takes ownership (and `Module` then owns it).
    let operation = unsafe { melior::ir::Operation::from_raw(raw) };
    melior::ir::Module::from_operation(operation)
}

/// A borrowed (pointer, length) view of a Rust string for the C API.
pub fn string_ref(text: &str) -> MlirStringRef {
    MlirStringRef {
        data: text.as_ptr() as *const _,
        length: text.len(),
    }
}

fn string_ref_to_string(value: MlirStringRef) -> String {
    if value.data.is_null() {
        return String::new();
    }
    // SAFETY: a non-null MlirStringRef points at `length` valid bytes owned by the context.
    let bytes = unsafe { std::slice::from_raw_parts(value.data as *const u8, value.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

impl<'m> OpView<'m> {
    /// Wraps a raw operation.
    ///
    /// # Safety
    /// `raw` must be a valid, non-null operation that stays alive for `'m`.
    pub unsafe fn from_raw(raw: MlirOperation) -> Self {
        Self {
            raw,
            _module: PhantomData,
        }
    }

    /// The raw handle, for identity comparisons only.
    pub fn to_raw(self) -> MlirOperation {
        self.raw
    }

    /// A view of a module's top-level operation, borrowing the module.
    pub fn of_module(module: &'m melior::ir::Module) -> Self {
        // SAFETY: the module owns the operation and outlives `'m` (borrowed).
        unsafe { Self::from_raw(module.as_operation().to_raw()) }
    }

    /// The op's name, like `linalg.generic`.
    pub fn name(self) -> String {
        // SAFETY: `self.raw` is valid for `'m` (constructor contract).
        string_ref_to_string(unsafe { mlirIdentifierStr(mlirOperationGetName(self.raw)) })
    }

    /// The ops directly inside this op's regions, in order.
    pub fn children(self) -> Vec<OpView<'m>> {
        let mut children = Vec::new();
        // SAFETY: regions, blocks and ops are read from a valid op; null handles end each list.
        unsafe {
            for r in 0..mlirOperationGetNumRegions(self.raw) {
                let region = mlirOperationGetRegion(self.raw, r);
                let mut block = mlirRegionGetFirstBlock(region);
                while !block.ptr.is_null() {
                    let mut op = mlirBlockGetFirstOperation(block);
                    while !op.ptr.is_null() {
                        children.push(OpView::from_raw(op));
                        op = mlirOperationGetNextInBlock(op);
                    }
                    block = mlirBlockGetNextInRegion(block);
                }
            }
        }
        children
    }

    /// An attribute printed as MLIR text, if the op has it.
    pub fn attribute_text(self, name: &str) -> Option<String> {
        // SAFETY: the name is passed as (pointer, length) valid for the call; a missing
        // attribute comes back null and is checked before printing.
        unsafe {
            let attribute = mlirOperationGetAttributeByName(self.raw, string_ref(name));
            if attribute.ptr.is_null() {
                return None;
            }
            Some(print_to_string(|callback, data| {
                mlirAttributePrint(attribute, callback, data)
            }))
        }
    }

    /// A string attribute's value, if the op has one by that name.
    pub fn string_attribute(self, name: &str) -> Option<String> {
        // SAFETY: as in `attribute_text`; the kind is checked before reading the value.
        unsafe {
            let attribute = mlirOperationGetAttributeByName(self.raw, string_ref(name));
            if attribute.ptr.is_null() || !mlirAttributeIsAString(attribute) {
                return None;
            }
            Some(string_ref_to_string(mlirStringAttrGetValue(attribute)))
        }
    }

    /// The elements of a dense i32 array attribute (like `operandSegmentSizes`).
    pub fn i32_array_attribute(self, name: &str) -> Option<Vec<i32>> {
        // SAFETY: as in `attribute_text`; the kind is checked before reading elements.
        unsafe {
            let attribute = mlirOperationGetAttributeByName(self.raw, string_ref(name));
            if attribute.ptr.is_null() || !mlirAttributeIsADenseI32Array(attribute) {
                return None;
            }
            let count = mlirDenseArrayGetNumElements(attribute);
            Some(
                (0..count)
                    .map(|i| mlirDenseI32ArrayGetElement(attribute, i))
                    .collect(),
            )
        }
    }

    /// Number of operands.
    pub fn operand_count(self) -> usize {
        // SAFETY: valid op.
        unsafe { mlirOperationGetNumOperands(self.raw) as usize }
    }

    /// The op that defines operand `index`, if it is an op result (not a block argument).
    pub fn operand_owner(self, index: usize) -> Option<MlirOperation> {
        // SAFETY: `index` is below the operand count (checked by callers through `operand_count`).
        unsafe {
            let value = mlirOperationGetOperand(self.raw, index as isize);
            mlirValueIsAOpResult(value).then(|| mlirOpResultGetOwner(value))
        }
    }

    /// Which argument of `function`'s entry block operand `index` is, looking
    /// through `memref.cast`s; `None` for any other value or a bad index.
    pub fn operand_argument_of(self, index: usize, function: OpView<'m>) -> Option<usize> {
        if index >= self.operand_count() {
            return None;
        }
        // SAFETY: valid ops (constructor contract) and an index below the operand
        // count; every value, owner and block read comes from them and is checked
        // for its kind before use.
        unsafe {
            let mut value = mlirOperationGetOperand(self.raw, index as isize);
            while mlirValueIsAOpResult(value) {
                let owner = mlirOpResultGetOwner(value);
                if Self::from_raw(owner).name() != "memref.cast" {
                    return None;
                }
                value = mlirOperationGetOperand(owner, 0);
            }
            if !mlirValueIsABlockArgument(value) || mlirOperationGetNumRegions(function.raw) == 0 {
                return None;
            }
            let entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(function.raw, 0));
            mlirBlockEqual(mlirBlockArgumentGetOwner(value), entry)
                .then(|| mlirBlockArgumentGetArgNumber(value) as usize)
        }
    }

    /// Where operand `index` comes from inside `owner`'s first block: one of
    /// its arguments, or one of the ops directly in it (by position).
    pub fn operand_source(self, index: usize, owner: OpView<'m>) -> Option<ValueSource> {
        if index >= self.operand_count() {
            return None;
        }
        // SAFETY: valid ops (constructor contract) and an index below the operand
        // count; the value's kind is checked before reading its owner.
        unsafe {
            let value = mlirOperationGetOperand(self.raw, index as isize);
            if mlirValueIsABlockArgument(value) {
                if mlirOperationGetNumRegions(owner.raw) == 0 {
                    return None;
                }
                let entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(owner.raw, 0));
                return mlirBlockEqual(mlirBlockArgumentGetOwner(value), entry)
                    .then(|| ValueSource::Argument(mlirBlockArgumentGetArgNumber(value) as usize));
            }
            let defining = mlirOpResultGetOwner(value);
            owner
                .children()
                .iter()
                .position(|op| op.raw.ptr == defining.ptr)
                .map(ValueSource::Op)
        }
    }

    /// The type of operand `index`, printed.
    pub fn operand_type(self, index: usize) -> String {
        // SAFETY: `index` is below the operand count.
        unsafe {
            let value = mlirOperationGetOperand(self.raw, index as isize);
            let ty = mlirValueGetType(value);
            print_to_string(|callback, data| mlirTypePrint(ty, callback, data))
        }
    }

    /// For a `func.func`: its input and result types, each printed.
    pub fn function_types(self) -> Option<(Vec<String>, Vec<String>)> {
        // SAFETY: as in `attribute_text`; the attribute and type kinds are checked before use.
        unsafe {
            let attribute = mlirOperationGetAttributeByName(self.raw, string_ref("function_type"));
            if attribute.ptr.is_null() || !mlirAttributeIsAType(attribute) {
                return None;
            }
            let ty = mlirTypeAttrGetValue(attribute);
            if !mlirTypeIsAFunction(ty) {
                return None;
            }
            let print =
                |t: MlirType| print_to_string(|callback, data| mlirTypePrint(t, callback, data));
            let inputs = (0..mlirFunctionTypeGetNumInputs(ty))
                .map(|i| print(mlirFunctionTypeGetInput(ty, i)))
                .collect();
            let results = (0..mlirFunctionTypeGetNumResults(ty))
                .map(|i| print(mlirFunctionTypeGetResult(ty, i)))
                .collect();
            Some((inputs, results))
        }
    }

    /// The op's location, printed (`loc("conv.mlir":13:16)`).
    pub fn location(self) -> String {
        // SAFETY: valid op; its location belongs to the same context.
        unsafe {
            let location = mlirOperationGetLocation(self.raw);
            print_to_string(|callback, data| mlirLocationPrint(location, callback, data))
        }
    }
}

/// One accelerator's state as JIT-compiled code sees it: the kernel its
/// tile calls go to, the context they update (counters first, as the tile
/// ABI says), and the status word the offload helper stores a failed call's
/// code in. Boxed, so the addresses bound into the JIT stay put.
pub struct KernelSlot {
    /// The target's name.
    pub target: String,
    /// Its kernel (and the library that holds it, kept loaded).
    pub kernel: microkernels::Kernel,
    context: Box<std::cell::UnsafeCell<microkernels::abi::DeviceContext>>,
    status: Box<std::cell::UnsafeCell<i32>>,
}

impl KernelSlot {
    /// A slot for `kernel`, the kernel of target `target`.
    pub fn new(target: &str, kernel: microkernels::Kernel) -> Self {
        let context = kernel.context;
        KernelSlot {
            target: target.to_string(),
            kernel,
            context: Box::new(std::cell::UnsafeCell::new(context)),
            status: Box::new(std::cell::UnsafeCell::new(0)),
        }
    }

    /// The counters, as the calls so far left them.
    pub fn counters(&self) -> microkernels::Counters {
        // SAFETY: JIT-compiled code writes the context only during a call
        // of the program, and `Program::call` takes `&self` on one thread:
        // no call is running while this reads.
        unsafe { (*self.context.get()).counters }
    }

    /// The first failed call's status code since the last reset (0: none).
    pub fn status(&self) -> i32 {
        // SAFETY: as in `counters`.
        unsafe { *self.status.get() }
    }

    /// Zeroes the counters and the status word before a call.
    pub fn reset(&self) {
        // SAFETY: as in `counters`; no call is running, so nothing else
        // accesses the context or the status word.
        unsafe {
            (*self.context.get()).counters = microkernels::Counters::default();
            *self.status.get() = 0;
        }
    }
}

/// A shared reference to the op `op` points at (melior has no safe
/// conversion), to insert ops before it.
pub fn shared_ref<'c, 'a>(
    op: &melior::ir::operation::OperationRefMut<'c, 'a>,
) -> OperationRef<'c, 'a> {
    use melior::ir::operation::OperationLike;
    // SAFETY: the same valid op, borrowed for no longer than the mutable
    // reference's lifetimes.
    unsafe { OperationRef::from_raw(op.to_raw()) }
}

/// Erases `op`, found by a post-order walk (which allows erasing the op it
/// visits). The op must have no results in use.
pub fn erase_visited(op: melior::ir::operation::OperationRefMut<'_, '_>) -> Result<(), String> {
    let raw = op.to_raw();
    // SAFETY: valid op (from the walk); its results are checked for uses first.
    unsafe {
        for i in 0..mlirOperationGetNumResults(raw) {
            if !mlirValueGetFirstUse(mlirOperationGetResult(raw, i))
                .ptr
                .is_null()
            {
                return Err("the op's results are still used".into());
            }
        }
        mlirOperationDestroy(raw);
    }
    Ok(())
}

/// Where a value inside a block comes from ([`OpView::operand_source`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueSource {
    /// The block's argument with this number.
    Argument(usize),
    /// A result of the op at this position in the block.
    Op(usize),
}

/// A zero-initialized, 64-byte-aligned block of host memory that JIT-compiled
/// code reads and writes through a memref descriptor.
pub struct HostBuffer {
    ptr: std::ptr::NonNull<u8>,
    len: usize,
}

// SAFETY: the buffer exclusively owns its allocation, like a `Vec<u8>`.
unsafe impl Send for HostBuffer {}

const BUFFER_ALIGN: usize = 64;

/// Buffers from this size on get a memory mapping of their own, returned to
/// the system when dropped. Through `malloc`, tensors of tens of MB that are
/// copied and dropped at every call (fresh inputs, results moved out of
/// arguments) made the process's peak memory creep up call after call, as
/// glibc raises its mapping threshold after the first free and then serves
/// them from its heaps, which fragment.
const MAPPED_FROM: usize = 1 << 20;

impl HostBuffer {
    /// Allocates `len` zeroed bytes.
    pub fn zeroed(len: usize) -> Self {
        if len == 0 {
            return Self {
                ptr: std::ptr::NonNull::<[u8; BUFFER_ALIGN]>::dangling().cast(),
                len: 0,
            };
        }
        let layout = std::alloc::Layout::from_size_align(len, BUFFER_ALIGN)
            .expect("buffer sizes come from static tensor shapes");
        let raw = if len >= MAPPED_FROM {
            // SAFETY: a fresh private anonymous mapping (zero-filled, page-aligned),
            // owned by this buffer and unmapped exactly once in `drop`.
            let mapped = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    len,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                )
            };
            if mapped == libc::MAP_FAILED {
                std::ptr::null_mut()
            } else {
                mapped as *mut u8
            }
        } else {
            // SAFETY: `layout` has a non-zero size.
            unsafe { std::alloc::alloc_zeroed(layout) }
        };
        let ptr =
            std::ptr::NonNull::new(raw).unwrap_or_else(|| std::alloc::handle_alloc_error(layout));
        Self { ptr, len }
    }

    /// Size in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True for a zero-byte buffer.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The contents.
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: `ptr` points at `len` initialized bytes owned by `self` (or dangles with len 0).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    /// The contents, writable.
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in `bytes`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl Clone for HostBuffer {
    fn clone(&self) -> Self {
        let mut copy = HostBuffer::zeroed(self.len);
        copy.bytes_mut().copy_from_slice(self.bytes());
        copy
    }
}

impl Drop for HostBuffer {
    fn drop(&mut self) {
        if self.len >= MAPPED_FROM {
            // SAFETY: mapped in `zeroed` with this very length, unmapped once.
            unsafe { libc::munmap(self.ptr.as_ptr() as *mut libc::c_void, self.len) };
        } else if self.len > 0 {
            let layout = std::alloc::Layout::from_size_align(self.len, BUFFER_ALIGN)
                .expect("checked at allocation");
            // SAFETY: allocated in `zeroed` with this very layout.
            unsafe { std::alloc::dealloc(self.ptr.as_ptr(), layout) }
        }
    }
}

/// One memref argument of a JIT call: a buffer and the static shape the
/// compiled code indexes it with (row-major, contiguous).
pub struct MemrefArg<'b> {
    /// The data.
    pub buffer: &'b mut HostBuffer,
    /// The shape.
    pub shape: &'b [i64],
    /// Bytes per element.
    pub element_bytes: usize,
}

/// A JIT-compiled module (MLIR's ExecutionEngine).
pub struct JitEngine {
    raw: MlirExecutionEngine,
}

impl JitEngine {
    /// Compiles `module`, which must already be in the LLVM dialect.
    /// `shared_libraries` are loaded into the JIT's symbol space.
    /// Returns `None` when MLIR cannot translate or compile it (its
    /// diagnostics, if any, are emitted on the module's context).
    ///
    /// Each of `kernels` is bound before anything is linked: its kernel, its
    /// context and its status word under the symbols `payload::offload`
    /// declares for its target.
    pub fn new(
        module: &melior::ir::Module,
        opt_level: i32,
        shared_libraries: &[&str],
        kernels: &[KernelSlot],
    ) -> Option<Self> {
        // MLIR's C API reads each path's `data` as a NUL-terminated string and
        // ignores `length`, so the paths are passed as C strings.
        let owned: Vec<std::ffi::CString> = shared_libraries
            .iter()
            .filter_map(|p| std::ffi::CString::new(*p).ok())
            .collect();
        let paths: Vec<MlirStringRef> = owned
            .iter()
            .map(|p| MlirStringRef {
                data: p.as_ptr(),
                length: p.as_bytes().len(),
            })
            .collect();
        // SAFETY: the module is alive for the call; `owned` and `paths` outlive
        // it; a failed creation returns a null engine, checked below.
        let raw = unsafe {
            mlirExecutionEngineCreate(
                module.to_raw(),
                opt_level,
                paths.len() as i32,
                paths.as_ptr(),
                false,
                false,
            )
        };
        if raw.ptr.is_null() {
            return None;
        }
        for slot in kernels {
            use crate::offload::{context_symbol, kernel_symbol, status_symbol, Types};
            let mut symbols = vec![
                (
                    kernel_symbol(&slot.target, Types::F32),
                    slot.kernel.f32 as *mut c_void,
                ),
                (context_symbol(&slot.target), slot.context.get().cast()),
                (status_symbol(&slot.target), slot.status.get().cast()),
            ];
            if let Some(i8i32) = slot.kernel.i8i32 {
                symbols.push((
                    kernel_symbol(&slot.target, Types::I8I32),
                    i8i32 as *mut c_void,
                ));
            }
            for (name, address) in symbols {
                // SAFETY: valid engine, nothing linked yet (no lookup happened);
                // the kernel is a function of the tile ABI, and the context and
                // status word are boxed in a slot the `Program` keeps alive for
                // as long as the engine (declared after it, so dropped after it).
                unsafe { mlirExecutionEngineRegisterSymbol(raw, string_ref(&name), address) };
            }
        }
        Some(Self { raw })
    }

    /// The address of symbol `name` in the JIT's symbol space, or null.
    fn lookup(&self, name: &str) -> *mut c_void {
        // SAFETY: valid engine; the name is valid for the call.
        unsafe { mlirExecutionEngineLookup(self.raw, string_ref(name)) }
    }

    /// The packed wrapper (`void(void**)`) of `function`'s C interface, or null.
    fn c_interface_wrapper(&self, function: &str) -> *mut c_void {
        self.lookup(&format!("_mlir__mlir_ciface_{function}"))
    }

    /// A symbol of the OpenMP runtime, found through the JIT's symbol space
    /// (the runtime must have been loaded into it).
    fn openmp_symbol(&self, name: &str) -> Result<*mut c_void, String> {
        let symbol = self.lookup(name);
        if symbol.is_null() {
            Err(format!(
                "the OpenMP runtime is not loaded into the JIT ({name} not found)"
            ))
        } else {
            Ok(symbol)
        }
    }

    /// Calls the OpenMP runtime's `omp_set_num_threads(threads)`.
    pub fn set_openmp_threads(&self, threads: i32) -> Result<(), String> {
        let symbol = self.openmp_symbol("omp_set_num_threads")?;
        // SAFETY: `omp_set_num_threads` has the C signature `void(int)` in
        // every OpenMP runtime; the symbol comes from the loaded runtime.
        unsafe {
            let set: unsafe extern "C" fn(i32) = std::mem::transmute(symbol);
            set(threads);
        }
        Ok(())
    }

    /// The OpenMP runtime's `omp_get_max_threads()`: the threads the next parallel loop gets.
    pub fn openmp_max_threads(&self) -> Result<i32, String> {
        let symbol = self.openmp_symbol("omp_get_max_threads")?;
        // SAFETY: `omp_get_max_threads` has the C signature `int(void)` in
        // every OpenMP runtime; the symbol comes from the loaded runtime.
        Ok(unsafe {
            let get: unsafe extern "C" fn() -> i32 = std::mem::transmute(symbol);
            get()
        })
    }

    /// Whether the module defines the packed wrapper of `function`'s C interface.
    pub fn has_c_interface(&self, function: &str) -> bool {
        !self.c_interface_wrapper(function).is_null()
    }

    /// Calls `function`'s C interface, `_mlir_ciface_<function>(desc*, …)`,
    /// passing each argument as a pointer to a ranked memref descriptor
    /// `{allocated, aligned, offset, sizes[r], strides[r]}`. The function must
    /// take exactly these memrefs, with these shapes, and return nothing.
    pub fn call(&self, function: &str, args: &mut [MemrefArg<'_>]) -> Result<(), String> {
        for (i, arg) in args.iter().enumerate() {
            let elements: i64 = arg.shape.iter().product();
            if arg.shape.iter().any(|&d| d < 0)
                || elements as usize * arg.element_bytes != arg.buffer.len()
            {
                return Err(format!(
                    "argument {i}: a buffer of {} bytes does not hold shape {:?}",
                    arg.buffer.len(),
                    arg.shape
                ));
            }
        }
        let wrapper = self.c_interface_wrapper(function);
        if wrapper.is_null() {
            return Err(format!(
                "the compiled module has no C interface for `{function}`"
            ));
        }
        // Descriptors laid out as MLIR's C interface expects: 8-byte fields.
        let mut descriptors: Vec<Vec<i64>> = args
            .iter_mut()
            .map(|arg| {
                let base = arg.buffer.bytes_mut().as_mut_ptr() as i64;
                let mut fields = vec![base, base, 0];
                fields.extend_from_slice(arg.shape);
                let mut strides = vec![1i64; arg.shape.len()];
                for d in (0..arg.shape.len().saturating_sub(1)).rev() {
                    strides[d] = strides[d + 1] * arg.shape[d + 1];
                }
                fields.extend(strides);
                fields
            })
            .collect();
        let mut descriptor_ptrs: Vec<*mut i64> =
            descriptors.iter_mut().map(|d| d.as_mut_ptr()).collect();
        let mut packed: Vec<*mut c_void> = descriptor_ptrs
            .iter_mut()
            .map(|p| p as *mut *mut i64 as *mut c_void)
            .collect();
        // SAFETY: the ExecutionEngine generates `_mlir_<f>` packed wrappers of
        // type `void(void**)` for every function, here for the C interface
        // `_mlir_ciface_<function>`, which takes one descriptor pointer per
        // argument. Each packed entry points at a descriptor pointer alive for
        // the call, and each descriptor covers a buffer whose size matches its
        // shape (checked above), so the callee's accesses stay in bounds.
        unsafe {
            let packed_wrapper: unsafe extern "C" fn(*mut *mut c_void) =
                std::mem::transmute(wrapper);
            packed_wrapper(packed.as_mut_ptr());
        }
        Ok(())
    }
}

impl Drop for JitEngine {
    fn drop(&mut self) {
        // SAFETY: created by `mlirExecutionEngineCreate` and destroyed once.
        unsafe { mlirExecutionEngineDestroy(self.raw) }
    }
}

/// Owned transform-interpreter options.
struct TransformOptions(MlirTransformOptions);

impl TransformOptions {
    fn new(expensive_checks: bool) -> Self {
        // SAFETY: creating options has no preconditions; the handle is destroyed in Drop.
        let raw = unsafe { mlirTransformOptionsCreate() };
        // SAFETY: `raw` was just created and is valid.
        unsafe { mlirTransformOptionsEnableExpensiveChecks(raw, expensive_checks) };
        Self(raw)
    }
}

impl Drop for TransformOptions {
    fn drop(&mut self) {
        // SAFETY: created by `mlirTransformOptionsCreate` and destroyed exactly once.
        unsafe { mlirTransformOptionsDestroy(self.0) }
    }
}

unsafe extern "C" {
    /// Defined in `shim/registry.cpp`.
    fn schedRegisterDialects(registry: MlirDialectRegistry);
}

/// Registers every upstream dialect with its interface implementations, the
/// transform extensions the planner's scripts use, and the LLVM-conversion
/// interfaces lowering needs (`shim/registry.cpp` lists them and says why).
pub fn register_dialects(registry: &melior::dialect::DialectRegistry) {
    // SAFETY: `registry` is a live registry; the shim only inserts into it.
    unsafe { schedRegisterDialects(registry.to_raw()) }
}

/// Runs the named sequence `entry` of `transform_module` on `payload`.
/// `expensive_checks` makes the interpreter verify every handle use (slower,
/// catches use-after-invalidation). Returns whether it succeeded; diagnostics
/// go to the context's handlers.
pub fn apply_named_sequence(
    payload: OperationRef,
    entry: OperationRef,
    transform_module: OperationRef,
    expensive_checks: bool,
) -> bool {
    let options = TransformOptions::new(expensive_checks);
    // SAFETY: all three operations are alive for the duration of the call (borrowed),
    // belong to the same context, and `entry` is nested in `transform_module`
    // (checked by the caller); the options outlive the call.
    let result = unsafe {
        mlirTransformApplyNamedSequence(
            payload.to_raw(),
            entry.to_raw(),
            transform_module.to_raw(),
            options.0,
        )
    };
    result.value != 0
}
