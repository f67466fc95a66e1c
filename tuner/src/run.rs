//! A whole tuning run on one payload: its ops grouped into tasks (those a
//! kept schedule binds left out), isolated, searched, the inlining decided
//! on the whole model, and the schedule written, formatted and checked
//! against the payload. `sched-apply tune` and the Python package's
//! `tune` both call [`tune_payload`]; they own files, progress display and
//! Ctrl-C.

use crate::measure::InProcess;
use crate::records::{this_cpu, Records};
use crate::tasks::Task;
use crate::write::{schedule_text, Header};
use crate::{Model, Options, Progress, Session, TaskResult};
use interpreter::pipeline::{Parsed, Stop};
use payload::PayloadInfo;
use schedule_lang::SourceFile;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What a run is asked to do, besides the payload.
pub struct Request {
    /// Time for all measurements ([`crate::Session::spent`]).
    pub budget: Duration,
    /// Threads the schedules run on.
    pub threads: usize,
    /// Stop a kind after this many measured candidates in a row brought nothing.
    pub patience: usize,
    /// Time calls back to back instead of flushing the caches first.
    pub warm: bool,
    /// Time each candidate for at least this many seconds.
    pub min_seconds: f64,
    /// Tune only the kinds of op with these keys ([`list_kinds`]), and
    /// none of the decisions measured on the whole model (empty: every
    /// kind, then those decisions): one worker's part of a tune spread
    /// over machines (`scripts/tune_ray.py`).
    pub only: Vec<String>,
}

/// A kind of op as `sched-apply tune --list-kinds` prints it.
#[derive(serde::Serialize)]
pub struct KindSummary {
    /// Its key in the records ([`crate::tasks::Task::key`]).
    pub task: String,
    /// What the key hashes.
    pub op: String,
    /// How many of the payload's ops it has.
    pub ops: usize,
    /// FLOPs of one of them.
    pub flops: u64,
    /// This CPU, as the records name it: measurements of the kind count
    /// only on CPUs of this name.
    pub cpu: String,
}

/// The kinds of op `tune` would tune in payload `text` (`name`), largest
/// FLOPs first.
pub fn list_kinds(name: &str, text: &str) -> Result<Vec<KindSummary>, Failure> {
    let context = payload::new_context();
    let module = payload::parse_module(&context, name, text).map_err(Failure::Payload)?;
    let info = payload::describe(&context, &module, name)
        .map_err(|e| Failure::Internal(format!("internal error: {e}")))?;
    let cpu = this_cpu();
    Ok(kinds(&info)
        .into_iter()
        .map(|t| KindSummary {
            task: t.key,
            op: t.description,
            ops: t.ops.len(),
            flops: t.flops,
            cpu: cpu.clone(),
        })
        .collect())
}

/// The kinds of op of a payload, none left out.
fn kinds(info: &PayloadInfo) -> Vec<Task> {
    crate::tasks::merged_alike(crate::tasks::tasks(info), info)
}

/// Of `tasks`, those whose keys `keys` names (all when it names none); a
/// key none has is an error, saying whether a kept schedule binds it.
fn only(
    mut tasks: Vec<Task>,
    keys: &[String],
    info: &PayloadInfo,
    name: &str,
) -> Result<Vec<Task>, Failure> {
    if let Some(unknown) = keys.iter().find(|k| !tasks.iter().any(|t| &t.key == *k)) {
        let message = match kinds(info).iter().any(|t| &t.key == unknown) {
            true => format!(
                "error: the kind of op `{unknown}` is bound by the schedule being kept, which \
                 tune does not tune again\n  = help: pass --retune to tune it"
            ),
            false => format!(
                "error: {name} has no kind of op `{unknown}` to tune\n  = help: `sched-apply \
                 tune {name} --list-kinds` lists them"
            ),
        };
        return Err(Failure::Input(message));
    }
    if !keys.is_empty() {
        tasks.retain(|t| keys.contains(&t.key));
    }
    Ok(tasks)
}

/// A schedule the person wrote, which the run keeps and adds to.
pub struct Kept {
    /// Its text.
    pub text: String,
    /// Its func names (the written funcs take others).
    pub names: Vec<String>,
    /// The payload ops its funcs bind (not tuned again).
    pub ops: Vec<usize>,
}

/// Why a run failed.
pub enum Failure {
    /// The payload does not parse or cannot be isolated: MLIR's error.
    Payload(payload::PayloadError),
    /// The records or the search failed (a records file that cannot be written, say).
    Input(String),
    /// This tool's fault (the written schedule does not check).
    Internal(String),
}

/// What a run found.
pub struct Tuned {
    /// The schedule, canonical and checked against the payload.
    pub schedule: String,
    /// What each task found.
    pub results: Vec<TaskResult>,
    /// Lines for the person: the inlining decision's figures, warnings.
    pub notes: Vec<String>,
}

