//! Convolutions computed in the rows of the pool reading them (through the
//! activation inlined into it): the pool's channels split in blocks of the
//! convolution's vector tile, its output row vectorized inside the window
//! and channel loops, and the convolution computed at the pool's row loop,
//! each time the rows of the window it reads (its own register tile inside,
//! a packed filter packed once per channel block). The convolution's output
//! is then never written whole, only read by the pool while in cache. Pools
//! whose windows tile their input exactly (stride equal to the window, no
//! padding, no leftover), NCHW, so no output point is computed twice.

use crate::candidate::RegisterTile;
use crate::loops::{parallel_mark, reorder, vectorized};
use crate::tasks::Task;
use crate::TaskResult;
use schedule_lang::{MapResult, OperandInfo, PayloadInfo, PayloadOp};

/// The pool kinds a convolution can be computed in ([`tiles`]).
const POOLS: [&str; 2] = ["linalg.pooling_nchw_max", "linalg.pooling_nchw_sum"];

/// Whether `reader` is a pool reading `operand` (its input, not its init)
/// in windows as wide as their stride, undilated, batch and channel
/// indexed as they are in its output.
pub(crate) fn reads_in_windows(reader: &PayloadOp, operand: &OperandInfo) -> bool {
    if !POOLS.contains(&reader.kind.as_str()) || reader.extents.len() != 6 {
        return false;
    }
    let windows: Vec<i64> = reader.extents[4..].iter().map(|e| e.unwrap_or(0)).collect();
    !operand.is_init
        && operand.via.is_empty()
        && operand.map.len() == 4
        && operand.map[..2] == [MapResult::Dim(0), MapResult::Dim(1)]
        && reader.strides() == windows
        && reader.dilations().iter().all(|&d| d == 1)
}

/// Whether op `id` is one of the pools [`reads_in_windows`] accepts.
pub(crate) fn is_pool(info: &PayloadInfo, id: usize) -> bool {
    POOLS.contains(&info.ops[id].kind.as_str())
}

/// A convolution computed in a pool's rows: the pool's chain and loop, the
/// convolution's chain after its `compute_at`, and the convolution's own
/// loop its init (a bias broadcast) is computed at, when it has one.
pub(crate) struct Pooled {
    pub reader_chain: String,
    pub at: String,
    pub producer_chain: String,
    pub init_at: Option<String>,
}

/// Accumulators at most in a tile whose vector [`tiles`] widens to two
/// blocks of channels: 14 (two vectors of 16 channels by 7 columns) is
/// what the hand schedule of the MNIST CNN's second convolution keeps,
/// measured faster in the pool's rows than the tuned 16 x 7 it doubles.
pub(crate) const WIDENED_ACCUMULATORS: i64 = 16;

