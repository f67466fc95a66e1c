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
use tuner::records::Records;
use tuner::run::{tune_payload, Failure, Kept, Request};
use tuner::Progress;

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
    /// Time for the whole run: `90s`, `10m`, `1h`, or seconds. A twentieth is left for planning
    /// and writing; of the measuring time, with several kinds of op, three quarters are shared
    /// among them by their FLOPs and the rest goes to the decisions measured on the whole model
    /// (inlining, convolutions in their activations' tiles), a pair of whole models started only
    /// when it ends in time. A measurement read
    /// from the records counts the time it took then, so a second run from them stops where the
    /// first did, and writes the same schedule in seconds.
    #[arg(long, default_value = "10m", value_parser = parse_duration)]
    pub budget: Duration,
    /// Threads the schedules run on (their parallel loops). With one, calls are timed pinned to the
    /// last core the process may use, and the candidates measured next are compiled meanwhile on
    /// the others (`taskset -c 0,1` gives it two; `taskset -c 1` one, which then does both).
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
    /// Print the kinds of op it would tune, one JSON object per line (`task`: the key, `op`,
    /// `ops`, `flops`, `cpu`: this CPU's name in the records), and tune nothing.
    #[arg(long, conflicts_with_all = ["output", "kinds", "records"])]
    pub list_kinds: bool,
    /// Tune only this kind of op (a `task` key `--list-kinds` prints; repeatable), and none of
    /// the decisions measured on the whole model: one machine's part of a tune spread over several
    /// (`scripts/tune_ray.py`), its measurements kept in `--records` for the run that merges them.
    #[arg(long = "kind", value_name = "KEY")]
    pub kinds: Vec<String>,
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
    if args.list_kinds {
        return list_kinds(&name, &text, &source);
    }
    let kept = kept_schedule(&args, &name, &text)?;
    let mut records = match &args.records {
        Some(path) => Records::open(path).map_err(|e| Exit::input(format!("error: {e}\n")))?,
        None => Records::in_memory(),
    };
    let threads = args.threads as usize;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    // A second Ctrl-C while the first is handled ends the process as usual.
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let request = Request {
        budget: args.budget,
        threads,
        patience: args.patience,
        warm: args.caches == Caches::Warm,
        min_seconds: args.min_seconds,
        only: args.kinds.clone(),
    };
    let bar = progress_bar();
    let end = Instant::now() + args.budget;
    let mut report = |event: Progress<'_>| report_progress(&bar, end, event);
    let tuned = tune_payload(
        &name,
        &text,
        &request,
        &mut records,
        kept,
        &mut report,
        &stop,
    );
    bar.finish_and_clear();
    let tuned = tuned.map_err(|failure| failure_exit(failure, &source))?;
    for note in &tuned.notes {
        eprintln!("{note}");
    }
    write_output(args.output.as_deref(), &tuned.schedule)
}

/// `--list-kinds`: one JSON line per kind of op.
fn list_kinds(name: &str, text: &str, source: &SourceFile) -> Result<(), Exit> {
    let kinds =
        tuner::run::list_kinds(name, text).map_err(|failure| failure_exit(failure, source))?;
    let mut lines = String::new();
    for kind in kinds {
        let line = serde_json::to_string(&kind)
            .map_err(|e| Exit::internal(format!("internal error: {e}\n")))?;
        lines.push_str(&line);
        lines.push('\n');
    }
    write_output(None, &lines)
}

/// How a tune's failure ends the process.
fn failure_exit(failure: Failure, source: &SourceFile) -> Exit {
    match failure {
        Failure::Payload(e) => crate::run::payload_failure(e, source),
        Failure::Input(message) => Exit::input(format!("{message}\n")),
        Failure::Internal(message) => Exit::internal(format!("{message}\n")),
    }
}

/// The schedule at `-o` (unless `--retune`, or there is none), checked
/// against the payload: a schedule that does not check is an error, since
/// the tuned funcs would be added to it.
fn kept_schedule(args: &TuneArgs, name: &str, payload: &str) -> Result<Option<Kept>, Exit> {
    let Some(path) = args.output.as_ref().filter(|p| p.exists() && !args.retune) else {
        return Ok(None);
    };
    let schedule = crate::files::read_schedule(path)?;
    let outcome = pipeline::run(&schedule, name, payload, Stop::Plan, &pipeline::Machine::host()).map_err(|failure| {
        Exit::input(format!(
            "{}  = help: tune adds to the schedule at -o; fix it, or pass --retune to write a new one over it\n",
            failure.message()
        ))
    })?;
    let funcs = &outcome.model.funcs;
    // A func of many ops (`[*]`) is one func per op in the model, each
    // named with its index (`conv0[2]`); the name the schedule declares is
    // the one an added func must not take.
    let mut names: Vec<String> = funcs
        .iter()
        .map(|f| f.name.split('[').next().unwrap_or(&f.name).to_string())
        .collect();
    names.dedup();
    Ok(Some(Kept {
        names,
        ops: funcs
            .iter()
            .flat_map(|f| f.stages.iter().map(|s| s.op))
            .collect(),
        text: schedule.text.clone(),
    }))
}

/// A bar over the tasks on a terminal (its length set when the first
/// starts); hidden otherwise.
fn progress_bar() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0);
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
        Progress::Task { index, total, task } => {
            bar.set_length(total as u64);
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
        Progress::Inlining => {
            bar.set_message("inlining elementwise ops: measuring the whole model each way")
        }
        Progress::ComputingAt => bar.set_message(
            "convolutions computed in their readers' tiles: measuring the whole model each way",
        ),
        Progress::AsGemm => bar.set_message(
            "1x1 convolutions as GEMMs over their pixels: measuring the whole model each way",
        ),
    }
}
