//! Compiles the project's only C++, `shim/`: `registry.cpp` registers the
//! dialects and the transform extensions sched-apply uses, which MLIR's C
//! API cannot name one by one; `results.cpp` drops the results of generics
//! nothing reads, and `keepdims.cpp` their outputs' kept unit dimensions,
//! when a payload is loaded; `inline.cpp` fuses a producer into its
//! readers for `compute_inline`, which the C API has no entry point for,
//! and `collapse.cpp` makes two dimensions of an op one for `fuse`;
//! `printing.cpp` sets how MLIR prints ops in diagnostics and prints payloads;
//! `empties.cpp` unties shared `tensor.empty` values before bufferization;
//! `borders.cpp` fills padded buffers' borders in the loops writing them;
//! `readonly.cpp` marks the entry's arguments no op writes into read-only;
//! `copies.cpp` removes temporaries bufferization puts between disjoint
//! regions of one buffer and turns small copies into vector transfers;
//! `vectors.cpp` splits vectors LLVM would widen into machine-vector pieces;
//! `deinterleave.cpp` reads strided rows contiguously and shuffles them;
//! `broadcasts.cpp` reads a broadcast's input instead of its result;
//! `contract.cpp` lets LLVM fuse vector multiplies and adds; `approximate.cpp`
//! turns vector math functions into polynomials; `noalias.cpp` marks
//! outlined loop nests' buffers that cannot overlap, `constants.cpp`
//! gives them the constants their calls pass, and `merge.cpp` merges the
//! nests that are then the same; `loops.cpp`
//! keeps innermost scalar rows rolled for LLVM;
//! `compile.cpp` generates machine code on threads; `reuse.cpp`,
//! `sliding.cpp`, `fuse.cpp`, `cse.cpp`, `union.cpp`, `reshapes.cpp`,
//! `relayout.cpp` and `strided.cpp` implement sched-apply's own transform ops, declared in
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
    println!("cargo:rerun-if-changed=shim/collapse.cpp");
    println!("cargo:rerun-if-changed=shim/generic.h");
    println!("cargo:rerun-if-changed=shim/inits.h");
    println!("cargo:rerun-if-changed=shim/results.cpp");
    println!("cargo:rerun-if-changed=shim/keepdims.cpp");
    println!("cargo:rerun-if-changed=shim/dead.h");
    println!("cargo:rerun-if-changed=shim/each.h");
    println!("cargo:rerun-if-changed=shim/outlined.h");
    println!("cargo:rerun-if-changed=shim/printing.cpp");
    println!("cargo:rerun-if-changed=shim/empties.cpp");
    println!("cargo:rerun-if-changed=shim/borders.cpp");
    println!("cargo:rerun-if-changed=shim/boxes.h");
    println!("cargo:rerun-if-changed=shim/reuse.cpp");
    println!("cargo:rerun-if-changed=shim/reuse.h");
    println!("cargo:rerun-if-changed=shim/sliding.cpp");
    println!("cargo:rerun-if-changed=shim/fuse.cpp");
    println!("cargo:rerun-if-changed=shim/cse.cpp");
    println!("cargo:rerun-if-changed=shim/union.cpp");
    println!("cargo:rerun-if-changed=shim/reshapes.cpp");
    println!("cargo:rerun-if-changed=shim/relayout.cpp");
    println!("cargo:rerun-if-changed=shim/strided.cpp");
    println!("cargo:rerun-if-changed=shim/compile.cpp");
    println!("cargo:rerun-if-changed=shim/copies.cpp");
    println!("cargo:rerun-if-changed=shim/vectors.cpp");
    println!("cargo:rerun-if-changed=shim/deinterleave.cpp");
    println!("cargo:rerun-if-changed=shim/broadcasts.cpp");
    println!("cargo:rerun-if-changed=shim/contract.cpp");
    println!("cargo:rerun-if-changed=shim/approximate.cpp");
    println!("cargo:rerun-if-changed=shim/loops.cpp");
    println!("cargo:rerun-if-changed=shim/noalias.cpp");
    println!("cargo:rerun-if-changed=shim/constants.cpp");
    println!("cargo:rerun-if-changed=shim/merge.cpp");
    println!("cargo:rerun-if-changed=shim/readonly.cpp");
    println!("cargo:rerun-if-changed=shim/transposes.cpp");
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
        "registry",
        "inline",
        "collapse",
        "results",
        "keepdims",
        "printing",
        "empties",
        "borders",
        "reuse",
        "sliding",
        "fuse",
        "cse",
        "union",
        "reshapes",
        "relayout",
        "strided",
        "compile",
        "copies",
        "vectors",
        "transposes",
        "deinterleave",
        "broadcasts",
        "contract",
        "approximate",
        "loops",
        "noalias",
        "constants",
        "merge",
        "readonly",
        "plugin",
    ];
    let stamp = stamp(&prefix, &sources);
    let library = generated.join("libsched_registry.a");
    let plugin = generated.join("libsched_transform_plugin.so");
    if reuse_prebuilt(&stamp, &[&library, &plugin]) {
        link(&generated, &plugin);
        return;
    }
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
    std::fs::write(generated.join(STAMP), &stamp).expect("OUT_DIR is writable");
    link(&generated, &plugin);
}

