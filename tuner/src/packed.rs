//! The candidates of windowed ops (convolutions, pools) that vectorize a
//! dimension other than the output's innermost: output channels, read
//! from the filter packed with them innermost, beside a few output columns
//! (or two images or rows) unrolled (a register tile of broadcast inputs);
//! a packed panel larger than [`PANEL_BYTES`] also in blocks of its input
//! channels; a filter whose whole panel fits within it also packed once
//! and the channel blocks run inside each row.

use crate::candidate::{Candidate, RegisterTile};
use crate::loops::{parallel_mark, reorder, unused_by};
use crate::partials::innermost;
use crate::tasks::Task;
use schedule_lang::{MapResult, PayloadOp};

/// A packed panel (a block of output channels by the whole reduction, of
/// f32) larger than this is also tried with its input channels in blocks
/// that keep it within this: about a third of the second-level cache of the
/// CPUs we know (512 KB on a Zen 1, 1 MB on a Zen 4 or a Skylake-SP), so the
/// panel stays there beside the input rows. On a Zen 1, ResNet's 3x3
/// convolutions at 14x14 and 7x7 (batch 8, 256 and 512 channels) ran at 79%
/// of the peak with 8 channels by 7 columns, the whole panel packed (74 KB),
/// and at 86-89% with 32 channels by 2 columns or 2 images in blocks of 128
/// input channels (147 KB; 80% with the whole 295 KB panel).
pub(crate) const PANEL_BYTES: i64 = 160 * 1024;

/// How a packed-channels candidate packs its filter.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Panel {
    /// Per block of output channels over the whole reduction, the block
    /// loop outside the loops the filter does not use.
    PerBlock,
    /// So, with a reduction (the input channels) split in blocks of the
    /// size given, its block loop just inside the channel blocks'.
    InputBlocks(usize, i64),
    /// Whole, once, in a loop of one iteration over all output channels
    /// outermost; the channel blocks just outside the column loop.
    Resident,
}

/// The bytes of a packed panel of `channels` output channels by all of
/// the reductions' points, of f32.
fn panel_bytes(task: &Task, reductions: &[usize], channels: i64) -> i64 {
    channels * reductions.iter().map(|&d| task.extents[d]).product::<i64>() * 4
}

