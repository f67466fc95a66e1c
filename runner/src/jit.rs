//! From a payload module to a callable program: pick the entry function and
//! read its tensor signature (`payload::signature`), lower the module to the LLVM dialect with
//! upstream passes, compile it to machine code (`shim/compile.cpp`, on one
//! thread per core) linked by LLVM's ORC JIT; `call.rs` calls it.

use crate::ffi::{JitEngine, KernelSlot};
use crate::link::{bind_kernels, check_c_interface, libraries};
use crate::lowering::*;
use crate::stage_times::{Segments, StageOwners};
use melior::ir::Module;
use melior::Context;
use payload::diagnostics::capture_diagnostics;
use payload::ffi::OpView;
use payload::signature::Signature;
use payload::signature::{declared_functions, signature};
use payload::{new_context, parse_module, PayloadError};
use std::time::Instant;

/// Wall-clock seconds spent in each compile phase.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CompileTimes {
    /// Lowering to the LLVM dialect.
    pub lower_s: f64,
    /// Translation to LLVM IR, optimization and machine-code generation
    /// (or loading the object file, when `cached`).
    pub jit_s: f64,
    /// Whether the code was loaded from the compile cache.
    pub cached: bool,
}

/// A compiled payload, ready to call.
pub struct Program {
    pub(crate) engine: JitEngine,
    /// What the entry function takes and returns.
    pub signature: Signature,
    /// How long compiling took.
    pub times: CompileTimes,
    /// Whether OpenMP parallel loops were generated.
    pub(crate) parallel: bool,
    /// Which arguments results are computed in, and which the code only
    /// reads.
    pub(crate) boundary: Boundary,
    /// The targets its tiles are offloaded to, with their element types.
    pub(crate) offloaded: Vec<(String, crate::offload::Types)>,
    /// The accelerators its tiles call (bound into `engine`, so after it:
    /// dropped after it).
    pub(crate) kernels: Vec<KernelSlot>,
    /// With [`Program::compile_timing_stages`]: how the marks cut the
    /// entry, and how many slots they time.
    pub(crate) segments: Option<(Segments, usize)>,
    /// What a fatal signal during a call writes before the process dies,
    /// when the tiles call HALs' libraries ([`hal_crash_message`]; made once,
    /// not at every call).
    pub(crate) hal_crash_message: Option<String>,
}

/// What a payload is called in messages, its text (which keys the cache)
/// and the entry function asked for.
struct Source<'a> {
    payload_name: &'a str,
    text: &'a str,
    entry: Option<&'a str>,
}

/// How [`Program::build`] compiles: looking in a cache first, on how many
/// threads, with stage marks or not.
pub(crate) struct Build<'a> {
    pub(crate) cache: Option<&'a crate::cache::Cache>,
    pub(crate) threads: usize,
    pub(crate) stages: Option<&'a StageOwners>,
}

