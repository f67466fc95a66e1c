//! Compiles the project's only C++, `shim/`: `registry.cpp` registers the
//! dialects and the transform extensions sched-apply uses, which MLIR's C
//! API cannot name one by one; `inline.cpp` fuses a producer into its
//! readers for `compute_inline`, which the C API has no entry point for;
//! `printing.cpp` sets how MLIR prints ops in diagnostics and prints payloads;
//! `empties.cpp` unties shared `tensor.empty` values before bufferization;
//! `copies.cpp` removes temporaries bufferization puts between disjoint
//! regions of one buffer and turns small copies into vector transfers;
//! `vectors.cpp` splits vectors LLVM would widen into machine-vector pieces;
//! `contract.cpp` lets LLVM fuse vector multiplies and adds; `loops.cpp`
//! keeps innermost scalar rows rolled for LLVM;
//! `compile.cpp` generates machine code on threads; `reuse.cpp`,
//! `sliding.cpp`, `fuse.cpp`, `cse.cpp`, `union.cpp`, `reshapes.cpp` and
//! `relayout.cpp` implement sched-apply's own transform ops, declared in
//! `SchedTransformOps.td` (run through mlir-tblgen here).
//! All link against the same static MLIR libraries mlir-sys links.

fn main() {
    // The same prefix mlir-sys links from (set in .cargo/config.toml; `jit.rs` reads it too).
    let prefix = std::env::var("MLIR_SYS_220_PREFIX")
        .expect("MLIR_SYS_220_PREFIX is set (.cargo/config.toml)");
    println!("cargo:rerun-if-changed=shim/registry.cpp");
    println!("cargo:rerun-if-changed=shim/inline.cpp");
    println!("cargo:rerun-if-changed=shim/printing.cpp");
    println!("cargo:rerun-if-changed=shim/empties.cpp");
    println!("cargo:rerun-if-changed=shim/reuse.cpp");
    println!("cargo:rerun-if-changed=shim/reuse.h");
    println!("cargo:rerun-if-changed=shim/sliding.cpp");
    println!("cargo:rerun-if-changed=shim/fuse.cpp");
    println!("cargo:rerun-if-changed=shim/cse.cpp");
    println!("cargo:rerun-if-changed=shim/union.cpp");
    println!("cargo:rerun-if-changed=shim/reshapes.cpp");
    println!("cargo:rerun-if-changed=shim/relayout.cpp");
    println!("cargo:rerun-if-changed=shim/compile.cpp");
    println!("cargo:rerun-if-changed=shim/copies.cpp");
    println!("cargo:rerun-if-changed=shim/vectors.cpp");
    println!("cargo:rerun-if-changed=shim/contract.cpp");
    println!("cargo:rerun-if-changed=shim/loops.cpp");
    println!("cargo:rerun-if-changed=shim/SchedTransformOps.td");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    let generated = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    for (flag, file) in [
        ("-gen-op-decls", "SchedTransformOps.h.inc"),
        ("-gen-op-defs", "SchedTransformOps.cpp.inc"),
    ] {
        let status = std::process::Command::new(format!("{prefix}/bin/mlir-tblgen"))
            .arg(flag)
            .arg(format!("-I{prefix}/include"))
            .arg("shim/SchedTransformOps.td")
            .arg("-o")
            .arg(generated.join(file))
            .status()
            .expect("mlir-tblgen runs (mlir-22-tools, scripts/install.sh)");
        assert!(
            status.success(),
            "mlir-tblgen {flag} failed on shim/SchedTransformOps.td"
        );
    }
    cc::Build::new()
        .cpp(true)
        .file("shim/registry.cpp")
        .file("shim/inline.cpp")
        .file("shim/printing.cpp")
        .file("shim/empties.cpp")
        .file("shim/reuse.cpp")
        .file("shim/sliding.cpp")
        .file("shim/fuse.cpp")
        .file("shim/cse.cpp")
        .file("shim/union.cpp")
        .file("shim/reshapes.cpp")
        .file("shim/relayout.cpp")
        .file("shim/compile.cpp")
        .file("shim/copies.cpp")
        .file("shim/vectors.cpp")
        .file("shim/contract.cpp")
        .file("shim/loops.cpp")
        .include(&generated)
        .include(format!("{prefix}/include"))
        .std("c++17")
        .flag("-fno-exceptions")
        // As the packaged MLIR libraries were built: without it, headers
        // call checks that only exist in debug builds of MLIR.
        .define("NDEBUG", None)
        .define("_GNU_SOURCE", None)
        .define("__STDC_CONSTANT_MACROS", None)
        .define("__STDC_FORMAT_MACROS", None)
        .define("__STDC_LIMIT_MACROS", None)
        .warnings(false)
        .compile("sched_registry");
}
