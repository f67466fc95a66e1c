//! What `sched-apply run` prints: a short human report, or (`--json`) one JSON
//! object with every figure.

use runner::compare::{Comparison, Tolerance};
use serde::Serialize;

/// Timings of one payload version over several calls.
#[derive(Clone, Debug, PartialEq)]
pub struct Timing {
    /// Timed calls (after the warm-up).
    pub calls: usize,
    /// Median seconds per call.
    pub median_s: f64,
    /// Fastest call.
    pub min_s: f64,
    /// Slowest call.
    pub max_s: f64,
}

/// The median of at least one value (the mean of the middle two for an even count).
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

impl Timing {
    /// Summarizes per-call seconds (at least one).
    pub fn from_seconds(seconds: Vec<f64>) -> Self {
        let min_s = seconds.iter().copied().fold(f64::INFINITY, f64::min);
        let max_s = seconds.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Timing {
            calls: seconds.len(),
            median_s: median(seconds),
            min_s,
            max_s,
        }
    }
}

/// One round of `--rounds`: the peak measured just before it, and its calls.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    /// The peak measured just before the round, GFLOP/s (times the busy cores).
    pub peak_gflops: f64,
    /// The round's calls of the scheduled payload.
    pub timing: Timing,
}

/// Why a run can reach more than 100% of its peak, by where the peak came from.
fn above_peak(source: Option<&str>) -> &'static str {
    match source {
        Some("given") => "above 100%: the --peak-gflops given is below what this run reached",
        Some("cached") => {
            "above 100%: the cached peak was measured earlier, at another clock (on a shared VM \
             it moves with the neighbours' load); measure it in the run (drop --cached-peak)"
        }
        _ => {
            "above 100%: the timed calls ran faster than the peak kernel did when it was measured; \
             on a shared VM the clock moves with the neighbours' load (time with --rounds to \
             measure the peak beside each round), and a parallel run's peak is one core's times \
             its threads"
        }
    }
}

/// Everything one `run` measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunReport {
    /// The payload file.
    pub payload: String,
    /// The entry function.
    pub entry: String,
    /// The schedule file.
    pub schedule: String,
    /// FLOPs per call, counted statically.
    pub flops: Option<u64>,
    /// Compile phases of the scheduled payload, seconds: parse (schedule and
    /// payload, described and resolved), plan, apply, lower, jit.
    pub compile_s: [f64; 5],
    /// Whether the scheduled payload's code came from the compile cache
    /// (then `lower` is 0 and `jit` the time loading it took).
    pub compile_cached: bool,
    /// The comparison with the unscheduled payload (`--check`) or the
    /// expected outputs (`--expect`), and its tolerance.
    pub check: Option<(Comparison, Tolerance)>,
    /// With `--expect`: the files compared with, listed.
    pub expected_from: Option<String>,
    /// The scheduled payload's timing (`--bench`).
    pub bench: Option<Timing>,
    /// The unscheduled payload's timing (`--bench`).
    pub unscheduled: Option<Timing>,
    /// The peak used for % of peak, GFLOP/s.
    pub peak_gflops: Option<f64>,
    /// Where that peak came from: `"measured"` (in this run, before
    /// timing), `"rounds"` (before each round), `"cached"` (`--cached-peak`)
    /// or `"given"` (`--peak-gflops`).
    pub peak_source: Option<&'static str>,
    /// Files written by `--save-outputs`.
    pub saved: Vec<String>,
    /// Threads of the parallel loops (OpenMP); `None` without parallel loops.
    pub threads: Option<usize>,
    /// The rounds of `--rounds`, in order (empty without it).
    pub rounds: Vec<Round>,
    /// What each accelerator did in one call (`--counters`).
    pub counters: Vec<AcceleratorCounters>,
}

/// One accelerator's counters over one call of the payload.
#[derive(Debug, Clone, PartialEq)]
pub struct AcceleratorCounters {
    /// The target's name.
    pub target: String,
    /// What its kernel counted.
    pub counters: microkernels::Counters,
    /// Its peak MACs per cycle (roofline peak over clock), for utilization.
    pub macs_per_cycle: f64,
}

impl AcceleratorCounters {
    fn utilization(&self) -> Option<f64> {
        self.counters.utilization(self.macs_per_cycle)
    }
}

