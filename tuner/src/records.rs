//! The records file: one JSON object per line, one per measurement, so a
//! later `tune` of the same or another payload reuses what was measured on
//! the same CPU. Its format (`docs/tuning.md`):
//!
//! ```json
//! {"version":2,"cpu":"rocketlake/1a2b3c4d","threads":1,"task":"9f8e…","op":"linalg.matmul [p64 …]",
//!  "schedule":".split(j, jo, ji, 64)…","seconds":0.000412,"calls":120,"error":null,"took":0.31}
//! ```
//!
//! `schedule` is null for the unscheduled op; `seconds` is null and `error`
//! says why for a candidate that could not be measured or computed other
//! results. Lines that do not parse are skipped (counted, not fatal).

use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The format's version; records of another version are not reused (1:
/// timed on warm caches, before measurements flushed them).
pub const VERSION: u32 = 2;

/// One measurement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// [`VERSION`].
    pub version: u32,
    /// The CPU measured on: LLVM's name for it and a hash of its features.
    pub cpu: String,
    /// Threads the parallel loops ran on.
    pub threads: usize,
    /// Whether calls were timed on warm caches (`--caches warm`); absent
    /// (false) for caches flushed before each call.
    #[serde(default)]
    pub warm: bool,
    /// The task's key ([`crate::tasks::Task::key`]).
    pub task: String,
    /// What the key hashes, for people reading the file.
    pub op: String,
    /// The candidate's chain; null for the unscheduled op.
    pub schedule: Option<String>,
    /// Median seconds per call; null when it failed.
    pub seconds: Option<f64>,
    /// Timed calls.
    pub calls: usize,
    /// Why it failed.
    pub error: Option<String>,
    /// Seconds the measurement took (compiling, checking and timing), which
    /// a later `tune` reading this record spends of its budget instead, so
    /// that it searches as far as this one did; absent in older records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub took: Option<f64>,
}

/// The records read, and the file new ones are appended to.
#[derive(Default)]
pub struct Records {
    path: Option<PathBuf>,
    records: Vec<Record>,
    /// Lines of the file that were not records of this version.
    pub skipped: usize,
}

/// The most a records file may hold (64 MiB).
const MAX_BYTES: u64 = 64 << 20;

impl Records {
    /// Records kept in memory only.
    pub fn in_memory() -> Self {
        Self::default()
    }

    /// The records in `path` (none when it does not exist yet); new ones
    /// are appended to it as they are made.
    pub fn open(path: &Path) -> Result<Self, String> {
        let mut records = Self {
            path: Some(path.to_path_buf()),
            ..Self::default()
        };
        if !path.exists() {
            return Ok(records);
        }
        let bytes = runner::files::read_user_file(path, MAX_BYTES)
            .map_err(|e| format!("{}: cannot read the records: {e}", path.display()))?;
        for line in String::from_utf8_lossy(&bytes).lines() {
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<Record>(line) {
                Ok(record) if record.version == VERSION => records.records.push(record),
                _ => records.skipped += 1,
            }
        }
        Ok(records)
    }

    /// The latest record of `schedule` (None: unscheduled) of `task` on `cpu`
    /// with `threads`, caches `warm` or not.
    pub fn find(
        &self,
        (cpu, threads, warm): (&str, usize, bool),
        task: &str,
        schedule: Option<&str>,
    ) -> Option<&Record> {
        self.records.iter().rev().find(|r| {
            r.cpu == cpu
                && r.threads == threads
                && r.warm == warm
                && r.task == task
                && r.schedule.as_deref() == schedule
        })
    }

    /// Adds a record, appending it to the file at once (so an interrupted
    /// run keeps what it measured).
    pub fn add(&mut self, record: Record) -> Result<(), String> {
        if let Some(path) = &self.path {
            let line = serde_json::to_string(&record).map_err(|e| e.to_string())? + "\n";
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .and_then(|mut f| f.write_all(line.as_bytes()))
                .map_err(|e| format!("{}: cannot append a record: {e}", path.display()))?;
        }
        self.records.push(record);
        Ok(())
    }
}

/// This CPU as records name it: LLVM's name and the first 8 hex digits of
/// the SHA-256 of its feature list.
pub fn this_cpu() -> String {
    let host = runner::ffi::host_cpu();
    let (name, features) = host.split_once(' ').unwrap_or((host.as_str(), ""));
    format!("{name}/{}", short_hash(features, 4))
}

/// The first `bytes` bytes of the SHA-256 of `text`, in hex: the keys of
/// tasks, models and CPUs in the records.
pub(crate) fn short_hash(text: &str, bytes: usize) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(text.as_bytes());
    digest[..bytes].iter().map(|b| format!("{b:02x}")).collect()
}
