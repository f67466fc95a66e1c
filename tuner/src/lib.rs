//! `sched-apply tune`: writes the `.sched` a person would, by measuring.
//! The payload's ops are grouped into tasks ([`tasks`]: one per kind, shape
//! and body); each task's op is isolated ([`payload::isolate`]), its
//! candidate chains generated ([`space`]), checked by the planner (never by
//! letting MLIR fail), ordered by an analytical model ([`cost`]) and
//! measured best first ([`measure`]) until the task's share of the budget
//! is spent or several in a row bring nothing; every measurement goes to
//! the records ([`records`]) and is reused from them; then, measured on
//! the whole model, elementwise ops are inlined ([`fusion`]) and
//! convolutions computed in their activations' tiles ([`producers`]); the
//! winners are written as one func per task ([`selector`], [`write`]).

mod ahead;
pub mod as_gemm;
pub mod candidate;
pub mod cost;
pub mod dividing;
pub mod fused;
pub mod fusion;
pub mod loops;
pub mod measure;
mod model;
pub mod packed;
mod paired;
pub mod partials;
pub mod pixels;
pub mod pooled;
pub mod producers;
pub mod provenance;
pub mod records;
pub mod run;
pub mod selector;
mod settle;
pub mod space;
pub mod tasks;
pub mod write;

use interpreter::pipeline::{Parsed, Stop};
use measure::{Measurement, Measurer};
use records::{Record, Records};
use schedule_lang::{PayloadInfo, SourceFile};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tasks::Task;

pub use model::Model;
pub(crate) use paired::paired;

/// The part of the budget the kinds of op share when there are several:
/// the rest is for the decisions measured on the whole model after them
/// ([`fusion`], [`producers`]), so that a tune ends near its budget
/// (mobilenet_v2's took 108 s of a 10-minute budget, which the kinds had
/// spent whole).
pub const TASKS_SHARE: f64 = 0.75;

/// The part of the budget left for what is not measuring (planning
/// candidates, writing schedules, isolating ops), so that a run ends
/// within its budget: mobilenet_v2's took 26 s of 10 minutes.
pub const PLANNING_SHARE: f64 = 0.05;

/// How to tune.
pub struct Options {
    /// Time for all measurements ([`Session::spent`]), shared by the tasks' FLOPs.
    pub budget: Duration,
    /// Threads the schedules run on.
    pub threads: usize,
    /// Floats per machine vector.
    pub lanes: i64,
    /// This CPU, as records name it ([`records::this_cpu`]).
    pub cpu: String,
    /// Stop a task after this many measured candidates in a row brought nothing.
    pub patience: usize,
    /// Whether measurements keep the caches warm (the measurer's choice,
    /// recorded so cold and warm times are never compared).
    pub warm: bool,
}

/// Where a search measures, and keeps what it measured.
pub struct Session<'a> {
    /// How to tune.
    pub options: &'a Options,
    /// The records, read and appended to.
    pub records: &'a mut Records,
    /// Where candidates run.
    pub measurer: &'a mut dyn Measurer,
    /// Seconds of the budget spent: what each measurement took, or what
    /// its record says it took when it comes from the records (so a second
    /// run from them stops where the first did, and decides the same).
    pub spent: f64,
    /// What the last whole-model pair took (or its records say it took):
    /// a pair that would not end by a decision's deadline is not started.
    pub last_pair: f64,
}

impl Options {
    /// Seconds of measuring the budget allows ([`PLANNING_SHARE`] left
    /// for the rest).
    pub fn measuring(&self) -> f64 {
        self.budget.as_secs_f64() * (1.0 - PLANNING_SHARE)
    }
}

