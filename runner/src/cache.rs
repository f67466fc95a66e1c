//! The compile cache: payloads compiled before, kept on disk by content, so
//! a second run of the same model and schedule skips lowering and LLVM.
//!
//! An entry is keyed by a SHA-256 of everything the code depends on: the
//! transformed payload's text, the entry's name, the targets' descriptions,
//! the role of the code (the scheduled payload, or the unscheduled reference
//! `--check` compares with: never one entry for both), this build of
//! sched-apply (its executable's path, size and modification time: a rebuild
//! changes the key) and the host CPU with its features (the code is compiled
//! for them). It holds the object files the compile generated (`KEY.o`, one
//! after another) and what the program needs besides the code (`KEY.meta`:
//! the key again, the object file's SHA-256 and length, which results are
//! computed in which arguments, which arguments the code only reads, whether
//! there are parallel loops, the targets called). At most [`KEPT`] entries are kept, the least recently written
//! removed first.
//!
//! The cache is never a source of code: machine code from it runs as the
//! user, so it is trusted only as far as the user's own files are. The
//! directory is created `0700`, and used only when it and every directory
//! above it pass [`crate::files::check_private_directory`]; an entry is read
//! only when both its files are regular files owned by the user and writable
//! by no one else, under a size bound, its `.meta` names its own key, and
//! the object's bytes have the SHA-256 the `.meta` records. An entry that
//! fails any check, or whose results or targets do not fit the payload, is
//! ignored and compiled again, never an error.

use crate::files::{
    check_private_directory, create_private_directory, read_private_file, remove_oldest,
    write_private_file,
};
use crate::lowering::Boundary;
use crate::offload::Types;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// How many compiled payloads the cache keeps.
pub const KEPT: usize = 64;

/// The largest object file an entry may hold (a whole model's code is tens of MB).
const OBJECT_LIMIT: u64 = 1 << 30;

/// The largest `.meta` file.
const META_LIMIT: u64 = 64 << 10;

/// The first line of every `.meta` file (a new layout gets a new one).
const META_HEADER: &str = "sched-apply compiled payload 4";

/// What the code of an entry is for: the same text compiled for either role
/// gets two entries, so `--check` never compares code with itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The scheduled payload.
    Scheduled,
    /// The unscheduled payload the scheduled one is checked and timed against.
    Reference,
}

/// A directory of compiled payloads that passed the trust checks.
#[derive(Clone, Debug)]
pub struct Cache {
    directory: PathBuf,
    role: Role,
    /// The file holding the code that compiles, which keys its entries
    /// (None: this executable).
    build: Option<PathBuf>,
}

/// The key of a payload compiled for `entry` and `targets` in `role` by this
/// build (this executable) on this CPU: the SHA-256 of all of it, 64 hex digits.
pub fn key(
    text: &str,
    entry: Option<&str>,
    targets: &[microkernels::Target],
    role: Role,
) -> String {
    key_of_build(None, text, entry, targets, role)
}

