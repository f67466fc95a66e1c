//! `sched-apply`: apply Halide-style `.sched` schedules to MLIR linalg payloads.
//!
//! The binary is a thin edge over the library crates: it reads files, picks
//! the default schedule, writes outputs whole, and maps failures to exit codes
//! (0 ok, 1 bad input, 2 internal failure).

mod explain;
mod files;
mod ops;
mod peak;
mod profile;
mod report;
mod roofline;
mod run;
mod targets;
mod timing;
mod tune;

use clap::{Parser, Subcommand, ValueEnum};
use files::{print_text, read, read_schedule, write_output};
use interpreter::pipeline::{self, Stop};
use interpreter::Failure;
use payload::ErrorKind;
use schedule_lang::{directives, SourceFile};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  sched-apply examples/halide_conv/conv.mlir
      apply conv.sched (found next to conv.mlir) and print the transformed IR
  sched-apply model.mlir gemm_accel.sched --emit offloaded
      show the accelerated tiles as kernel calls, after bufferization
  sched-apply model.mlir fast.sched --emit transform -o fast.transform.mlir
      write the generated transform script; mlir-opt can run it too, with sched-apply's own ops:
      mlir-opt --load-dialect-plugin=$(sched-apply plugin) model.mlir --transform-preload-library=transform-library-paths=fast.transform.mlir --transform-interpreter
  sched-apply check conv.sched --payload conv.mlir
      report every problem in a schedule without applying it
  sched-apply run examples/halide_conv/conv.mlir --check --bench 10
      JIT-run the scheduled payload, compare it with the unscheduled one, and time both
  sched-apply peak
      measure this core's fp32 FMA peak (cached for run --cached-peak; run measures it itself by default)
  sched-apply fmt conv.sched --check
      check that a schedule is in canonical form";

const TUNE_EXAMPLES: &str = "\
Examples:
  sched-apply tune model.mlir -o model.sched --budget 5m --records tune.jsonl
      tune every kind of op for 5 minutes; a second run with the same records reuses them
  sched-apply run model.mlir --check --bench 10
      then run the written schedule (model.sched, beside the payload) as usual";

/// Apply Halide-style schedules (.sched) to MLIR linalg payloads through the transform dialect.
#[derive(Parser)]
#[command(name = "sched-apply", version, args_conflicts_with_subcommands = true, after_long_help = long_help(), after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    apply: ApplyArgs,
}