impl Session<'_> {
    /// Whether another pair like the last ends before `deadline` seconds
    /// of measuring are spent.
    pub(crate) fn pair_fits(&self, deadline: f64) -> bool {
        self.spent + self.last_pair < deadline
    }

    /// `measure` run on the measurer, its seconds added to [`Session::spent`]:
    /// its outcome, and the seconds it took.
    fn timed<T>(&mut self, measure: impl FnOnce(&mut dyn Measurer) -> T) -> (T, f64) {
        let begin = Instant::now();
        let outcome = measure(&mut *self.measurer);
        let took = begin.elapsed().as_secs_f64();
        self.spent += took;
        (outcome, took)
    }
}

/// What tuning one task found.
#[derive(Clone, Debug)]
pub struct TaskResult {
    /// The task.
    pub task: Task,
    /// The `where` conditions binding its ops (None: no conditions can).
    pub conditions: Option<Vec<String>>,
    /// The unscheduled op's seconds.
    pub reference: Option<f64>,
    /// The fastest candidate that beat the unscheduled op: chain and seconds.
    pub best: Option<(String, f64)>,
    /// The register tiles of the candidates measured, with their seconds,
    /// fastest first: the tiles a reader can take over ([`producers`]).
    pub tiles: Vec<(space::RegisterTile, f64)>,
    /// Candidates the planner accepted, and how many of them were measured
    /// (or found in the records).
    pub legal: usize,
    pub measured: usize,
    /// Of those, how many came from the records.
    pub reused: usize,
    /// Candidates that could not be measured or computed other results.
    pub failed: Vec<(String, String)>,
    /// Whether its ops are inlined into their readers instead ([`fusion`]).
    pub inlined: bool,
    /// Whether that is because the matmuls reading them were tuned with
    /// them inlined ([`tasks::Task::feeders`]), not by measuring the model.
    pub fed: bool,
    /// Whether its ops are computed in the tiles of the ops reading them
    /// instead ([`producers`]).
    pub computed_in: Option<fused::ComputedIn>,
    /// The chain tiling its ops as the producers computed in them are
    /// ([`producers`]), replacing `best`.
    pub tiled: Option<String>,
    /// The fastest fused-pixels candidate measured ([`pixels`]): chain and
    /// seconds; the whole model may take it in place of `best` ([`as_gemm`]).
    pub pixels: Option<(String, f64)>,
    /// When the whole model took `pixels` in place of the best alone: the
    /// best's seconds alone, for the written comment ([`as_gemm`]).
    pub gemm_over: Option<f64>,
}

/// What `tune` reports while it works.
pub enum Progress<'a> {
    /// Task `index` of `total` starts.
    Task {
        index: usize,
        total: usize,
        task: &'a Task,
    },
    /// A candidate of the current task was measured (or found in the records).
    Measured {
        done: usize,
        legal: usize,
        best: Option<f64>,
        reference: Option<f64>,
    },
    /// The search is done; the inlining decision measures the whole model.
    Inlining,
    /// Then the decision to compute producers in their readers' tiles does.
    ComputingAt,
    /// Then the decision to run 1x1 convolutions as GEMMs over their pixels.
    AsGemm,
}

/// The schedule of one func `t` bound to the isolated op, with `chain`;
/// `fed`: the isolated payload also holds the transposes feeding it, each
/// inlined into it.
fn candidate_schedule(task: &Task, info: &PayloadInfo, chain: &str, fed: bool) -> String {
    let mut text = String::new();
    if fed {
        for (k, &id) in task.feeders.iter().enumerate() {
            let op = &info.ops[id];
            let dims = schedule_lang::naming::dim_names(op);
            let binding = schedule_lang::naming::binding(op, &dims);
            text.push_str(&format!(
                "func w{k} = linalg.transpose[{k}] ({binding})\nw{k}.compute_inline()\n"
            ));
        }
    }
    text.push_str(&format!(
        "func t = {} ({})\nt{chain}\n",
        task.kind,
        task.binding(info)
    ));
    text
}

/// Whether `schedule` resolves and plans (inlining included) against the
/// payload with no error and no warning.
pub(crate) fn plans_cleanly(schedule: &str, payload: &Parsed<'_>) -> bool {
    let source = SourceFile::new("(tuned schedule)", schedule);
    matches!(
        payload.run(&source, Stop::Plan),
        Ok(outcome) if outcome.warnings.is_empty()
    )
}