/// [`key`] for the build in `file` (the Python extension module, say), or
/// in this executable.
fn key_of_build(
    file: Option<&Path>,
    text: &str,
    entry: Option<&str>,
    targets: &[microkernels::Target],
    role: Role,
) -> String {
    let build = file
        .map(Path::to_path_buf)
        .or_else(|| std::env::current_exe().ok())
        .and_then(|path| {
            let meta = std::fs::metadata(&path).ok()?;
            let modified = meta.modified().ok()?;
            Some(format!("{} {} {:?}", path.display(), meta.len(), modified))
        })
        .unwrap_or_default();
    let mut hasher = Sha256::new();
    // Each part after its length, so no two different lists of parts hash alike.
    for part in [
        META_HEADER.to_string(),
        build,
        crate::ffi::host_cpu(),
        format!("{entry:?}"),
        format!("{targets:?}"),
        format!("{role:?}"),
        text.to_string(),
    ] {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    hex(&hasher.finalize())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Cache {
    /// The cache in `directory` for the scheduled payload's code, created
    /// (`0700`) if missing. An error says why the directory cannot be
    /// trusted (another user owns it or can write it or a directory above
    /// it); the caller then compiles without a cache.
    pub fn open(directory: impl Into<PathBuf>) -> Result<Self, String> {
        let directory = directory.into();
        create_private_directory(&directory)?;
        Ok(Cache {
            directory,
            role: Role::Scheduled,
            build: None,
        })
    }

    /// The same cache with entries keyed by the build in `file`, for code
    /// that compiles from a library some other executable loads (the Python
    /// module: the interpreter is the executable).
    pub fn built_by(self, file: PathBuf) -> Self {
        Cache {
            build: Some(file),
            ..self
        }
    }

    /// The same cache for the code of `role`.
    pub fn for_role(&self, role: Role) -> Self {
        Cache {
            directory: self.directory.clone(),
            role,
            build: self.build.clone(),
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

    /// The key of `text` compiled for `entry` and `targets` in this cache's role.
    pub(crate) fn key(
        &self,
        text: &str,
        entry: Option<&str>,
        targets: &[microkernels::Target],
    ) -> String {
        key_of_build(self.build.as_deref(), text, entry, targets, self.role)
    }

    fn object_path(&self, key: &str) -> PathBuf {
        self.directory.join(format!("{key}.o"))
    }

    fn meta_path(&self, key: &str) -> PathBuf {
        self.directory.join(format!("{key}.meta"))
    }

    /// The entry cached under `key` for an entry function of `inputs`
    /// arguments and `results` results; `None` when there is none, or it
    /// fails a check (see the module's documentation): it is then compiled
    /// again and replaced.
    pub(crate) fn load(&self, key: &str, inputs: usize, results: usize) -> Option<Entry> {
        let meta = read_private_file(&self.meta_path(key), META_LIMIT)?;
        let meta = parse_meta(std::str::from_utf8(&meta).ok()?)?;
        let boundary = &meta.linkage.boundary;
        let fits = meta.key == key
            && boundary.in_arguments.len() == results
            && boundary.read_only.len() == inputs
            && boundary
                .in_arguments
                .iter()
                .flatten()
                .all(|&argument| argument < inputs && !boundary.read_only[argument]);
        if !fits || meta.object_length > OBJECT_LIMIT {
            return None;
        }
        let object = read_private_file(&self.object_path(key), meta.object_length)?;
        if object.len() as u64 != meta.object_length
            || hex(&Sha256::digest(&object)) != meta.object_sha256
        {
            return None;
        }
        Some(Entry {
            object,
            linkage: meta.linkage,
        })
    }

    /// Adds `entry` under `key`. A cache that cannot be written only costs
    /// the next run its compile time, so a failure here is not an error of
    /// the run.
    pub(crate) fn store(&self, key: &str, entry: &Entry) {
        if check_private_directory(&self.directory).is_err() {
            return;
        }
        let meta = format_meta(key, entry);
        // Each file written under a name no one can guess or plant (created
        // exclusively, `0600`) and renamed, the metadata last: a reader, or
        // another run writing the same entry, never sees half an entry.
        if self
            .write_whole(&self.object_path(key), &entry.object)
            .is_ok()
            && self
                .write_whole(&self.meta_path(key), meta.as_bytes())
                .is_ok()
        {
            self.prune();
        }
    }

    /// Writes `bytes` to `path` through a fresh temporary file in the cache.
    fn write_whole(&self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        write_private_file(&self.directory, path, bytes)
    }

    /// Removes the least recently written entries beyond [`KEPT`].
    fn prune(&self) {
        remove_oldest(&self.directory, "meta", Some("o"), KEPT);
    }
}

/// What a compiled program needs besides its machine code.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Linkage {
    /// How the entry takes its arguments and gives its results.
    pub boundary: Boundary,
    /// Whether the code has OpenMP parallel loops.
    pub parallel: bool,
    /// The targets the code calls, with their element types.
    pub offloaded: Vec<(String, Types)>,
}

/// A compiled payload as the cache keeps it: its object files (as
/// `ffi::JitEngine::objects_file` writes them) and its linkage.
pub(crate) struct Entry {
    /// The object files, each after its length.
    pub object: Vec<u8>,
    /// What the program needs besides the code.
    pub linkage: Linkage,
}

/// What a `.meta` file says of its entry.
#[derive(Debug, PartialEq)]
struct Meta {
    /// The entry's key (its files' name).
    key: String,
    /// The SHA-256 of the `.o` file's bytes, in hex.
    object_sha256: String,
    /// The `.o` file's length in bytes.
    object_length: u64,
    /// What the program needs besides the code.
    linkage: Linkage,
}

/// `KEY.meta`'s text: the header, then `key`, `object` (SHA-256 and
/// length), `results` (the argument each is computed in, or `out`),
/// `arguments` (`r` for one the code only reads, else `w`), `parallel` and
/// one `offloaded` line per target call kind.
fn format_meta(key: &str, entry: &Entry) -> String {
    let linkage = &entry.linkage;
    let results: Vec<String> = linkage
        .boundary
        .in_arguments
        .iter()
        .map(|a| a.map_or("out".to_string(), |i| i.to_string()))
        .collect();
    let arguments: String = linkage
        .boundary
        .read_only
        .iter()
        .map(|&r| if r { 'r' } else { 'w' })
        .collect();
    let mut text = format!(
        "{META_HEADER}\nkey {key}\nobject {} {}\nresults {}\narguments {arguments}\nparallel {}\n",
        hex(&Sha256::digest(&entry.object)),
        entry.object.len(),
        results.join(","),
        linkage.parallel
    );
    for (target, types) in &linkage.offloaded {
        let types = match types {
            Types::F32 => "f32",
            Types::I8I32 => "i8i32",
        };
        text.push_str(&format!("offloaded {target} {types}\n"));
    }
    text
}

/// What [`format_meta`] wrote; `None` for anything else.
fn parse_meta(text: &str) -> Option<Meta> {
    let mut lines = text.lines();
    if lines.next()? != META_HEADER {
        return None;
    }
    let key = lines.next()?.strip_prefix("key ")?.to_string();
    let (object_sha256, object_length) = lines.next()?.strip_prefix("object ")?.split_once(' ')?;
    let object_length = object_length.parse().ok()?;
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
    let read_only = lines
        .next()?
        .strip_prefix("arguments ")?
        .chars()
        .map(|c| match c {
            'r' => Some(true),
            'w' => Some(false),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
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
    Some(Meta {
        key,
        object_sha256: object_sha256.to_string(),
        object_length,
        linkage: Linkage {
            boundary: Boundary {
                in_arguments,
                read_only,
            },
            parallel,
            offloaded,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_reads_back_what_was_written() {
        let text = format!(
            "{META_HEADER}\nkey k1\nobject ab12 7\nresults 0,out,2\narguments wrwr\nparallel true\noffloaded host f32\noffloaded my acc i8i32\n"
        );
        let meta = parse_meta(&text).unwrap();
        assert_eq!(meta.key, "k1");
        assert_eq!(meta.object_sha256, "ab12");
        assert_eq!(meta.object_length, 7);
        let boundary = &meta.linkage.boundary;
        assert_eq!(boundary.in_arguments, vec![Some(0), None, Some(2)]);
        assert_eq!(boundary.read_only, vec![false, true, false, true]);
        assert!(meta.linkage.parallel);
        assert_eq!(
            meta.linkage.offloaded,
            vec![
                ("host".to_string(), Types::F32),
                ("my acc".to_string(), Types::I8I32)
            ]
        );
    }

    #[test]
    fn metadata_of_another_layout_or_damaged_is_not_read() {
        let head = format!("{META_HEADER}\nkey k\nobject 00 1\n");
        assert!(parse_meta(
            "sched-apply compiled payload 3\nkey k\nobject 00 1\nresults \nparallel false\n"
        )
        .is_none());
        assert!(parse_meta(&format!("{META_HEADER}\nresults \nparallel false\n")).is_none());
        assert!(parse_meta(&format!(
            "{META_HEADER}\nkey k\nobject 00 x\nresults \nparallel false\n"
        ))
        .is_none());
        assert!(parse_meta(&format!("{head}results 0,x\nparallel false\n")).is_none());
        assert!(parse_meta(&format!("{head}results 0\n")).is_none());
        assert!(parse_meta(&format!("{head}results 0\narguments r\nparallel no\n")).is_none());
        assert!(parse_meta(&format!("{head}results \nparallel false\n")).is_none());
        assert!(parse_meta(&format!("{head}results 0\narguments rx\nparallel false\n")).is_none());
        assert!(parse_meta(&format!("{head}results \narguments \nparallel false\n")).is_some());
        assert!(parse_meta(&format!(
            "{head}results \narguments r\nparallel false\noffloaded host f16\n"
        ))
        .is_none());
    }

    #[test]
    fn the_key_changes_with_the_text_the_entry_the_targets_and_the_role() {
        let base = key("module {}", None, &[], Role::Scheduled);
        assert_eq!(base.len(), 64);
        assert_eq!(base, key("module {}", None, &[], Role::Scheduled));
        assert_ne!(base, key("module { }", None, &[], Role::Scheduled));
        assert_ne!(base, key("module {}", Some("f"), &[], Role::Scheduled));
        assert_ne!(base, key("module {}", None, &[], Role::Reference));
        let targets = microkernels::builtin_targets();
        assert_ne!(base, key("module {}", None, &targets[..1], Role::Scheduled));
    }
}
