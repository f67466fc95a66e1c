//! Target descriptions: what an accelerator is, as data. Built-in targets are
//! the TOML files under `microkernels/targets/`; a user's own file has the
//! same fields (`sched-apply targets --target FILE`).

use serde::Deserialize;

/// One accelerator.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Target {
    /// The name `accelerate(NAME)` uses.
    pub name: String,
    /// One line for `sched-apply targets`.
    pub summary: String,
    /// The kernel that computes a tile: `hwacc16` or `host` (built in), or
    /// `library`: a HAL's function in a shared library (see [`Library`]).
    pub kernel: String,
    /// For `kernel = "library"`: where the tile function is.
    #[serde(default)]
    pub library: Option<Library>,
    /// The native tile.
    pub tile: TileShape,
    /// Local memory.
    pub memory: Memory,
    /// Roofs, for the roofline and the cycle model.
    pub roofline: Roofline,
    /// Element types the device computes (A, B, C).
    pub types: Vec<ElementTypes>,
    /// Layouts the kernel expects.
    pub layout: Layout,
}

/// The device's native tile: C is `m x n`, the reduction `k` long.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TileShape {
    /// Rows of C.
    pub m: usize,
    /// Columns of C.
    pub n: usize,
    /// Reduction length.
    pub k: usize,
    /// Whether the kernel refuses larger tiles (a device's array); `false`
    /// for a kernel that blocks any tile itself (the host). Default `true`.
    #[serde(default = "strict_by_default")]
    pub strict: bool,
}

fn strict_by_default() -> bool {
    true
}

/// Local memory.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Memory {
    /// Bytes the A, B and C tiles of one call must fit in.
    pub local_bytes: usize,
}

/// Roofs.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Roofline {
    /// Peak multiply-accumulates per second.
    pub peak_macs_per_second: f64,
    /// Bytes per second to and from host memory.
    pub bandwidth_bytes_per_second: f64,
    /// Clock, for the cycle model.
    pub clock_hz: f64,
}

/// One supported combination of element types.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ElementTypes {
    /// Element type of A (`f32`, `i8`).
    pub a: String,
    /// Element type of B.
    pub b: String,
    /// Element type of C (the accumulator).
    pub c: String,
}

/// A HAL's tile function in a shared library, loaded when a payload calls it.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Library {
    /// The shared library; a relative path is relative to the description's
    /// directory.
    pub path: std::path::PathBuf,
    /// The tile function's symbol (the C signature in `microkernels/README.md`).
    pub symbol: String,
    /// Where `path` is written (`FILE:LINE:COL`), for errors found only
    /// when the library is loaded.
    #[serde(skip)]
    pub path_at: String,
    /// Where `symbol` is written (`FILE:LINE:COL`).
    #[serde(skip)]
    pub symbol_at: String,
}

/// The places of a `[library]` table's values in a description's text.
#[derive(Deserialize)]
struct LibraryPlaces {
    library: Option<LibraryValuePlaces>,
}

#[derive(Deserialize)]
struct LibraryValuePlaces {
    path: toml::Spanned<toml::Value>,
    symbol: toml::Spanned<toml::Value>,
}

/// `FILE:LINE:COL` of byte `offset` of `text` (both counted from 1).
fn place(file: &str, text: &str, offset: usize) -> String {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("{file}:{line}:{column}")
}

/// Operand layouts (`row-major`).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Layout {
    /// Layout of A.
    pub a: String,
    /// Layout of B.
    pub b: String,
    /// Layout of C.
    pub c: String,
}

/// Why a target description was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    /// Not TOML, or not a target: toml's message has the line and column.
    #[error("{file}: error: {message}")]
    Syntax {
        /// The description's file name.
        file: String,
        /// What toml said.
        message: String,
    },
    /// A field's value is not usable.
    #[error("{file}: error: {message}")]
    Invalid {
        /// The description's file name.
        file: String,
        /// What is wrong.
        message: String,
    },
}

/// Where a description's library is: a relative path from the
/// description's directory, made absolute (a bare file name given to the
/// dynamic loader would be looked for on its search path instead, and a
/// system library of that name loaded).
fn resolve_library_path(description: &str, path: &std::path::Path) -> std::path::PathBuf {
    if path.is_absolute() {
        return path.to_path_buf();
    }
    let directory = match std::path::Path::new(description).parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    std::fs::canonicalize(&directory)
        .unwrap_or(directory)
        .join(path)
}