#[derive(clap::Args)]
struct ApplyArgs {
    /// The payload: an MLIR module with linalg ops on tensors.
    payload: Option<PathBuf>,
    /// The schedule. Default: the payload's path with `.sched` instead of `.mlir`.
    schedule: Option<PathBuf>,
    /// Write the output to this file (written whole, or not at all) instead of stdout.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Let `-o` replace the payload or the schedule itself.
    #[arg(long, requires = "output")]
    force: bool,
    /// What to print: the transformed payload, or the generated transform script.
    #[arg(long, value_enum, default_value_t = Emit::Payload)]
    emit: Emit,
    /// With `--emit transform`: upstream MLIR's transform ops only, so `mlir-opt
    /// --transform-interpreter` runs the script without the plugin. Our ops that stand in for
    /// upstream ones (faster on long chains) become those; a directive that needs one of our own
    /// (`store_at`, `reuse_at`, `pack` of an inner dimension, ...) is an error at that directive.
    #[arg(long)]
    portable: bool,
    #[command(flatten)]
    machine: targets::MachineArgs,
    /// Fail (exit code 1) when the schedule has warnings: directives that do nothing.
    #[arg(long)]
    deny_warnings: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum Emit {
    /// The payload after the schedule was applied.
    Payload,
    /// The transform-dialect script (a standalone module with @__transform_main). With
    /// `compute_inline`, it applies to the payload after the inline phase (`--emit inlined`).
    Transform,
    /// The payload after the loading phase (a TOSA payload lowered to linalg) and the inline
    /// phase (`compute_inline`), before the script: what the script applies to.
    Inlined,
    /// The scheduled payload bufferized, with each `accelerate`d tile replaced by its kernel call
    /// (the offload phase of lowering).
    Offloaded,
}

#[derive(Subcommand)]
enum Command {
    /// Check a schedule without applying it: syntax, names, and against a payload if one is found.
    #[command(after_help = "Example:\n  sched-apply check conv.sched --payload conv.mlir")]
    Check {
        /// The schedule to check.
        schedule: PathBuf,
        /// The payload to resolve it against. Default: the schedule's path with `.mlir`, if it exists.
        #[arg(long)]
        payload: Option<PathBuf>,
        #[command(flatten)]
        machine: targets::MachineArgs,
        /// Fail (exit code 1) when the schedule has warnings: directives that do nothing.
        #[arg(long)]
        deny_warnings: bool,
    },
    /// List the payload's linalg ops as `func` lines ready to paste into a .sched file: selectors,
    /// dimension names in linalg order (reductions after `|`), extents, FLOPs, locations.
    #[command(
        after_help = "Each comment also shows a generic's body words (`body: cmp select max`; `copy` for a body that\nonly yields), which `where body == max` selects by, the kinds of the ops reading it (`read by:\nconv_2d_nchw_fchw`, `where reader == conv_2d_nchw_fchw`), and a windowed op's stride and dilation\n(`where stride == 2`) and its input's padding.\n\nExamples:\n  sched-apply ops model.mlir > model.sched\n  sched-apply ops model.mlir --json\n  sched-apply ops examples/torchvision/resnet18_b1.linalg.mlir | grep conv_2d   # strides, padding"
    )]
    Ops {
        /// The payload.
        payload: PathBuf,
        /// Print the same as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print the loop nests the schedule asks for, after each directive and in the end (Halide's
    /// print_loop_nest): loops, iterations, partial tiles, marks, where funcs are computed.
    #[command(
        after_help = "Examples:\n  sched-apply explain examples/halide_conv/conv.mlir\n  sched-apply explain model.mlir fast.sched --json"
    )]
    Explain {
        /// The payload the schedule binds to.
        payload: PathBuf,
        /// The schedule. Default: the payload's path with `.sched` instead of `.mlir`.
        schedule: Option<PathBuf>,
        /// Print the same as JSON, for editors and notebooks.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        machine: targets::MachineArgs,
    },
    /// Apply the schedule, JIT-compile the payload and run it: check it, time it, save its results.
    #[command(after_help = RUN_EXAMPLES)]
    Run(run::RunArgs),
    /// Write a schedule by measuring: each kind of op (kind, shape, body) tuned once on one op of it
    /// alone, the fastest candidate bound to all of them with `where`, and checked against the
    /// unscheduled op.
    #[command(after_help = TUNE_EXAMPLES)]
    Tune(tune::TuneArgs),
    /// Count FLOPs and off-chip bytes per func and in total, before and after the schedule, and
    /// their operational intensity; with --run, time both, per func and whole, and measure this
    /// core's roofs; with --svg, draw the roofline.
    #[command(
        after_help = "Examples:\n  sched-apply profile examples/gemm/gemm.mlir\n  sched-apply profile examples/blur/blur_slices.mlir --run --svg roofline.svg\n  sched-apply profile model.mlir fast.sched --json"
    )]
    Profile(profile::ProfileArgs),
    /// Measure this core's fp32 multiply-add peak in GFLOP/s (cached for `run --cached-peak`).
    #[command(after_help = "Example:\n  taskset -c 1 sched-apply peak")]
    Peak {
        /// Timed calls per kernel (the median is kept).
        #[arg(long, default_value_t = 9)]
        calls: usize,
    },
    /// List the GEMM accelerator targets: built in, and described in your own TOML files.
    #[command(
        after_help = "Examples:\n  sched-apply targets\n  sched-apply targets --target my_npu.toml    check a description and list it too\n\nThe description format and the kernels' C ABI: microkernels/README.md"
    )]
    Targets {
        /// A target description (TOML) to check and list with the built-in ones.
        #[arg(long = "target", value_name = "FILE")]
        targets: Vec<PathBuf>,
    },
    /// Print the path of the MLIR dialect plugin that registers sched-apply's own transform ops,
    /// so upstream mlir-opt runs the scripts `--emit transform` writes.
    #[command(after_help = PLUGIN_EXAMPLE)]
    Plugin,
    /// Print a schedule in canonical form.
    #[command(
        after_help = "Examples:\n  sched-apply fmt conv.sched            print the canonical form\n  sched-apply fmt conv.sched --check    exit 1 if the file is not canonical\n  sched-apply fmt conv.sched --write    rewrite the file in place"
    )]
    Fmt {
        /// The schedule to format.
        file: PathBuf,
        /// Do not print; exit with 1 if the file is not in canonical form.
        #[arg(long, conflicts_with = "write")]
        check: bool,
        /// Rewrite the file in place.
        #[arg(long)]
        write: bool,
    },
}