/// Tunes every task of `info` (isolated payloads in `isolated`, per task in
/// order: its measured op's, then one per [`Task::also`]), stopping early when `stop` is set (Ctrl-C): the tasks not
/// reached keep no schedule.
pub fn tune(
    info: &PayloadInfo,
    tasks: Vec<Task>,
    isolated: &[Vec<String>],
    session: &mut Session<'_>,
    progress: &mut dyn FnMut(Progress<'_>),
    stop: &AtomicBool,
) -> Result<Vec<TaskResult>, String> {
    let begin = session.spent;
    let weights: Vec<f64> = tasks
        .iter()
        .map(|t| (t.flops as f64 * t.ops.len() as f64).max(1.0))
        .collect();
    let mut results = Vec::new();
    let count = tasks.len();
    let pool = session.options.measuring() * if count > 1 { TASKS_SHARE } else { 1.0 };
    for (index, (task, payloads)) in tasks.into_iter().zip(isolated).enumerate() {
        progress(Progress::Task {
            index,
            total: count,
            task: &task,
        });
        // A task's share: its FLOPs' part of what is left of the tasks'
        // part of the budget (measuring time: [`Session::spent`]).
        let left = (pool - (session.spent - begin)).max(0.0);
        let weight_left: f64 = weights[index..].iter().sum();
        let share = Duration::from_secs_f64(left * weights[index] / weight_left.max(1.0));
        let result = tune_task(task, info, payloads, session, progress, stop, share)?;
        results.push(result);
    }
    Ok(results)
}

/// The record of a measurement of `chain` (None: the unscheduled op).
fn record(
    subject: &Subject<'_>,
    options: &Options,
    chain: Option<&str>,
    outcome: &Result<Measurement, String>,
    took: f64,
) -> Record {
    Record {
        version: records::VERSION,
        cpu: options.cpu.clone(),
        threads: options.threads,
        warm: options.warm,
        task: subject.key.to_string(),
        op: subject.description.to_string(),
        schedule: chain.map(str::to_string),
        seconds: outcome.as_ref().ok().map(|m| m.seconds),
        calls: outcome.as_ref().map_or(0, |m| m.calls),
        error: outcome.as_ref().err().cloned(),
        took: Some(took),
    }
}

/// What is measured: a task's key and description, or a whole model's.
pub(crate) struct Subject<'a> {
    pub key: &'a str,
    pub description: &'a str,
}

impl Task {
    fn subject(&self) -> Subject<'_> {
        Subject {
            key: &self.key,
            description: &self.description,
        }
    }
}

/// One measurement, from the records when they have it: the outcome, and
/// whether it came from them.
pub(crate) fn measured(
    subject: &Subject<'_>,
    chain: Option<&str>,
    schedule: Option<&str>,
    payload: &str,
    session: &mut Session<'_>,
) -> Result<(Result<Measurement, String>, bool), String> {
    if let Some(record) = session.records.find(
        (
            &session.options.cpu,
            session.options.threads,
            session.options.warm,
        ),
        subject.key,
        chain,
    ) {
        let outcome = match (record.seconds, &record.error) {
            (Some(seconds), _) => Ok(Measurement {
                seconds,
                calls: record.calls,
            }),
            (None, error) => Err(error.clone().unwrap_or_default()),
        };
        session.spent += record.took.unwrap_or(0.0);
        return Ok((outcome, true));
    }
    let (outcome, took) = session.timed(|measurer| match schedule {
        Some(schedule) => measurer.measure(subject.key, payload, schedule),
        None => measurer.reference(subject.key, payload),
    });
    let record = record(subject, session.options, chain, &outcome, took);
    session.records.add(record)?;
    Ok((outcome, false))
}

