//! The candidate schedules of one task, as chains of directives the person
//! reading the output would write: the output's innermost dimension
//! vectorized (one to four machine vectors, a divisor of the extent, or the
//! whole extent), one or two other parallel dimensions unrolled beside it
//! (the register tile), the reductions inside (either order; unrolled when
//! they are a small window), the rest outside (either order), a matmul's
//! shared operand packed per column block (also per block of a long
//! reduction, [`LONG_REDUCTION`]); for windowed ops also a parallel
//! dimension the output does not keep innermost vectorized from an input
//! packed with it innermost, alone or inside a few of the output's innermost
//! points unrolled; for a single reduction along the inputs' rows, its
//! partial results side by side (`rfactor`), vectorized; for a reduction
//! whose output's rows and columns `fuse` makes one run of pixels (a 1x1
//! convolution), the pixels vectorized beside a block of output channels
//! ([`crate::pixels`]). With several
//! threads, each also with its outermost loop of several iterations parallel.

pub use crate::candidate::{Candidate, RegisterTile};
use crate::loops::{parallel_mark, reorder, unused_by};
use crate::partials::rfactored;
use crate::tasks::Task;
use schedule_lang::{MapResult, PayloadOp};

/// Reductions of this many steps or more (a classifier's k = 6272) are also
/// tried in blocks, the packed input packed per block.
pub const LONG_REDUCTION: i64 = 4096;

/// The block of a long reduction a packed candidate also tries: its largest
/// divisor of at most 2048 steps (1568 of 6272), if that is at least 256.
fn reduction_block(extent: i64) -> Option<i64> {
    (extent >= LONG_REDUCTION)
        .then(|| (256..=2048).rev().find(|b| extent % b == 0))
        .flatten()
}

