//! Reading files with bounds and trust checks.
//!
//! A file the user named (a schedule, a payload, a target, an input) is read
//! whole up to a limit: an endless stream (`/dev/zero`) or a huge file is an
//! error that names the limit within a second, never a process that grows
//! until memory runs out. A file the process only found (a compile-cache
//! entry) is read only when it is a regular file, reached without following
//! a symbolic link, owned by this user, writable by nobody else, and under its
//! limit; anything else reads as absent. [`check_private_directory`] is the
//! same test for a directory the process keeps such files in.

use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

/// The largest schedule or target description read, named or found.
pub const SCHEDULE_LIMIT: u64 = 16 << 20;

/// Why a user-named file could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The operating system refused (missing, permissions, a directory...).
    Io(std::io::Error),
    /// The file, or the stream it is, holds more than the limit.
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(error) => write!(f, "{error}"),
            ReadError::TooLarge { limit } => write!(
                f,
                "it holds more than {} (the limit for this kind of file); an endless stream such as /dev/zero never ends",
                human_bytes(*limit)
            ),
        }
    }
}

/// `bytes` in the largest binary unit that keeps it whole.
pub fn human_bytes(bytes: u64) -> String {
    for (unit, size) in [("GiB", 1u64 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] {
        if bytes >= size && bytes.is_multiple_of(size) {
            return format!("{} {unit}", bytes / size);
        }
    }
    format!("{bytes} bytes")
}

/// The bytes of a file the user named, at most `limit` of them. A directory
/// is an error; a pipe or a device is read as a stream up to the limit.
pub fn read_user_file(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let mut file = std::fs::File::open(path).map_err(ReadError::Io)?;
    let metadata = file.metadata().map_err(ReadError::Io)?;
    if metadata.is_dir() {
        return Err(ReadError::Io(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "it is a directory",
        )));
    }
    if metadata.is_file() && metadata.len() > limit {
        return Err(ReadError::TooLarge { limit });
    }
    read_at_most(&mut file, limit)?.ok_or(ReadError::TooLarge { limit })
}

/// At most `limit` bytes of `file`; `None` when it has more.
fn read_at_most(file: &mut std::fs::File, limit: u64) -> Result<Option<Vec<u8>>, ReadError> {
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    Ok((bytes.len() as u64 <= limit).then_some(bytes))
}

/// The bytes of a file the process found rather than was given, when it can
/// be trusted: a regular file (the last component is not followed if it is a
/// symbolic link, and a FIFO is never waited on), owned by this process's
/// user, not writable by group or others, of at most `limit` bytes.
/// `None` for anything else.
pub fn read_private_file(path: &Path, limit: u64) -> Option<Vec<u8>> {
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    let metadata = file.metadata().ok()?;
    let private = metadata.is_file()
        && metadata.uid() == crate::ffi::effective_uid()
        && metadata.permissions().mode() & 0o022 == 0
        && metadata.len() <= limit;
    if !private {
        return None;
    }
    let bytes = read_at_most(&mut file, limit).ok()??;
    (bytes.len() as u64 == metadata.len()).then_some(bytes)
}

/// Whether `directory` may hold files the process will load and run: it is
/// a directory owned by this user and writable by no one else, and every
/// directory above it is owned by this user or by root and writable by no
/// one else either, unless it has the sticky bit (as `/tmp` has, where no
/// one may rename or remove what another user owns). An error says which
/// directory fails and why.
pub fn check_private_directory(directory: &Path) -> Result<(), String> {
    let canonical = std::fs::canonicalize(directory)
        .map_err(|error| format!("{}: {error}", directory.display()))?;
    let me = crate::ffi::effective_uid();
    let metadata = std::fs::metadata(&canonical)
        .map_err(|error| format!("{}: {error}", canonical.display()))?;
    if !metadata.is_dir() {
        return Err(format!("{} is not a directory", canonical.display()));
    }
    if metadata.uid() != me {
        return Err(format!(
            "{} is owned by user {}, not by this user ({me})",
            canonical.display(),
            metadata.uid()
        ));
    }
    if metadata.permissions().mode() & 0o022 != 0 {
        return Err(format!(
            "{} is writable by its group or by others (mode {:o}; `chmod go-w` it)",
            canonical.display(),
            metadata.permissions().mode() & 0o7777
        ));
    }
    for ancestor in canonical.ancestors().skip(1) {
        let metadata = std::fs::metadata(ancestor)
            .map_err(|error| format!("{}: {error}", ancestor.display()))?;
        let mode = metadata.permissions().mode();
        if metadata.uid() != me && metadata.uid() != 0 {
            return Err(format!(
                "{} (above it) is owned by user {}, neither this user ({me}) nor root",
                ancestor.display(),
                metadata.uid()
            ));
        }
        if mode & 0o022 != 0 && mode & 0o1000 == 0 {
            return Err(format!(
                "{} (above it) is writable by its group or by others without the sticky bit (mode {:o}), so another user could replace the directory",
                ancestor.display(),
                mode & 0o7777
            ));
        }
    }
    Ok(())
}