const PLUGIN_EXAMPLE: &str = "\
Example:
  sched-apply model.mlir fast.sched --emit transform -o fast.transform.mlir
  mlir-opt --load-dialect-plugin=$(sched-apply plugin) model.mlir \\
    --transform-preload-library=transform-library-paths=fast.transform.mlir --transform-interpreter
      the same IR as `sched-apply model.mlir fast.sched` (with compute_inline or a TOSA payload,
      give mlir-opt `--emit inlined`'s output: the script applies to the payload after those phases)";

const RUN_EXAMPLES: &str = "\
Examples:
  sched-apply run examples/halide_conv/conv.mlir --check --bench 10
      conv.sched is found next to the payload; compare with the unscheduled payload, time 10 calls
  sched-apply run model.mlir fast.sched --inputs x.npy,w.npy --save-outputs out/ --json
      run on given inputs, write out/result0.npy, print the figures as JSON
  sched-apply run examples/cnn/mnist.mlir examples/cnn/mnist_accel.sched --check --counters
      matmuls offloaded to an accelerator: check the results, print its tiles, MACs, bytes and cycles
  taskset -c 1 sched-apply run gemm.mlir --bench 20 --peak-gflops 111
      pin to one core; quote % of a given peak
  taskset -c 1 sched-apply run examples/halide_conv/conv.mlir --bench 10 --rounds 7 --reference-calls 0
      on a noisy machine: 7 rounds of 10 calls, the peak measured again before each round,
      and the median of the rounds' own % of peak

The payload's tensors must have static shapes (f32, f64, i32, i64, i8 or i1: numpy's bool). Results are
compared as numpy.allclose does: |got - want| <= atol + rtol * |want|.";

fn long_help() -> String {
    let mut text = String::from("Directives (Halide method chains on a func, e.g. `relu.split(c, co, ci, 64).vectorize(ci, 16)`):\n");
    for directive in directives::DIRECTIVES {
        let status = if directive.planned {
            ""
        } else {
            "  [parsed; not planned yet]"
        };
        text.push_str(&format!(
            "  {:<38} {}{status}\n",
            directive.signature, directive.summary
        ));
    }
    text.push_str(
        "\nBindings name a payload op and its dimensions in linalg order, reductions after `|`:\n",
    );
    text.push_str("  func conv = linalg.generic[0] (n, y, x, c | rz, ry, rx)\n");
    text.push_str("  selectors: linalg.matmul, linalg.generic[1], @forward:linalg.matmul[0], \"name\" (a sched.name attribute)\n");
    text.push_str("  every op a selector matches, with `where` conditions (extents, stride, dilation, type, body):\n");
    text.push_str("  func convs = linalg.conv_2d_nchw_fchw[*] (n, f, y, x | c, ky, kx) where stride == 1, f >= 64\n");
    text.push_str("  default func rest = linalg.generic[*] (n, c, y, x)   # only the ops no other func binds\n\n");
    text.push_str(EXAMPLES);
    text
}

/// How a command ends when it does not succeed.
pub(crate) enum Exit {
    /// A failure: whose fault it is (which gives the exit code,
    /// [`ErrorKind::exit_code`]) and its rendered report.
    Failed(ErrorKind, String),
    /// Standard output was closed (`sched-apply … | head -1`): stop quietly.
    OutputClosed,
}

impl Exit {
    /// Bad input (schedule, payload, arguments, files): exit code 1.
    pub(crate) fn input(report: impl Into<String>) -> Self {
        Exit::Failed(ErrorKind::Input, report.into())
    }

    /// A failure of this tool: exit code 2.
    pub(crate) fn internal(report: impl Into<String>) -> Self {
        Exit::Failed(ErrorKind::Internal, report.into())
    }

    /// An accelerator's kernel failed a tile call at run time: exit code 3.
    pub(crate) fn accelerator(report: impl Into<String>) -> Self {
        Exit::Failed(ErrorKind::Accelerator, report.into())
    }
}

/// Prints progress on stderr when it is a terminal.
pub(crate) fn progress(message: &str) {
    if std::io::stderr().is_terminal() {
        eprintln!("... {message}");
    }
}

/// A failed call: an accelerator's failure has an exit code of its own.
pub(crate) fn call_failure(error: runner::call::CallError) -> Exit {
    match error {
        runner::call::CallError::Accelerator(text) => Exit::accelerator(format!("error: {text}")),
        runner::call::CallError::Call(text) => Exit::internal(text),
    }
}

