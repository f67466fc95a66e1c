//! The files the CLI reads and writes for the user.
//!
//! Reads are bounded (`runner::files::read_user_file`): an endless stream
//! or a huge file named by mistake is an error naming the limit, not a
//! process that grows until memory runs out. Writes are whole or nothing: a
//! temporary file with an unpredictable name, created exclusively beside the
//! destination, then renamed over it, so another user cannot plant the
//! temporary's name, and a full disk leaves the old file as it was.

use crate::{run, Exit};
use runner::files::{read_user_file, ReadError, SCHEDULE_LIMIT};
use schedule_lang::SourceFile;
use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The largest payload `sched-apply` reads (weights baked in as constants
/// make large files; an endless stream stops here).
pub(crate) const PAYLOAD_LIMIT: u64 = 1 << 30;

/// The byte-order mark some editors put at the start of a UTF-8 file.
const BYTE_ORDER_MARK: char = '\u{feff}';

/// The bytes of a file the user named, at most `limit`; an error names the
/// file and, for a file too large, the limit.
pub(crate) fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, Exit> {
    read_user_file(path, limit).map_err(|error| {
        let help = match error {
            ReadError::TooLarge { .. } => "\n  = help: name a regular file of the right kind",
            ReadError::Io(_) => "",
        };
        Exit::input(format!(
            "{}: error: cannot read the file: {error}{help}",
            path.display()
        ))
    })
}

/// Reads a payload (text or MLIR bytecode); a file that is not UTF-8 is an
/// error located at its first invalid byte.
pub(crate) fn read(path: &Path) -> Result<String, Exit> {
    read_text(path, PAYLOAD_LIMIT)
}

/// Reads a text file of at most `limit` bytes, as [`read`] does.
pub(crate) fn read_text(path: &Path, limit: u64) -> Result<String, Exit> {
    let bytes = read_bytes(path, limit)?;
    if bytes.starts_with(payload::BYTECODE_MAGIC) {
        let name = path.display().to_string();
        // Bytecode has no source lines to show under its diagnostics.
        return payload::bytecode_to_text(&name, &bytes)
            .map_err(|error| run::payload_failure(error, &SourceFile::new(name, String::new())));
    }
    String::from_utf8(bytes).map_err(|error| {
        let bad = error.utf8_error().valid_up_to();
        let byte = error.as_bytes()[bad];
        // Shown with each invalid sequence replaced by U+FFFD; the text before
        // the first one is the same, so its offset is too.
        let shown = SourceFile::new(
            path.display().to_string(),
            String::from_utf8_lossy(error.as_bytes()).into_owned(),
        );
        let span = schedule_lang::Span::new(bad, bad + '\u{fffd}'.len_utf8());
        let message = format!(
            "the file is not UTF-8: byte 0x{byte:02x} cannot start or continue a character here"
        );
        Exit::input(
            schedule_lang::Diagnostic::error("not-utf8", span, message)
                .with_help("save the file as UTF-8")
                .render(&shown),
        )
    })
}

/// Reads a schedule. A byte-order mark at its start is dropped, as rustc
/// drops one: it is invisible, and Windows editors write it.
pub(crate) fn read_schedule(path: &Path) -> Result<SourceFile, Exit> {
    let text = read_text(path, SCHEDULE_LIMIT)?;
    let text = match text.strip_prefix(BYTE_ORDER_MARK) {
        Some(rest) => rest.to_string(),
        None => text,
    };
    Ok(SourceFile::new(path.display().to_string(), text))
}

/// Writes `text` to `path` whole (see [`write_bytes`]), or to standard output.
pub(crate) fn write_output(path: Option<&Path>, text: &str) -> Result<(), Exit> {
    match path {
        Some(path) => write_bytes(path, text.as_bytes()),
        None => print_text(text),
    }
}

/// Writes to standard output. A closed pipe ends the command quietly, as
/// other Unix tools do, instead of panicking as `print!` would; a full
/// device is the environment's failure, not ours (exit 1, as a full disk
/// under `-o` is).
pub(crate) fn print_text(text: &str) -> Result<(), Exit> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Err(Exit::OutputClosed),
        Err(error) => Err(Exit::input(format!(
            "error: cannot write to standard output: {error}"
        ))),
    }
}

/// Refuses to write `output` over one of the command's own inputs (the
/// payload, the schedule), which would lose the user's source; `force`
/// allows it.
pub(crate) fn refuse_overwriting_inputs(
    output: &Path,
    inputs: &[&Path],
    force: bool,
) -> Result<(), Exit> {
    let identity = |path: &Path| std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()));
    let Some(written) = identity(output) else {
        return Ok(());
    };
    match inputs.iter().find(|input| identity(input) == Some(written)) {
        Some(input) if !force => Err(Exit::input(format!(
            "{}: error: the output is the input file {}: writing it would replace your source\n  = help: write elsewhere, or pass --force to replace it",
            output.display(),
            input.display()
        ))),
        _ => Ok(()),
    }
}