/// `producer` (a convolution tuned with register tile `tile`) computed in
/// the rows of `reader`, a pool of its output ([`reads_in_windows`]), in
/// blocks of `widen` times the tile's channels (its vector widened so,
/// within [`WIDENED_ACCUMULATORS`]); `None` when the tile does not fit: its
/// vector must run along the channels and the block divide them, its
/// unrolled tiles along the rows and columns must divide the rows of one
/// window and the columns, and the pool's windows must cover the output
/// exactly.
pub(crate) fn tiles(
    info: &PayloadInfo,
    producer: &TaskResult,
    tile: &RegisterTile,
    widen: i64,
    reader: &Task,
    threads: usize,
) -> Option<Pooled> {
    let task = &producer.task;
    let op = &info.ops[task.ops[0]];
    if op.kind != "linalg.conv_2d_nchw_fchw" || reader.dims.len() != 6 {
        return None;
    }
    // The convolution's n, f, y, x are the pool's n, c, y, x (the pool's
    // input); the windows (ky, kx) tile its rows and columns exactly.
    let (rows, columns) = (task.extents[2], task.extents[3]);
    let (window_rows, window_columns) = (reader.extents[4], reader.extents[5]);
    if reader.extents[2] * window_rows != rows || reader.extents[3] * window_columns != columns {
        return None;
    }
    let channels = task.extents[1];
    let block = tile.tile * widen;
    let unrolled_points: i64 = tile.unrolled.iter().map(|(_, f)| f).product();
    let vectors = (block + tile.lanes - 1) / tile.lanes;
    if tile.vector != 1
        || channels % block != 0
        || (widen > 1 && vectors * unrolled_points > WIDENED_ACCUMULATORS)
    {
        return None;
    }
    // A packed filter is packed once per block of channels: the loop over
    // blocks is there even when one block holds them all.
    let split_channels = block < channels || tile.packed.is_some();
    let name = |d: usize| task.dims[d].as_str();
    // Each unrolled dimension's extent in one row of the pool: the rows of
    // a window, the whole row of columns.
    let mut splits: Vec<(usize, i64)> = Vec::new();
    let mut unrolled = Vec::new();
    for &(d, factor) in &tile.unrolled {
        let extent = match d {
            2 => window_rows,
            3 => columns,
            _ => return None,
        };
        if extent % factor != 0 {
            return None;
        }
        if factor < extent {
            splits.push((d, factor));
            unrolled.push(format!("{}i", name(d)));
        } else {
            unrolled.push(name(d).to_string());
        }
    }
    let reader_chain = pool_chain(reader, block, split_channels, tile.lanes, threads)?;
    let at = reader.dims[2].clone();

    let mut chain = String::new();
    for &(d, factor) in &splits {
        chain.push_str(&format!(".split({0}, {0}o, {0}i, {factor})", name(d)));
    }
    let mut order = vec![name(1).to_string()];
    order.extend(unrolled.iter().cloned());
    order.extend(tile.reductions.iter().map(|&d| name(d).to_string()));
    order.extend(splits.iter().map(|&(d, _)| format!("{}o", name(d))));
    // The rows, when not unrolled, outside (the batch is one image here).
    if !tile.unrolled.iter().any(|&(d, _)| d == 2) && window_rows > 1 {
        order.push(name(2).to_string());
    }
    chain.push_str(&format!(".reorder({})", order.join(", ")));
    chain.push_str(&vectorized(name(1), block, tile.lanes));
    for loop_name in &unrolled {
        chain.push_str(&format!(".unroll({loop_name})"));
    }
    if tile.unroll_reductions {
        for &d in &tile.reductions {
            chain.push_str(&format!(".unroll({})", name(d)));
        }
    }
    if let Some(input) = tile.packed {
        chain.push_str(&format!(
            ".pack(in{input}, {}o, {})",
            reader.dims[1],
            name(1)
        ));
    }
    // The outermost of its own loops: each iteration initializes its tile.
    let init_at = splits.last().map(|&(d, _)| format!("{}o", name(d)));
    Some(Pooled {
        reader_chain,
        at,
        producer_chain: chain,
        init_at,
    })
}

/// The pool's chain: channels in blocks of `block` outermost (each block's
/// packed filter packed once), then the batch and the output rows, the
/// windows and the block's channels inside, the output row vectorized
/// innermost; the outermost loop of several iterations parallel on several
/// threads.
fn pool_chain(
    reader: &Task,
    block: i64,
    split_channels: bool,
    lanes: i64,
    threads: usize,
) -> Option<String> {
    let dim = |d: usize| reader.dims[d].as_str();
    let channels = match split_channels {
        true => format!("{}i", dim(1)),
        false => dim(1).to_string(),
    };
    let mut order = vec![
        dim(3).to_string(),
        dim(5).to_string(),
        dim(4).to_string(),
        channels,
        dim(2).to_string(),
        dim(0).to_string(),
    ];
    let mut chain = String::new();
    if split_channels {
        order.push(format!("{}o", dim(1)));
        chain.push_str(&format!(".split({0}, {0}o, {0}i, {block})", dim(1)));
    }
    chain.push_str(&reorder(&reader.dims, &[(1, split_channels)], &order));
    chain.push_str(&vectorized(dim(3), reader.extents[3], lanes));
    if threads > 1 {
        let mut trips: Vec<(String, i64)> = (0..4)
            .map(|d| (dim(d).to_string(), reader.extents[d]))
            .collect();
        trips.push((format!("{}o", dim(1)), reader.extents[1] / block));
        chain.push_str(&parallel_mark(&order, &trips)?);
    }
    Some(chain)
}
