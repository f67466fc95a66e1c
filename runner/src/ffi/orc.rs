//! LLVM's ORC JIT through its C API, linking object files: those
//! `shim/compile.cpp` just generated, or a cached payload's
//! (`crate::cache`), loaded without translating, optimizing or generating
//! code again. Part of the one `ffi` module: every `unsafe` block says why
//! it is sound.

use std::ffi::{c_char, c_void, CStr, CString};

type LLVMErrorRef = *mut c_void;
type LLVMOrcLLJITRef = *mut c_void;
type LLVMOrcJITDylibRef = *mut c_void;
type LLVMOrcDefinitionGeneratorRef = *mut c_void;
type LLVMOrcSymbolStringPoolEntryRef = *mut c_void;
type LLVMOrcMaterializationUnitRef = *mut c_void;
type LLVMMemoryBufferRef = *mut c_void;

/// `LLVMJITSymbolFlags`.
#[repr(C)]
#[derive(Clone, Copy)]
struct SymbolFlags {
    generic: u8,
    target: u8,
}

/// `LLVMOrcCSymbolMapPair`: a name and `LLVMJITEvaluatedSymbol`.
#[repr(C)]
struct SymbolMapPair {
    name: LLVMOrcSymbolStringPoolEntryRef,
    address: u64,
    flags: SymbolFlags,
}

/// `LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable`.
const EXPORTED_CALLABLE: u8 = 1 | 4;

unsafe extern "C" {
    fn LLVMInitializeX86TargetInfo();
    fn LLVMInitializeX86Target();
    fn LLVMInitializeX86TargetMC();
    fn LLVMInitializeX86AsmPrinter();
    fn LLVMOrcCreateLLJIT(result: *mut LLVMOrcLLJITRef, builder: *mut c_void) -> LLVMErrorRef;
    fn LLVMOrcDisposeLLJIT(jit: LLVMOrcLLJITRef) -> LLVMErrorRef;
    fn LLVMOrcLLJITGetMainJITDylib(jit: LLVMOrcLLJITRef) -> LLVMOrcJITDylibRef;
    fn LLVMOrcLLJITGetGlobalPrefix(jit: LLVMOrcLLJITRef) -> c_char;
    fn LLVMOrcLLJITMangleAndIntern(
        jit: LLVMOrcLLJITRef,
        name: *const c_char,
    ) -> LLVMOrcSymbolStringPoolEntryRef;
    fn LLVMOrcLLJITAddObjectFile(
        jit: LLVMOrcLLJITRef,
        dylib: LLVMOrcJITDylibRef,
        object: LLVMMemoryBufferRef,
    ) -> LLVMErrorRef;
    fn LLVMOrcLLJITLookup(
        jit: LLVMOrcLLJITRef,
        result: *mut u64,
        name: *const c_char,
    ) -> LLVMErrorRef;
    fn LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
        result: *mut LLVMOrcDefinitionGeneratorRef,
        global_prefix: c_char,
        filter: *mut c_void,
        filter_context: *mut c_void,
    ) -> LLVMErrorRef;
    fn LLVMOrcCreateDynamicLibrarySearchGeneratorForPath(
        result: *mut LLVMOrcDefinitionGeneratorRef,
        file_name: *const c_char,
        global_prefix: c_char,
        filter: *mut c_void,
        filter_context: *mut c_void,
    ) -> LLVMErrorRef;
    fn LLVMOrcJITDylibAddGenerator(
        dylib: LLVMOrcJITDylibRef,
        generator: LLVMOrcDefinitionGeneratorRef,
    );
    fn LLVMOrcAbsoluteSymbols(
        pairs: *mut SymbolMapPair,
        count: usize,
    ) -> LLVMOrcMaterializationUnitRef;
    fn LLVMOrcJITDylibDefine(
        dylib: LLVMOrcJITDylibRef,
        unit: LLVMOrcMaterializationUnitRef,
    ) -> LLVMErrorRef;
    fn LLVMCreateMemoryBufferWithMemoryRangeCopy(
        data: *const c_char,
        length: usize,
        name: *const c_char,
    ) -> LLVMMemoryBufferRef;
    fn LLVMGetErrorMessage(error: LLVMErrorRef) -> *mut c_char;
    fn LLVMDisposeErrorMessage(message: *mut c_char);
    fn LLVMGetHostCPUName() -> *mut c_char;
    fn LLVMGetHostCPUFeatures() -> *mut c_char;
    fn LLVMDisposeMessage(message: *mut c_char);
}

/// `Ok` for a null error, else LLVM's message (the error consumed).
fn check(error: LLVMErrorRef, what: &str) -> Result<(), String> {
    if error.is_null() {
        return Ok(());
    }
    // SAFETY: a non-null LLVMErrorRef is consumed by LLVMGetErrorMessage,
    // whose string is ours to free with LLVMDisposeErrorMessage.
    let message = unsafe {
        let raw = LLVMGetErrorMessage(error);
        let text = CStr::from_ptr(raw).to_string_lossy().into_owned();
        LLVMDisposeErrorMessage(raw);
        text
    };
    Err(format!("{what}: {message}"))
}

