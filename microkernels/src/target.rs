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
    /// The kernel that computes a tile: `hwacc16` or `host` (built in).
    pub kernel: String,
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

/// Kernels built into `sched-apply`.
pub const BUILTIN_KERNELS: &[&str] = &["hwacc16", "host"];

impl Target {
    /// Reads a description from TOML text; `file` names it in errors.
    pub fn from_toml(file: &str, text: &str) -> Result<Target, TargetError> {
        let target: Target = toml::from_str(text).map_err(|error| TargetError::Syntax {
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
        if !BUILTIN_KERNELS.contains(&target.kernel.as_str()) {
            return Err(invalid(format!(
                "unknown kernel `{}`: the built-in kernels are {}",
                target.kernel,
                BUILTIN_KERNELS.join(", ")
            )));
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
