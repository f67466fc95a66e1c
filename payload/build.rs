//! Compiles the project's only C++, `shim/`: `registry.cpp` registers the
//! dialects and the transform extensions sched-apply uses, which MLIR's C
//! API cannot name one by one; `inline.cpp` fuses a producer into its
//! readers for `compute_inline`, which the C API has no entry point for;
//! `printing.cpp` sets how MLIR prints ops in diagnostics and prints payloads;
//! `empties.cpp` unties shared `tensor.empty` values before bufferization.
//! All link against the same static MLIR libraries mlir-sys links.

fn main() {
    // The same prefix mlir-sys links from (set in .cargo/config.toml; `jit.rs` reads it too).
    let prefix = std::env::var("MLIR_SYS_220_PREFIX")
        .expect("MLIR_SYS_220_PREFIX is set (.cargo/config.toml)");
    println!("cargo:rerun-if-changed=shim/registry.cpp");
    println!("cargo:rerun-if-changed=shim/inline.cpp");
    println!("cargo:rerun-if-changed=shim/printing.cpp");
    println!("cargo:rerun-if-changed=shim/empties.cpp");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    cc::Build::new()
        .cpp(true)
        .file("shim/registry.cpp")
        .file("shim/inline.cpp")
        .file("shim/printing.cpp")
        .file("shim/empties.cpp")
        .include(format!("{prefix}/include"))
        .std("c++17")
        .flag("-fno-exceptions")
        .define("_GNU_SOURCE", None)
        .define("__STDC_CONSTANT_MACROS", None)
        .define("__STDC_FORMAT_MACROS", None)
        .define("__STDC_LIMIT_MACROS", None)
        .warnings(false)
        .compile("sched_registry");
}