/// The host CPU as LLVM names it and its features: what code compiled for
/// this machine depends on.
pub fn host_cpu() -> String {
    // SAFETY: both return strings allocated by LLVM, freed once with
    // LLVMDisposeMessage after copying.
    unsafe {
        let name = LLVMGetHostCPUName();
        let features = LLVMGetHostCPUFeatures();
        let text = format!(
            "{} {}",
            CStr::from_ptr(name).to_string_lossy(),
            CStr::from_ptr(features).to_string_lossy()
        );
        LLVMDisposeMessage(name);
        LLVMDisposeMessage(features);
        text
    }
}

/// An ORC JIT holding object files.
pub struct OrcEngine {
    jit: LLVMOrcLLJITRef,
}

impl OrcEngine {
    /// Links `objects` (object files for this host) with the process's
    /// symbols, each of `libraries` and each of `symbols` (name, address).
    pub fn load(
        objects: &[Vec<u8>],
        libraries: &[&str],
        symbols: &[(String, *mut c_void)],
    ) -> Result<Self, String> {
        static INIT: std::sync::Once = std::sync::Once::new();
        // SAFETY: LLVM's target registration, done once per process
        // (`shim/compile.cpp` does the same before compiling).
        INIT.call_once(|| unsafe {
            LLVMInitializeX86TargetInfo();
            LLVMInitializeX86Target();
            LLVMInitializeX86TargetMC();
            LLVMInitializeX86AsmPrinter();
        });
        let mut jit: LLVMOrcLLJITRef = std::ptr::null_mut();
        // SAFETY: a null builder asks for the default (host) configuration;
        // on success `jit` is ours, disposed by Drop.
        check(
            unsafe { LLVMOrcCreateLLJIT(&mut jit, std::ptr::null_mut()) },
            "creating the JIT",
        )?;
        let engine = OrcEngine { jit };
        // SAFETY: the JIT is valid; every generator and unit created here is
        // handed to its main dylib, which owns it from then on; names are
        // C strings alive for each call; the buffer is copied by LLVM.
        unsafe {
            let dylib = LLVMOrcLLJITGetMainJITDylib(jit);
            let prefix = LLVMOrcLLJITGetGlobalPrefix(jit);
            let mut generator: LLVMOrcDefinitionGeneratorRef = std::ptr::null_mut();
            check(
                LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
                    &mut generator,
                    prefix,
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                ),
                "the process's symbols",
            )?;
            LLVMOrcJITDylibAddGenerator(dylib, generator);
            for library in libraries {
                let path = CString::new(*library).map_err(|e| e.to_string())?;
                let mut generator: LLVMOrcDefinitionGeneratorRef = std::ptr::null_mut();
                check(
                    LLVMOrcCreateDynamicLibrarySearchGeneratorForPath(
                        &mut generator,
                        path.as_ptr(),
                        prefix,
                        std::ptr::null_mut(),
                        std::ptr::null_mut(),
                    ),
                    library,
                )?;
                LLVMOrcJITDylibAddGenerator(dylib, generator);
            }
            if !symbols.is_empty() {
                let mut pairs: Vec<SymbolMapPair> = Vec::with_capacity(symbols.len());
                for (name, address) in symbols {
                    let name = CString::new(name.as_str()).map_err(|e| e.to_string())?;
                    pairs.push(SymbolMapPair {
                        name: LLVMOrcLLJITMangleAndIntern(jit, name.as_ptr()),
                        address: *address as u64,
                        flags: SymbolFlags {
                            generic: EXPORTED_CALLABLE,
                            target: 0,
                        },
                    });
                }
                let unit = LLVMOrcAbsoluteSymbols(pairs.as_mut_ptr(), pairs.len());
                check(
                    LLVMOrcJITDylibDefine(dylib, unit),
                    "binding the kernels and the stage clock",
                )?;
            }
            for object in objects {
                let name = c"compiled payload";
                let buffer = LLVMCreateMemoryBufferWithMemoryRangeCopy(
                    object.as_ptr().cast(),
                    object.len(),
                    name.as_ptr(),
                );
                check(
                    LLVMOrcLLJITAddObjectFile(jit, dylib, buffer),
                    "adding an object",
                )?;
            }
        }
        Ok(engine)
    }

    /// The address of symbol `name`, or null (linking happens at the first
    /// lookup; an unresolved symbol makes it fail).
    pub fn lookup(&self, name: &str) -> *mut c_void {
        let Ok(name) = CString::new(name) else {
            return std::ptr::null_mut();
        };
        let mut address = 0u64;
        // SAFETY: valid JIT; the name is a C string alive for the call.
        let error = unsafe { LLVMOrcLLJITLookup(self.jit, &mut address, name.as_ptr()) };
        match check(error, "lookup") {
            Ok(()) => address as *mut c_void,
            Err(_) => std::ptr::null_mut(),
        }
    }
}

// SAFETY: an LLJIT is not tied to the thread that made it (ORC's session
// locks its own state), so a program compiled on one thread may be called
// and dropped on another; `OrcEngine` is not `Sync`, so one thread at a time.
unsafe impl Send for OrcEngine {}

impl Drop for OrcEngine {
    fn drop(&mut self) {
        // SAFETY: created by LLVMOrcCreateLLJIT and disposed once; an error
        // while tearing down is dropped (nothing can be done about it here).
        let _ = check(
            unsafe { LLVMOrcDisposeLLJIT(self.jit) },
            "disposing the JIT",
        );
    }
}