/// Every candidate of `task` (its first op `op`), `lanes` floats per vector.
/// With `threads` above one, each candidate also comes with its outermost
/// loop of several iterations `parallel`.
pub fn candidates(task: &Task, op: &PayloadOp, lanes: i64, threads: usize) -> Vec<Candidate> {
    let parallel: Vec<usize> = (0..task.dims.len())
        .filter(|&d| !task.reduction[d])
        .collect();
    let reductions: Vec<usize> = (0..task.dims.len())
        .filter(|&d| task.reduction[d])
        .collect();
    let Some(init) = op.operands.iter().find(|o| o.is_init) else {
        return Vec::new();
    };
    // The output's innermost dimension of more than one point.
    let Some(v) = init.map.iter().rev().find_map(|m| match m {
        MapResult::Dim(d) if task.extents[*d] > 1 && parallel.contains(d) => Some(*d),
        _ => None,
    }) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut unrolled: Vec<usize> = parallel
        .iter()
        .copied()
        .filter(|&d| d != v && task.extents[d] > 1)
        .collect();
    unrolled.sort_by_key(|&d| std::cmp::Reverse(task.extents[d]));
    unrolled.truncate(2);
    let mut unroll_choices: Vec<Option<usize>> = vec![None];
    if !reductions.is_empty() {
        unroll_choices.extend(unrolled.iter().map(|&d| Some(d)));
    }
    let reduction_points: i64 = reductions.iter().map(|&d| task.extents[d]).product();
    // A single long reduction, and the block packed candidates also try.
    let long_block = match reductions[..] {
        [k] if ["o", "i"]
            .iter()
            .all(|s| !task.dims.contains(&format!("{}{s}", task.dims[k]))) =>
        {
            reduction_block(task.extents[k]).map(|b| (k, b))
        }
        _ => None,
    };
    let most = crate::candidate::most_accumulators(lanes);
    for tile in vector_tiles(task.extents[v], lanes) {
        let a = (tile + lanes - 1) / lanes;
        for &u in &unroll_choices {
            let factors: Vec<i64> = match u {
                None => vec![1],
                Some(u) => [2, 3, 4, 5, 6, 7, 8]
                    .into_iter()
                    .filter(|f| *f <= task.extents[u] && a * f <= most)
                    .filter(|f| ![5, 7].contains(f) || task.extents[u] % f == 0)
                    .collect(),
            };
            for factor in factors {
                let mut seconds: Vec<Option<(usize, i64)>> = vec![None];
                if let Some(u) = u {
                    for &d in unrolled.iter().filter(|&&d| d != u) {
                        seconds.extend(
                            [2, 3, 4]
                                .into_iter()
                                .filter(|f| *f <= task.extents[d] && a * factor * f <= most)
                                .map(|f| Some((d, f))),
                        );
                    }
                }
                for &second in &seconds {
                    for (reversed, unroll_reductions) in orders(task, &reductions) {
                        for u_inside in [true, false] {
                            if u.is_none() && !u_inside {
                                continue;
                            }
                            let blocks = |pack: bool| {
                                std::iter::once(None).chain(long_block.filter(|_| pack).map(Some))
                            };
                            for (pack, parallel_loop, k_block) in variants(threads)
                                .into_iter()
                                .flat_map(|(p, l)| blocks(p).map(move |b| (p, l, b)))
                            {
                                let shape = Shape {
                                    task,
                                    v,
                                    tile,
                                    lanes,
                                    u,
                                    factor,
                                    second,
                                    reversed,
                                    unroll_reductions,
                                    u_inside,
                                    parallel: parallel_loop,
                                    k_block,
                                };
                                let packed = if pack { pack_operand(op, &shape) } else { None };
                                if pack && packed.is_none() {
                                    continue;
                                }
                                let packed = packed.map(|i| (i, unused_by(op, i, &parallel)));
                                let Some(chain) = shape.chain(&reductions, &parallel, packed)
                                else {
                                    continue;
                                };
                                let strided_vector = !op.strided_reads(v).is_empty()
                                    || (!pack && across_rows(task, op, v));
                                let gathered = if strided_vector { lanes } else { 1 };
                                out.push(Candidate {
                                    chain,
                                    lanes,
                                    vector_extent: task.extents[v],
                                    vector_tile: shape.tile,
                                    unroll_extent: u.map_or(1, |u| task.extents[u]),
                                    unroll_tile: factor,
                                    second_extent: second.map_or(1, |(d, _)| task.extents[d]),
                                    second_tile: second.map_or(1, |(_, f)| f),
                                    tiled: std::iter::once(v)
                                        .chain(u)
                                        .chain(second.map(|(d, _)| d))
                                        .collect(),
                                    packed: pack,
                                    streamed_panel: pack
                                        && k_block.is_none()
                                        && reductions.len() == 1
                                        && reduction_points >= LONG_REDUCTION,
                                    reduction_points,
                                    strided_vector,
                                    loads: Some(crate::candidate::loads_per_step(
                                        op,
                                        v,
                                        a * gathered,
                                        u.map(|u| (u, factor)).into_iter().chain(second),
                                    )),
                                    // A gathered vector is built in one register.
                                    held: Some(crate::candidate::held_per_step(
                                        op, v, a, u, second,
                                    )),
                                    tile: (!pack).then(|| RegisterTile {
                                        vector: v,
                                        tile: shape.tile,
                                        lanes,
                                        unrolled: u
                                            .map(|u| (u, factor))
                                            .into_iter()
                                            .chain(second)
                                            .collect(),
                                        reductions: shape.reductions_inside_out(&reductions),
                                        unroll_reductions,
                                        packed: None,
                                    }),
                                });
                            }
                        }
                    }
                }
            }
        }
    }
    out.extend(rfactored(task, op, lanes, &reductions, threads));
    if !op.strides().is_empty() {
        out.extend(crate::packed::packed_channels(
            task,
            op,
            lanes,
            v,
            &reductions,
            &parallel,
            threads,
        ));
    }
    out.extend(crate::pixels::fused_pixels(task, op, lanes, threads));
    out.dedup_by(|a, b| a.chain == b.chain);
    out
}

