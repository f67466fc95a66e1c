//! `sched-apply run`: apply the schedule, JIT-compile the result, call it on
//! given or seeded-random inputs, and optionally compare it with the
//! unscheduled payload (`--check`), time it (`--bench`) and save its results.

use crate::report::{AcceleratorCounters, RunReport};
use crate::timing::{Bench, Timed};
use crate::{call_failure, progress, Exit};
use interpreter::pipeline::{self, render_on_payload, Loaded, Stop};
use payload::ffi::OpView;
use payload::melior::ir::Module;
use payload::melior::Context;
use payload::signature::{signature, Signature};
use payload::PayloadError;
use runner::cache::{Cache, Role};
use runner::compare::{compare, Tolerance};
use runner::jit::Program;
use runner::tensor::Tensor;
use schedule_lang::SourceFile;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Options of `sched-apply run`.
#[derive(clap::Args)]
pub struct RunArgs {
    /// The payload: an MLIR module with linalg ops on tensors of static shape.
    pub payload: PathBuf,
    /// The schedule. Default: the payload's path with `.sched` instead of `.mlir`.
    pub schedule: Option<PathBuf>,
    /// Fail (exit code 1) when the schedule has warnings: directives that do nothing.
    #[arg(long)]
    pub deny_warnings: bool,
    /// The function to call. Default: the payload's only public function.
    #[arg(long, value_name = "NAME")]
    pub entry: Option<String>,
    /// Input tensors as .npy files, one per argument, comma-separated. Default: seeded random values.
    #[arg(long, value_delimiter = ',', value_name = "A.npy,B.npy")]
    pub inputs: Vec<PathBuf>,
    /// Seed for the random inputs (floats uniform in [-1, 1), integers in [-8, 8)).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write each result as DIR/result<i>.npy.
    #[arg(long, value_name = "DIR")]
    pub save_outputs: Option<PathBuf>,
    /// Also run the unscheduled payload on the same inputs and compare; a mismatch exits with 1.
    #[arg(long)]
    pub check: bool,
    /// Compare the results with these .npy files, one per result, comma-separated (PyTorch's
    /// outputs, say), instead of compiling and running the unscheduled payload as --check does;
    /// a mismatch exits with 1. Tolerances as for --check.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "R0.npy,R1.npy",
        conflicts_with = "check"
    )]
    pub expect: Vec<PathBuf>,
    /// Relative tolerance of --check. Default: 1e-4 for f32, 1e-9 for f64, 0 for integers.
    #[arg(long)]
    pub rtol: Option<f64>,
    /// Absolute tolerance of --check. Default: scaled to the expected results' largest magnitude M:
    /// 1e-5·M for f32, 1e-12·M for f64 (reassociated and fused sums round differently), 0 for integers.
    #[arg(long)]
    pub atol: Option<f64>,
    /// Time N calls after a warm-up; report the median, GFLOP/s, % of peak and the speedup over the unscheduled payload.
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub bench: Option<usize>,
    /// Warm-up calls before timing.
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub warmup: usize,
    /// Timed calls of the unscheduled payload for the speedup (it can be slow; 0 skips it). Default: min(N, 3).
    #[arg(long, value_name = "N")]
    pub reference_calls: Option<usize>,
    /// One core's peak GFLOP/s for % of peak (times the threads, up to the cores, for parallel loops).
    /// Default: measured in this run, just before timing.
    #[arg(long, value_name = "X", value_parser = crate::peak::parse_gflops)]
    pub peak_gflops: Option<f64>,
    /// Take the peak from the cache `sched-apply peak` writes (when it has one for this CPU model)
    /// instead of measuring it in this run.
    #[arg(long, conflicts_with_all = ["peak_gflops", "rounds"])]
    pub cached_peak: bool,
    /// Time in R rounds of N calls, measuring this core's peak again just before each round; report
    /// each round's % of its own peak and their median. On a shared, noisy machine that ratio moves
    /// much less than either figure alone.
    #[arg(long, value_name = "R", requires = "bench", conflicts_with = "peak_gflops", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub rounds: Option<u32>,
    /// Threads for the schedule's `parallel` loops (OpenMP). Default: OMP_NUM_THREADS, else one per core.
    /// The unscheduled payload always runs on one thread.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS as i64))]
    pub threads: Option<u32>,
    /// Print every figure as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Print, per accelerator the schedule offloads to, what one call did: tiles, MACs, bytes moved
    /// in and out, modelled cycles and utilization (with --json: under `counters.<accelerator>`).
    #[arg(long)]
    pub counters: bool,
    #[command(flatten)]
    pub machine: crate::targets::MachineArgs,
    /// Compile even if this payload was compiled before. By default compiled payloads are kept in
    /// $SCHED_APPLY_CACHE (else $XDG_CACHE_HOME/sched-apply, else ~/.cache/sched-apply, the last 64),
    /// and a run of the same scheduled payload, by the same build on the same CPU, loads the code.
    #[arg(long)]
    pub no_cache: bool,
}

