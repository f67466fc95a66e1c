//! The compile cache: payloads compiled before, kept on disk by content, so
//! a second run of the same model and schedule skips lowering and LLVM.
//!
//! An entry is keyed by a hash of everything the code depends on: the
//! transformed payload's text, the entry's name, the targets' descriptions,
//! this build of sched-apply (its executable's path, size and modification
//! time: a rebuild changes the key) and the host CPU with its features (the
//! code is compiled for them). It holds the object files the compile
//! generated (`KEY.o`, one after another) and what the program needs besides the
//! code (`KEY.meta`: which results are computed in which arguments, whether
//! there are parallel loops, the targets called). At most [`KEPT`] entries
//! are kept, the least recently written removed first.

use crate::ffi::JitEngine;
use crate::jit::{bind_kernels, check_c_interface, libraries, CompileTimes, Program, Signature};
use crate::offload::Types;
use crate::PayloadError;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How many compiled payloads the cache keeps.
pub const KEPT: usize = 64;

/// The first line of every `.meta` file (a new layout gets a new one).
const META_HEADER: &str = "sched-apply compiled payload 2";

/// A directory of compiled payloads.
#[derive(Clone, Debug)]
pub struct Cache {
    directory: PathBuf,
}

/// The key of a payload compiled for `entry` and `targets` by this build on
/// this CPU: 32 hex digits (two independent 64-bit hashes).
pub fn key(text: &str, entry: Option<&str>, targets: &[microkernels::Target]) -> String {
    let build = std::env::current_exe()
        .ok()
        .and_then(|path| {
            let meta = std::fs::metadata(&path).ok()?;
            let modified = meta.modified().ok()?;
            Some(format!("{} {} {:?}", path.display(), meta.len(), modified))
        })
        .unwrap_or_default();
    let material = format!(
        "{META_HEADER}\n{build}\n{}\n{entry:?}\n{targets:?}\n",
        crate::ffi::host_cpu()
    );
    let hash = |salt: u64| {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        salt.hash(&mut hasher);
        material.hash(&mut hasher);
        text.hash(&mut hasher);
        hasher.finish()
    };
    format!("{:016x}{:016x}", hash(1), hash(2))
}

impl Cache {
    /// The cache in `directory` (created when the first entry is written).
    pub fn at(directory: impl Into<PathBuf>) -> Self {
        Cache {
            directory: directory.into(),
        }
    }

    /// Where sched-apply keeps compiled payloads by default:
    /// `$SCHED_APPLY_CACHE`, else `$XDG_CACHE_HOME/sched-apply`, else
    /// `~/.cache/sched-apply`.
    pub fn default_directory() -> Option<PathBuf> {
        let from = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        from("SCHED_APPLY_CACHE")
            .or_else(|| from("XDG_CACHE_HOME").map(|d| d.join("sched-apply")))
            .or_else(|| from("HOME").map(|d| d.join(".cache").join("sched-apply")))
    }

    /// The cache's directory.
    pub fn directory(&self) -> &Path {
        &self.directory
    }

    fn object_path(&self, key: &str) -> PathBuf {
        self.directory.join(format!("{key}.o"))
    }

    fn meta_path(&self, key: &str) -> PathBuf {
        self.directory.join(format!("{key}.meta"))
    }

    /// The program cached under `key`, loaded; `None` when there is none
    /// (or it cannot be read: it is then compiled again and replaced).
    pub(crate) fn load(
        &self,
        key: &str,
        signature: &Signature,
        targets: &[microkernels::Target],
        payload_name: &str,
    ) -> Result<Option<Program>, PayloadError> {
        let start = Instant::now();
        let Ok(meta) = std::fs::read_to_string(self.meta_path(key)) else {
            return Ok(None);
        };
        let Some((in_arguments, parallel, offloaded)) = parse_meta(&meta) else {
            return Ok(None);
        };
        if in_arguments.len() != signature.results.len() {
            return Ok(None);
        }
        let Ok(object) = std::fs::read(self.object_path(key)) else {
            return Ok(None);
        };
        let kernels = bind_kernels(&offloaded, targets, payload_name)?;
        let Ok(engine) = JitEngine::from_objects(&object, libraries(parallel), &kernels) else {
            return Ok(None);
        };
        if check_c_interface(&engine, signature).is_err() {
            return Ok(None);
        }
        Ok(Some(Program {
            engine,
            signature: signature.clone(),
            times: CompileTimes {
                lower_s: 0.0,
                jit_s: start.elapsed().as_secs_f64(),
                cached: true,
            },
            parallel,
            in_arguments,
            offloaded,
            kernels,
            segments: None,
        }))
    }

