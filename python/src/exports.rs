//! `sched_apply._native.cached_export` and `store_export`: the payloads
//! `sched_apply.export` made of PyTorch programs before, kept on disk under
//! a key the Python side computes from the traced program (its graph with
//! shapes, the values it bakes in, the versions of torch and torch-mlir), so
//! a second export of the same program skips torch's decompositions and
//! torch-mlir's lowering.
//!
//! Entries live in `exports/` of sched-apply's cache directory and are
//! trusted as the compile cache's are: the directory and every one above it
//! must pass `check_private_directory`, an entry is read only through
//! `read_private_file` (a regular file of this user's that no one else can
//! write), and its first line must name its own key. Anything else reads as
//! absent, and the program is exported again.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use runner::cache::Cache;
use runner::files::{
    check_private_directory, create_private_directory, read_private_file, remove_oldest,
    write_private_file,
};
use std::path::PathBuf;

/// How many exported payloads are kept, the least recently written removed first.
const KEPT: usize = 64;

/// The largest entry read (a payload with its weights in the text can be large).
const EXPORT_LIMIT: u64 = 256 << 20;

/// The first line of an entry, before its key.
const HEADER: &str = "// sched-apply export ";

/// `key` when it is a key `store_export` accepts (64 lowercase hex digits: a
/// SHA-256, so it cannot name a path outside the directory), else ValueError.
fn checked(key: &str) -> PyResult<&str> {
    let hex = key.len() == 64
        && key
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    if hex {
        Ok(key)
    } else {
        Err(PyValueError::new_err(format!(
            "an export key is a SHA-256 in 64 lowercase hex digits, not {key:?}"
        )))
    }
}

/// The directory of exported payloads, when there is a cache directory.
fn directory() -> Option<PathBuf> {
    Cache::default_directory().map(|d| d.join("exports"))
}

/// The payload text stored under `key`, or None when there is none or the
/// entry fails a trust check (see the module's documentation).
#[pyfunction]
pub(crate) fn cached_export(key: &str) -> PyResult<Option<String>> {
    let key = checked(key)?;
    let Some(directory) = directory() else {
        return Ok(None);
    };
    if check_private_directory(&directory).is_err() {
        return Ok(None);
    }
    let Some(bytes) = read_private_file(&directory.join(format!("{key}.mlir")), EXPORT_LIMIT)
    else {
        return Ok(None);
    };
    let Ok(text) = String::from_utf8(bytes) else {
        return Ok(None);
    };
    let Some((first, rest)) = text.split_once('\n') else {
        return Ok(None);
    };
    Ok((first.strip_prefix(HEADER) == Some(key)).then(|| rest.to_string()))
}

/// Keeps `text` under `key`. A store that fails (no cache directory, one
/// another user could write, a full disk) only costs the next export its
/// time, so it is not an error; returns whether the entry was written.
#[pyfunction]
pub(crate) fn store_export(key: &str, text: &str) -> PyResult<bool> {
    let key = checked(key)?;
    if text.len() as u64 + 100 > EXPORT_LIMIT {
        return Ok(false);
    }
    let Some(directory) = directory() else {
        return Ok(false);
    };
    if create_private_directory(&directory).is_err() {
        return Ok(false);
    }
    let entry = format!("{HEADER}{key}\n{text}");
    let path = directory.join(format!("{key}.mlir"));
    let written = write_private_file(&directory, &path, entry.as_bytes()).is_ok();
    if written {
        remove_oldest(&directory, "mlir", None, KEPT);
    }
    Ok(written)
}
