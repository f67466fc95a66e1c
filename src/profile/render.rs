//! `profile`'s text report: one table of the static counts per func and in
//! total (with `--run`, the measured milliseconds too), then which funcs
//! were timed inside another's loops, the whole calls' times and the roofs.

use super::{Figures, Report};
use runner::profile::Count;
use std::path::PathBuf;

fn count(value: Count) -> String {
    value.map_or("unknown".to_string(), |v| v.to_string())
}

/// A func's or a call's median milliseconds; `in X` when its time is
/// only inside another func's loops.
fn milliseconds(figures: &Figures) -> String {
    match figures.seconds {
        Some(seconds) => format!("{:.3}", seconds * 1e3),
        None if !figures.timed_in.is_empty() => format!("in {}", figures.timed_in.join(", ")),
        None => "-".to_string(),
    }
}

/// Which funcs were computed in another's loops (and so timed with it).
fn timing_notes(report: &Report) -> String {
    let mut out = String::new();
    for row in &report.stages {
        for (label, figures) in [("before", &row.before), ("after", &row.after)] {
            if !figures.includes.is_empty() {
                out.push_str(&format!(
                    "{label}: {}'s time includes {}, computed inside its loops\n",
                    row.name,
                    figures.includes.join(", ")
                ));
            }
        }
    }
    if !out.is_empty() {
        out.insert(0, '\n');
    }
    out
}

fn ratio(value: Option<f64>) -> String {
    value.map_or("-".to_string(), |v| format!("{v:.3}"))
}

pub(super) fn render(report: &Report, svg: Option<&PathBuf>) -> String {
    let mut out = format!(
        "{} @{} with {}: static counts per call (off-chip bytes: loads and stores of the \
         function's arguments and results, every access the loop nest makes, no cache)\n\n",
        report.payload, report.entry, report.schedule
    );
    let timed = report.peak_gflops.is_some();
    let mut header = vec![
        "func",
        "FLOPs before",
        "FLOPs after",
        "bytes before",
        "bytes after",
        "FLOP/byte before",
        "FLOP/byte after",
    ];
    if timed {
        header.extend(["ms before", "ms after"]);
    }
    let mut table: Vec<Vec<String>> = vec![header.into_iter().map(str::to_string).collect()];
    let rows = report
        .stages
        .iter()
        .map(|s| (s.name.as_str(), &s.before, &s.after))
        .chain([("total", &report.total.before, &report.total.after)]);
    for (name, before, after) in rows {
        let mut row = vec![
            name.to_string(),
            count(before.flops),
            count(after.flops),
            count(before.bytes),
            count(after.bytes),
            ratio(before.intensity),
            ratio(after.intensity),
        ];
        if timed {
            row.extend([milliseconds(before), milliseconds(after)]);
        }
        table.push(row);
    }
    let widths: Vec<usize> = (0..table[0].len())
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
    if timed {
        out.push_str(&timing_notes(report));
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
        let cores = match report.threads {
            Some(threads) if threads > 1 => {
                format!(" ({threads} threads ran the scheduled payload: the peak of as many cores)")
            }
            _ => String::new(),
        };
        out.push_str(&format!(
            "roofs measured in this run: peak {peak:.2} GFLOP/s, memory bandwidth {bandwidth:.2} GB/s \
             (ridge at {:.2} FLOP/byte){cores}\n",
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
