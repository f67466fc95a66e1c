//! Candidates that sum a reduction's partial results side by side
//! (`rfactor`): for a single sum, maximum or minimum read along its inputs'
//! rows, where vectorizing the output would read across them.

use crate::candidate::Candidate;
use crate::tasks::Task;
use schedule_lang::{MapResult, PayloadOp};

/// The dimension an operand's map has innermost, when it is a plain dimension.
pub(crate) fn innermost(map: &[MapResult]) -> Option<usize> {
    match map.last() {
        Some(MapResult::Dim(d)) => Some(*d),
        _ => None,
    }
}

/// Combiners whose partial results `rfactor` may sum in another order, and
/// that vectorize.
const RFACTOR_COMBINERS: [&str; 3] = ["arith.addf", "arith.maximumf", "arith.minimumf"];

/// For a single reduction that every input reading it reads innermost (a
/// transposed weight a feeder inlines, read in place, counts: its rows are
/// the reduction), while the output's innermost dimension is read across
/// rows or has one point (a classifier's dot products, a layer norm's or a
/// softmax's row sums): the reduction split by one, two or four machine
/// vectors, that many partial results summed side by side (`rfactor`),
/// vectorized, and combined after the loop; and each also over [`ROWS`]
/// points of the output at once, unrolled (one chain of additions waits
/// on the last at every step: a vector-matrix product bound by reading
/// its weights ran 25% slower so than a hand schedule summing 4 rows).
/// With several `threads`, the latter also with its blocks of rows
/// `parallel` (the MNIST CNN's fc1, a vector-matrix product, on two
/// threads: 0.63 ms so, against 0.99 ms for the fastest other candidate).
pub(crate) fn rfactored(
    task: &Task,
    op: &PayloadOp,
    lanes: i64,
    reductions: &[usize],
    threads: usize,
) -> Vec<Candidate> {
    let &[r] = reductions else {
        return Vec::new();
    };
    if !op
        .combiner
        .as_deref()
        .is_some_and(|c| RFACTOR_COMBINERS.contains(&c))
    {
        return Vec::new();
    }
    let fed = |operand: &schedule_lang::OperandInfo| {
        operand.producer.is_some_and(|p| task.feeders.contains(&p))
    };
    let inputs: Vec<_> = op.operands.iter().filter(|o| !o.is_init).collect();
    // Where the reduction is in each input's rows: innermost, or (for a
    // transposed weight read in place) outermost of two.
    let reads_rows = |o: &&schedule_lang::OperandInfo| {
        let has = o.map.contains(&MapResult::Dim(r));
        !has || if fed(o) {
            o.map.len() == 2 && o.map[0] == MapResult::Dim(r)
        } else {
            innermost(&o.map) == Some(r)
        }
    };
    if !inputs.iter().all(reads_rows) || !inputs.iter().any(|o| o.map.contains(&MapResult::Dim(r)))
    {
        return Vec::new();
    }
    let name = &task.dims[r];
    let (outer, inner, partial) = (format!("{name}o"), format!("{name}i"), format!("{name}u"));
    if task.dims.contains(&outer) || task.dims.contains(&inner) || task.dims.contains(&partial) {
        return Vec::new();
    }
    let rows = output_rows(task, op, r);
    let tiles = [1, 2, 4]
        .into_iter()
        .map(|vectors| vectors * lanes)
        .filter(|tile| task.extents[r] % tile == 0 && task.extents[r] >= 2 * tile);
    let mut out = Vec::new();
    for tile in tiles {
        // The loop of partial results cannot be split: vectorized whole,
        // one to four machine vectors wide.
        let rfactor =
            format!(".split({name}, {outer}, {inner}, {tile}).rfactor({inner}, {partial})");
        let candidate = |chain: String, unrolled: i64, tiled: Vec<usize>| Candidate {
            chain,
            lanes,
            vector_extent: tile,
            vector_tile: tile,
            unroll_extent: unrolled,
            unroll_tile: unrolled,
            second_extent: 1,
            second_tile: 1,
            tiled,
            packed: false,
            streamed_panel: false,
            reduction_points: task.extents[r],
            strided_vector: false,
            loads: None,
            held: None,
            tile: None,
        };
        out.push(candidate(
            format!("{rfactor}.vectorize({partial})"),
            1,
            vec![r],
        ));
        if let Some((d, order)) = &rows {
            let row = &task.dims[*d];
            let chain = format!(
                ".split({row}, {row}o, {row}i, {ROWS}){rfactor}.reorder({partial}, {row}i, {outer}, {row}o{order}).vectorize({partial}).unroll({row}i)"
            );
            if threads > 1 {
                let parallel = format!("{chain}.parallel({row}o)");
                out.push(candidate(parallel, ROWS, vec![r, *d]));
            }
            out.push(candidate(chain, ROWS, vec![r, *d]));
        }
    }
    out
}

/// Rows of the output summed side by side ([`output_rows`]): independent
/// chains of additions, each vector of the reduction's input read once
/// for all of them.
const ROWS: i64 = 4;

/// The output's innermost dimension, when [`ROWS`] of its points can be
/// summed side by side (it divides, with two such blocks at least; names
/// free), and the other dimensions after it in a `reorder`, innermost
/// first, each behind a comma.
fn output_rows(task: &Task, op: &PayloadOp, r: usize) -> Option<(usize, String)> {
    let init = op.operands.iter().find(|o| o.is_init)?;
    let d = innermost(&init.map)?;
    let name = &task.dims[d];
    let free = |n: String| !task.dims.contains(&n);
    if task.extents[d] % ROWS != 0
        || task.extents[d] < 2 * ROWS
        || !free(format!("{name}o"))
        || !free(format!("{name}i"))
    {
        return None;
    }
    let rest: String = (0..task.dims.len())
        .rev()
        .filter(|&e| e != d && e != r)
        .map(|e| format!(", {}", task.dims[e]))
        .collect();
    Some((d, rest))
}
