//! Measuring a candidate: behind [`Measurer`], so measurements can move to
//! other processes or machines; [`InProcess`] applies the schedule to the
//! isolated op, JIT-compiles it in this process, checks its results against
//! the unscheduled op's on the same seeded inputs once, then times calls.

use crate::ahead::{checked_program, Ahead, Reference};
use runner::jit::Program;
use runner::tensor::{restore, Tensor};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

/// A measured time: the median of `calls` timed calls.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measurement {
    /// Median seconds per call.
    pub seconds: f64,
    /// Timed calls.
    pub calls: usize,
}

/// Where candidates are measured.
pub trait Measurer {
    /// The unscheduled payload `key` (an isolated op's, or a whole model's;
    /// its only public function is called).
    fn reference(&mut self, key: &str, payload: &str) -> Result<Measurement, String>;
    /// The op with `schedule` applied, its results checked against the
    /// unscheduled op's first: an error says why it could not be measured
    /// or how its results differ.
    fn measure(&mut self, key: &str, payload: &str, schedule: &str) -> Result<Measurement, String>;
    /// Says `schedule` of `payload` (task `key`) is measured next, so the
    /// measurer may compile it while it times another; by default nothing.
    fn upcoming(&mut self, key: &str, payload: &str, schedule: &str) {
        let _ = (key, payload, schedule);
    }
    /// Two schedules of one payload, as [`Measurer::measure`] each, their
    /// calls interleaved where the measurer can (a, b, a, b, ...), so that
    /// the machine's slow spells fall on both alike: what choosing between
    /// two schedules of a whole model needs on a noisy machine.
    fn measure_pair(
        &mut self,
        key: &str,
        payload: &str,
        (a, b): (&str, &str),
    ) -> Result<(Measurement, Measurement), String> {
        Ok((
            self.measure(key, payload, a)?,
            self.measure(key, payload, b)?,
        ))
    }
}

/// Measures in this process, on as many threads as `threads` (OpenMP).
pub struct InProcess {
    /// Threads the programs' parallel loops use.
    pub threads: usize,
    /// Time calls until this many seconds have passed (and 3 calls at least).
    pub min_seconds: f64,
    /// An unscheduled op whose first call (the one that computes the
    /// reference results) took longer than this is not timed again: that
    /// call is its measurement ([`SLOW_REFERENCE_SECONDS`]).
    pub slow_reference: f64,
    /// Each task's inputs and the unscheduled op's results on them.
    references: HashMap<String, Reference>,
    /// Written over before each timed call ([`flush_bytes`]); empty on warm caches.
    flush: Vec<u8>,
    /// The last programs compiled and checked, by task key and schedule,
    /// least recently used first: a pair measured against the one kept
    /// from the last pair (a whole model's, tens of seconds to compile)
    /// compiles only the new one.
    compiled: Vec<Kept>,
    /// Programs compiled so far (the unscheduled ones too).
    compiles: usize,
    /// Of those, how many the thread compiling ahead compiled.
    compiled_ahead: usize,
    /// With one thread: the core calls are timed on (the last this process
    /// may use; none when the affinity cannot be read or set).
    timing_core: Option<usize>,
    /// With one thread and more cores than that one: the thread compiling
    /// announced programs on them ([`Measurer::upcoming`]).
    ahead: Option<Ahead>,
}

/// [`InProcess::slow_reference`]'s default: past a second a call's time
/// hardly moves, and the unscheduled SGEMM 2048³ took 190 s per call on an
/// AMD EPYC of family 23 (timed twice more, as candidates are, it took
/// most of a 686 s tune with a 3-minute budget).
pub const SLOW_REFERENCE_SECONDS: f64 = 1.0;

/// Programs [`InProcess`] keeps compiled: the two of a pair.
const KEPT_PROGRAMS: usize = 2;

/// Twice the last-level cache (sysfs; 32 MiB when it does not say), at most
/// 64 MiB (a VM may report its host's whole cache: 480 MiB here).
fn flush_bytes() -> usize {
    let text = std::fs::read_to_string("/sys/devices/system/cpu/cpu0/cache/index3/size")
        .unwrap_or_default();
    let text = text.trim();
    let kib = text
        .strip_suffix('K')
        .and_then(|k| k.parse::<usize>().ok())
        .or_else(|| {
            text.strip_suffix('M')
                .and_then(|m| m.parse::<usize>().ok())
                .map(|m| m << 10)
        })
        .unwrap_or(32 << 10);
    ((2 * kib) << 10).min(64 << 20)
}