/// A new best timed again: the slower of the two times is kept when they
/// agree within [`settle::DISAGREE`], so noise does not crown a candidate; when
/// they do not, one spell of a shared machine hit one of them (resnet18's
/// stride-2 14x14 convolution on two threads: 13.055 then 21.176 ms, and
/// the slower time let a 17.149 ms tile win), and a third timing decides:
/// the median of the three. Recorded (with the seconds every timing took,
/// `first_took` the first's), so a second `tune` reads the same time.
fn retimed(
    task: &Task,
    candidate: &space::Candidate,
    schedule: &str,
    payload: &str,
    (first, first_took): (Measurement, f64),
    session: &mut Session<'_>,
) -> Result<f64, String> {
    let again = |session: &mut Session<'_>| {
        session.timed(|measurer| measurer.measure(&task.key, payload, schedule))
    };
    let (second, took) = again(session);
    let Ok(second) = second else {
        return Ok(first.seconds);
    };
    let mut timings = vec![first, second];
    let mut spent = first_took + took;
    if settle::disagree(first.seconds, second.seconds) {
        let (third, took) = again(session);
        spent += took;
        timings.extend(third.ok());
    }
    let kept = settle::settled(&timings);
    let record = record(
        &task.subject(),
        session.options,
        Some(&candidate.chain),
        &Ok(kept),
        spent,
    );
    session.records.add(record)?;
    Ok(kept.seconds)
}

fn tune_task(
    task: Task,
    info: &PayloadInfo,
    payloads: &[String],
    session: &mut Session<'_>,
    progress: &mut dyn FnMut(Progress<'_>),
    stop: &AtomicBool,
    share: Duration,
) -> Result<TaskResult, String> {
    let begin = session.spent;
    let payload = payloads
        .first()
        .ok_or_else(|| format!("internal error: no isolated payload for {}", task.kind))?;
    let op = &info.ops[task.ops[0]];
    let mut candidates =
        space::candidates(&task, op, session.options.lanes, session.options.threads);
    // Parsed once per task in one context, each candidate planned on a copy.
    let context = payload::new_context();
    let parsed = payloads
        .iter()
        .map(|p| Parsed::new(&context, "task.mlir", p))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|failure| {
            format!(
                "internal error: the isolated {} does not parse: {}",
                task.kind,
                failure.message()
            )
        })?;
    candidates.retain(|c| {
        parsed.iter().enumerate().all(|(i, payload)| {
            let schedule = candidate_schedule(&task, info, &c.chain, i == 0);
            plans_cleanly(&schedule, payload)
        })
    });
    cost::rank(&mut candidates);
    let mut result = TaskResult {
        conditions: selector::where_conditions(&task, info),
        task,
        reference: None,
        best: None,
        tiles: Vec::new(),
        legal: candidates.len(),
        measured: 0,
        reused: 0,
        failed: Vec::new(),
        inlined: false,
        fed: false,
        computed_in: None,
        tiled: None,
        pixels: None,
        gemm_over: None,
    };
    if result.conditions.is_none() || candidates.is_empty() || stop.load(Ordering::Relaxed) {
        return Ok(result);
    }
    let task = result.task.clone();
    let (reference, _) = measured(&task.subject(), None, None, payload, session)?;
    match reference {
        Ok(reference) => result.reference = Some(reference.seconds),
        Err(why) => {
            result.failed.push((write::UNSCHEDULED.to_string(), why));
            return Ok(result);
        }
    }
    let mut stale = 0;
    let mut order = cost::Order::default();
    let mut index = 0;
    while index < candidates.len() {
        let out_of_time = session.spent - begin >= share.as_secs_f64() && result.measured > 0;
        let best = result.best.as_ref().map(|(chain, _)| chain.as_str());
        let patience = session.options.patience;
        if stop.load(Ordering::Relaxed)
            || out_of_time
            || !order.next(&mut candidates, index, (stale, patience), best)
        {
            break;
        }
        let candidate = &candidates[index];
        if let Some(next) = candidates.get(index + 1) {
            announce(&task, info, next, payload, session);
        }
        match try_candidate(&task, info, candidate, payload, session, &mut result)? {
            true => stale = 0,
            false => stale += 1,
        }
        progress(Progress::Measured {
            done: result.measured,
            legal: result.legal,
            best: result.best.as_ref().map(|b| b.1),
            reference: result.reference,
        });
        index += 1;
    }
    // A reader can be tiled only as a register tile dividing the output
    // ([`producers`]): when none measured near the best does, a few that do,
    // until one is near.
    let output = &info.ops[task.ops[0]];
    let near = result.best.as_ref().map_or(0.0, |b| b.1) * producers::TILE_SLACK;
    let divides = |t: &space::RegisterTile| t.divides_output(output, &task.extents);
    if result.best.is_some() && !result.tiles.iter().any(|(t, s)| divides(t) && *s <= near) {
        for candidate in dividing::dividing_tiles(&candidates[index..], &result.tiles, divides) {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            try_candidate(&task, info, candidate, payload, session, &mut result)?;
            if result.tiles.last().is_some_and(|(_, s)| *s <= near) {
                break;
            }
        }
    }
    // The whole model may run a 1x1 convolution faster as a GEMM than
    // alone ([`as_gemm`]): when the search measured no fused-pixels
    // candidate, the two the model ranks first.
    if result.best.is_some() && result.pixels.is_none() {
        let unmeasured = candidates[index..]
            .iter()
            .filter(|c| as_gemm::is_pixels(&c.chain));
        for candidate in unmeasured.take(2) {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            try_candidate(&task, info, candidate, payload, session, &mut result)?;
        }
    }
    result.tiles.sort_by(|a, b| a.1.total_cmp(&b.1));
    Ok(result)
}

