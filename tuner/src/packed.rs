//! The candidates of windowed ops (convolutions, pools) that vectorize a
//! dimension other than the output's innermost: output channels, read
//! from the filter packed with them innermost, beside a few output columns
//! unrolled (a register tile of broadcast inputs).

use crate::candidate::{Candidate, RegisterTile};
use crate::loops::{parallel_mark, reorder, unused_by};
use crate::partials::innermost;
use crate::tasks::Task;
use schedule_lang::{MapResult, PayloadOp};

/// For a windowed op: a parallel dimension other than the output's
/// innermost, which an input (the filter) has but not innermost,
/// vectorized from that input packed with it innermost (a stride-2
/// convolution's output channels), alone or inside 4, 7 or 8 of the output's
/// innermost points unrolled, or all of them where there are 8 or fewer (a
/// register tile of broadcast inputs; at stride 2 each read from every
/// second element).
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
        let column = &task.dims[v];
        for a in [1, 2, 4] {
            let tile = a * lanes;
            if tile >= task.extents[w] {
                break;
            }
            let columns = [1, 4, 7, 8].into_iter().filter(|&f| {
                f == 1 || (f <= task.extents[v] && task.extents[v] % f == 0 && a * f <= most)
            });
            for factor in columns {
                let chain = packed_chain(
                    task,
                    op,
                    (w, tile, lanes),
                    (v, factor),
                    reductions,
                    parallel,
                    input,
                );
                let mut chains = vec![chain.0.clone()];
                if threads > 1 {
                    let mut trips = vec![(format!("{name}o"), (task.extents[w] + tile - 1) / tile)];
                    if factor > 1 && factor < task.extents[v] {
                        trips.push((format!("{column}o"), task.extents[v] / factor));
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
                        unroll_extent: if factor > 1 { task.extents[v] } else { 1 },
                        unroll_tile: factor,
                        second_extent: 1,
                        second_tile: 1,
                        tiled: std::iter::once(w)
                            .chain((factor > 1).then_some(v))
                            .collect(),
                        packed: true,
                        streamed_panel: false,
                        reduction_points: reductions.iter().map(|&d| task.extents[d]).product(),
                        strided_vector: !op.strided_reads(w).is_empty(),
                        loads: Some(crate::candidate::loads_per_step(
                            op,
                            w,
                            (tile + lanes - 1) / lanes,
                            (factor > 1).then_some((v, factor)).into_iter(),
                        )),
                        tile: Some(RegisterTile {
                            vector: w,
                            tile,
                            lanes,
                            unrolled: if factor > 1 {
                                vec![(v, factor)]
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

/// The chain of a packed-channels candidate and its loop order: `w` split
/// by `tile` and vectorized (in machine vectors of `lanes`, unrolled),
/// inside `factor` points of `v` unrolled (none when 1; `v` not split when
/// that is all of it), the reductions
/// around them, then the other loops, `w`'s block loop outside those the
/// packed input does not use.
fn packed_chain(
    task: &Task,
    op: &PayloadOp,
    (w, tile, lanes): (usize, i64, i64),
    (v, factor): (usize, i64),
    reductions: &[usize],
    parallel: &[usize],
    input: usize,
) -> (String, Vec<String>) {
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
    order.extend(reductions.iter().rev().map(|&d| task.dims[d].clone()));
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
    let at = around
        .iter()
        .rposition(|(_, d)| unused.contains(d))
        .map_or(0, |i| i + 1);
    let mut names: Vec<String> = around.into_iter().map(|(n, _)| n).collect();
    names.insert(at, format!("{name}o"));
    order.extend(names);
    let mut chain = format!(".split({name}, {name}o, {name}i, {tile})");
    if split_v {
        chain.push_str(&format!(".split({column}, {column}o, {column}i, {factor})"));
    }
    chain.push_str(&reorder(&task.dims, &[(w, true), (v, split_v)], &order));
    if tile > lanes {
        chain.push_str(&format!(".vectorize({name}i, {lanes}).unroll({name}i)"));
    } else {
        chain.push_str(&format!(".vectorize({name}i)"));
    }
    if unroll_v {
        chain.push_str(&format!(".unroll({inner_v})"));
    }
    chain.push_str(&format!(".pack(in{input}, {name}o, {name})"));
    (chain, order)
}