impl RunReport {
    /// GFLOP/s at a median time.
    fn gflops(&self, timing: &Timing) -> Option<f64> {
        self.flops
            .filter(|_| timing.median_s > 0.0)
            .map(|f| f as f64 / timing.median_s / 1e9)
    }

    /// % of `peak` GFLOP/s at a median time (needs the FLOP count).
    fn percent_of(&self, timing: &Timing, peak: f64) -> Option<f64> {
        self.gflops(timing).map(|g| 100.0 * g / peak)
    }

    /// Each round's % of the peak measured just before it.
    fn round_percents(&self) -> Vec<f64> {
        self.rounds
            .iter()
            .filter_map(|r| self.percent_of(&r.timing, r.peak_gflops))
            .collect()
    }

    /// The median of the rounds' % of peak.
    fn round_percent_median(&self) -> Option<f64> {
        let percents = self.round_percents();
        (!percents.is_empty()).then(|| median(percents))
    }

    fn speedup(&self) -> Option<f64> {
        Some(self.unscheduled.as_ref()?.median_s / self.bench.as_ref()?.median_s)
    }

    /// The human report.
    pub fn to_text(&self) -> String {
        let mut out = format!("{} @{} with {}\n", self.payload, self.entry, self.schedule);
        let [parse, plan, apply, lower, jit] = self.compile_s;
        let code = if self.compile_cached {
            format!("loaded from the compile cache in {}", seconds(jit))
        } else {
            format!("lower {}, JIT {}", seconds(lower), seconds(jit))
        };
        out.push_str(&format!(
            "  compile: parse {}, plan {}, apply {}, {code}\n",
            seconds(parse),
            seconds(plan),
            seconds(apply),
        ));
        if let Some(threads) = self.threads {
            out.push_str(&format!(
                "  parallel loops: {threads} thread{} (OpenMP)\n",
                if threads == 1 { "" } else { "s" }
            ));
        }
        if let Some((comparison, tolerance)) = &self.check {
            let verdict = if comparison.mismatch.is_some() {
                "MISMATCH"
            } else {
                "ok"
            };
            let against = match &self.expected_from {
                Some(files) => format!("the expected outputs ({files})"),
                None => "the unscheduled payload".to_string(),
            };
            out.push_str(&format!(
                "  check: {verdict} against {against} (max abs diff {:.3e}, max rel diff {:.3e}; rtol {:.1e}, atol {:.3e})\n",
                comparison.max_abs_diff, comparison.max_rel_diff, tolerance.rtol, tolerance.atol
            ));
            if let Some(note) = comparison.non_finite_note() {
                out.push_str(&format!("  note: {note}\n"));
            }
        }
        if let Some(bench) = &self.bench {
            out.push_str(&format!(
                "  scheduled:   median {} over {} calls (min {}, max {})",
                seconds(bench.median_s),
                bench.calls,
                seconds(bench.min_s),
                seconds(bench.max_s)
            ));
            if let Some(gflops) = self.gflops(bench) {
                out.push_str(&format!(", {gflops:.2} GFLOP/s"));
                if let Some(peak) = self.peak_gflops {
                    let which = match self.peak_source {
                        Some("rounds") => "the rounds' median peak",
                        Some("measured") => "the peak measured before timing",
                        Some("cached") => "the cached peak",
                        _ => "the given peak",
                    };
                    let percent = 100.0 * gflops / peak;
                    out.push_str(&format!(" = {percent:.1}% of {which} ({peak:.2} GFLOP/s)"));
                    if percent > 100.0 {
                        out.push_str(&format!("\n  note: {}", above_peak(self.peak_source)));
                    }
                }
            }
            out.push('\n');
        }
        if let Some(median) = self.round_percent_median() {
            let each: Vec<String> = self
                .rounds
                .iter()
                .zip(self.round_percents())
                .map(|(r, p)| format!("{p:.1}% of {:.2}", r.peak_gflops))
                .collect();
            out.push_str(&format!("  rounds: {} of {} calls, each after measuring the peak again: {}; median {median:.1}% of peak\n", self.rounds.len(), self.rounds[0].timing.calls, each.join(", ")));
        }
        if let Some(reference) = &self.unscheduled {
            out.push_str(&format!(
                "  unscheduled: median {} over {} calls",
                seconds(reference.median_s),
                reference.calls
            ));
            if let Some(gflops) = self.gflops(reference) {
                out.push_str(&format!(", {gflops:.2} GFLOP/s"));
            }
            if let Some(speedup) = self.speedup() {
                out.push_str(&format!("; speedup {speedup:.1}x"));
            }
            out.push('\n');
        }
        for accelerator in &self.counters {
            let c = &accelerator.counters;
            out.push_str(&format!(
                "  {}: {} tiles, {} MACs, {} bytes in, {} bytes out",
                accelerator.target, c.tiles, c.macs, c.bytes_in, c.bytes_out
            ));
            match accelerator.utilization() {
                Some(u) => out.push_str(&format!(
                    ", {} modelled cycles ({:.1}% utilization)",
                    c.cycles,
                    100.0 * u
                )),
                None => out.push_str(" (no cycle model)"),
            }
            if c.refused > 0 {
                out.push_str(&format!(", {} refused", c.refused));
            }
            out.push_str(" per call\n");
        }
        if let Some(flops) = self.flops.filter(|_| self.bench.is_some()) {
            out.push_str(&format!("  FLOPs per call (static count): {flops}\n"));
        }
        for file in &self.saved {
            out.push_str(&format!("  saved {file}\n"));
        }
        out
    }

