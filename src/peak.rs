//! `sched-apply peak`: this core's fp32 FMA throughput, measured by a
//! JIT-compiled kernel and cached so `run` can quote % of peak.

use std::path::PathBuf;

/// Where the measured peak is kept: `$XDG_CACHE_HOME/sched-apply/peak` or `~/.cache/sched-apply/peak`.
fn cache_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("sched-apply").join("peak"))
}

/// The CPU's model name, so a cache from another machine is not reused.
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

/// The cached peak in GFLOP/s, if one was measured on this CPU model and
/// is a positive, finite number (anything else is measured again).
pub fn cached() -> Option<f64> {
    let text = runner::files::read_private_file(&cache_path()?, 4096)?;
    let text = String::from_utf8(text).ok()?;
    let (model, value) = text.trim().rsplit_once('\t')?;
    let value: f64 = value.parse().ok()?;
    (model == cpu_model() && is_a_peak(value)).then_some(value)
}

/// Whether `gflops` can be a peak: positive and finite.
fn is_a_peak(gflops: f64) -> bool {
    gflops.is_finite() && gflops > 0.0
}

/// `--peak-gflops`'s value: a positive, finite number.
pub fn parse_gflops(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))?;
    if is_a_peak(value) {
        Ok(value)
    } else {
        Err(format!(
            "a peak is a positive, finite number of GFLOP/s, not {text}"
        ))
    }
}

/// Measures the peak (median of `calls` per kernel), caches it and returns
/// it with the per-width figures.
pub fn measure(calls: usize) -> Result<(f64, Vec<runner::peak::PeakMeasure>), String> {
    let (best, measures) = runner::peak::measure_peak(calls).map_err(|e| e.to_string())?;
    if let Some(path) = cache_path() {
        let _ = std::fs::create_dir_all(path.parent().unwrap_or(&path));
        let _ = std::fs::write(&path, format!("{}\t{best}\n", cpu_model()));
    }
    Ok((best, measures))
}

/// The peak for `run` and where it came from: given, cached (only when
/// asked for, and only if this CPU model has one), or measured now, in the
/// same run as the timing (the default: a VM's clock changes with its
/// neighbours, so a peak from earlier can be far off).
pub fn for_run(given: Option<f64>, use_cache: bool) -> Result<(f64, &'static str), String> {
    if let Some(value) = given {
        return Ok((value, "given"));
    }
    if let Some(value) = use_cache.then(cached).flatten() {
        return Ok((value, "cached"));
    }
    measure(7).map(|(best, _)| (best, "measured"))
}
