//! The JIT side of the crate's C API calls: compiled code
//! (`JitEngine`), the host memory JIT-compiled code reads and writes
//! (`HostBuffer`, passed as memref descriptors), and what accelerated tiles
//! reach through symbols bound into the JIT (`KernelSlot`). Part of the one
//! `ffi` module: every `unsafe` block says why it is sound.

use mlir_sys::*;
use std::ffi::c_void;

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

/// A zero-initialized, 64-byte-aligned block of host memory that JIT-compiled
/// code reads and writes through a memref descriptor.
pub struct HostBuffer {
    ptr: std::ptr::NonNull<u8>,
    len: usize,
}

// SAFETY: the buffer exclusively owns its allocation, like a `Vec<u8>`.
unsafe impl Send for HostBuffer {}
// SAFETY: like a `Vec<u8>`'s, its bytes are written only through `&mut self`
// (a shared buffer is only read).
unsafe impl Sync for HostBuffer {}

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

/// One memref argument of a JIT call: the bytes of a buffer and the static
/// shape the compiled code indexes it with (row-major, contiguous).
pub struct MemrefArg<'b> {
    /// The first byte.
    data: *mut u8,
    /// How many bytes.
    len: usize,
    /// The shape.
    shape: &'b [i64],
    /// Bytes per element.
    element_bytes: usize,
    /// The bytes are borrowed for the call.
    bytes: std::marker::PhantomData<&'b [u8]>,
}

impl<'b> MemrefArg<'b> {
    /// A buffer the call may write.
    pub fn writable(bytes: &'b mut [u8], shape: &'b [i64], element_bytes: usize) -> Self {
        Self {
            data: bytes.as_mut_ptr(),
            len: bytes.len(),
            shape,
            element_bytes,
            bytes: std::marker::PhantomData,
        }
    }

    /// A buffer the call only reads: only for an argument the compiled code
    /// never writes (one `lowering::Boundary::read_only` names; the caller
    /// checks).
    pub(crate) fn read_only(bytes: &'b [u8], shape: &'b [i64], element_bytes: usize) -> Self {
        Self {
            data: bytes.as_ptr().cast_mut(),
            len: bytes.len(),
            shape,
            element_bytes,
            bytes: std::marker::PhantomData,
        }
    }
}

/// The largest block the C allocator keeps in its heap when freed (glibc's
/// upper limit for `M_MMAP_THRESHOLD` on 64-bit systems).
const KEPT_BLOCK_BYTES: i32 = 32 << 20;

/// Makes the C allocator, which JIT-compiled code's `memref.alloc`s call,
/// keep freed blocks of up to [`KEPT_BLOCK_BYTES`] for the next call instead
/// of returning them to the system. Otherwise a payload's large temporaries
/// (a 3 MB activation between two layers) are mapped anew and page-faulted
/// in on every call, which dominated small models' calls. Peak memory stays
/// what the live buffers need.
/// Done once per process; a no-op outside glibc.
fn keep_freed_memory() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        // SAFETY: mallopt only sets allocator parameters; called once, before
        // JIT-compiled code allocates anything.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, KEPT_BLOCK_BYTES);
            libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
        }
    });
}

/// A JIT-compiled module: object files for this host (compiled now by
/// `shim/compile.cpp`, or read from the cache), linked by ORC.
pub struct JitEngine {
    orc: super::orc::OrcEngine,
    /// The object files, kept for [`JitEngine::objects_file`].
    objects: Vec<Vec<u8>>,
    /// Functions' C interface wrappers already looked up: a lookup through
    /// ORC took a few microseconds, at every call.
    wrappers: std::sync::Mutex<std::collections::HashMap<String, usize>>,
}

/// The symbols bound into every JIT: the stage marks' clock
/// (`crate::stage_times`), and for `kernels` each target's kernel, context
/// and status word under the names `crate::offload` declares.
fn kernel_symbols(kernels: &[KernelSlot]) -> Vec<(String, *mut c_void)> {
    use crate::offload::{context_symbol, kernel_symbol, status_symbol, Types};
    let mut symbols = vec![(
        crate::stage_times::MARK_SYMBOL.to_string(),
        crate::stage_times::sched_stage_mark as *mut c_void,
    )];
    for slot in kernels {
        symbols.push((
            kernel_symbol(&slot.target, Types::F32),
            slot.kernel.f32 as *mut c_void,
        ));
        symbols.push((context_symbol(&slot.target), slot.context.get().cast()));
        symbols.push((status_symbol(&slot.target), slot.status.get().cast()));
        if let Some(i8i32) = slot.kernel.i8i32 {
            symbols.push((
                kernel_symbol(&slot.target, Types::I8I32),
                i8i32 as *mut c_void,
            ));
        }
    }
    symbols
}

unsafe extern "C" {
    /// Defined in `shim/compile.cpp`.
    fn schedCompileObjects(
        module: MlirOperation,
        opt_level: i32,
        parts: i32,
        on_object: MlirStringCallback,
        object_data: *mut c_void,
        on_error: MlirStringCallback,
        error_data: *mut c_void,
    ) -> bool;
}

