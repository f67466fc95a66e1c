//! Compiling ahead: while [`crate::measure::InProcess`] times one
//! candidate on its core, a thread on the other cores applies, compiles and
//! checks the candidates it was told come next ([`Ahead::compile`]), so a
//! search spends the longer of compiling and timing on each candidate
//! instead of both (a kind of op's candidate took 0.16 s, two thirds of it
//! compiling). A whole model's pair compiles its two schedules at once.

use interpreter::pipeline::{self, Loaded, Stop};
use runner::compare::{compare, default_tolerance};
use runner::jit::Program;
use runner::tensor::Tensor;
use schedule_lang::SourceFile;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

/// A task's seeded inputs and the unscheduled op's results on them.
pub(crate) type Reference = Arc<(Vec<Tensor>, Vec<Tensor>)>;

/// `schedule` applied to `payload` and compiled, its results on the
/// reference's inputs checked against the unscheduled op's; parallel loops
/// on `threads` threads.
pub(crate) fn checked_program(
    payload: &str,
    schedule: &str,
    reference: &Reference,
    threads: usize,
) -> Result<Program, String> {
    let context = payload::new_context();
    let mut module =
        payload::parse_module(&context, "task.mlir", payload).map_err(|e| e.message)?;
    let source = SourceFile::new("candidate.sched", schedule);
    let loaded = Loaded {
        context: &context,
        module: &mut module,
        name: "task.mlir",
        text: payload,
        since: Instant::now(),
    };
    let outcome = pipeline::run_loaded(&source, loaded, Stop::Apply, &pipeline::Machine::host())
        .map_err(|f| f.message().to_string())?;
    let text = outcome.payload.unwrap_or_default();
    let program = Program::compile_module(
        &context,
        module,
        "task.mlir (scheduled)",
        &text,
        None,
        &[],
        None,
    )
    .map_err(|e| e.message)?;
    if threads > 1 && program.is_parallel() {
        program.set_threads(threads)?;
    }
    let (inputs, expected) = &**reference;
    let mut results = program.new_results();
    program
        .call(&mut inputs.to_vec(), &mut results)
        .map_err(|e| e.to_string())?;
    let element = program.signature.results[0].element;
    let comparison = compare(&results, expected, default_tolerance(element, expected));
    if let Some(m) = comparison.mismatch {
        return Err(format!(
            "differs from the unscheduled op: result {} at {:?} is {} but should be {}",
            m.result, m.index, m.got, m.want
        ));
    }
    Ok(program)
}

/// A program to compile: its task's key, schedule, payload and reference.
struct Job {
    key: String,
    schedule: String,
    payload: String,
    reference: Reference,
}

/// A compiled (or failed) program: its task's key, schedule, and outcome.
type Done = (String, String, Result<Program, String>);

/// Programs compiled but not asked for that are kept: a search asks for
/// what it announced next, unless it stopped there.
const READY_KEPT: usize = 4;

/// The thread compiling ahead, and what it was given.
pub(crate) struct Ahead {
    jobs: Option<Sender<Job>>,
    done: Receiver<Done>,
    /// Sent and not received yet, in order.
    pending: Vec<(String, String)>,
    /// Received and not asked for yet, oldest first.
    ready: Vec<Done>,
    worker: Option<JoinHandle<()>>,
}

impl Ahead {
    /// A thread compiling on `cores` (none: when it cannot start, or cannot
    /// keep off the timing core).
    pub(crate) fn start(cores: Vec<usize>) -> Option<Self> {
        let (jobs, inbox) = channel::<Job>();
        let (outbox, done) = channel::<Done>();
        let worker = std::thread::Builder::new()
            .name("compile-ahead".to_string())
            .spawn(move || {
                if !runner::ffi::run_on(&cores) {
                    return;
                }
                for job in inbox {
                    let program = checked_program(&job.payload, &job.schedule, &job.reference, 1);
                    if outbox.send((job.key, job.schedule, program)).is_err() {
                        break;
                    }
                }
            })
            .ok()?;
        Some(Self {
            jobs: Some(jobs),
            done,
            pending: Vec::new(),
            ready: Vec::new(),
            worker: Some(worker),
        })
    }

    /// Whether `schedule` of task `key` is compiling or compiled here.
    fn has(&self, key: &str, schedule: &str) -> bool {
        self.pending.iter().any(|(k, s)| k == key && s == schedule)
            || self.ready.iter().any(|(k, s, _)| k == key && s == schedule)
    }

    /// Starts compiling `schedule` of `payload` (task `key`), unless it is
    /// already.
    pub(crate) fn compile(
        &mut self,
        key: &str,
        payload: &str,
        schedule: &str,
        reference: Reference,
    ) {
        if self.has(key, schedule) {
            return;
        }
        let job = Job {
            key: key.to_string(),
            schedule: schedule.to_string(),
            payload: payload.to_string(),
            reference,
        };
        if self
            .jobs
            .as_ref()
            .is_some_and(|jobs| jobs.send(job).is_ok())
        {
            self.pending.push((key.to_string(), schedule.to_string()));
        }
    }

    /// The program of `schedule` for task `key`, waiting for it when it is
    /// still compiling; `None` when it was never given here.
    pub(crate) fn take(&mut self, key: &str, schedule: &str) -> Option<Result<Program, String>> {
        loop {
            if let Some(at) = self
                .ready
                .iter()
                .position(|(k, s, _)| k == key && s == schedule)
            {
                return Some(self.ready.remove(at).2);
            }
            if !self.pending.iter().any(|(k, s)| k == key && s == schedule) {
                return None;
            }
            let Ok(done) = self.done.recv() else {
                self.pending.clear();
                return Some(Err(
                    "internal error: the thread compiling ahead stopped".to_string()
                ));
            };
            if let Some(at) = self
                .pending
                .iter()
                .position(|(k, s)| *k == done.0 && *s == done.1)
            {
                self.pending.remove(at);
            }
            self.ready.push(done);
            if self.ready.len() > READY_KEPT {
                drop(self.ready.remove(0));
            }
        }
    }
}

impl Drop for Ahead {
    /// Ends the thread once it has finished the program it is compiling.
    fn drop(&mut self) {
        self.jobs.take();
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}