/// Tunes `text` (payload `name`), measuring in this process; `records` are
/// read and appended to; `kept` is kept and added to; `stop` (Ctrl-C) ends
/// the search early with what was found.
pub fn tune_payload(
    name: &str,
    text: &str,
    request: &Request,
    records: &mut Records,
    kept: Option<Kept>,
    progress: &mut dyn FnMut(Progress<'_>),
    stop: &AtomicBool,
) -> Result<Tuned, Failure> {
    let mut clock = PhaseClock::new();
    let context = payload::new_context();
    let module = payload::parse_module(&context, name, text).map_err(Failure::Payload)?;
    // Parsed once: every schedule tried on the model is planned on a copy.
    let parsed = Parsed::of_module(&context, module, name, text);
    let module = parsed.module();
    let info = payload::describe(&context, module, name)
        .map_err(|e| Failure::Internal(format!("internal error: {e}")))?;
    let bound: Vec<usize> = kept.as_ref().map_or(Vec::new(), |k| k.ops.clone());
    let tasks = crate::tasks::without_ops(crate::tasks::tasks(&info), &bound);
    let tasks = only(
        crate::tasks::merged_alike(tasks, &info),
        &request.only,
        &info,
        name,
    )?;
    // Each task's measured op (after the transposes feeding it), then the
    // first op of each task merged in.
    let groups: Vec<Vec<usize>> = tasks
        .iter()
        .flat_map(|t| {
            let first = t.feeders.iter().copied().chain([t.ops[0]]).collect();
            std::iter::once(first).chain(t.also.iter().map(|&id| vec![id]))
        })
        .collect();
    let mut all = payload::isolate::isolate_groups(&context, module, name, &groups)
        .map_err(Failure::Payload)?
        .into_iter();
    let isolated: Vec<Vec<String>> = tasks
        .iter()
        .map(|t| all.by_ref().take(1 + t.also.len()).collect())
        .collect();
    let mut notes = Vec::new();
    if records.skipped > 0 {
        notes.push(format!(
            "warning: {} lines of the records are not records of this version; they are ignored",
            records.skipped
        ));
    }
    let options = Options {
        budget: request.budget,
        threads: request.threads,
        lanes: runner::lowering::machine_vector_bits() / 32,
        cpu: this_cpu(),
        patience: request.patience,
        warm: request.warm,
    };
    let mut measurer = InProcess::new(request.threads, request.min_seconds, request.warm);
    let mut session = Session {
        options: &options,
        records,
        measurer: &mut measurer,
        spent: 0.0,
        last_pair: 0.0,
    };
    clock.end("isolating the kinds of op", 0.0);
    let mut results = crate::tune(&info, tasks, &isolated, &mut session, progress, stop)
        .map_err(|e| Failure::Input(format!("error: {e}")))?;
    clock.end("the kinds of op", session.spent);
    // The inlining decision gets half of what the kinds of op left of the
    // measuring budget ([`crate::TASKS_SHARE`], [`Options::measuring`]), and
    // 20 s at least, of measuring time ([`Session::spent`]); the producers'
    // decision the rest.
    let budget = options.measuring();
    let deadline = (budget * (1.0 + crate::TASKS_SHARE) / 2.0).max(session.spent + 20.0);
    let header = Header {
        payload: name.to_string(),
        cpu: options.cpu.clone(),
        threads: request.threads,
        warm: request.warm,
        taken: kept.as_ref().map_or(Vec::new(), |k| k.names.clone()),
        kept: kept.map(|k| k.text),
    };
    if !stop.load(Ordering::SeqCst) && request.only.is_empty() {
        progress(Progress::Inlining);
        let isolate = |ops: &[usize]| {
            let groups = [ops.to_vec()];
            payload::isolate::isolate_groups(&context, module, name, &groups)
                .map_err(|e| e.message)?
                .pop()
                .ok_or_else(|| "nothing isolated".to_string())
        };
        let model = Model {
            info: &info,
            name,
            text,
            header: &header,
            isolate: &isolate,
            parsed: &parsed,
        };
        let decision =
            crate::fusion::inline_elementwise(&model, &mut results, &mut session, deadline);
        match decision {
            Ok(Some(d)) => {
                let once = d.read_once.map_or(String::new(), |seconds| {
                    format!(", {:.4} ms with those read once per element", seconds * 1e3)
                });
                notes.push(format!(
                    "whole model (pairs of schedules, calls interleaved): {:.4} ms with every \
                     elementwise kind inlined{once}, {:.4} ms with none; {} kinds inlined: {:.4} ms",
                    d.with * 1e3,
                    d.without * 1e3,
                    d.inlined,
                    d.chosen * 1e3
                ));
            }
            Ok(None) => {}
            Err(why) => notes.push(format!(
                "warning: the whole model could not be measured, so nothing is inlined: {why}"
            )),
        }
        clock.end("inlining on the whole model", session.spent);
        progress(Progress::ComputingAt);
        let deadline = budget.max(session.spent + 30.0);
        let decision =
            crate::producers::compute_in_readers(&model, &mut results, &mut session, deadline);
        match decision {
            Ok(Some(d)) => notes.push(producers_note(&d)),
            Ok(None) => {}
            Err(why) => notes.push(format!(
                "warning: the whole model could not be measured, so no convolution is computed \
                 in its activation's tiles: {why}"
            )),
        }
        clock.end("convolutions in their activations' tiles", session.spent);
        progress(Progress::AsGemm);
        let deadline = budget.max(session.spent + 30.0);
        match crate::as_gemm::take_gemm_forms(&model, &mut results, &mut session, deadline) {
            Ok(Some(d)) => notes.push(as_gemm_note(&d)),
            Ok(None) => {}
            Err(why) => notes.push(format!(
                "warning: the whole model could not be measured, so no 1x1 convolution runs as \
                 a GEMM over its pixels: {why}"
            )),
        }
        clock.end("1x1 convolutions as GEMMs", session.spent);
    }
    let schedule = schedule_text(&info, &results, &header);
    let schedule = schedule_lang::format(&schedule_lang::parse(&schedule).0);
    let written = SourceFile::new("(tuned schedule)", schedule.clone());
    parsed.run(&written, Stop::Plan).map_err(|failure| {
        Failure::Internal(format!(
            "internal error: the tuned schedule does not check against {name}:\n{}\n{schedule}",
            failure.message()
        ))
    })?;
    clock.end("writing and checking the schedule", session.spent);
    notes.push(summary(&results, stop.load(Ordering::SeqCst)));
    notes.push(clock.note());
    Ok(Tuned {
        schedule,
        results,
        notes,
    })
}

/// One line: kinds of op scheduled, measurements, reused ones.
fn summary(results: &[TaskResult], interrupted: bool) -> String {
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

/// The note on the producers computed in their readers' tiles.
fn as_gemm_note(d: &crate::as_gemm::Decision) -> String {
    let together = match &d.together {
        Ok((without, with)) => format!(
            "{:.4} ms as tuned alone, {:.4} ms with all {} as GEMMs (calls interleaved)",
            without * 1e3,
            with * 1e3,
            d.possible
        ),
        Err(why) => format!("not measured together ({why})"),
    };
    format!(
        "whole model, 1x1 convolutions at root as GEMMs over their pixels (`fuse`): {together}; \
         taken for {} of {} kinds",
        d.taken, d.possible
    )
}

fn producers_note(d: &crate::producers::Decision) -> String {
    let ms = |s: f64| format!("{:.4} ms", s * 1e3);
    let together = match &d.together {
        Ok((apart, fused)) => format!(
            "{} apart, {} with all {} kinds computed in them (calls interleaved)",
            ms(*apart),
            ms(*fused),
            d.possible
        ),
        Err(why) => format!("with all {} kinds computed in them: {why}", d.possible),
    };
    let last = d.last_kept.map_or(String::new(), |(without, with)| {
        format!(
            "; one by one, the last kept: {} against {} without it",
            ms(with),
            ms(without)
        )
    });
    let variants = match d.variant_pairs {
        0 => String::new(),
        n => format!("; tiles chosen by {n} pairs of variants timed on their ops alone"),
    };
    format!(
        "whole model, convolutions computed in their activations' tiles: {together}; kept for {} \
         kinds of activation{last}{variants}",
        d.readers
    )
}

/// Where a run's time went: each phase's wall time and the measuring time
/// ([`Session::spent`]) it added.
struct PhaseClock {
    began: Instant,
    last: (Instant, f64),
    phases: Vec<(&'static str, f64, f64)>,
}

impl PhaseClock {
    fn new() -> Self {
        let now = Instant::now();
        Self {
            began: now,
            last: (now, 0.0),
            phases: Vec::new(),
        }
    }

    /// The phase `name` ends now, the session having spent `spent`.
    fn end(&mut self, name: &'static str, spent: f64) {
        let now = Instant::now();
        let wall = now.duration_since(self.last.0).as_secs_f64();
        self.phases.push((name, wall, spent - self.last.1));
        self.last = (now, spent);
    }

    /// One line: each phase's seconds (and the measuring counted against
    /// the budget in them), and the whole.
    fn note(&self) -> String {
        let phases: Vec<String> = self
            .phases
            .iter()
            .map(|(name, wall, spent)| match *spent > 0.0 {
                true => format!("{name} {wall:.1} s (budget spent {spent:.1} s)"),
                false => format!("{name} {wall:.1} s"),
            })
            .collect();
        format!(
            "time: {}; {:.1} s in all",
            phases.join(", "),
            self.began.elapsed().as_secs_f64()
        )
    }
}