/// Whether an input holds `d` in its map but not innermost in its rows, so
/// a vector along `d` reads across them: a transposed weight a feeder
/// inlines is read in place, its rows the map's first dimension.
fn across_rows(task: &Task, op: &PayloadOp, d: usize) -> bool {
    op.operands.iter().filter(|o| !o.is_init).any(|o| {
        let fed = o.producer.is_some_and(|p| task.feeders.contains(&p));
        let row = if fed && o.map.len() == 2 {
            Some(&o.map[0])
        } else {
            o.map.last()
        };
        o.map.contains(&MapResult::Dim(d)) && row != Some(&MapResult::Dim(d))
    })
}

/// The tiles of the vectorized dimension tried: one to four machine
/// vectors, and the largest divisor of the extent between half a vector and
/// one (14 of 28 or 56: no partial tile), and the whole extent when it is
/// at most four vectors.
fn vector_tiles(extent: i64, lanes: i64) -> Vec<i64> {
    let mut tiles: Vec<i64> = (1..=4)
        .map(|a| a * lanes)
        .filter(|&t| t <= extent)
        .collect();
    if extent < lanes {
        tiles.push(extent);
    } else if extent % lanes != 0 {
        tiles.extend((lanes / 2..lanes).rev().find(|d| extent % d == 0));
        if extent <= 4 * lanes {
            tiles.push(extent);
        }
    }
    tiles
}

/// (pack, parallel) choices: packing or not, and with several threads each
/// also with a parallel loop.
fn variants(threads: usize) -> Vec<(bool, bool)> {
    let mut all = vec![(false, false), (true, false)];
    if threads > 1 {
        all.extend([(false, true), (true, true)]);
    }
    all
}

/// The most points of a reduction window whose loops a candidate unrolls:
/// a 3x3 kernel's 9 fit; a 7x7 stem's 3 x 7 x 7 = 147 copies of a register
/// tile's body kept LLVM's MemorySSA updater busy for over 17 minutes.
const MOST_UNROLLED_WINDOW_POINTS: i64 = 16;

/// The reduction loops tried: (reversed, unrolled): linalg order innermost
/// first, and reversed; each also unrolled when every reduction is a small
/// window (2 to 7 points, at most [`MOST_UNROLLED_WINDOW_POINTS`] in all: a
/// 3x3 kernel's, as a depthwise convolution wants).
fn orders(task: &Task, reductions: &[usize]) -> Vec<(bool, bool)> {
    let reversed: &[bool] = if reductions.len() > 1 {
        &[false, true]
    } else {
        &[false]
    };
    let points: i64 = reductions.iter().map(|&d| task.extents[d]).product();
    let small = !reductions.is_empty()
        && points <= MOST_UNROLLED_WINDOW_POINTS
        && reductions
            .iter()
            .all(|&d| (2..=7).contains(&task.extents[d]));
    let unrolled: &[bool] = if small { &[false, true] } else { &[false] };
    reversed
        .iter()
        .flat_map(|&r| unrolled.iter().map(move |&u| (r, u)))
        .collect()
}

/// A register-tile candidate's choices.
struct Shape<'t> {
    task: &'t Task,
    v: usize,
    tile: i64,
    lanes: i64,
    u: Option<usize>,
    factor: i64,
    second: Option<(usize, i64)>,
    reversed: bool,
    unroll_reductions: bool,
    u_inside: bool,
    parallel: bool,
    /// The reduction split into blocks of this many steps, the packed
    /// input packed per block (`ko`), and the block loop just inside the
    /// vectorized dimension's block loop.
    k_block: Option<(usize, i64)>,
}