/// How many threads generate machine code (`shim/compile.cpp`): one per
/// core this process may run on, so a pinned run (`taskset -c 1`) uses one.
pub(crate) fn code_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl Program {
    /// The entry function's tensor signature, read from `text` without
    /// compiling it (the checks `compile` makes first: one entry, static
    /// tensor arguments and results).
    pub fn entry_signature(
        payload_name: &str,
        text: &str,
        entry: Option<&str>,
    ) -> Result<Signature, PayloadError> {
        let context = new_context();
        let module = parse_module(&context, payload_name, text)?;
        signature(OpView::of_module(&module), payload_name, entry)
    }

    /// The payload bufferized, with each offloaded tile replaced by its
    /// kernel call: what lowering does before the rest of the way to LLVM.
    pub fn offloaded_text(
        payload_name: &str,
        text: &str,
        entry: Option<&str>,
    ) -> Result<String, PayloadError> {
        let context = new_context();
        let mut module = parse_module(&context, payload_name, text)?;
        let signature = signature(OpView::of_module(&module), payload_name, entry)?;
        bufferize_and_offload(&context, &mut module, &signature, payload_name)?;
        Ok(payload::ffi::print_module(&module))
    }

    /// Compiles payload text. `entry` names the function to call (default: the
    /// only public one).
    pub fn compile(
        payload_name: &str,
        text: &str,
        entry: Option<&str>,
    ) -> Result<Self, PayloadError> {
        Self::compile_with_targets(payload_name, text, entry, &[])
    }

    /// [`Program::compile`] for a payload whose tiles may be offloaded
    /// (`sched.accelerate`) to `targets`: each target called gets its
    /// kernel bound into the JIT, with its own counters.
    pub fn compile_with_targets(
        payload_name: &str,
        text: &str,
        entry: Option<&str>,
        targets: &[microkernels::Target],
    ) -> Result<Self, PayloadError> {
        Self::compile_cached(payload_name, text, entry, targets, None)
    }

    /// [`Program::compile_with_targets`], looking in `cache` first: a
    /// payload compiled before (the same text, entry and targets, by the
    /// same build of sched-apply on the same CPU) is loaded from its object
    /// file instead of being lowered and compiled again; one compiled now is
    /// added to it.
    pub fn compile_cached(
        payload_name: &str,
        text: &str,
        entry: Option<&str>,
        targets: &[microkernels::Target],
        cache: Option<&crate::cache::Cache>,
    ) -> Result<Self, PayloadError> {
        Self::compile_on_threads(payload_name, text, entry, targets, cache, code_threads())
    }

    /// [`Program::compile_cached`] with machine code generated in `threads`
    /// parts, on as many threads (the default: one per core this process
    /// may run on). The code computes the same results whatever the number.
    pub fn compile_on_threads(
        payload_name: &str,
        text: &str,
        entry: Option<&str>,
        targets: &[microkernels::Target],
        cache: Option<&crate::cache::Cache>,
        threads: usize,
    ) -> Result<Self, PayloadError> {
        let build = Build {
            cache,
            threads,
            stages: None,
        };
        Self::build(payload_name, text, entry, targets, build)
    }

    /// [`Program::compile_cached`] for a module already loaded (parsed and,
    /// for a scheduled payload, transformed in `context`), so its text is
    /// not parsed again; `text` is the module as printed, which keys the
    /// cache. The module is consumed: lowering rewrites it.
    pub fn compile_module(
        context: &Context,
        module: Module<'_>,
        payload_name: &str,
        text: &str,
        entry: Option<&str>,
        targets: &[microkernels::Target],
        cache: Option<&crate::cache::Cache>,
    ) -> Result<Self, PayloadError> {
        let build = Build {
            cache,
            threads: code_threads(),
            stages: None,
        };
        let source = Source {
            payload_name,
            text,
            entry,
        };
        Self::build_module(context, module, source, targets, build)
    }

    /// Compiles payload text as `build` says (see [`Build`]).
    pub(crate) fn build(
        payload_name: &str,
        text: &str,
        entry: Option<&str>,
        targets: &[microkernels::Target],
        build: Build<'_>,
    ) -> Result<Self, PayloadError> {
        let context = new_context();
        let module = parse_module(&context, payload_name, text)?;
        let source = Source {
            payload_name,
            text,
            entry,
        };
        Self::build_module(&context, module, source, targets, build)
    }

    /// Compiles a loaded module as `build` says: from the cache when it
    /// holds `source.text`'s entry, else lowered, compiled and stored.
    fn build_module(
        context: &Context,
        mut module: Module<'_>,
        source: Source<'_>,
        targets: &[microkernels::Target],
        build: Build<'_>,
    ) -> Result<Self, PayloadError> {
        let Source {
            payload_name,
            text,
            entry,
        } = source;
        let root = OpView::of_module(&module);
        let signature = signature(root, payload_name, entry)?;
        let declared = declared_functions(root);
        let cached = build
            .cache
            .map(|cache| (cache, cache.key(text, entry, targets)));
        if let Some((cache, key)) = &cached {
            let start = Instant::now();
            let entry = cache.load(key, signature.inputs.len(), signature.results.len());
            if let Some(program) =
                entry.and_then(|e| Self::from_cached(e, &signature, targets, payload_name, start))
            {
                return Ok(program);
            }
        }

        let start = Instant::now();
        let (boundary, offloaded) =
            bufferize_and_offload(context, &mut module, &signature, payload_name)?;
        let segments = match build.stages {
            Some(owners) => Some((
                crate::stage_times::insert_marks(context, &mut module, &signature.name, owners)?,
                owners.slots(),
            )),
            None => None,
        };
        let kernels = bind_kernels(&offloaded, targets, payload_name)?;
        let parallel = has_parallel_loops(OpView::of_module(&module));
        if parallel {
            make_parallel_loops(context, &mut module, payload_name)?;
        }
        outline_loop_nests(context, &mut module, payload_name, OUTLINED_ABOVE)?;
        lower_to_llvm(context, &mut module, payload_name)?;
        let lower_s = start.elapsed().as_secs_f64();

        let start = Instant::now();
        melior::utility::register_all_llvm_translations(context);
        let (engine, messages) = capture_diagnostics(context, || {
            JitEngine::compile(&module, 3, build.threads, libraries(parallel), &kernels)
        });
        let engine = engine.map_err(|why| {
            PayloadError::internal_with(
                format!("{payload_name}: the JIT could not compile the lowered module: {why}"),
                messages,
            )
        })?;
        check_c_interface(&engine, &signature, &declared)?;
        let jit_s = start.elapsed().as_secs_f64();
        let program = Self {
            engine,
            hal_crash_message: hal_crash_message(&kernels, &signature.name),
            signature,
            times: CompileTimes {
                lower_s,
                jit_s,
                cached: false,
            },
            parallel,
            boundary,
            offloaded,
            kernels,
            segments,
        };
        if let Some((cache, key)) = &cached {
            let entry = crate::cache::Entry {
                object: program.engine.objects_file(),
                linkage: crate::cache::Linkage {
                    boundary: program.boundary.clone(),
                    parallel: program.parallel,
                    offloaded: program.offloaded.clone(),
                },
            };
            cache.store(key, &entry);
        }
        Ok(program)
    }

    /// The program of a cache entry, linked (`start`: when loading began,
    /// for the load time reported); `None` when it cannot be (a target it
    /// calls is not described, the entry's C interface is missing): it is
    /// then compiled again.
    fn from_cached(
        entry: crate::cache::Entry,
        signature: &Signature,
        targets: &[microkernels::Target],
        payload_name: &str,
        start: Instant,
    ) -> Option<Self> {
        let linkage = entry.linkage;
        let kernels = bind_kernels(&linkage.offloaded, targets, payload_name).ok()?;
        let engine =
            JitEngine::from_objects(&entry.object, libraries(linkage.parallel), &kernels).ok()?;
        check_c_interface(&engine, signature, &[]).ok()?;
        Some(Program {
            engine,
            signature: signature.clone(),
            times: CompileTimes {
                lower_s: 0.0,
                jit_s: start.elapsed().as_secs_f64(),
                cached: true,
            },
            parallel: linkage.parallel,
            boundary: linkage.boundary,
            offloaded: linkage.offloaded,
            hal_crash_message: hal_crash_message(&kernels, &signature.name),
            kernels,
            segments: None,
        })
    }

    /// Each accelerator the program calls, with its counters over the last
    /// [`Program::call`] (they are reset at the start of every call).
    pub fn counters(&self) -> Vec<(String, microkernels::Counters)> {
        self.kernels
            .iter()
            .map(|slot| (slot.target.clone(), slot.counters()))
            .collect()
    }

    /// Whether the program has OpenMP parallel loops (from `parallel` directives).
    pub fn is_parallel(&self) -> bool {
        self.parallel
    }

    /// Sets how many threads the OpenMP runtime gives parallel loops from now
    /// on (`omp_set_num_threads`; the default is `OMP_NUM_THREADS`, else one
    /// per core). An error for programs without parallel loops.
    pub fn set_threads(&self, threads: usize) -> Result<(), String> {
        if !self.parallel {
            return Err("the program has no parallel loops (the schedule marks none `parallel`), so a thread count does not apply".into());
        }
        let threads = i32::try_from(threads)
            .ok()
            .filter(|&t| t > 0)
            .ok_or_else(|| format!("{threads} is not a valid thread count"))?;
        self.engine.set_openmp_threads(threads)
    }

    /// How many threads the next parallel loop gets; `None` without parallel loops.
    pub fn threads(&self) -> Option<usize> {
        if !self.parallel {
            return None;
        }
        self.engine
            .openmp_max_threads()
            .ok()
            .and_then(|t| usize::try_from(t).ok())
    }
}

/// What a crash during a call of @`entry` says when its tiles call HALs'
/// shared libraries (which run in the process): which targets and files.
fn hal_crash_message(kernels: &[KernelSlot], entry: &str) -> Option<String> {
    let hals: Vec<String> = kernels
        .iter()
        .filter_map(|slot| {
            let library = slot.kernel.library.as_ref()?;
            Some(format!("`{}` ({})", slot.target, library.path.display()))
        })
        .collect();
    (!hals.is_empty()).then(|| {
        format!(
            "error: the process died of a fatal signal while @{entry} ran, which calls the HAL of target {}: a crash inside a HAL's tile function ends the process, as a plugin's does; check the HAL with the tiles its description allows\n",
            hals.join(", ")
        )
    })
}