/// The shim's files that define sched-apply's own transform ops (what the
/// plugin holds).
const TRANSFORM_OPS: [&str; 8] = [
    "reuse", "sliding", "fuse", "cse", "union", "reshapes", "relayout", "strided",
];

/// The file beside a build's shim artifacts naming what they were built from.
const STAMP: &str = "shim.stamp";

/// What the shim's artifacts depend on, hashed: the MLIR prefix, the
/// optimization level and target, and every source the C++ reads.
fn stamp(prefix: &str, sources: &[&str]) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for variable in ["OPT_LEVEL", "TARGET"] {
        hasher.update(std::env::var(variable).unwrap_or_default());
        hasher.update([0]);
    }
    hasher.update(prefix);
    let files = sources.iter().map(|s| format!("shim/{s}.cpp")).chain([
        "shim/reuse.h".to_string(),
        "shim/dead.h".to_string(),
        "shim/each.h".to_string(),
        "shim/boxes.h".to_string(),
        "shim/outlined.h".to_string(),
        "shim/SchedTransformOps.td".to_string(),
    ]);
    for file in files {
        let bytes = std::fs::read(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// With `SCHED_SHIM_PREBUILT` naming the output directory of another build
/// of this crate (`scripts/fuzz.sh` points the fuzz build at the
/// workspace's), copies its archive and plugin (`artifacts`' names) instead
/// of compiling the C++ again, when its stamp says they were built from the
/// same sources, MLIR, optimization level and target. Returns whether it did.
fn reuse_prebuilt(stamp: &str, artifacts: &[&std::path::Path]) -> bool {
    println!("cargo:rerun-if-env-changed=SCHED_SHIM_PREBUILT");
    let Some(directory) = std::env::var_os("SCHED_SHIM_PREBUILT").map(std::path::PathBuf::from)
    else {
        return false;
    };
    if std::fs::read_to_string(directory.join(STAMP))
        .ok()
        .as_deref()
        != Some(stamp)
    {
        println!(
            "cargo:warning=SCHED_SHIM_PREBUILT={} was built from other sources or settings; compiling the shim",
            directory.display()
        );
        return false;
    }
    for artifact in artifacts {
        let name = artifact.file_name().expect("a file name");
        if std::fs::copy(directory.join(name), artifact).is_err() {
            return false;
        }
    }
    let out = artifacts[0].parent().expect("in OUT_DIR");
    std::fs::write(out.join(STAMP), stamp).is_ok()
}

/// Links the crate with the shim's archive in `generated` and tells it where
/// the plugin is.
fn link(generated: &std::path::Path, plugin: &std::path::Path) {
    println!("cargo:rustc-link-search=native={}", generated.display());
    println!("cargo:rustc-link-lib=static=sched_registry");
    println!("cargo:rustc-link-lib=stdc++");
    println!(
        "cargo:rustc-env=SCHED_TRANSFORM_PLUGIN={}",
        plugin.display()
    );
}
