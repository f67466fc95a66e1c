//! Builds the tiny C HAL the tests load through a target description
//! (`tests/hal/tiny_hal.c`) into a shared library, with the `cc` crate's
//! compiler, and tells the tests where it is (`TINY_HAL`).

use std::path::PathBuf;

fn main() {
    let source = "tests/hal/tiny_hal.c";
    println!("cargo:rerun-if-changed={source}");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let objects = cc::Build::new()
        .file(source)
        .pic(true)
        .opt_level(2)
        .warnings_into_errors(true)
        .compile_intermediates();
    let library = out.join("libtiny_hal.so");
    let status = cc::Build::new()
        .get_compiler()
        .to_command()
        .arg("-shared")
        .arg("-o")
        .arg(&library)
        .args(&objects)
        .status()
        .expect("the C compiler runs");
    assert!(status.success(), "linking {} failed", library.display());
    println!("cargo:rustc-env=TINY_HAL={}", library.display());
}