/// Renders a payload error: its message, then MLIR's diagnostics on the payload source.
pub(crate) fn payload_failure(error: PayloadError, payload: &SourceFile) -> Exit {
    let mut text = format!("{}\n", error.message);
    for diagnostic in &error.diagnostics {
        text.push_str(&render_on_payload(diagnostic, payload));
    }
    Exit::Failed(error.kind, text)
}

/// What each accelerator did in the call just made.
fn counters_of(program: &Program, targets: &[microkernels::Target]) -> Vec<AcceleratorCounters> {
    program
        .counters()
        .into_iter()
        .map(|(target, counters)| {
            let roofline = targets
                .iter()
                .find(|t| t.name == target)
                .map(|t| t.roofline);
            AcceleratorCounters {
                target,
                counters,
                macs_per_cycle: roofline.map_or(0.0, |r| r.peak_macs_per_second / r.clock_hz),
            }
        })
        .collect()
}

/// The most threads `--threads` and `OMP_NUM_THREADS` may ask for: the
/// OpenMP runtime aborts the process when it cannot create a thread, so the
/// count stays where the threads' stacks fit in memory.
pub(crate) const MAX_THREADS: u32 = 1024;

/// An error unless `OMP_NUM_THREADS`, which the OpenMP runtime reads when
/// it starts and aborts the process on, is unset or a list of thread counts
/// (`8`, or `8,2` for nested levels) of 1 to [`MAX_THREADS`] each.
pub(crate) fn check_openmp_environment() -> Result<(), Exit> {
    let Some(value) = std::env::var_os("OMP_NUM_THREADS") else {
        return Ok(());
    };
    let text = value.to_string_lossy();
    let valid = text.split(',').all(|count| {
        count
            .trim()
            .parse::<u32>()
            .is_ok_and(|n| (1..=MAX_THREADS).contains(&n))
    });
    if valid {
        return Ok(());
    }
    Err(Exit::input(format!(
        "error: OMP_NUM_THREADS={text:?} is not a thread count from 1 to {MAX_THREADS} (or a comma-separated list of them); the OpenMP runtime would abort on it\n  = help: unset it, or choose the count with --threads N"
    )))
}

/// The compile cache in its default directory, if that directory can be
/// trusted; otherwise a warning says why and the run compiles in memory.
fn open_cache() -> Option<Cache> {
    let directory = Cache::default_directory()?;
    Cache::open(&directory)
        .map_err(|why| {
            eprintln!(
                "warning: not using the compile cache {}: {why}; compiling without it\n  = help: point SCHED_APPLY_CACHE at a directory only you can write, or pass --no-cache",
                directory.display()
            )
        })
        .ok()
}