/// Writes a file whole or not at all: a temporary with an unpredictable
/// name, created exclusively (never following a link) beside the
/// destination, then renamed over it. The new file keeps the mode of the
/// one it replaces. A symbolic link is followed, so the link stays and its
/// target changes, but only a link of the user's own or root's: one that
/// another user planted (in a shared directory) is refused. A destination
/// that is not a regular file (`/dev/null`, a FIFO, a terminal) is written
/// in place: renamed over, it would be replaced by a regular file (`-o
/// /dev/null` once turned the machine's `/dev/null` into one, and every
/// later reader of it got our output).
pub(crate) fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), Exit> {
    stage(path, bytes)?.commit()
}

/// Writes several files all or none: each goes to its temporary first, and
/// only when every one is written are they renamed into place (a disk that
/// fills after the first result leaves none of them changed).
pub(crate) fn write_files_whole(files: &[(PathBuf, Vec<u8>)]) -> Result<(), Exit> {
    let staged = files
        .iter()
        .map(|(path, bytes)| stage(path, bytes))
        .collect::<Result<Vec<_>, _>>()?;
    staged.into_iter().try_for_each(Staged::commit)
}

/// A file written as far as it can be before it replaces its destination.
enum Staged {
    /// Written to a temporary beside `target`, to be renamed over it.
    Temporary {
        file: tempfile::NamedTempFile,
        target: PathBuf,
        path: PathBuf,
    },
    /// A destination that is not a regular file, written in place when
    /// committed.
    InPlace { target: PathBuf, bytes: Vec<u8> },
}

/// Writes `bytes` to a temporary beside `path`'s destination.
fn stage(path: &Path, bytes: &[u8]) -> Result<Staged, Exit> {
    let failed = |error: std::io::Error| cannot_write(path, error);
    let target = destination(path)?;
    let existing = std::fs::metadata(&target).ok();
    if existing.as_ref().is_some_and(|m| !m.file_type().is_file()) {
        return Ok(Staged::InPlace {
            target,
            bytes: bytes.to_vec(),
        });
    }
    let directory = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let file_name = target
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "out".into());
    let mode = existing.map_or(0o666, |m| m.permissions().mode() & 0o7777);
    let mut file = tempfile::Builder::new()
        .prefix(&format!(".{file_name}."))
        .suffix(".sched-apply.tmp")
        .permissions(std::fs::Permissions::from_mode(mode))
        .tempfile_in(directory)
        .map_err(failed)?;
    file.write_all(bytes)
        .and_then(|()| file.as_file().sync_data())
        .map_err(failed)?;
    Ok(Staged::Temporary {
        file,
        target,
        path: path.to_path_buf(),
    })
}

impl Staged {
    /// Puts the file in place (a dropped temporary is removed).
    fn commit(self) -> Result<(), Exit> {
        match self {
            Staged::Temporary { file, target, path } => file
                .persist(&target)
                .map(|_| ())
                .map_err(|error| cannot_write(&path, error.error)),
            Staged::InPlace { target, bytes } => std::fs::OpenOptions::new()
                .write(true)
                .open(&target)
                .and_then(|mut file| file.write_all(&bytes))
                .map_err(|error| cannot_write(&target, error)),
        }
    }
}

fn cannot_write(path: &Path, error: std::io::Error) -> Exit {
    Exit::input(format!(
        "{}: error: cannot write the output: {error}",
        path.display()
    ))
}

/// The file a write to `path` replaces: `path`, or the file a symbolic link
/// of the user's own (or root's) there names, even if that does not exist
/// yet.
fn destination(path: &Path) -> Result<PathBuf, Exit> {
    let Ok(link) = std::fs::symlink_metadata(path) else {
        return Ok(path.to_path_buf());
    };
    if !link.file_type().is_symlink() {
        return Ok(path.to_path_buf());
    }
    let me = runner::ffi::effective_uid();
    if link.uid() != me && link.uid() != 0 {
        return Err(Exit::input(format!(
            "{}: error: cannot write the output: it is a symbolic link owned by another user ({}), which could point it at any file you can write\n  = help: remove the link, or write elsewhere",
            path.display(),
            link.uid()
        )));
    }
    // A dangling link names the file to create.
    std::fs::canonicalize(path)
        .or_else(|_| {
            let target = std::fs::read_link(path)?;
            Ok::<_, std::io::Error>(path.parent().unwrap_or(Path::new("")).join(target))
        })
        .map_err(|error| cannot_write(path, error))
}