/// Appends the bytes MLIR passes to the `Vec<Vec<u8>>` behind `data`, as
/// one more element.
unsafe extern "C" fn push_bytes(bytes: MlirStringRef, data: *mut c_void) {
    // SAFETY: `data` is the `&mut Vec<Vec<u8>>` `JitEngine::compile` passes,
    // alive for the call; the shim passes a valid (pointer, length) pair
    // for the duration of the callback.
    unsafe {
        let out = &mut *(data as *mut Vec<Vec<u8>>);
        out.push(std::slice::from_raw_parts(bytes.data as *const u8, bytes.length).to_vec());
    }
}

/// The first bytes of [`JitEngine::objects_file`].
const OBJECTS_MAGIC: &[u8; 8] = b"SCHEDOBJ";

impl JitEngine {
    /// Compiles `module`, which must already be in the LLVM dialect:
    /// optimized whole at `opt_level`, then machine code generated in up to
    /// `parts` object files on as many threads (`shim/compile.cpp`), linked
    /// with `shared_libraries` (loaded into the JIT's symbol space) and
    /// `kernels` (each kernel, context and status word under the symbols
    /// `crate::offload` declares for its target).
    pub fn compile(
        module: &melior::ir::Module,
        opt_level: i32,
        parts: usize,
        shared_libraries: &[&str],
        kernels: &[KernelSlot],
    ) -> Result<Self, String> {
        keep_freed_memory();
        let mut objects: Vec<Vec<u8>> = Vec::new();
        let mut error = String::new();
        // SAFETY: the module is alive for the call; the callbacks receive the
        // two locals, alive for the call, as their `data`.
        let compiled = unsafe {
            schedCompileObjects(
                module.as_operation().to_raw(),
                opt_level,
                i32::try_from(parts).unwrap_or(i32::MAX),
                Some(push_bytes),
                &mut objects as *mut Vec<Vec<u8>> as *mut c_void,
                Some(payload::ffi::append_to_string),
                &mut error as *mut String as *mut c_void,
            )
        };
        if !compiled {
            return Err(error);
        }
        Self::link(objects, shared_libraries, kernels)
    }

    /// Loads the object files of a [`JitEngine::objects_file`], linked with
    /// `shared_libraries` and `kernels` as [`JitEngine::compile`] links them.
    pub fn from_objects(
        file: &[u8],
        shared_libraries: &[&str],
        kernels: &[KernelSlot],
    ) -> Result<Self, String> {
        keep_freed_memory();
        let mut rest = file
            .strip_prefix(OBJECTS_MAGIC.as_slice())
            .ok_or("not a file of compiled objects")?;
        let mut objects = Vec::new();
        while !rest.is_empty() {
            let (length, after) = rest.split_at_checked(8).ok_or("a truncated length")?;
            let length = u64::from_le_bytes(length.try_into().expect("8 bytes")) as usize;
            let (object, after) = after.split_at_checked(length).ok_or("a truncated object")?;
            objects.push(object.to_vec());
            rest = after;
        }
        Self::link(objects, shared_libraries, kernels)
    }

    fn link(
        objects: Vec<Vec<u8>>,
        shared_libraries: &[&str],
        kernels: &[KernelSlot],
    ) -> Result<Self, String> {
        let orc =
            super::orc::OrcEngine::load(&objects, shared_libraries, &kernel_symbols(kernels))?;
        Ok(Self {
            orc,
            objects,
            wrappers: Default::default(),
        })
    }

    /// The object files, each after its length, as one file for
    /// [`JitEngine::from_objects`].
    pub fn objects_file(&self) -> Vec<u8> {
        let mut file = OBJECTS_MAGIC.to_vec();
        for object in &self.objects {
            file.extend_from_slice(&(object.len() as u64).to_le_bytes());
            file.extend_from_slice(object);
        }
        file
    }

    /// The address of symbol `name` in the JIT's symbol space, or null.
    fn lookup(&self, name: &str) -> *mut c_void {
        self.orc.lookup(name)
    }

    /// The packed wrapper (`void(void**)`) of `function`'s C interface, or null.
    fn c_interface_wrapper(&self, function: &str) -> *mut c_void {
        let mut wrappers = self
            .wrappers
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(&address) = wrappers.get(function) {
            return address as *mut c_void;
        }
        let address = self.lookup(&format!("_mlir__mlir_ciface_{function}"));
        if !address.is_null() {
            wrappers.insert(function.to_string(), address as usize);
        }
        address
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
            if arg.shape.iter().any(|&d| d < 0) || elements as usize * arg.element_bytes != arg.len
            {
                return Err(format!(
                    "argument {i}: a buffer of {} bytes does not hold shape {:?}",
                    arg.len, arg.shape
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
                let base = arg.data as i64;
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
        // SAFETY: the compile (`shim/compile.cpp`, and MLIR's ExecutionEngine
        // for objects cached by older builds) generates `_mlir_<f>` packed
        // wrappers of type `void(void**)`, here for the C interface
        // `_mlir_ciface_<function>`, which takes one descriptor pointer per
        // argument. Each packed entry points at a descriptor pointer alive for
        // the call, and each descriptor covers a buffer whose size matches its
        // shape (checked above), so the callee's accesses stay in bounds. A
        // read-only argument's bytes are shared, and the callee only reads
        // them: `MemrefArg::read_only` is made only for arguments bufferized
        // as not writable.
        unsafe {
            let packed_wrapper: unsafe extern "C" fn(*mut *mut c_void) =
                std::mem::transmute(wrapper);
            packed_wrapper(packed.as_mut_ptr());
        }
        Ok(())
    }
}
