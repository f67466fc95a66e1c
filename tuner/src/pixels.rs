//! The candidates of a reduction whose output's two innermost dimensions
//! `fuse` can make one (`schedule_lang::collapse`: a 1x1 convolution's rows
//! and columns, a run of pixels): the pixels vectorized in tiles of one to
//! four machine vectors, with a block of another output dimension (the
//! output channels) unrolled beside them, the reductions inside: a GEMM's
//! register tile, the filter's rows broadcast against rows of pixels. A
//! convolution's own candidates vectorize its columns (14 of 16 lanes at
//! 14 x 14) or its channels; MobileNet-v2's 1x1 convolution of 576 into 96
//! channels at 14 x 14 ran 135-149 us so, against 188 us for the best of
//! those.

use crate::candidate::{loads_per_step, most_accumulators, Candidate};
use crate::loops::{parallel_mark, vectorized};
use crate::tasks::Task;
use schedule_lang::collapse::collapse;
use schedule_lang::{MapResult, PayloadOp};

/// Unrolled blocks of the other dimension tried beside the pixels.
const BLOCKS: [i64; 7] = [2, 3, 4, 6, 8, 12, 16];

/// The fused-pixels candidates of `task` (its first op `op`), `lanes`
/// floats per vector; with `threads` above one, with the outermost loop of
/// several iterations `parallel` too. None when the op has no reduction or its
/// output's innermost pair does not collapse.
pub(crate) fn fused_pixels(
    task: &Task,
    op: &PayloadOp,
    lanes: i64,
    threads: usize,
) -> Vec<Candidate> {
    let reductions: Vec<usize> = (0..task.dims.len())
        .filter(|&d| task.reduction[d])
        .collect();
    let Some((rows, columns)) = innermost_pair(task, op) else {
        return Vec::new();
    };
    if reductions.is_empty() {
        return Vec::new();
    }
    let Ok(collapsed) = collapse(op, rows, &task.dims) else {
        return Vec::new();
    };
    // The widest other parallel dimension, unrolled beside the pixels.
    let Some(u) = (0..task.dims.len())
        .filter(|&d| !task.reduction[d] && d != rows && d != columns && task.extents[d] > 1)
        .max_by_key(|&d| task.extents[d])
    else {
        return Vec::new();
    };
    let names = Names::of(task, rows, columns, u);
    let pixels = task.extents[rows] * task.extents[columns];
    let most = most_accumulators(lanes);
    // The collapsed op's dimensions: the pixels at `rows`, the rest after
    // them one lower.
    let after = |d: usize| if d > columns { d - 1 } else { d };
    let mut out = Vec::new();
    for tile in (1..=4).map(|a| a * lanes).filter(|&t| t <= pixels) {
        let vectors = tile / lanes;
        for block in BLOCKS
            .into_iter()
            .filter(|&b| b <= task.extents[u] && vectors * b <= most)
        {
            let parallel: &[bool] = if threads > 1 {
                &[false, true]
            } else {
                &[false]
            };
            for (channels_outside, &parallel) in [true, false]
                .into_iter()
                .flat_map(|c| parallel.iter().map(move |p| (c, p)))
            {
                let Some(chain) = names.chain(
                    task,
                    (pixels, tile),
                    block,
                    &reductions,
                    channels_outside,
                    parallel,
                    lanes,
                ) else {
                    continue;
                };
                out.push(Candidate {
                    chain,
                    lanes,
                    vector_extent: pixels,
                    vector_tile: tile,
                    unroll_extent: task.extents[u],
                    unroll_tile: block,
                    second_extent: 1,
                    second_tile: 1,
                    tiled: vec![columns, u],
                    packed: false,
                    streamed_panel: false,
                    reduction_points: reductions.iter().map(|&d| task.extents[d]).product(),
                    strided_vector: false,
                    loads: Some(loads_per_step(
                        &collapsed,
                        rows,
                        vectors,
                        std::iter::once((after(u), block)),
                    )),
                    held: Some(vectors as f64 + 1.0),
                    // Its tiles are no tiles of a reader's rows and columns.
                    tile: None,
                });
            }
        }
    }
    out
}

