//! `sched-apply profile`: static FLOPs, off-chip bytes and operational
//! intensity per func and in total, before and after the schedule
//! (`runner::profile` counts them); with `--run`, measured time per func
//! and of the whole call before and after (`stages`); with `--svg`, the
//! roofline picture (`crate::roofline`). The text table is `render`'s.

mod render;
mod stages;

use crate::run::payload_failure;
use crate::Exit;
use interpreter::pipeline::{self, Stop};
use runner::jit::Program;
use runner::profile::{Count, Counts};
use schedule_lang::SourceFile;
use serde::Serialize;
use stages::{Side, StageRow};
use std::path::PathBuf;

/// Options of `sched-apply profile`.
#[derive(clap::Args)]
pub struct ProfileArgs {
    /// The payload: an MLIR module with linalg ops on tensors of static shape.
    pub payload: PathBuf,
    /// The schedule. Default: the payload's path with `.sched` instead of `.mlir`.
    pub schedule: Option<PathBuf>,
    /// The function to count and run. Default: the payload's only public function.
    #[arg(long, value_name = "NAME")]
    pub entry: Option<String>,
    /// Also JIT-run the payload before and after the schedule (N timed calls each, median), timing
    /// each func and the whole call, and measure this core's peak and memory bandwidth, for
    /// GFLOP/s and the roofline. A func computed inside another's loops (`compute_at`) is timed
    /// with it: its row says `in <func>`.
    #[arg(long)]
    pub run: bool,
    /// Timed calls per payload with --run.
    #[arg(long, default_value_t = 5, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10000))]
    pub calls: u32,
    /// With --run, threads for the schedule's `parallel` loops (OpenMP), as `run --threads`: the
    /// peak is then that of as many cores. Default: OMP_NUM_THREADS, else one per core. The
    /// unscheduled payload always runs on one thread.
    #[arg(long, value_name = "N", requires = "run", value_parser = clap::value_parser!(u32).range(1..=crate::run::MAX_THREADS as i64))]
    pub threads: Option<u32>,
    /// Write the roofline picture (SVG) to this file: the measured roofs, the whole call before
    /// and after the schedule as two points with an arrow, and each func's own pair, named (for
    /// 2 to 12 funcs). Needs --run.
    #[arg(long, value_name = "FILE", requires = "run")]
    pub svg: Option<PathBuf>,
    /// Print every figure as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// An accelerator description (TOML) that `accelerate(NAME)` may name; its roofs join the picture.
    #[arg(long = "target", value_name = "FILE")]
    pub targets: Vec<PathBuf>,
}

/// The figures of one payload version (before or after the schedule), of
/// one func or of the whole call.
#[derive(Clone, Serialize)]
pub(crate) struct Figures {
    pub flops: Count,
    pub bytes: Count,
    pub bytes_read: Count,
    pub bytes_written: Count,
    pub intensity: Option<f64>,
    /// Median seconds per call (`--run`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
    /// FLOPs over that time (`--run`); for a func, its FLOPs and those of
    /// the funcs it `includes`. None when part of its work is timed in
    /// another func's loops.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gflops: Option<f64>,
    /// `--run`, a func: the funcs computed inside its loops, whose time is
    /// part of its own.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub includes: Vec<String>,
    /// `--run`, a func: the funcs in whose loops it is computed (it has no
    /// time of its own when it is computed nowhere else).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub timed_in: Vec<String>,
}

impl Figures {
    /// Where the roofline draws these figures: (FLOP/byte, GFLOP/s), when
    /// both are known.
    pub(crate) fn point(&self) -> Option<(f64, f64)> {
        self.intensity.zip(self.gflops)
    }

    fn of(counts: &Counts) -> Self {
        Figures {
            flops: counts.flops,
            bytes: counts.bytes(),
            bytes_read: counts.bytes_read,
            bytes_written: counts.bytes_written,
            intensity: counts.intensity(),
            seconds: None,
            gflops: None,
            includes: Vec::new(),
            timed_in: Vec::new(),
        }
    }
}

#[derive(Serialize)]
struct Totals {
    before: Figures,
    after: Figures,
}

/// Everything `profile` prints.
#[derive(Serialize)]
pub(crate) struct Report {
    payload: String,
    schedule: String,
    entry: String,
    stages: Vec<StageRow>,
    total: Totals,
    /// This core's measured fp32 peak (`--run`).
    #[serde(skip_serializing_if = "Option::is_none")]
    peak_gflops: Option<f64>,
    /// This core's measured memory bandwidth (`--run`).
    #[serde(skip_serializing_if = "Option::is_none")]
    bandwidth_gbs: Option<f64>,
    /// The threads the scheduled payload's parallel loops ran on (`--run`;
    /// none without parallel loops); the peak is that many cores'.
    #[serde(skip_serializing_if = "Option::is_none")]
    threads: Option<usize>,
}