/// Runs `sched-apply run`.
pub fn run(args: RunArgs) -> Result<(), Exit> {
    check_openmp_environment()?;
    let files = crate::read_inputs(&args.payload, args.schedule.as_deref())?;
    let context = payload::new_context();
    let scheduled = schedule_payload(&context, &args, &files)?;
    let Scheduled {
        module,
        unscheduled,
        outcome,
        targets,
    } = scheduled;
    let crate::Inputs {
        schedule,
        payload_name,
        payload_text,
        payload_source,
    } = files;

    progress("compiling the scheduled payload");
    let cache = if args.no_cache { None } else { open_cache() };
    let transformed = outcome.payload.as_deref().unwrap_or_default();
    // The module keeps the payload's locations, so messages point into its file.
    let program = Program::compile_module(
        &context,
        module,
        &format!("{payload_name} (scheduled)"),
        transformed,
        args.entry.as_deref(),
        &targets,
        cache.as_ref(),
    )
    .map_err(|e| payload_failure(e, &payload_source))?;
    let mut report = RunReport {
        payload: payload_name.clone(),
        schedule: schedule.name.clone(),
        ..Default::default()
    };
    compiled(&mut report, &outcome.times, &program, args.threads)?;
    let inputs = load_inputs(&args, &program, &payload_source)?;
    let results = first_call(&args, &program, &inputs, &targets, &mut report)?;

    let reference = match unscheduled {
        Some(module) => {
            progress("compiling the unscheduled payload");
            let cache = cache.as_ref().map(|c| c.for_role(Role::Reference));
            let entry = Some(program.signature.name.as_str());
            let compiled = Program::compile_module(
                &context,
                module,
                &payload_name,
                &payload_text,
                entry,
                &[],
                cache.as_ref(),
            );
            Some(compiled.map_err(|e| payload_failure(e, &payload_source))?)
        }
        None => None,
    };
    let timed = Timed {
        program: &program,
        reference: reference.as_ref(),
        inputs: &inputs,
    };
    check_results(&args, &timed, &results, &mut report)?;
    if let Some(dir) = &args.save_outputs {
        report.saved = save_outputs(dir, &results)?;
    }
    if let Some(calls) = args.bench {
        report.flops = outcome.info.static_flops(&program.signature.name);
        let bench = Bench {
            calls,
            reference_calls: reference_calls(&args),
            warmup: args.warmup,
            rounds: args.rounds,
            peak_gflops: args.peak_gflops,
            cached_peak: args.cached_peak,
        };
        crate::timing::bench(&mut report, &bench, timed)?;
    }
    crate::files::print_text(&if args.json {
        report.to_json()
    } else {
        report.to_text()
    })?;
    mismatch(&report)
}

/// The compiled program's part of the report (entry, compile times), with
/// `--threads` set first.
fn compiled(
    report: &mut RunReport,
    times: &pipeline::PhaseTimes,
    program: &Program,
    threads: Option<u32>,
) -> Result<(), Exit> {
    report.entry = program.signature.name.clone();
    report.compile_s = [
        times.resolve_s,
        times.plan_s,
        times.apply_s,
        program.times.lower_s,
        program.times.jit_s,
    ];
    report.compile_cached = program.times.cached;
    report.threads = use_threads(program, threads)?;
    Ok(())
}

/// Sets the threads `--threads` asks for (if it does) on `program`'s
/// parallel loops, and returns those they run on (none without parallel
/// loops). Shared by `run` and `profile --run`.
pub(crate) fn use_threads(program: &Program, threads: Option<u32>) -> Result<Option<usize>, Exit> {
    if let Some(threads) = threads {
        program
            .set_threads(threads as usize)
            .map_err(|why| Exit::input(format!("error: --threads {threads}: {why}\n")))?;
    }
    Ok(program.threads())
}

/// `--check` (the unscheduled payload run on the same inputs) or
/// `--expect` (the files): the results compared, into the report.
fn check_results(
    args: &RunArgs,
    timed: &Timed<'_>,
    results: &[Tensor],
    report: &mut RunReport,
) -> Result<(), Exit> {
    let program = timed.program;
    let expected = match (args.check, timed.reference) {
        (true, Some(reference)) => {
            progress("running the unscheduled payload");
            let mut expected = reference.new_results();
            reference
                .call(&mut timed.inputs.to_vec(), &mut expected)
                .map_err(call_failure)?;
            expected
        }
        _ if !args.expect.is_empty() => {
            let owner = format!(" of @{}", program.signature.name);
            let types = &program.signature.results;
            let names: Vec<String> = args
                .expect
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            report.expected_from = Some(names.join(", "));
            read_tensors(&args.expect, types, ("result", &owner))?
        }
        _ => return Ok(()),
    };
    let tolerance = tolerance(args, program, &expected);
    report.check = Some((compare(results, &expected, tolerance), tolerance));
    Ok(())
}