/// Creates `directory` (and those above it) with mode `0700` if missing,
/// then checks it as [`check_private_directory`] does; an error says why it
/// cannot hold files the process will trust.
pub fn create_private_directory(directory: &Path) -> Result<(), String> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(directory)
        .map_err(|error| format!("{}: {error}", directory.display()))?;
    check_private_directory(directory)
}

/// Writes `bytes` to `path` (in `directory`, a private one) through a fresh
/// temporary file created there exclusively with mode `0600` and renamed: a
/// reader, or another process writing the same file, never sees half of it,
/// and no one can plant the file under the name it is written to.
pub fn write_private_file(directory: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = tempfile::Builder::new()
        .prefix(".entry-")
        .suffix(".partial")
        .tempfile_in(directory)?;
    file.write_all(bytes)?;
    file.persist(path).map_err(|error| error.error)?;
    Ok(())
}

/// Removes the least recently written files of `directory` whose extension
/// is `extension` beyond the `kept` newest, each with its companion of the
/// same stem and extension `companion`, when given.
pub fn remove_oldest(directory: &Path, extension: &str, companion: Option<&str>, kept: usize) {
    let Ok(entries) = std::fs::read_dir(directory) else {
        return;
    };
    let mut found: Vec<(std::time::SystemTime, std::path::PathBuf)> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == extension))
        .filter_map(|path| {
            Some((
                std::fs::symlink_metadata(&path).ok()?.modified().ok()?,
                path,
            ))
        })
        .collect();
    if found.len() <= kept {
        return;
    }
    found.sort();
    for (_, path) in &found[..found.len() - kept] {
        let _ = std::fs::remove_file(path);
        if let Some(companion) = companion {
            let _ = std::fs::remove_file(path.with_extension(companion));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::DirBuilderExt;

    fn scratch(name: &str) -> std::path::PathBuf {
        let directory =
            std::env::temp_dir().join(format!("payload-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&directory);
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&directory)
            .unwrap();
        directory
    }

    #[test]
    fn an_endless_stream_is_cut_at_the_limit() {
        let error = read_user_file(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert!(matches!(error, ReadError::TooLarge { limit } if limit == 1 << 20));
        assert!(error.to_string().contains("more than 1 MiB"), "{error}");
    }

    #[test]
    fn a_user_file_under_the_limit_is_read_and_over_it_is_refused() {
        let directory = scratch("user");
        let path = directory.join("f");
        std::fs::write(&path, b"12345").unwrap();
        assert_eq!(read_user_file(&path, 5).unwrap(), b"12345");
        assert!(matches!(
            read_user_file(&path, 4),
            Err(ReadError::TooLarge { limit: 4 })
        ));
        assert!(matches!(
            read_user_file(&directory, 4),
            Err(ReadError::Io(_))
        ));
        let _ = std::fs::remove_dir_all(directory);
    }

    #[test]
    fn a_private_file_must_be_regular_unshared_and_small() {
        let directory = scratch("private");
        let path = directory.join("entry");
        std::fs::write(&path, b"abc").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(read_private_file(&path, 3).unwrap(), b"abc");
        assert!(read_private_file(&path, 2).is_none());
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o620)).unwrap();
        assert!(read_private_file(&path, 3).is_none());
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o602)).unwrap();
        assert!(read_private_file(&path, 3).is_none());
        let link = directory.join("link");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert!(read_private_file(&link, 3).is_none());
        let _ = std::fs::remove_dir_all(directory);
    }

    #[test]
    fn a_directory_others_can_write_is_not_private() {
        let directory = scratch("directory");
        check_private_directory(&directory).unwrap();
        std::fs::set_permissions(&directory, std::fs::Permissions::from_mode(0o777)).unwrap();
        let why = check_private_directory(&directory).unwrap_err();
        assert!(why.contains("writable by its group or by others"), "{why}");
        let inner = directory.join("inner");
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&inner)
            .unwrap();
        let why = check_private_directory(&inner).unwrap_err();
        assert!(why.contains("(above it)"), "{why}");
        std::fs::set_permissions(&directory, std::fs::Permissions::from_mode(0o1777)).unwrap();
        check_private_directory(&inner).unwrap();
        let _ = std::fs::remove_dir_all(directory);
    }
}
