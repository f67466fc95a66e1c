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
//! All link against the same static MLIR libraries mlir-sys links. The
//! transform ops' files and `plugin.cpp` are also linked into a dialect
//! plugin for upstream `mlir-opt` (against its shared libMLIR), whose path
//! the crate gets as `SCHED_TRANSFORM_PLUGIN`.

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
    println!("cargo:rerun-if-changed=shim/plugin.cpp");
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
    // The shim's C++, compiled once: archived into the static library the
    // crate links, and the transform ops' files (with `plugin.cpp`) linked
    // into the dialect plugin for upstream `mlir-opt`.
    let sources = [
        "registry", "inline", "printing", "empties", "reuse", "sliding", "fuse", "cse", "union",
        "reshapes", "relayout", "compile", "copies", "vectors", "contract", "loops", "plugin",
    ];
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .pic(true)
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
        .warnings(false);
    for source in sources {
        build.file(format!("shim/{source}.cpp"));
    }
    let objects = build.compile_intermediates();
    let object_of = |source: &str| {
        objects
            .iter()
            .find(|o| {
                o.file_stem()
                    .is_some_and(|s| s.to_string_lossy().ends_with(&format!("-{source}")))
            })
            .unwrap_or_else(|| panic!("no object for shim/{source}.cpp"))
            .clone()
    };

    let library = generated.join("libsched_registry.a");
    let _ = std::fs::remove_file(&library);
    let status = build
        .get_archiver()
        .arg("crs")
        .arg(&library)
        .args(
            sources
                .iter()
                .filter(|s| **s != "plugin")
                .map(|s| object_of(s)),
        )
        .status()
        .expect("the archiver runs");
    assert!(status.success(), "archiving the shim failed");
    println!("cargo:rustc-link-search=native={}", generated.display());
    println!("cargo:rustc-link-lib=static=sched_registry");
    println!("cargo:rustc-link-lib=stdc++");

    let plugin = generated.join("libsched_transform_plugin.so");
    let status = build
        .get_compiler()
        .to_command()
        .arg("-shared")
        .arg("-o")
        .arg(&plugin)
        .args(
            TRANSFORM_OPS
                .iter()
                .chain(["plugin"].iter())
                .map(|s| object_of(s)),
        )
        .arg(format!("-L{prefix}/lib"))
        .arg(format!("-Wl,-rpath,{prefix}/lib"))
        .args(["-lMLIR", "-lLLVM"])
        .status()
        .expect("the C++ compiler links the plugin");
    assert!(status.success(), "linking {} failed", plugin.display());
    println!(
        "cargo:rustc-env=SCHED_TRANSFORM_PLUGIN={}",
        plugin.display()
    );
}

/// The shim's files that define sched-apply's own transform ops (what the
/// plugin holds).
const TRANSFORM_OPS: [&str; 7] = [
    "reuse", "sliding", "fuse", "cse", "union", "reshapes", "relayout",
];
