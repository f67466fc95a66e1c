//! `sched-apply profile`: static FLOPs, off-chip bytes and operational
//! intensity per func and in total, before and after the schedule
//! (`payload::profile` counts them); with `--run`, measured time of the
//! whole call before and after; with `--svg`, the roofline picture
//! (`crate::roofline`).

use crate::run::{payload_failure, time_calls};
use crate::{default_schedule, read, read_schedule, Exit};
use interpreter::pipeline::{self, Stop};
use payload::jit::Program;
use payload::profile::{Count, Counts, Profile};
use schedule_lang::{Model, SourceFile};
use serde::Serialize;
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
    /// Also JIT-run the payload before and after the schedule (N timed calls each, median) and
    /// measure this core's peak and memory bandwidth, for GFLOP/s and the roofline.
    #[arg(long)]
    pub run: bool,
    /// Timed calls per payload with --run.
    #[arg(long, default_value_t = 5, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10000))]
    pub calls: u32,
    /// Write the roofline picture (SVG) to this file: the measured roofs, and the whole call before
    /// and after the schedule as two points with an arrow. Needs --run.
    #[arg(long, value_name = "FILE", requires = "run")]
    pub svg: Option<PathBuf>,
    /// Print every figure as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// An accelerator description (TOML) that `accelerate(NAME)` may name; its roofs join the picture.
    #[arg(long = "target", value_name = "FILE")]
    pub targets: Vec<PathBuf>,
}

/// The figures of one payload version (before or after the schedule).
#[derive(Clone, Copy, Serialize)]
pub(crate) struct Figures {
    pub flops: Count,
    pub bytes: Count,
    pub bytes_read: Count,
    pub bytes_written: Count,
    pub intensity: Option<f64>,
    /// Median seconds per call (`--run`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
    /// FLOPs over that time (`--run`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gflops: Option<f64>,
}

impl Figures {
    fn of(counts: &Counts) -> Self {
        Figures {
            flops: counts.flops,
            bytes: counts.bytes(),
            bytes_read: counts.bytes_read,
            bytes_written: counts.bytes_written,
            intensity: counts.intensity(),
            seconds: None,
            gflops: None,
        }
    }
}

#[derive(Serialize)]
struct StageRow {
    name: String,
    before: Figures,
    after: Figures,
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
}

/// Runs `sched-apply profile`.
pub(crate) fn profile(args: ProfileArgs) -> Result<(), Exit> {
    let schedule_path = match args.schedule.clone() {
        Some(path) => path,
        None => default_schedule(&args.payload)?,
    };
    let schedule = read_schedule(&schedule_path)?;
    let payload_name = args.payload.display().to_string();
    let payload_text = read(&args.payload)?;
    let payload_source = SourceFile::new(payload_name.clone(), payload_text.clone());
    let targets = crate::targets::load(&args.targets)?;
    let outcome = pipeline::run(
        &schedule,
        &payload_name,
        &payload_text,
        Stop::ApplyKeepingLocations,
        &targets,
    )?;
    crate::report_diagnostics(&outcome, false)?;
    let transformed = outcome.payload.clone().unwrap_or_default();
    let transformed_source =
        SourceFile::new(format!("{payload_name} (scheduled)"), transformed.clone());
    let entry = args.entry.as_deref();
    let before = payload::profile::profile(&payload_name, &payload_text, entry)
        .map_err(|e| payload_failure(e, &payload_source))?;
    let after = payload::profile::profile(&transformed_source.name, &transformed, entry)
        .map_err(|e| payload_failure(e, &transformed_source))?;
    let locations = payload::profile::op_locations(&payload_name, &payload_text)
        .map_err(|e| payload_failure(e, &payload_source))?;
    let entry_name = Program::entry_signature(&payload_name, &payload_text, entry)
        .map_err(|e| payload_failure(e, &payload_source))?
        .name;
    let mut report = Report {
        payload: payload_name.clone(),
        schedule: schedule.name.clone(),
        entry: entry_name,
        stages: stage_rows(&outcome.model, &locations, &before, &after),
        total: Totals {
            before: Figures::of(&before.total),
            after: Figures::of(&after.total),
        },
        peak_gflops: None,
        bandwidth_gbs: None,
    };
    if args.run {
        let calls = args.calls as usize;
        for (text, source, figures) in [
            (&payload_text, &payload_source, &mut report.total.before),
            (&transformed, &transformed_source, &mut report.total.after),
        ] {
            let program = Program::compile_with_targets(&source.name, text, entry, &targets)
                .map_err(|e| payload_failure(e, source))?;
            let inputs = program.random_inputs(0);
            let mut seconds = time_calls(&program, &inputs, 1, calls)?;
            seconds.sort_by(f64::total_cmp);
            let median = seconds[seconds.len() / 2];
            figures.seconds = Some(median);
            figures.gflops = figures.flops.map(|f| f as f64 / median / 1e9);
        }
        let (peak, _) = crate::peak::measure(7).map_err(Exit::Internal)?;
        report.peak_gflops = Some(peak);
        report.bandwidth_gbs = Some(payload::peak::measure_bandwidth(5));
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
            &report.total.before,
            &report.total.after,
        )?;
    }
    let text = if args.json {
        serde_json::to_string_pretty(&report).expect("plain data serializes") + "\n"
    } else {
        render(&report, args.svg.as_ref())
    };
    crate::print_text(&text)
}