/// An error when the check found a result that differs.
fn mismatch(report: &RunReport) -> Result<(), Exit> {
    let reference = match &report.expected_from {
        Some(files) => format!("the expected outputs ({files})"),
        None => "the unscheduled one".to_string(),
    };
    match report.check.as_ref().and_then(|(c, _)| c.mismatch.as_ref()) {
        Some(mismatch) => Err(Exit::input(format!(
            "error: the scheduled payload differs from {reference}: result {} at index {:?} is {} but should be {}\n  = help: if the difference is rounding (reassociated sums), loosen --rtol/--atol",
            mismatch.result, mismatch.index, mismatch.got, mismatch.want
        ))),
        None => Ok(()),
    }
}

/// The payload parsed once and scheduled: the module transformed in place,
/// a copy made before for the reference (when `--check` or `--bench` needs
/// one), what the pipeline said, and the targets.
struct Scheduled<'c> {
    module: Module<'c>,
    unscheduled: Option<Module<'c>>,
    outcome: pipeline::Outcome,
    targets: Vec<microkernels::Target>,
}

/// Parses the payload, checks its entry (static tensors, memory) on the
/// user's text, so errors point into that file, and applies the schedule.
fn schedule_payload<'c>(
    context: &'c Context,
    args: &RunArgs,
    files: &crate::Inputs,
) -> Result<Scheduled<'c>, Exit> {
    let start = Instant::now();
    let (name, text, source) = (
        &files.payload_name,
        &files.payload_text,
        &files.payload_source,
    );
    let mut module =
        payload::parse_module(context, name, text).map_err(|e| payload_failure(e, source))?;
    let signature = signature(OpView::of_module(&module), name, args.entry.as_deref())
        .map_err(|e| payload_failure(e, source))?;
    check_memory(&signature, name)?;
    let unscheduled =
        match args.check || reference_calls(args) > 0 {
            true => Some(payload::ffi::clone_module(&module).ok_or_else(|| {
                Exit::internal("internal error: cannot copy the payload module\n")
            })?),
            false => None,
        };
    progress("applying the schedule");
    let targets = args.machine.accelerators()?;
    let loaded = Loaded {
        context,
        module: &mut module,
        name,
        text,
        since: start,
    };
    let outcome = pipeline::run_loaded(
        &files.schedule,
        loaded,
        Stop::Apply,
        &args.machine.machine(&targets),
    )?;
    crate::report_diagnostics(&outcome, &files.schedule, args.deny_warnings)?;
    for remark in &outcome.remarks {
        eprint!("{remark}");
    }
    Ok(Scheduled {
        module,
        unscheduled,
        outcome,
        targets,
    })
}

/// How many calls of the unscheduled payload `--bench` times (with
/// `--reference-calls`, else up to 3); 0 without `--bench`.
fn reference_calls(args: &RunArgs) -> usize {
    args.bench
        .map_or(0, |calls| args.reference_calls.unwrap_or(calls.clamp(1, 3)))
}

/// The first call of the scheduled payload (its results are checked and
/// saved), with the accelerators' counters when `--counters` asks.
fn first_call(
    args: &RunArgs,
    program: &Program,
    inputs: &[Tensor],
    targets: &[microkernels::Target],
    report: &mut RunReport,
) -> Result<Vec<Tensor>, Exit> {
    let mut results = program.new_results();
    program
        .call(&mut inputs.to_vec(), &mut results)
        .map_err(call_failure)?;
    if args.counters {
        report.counters = counters_of(program, targets);
        if report.counters.is_empty() {
            eprintln!("note: --counters: the schedule offloads nothing (no `accelerate`), so there are no counters");
        }
    }
    Ok(results)
}

