//! `run --bench`: timing the scheduled payload (with this core's peak
//! measured first in the same run, or again before each of `--rounds`) and
//! the unscheduled one, as medians over calls that each get fresh inputs.

use crate::report::{median, Round, RunReport, Timing};
use crate::{call_failure, progress, Exit};
use runner::jit::Program;
use runner::tensor::{restore, Tensor};
use std::time::Instant;

/// The programs `--bench` times and the inputs they are called with.
pub(crate) struct Timed<'a> {
    /// The scheduled payload.
    pub(crate) program: &'a Program,
    /// The unscheduled payload, when it is timed or checked against.
    pub(crate) reference: Option<&'a Program>,
    /// The inputs of every call (each call gets fresh copies).
    pub(crate) inputs: &'a [Tensor],
}

/// What `run`'s flags ask of the timing.
pub(crate) struct Bench {
    /// `--bench`: calls of the scheduled payload.
    pub(crate) calls: usize,
    /// Calls of the unscheduled payload (0: not timed).
    pub(crate) reference_calls: usize,
    /// `--warmup`: untimed calls first.
    pub(crate) warmup: usize,
    /// `--rounds`: the peak measured again before each round of calls.
    pub(crate) rounds: Option<u32>,
    /// `--peak-gflops`: the peak given, not measured.
    pub(crate) peak_gflops: Option<f64>,
    /// `--cached-peak`: the peak measured by an earlier run.
    pub(crate) cached_peak: bool,
}

/// Times `calls` calls of the scheduled payload and `reference_calls` of
/// the unscheduled one into `report`, with the peak measured in the same
/// run (per thread that has a core to run on).
pub(crate) fn bench(report: &mut RunReport, args: &Bench, timed: Timed<'_>) -> Result<(), Exit> {
    let (calls, reference_calls) = (args.calls, args.reference_calls);
    let Timed {
        program,
        reference,
        inputs,
    } = timed;
    let busy = busy_cores(report.threads) as f64;
    match args.rounds {
        None => {
            // The peak first, in the same run: the calls are timed right after.
            if report.flops.is_some() {
                progress("measuring the peak");
                let (peak, source) = crate::peak::for_run(args.peak_gflops, args.cached_peak)
                    .map_err(Exit::internal)?;
                report.peak_gflops = Some(peak * busy);
                report.peak_source = Some(source);
            }
            progress(&format!("timing {calls} calls of the scheduled payload"));
            let seconds = time_calls(program, inputs, args.warmup, calls)?;
            report.bench = Some(Timing::from_seconds(seconds));
        }
        Some(rounds) => time_rounds(report, program, inputs, args, rounds as usize, calls, busy)?,
    }
    if let (true, Some(reference)) = (reference_calls > 0, reference) {
        progress(&format!(
            "timing {reference_calls} calls of the unscheduled payload"
        ));
        let seconds = time_calls(reference, inputs, args.warmup.min(1), reference_calls)?;
        report.unscheduled = Some(Timing::from_seconds(seconds));
    }
    Ok(())
}

/// `--rounds`: before each round of `calls` timed calls, the peak kernel is
/// timed again (times `busy` cores); the report gets every round and, as its
/// overall timing and peak, all calls together and the median peak.
fn time_rounds(
    report: &mut RunReport,
    program: &Program,
    inputs: &[Tensor],
    args: &Bench,
    rounds: usize,
    calls: usize,
    busy: f64,
) -> Result<(), Exit> {
    progress("compiling the peak kernel");
    let kernel = runner::peak::fastest_kernel(3).map_err(|e| Exit::internal(e.to_string()))?;
    let mut all = Vec::with_capacity(rounds * calls);
    let mut peaks = Vec::with_capacity(rounds);
    for round in 0..rounds {
        progress(&format!(
            "round {} of {rounds}: the peak, then {calls} calls of the scheduled payload",
            round + 1
        ));
        let peak_gflops = kernel
            .gflops(5)
            .map_err(|e| Exit::internal(e.to_string()))?
            * busy;
        // The full warm-up before the first round; one call after each peak measurement.
        let warmup = if round == 0 {
            args.warmup
        } else {
            args.warmup.min(1)
        };
        let seconds = time_calls(program, inputs, warmup, calls)?;
        all.extend_from_slice(&seconds);
        peaks.push(peak_gflops);
        report.rounds.push(Round {
            peak_gflops,
            timing: Timing::from_seconds(seconds),
        });
    }
    report.bench = Some(Timing::from_seconds(all));
    report.peak_gflops = Some(median(peaks));
    report.peak_source = Some("rounds");
    Ok(())
}

/// Seconds of each of `calls` calls, after `warmup` untimed ones; each call
/// gets fresh copies of the inputs (copied outside the timer).
pub(crate) fn time_calls(
    program: &Program,
    inputs: &[Tensor],
    warmup: usize,
    calls: usize,
) -> Result<Vec<f64>, Exit> {
    let mut results = program.new_results();
    let mut seconds = Vec::with_capacity(calls);
    let mut fresh = inputs.to_vec();
    for call in 0..warmup + calls {
        restore(&mut fresh, inputs);
        let start = Instant::now();
        program
            .call(&mut fresh, &mut results)
            .map_err(call_failure)?;
        let elapsed = start.elapsed().as_secs_f64();
        if call >= warmup {
            seconds.push(elapsed);
        }
    }
    Ok(seconds)
}

/// The cores `threads` keep busy (one per thread that has a core to run
/// on; one without parallel loops): how many cores' peak a run reaches.
pub(crate) fn busy_cores(threads: Option<usize>) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    threads.map_or(1, |t| t.clamp(1, cores))
}
