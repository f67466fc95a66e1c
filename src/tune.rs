//! `sched-apply tune`: the tuner (`tuner` crate) run on a payload file, with
//! progress on a terminal, Ctrl-C keeping what was found, and the written
//! schedule checked against the payload before it is written.

use crate::files::{read, refuse_overwriting_inputs, write_output};
use crate::Exit;
use indicatif::{ProgressBar, ProgressStyle};
use interpreter::pipeline::{self, Stop};
use schedule_lang::SourceFile;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tuner::measure::InProcess;
use tuner::records::{this_cpu, Records};
use tuner::write::{schedule_text, Header};
use tuner::{Options, Progress, Session};

/// Options of `sched-apply tune`.
#[derive(clap::Args)]
pub struct TuneArgs {
    /// The payload: an MLIR module with linalg ops on tensors of static shape.
    pub payload: PathBuf,
    /// Write the schedule here (whole, or not at all). Default: stdout.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Let `-o` replace the payload itself.
    #[arg(long, requires = "output")]
    pub force: bool,
    /// Tune every op and write a new schedule over the one at `-o`. By default a schedule already
    /// there is kept as written: only the ops its funcs do not bind are tuned, their funcs added
    /// after it.
    #[arg(long, requires = "output")]
    pub retune: bool,
    /// Time for all measurements, shared among the kinds of op by their FLOPs: `90s`, `10m`, `1h`,
    /// or seconds.
    #[arg(long, default_value = "10m", value_parser = parse_duration)]
    pub budget: Duration,
    /// Threads the schedules run on (their parallel loops). One pins the tuner to one core.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: u32,
    /// A JSON-lines file of measurements: read first (measurements of the same op and candidate on
    /// this CPU are reused, not repeated) and appended to as candidates are measured.
    #[arg(long, value_name = "FILE")]
    pub records: Option<PathBuf>,
    /// Stop a kind of op after this many measured candidates in a row were no faster.
    #[arg(long, default_value_t = 24, value_name = "N")]
    pub patience: usize,
    /// How the caches are when each timed call starts: `cold` (flushed first, as an op finds its
    /// weights and inputs in a model) or `warm` (calls back to back, as a benchmark loop of that
    /// one op runs them). Records keep the two apart.
    #[arg(long, value_enum, default_value_t = Caches::Cold)]
    pub caches: Caches,
    /// Time each candidate for at least this many seconds (3 calls at least).
    #[arg(long, default_value_t = 0.05, value_name = "S")]
    pub min_seconds: f64,
}

/// How the caches are when a timed call starts.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Caches {
    /// Flushed before each call.
    Cold,
    /// Left as the previous call left them.
    Warm,
}

/// `90s`, `10m`, `1h`, `2.5` (seconds).
fn parse_duration(text: &str) -> Result<Duration, String> {
    let (number, unit) = match text.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((at, _)) => text.split_at(at),
        None => (text, "s"),
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a duration like 90s, 10m or 1h"))?;
    let scale = match unit {
        "s" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => return Err(format!("`{unit}` is not a unit: use s, m or h")),
    };
    if !(value.is_finite() && value > 0.0) {
        return Err(format!("`{text}`: the budget must be positive"));
    }
    Ok(Duration::from_secs_f64(value * scale))
}