/// Tells the measurer `candidate` comes next, unless the records have it:
/// it may compile it while it times the one before.
fn announce(
    task: &Task,
    info: &PayloadInfo,
    candidate: &space::Candidate,
    payload: &str,
    session: &mut Session<'_>,
) {
    let options = session.options;
    let on = (options.cpu.as_str(), options.threads, options.warm);
    if session
        .records
        .find(on, &task.key, Some(&candidate.chain))
        .is_none()
    {
        let schedule = candidate_schedule(task, info, &candidate.chain, true);
        session.measurer.upcoming(&task.key, payload, &schedule);
    }
}

/// Measures `candidate` (or finds it in the records) into `result`: its
/// tile, and whether it is the new best (timed again first).
fn try_candidate(
    task: &Task,
    info: &PayloadInfo,
    candidate: &space::Candidate,
    payload: &str,
    session: &mut Session<'_>,
    result: &mut TaskResult,
) -> Result<bool, String> {
    let schedule = candidate_schedule(task, info, &candidate.chain, true);
    let before = session.spent;
    let (outcome, reused) = measured(
        &task.subject(),
        Some(&candidate.chain),
        Some(&schedule),
        payload,
        session,
    )?;
    result.measured += 1;
    result.reused += usize::from(reused);
    let m = match outcome {
        Ok(m) => m,
        Err(why) => {
            result.failed.push((candidate.chain.clone(), why));
            return Ok(false);
        }
    };
    let best = result
        .best
        .as_ref()
        .map_or(result.reference.unwrap_or(f64::MAX), |b| b.1);
    // A new best is timed again (recorded winners were, when measured), so
    // its tile keeps the time a second `tune` reads from the records.
    let seconds = if m.seconds >= best || reused {
        m.seconds
    } else {
        let took = session.spent - before;
        retimed(task, candidate, &schedule, payload, (m, took), session)?
    };
    if let Some(tile) = &candidate.tile {
        result.tiles.push((tile.clone(), seconds));
    }
    if as_gemm::is_pixels(&candidate.chain) && result.pixels.as_ref().is_none_or(|p| seconds < p.1)
    {
        result.pixels = Some((candidate.chain.clone(), seconds));
    }
    if seconds < best {
        result.best = Some((candidate.chain.clone(), seconds));
        return Ok(true);
    }
    Ok(false)
}
