//! The fuzz targets' `main`, calling libFuzzer's driver. The MLIR static
//! libraries hold tools' `main`s too, and which one the linker takes from the
//! archives depends on link order (one target got an MLIR tool's `main`,
//! which parsed libFuzzer's flags as LLVM options); a `main` of our own wins.

use std::os::raw::{c_char, c_int};

extern "C" {
    fn LLVMFuzzerRunDriver(
        argc: *mut c_int,
        argv: *mut *mut *mut c_char,
        callback: unsafe extern "C" fn(*const u8, usize) -> c_int,
    ) -> c_int;
    fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> c_int;
}

/// Runs libFuzzer on the target `fuzz_target!` defined.
#[no_mangle]
pub extern "C" fn main(mut argc: c_int, mut argv: *mut *mut c_char) -> c_int {
    // SAFETY: argc and argv come from the C runtime as they would to
    // libFuzzer's own `main`; the callback is the target's entry point.
    unsafe { LLVMFuzzerRunDriver(&mut argc, &mut argv, LLVMFuzzerTestOneInput) }
}