/// Writes one byte per cache line of `buffer`, evicting what a call left.
fn flush_caches(buffer: &mut [u8]) {
    for line in buffer.iter_mut().step_by(64) {
        *line = line.wrapping_add(1);
    }
    std::hint::black_box(&*buffer);
}

impl InProcess {
    /// A measurer timing each candidate for at least `min_seconds`.
    ///
    /// With `warm`, calls follow each other on warm caches, as a benchmark
    /// loop of one op runs (no flushing).
    ///
    /// With one thread, calls are timed pinned to the last core this
    /// process may use, and announced programs compiled on the others.
    pub fn new(threads: usize, min_seconds: f64, warm: bool) -> Self {
        let cores = runner::ffi::allowed_cores();
        let (timing_core, others) = match cores.split_last() {
            Some((&last, others)) if threads == 1 => (Some(last), others.to_vec()),
            _ => (None, Vec::new()),
        };
        Self {
            threads,
            min_seconds,
            slow_reference: SLOW_REFERENCE_SECONDS,
            references: HashMap::new(),
            compiled: Vec::new(),
            compiles: 0,
            compiled_ahead: 0,
            timing_core,
            ahead: match others.is_empty() {
                true => None,
                false => Ahead::start(others),
            },
            flush: if warm {
                Vec::new()
            } else {
                vec![0; flush_bytes()]
            },
        }
    }

    /// The median of calls of each of `programs` timed for `min_seconds`
    /// (3 calls each at least, one more untimed first; one call when a call
    /// takes a second), the programs taking turns, each call with the
    /// caches flushed first: in a model an op's weights and inputs come
    /// cold, and a candidate chosen on warm caches ran a third slower there
    /// (resnet18's 28 x 28 convolutions, 1.9 ms alone, 2.8 ms in the model,
    /// where another order of the same tile takes 1.7 ms).
    fn time(
        (flush, core): (&mut [u8], Option<usize>),
        min_seconds: f64,
        programs: &[&Program],
        inputs: &[Tensor],
    ) -> Result<Vec<Measurement>, String> {
        let _pinned = core.and_then(Pinned::to);
        let mut results: Vec<_> = programs.iter().map(|p| p.new_results()).collect();
        let mut seconds: Vec<Vec<f64>> = vec![Vec::new(); programs.len()];
        let start = Instant::now();
        let mut fresh = inputs.to_vec();
        let mut call = |i: usize, seconds: &mut Vec<Vec<f64>>| -> Result<(), String> {
            restore(&mut fresh, inputs);
            flush_caches(flush);
            let begin = Instant::now();
            programs[i]
                .call(&mut fresh, &mut results[i])
                .map_err(|e| e.to_string())?;
            seconds[i].push(begin.elapsed().as_secs_f64());
            Ok(())
        };
        for i in 0..programs.len() {
            call(i, &mut seconds)?;
        }
        let slow = seconds.iter().any(|s| s[0] > 1.0);
        seconds.iter_mut().for_each(Vec::clear);
        while seconds[0].len() < 3 || start.elapsed().as_secs_f64() < min_seconds {
            for i in 0..programs.len() {
                call(i, &mut seconds)?;
            }
            if slow || seconds[0].len() >= 1000 {
                break;
            }
        }
        Ok(seconds
            .into_iter()
            .map(|mut s| {
                s.sort_by(f64::total_cmp);
                Measurement {
                    seconds: s[s.len() / 2],
                    calls: s.len(),
                }
            })
            .collect())
    }
}

impl Measurer for InProcess {
    fn reference(&mut self, key: &str, payload: &str) -> Result<Measurement, String> {
        self.compiles += 1;
        let program = Program::compile("task.mlir", payload, None)
            .map_err(|e| format!("cannot compile the unscheduled payload: {}", e.message))?;
        let inputs = program.random_inputs(0);
        let mut results = program.new_results();
        let begin = Instant::now();
        program
            .call(&mut inputs.to_vec(), &mut results)
            .map_err(|e| e.to_string())?;
        let first = begin.elapsed().as_secs_f64();
        let measured = match first > self.slow_reference {
            true => Measurement {
                seconds: first,
                calls: 1,
            },
            false => {
                let timing = (&mut self.flush[..], self.timing_core);
                Self::time(timing, self.min_seconds, &[&program], &inputs)?[0]
            }
        };
        self.references
            .insert(key.to_string(), Arc::new((inputs, results)));
        Ok(measured)
    }

    fn measure(&mut self, key: &str, payload: &str, schedule: &str) -> Result<Measurement, String> {
        self.keep(key, payload, schedule)?;
        let program = kept(&self.compiled, key, schedule)?;
        let (inputs, _) = &*self.references[key];
        let timing = (&mut self.flush[..], self.timing_core);
        Self::time(timing, self.min_seconds, &[program], inputs).map(|t| t[0])
    }