/// For a windowed op: a parallel dimension other than the output's
/// innermost, which an input (the filter) has but not innermost,
/// vectorized from that input packed with it innermost (a stride-2
/// convolution's output channels), alone or inside 2, 4, 7 or 8 of the
/// output's innermost points unrolled, or all of them where there are 8 or
/// fewer, or inside 2 points of another parallel dimension (two images or
/// rows, where the columns do not divide by 2) with four machine vectors (a
/// register tile of broadcast inputs; at stride 2 each read from every
/// second element); each also with its input channels in blocks
/// ([`channel_block`]) where the panel exceeds [`PANEL_BYTES`], or, where
/// the whole filter's panel is within it, with the filter packed once
/// outermost and the channel blocks inside each row (the input's rows then
/// stay in cache for all the blocks: resnet18's 1x1 stride-2 convolution at
/// batch 8, 64 to 128 channels, ran 1.7x as fast so on one thread as with
/// the blocks outermost, which read the whole input again per block).
pub(crate) fn packed_channels(
    task: &Task,
    op: &PayloadOp,
    lanes: i64,
    v: usize,
    reductions: &[usize],
    parallel: &[usize],
    threads: usize,
) -> Vec<Candidate> {
    let mut out = Vec::new();
    let most = crate::candidate::most_accumulators(lanes);
    for &w in parallel
        .iter()
        .filter(|&&d| d != v && task.extents[d] >= lanes)
    {
        let Some(input) = op.operands.iter().position(|o| {
            !o.is_init && o.map.contains(&MapResult::Dim(w)) && innermost(&o.map) != Some(w)
        }) else {
            continue;
        };
        let name = &task.dims[w];
        for a in [1, 2, 4] {
            let tile = a * lanes;
            if tile >= task.extents[w] {
                break;
            }
            let columns = [1, 2, 4, 7, 8].into_iter().filter(|&f| {
                f == 1 || (f <= task.extents[v] && task.extents[v] % f == 0 && a * f <= most)
            });
            let mut unrolls: Vec<(usize, i64)> = columns.map(|f| (v, f)).collect();
            if a == 4 && task.extents[v] % 2 != 0 && 2 * a <= most {
                unrolls.extend(
                    parallel
                        .iter()
                        .filter(|&&d| d != v && d != w && task.extents[d] % 2 == 0)
                        .map(|&d| (d, 2)),
                );
            }
            let in_blocks = channel_block(task, reductions, tile);
            // Where the whole filter fits the panel, packed once instead.
            let whole = panel_bytes(task, reductions, task.extents[w]) <= PANEL_BYTES;
            let panels = std::iter::once(Panel::PerBlock)
                .chain(in_blocks.map(|(r, b)| Panel::InputBlocks(r, b)))
                .chain(whole.then_some(Panel::Resident));
            for ((u, factor), panel) in unrolls
                .iter()
                .flat_map(|&unroll| panels.clone().map(move |p| (unroll, p)))
            {
                let column = &task.dims[u];
                let Some(chain) = packed_chain(
                    task,
                    op,
                    (w, tile, lanes),
                    (u, factor),
                    reductions,
                    parallel,
                    input,
                    panel,
                ) else {
                    continue;
                };
                let mut chains = vec![chain.0.clone()];
                if threads > 1 {
                    let mut trips = vec![(format!("{name}o"), (task.extents[w] + tile - 1) / tile)];
                    if factor > 1 && factor < task.extents[u] {
                        trips.push((format!("{column}o"), task.extents[u] / factor));
                    }
                    trips.extend(
                        parallel
                            .iter()
                            .map(|&d| (task.dims[d].clone(), task.extents[d])),
                    );
                    chains.extend(
                        parallel_mark(&chain.1, &trips).map(|mark| chain.0.clone() + &mark),
                    );
                }
                out.extend(chains.into_iter().map(|chain| {
                    Candidate {
                        chain,
                        lanes,
                        vector_extent: task.extents[w],
                        vector_tile: tile,
                        unroll_extent: if factor > 1 { task.extents[u] } else { 1 },
                        unroll_tile: factor,
                        second_extent: 1,
                        second_tile: 1,
                        tiled: std::iter::once(w)
                            .chain((factor > 1).then_some(u))
                            .collect(),
                        packed: true,
                        streamed_panel: panel == Panel::PerBlock && in_blocks.is_some(),
                        reduction_points: reductions.iter().map(|&d| task.extents[d]).product(),
                        strided_vector: !op.strided_reads(w).is_empty(),
                        loads: Some(crate::candidate::loads_per_step(
                            op,
                            w,
                            a,
                            (factor > 1).then_some((u, factor)).into_iter(),
                        )),
                        held: Some(crate::candidate::held_per_step(
                            op,
                            w,
                            a,
                            (factor > 1).then_some(u),
                            None,
                        )),
                        // A reader tiled as this tile rebuilds its chain
                        // without the blocks or the resident filter: not
                        // offered.
                        tile: (panel == Panel::PerBlock).then(|| RegisterTile {
                            vector: w,
                            tile,
                            lanes,
                            unrolled: if factor > 1 {
                                vec![(u, factor)]
                            } else {
                                Vec::new()
                            },
                            reductions: reductions.iter().rev().copied().collect(),
                            unroll_reductions: false,
                            packed: Some(input),
                        }),
                    }
                }));
            }
        }
    }
    out
}

/// The input channels' block of a packed panel of `tile` output channels:
/// the task's largest reduction (the input channels) and its largest
/// divisor of at least 16 that keeps the panel (`tile` by the block by the
/// other reductions' points, of f32) within [`PANEL_BYTES`]; `None` when the
/// whole panel is within it, no divisor is, or the split's loop names are
/// taken.
fn channel_block(task: &Task, reductions: &[usize], tile: i64) -> Option<(usize, i64)> {
    let &r = reductions.iter().max_by_key(|&&d| task.extents[d])?;
    let rest: i64 = reductions
        .iter()
        .filter(|&&d| d != r)
        .map(|&d| task.extents[d])
        .product();
    let bytes = |block: i64| tile * block * rest * 4;
    let extent = task.extents[r];
    let free = ["o", "i"]
        .iter()
        .all(|s| !task.dims.contains(&format!("{}{s}", task.dims[r])));
    if !free || panel_bytes(task, reductions, tile) <= PANEL_BYTES {
        return None;
    }
    (16..extent)
        .rev()
        .find(|&b| extent % b == 0 && bytes(b) <= PANEL_BYTES)
        .map(|b| (r, b))
}