    /// Adds `program` (compiled with its object kept) under `key`. A cache
    /// that cannot be written only costs the next run its compile time, so
    /// a failure here is not an error of the run.
    pub(crate) fn store(&self, key: &str, program: &Program) {
        if std::fs::create_dir_all(&self.directory).is_err() {
            return;
        }
        // Written under names of this process's own and renamed, the
        // metadata last: a reader, or another run writing the same entry,
        // never sees half an entry.
        let partial_name = |suffix: &str| {
            use std::sync::atomic::{AtomicUsize, Ordering};
            static WRITES: AtomicUsize = AtomicUsize::new(0);
            let write = WRITES.fetch_add(1, Ordering::Relaxed);
            let process = std::process::id();
            self.directory
                .join(format!("{key}.{suffix}.{process}-{write}.partial"))
        };
        let object = self.object_path(key);
        let partial = partial_name("o");
        if program.engine.write_objects(&partial).is_err() {
            let _ = std::fs::remove_file(&partial);
            return;
        }
        let meta = self.meta_path(key);
        let partial_meta = partial_name("meta");
        let written = std::fs::rename(&partial, &object).is_ok()
            && std::fs::write(&partial_meta, format_meta(program)).is_ok()
            && std::fs::rename(&partial_meta, &meta).is_ok();
        if written {
            self.prune();
        }
    }

    /// Removes the least recently written entries beyond [`KEPT`].
    fn prune(&self) {
        let Ok(entries) = std::fs::read_dir(&self.directory) else {
            return;
        };
        let mut metas: Vec<(std::time::SystemTime, PathBuf)> = entries
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| path.extension().is_some_and(|e| e == "meta"))
            .filter_map(|path| Some((std::fs::metadata(&path).ok()?.modified().ok()?, path)))
            .collect();
        if metas.len() <= KEPT {
            return;
        }
        metas.sort();
        for (_, meta) in &metas[..metas.len() - KEPT] {
            let _ = std::fs::remove_file(meta);
            let _ = std::fs::remove_file(meta.with_extension("o"));
        }
    }
}

/// `KEY.meta`'s text: the header, then `results`, `parallel` and one
/// `offloaded` line per target call kind.
fn format_meta(program: &Program) -> String {
    let results: Vec<String> = program
        .in_arguments
        .iter()
        .map(|a| a.map_or("out".to_string(), |i| i.to_string()))
        .collect();
    let mut text = format!(
        "{META_HEADER}\nresults {}\nparallel {}\n",
        results.join(","),
        program.parallel
    );
    for (target, types) in &program.offloaded {
        let types = match types {
            Types::F32 => "f32",
            Types::I8I32 => "i8i32",
        };
        text.push_str(&format!("offloaded {target} {types}\n"));
    }
    text
}

/// What [`format_meta`] wrote; `None` for anything else.
#[allow(clippy::type_complexity)]
fn parse_meta(text: &str) -> Option<(Vec<Option<usize>>, bool, Vec<(String, Types)>)> {
    let mut lines = text.lines();
    if lines.next()? != META_HEADER {
        return None;
    }
    let results = lines.next()?.strip_prefix("results ")?;
    let in_arguments = if results.is_empty() {
        Vec::new()
    } else {
        results
            .split(',')
            .map(|r| match r {
                "out" => Some(None),
                index => index.parse().ok().map(Some),
            })
            .collect::<Option<Vec<_>>>()?
    };
    let parallel = lines.next()?.strip_prefix("parallel ")?.parse().ok()?;
    let mut offloaded = Vec::new();
    for line in lines {
        let (target, types) = line.strip_prefix("offloaded ")?.rsplit_once(' ')?;
        let types = match types {
            "f32" => Types::F32,
            "i8i32" => Types::I8I32,
            _ => return None,
        };
        offloaded.push((target.to_string(), types));
    }
    Some((in_arguments, parallel, offloaded))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_reads_back_what_was_written() {
        let text = format!(
            "{META_HEADER}\nresults 0,out,2\nparallel true\noffloaded host f32\noffloaded my acc i8i32\n"
        );
        let (in_arguments, parallel, offloaded) = parse_meta(&text).unwrap();
        assert_eq!(in_arguments, vec![Some(0), None, Some(2)]);
        assert!(parallel);
        assert_eq!(
            offloaded,
            vec![
                ("host".to_string(), Types::F32),
                ("my acc".to_string(), Types::I8I32)
            ]
        );
    }

    #[test]
    fn metadata_of_another_layout_or_damaged_is_not_read() {
        assert!(parse_meta("sched-apply compiled payload 0\nresults \nparallel false\n").is_none());
        assert!(parse_meta(&format!("{META_HEADER}\nresults 0,x\nparallel false\n")).is_none());
        assert!(parse_meta(&format!("{META_HEADER}\nresults 0\n")).is_none());
        assert!(parse_meta(&format!("{META_HEADER}\nresults 0\nparallel no\n")).is_none());
        assert!(parse_meta(&format!("{META_HEADER}\nresults \nparallel false\n")).is_some());
        assert!(parse_meta(&format!(
            "{META_HEADER}\nresults \nparallel false\noffloaded host f16\n"
        ))
        .is_none());
    }

    #[test]
    fn the_key_changes_with_the_text_the_entry_and_the_targets() {
        let base = key("module {}", None, &[]);
        assert_eq!(base.len(), 32);
        assert_eq!(base, key("module {}", None, &[]));
        assert_ne!(base, key("module { }", None, &[]));
        assert_ne!(base, key("module {}", Some("f"), &[]));
        let targets = microkernels::builtin_targets();
        assert_ne!(base, key("module {}", None, &targets[..1]));
    }
}