/// Runs `sched-apply tune`.
pub fn tune(args: TuneArgs) -> Result<(), Exit> {
    crate::run::check_openmp_environment()?;
    if let Some(output) = &args.output {
        refuse_overwriting_inputs(output, &[&args.payload], args.force)?;
    }
    let name = args.payload.display().to_string();
    let text = read(&args.payload)?;
    let source = SourceFile::new(name.clone(), text.clone());
    let context = payload::new_context();
    let module = payload::parse_module(&context, &name, &text)
        .map_err(|e| crate::run::payload_failure(e, &source))?;
    let info = payload::describe(&context, &module, &name)
        .map_err(|e| Exit::internal(format!("internal error: {e}\n")))?;
    let kept = kept_schedule(&args, &name, &text)?;
    let bound: Vec<usize> = kept.as_ref().map_or(Vec::new(), |k| k.ops.clone());
    let tasks = tuner::tasks::without_ops(tuner::tasks::tasks(&info), &bound);
    let tasks = tuner::tasks::merged_alike(tasks, &info);
    // Each task's measured op, then the first op of each task merged in.
    let ids: Vec<usize> = tasks
        .iter()
        .flat_map(|t| std::iter::once(t.ops[0]).chain(t.also.iter().copied()))
        .collect();
    let mut all = payload::isolate::isolate_ops(&context, &module, &name, &ids)
        .map_err(|e| crate::run::payload_failure(e, &source))?
        .into_iter();
    let isolated: Vec<Vec<String>> = tasks
        .iter()
        .map(|t| all.by_ref().take(1 + t.also.len()).collect())
        .collect();
    let mut records = match &args.records {
        Some(path) => Records::open(path).map_err(|e| Exit::input(format!("error: {e}\n")))?,
        None => Records::in_memory(),
    };
    if records.skipped > 0 {
        eprintln!(
            "warning: {} lines of the records are not records of this version; they are ignored",
            records.skipped
        );
    }
    let threads = args.threads as usize;
    if threads == 1 {
        runner::ffi::pin_to_one_core();
    }
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    // A second Ctrl-C while the first is handled ends the process as usual.
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let options = Options {
        budget: args.budget,
        threads,
        lanes: runner::lowering::machine_vector_bits() / 32,
        cpu: this_cpu(),
        patience: args.patience,
        warm: args.caches == Caches::Warm,
    };
    let mut measurer = InProcess::new(threads, args.min_seconds, args.caches == Caches::Warm);
    let start = Instant::now();
    let bar = progress_bar(tasks.len());
    let end = start + args.budget;
    let mut report = |event: Progress<'_>| report_progress(&bar, end, event);
    let mut session = Session {
        options: &options,
        records: &mut records,
        measurer: &mut measurer,
    };
    let mut results = tuner::tune(&info, tasks, &isolated, &mut session, &mut report, &stop)
        .map_err(|e| Exit::input(format!("error: {e}\n")))?;
    // The inlining decision gets what is left of the budget, and 20 s at least.
    let deadline = (start + args.budget).max(Instant::now() + Duration::from_secs(20));
    let header = Header {
        payload: name.clone(),
        cpu: options.cpu.clone(),
        threads,
        taken: kept.as_ref().map_or(Vec::new(), |k| k.names.clone()),
        kept: kept.map(|k| k.text),
    };
    if !stop.load(Ordering::SeqCst) {
        bar.set_message("inlining elementwise ops: measuring the whole model both ways");
        let decision = tuner::fusion::inline_elementwise(
            &info,
            &mut results,
            &name,
            &text,
            &header,
            &mut session,
            deadline,
        );
        match decision {
            Ok(Some(d)) => {
                let once = d.read_once.map_or(String::new(), |seconds| {
                    format!(", {:.4} ms with those read once per element", seconds * 1e3)
                });
                eprintln!(
                    "whole model: {:.4} ms with every elementwise kind inlined{once}, {:.4} ms \
                     with none; {} kinds inlined: {:.4} ms",
                    d.with * 1e3,
                    d.without * 1e3,
                    d.inlined,
                    d.chosen * 1e3
                )
            }
            Ok(None) => {}
            Err(why) => eprintln!(
                "warning: the whole model could not be measured, so nothing is inlined: {why}"
            ),
        }
    }
    bar.finish_and_clear();
    let schedule = schedule_text(&info, &results, &header);
    let parsed = schedule_lang::parse(&schedule).0;
    let schedule = schedule_lang::format(&parsed);
    let written = SourceFile::new("(tuned schedule)", schedule.clone());
    pipeline::run(&written, &name, &text, Stop::Plan, &[]).map_err(|failure| {
        Exit::internal(format!(
            "internal error: the tuned schedule does not check against {name}:\n{}\n{schedule}",
            failure.message()
        ))
    })?;
    eprintln!("{}", summary(&results, stop.load(Ordering::SeqCst)));
    write_output(args.output.as_deref(), &schedule)
}

/// A schedule already at `-o`, which `tune` extends.
struct Kept {
    text: String,
    /// Its func names, and the payload ops its funcs bind.
    names: Vec<String>,
    ops: Vec<usize>,
}

/// The schedule at `-o` (unless `--retune`, or there is none), checked
/// against the payload: a schedule that does not check is an error, since
/// the tuned funcs would be added to it.
fn kept_schedule(args: &TuneArgs, name: &str, payload: &str) -> Result<Option<Kept>, Exit> {
    let Some(path) = args.output.as_ref().filter(|p| p.exists() && !args.retune) else {
        return Ok(None);
    };
    let schedule = crate::files::read_schedule(path)?;
    let outcome = pipeline::run(&schedule, name, payload, Stop::Plan, &[]).map_err(|failure| {
        Exit::input(format!(
            "{}  = help: tune adds to the schedule at -o; fix it, or pass --retune to write a new one over it\n",
            failure.message()
        ))
    })?;
    let funcs = &outcome.model.funcs;
    Ok(Some(Kept {
        names: funcs.iter().map(|f| f.name.clone()).collect(),
        ops: funcs
            .iter()
            .flat_map(|f| f.stages.iter().map(|s| s.op))
            .collect(),
        text: schedule.text.clone(),
    }))
}

/// A bar over the tasks on a terminal; hidden otherwise.
fn progress_bar(tasks: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(tasks as u64);
    let style = ProgressStyle::with_template("{bar:30} {pos}/{len} kinds of op, {elapsed} {msg}")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

/// The bar's message: the kind of op being tuned, the candidate, the best
/// speedup so far and the budget left (`end` is when it runs out).
fn report_progress(bar: &ProgressBar, end: Instant, event: Progress<'_>) {
    let left = end.saturating_duration_since(Instant::now()).as_secs();
    let left = format!("{}m{:02}s of the budget left", left / 60, left % 60);
    match event {
        Progress::Task { index, task, .. } => {
            bar.set_position(index as u64);
            bar.set_message(format!("{} ({} ops); {left}", task.kind, task.ops.len()));
        }
        Progress::Measured {
            done,
            legal,
            best,
            reference,
        } => {
            let speedup = match (best, reference) {
                (Some(b), Some(r)) => format!(", best {:.1}x", r / b),
                _ => String::new(),
            };
            bar.set_message(format!("candidate {done}/{legal}{speedup}; {left}"));
        }
    }
}

/// One line: kinds of op scheduled, measurements, reused ones.
fn summary(results: &[tuner::TaskResult], interrupted: bool) -> String {
    let scheduled = results.iter().filter(|r| r.best.is_some()).count();
    let measured: usize = results.iter().map(|r| r.measured).sum();
    let reused: usize = results.iter().map(|r| r.reused).sum();
    let failed: usize = results.iter().map(|r| r.failed.len()).sum();
    let mut line = format!(
        "tuned {scheduled} of {} kinds of op: {measured} candidates measured ({reused} from the records, {failed} failed)",
        results.len()
    );
    if interrupted {
        line.push_str("; interrupted: kinds of op not reached are left unscheduled");
    }
    line
}