/// The output's two innermost dimensions when they are neighbours in
/// linalg order, parallel and of more than one point: rows, then columns.
fn innermost_pair(task: &Task, op: &PayloadOp) -> Option<(usize, usize)> {
    let init = op.operands.iter().find(|o| o.is_init)?;
    let [.., MapResult::Dim(rows), MapResult::Dim(columns)] = init.map.as_slice() else {
        return None;
    };
    let (rows, columns) = (*rows, *columns);
    let plain = |d: usize| !task.reduction[d] && task.extents[d] > 1;
    (columns == rows + 1 && plain(rows) && plain(columns)).then_some((rows, columns))
}

/// The names a fused-pixels chain uses.
struct Names {
    rows: String,
    columns: String,
    /// The fused dimension (`yx`), and the unrolled one (`f`).
    pixels: String,
    unrolled: String,
    /// The other parallel dimensions, innermost first (`n`).
    others: Vec<String>,
}

impl Names {
    fn of(task: &Task, rows: usize, columns: usize, u: usize) -> Self {
        let others = (0..task.dims.len())
            .rev()
            .filter(|&d| !task.reduction[d] && ![rows, columns, u].contains(&d))
            .map(|d| task.dims[d].clone())
            .collect();
        Names {
            rows: task.dims[rows].clone(),
            columns: task.dims[columns].clone(),
            pixels: format!("{}{}", task.dims[rows], task.dims[columns]),
            unrolled: task.dims[u].clone(),
            others,
        }
    }

    /// `.fuse(x, y, yx).split(yx, yxo, yxi, T).split(f, fo, fi, B)
    /// .reorder(...)` and the marks; `None` when a name would clash.
    #[allow(clippy::too_many_arguments)]
    fn chain(
        &self,
        task: &Task,
        (pixels, tile): (i64, i64),
        block: i64,
        reductions: &[usize],
        channels_outside: bool,
        parallel: bool,
        lanes: i64,
    ) -> Option<String> {
        let p = &self.pixels;
        let f = &self.unrolled;
        let (po, pi, fo, fi) = (
            format!("{p}o"),
            format!("{p}i"),
            format!("{f}o"),
            format!("{f}i"),
        );
        if task
            .dims
            .iter()
            .any(|d| [p, &po, &pi, &fo, &fi].contains(&d))
        {
            return None;
        }
        let f_extent = task.extents[task.dims.iter().position(|d| d == f)?];
        let mut chain = format!(".fuse({}, {}, {p})", self.columns, self.rows);
        let split_pixels = tile < pixels;
        let split_channels = block < f_extent;
        let (inner_p, inner_f) = match (split_pixels, split_channels) {
            (true, true) => (pi.clone(), fi.clone()),
            (true, false) => (pi.clone(), f.clone()),
            (false, true) => (p.clone(), fi.clone()),
            (false, false) => (p.clone(), f.clone()),
        };
        if split_pixels {
            chain.push_str(&format!(".split({p}, {po}, {pi}, {tile})"));
        }
        if split_channels {
            chain.push_str(&format!(".split({f}, {fo}, {fi}, {block})"));
        }
        let mut order = vec![inner_p.clone(), inner_f.clone()];
        order.extend(reductions.iter().rev().map(|&d| task.dims[d].clone()));
        let mut outer: Vec<(String, i64)> = Vec::new();
        if split_pixels {
            outer.push((po, (pixels + tile - 1) / tile));
        }
        if split_channels {
            outer.push((fo, (f_extent + block - 1) / block));
        }
        if !channels_outside {
            outer.reverse();
        }
        if outer.len() < 2 && !channels_outside {
            return None;
        }
        order.extend(outer.iter().map(|(n, _)| n.clone()));
        order.extend(self.others.iter().cloned());
        chain.push_str(&format!(".reorder({})", order.join(", ")));
        chain.push_str(&vectorized(&inner_p, tile, lanes));
        chain.push_str(&format!(".unroll({inner_f})"));
        if parallel {
            let trips: Vec<(String, i64)> = outer
                .into_iter()
                .chain(self.others.iter().map(|n| {
                    let d = task.dims.iter().position(|d| d == n).unwrap_or(0);
                    (n.clone(), task.extents[d])
                }))
                .collect();
            chain.push_str(&parallel_mark(&order, &trips)?);
        }
        Some(chain)
    }
}