/// Kernels built into `sched-apply`.
pub const BUILTIN_KERNELS: &[&str] = &["hwacc16", "host"];

/// The kernel of a target whose tile function is in a shared library.
pub const LIBRARY_KERNEL: &str = "library";

impl Target {
    /// Reads a description from TOML text; `file` names it in errors.
    pub fn from_toml(file: &str, text: &str) -> Result<Target, TargetError> {
        let mut target: Target = toml::from_str(text).map_err(|error| TargetError::Syntax {
            file: file.to_string(),
            message: error.to_string().trim_end().to_string(),
        })?;
        let invalid = |message: String| TargetError::Invalid {
            file: file.to_string(),
            message,
        };
        let TileShape { m, n, k, .. } = target.tile;
        if m == 0 || n == 0 || k == 0 {
            return Err(invalid(format!(
                "the tile must be at least 1x1x1, not {m}x{n}x{k}"
            )));
        }
        let identifier = target
            .name
            .chars()
            .enumerate()
            .all(|(i, c)| c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit()));
        if target.name.is_empty() || !identifier {
            return Err(invalid(format!(
                "the name `{}` must be letters, digits and `_`, not starting with a digit \
                 (it names symbols in generated code)",
                target.name
            )));
        }
        match (target.kernel.as_str(), &mut target.library) {
            (LIBRARY_KERNEL, Some(library)) => {
                if let Ok(LibraryPlaces {
                    library: Some(places),
                }) = toml::from_str::<LibraryPlaces>(text)
                {
                    library.path_at = place(file, text, places.path.span().start);
                    library.symbol_at = place(file, text, places.symbol.span().start);
                }
                let at = |place: &String, message: &str| TargetError::Invalid {
                    file: place.clone(),
                    message: message.to_string(),
                };
                if library.path.as_os_str().is_empty() {
                    return Err(at(
                        &library.path_at,
                        "the library's `path` is empty: name the HAL's shared library (.so)",
                    ));
                }
                if library.symbol.is_empty() {
                    return Err(at(
                        &library.symbol_at,
                        "the library's `symbol` is empty: name its tile function",
                    ));
                }
                library.path = resolve_library_path(file, &library.path);
            }
            (LIBRARY_KERNEL, None) => {
                return Err(invalid(
                    "kernel = \"library\" needs a [library] table with `path` and `symbol`"
                        .to_string(),
                ))
            }
            (kernel, None) if BUILTIN_KERNELS.contains(&kernel) => {}
            (kernel, None) => {
                return Err(invalid(format!(
                    "unknown kernel `{kernel}`: the built-in kernels are {}, or `library` \
                     with a [library] table for your own",
                    BUILTIN_KERNELS.join(", ")
                )))
            }
            (kernel, Some(_)) => {
                return Err(invalid(format!(
                    "a [library] table is for kernel = \"library\", not the built-in `{kernel}`"
                )))
            }
        }
        let roofs = [
            ("peak_macs_per_second", target.roofline.peak_macs_per_second),
            (
                "bandwidth_bytes_per_second",
                target.roofline.bandwidth_bytes_per_second,
            ),
            ("clock_hz", target.roofline.clock_hz),
        ];
        if let Some((name, value)) = roofs.iter().find(|(_, v)| !(v.is_finite() && *v > 0.0)) {
            return Err(invalid(format!(
                "roofline.{name} must be a positive number, not {value}"
            )));
        }
        let layouts = [
            ("a", &target.layout.a),
            ("b", &target.layout.b),
            ("c", &target.layout.c),
        ];
        if let Some((operand, layout)) = layouts.iter().find(|(_, l)| l.as_str() != "row-major") {
            return Err(invalid(format!(
                "layout.{operand} = \"{layout}\": kernels take row-major tiles (the tile ABI's \
                 leading dimensions); other layouts are not supported"
            )));
        }
        if target.types.is_empty() {
            return Err(invalid(
                "at least one [[types]] entry is needed".to_string(),
            ));
        }
        Ok(target)
    }
}

/// The targets shipped with `sched-apply`.
pub fn builtin_targets() -> Vec<Target> {
    [
        (
            "targets/hwacc16.toml",
            include_str!("../targets/hwacc16.toml"),
        ),
        ("targets/host.toml", include_str!("../targets/host.toml")),
    ]
    .into_iter()
    .map(|(file, text)| Target::from_toml(file, text).expect("built-in targets are valid"))
    .collect()
}
