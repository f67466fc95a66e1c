//! Convolutions computed in the rows of the pool reading them (through the
//! activation inlined into it): the pool's channels split in blocks of the
//! convolution's vector tile, its output row (NCHW) or its channels (NHWC)
//! vectorized innermost, and the convolution computed at the pool's row
//! loop, each time the rows of the window it reads (its own register tile
//! inside, a packed filter packed once per channel block). The
//! convolution's output is then never written whole, only read by the pool
//! while in cache. Pools whose windows tile their input exactly (stride
//! equal to the window, no padding, no leftover), so no output point is
//! computed twice.

use crate::candidate::RegisterTile;
use crate::loops::{parallel_mark, reorder, vectorized};
use crate::tasks::Task;
use crate::TaskResult;
use schedule_lang::{MapResult, OperandInfo, PayloadInfo, PayloadOp};

/// Where a layout keeps the channels, rows and columns among the first
/// four dimensions of a convolution and of its pool (the batch is first).
#[derive(Clone, Copy, PartialEq, Debug)]
struct Layout {
    channels: usize,
    rows: usize,
    columns: usize,
}

const NCHW: Layout = Layout {
    channels: 1,
    rows: 2,
    columns: 3,
};
const NHWC: Layout = Layout {
    channels: 3,
    rows: 1,
    columns: 2,
};

/// The layout of a pool kind a convolution can be computed in ([`tiles`]).
fn pool_layout(kind: &str) -> Option<Layout> {
    match kind {
        "linalg.pooling_nchw_max" | "linalg.pooling_nchw_sum" => Some(NCHW),
        "linalg.pooling_nhwc_max" | "linalg.pooling_nhwc_sum" => Some(NHWC),
        _ => None,
    }
}

/// The layout of a convolution kind a pool can take in.
fn convolution_layout(kind: &str) -> Option<Layout> {
    match kind {
        "linalg.conv_2d_nchw_fchw" => Some(NCHW),
        "linalg.conv_2d_nhwc_hwcf" | "linalg.conv_2d_nhwc_fhwc" => Some(NHWC),
        _ => None,
    }
}

/// Whether `reader` is a pool reading `operand` (its input, not its init)
/// in windows as wide as their stride, undilated, batch and channel
/// indexed as they are in its output.
pub(crate) fn reads_in_windows(reader: &PayloadOp, operand: &OperandInfo) -> bool {
    let Some(layout) = pool_layout(&reader.kind) else {
        return false;
    };
    if reader.extents.len() != 6 || operand.map.len() != 4 {
        return false;
    }
    let windows: Vec<i64> = reader.extents[4..].iter().map(|e| e.unwrap_or(0)).collect();
    !operand.is_init
        && operand.via.is_empty()
        && operand.map[0] == MapResult::Dim(0)
        && operand.map[layout.channels] == MapResult::Dim(layout.channels)
        && reader.strides() == windows
        && reader.dilations().iter().all(|&d| d == 1)
}

/// Whether op `id` is one of the pools [`reads_in_windows`] accepts.
pub(crate) fn is_pool(info: &PayloadInfo, id: usize) -> bool {
    pool_layout(&info.ops[id].kind).is_some()
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
    let layout = convolution_layout(&op.kind)?;
    let reader_kind = &info.ops[reader.ops[0]].kind;
    if pool_layout(reader_kind) != Some(layout) || reader.dims.len() != 6 {
        return None;
    }
    // The convolution's first four dimensions are the pool's (its input);
    // the windows tile its rows and columns exactly.
    let (rows, columns) = (task.extents[layout.rows], task.extents[layout.columns]);
    let (window_rows, window_columns) = (reader.extents[4], reader.extents[5]);
    if reader.extents[layout.rows] * window_rows != rows
        || reader.extents[layout.columns] * window_columns != columns
    {
        return None;
    }
    let channels = task.extents[layout.channels];
    let block = tile.tile * widen;
    let unrolled_points: i64 = tile.unrolled.iter().map(|(_, f)| f).product();
    let vectors = (block + tile.lanes - 1) / tile.lanes;
    if tile.vector != layout.channels
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
            d if d == layout.rows => window_rows,
            d if d == layout.columns => columns,
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
    let reader_chain = pool_chain(reader, layout, block, split_channels, tile.lanes, threads)?;
    let at = reader.dims[layout.rows].clone();

    let mut chain = String::new();
    for &(d, factor) in &splits {
        chain.push_str(&format!(".split({0}, {0}o, {0}i, {factor})", name(d)));
    }
    let vector = name(layout.channels);
    let mut order = vec![vector.to_string()];
    order.extend(unrolled.iter().cloned());
    order.extend(tile.reductions.iter().map(|&d| name(d).to_string()));
    order.extend(splits.iter().map(|&(d, _)| format!("{}o", name(d))));
    // The rows, when not unrolled, outside (the batch is one image here).
    if !tile.unrolled.iter().any(|&(d, _)| d == layout.rows) && window_rows > 1 {
        order.push(name(layout.rows).to_string());
    }
    chain.push_str(&format!(".reorder({})", order.join(", ")));
    chain.push_str(&vectorized(vector, block, tile.lanes));
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
            ".pack(in{input}, {}o, {vector})",
            reader.dims[layout.channels],
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
/// windows and the block's channels inside, innermost and vectorized the
/// output row (NCHW: its channels lie apart) or the block's channels
/// (NHWC); the outermost loop of several iterations parallel on several
/// threads.
fn pool_chain(
    reader: &Task,
    layout: Layout,
    block: i64,
    split_channels: bool,
    lanes: i64,
    threads: usize,
) -> Option<String> {
    let dim = |d: usize| reader.dims[d].as_str();
    let channels = match split_channels {
        true => format!("{}i", dim(layout.channels)),
        false => dim(layout.channels).to_string(),
    };
    let (columns, rows) = (dim(layout.columns).to_string(), dim(layout.rows));
    let windows = [dim(5).to_string(), dim(4).to_string()];
    // Innermost first: the vectorized loop, the windows, the other of the
    // columns and the block's channels.
    let (innermost, extent, other) = match layout == NHWC {
        true => (channels.clone(), block, columns),
        false => (columns, reader.extents[layout.columns], channels),
    };
    let mut order = vec![innermost.clone()];
    order.extend(windows);
    order.extend([other, rows.to_string(), dim(0).to_string()]);
    let mut chain = String::new();
    if split_channels {
        order.push(format!("{}o", dim(layout.channels)));
        chain.push_str(&format!(
            ".split({0}, {0}o, {0}i, {block})",
            dim(layout.channels)
        ));
    }
    chain.push_str(&reorder(
        &reader.dims,
        &[(layout.channels, split_channels)],
        &order,
    ));
    chain.push_str(&vectorized(&innermost, extent, lanes));
    if threads > 1 {
        let mut trips: Vec<(String, i64)> = (0..4)
            .map(|d| (dim(d).to_string(), reader.extents[d]))
            .collect();
        let blocks = reader.extents[layout.channels] / block;
        trips.push((format!("{}o", dim(layout.channels)), blocks));
        chain.push_str(&parallel_mark(&order, &trips)?);
    }
    Some(chain)
}