impl Shape<'_> {
    fn name(&self, d: usize) -> &str {
        &self.task.dims[d]
    }

    /// The loop names a split of `d` by `factor` leaves: (outer, inner);
    /// no outer loop when the factor covers the dimension.
    fn split(&self, d: usize, factor: i64) -> (Option<String>, String) {
        if factor >= self.task.extents[d] {
            (None, self.name(d).to_string())
        } else {
            (
                Some(format!("{}o", self.name(d))),
                format!("{}i", self.name(d)),
            )
        }
    }

    /// The reductions' loops, innermost first.
    fn reductions_inside_out(&self, reductions: &[usize]) -> Vec<usize> {
        let mut reduced = reductions.to_vec();
        if self.reversed {
            reduced.reverse();
        }
        reduced
    }

    /// The outer loop of the vectorized dimension, if it has one.
    fn vector_outer(&self) -> Option<String> {
        self.split(self.v, self.tile).0
    }

    /// The chain; `None` for a parallel candidate with no loop to make
    /// parallel. `pack`: the input packed per block of the vectorized
    /// dimension, with the parallel dimensions its index does not use,
    /// whose loops then run inside the block's so that each block is packed
    /// once (`check`'s repeated-pack warning).
    fn chain(
        &self,
        reductions: &[usize],
        parallel: &[usize],
        pack: Option<(usize, Vec<usize>)>,
    ) -> Option<String> {
        let mut chain = String::new();
        let (v_outer, v_inner) = self.split(self.v, self.tile);
        if v_outer.is_some() {
            chain.push_str(&format!(
                ".split({}, {}o, {}i, {})",
                self.name(self.v),
                self.name(self.v),
                self.name(self.v),
                self.tile
            ));
        }
        let u_outer_split = self.u.is_some_and(|u| self.factor < self.task.extents[u]);
        let (u_outer, u_inner) = match self.u {
            Some(u) => {
                let (outer, inner) = self.split(u, self.factor);
                if outer.is_some() {
                    let n = self.name(u);
                    chain.push_str(&format!(".split({n}, {n}o, {n}i, {})", self.factor));
                }
                (outer, Some(inner))
            }
            None => (None, None),
        };
        let (s_outer, s_inner) = match self.second {
            Some((d, factor)) => {
                let (outer, inner) = self.split(d, factor);
                if outer.is_some() {
                    let n = self.name(d);
                    chain.push_str(&format!(".split({n}, {n}o, {n}i, {factor})"));
                }
                (outer, Some(inner))
            }
            None => (None, None),
        };
        let mut order: Vec<String> = vec![v_inner.clone()];
        order.extend(u_inner.clone());
        order.extend(s_inner.clone());
        if let Some((k, block)) = self.k_block {
            let n = self.name(k);
            chain.push_str(&format!(".split({n}, {n}o, {n}i, {block})"));
        }
        let k_names = self.k_block.map(|(k, _)| (format!("{}o", self.name(k)), k));
        let reduced = self.reductions_inside_out(reductions);
        order.extend(reduced.iter().map(|&d| match &k_names {
            Some((_, k)) if *k == d => format!("{}i", self.name(d)),
            _ => self.name(d).to_string(),
        }));
        let second = self.second.map(|(d, _)| d);
        // The loops outside the vectorized dimension's block loop: the
        // second unrolled dimension's block, then the other parallel
        // dimensions, innermost first.
        let mut around: Vec<(String, usize)> = Vec::new();
        if let (Some(name), Some(d)) = (s_outer.clone(), second) {
            around.push((name, d));
        }
        for &d in parallel.iter().rev() {
            if d != self.v && Some(d) != self.u && Some(d) != second {
                around.push((self.name(d).to_string(), d));
            }
        }
        // With a pack at the block loop, the loops its input does not use
        // move inside it.
        let unused = pack.as_ref().filter(|_| v_outer.is_some()).map(|(_, u)| u);
        let (inside, outside): (Vec<_>, Vec<_>) = around
            .into_iter()
            .partition(|(_, d)| unused.is_some_and(|u| u.contains(d)));
        let k_outer = k_names.as_ref().map(|(name, _)| name.clone());
        if self.u_inside {
            order.extend(u_outer);
            order.extend(inside.into_iter().map(|(name, _)| name));
            order.extend(k_outer.clone());
            order.extend(v_outer.clone());
        } else {
            order.extend(inside.into_iter().map(|(name, _)| name));
            order.extend(k_outer.clone());
            order.extend(v_outer.clone());
            order.extend(u_outer);
        }
        order.extend(outside.into_iter().map(|(name, _)| name));
        let mut splits = vec![
            (self.v, v_outer.is_some()),
            (self.u.unwrap_or(self.v), u_outer_split),
            (second.unwrap_or(self.v), s_outer.is_some()),
        ];
        splits.extend(self.k_block.map(|(k, _)| (k, true)));
        chain.push_str(&reorder(&self.task.dims, &splits, &order));
        if self.tile > self.lanes {
            chain.push_str(&format!(
                ".vectorize({v_inner}, {}).unroll({v_inner})",
                self.lanes
            ));
        } else {
            chain.push_str(&format!(".vectorize({v_inner})"));
        }
        for inner in u_inner.iter().chain(&s_inner) {
            chain.push_str(&format!(".unroll({inner})"));
        }
        if self.unroll_reductions {
            for &d in reductions {
                chain.push_str(&format!(".unroll({})", self.name(d)));
            }
        }
        if let (Some((input, _)), Some(outer)) = (pack, v_outer.clone()) {
            // The vectorized dimension innermost in the buffer, whatever the
            // input's layout (a weight read through its inlined transpose);
            // per block of the reduction when it is blocked.
            let v = self.name(self.v);
            let at = k_outer.unwrap_or(outer);
            chain.push_str(&format!(".pack(in{input}, {at}, {v})"));
        }
        if self.parallel {
            let trips = |d: usize, factor: i64| (self.task.extents[d] + factor - 1) / factor;
            let mut outer: Vec<(String, i64)> = Vec::new();
            outer.extend(v_outer.map(|n| (n, trips(self.v, self.tile))));
            outer.extend(u_outer_name(self).map(|(n, d)| (n, trips(d, self.factor))));
            if let (Some(n), Some((d, f))) = (s_outer, self.second) {
                outer.push((n, trips(d, f)));
            }
            for &d in parallel {
                outer.push((self.name(d).to_string(), self.task.extents[d]));
            }
            chain.push_str(&parallel_mark(&order, &outer)?);
        }
        Some(chain)
    }
}

/// The unrolled dimension's outer loop and dimension, when it is split.
fn u_outer_name(shape: &Shape<'_>) -> Option<(String, usize)> {
    let u = shape.u?;
    let (outer, _) = shape.split(u, shape.factor);
    outer.map(|n| (n, u))
}

/// The input a matmul-like candidate packs per block of the vectorized
/// dimension: one indexed by it and a reduction but not by the unrolled
/// dimension (a matmul's B), when that block's loop is outside the unrolled
/// dimension's outer loop and there is a reduction to reuse it over.
fn pack_operand(op: &PayloadOp, shape: &Shape<'_>) -> Option<usize> {
    let u = shape.u?;
    shape.vector_outer()?;
    if !shape.u_inside {
        return None;
    }
    let uses = |map: &[MapResult], d: usize| map.contains(&MapResult::Dim(d));
    op.operands
        .iter()
        .enumerate()
        .filter(|(_, o)| !o.is_init)
        .find(|(_, o)| {
            uses(&o.map, shape.v)
                && !uses(&o.map, u)
                && o.map
                    .iter()
                    .any(|m| matches!(m, MapResult::Dim(d) if shape.task.reduction[*d]))
        })
        .map(|(i, _)| i)
}