/// The chain of a packed-channels candidate and its loop order: `w` split
/// by `tile` and vectorized (in machine vectors of `lanes`, unrolled),
/// inside `factor` points of `v` unrolled (none when 1; `v` not split when
/// that is all of it), the reductions
/// around them, then the other loops, `w`'s block loop outside those the
/// packed input does not use, or as `panel` says; `None` for a resident
/// panel whose block loop would be where it is anyway.
// The pieces of one chain, each named as the candidate's fields name them.
#[allow(clippy::too_many_arguments)]
fn packed_chain(
    task: &Task,
    op: &PayloadOp,
    (w, tile, lanes): (usize, i64, i64),
    (v, factor): (usize, i64),
    reductions: &[usize],
    parallel: &[usize],
    input: usize,
    panel: Panel,
) -> Option<(String, Vec<String>)> {
    let (name, column) = (&task.dims[w], &task.dims[v]);
    let unroll_v = factor > 1;
    let split_v = unroll_v && factor < task.extents[v];
    let inner_v = match split_v {
        true => format!("{column}i"),
        false => column.clone(),
    };
    let mut order = vec![format!("{name}i")];
    if unroll_v {
        order.push(inner_v.clone());
    }
    order.extend(reductions.iter().rev().map(|&d| match panel {
        Panel::InputBlocks(r, _) if r == d => format!("{}i", task.dims[d]),
        _ => task.dims[d].clone(),
    }));
    // The other parallel loops, innermost first, with their dimensions.
    let mut around: Vec<(String, usize)> = Vec::new();
    for &d in parallel.iter().rev() {
        if d == v && unroll_v {
            if split_v {
                around.push((format!("{column}o"), d));
            }
        } else if d != w {
            around.push((task.dims[d].clone(), d));
        }
    }
    // The block loop just outside the outermost of them that the packed
    // input's index does not use (the batch), so that each block is packed
    // once; innermost when the input uses them all.
    let unused = unused_by(op, input, parallel);
    let outside = around
        .iter()
        .rposition(|(_, d)| unused.contains(d))
        .map_or(0, |i| i + 1);
    let mut names: Vec<String> = around.into_iter().map(|(n, _)| n).collect();
    let (at, pack_at, mut chain) = match panel {
        Panel::Resident => {
            // The pack point: a loop of one iteration over all of `w`,
            // outermost (packed at a loop the filter does not use, it
            // would be packed again at each of its iterations).
            let (whole, rest) = (format!("{name}p"), format!("{name}r"));
            let at = usize::from(split_v);
            if at >= outside || task.dims.contains(&whole) || task.dims.contains(&rest) {
                return None;
            }
            names.push(whole.clone());
            let split = format!(
                ".split({name}, {whole}, {rest}, {}).split({rest}, {name}o, {name}i, {tile})",
                task.extents[w]
            );
            (at, whole, split)
        }
        _ => (
            outside,
            format!("{name}o"),
            format!(".split({name}, {name}o, {name}i, {tile})"),
        ),
    };
    names.insert(at, format!("{name}o"));
    if let Panel::InputBlocks(r, _) = panel {
        names.insert(at, format!("{}o", task.dims[r]));
    }
    order.extend(names);
    if split_v {
        chain.push_str(&format!(".split({column}, {column}o, {column}i, {factor})"));
    }
    let mut splits = vec![(w, true), (v, split_v)];
    if let Panel::InputBlocks(r, size) = panel {
        let c = &task.dims[r];
        chain.push_str(&format!(".split({c}, {c}o, {c}i, {size})"));
        splits.push((r, true));
    }
    chain.push_str(&reorder(&task.dims, &splits, &order));
    if tile > lanes {
        chain.push_str(&format!(".vectorize({name}i, {lanes}).unroll({name}i)"));
    } else {
        chain.push_str(&format!(".vectorize({name}i)"));
    }
    if unroll_v {
        chain.push_str(&format!(".unroll({inner_v})"));
    }
    chain.push_str(&format!(".pack(in{input}, {pack_at}, {name})"));
    Some((chain, order))
}