/// The `--inputs` files checked against the signature, or seeded random tensors.
fn load_inputs(
    args: &RunArgs,
    program: &Program,
    payload: &SourceFile,
) -> Result<Vec<Tensor>, Exit> {
    let signature = &program.signature;
    if args.inputs.is_empty() {
        return Ok(program.random_inputs(args.seed));
    }
    if args.inputs.len() != signature.inputs.len() {
        return Err(Exit::input(format!(
            "error: --inputs gives {} file(s), but @{} in {} takes {} argument(s): {}",
            args.inputs.len(),
            signature.name,
            payload.name,
            signature.inputs.len(),
            signature
                .inputs
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let owner = format!(" of @{} ({})", signature.name, payload.name);
    read_tensors(&args.inputs, &signature.inputs, ("argument", &owner))
}

/// The `.npy` files `paths`, one per tensor of `types` (the entry's
/// arguments or results: `what`, and whose, ` of @f (p.mlir)`), each
/// checked against its type.
fn read_tensors(
    paths: &[PathBuf],
    types: &[payload::types::TensorType],
    (what, owner): (&str, &str),
) -> Result<Vec<Tensor>, Exit> {
    if paths.len() != types.len() {
        let listed: Vec<String> = types.iter().map(ToString::to_string).collect();
        return Err(Exit::input(format!(
            "error: {} file(s) given for {} {what}(s): {}\n  = help: give one .npy file per {what}, in order",
            paths.len(),
            types.len(),
            listed.join(", ")
        )));
    }
    let mut tensors = Vec::new();
    for (i, (path, ty)) in paths.iter().zip(types).enumerate() {
        // The tensor's data and a header: a larger file cannot be it.
        let limit = (ty.element.bytes() * ty.elements()) as u64 + (64 << 10);
        let bytes = crate::files::read_bytes(path, limit)?;
        let tensor = runner::npy::read(&bytes)
            .map_err(|why| Exit::input(format!("{}: error: {why}", path.display())))?;
        if tensor.ty != *ty {
            return Err(Exit::input(format!(
                "{}: error: holds {}, but {what} {i}{owner} is {ty}\n  = help: the file must have the {what}'s shape and dtype exactly",
                path.display(),
                tensor.ty,
            )));
        }
        tensors.push(tensor);
    }
    Ok(tensors)
}

/// The `--check` tolerance: the flags, else defaults for the result type. A
/// reduction's rounding error grows with the magnitude of its terms, not of
/// its (possibly cancelled) result, so the default `atol` scales with the
/// largest expected magnitude.
fn tolerance(args: &RunArgs, program: &Program, expected: &[Tensor]) -> Tolerance {
    let element = program
        .signature
        .results
        .iter()
        .map(|r| r.element)
        .find(|e| e.is_float())
        .unwrap_or(payload::types::ElementType::I64);
    let default = runner::compare::default_tolerance(element, expected);
    Tolerance {
        rtol: args.rtol.unwrap_or(default.rtol),
        atol: args.atol.unwrap_or(default.atol),
    }
}

fn save_outputs(dir: &Path, results: &[Tensor]) -> Result<Vec<String>, Exit> {
    std::fs::create_dir_all(dir).map_err(|e| {
        Exit::input(format!(
            "{}: error: cannot create the directory: {e}",
            dir.display()
        ))
    })?;
    let files: Vec<(PathBuf, Vec<u8>)> = results
        .iter()
        .enumerate()
        .map(|(i, result)| {
            (
                dir.join(format!("result{i}.npy")),
                runner::npy::write(result),
            )
        })
        .collect();
    // All or none: a disk that fills after the first result changes no file.
    crate::files::write_files_whole(&files)?;
    Ok(files
        .iter()
        .map(|(path, _)| path.display().to_string())
        .collect())
}

/// Refuses, before allocating anything, a payload whose tensors cannot fit in
/// this machine's available memory: each argument and result is held about
/// twice (fresh copies of the inputs per call; the scheduled and the
/// reference results).
fn check_memory(signature: &Signature, payload_name: &str) -> Result<(), Exit> {
    let tensors = signature.inputs.iter().chain(&signature.results);
    let needed = tensors.fold(0usize, |sum, ty| sum.saturating_add(ty.size_in_bytes()));
    let needed = needed.saturating_mul(2);
    let Some(available) = available_memory() else {
        return Ok(());
    };
    if needed <= available {
        return Ok(());
    }
    let gib = |bytes: usize| bytes as f64 / f64::from(1u32 << 30);
    Err(Exit::input(format!(
        "{payload_name}: error: running @{} needs about {:.1} GiB for its arguments and results \
         (each held twice), but this machine has {:.1} GiB available\n  = help: run it on smaller \
         shapes; `sched-apply` without `run` applies the schedule without allocating them\n",
        signature.name,
        gib(needed),
        gib(available),
    )))
}

/// `MemAvailable` from `/proc/meminfo`, in bytes; `None` where it cannot be read.
fn available_memory() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}