    /// Compiles `schedule` on the other cores, once the task's reference is
    /// measured and unless it is kept compiled.
    fn upcoming(&mut self, key: &str, payload: &str, schedule: &str) {
        let (Some(ahead), Some(reference)) = (self.ahead.as_mut(), self.references.get(key)) else {
            return;
        };
        if position(&self.compiled, key, schedule).is_none() {
            ahead.compile(key, payload, schedule, reference.clone());
        }
    }

    fn measure_pair(
        &mut self,
        key: &str,
        payload: &str,
        (a, b): (&str, &str),
    ) -> Result<(Measurement, Measurement), String> {
        self.referenced(key, payload)?;
        // b compiles on the other cores while a does here.
        self.upcoming(key, payload, b);
        self.keep(key, payload, a)?;
        self.keep(key, payload, b)?;
        let programs = [kept(&self.compiled, key, a)?, kept(&self.compiled, key, b)?];
        let (inputs, _) = &*self.references[key];
        let timing = (&mut self.flush[..], self.timing_core);
        let both = Self::time(timing, 2.0 * self.min_seconds, &programs, inputs)?;
        Ok((both[0], both[1]))
    }
}

impl InProcess {
    /// How many programs it has compiled: schedules measured again while
    /// kept compiled ([`KEPT_PROGRAMS`]) are not compiled again.
    pub fn compiles(&self) -> usize {
        self.compiles
    }

    /// How many of those were compiled on the other cores while it timed
    /// ([`Measurer::upcoming`]).
    pub fn compiled_ahead(&self) -> usize {
        self.compiled_ahead
    }

    /// Whether it compiles announced programs on other cores: with one
    /// thread, when this process may use more than one core.
    pub fn compiles_ahead(&self) -> bool {
        self.ahead.is_some()
    }

    /// `schedule` applied to `payload`, compiled and checked
    /// ([`InProcess::checked`]) unless it is kept: kept as the most
    /// recently used.
    fn keep(&mut self, key: &str, payload: &str, schedule: &str) -> Result<(), String> {
        let entry = match position(&self.compiled, key, schedule) {
            Some(found) => self.compiled.remove(found),
            None => {
                let program = self.checked(key, payload, schedule)?;
                (key.to_string(), schedule.to_string(), program)
            }
        };
        self.compiled.push(entry);
        if self.compiled.len() > KEPT_PROGRAMS {
            self.compiled.remove(0);
        }
        Ok(())
    }

    /// Task `key`'s reference, measured now unless it was.
    fn referenced(&mut self, key: &str, payload: &str) -> Result<(), String> {
        if !self.references.contains_key(key) {
            self.reference(key, payload)?;
        }
        Ok(())
    }

    /// `schedule` applied to `payload` and compiled, its results checked
    /// against the unscheduled payload's (measured first when not yet):
    /// taken from the thread compiling ahead when it was given there.
    fn checked(&mut self, key: &str, payload: &str, schedule: &str) -> Result<Program, String> {
        self.referenced(key, payload)?;
        self.compiles += 1;
        if let Some(program) = self.ahead.as_mut().and_then(|a| a.take(key, schedule)) {
            self.compiled_ahead += 1;
            return program;
        }
        checked_program(payload, schedule, &self.references[key], self.threads)
    }
}

/// This thread pinned to one core until dropped, then let run where it
/// could before.
struct Pinned {
    before: Vec<usize>,
}

impl Pinned {
    /// Pins this thread to `core` (`None` when it cannot).
    fn to(core: usize) -> Option<Self> {
        let before = runner::ffi::allowed_cores();
        (before != [core] && runner::ffi::run_on(&[core])).then_some(Self { before })
    }
}

impl Drop for Pinned {
    fn drop(&mut self) {
        runner::ffi::run_on(&self.before);
    }
}

/// A program [`InProcess`] keeps: its task's key, its schedule, and it.
type Kept = (String, String, Program);

/// The kept program of `schedule` for task `key` ([`InProcess::keep`]).
fn kept<'a>(compiled: &'a [Kept], key: &str, schedule: &str) -> Result<&'a Program, String> {
    position(compiled, key, schedule)
        .map(|at| &compiled[at].2)
        .ok_or_else(|| "internal error: a compiled program was not kept".to_string())
}

/// Where `schedule` for task `key` is among the kept programs.
fn position(compiled: &[Kept], key: &str, schedule: &str) -> Option<usize> {
    compiled
        .iter()
        .position(|(k, s, _)| k == key && s == schedule)
}