/// Runs `sched-apply profile`.
pub(crate) fn profile(args: ProfileArgs) -> Result<(), Exit> {
    let crate::Inputs {
        schedule,
        payload_name,
        payload_text,
        payload_source,
    } = crate::read_inputs(&args.payload, args.schedule.as_deref())?;
    let targets = crate::targets::load(&args.targets)?;
    let outcome = pipeline::run(
        &schedule,
        &payload_name,
        &payload_text,
        Stop::ApplyKeepingLocations,
        &pipeline::Machine {
            vector_unit: schedule_lang::VectorUnit::host(),
            accelerators: &targets,
        },
    )?;
    crate::report_diagnostics(&outcome, &schedule, false)?;
    let transformed = outcome.payload.clone().unwrap_or_default();
    let transformed_source =
        SourceFile::new(format!("{payload_name} (scheduled)"), transformed.clone());
    let entry = args.entry.as_deref();
    let before = runner::profile::profile(&payload_name, &payload_text, entry)
        .map_err(|e| payload_failure(e, &payload_source))?;
    let after = runner::profile::profile(&transformed_source.name, &transformed, entry)
        .map_err(|e| payload_failure(e, &transformed_source))?;
    let locations = runner::profile::op_locations(&payload_name, &payload_text)
        .map_err(|e| payload_failure(e, &payload_source))?;
    let entry_name = Program::entry_signature(&payload_name, &payload_text, entry)
        .map_err(|e| payload_failure(e, &payload_source))?
        .name;
    let owners = stages::owners(&outcome.model, &locations);
    let mut report = Report {
        payload: payload_name.clone(),
        schedule: schedule.name.clone(),
        entry: entry_name,
        stages: stages::stage_rows(&outcome.model, &owners, &before, &after),
        total: Totals {
            before: Figures::of(&before.total),
            after: Figures::of(&after.total),
        },
        peak_gflops: None,
        bandwidth_gbs: None,
        threads: None,
    };
    if args.run {
        crate::run::check_openmp_environment()?;
        for (text, source, side) in [
            (&payload_text, &payload_source, Side::Before),
            (&transformed, &transformed_source, Side::After),
        ] {
            let program =
                Program::compile_timing_stages(&source.name, text, entry, &targets, &owners)
                    .map_err(|e| payload_failure(e, source))?;
            if side == Side::After {
                report.threads = crate::run::use_threads(&program, args.threads)?;
            }
            let inputs = program.random_inputs(0);
            let (median, seconds) = stages::time_stages(&program, &inputs, args.calls as usize)?;
            let segments = program.segments().cloned().unwrap_or_default();
            stages::attach_times(
                &mut report.stages,
                &outcome.model,
                side,
                &segments,
                &seconds,
            );
            let figures = match side {
                Side::Before => &mut report.total.before,
                Side::After => &mut report.total.after,
            };
            figures.seconds = Some(median);
            figures.gflops = figures.flops.map(|f| f as f64 / median / 1e9);
        }
        let (peak, _) = crate::peak::measure(7).map_err(Exit::internal)?;
        report.peak_gflops = Some(peak * crate::timing::busy_cores(report.threads) as f64);
        report.bandwidth_gbs = Some(runner::peak::measure_bandwidth(5));
    }
    if let Some(path) = &args.svg {
        let roofs = crate::roofline::Roofs {
            peak_gflops: report.peak_gflops.unwrap_or(0.0),
            bandwidth_gbs: report.bandwidth_gbs.unwrap_or(0.0),
            // The accelerators the schedule offloads to, and those of --target files.
            accelerators: targets
                .iter()
                .filter(|t| {
                    let builtin = microkernels::builtin_targets()
                        .iter()
                        .any(|b| b.name == t.name);
                    let used = outcome.model.funcs.iter().any(|f| {
                        f.stages
                            .iter()
                            .any(|s| s.accelerate.as_ref().is_some_and(|a| a.target == t.name))
                    });
                    used || !builtin
                })
                .map(|t| {
                    (
                        t.name.clone(),
                        2.0 * t.roofline.peak_macs_per_second / 1e9,
                        t.roofline.bandwidth_bytes_per_second / 1e9,
                    )
                })
                .collect(),
        };
        let title = format!("{} with {}", report.payload, report.schedule);
        crate::roofline::write_svg(
            path,
            &title,
            &roofs,
            &crate::roofline::StagePoints {
                name: String::new(),
                before: report.total.before.point(),
                after: report.total.after.point(),
            },
            &stage_points(&report.stages),
        )?;
    }
    let text = if args.json {
        serde_json::to_string_pretty(&report).expect("plain data serializes") + "\n"
    } else {
        render::render(&report, args.svg.as_ref())
    };
    crate::files::print_text(&text)
}

/// Each func's roofline points before and after (those with a time and a
/// known intensity), for the picture.
fn stage_points(rows: &[StageRow]) -> Vec<crate::roofline::StagePoints> {
    (0..rows.len())
        .map(|index| crate::roofline::StagePoints {
            name: match rows[index].after.includes.as_slice() {
                [] => rows[index].name.clone(),
                inside => format!("{} (with {})", rows[index].name, inside.join(", ")),
            },
            before: stages::point(rows, index, Side::Before),
            after: stages::point(rows, index, Side::After),
        })
        .filter(|p| p.before.is_some() || p.after.is_some())
        .collect()
}