impl From<Failure> for Exit {
    fn from(failure: Failure) -> Self {
        let kind = failure.kind();
        match failure {
            Failure::Input(report) | Failure::Internal(report) => Exit::Failed(kind, report),
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Check {
            schedule,
            payload,
            machine,
            deny_warnings,
        }) => check(&schedule, payload.as_deref(), &machine, deny_warnings),
        Some(Command::Fmt { file, check, write }) => format_file(&file, check, write),
        Some(Command::Run(args)) => run::run(args),
        Some(Command::Tune(args)) => tune::tune(args),
        Some(Command::Profile(args)) => profile::profile(args),
        Some(Command::Explain {
            payload,
            schedule,
            json,
            machine,
        }) => explain::explain(&payload, schedule.as_deref(), &machine, json),
        Some(Command::Ops { payload, json }) => ops::list(&payload, json),
        Some(Command::Peak { calls }) => measure_peak(calls),
        Some(Command::Targets { targets }) => targets::list(&targets),
        Some(Command::Plugin) => print_text(&format!("{}\n", payload::transform::TRANSFORM_PLUGIN)),
        None => apply(cli.apply),
    };
    match result {
        Ok(()) | Err(Exit::OutputClosed) => ExitCode::SUCCESS,
        Err(Exit::Failed(kind, report)) => {
            eprint!("{}", ensure_newline(report));
            ExitCode::from(kind.exit_code())
        }
    }
}