/// One row per func of the model (its stages together), in model order, then
/// the ops no func names; counted by the payload location of the ops.
/// One row per func of the model (its stages together), in model order,
/// then the ops no func names. An op counts for a func when its location is
/// that of one of the func's payload ops or of an op in its body (which
/// vectorized code keeps); `locations` holds those per payload op.
fn stage_rows(
    model: &Model,
    locations: &[Vec<(usize, usize)>],
    before: &Profile,
    after: &Profile,
) -> Vec<StageRow> {
    let owner = |location: &Option<(usize, usize)>| -> Option<usize> {
        let location = (*location)?;
        model.funcs.iter().position(|func| {
            func.stages
                .iter()
                .any(|s| locations.get(s.op).is_some_and(|l| l.contains(&location)))
        })
    };
    let sum = |profile: &Profile, func: Option<usize>| {
        let mut counts = Counts::ZERO;
        for (location, c) in &profile.by_location {
            if owner(location) == func {
                counts.add(*c);
            }
        }
        Figures::of(&counts)
    };
    let mut rows: Vec<StageRow> = model
        .funcs
        .iter()
        .enumerate()
        .map(|(index, func)| StageRow {
            name: func.name.clone(),
            before: sum(before, Some(index)),
            after: sum(after, Some(index)),
        })
        .collect();
    let unowned = before
        .by_location
        .iter()
        .chain(&after.by_location)
        .any(|(location, _)| owner(location).is_none());
    if unowned {
        rows.push(StageRow {
            name: "(ops no func names)".to_string(),
            before: sum(before, None),
            after: sum(after, None),
        });
    }
    rows
}

fn count(value: Count) -> String {
    value.map_or("unknown".to_string(), |v| v.to_string())
}

fn ratio(value: Option<f64>) -> String {
    value.map_or("-".to_string(), |v| format!("{v:.3}"))
}

fn render(report: &Report, svg: Option<&PathBuf>) -> String {
    let mut out = format!(
        "{} @{} with {}: static counts per call (off-chip bytes: loads and stores of the \
         function's arguments and results, every access the loop nest makes, no cache)\n\n",
        report.payload, report.entry, report.schedule
    );
    let mut table = vec![[
        "func".to_string(),
        "FLOPs before".to_string(),
        "FLOPs after".to_string(),
        "bytes before".to_string(),
        "bytes after".to_string(),
        "FLOP/byte before".to_string(),
        "FLOP/byte after".to_string(),
    ]];
    let rows = report
        .stages
        .iter()
        .map(|s| (s.name.as_str(), &s.before, &s.after))
        .chain([("total", &report.total.before, &report.total.after)]);
    for (name, before, after) in rows {
        table.push([
            name.to_string(),
            count(before.flops),
            count(after.flops),
            count(before.bytes),
            count(after.bytes),
            ratio(before.intensity),
            ratio(after.intensity),
        ]);
    }
    let widths: Vec<usize> = (0..7)
        .map(|c| table.iter().map(|r| r[c].len()).max().unwrap_or(0))
        .collect();
    for row in &table {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                if c == 0 {
                    format!("{cell:<w$}", w = widths[c])
                } else {
                    format!("{cell:>w$}", w = widths[c])
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    if let (Some(peak), Some(bandwidth)) = (report.peak_gflops, report.bandwidth_gbs) {
        out.push('\n');
        for (label, figures) in [
            ("before", &report.total.before),
            ("after", &report.total.after),
        ] {
            if let (Some(seconds), gflops) = (figures.seconds, figures.gflops) {
                out.push_str(&format!(
                    "{label:<6} median {:.3} ms per call, {} GFLOP/s\n",
                    seconds * 1e3,
                    gflops.map_or("-".to_string(), |g| format!("{g:.2}"))
                ));
            }
        }
        out.push_str(&format!(
            "roofs measured in this run: peak {peak:.2} GFLOP/s, memory bandwidth {bandwidth:.2} GB/s \
             (ridge at {:.2} FLOP/byte)\n",
            peak / bandwidth
        ));
        let above = [&report.total.before, &report.total.after].iter().any(|f| {
            f.intensity
                .zip(f.gflops)
                .is_some_and(|(i, g)| g > bandwidth * i)
        });
        if above {
            out.push_str(
                "a point above the memory roof: its bytes count every access, but caches serve \
                 the reused ones, so fewer reach memory\n",
            );
        }
    }
    if let Some(path) = svg {
        out.push_str(&format!("roofline written to {}\n", path.display()));
    }
    out
}