    /// One round as a JSON object.
    /// One JSON object with every figure (null where not measured).
    pub fn to_json(&self) -> String {
        let bench = self.bench.as_ref();
        let comparison = self.check.as_ref().map(|(c, _)| c);
        let [parse, plan, apply, lower, jit] = self.compile_s;
        let percent_of_peak = bench
            .zip(self.peak_gflops)
            .and_then(|(b, p)| self.percent_of(b, p));
        let report = JsonReport {
            payload: &self.payload,
            entry: &self.entry,
            schedule: &self.schedule,
            flops: self.flops,
            calls: bench.map(|b| b.calls),
            median_s: bench.map(|b| b.median_s),
            min_s: bench.map(|b| b.min_s),
            max_s: bench.map(|b| b.max_s),
            gflops: bench.and_then(|b| self.gflops(b)),
            peak_gflops: self.peak_gflops,
            peak_source: self.peak_source,
            percent_of_peak,
            percent_of_peak_note: percent_of_peak
                .filter(|p| *p > 100.0)
                .map(|_| above_peak(self.peak_source)),
            unscheduled_median_s: self.unscheduled.as_ref().map(|u| u.median_s),
            speedup_vs_unscheduled: self.speedup(),
            check: comparison.map(|c| {
                if c.mismatch.is_some() {
                    "mismatch"
                } else {
                    "ok"
                }
            }),
            check_against: comparison.map(|_| match self.expected_from {
                Some(_) => "expected",
                None => "unscheduled",
            }),
            max_abs_diff: comparison.map(|c| c.max_abs_diff),
            max_rel_diff: comparison.map(|c| c.max_rel_diff),
            non_finite_results: comparison.map(|c| c.non_finite),
            compile_s: CompileJson {
                parse,
                plan,
                apply,
                lower,
                jit,
                cached: self.compile_cached,
            },
            threads: self.threads,
            rounds: self
                .rounds
                .iter()
                .map(|round| RoundJson {
                    median_s: round.timing.median_s,
                    peak_gflops: round.peak_gflops,
                    percent_of_peak: self.percent_of(&round.timing, round.peak_gflops),
                })
                .collect(),
            percent_of_peak_per_round_median: self.round_percent_median(),
            saved: &self.saved,
            counters: self
                .counters
                .iter()
                .map(|a| {
                    let c = &a.counters;
                    let json = CountersJson {
                        tiles: c.tiles,
                        macs: c.macs,
                        bytes_in: c.bytes_in,
                        bytes_out: c.bytes_out,
                        cycles: c.cycles,
                        refused: c.refused,
                        utilization: a.utilization(),
                    };
                    (a.target.as_str(), json)
                })
                .collect(),
        };
        // Non-finite numbers become null; nothing here can fail to serialize.
        let mut text = serde_json::to_string_pretty(&report).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// The `--json` report: its field names are the documented keys.
#[derive(Serialize)]
struct JsonReport<'a> {
    payload: &'a str,
    entry: &'a str,
    schedule: &'a str,
    flops: Option<u64>,
    calls: Option<usize>,
    median_s: Option<f64>,
    min_s: Option<f64>,
    max_s: Option<f64>,
    gflops: Option<f64>,
    peak_gflops: Option<f64>,
    peak_source: Option<&'static str>,
    percent_of_peak: Option<f64>,
    /// Set when `percent_of_peak` is above 100: why that can happen.
    percent_of_peak_note: Option<&'static str>,
    unscheduled_median_s: Option<f64>,
    speedup_vs_unscheduled: Option<f64>,
    check: Option<&'static str>,
    /// What the results were checked against: `unscheduled` (`--check`) or
    /// `expected` (`--expect` files).
    check_against: Option<&'static str>,
    max_abs_diff: Option<f64>,
    max_rel_diff: Option<f64>,
    /// Results NaN or infinite in both payloads, matched as such (`--check`).
    non_finite_results: Option<usize>,
    compile_s: CompileJson,
    threads: Option<usize>,
    rounds: Vec<RoundJson>,
    percent_of_peak_per_round_median: Option<f64>,
    saved: &'a [String],
    counters: std::collections::BTreeMap<&'a str, CountersJson>,
}

/// One accelerator's counters (`counters.<accelerator>`).
#[derive(Serialize)]
struct CountersJson {
    tiles: u64,
    macs: u64,
    bytes_in: u64,
    bytes_out: u64,
    cycles: u64,
    refused: u64,
    utilization: Option<f64>,
}

/// Seconds per compile phase.
#[derive(Serialize)]
struct CompileJson {
    parse: f64,
    plan: f64,
    apply: f64,
    lower: f64,
    jit: f64,
    /// The code was loaded from the compile cache.
    cached: bool,
}

/// One round of `--rounds`.
#[derive(Serialize)]
struct RoundJson {
    median_s: f64,
    peak_gflops: f64,
    percent_of_peak: Option<f64>,
}

fn seconds(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.3} s")
    } else if s >= 1e-3 {
        format!("{:.3} ms", s * 1e3)
    } else {
        format!("{:.1} us", s * 1e6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_spread() {
        let t = Timing::from_seconds(vec![3.0, 1.0, 2.0, 10.0]);
        assert_eq!((t.calls, t.median_s, t.min_s, t.max_s), (4, 2.5, 1.0, 10.0));
    }

    #[test]
    fn json_has_the_documented_keys_and_nulls() {
        let report = RunReport {
            payload: "a\"b.mlir".into(),
            entry: "f".into(),
            flops: Some(2_000_000_000),
            bench: Some(Timing::from_seconds(vec![0.5])),
            unscheduled: Some(Timing::from_seconds(vec![2.0])),
            peak_gflops: Some(8.0),
            ..Default::default()
        };
        let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        assert_eq!(json["payload"], "a\"b.mlir");
        assert_eq!(json["median_s"], 0.5);
        assert_eq!(json["gflops"], 4.0);
        assert_eq!(json["percent_of_peak"], 50.0);
        assert!(json["percent_of_peak_note"].is_null());
        assert_eq!(json["speedup_vs_unscheduled"], 4.0);
        assert!(json["max_abs_diff"].is_null());
        assert_eq!(
            json["compile_s"],
            serde_json::json!({"parse": 0.0, "plan": 0.0, "apply": 0.0, "lower": 0.0, "jit": 0.0, "cached": false})
        );
        assert_eq!(json["rounds"], serde_json::json!([]));
    }

    #[test]
    fn a_figure_above_the_peak_says_why() {
        let report = RunReport {
            flops: Some(2_000_000_000),
            bench: Some(Timing::from_seconds(vec![0.5])),
            peak_gflops: Some(2.0),
            peak_source: Some("measured"),
            ..Default::default()
        };
        let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        assert_eq!(json["percent_of_peak"], 200.0);
        assert_eq!(json["peak_source"], "measured");
        assert!(json["percent_of_peak_note"]
            .as_str()
            .unwrap()
            .starts_with("above 100%: the timed calls ran faster"));
        let text = report.to_text();
        assert!(
            text.contains("200.0% of the peak measured before timing")
                && text.contains("note: above 100%"),
            "{text}"
        );
    }
}
