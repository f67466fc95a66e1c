//! The names `sched-apply ops` and the tuner give payload ops: short func
//! names per kind and the usual names of each op's iteration dimensions.

use crate::payload_info::{IteratorKind, PayloadOp};

/// Names for an op's iteration dimensions: the usual ones for common named
/// ops (`matmul`: i, j | k; `conv_2d_nchw_fchw`: n, f, y, x | c, ky, kx),
/// otherwise letters by kind (parallel i, j, k, …; reduction r, s, t, …).
pub fn dim_names(op: &PayloadOp) -> Vec<String> {
    let known: Option<&[&str]> = match op.kind.as_str() {
        "linalg.matmul" => Some(&["i", "j", "k"]),
        "linalg.batch_matmul" => Some(&["b", "i", "j", "k"]),
        "linalg.conv_2d_nchw_fchw" => Some(&["n", "f", "y", "x", "c", "ky", "kx"]),
        "linalg.conv_2d_nhwc_hwcf" => Some(&["n", "y", "x", "f", "ky", "kx", "c"]),
        "linalg.pooling_nchw_max" | "linalg.pooling_nchw_sum" => {
            Some(&["n", "c", "y", "x", "ky", "kx"])
        }
        "linalg.pooling_nhwc_max" | "linalg.pooling_nhwc_sum" => {
            Some(&["n", "y", "x", "c", "ky", "kx"])
        }
        _ => None,
    };
    if let Some(names) = known.filter(|n| n.len() == op.iterators.len()) {
        return names.iter().map(|n| n.to_string()).collect();
    }
    let (mut parallel, mut reduction) = (0, 0);
    op.iterators
        .iter()
        .map(|kind| {
            let (letters, count) = match kind {
                IteratorKind::Parallel => ("ijklmnopq", &mut parallel),
                IteratorKind::Reduction => ("rstuvw", &mut reduction),
            };
            let name = match letters.chars().nth(*count) {
                Some(letter) => letter.to_string(),
                None => format!("{}{}", &letters[..1], *count),
            };
            *count += 1;
            name
        })
        .collect()
}

/// A short func name for an op kind: `mm`, `conv`, `pool`, `g` (generic), ...
pub fn short_kind_name(kind: &str) -> String {
    let kind = kind.trim_start_matches("linalg.");
    match kind {
        "matmul" => "mm".into(),
        "batch_matmul" => "bmm".into(),
        "generic" => "g".into(),
        "broadcast" => "bcast".into(),
        "transpose" => "tr".into(),
        k if k.starts_with("conv") || k.starts_with("depthwise_conv") => "conv".into(),
        k if k.starts_with("pooling") => "pool".into(),
        k => k.replace(|c: char| !c.is_ascii_alphanumeric(), "_"),
    }
}

/// Func names numbered per kind, in the order asked: `conv0`, `conv1`, `mm0`, ...
#[derive(Default)]
pub struct FuncNames {
    counts: Vec<(String, usize)>,
}

impl FuncNames {
    /// The next name for an op of `kind`.
    pub fn next(&mut self, kind: &str) -> String {
        let short = short_kind_name(kind);
        let n = match self.counts.iter_mut().find(|(k, _)| *k == short) {
            Some((_, count)) => {
                *count += 1;
                *count - 1
            }
            None => {
                self.counts.push((short.clone(), 1));
                0
            }
        };
        format!("{short}{n}")
    }
}

/// The binding of `names` as a `func` line writes it: parallel dimensions,
/// then `|` and the reductions (`n, f, y, x | c, ky, kx`).
pub fn binding(op: &PayloadOp, names: &[String]) -> String {
    let of = |kind: IteratorKind| -> Vec<&str> {
        names
            .iter()
            .zip(&op.iterators)
            .filter(|(_, k)| **k == kind)
            .map(|(n, _)| n.as_str())
            .collect()
    };
    let (parallel, reduced) = (of(IteratorKind::Parallel), of(IteratorKind::Reduction));
    if reduced.is_empty() {
        parallel.join(", ")
    } else {
        format!("{} | {}", parallel.join(", "), reduced.join(", "))
    }
}