fn ensure_newline(mut text: String) -> String {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

fn apply(args: ApplyArgs) -> Result<(), Exit> {
    let Some(payload_path) = args.payload else {
        return Err(Exit::input(format!("error: no payload given\n\nUsage: sched-apply PAYLOAD.mlir [SCHEDULE.sched] [-o OUT] [--emit transform|payload|inlined|offloaded]\n\n{EXAMPLES}")));
    };
    let schedule_path = match args.schedule {
        Some(path) => path,
        None => default_schedule(&payload_path)?,
    };
    if let Some(output) = &args.output {
        files::refuse_overwriting_inputs(output, &[&payload_path, &schedule_path], args.force)?;
    }
    let schedule = read_schedule(&schedule_path)?;
    let payload_text = read(&payload_path)?;
    let stop = match args.emit {
        Emit::Transform if args.portable => Stop::PlanPortable,
        _ if args.portable => {
            return Err(Exit::input(
                "error: --portable applies to the script only: add --emit transform\n",
            ))
        }
        Emit::Transform | Emit::Inlined => Stop::Plan,
        Emit::Payload | Emit::Offloaded => Stop::Apply,
    };
    let accelerators = args.machine.accelerators()?;
    let outcome = pipeline::run(
        &schedule,
        &payload_path.display().to_string(),
        &payload_text,
        stop,
        &args.machine.machine(&accelerators),
    )?;
    report_diagnostics(&outcome, &schedule, args.deny_warnings)?;
    for remark in &outcome.remarks {
        eprint!("{}", ensure_newline(remark.clone()));
    }
    let text = match args.emit {
        Emit::Transform => outcome.script,
        Emit::Inlined => ensure_newline(outcome.inlined.unwrap_or(payload_text)),
        Emit::Payload => ensure_newline(outcome.payload.unwrap_or_default()),
        Emit::Offloaded => {
            let name = format!("{} (scheduled)", payload_path.display());
            let transformed = outcome.payload.unwrap_or_default();
            let text = runner::jit::Program::offloaded_text(&name, &transformed, None).map_err(
                |error| {
                    let source = SourceFile::new(name.clone(), transformed.clone());
                    run::payload_failure(error, &source)
                },
            )?;
            ensure_newline(text)
        }
    };
    write_output(args.output.as_deref(), &text)
}

/// Prints the schedule's notes and warnings to standard error, and a note
/// when `schedule` was tuned on another CPU; with `deny`, any warning (not a
/// note) fails the command (exit code 1).
pub(crate) fn report_diagnostics(
    outcome: &pipeline::Outcome,
    schedule: &SourceFile,
    deny: bool,
) -> Result<(), Exit> {
    let elsewhere = tuner::provenance::note(schedule);
    for text in elsewhere
        .iter()
        .chain(&outcome.notes)
        .chain(&outcome.warnings)
    {
        eprint!("{}", ensure_newline(text.clone()));
    }
    let warnings = &outcome.warnings;
    if deny && !warnings.is_empty() {
        return Err(Exit::input(format!(
            "error: {} denied (--deny-warnings)",
            match warnings.len() {
                1 => "1 warning".to_string(),
                n => format!("{n} warnings"),
            }
        )));
    }
    Ok(())
}

/// What `run` and `profile` start from: the schedule and the payload.
pub(crate) struct Inputs {
    /// The schedule given, or the one next to the payload.
    pub schedule: SourceFile,
    /// The payload's path, as given.
    pub payload_name: String,
    /// The payload's text.
    pub payload_text: String,
    /// The same, for diagnostics that point into it.
    pub payload_source: SourceFile,
}

/// Reads `schedule` (default: the one next to `payload`) and `payload`.
pub(crate) fn read_inputs(payload: &Path, schedule: Option<&Path>) -> Result<Inputs, Exit> {
    let schedule_path = match schedule {
        Some(path) => path.to_path_buf(),
        None => default_schedule(payload)?,
    };
    let schedule = read_schedule(&schedule_path)?;
    let payload_name = payload.display().to_string();
    let payload_text = read(payload)?;
    let payload_source = SourceFile::new(payload_name.clone(), payload_text.clone());
    Ok(Inputs {
        schedule,
        payload_name,
        payload_text,
        payload_source,
    })
}

/// The schedule next to the payload (`model.mlir` → `model.sched`), which must exist.
pub(crate) fn default_schedule(payload_path: &Path) -> Result<PathBuf, Exit> {
    let default = payload_path.with_extension("sched");
    if !default.exists() {
        return Err(Exit::input(format!(
            "error: no schedule given, and no `{}` next to the payload\n  = help: pass one: sched-apply {} SCHEDULE.sched",
            default.display(),
            payload_path.display()
        )));
    }
    Ok(default)
}

fn measure_peak(calls: usize) -> Result<(), Exit> {
    let (best, measures) = peak::measure(calls).map_err(Exit::internal)?;
    let unit = schedule_lang::VectorUnit::host();
    for m in &measures {
        // This CPU's registers: 16 lanes are two AVX2 registers on a CPU without AVX-512.
        let registers = (m.lanes as i64 * 4 / unit.bytes).max(1);
        let isa = match registers {
            1 => unit.name.to_string(),
            n => format!("{n} {} registers", unit.name),
        };
        print_text(&format!(
            "{:>2} lanes ({isa}): {:.2} GFLOP/s\n",
            m.lanes, m.gflops
        ))?;
    }
    print_text(&format!(
        "peak: {best:.2} GFLOP/s (fp32 FMA, one thread; median of {calls} calls per kernel)\n"
    ))
}

fn check(
    schedule_path: &Path,
    payload: Option<&Path>,
    machine: &targets::MachineArgs,
    deny_warnings: bool,
) -> Result<(), Exit> {
    let schedule = read_schedule(schedule_path)?;
    let payload_path = match payload {
        Some(path) => Some(path.to_path_buf()),
        None => Some(schedule_path.with_extension("mlir")).filter(|p| p.exists()),
    };
    let Some(payload_path) = payload_path else {
        let (_, diagnostics) = schedule_lang::parse(&schedule.text);
        if !diagnostics.is_empty() {
            return Err(Exit::input(schedule_lang::render_all_diagnostics(
                &diagnostics,
                &schedule,
            )));
        }
        eprintln!("{}: syntax ok (no payload found next to it: pass --payload to check names against one)", schedule.name);
        return Ok(());
    };
    let payload_text = read(&payload_path)?;
    let accelerators = machine.accelerators()?;
    let outcome = pipeline::run(
        &schedule,
        &payload_path.display().to_string(),
        &payload_text,
        Stop::Plan,
        &machine.machine(&accelerators),
    )?;
    report_diagnostics(&outcome, &schedule, deny_warnings)?;
    let warned = match outcome.warnings.len() {
        0 => String::new(),
        1 => " (1 warning)".to_string(),
        n => format!(" ({n} warnings)"),
    };
    eprintln!(
        "{}: ok against {}{warned}",
        schedule.name,
        payload_path.display()
    );
    Ok(())
}

fn format_file(path: &Path, check: bool, write: bool) -> Result<(), Exit> {
    let schedule = read_schedule(path)?;
    let (file, diagnostics) = schedule_lang::parse(&schedule.text);
    if !diagnostics.is_empty() {
        return Err(Exit::input(schedule_lang::render_all_diagnostics(
            &diagnostics,
            &schedule,
        )));
    }
    let formatted = schedule_lang::format(&file);
    if check {
        if formatted != schedule.text {
            return Err(Exit::input(format!(
                "{}: not in canonical form (run `sched-apply fmt --write {}`)",
                schedule.name, schedule.name
            )));
        }
        return Ok(());
    }
    if write {
        return write_output(Some(path), &formatted);
    }
    print_text(&formatted)
}
