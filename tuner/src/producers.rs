//! The second decision made on the whole model, after the inlining one:
//! ops tuned with a register tile (convolutions) computed in the tiles of
//! the activation reading them (through the batch norm steps inlined into
//! it), so that each output tile goes through the activation while in
//! registers and cache instead of being written whole and read back. The
//! activation is tiled as the producer's register tile (its rows
//! vectorized, the other tiled dimensions' blocks around), the producer
//! computed at the innermost block loop with its own tile inside, a packed
//! input packed once per block. Kept per activation kind where the whole
//! model, measured, runs faster so.

use crate::candidate::RegisterTile;
pub use crate::fused::{ComputedIn, Fusion};
use crate::loops::{parallel_mark, reorder, vectorized};
use crate::paired::keep_faster;
use crate::tasks::Task;
use crate::{paired, Model, Session, TaskResult};
use schedule_lang::{IteratorKind, MapResult, PayloadInfo, PayloadOp};

/// What the whole model measured.
pub struct Decision {
    /// Kinds of activation that could take their producers in, and those
    /// that do.
    pub possible: usize,
    pub readers: usize,
    /// Pairs of variants of their tiles timed on their ops alone ([`crate::fused`]).
    pub variant_pairs: usize,
    /// Seconds with none and with all of them (one interleaved pair), or
    /// why they could not be measured.
    pub together: Result<(f64, f64), String>,
    /// When they were tried one by one: the last one kept, its pair's
    /// seconds without and with it.
    pub last_kept: Option<(f64, f64)>,
}

/// Tries every fusion [`variants`] finds that plans cleanly on the whole
/// model, for each reader the variant fastest on its ops alone
/// ([`crate::fused`]): all together against none, and when that is not faster, one by
/// one (biggest first, while another pair ends before the session has
/// spent `deadline` seconds measuring) against those kept so far, each
/// pair timed with their calls interleaved ([`paired`]); keeps what makes
/// the model faster. `None` when no fusion applies.
pub fn compute_in_readers(
    model: &Model<'_>,
    results: &mut [TaskResult],
    session: &mut Session<'_>,
    deadline: f64,
) -> Result<Option<Decision>, String> {
    let mut all = Vec::new();
    let mut variant_pairs = 0;
    for mut options in variants(model.info, results, session.options.threads) {
        options.retain(|fusion| {
            apply(results, &[fusion]);
            let clean = model.plans(&model.schedule(results));
            apply(results, &[]);
            clean
        });
        if options.is_empty() {
            continue;
        }
        let chosen = crate::fused::fastest(model, results, &options, session)?;
        variant_pairs += chosen.pairs;
        all.push(options.swap_remove(chosen.index));
    }
    if all.is_empty() {
        return Ok(None);
    }
    all.sort_by(|a, b| b.flops.total_cmp(&a.flops));
    let key = model.key();
    let every: Vec<&Fusion> = all.iter().collect();
    let decided = keep_faster(&every, session, deadline, |session, base, trial| {
        apply(results, base);
        let base = model.schedule(results);
        apply(results, trial);
        let trial = model.schedule(results);
        paired(&key, model.name, (&base, &trial), model.text, session)
    })?;
    apply(results, &decided.kept);
    Ok(Some(Decision {
        variant_pairs,
        possible: every.len(),
        readers: decided.kept.len(),
        together: decided.together,
        last_kept: decided.last_kept,
    }))
}

/// Sets `results` to compute the producers of `on` in their readers'
/// tiles, and no others.
pub fn apply(results: &mut [TaskResult], on: &[&Fusion]) {
    for result in results.iter_mut() {
        result.computed_in = None;
        result.tiled = None;
    }
    for fusion in on {
        results[fusion.reader].tiled = Some(fusion.tiled.clone());
        for (producer, computed_in) in &fusion.producers {
            results[*producer].computed_in = Some(computed_in.clone());
        }
    }
}

/// The fusions possible: for each activation kind (an elementwise result
/// not inlined, bound by its own conditions) whose ops read the results of
/// ops tuned with a register tile, each through inlined elementwise ops
/// alone, every op of those results read so by an op of this kind. The
/// reader is tiled as the biggest of them; the others join where the
/// dimensions their tiles vectorize and unroll are tiled in it too. The
/// first of [`variants`] for each reader.
pub fn fusions(info: &PayloadInfo, results: &[TaskResult], threads: usize) -> Vec<Fusion> {
    variants(info, results, threads)
        .into_iter()
        .filter_map(|v| v.into_iter().next())
        .collect()
}

/// Tile shapes of a reader's biggest producer tried at most ([`variants`]).
pub const VARIANTS: usize = 3;

/// For each reader, its fusions (as [`fusions`] describes them) with the
/// biggest producer's tiles of different shapes within [`TILE_SLACK`] (a
/// pool: [`POOL_TILE_SLACK`]) of its best, fastest alone first, at most
/// [`VARIANTS`]: which one is fastest in the reader's tiles is measured
/// ([`crate::fused`]).
pub fn variants(info: &PayloadInfo, results: &[TaskResult], threads: usize) -> Vec<Vec<Fusion>> {
    let owner = |op: usize| results.iter().position(|r| r.task.ops.contains(&op));
    // Each tiled result's reader, when all its ops have one of one kind,
    // and its first op's group (the op, and its path to that reader).
    let mut readers: Vec<(usize, usize, Vec<usize>)> = Vec::new();
    let widest = TILE_SLACK.max(POOL_TILE_SLACK);
    for (index, result) in results.iter().enumerate() {
        if tile_options(result, widest).next().is_none()
            || result.inlined
            || result.conditions.is_none()
        {
            continue;
        }
        let paths: Option<Vec<Vec<usize>>> = result
            .task
            .ops
            .iter()
            .map(|&op| path_to_reader(info, results, op))
            .collect();
        let Some(paths) = paths else {
            continue;
        };
        let ends: Option<Vec<usize>> = paths.iter().map(|p| owner(*p.last()?)).collect();
        if let Some(ends) = ends {
            if ends.iter().all(|&e| e == ends[0]) {
                let group = std::iter::once(result.task.ops[0])
                    .chain(paths[0].iter().copied())
                    .collect();
                readers.push((index, ends[0], group));
            }
        }
    }
    let flops = |p: usize| results[p].task.flops as f64 * results[p].task.ops.len() as f64;
    let mut out: Vec<Vec<Fusion>> = Vec::new();
    let mut done: Vec<usize> = Vec::new();
    for &(_, reader, _) in &readers {
        if done.contains(&reader) || results[reader].conditions.is_none() {
            continue;
        }
        done.push(reader);
        let mine = || readers.iter().filter(|(_, r, _)| *r == reader);
        let all: Vec<usize> = mine().map(|(p, _, _)| *p).collect();
        let Some((first, _, group)) = mine().max_by(|a, b| flops(a.0).total_cmp(&flops(b.0)))
        else {
            continue;
        };
        let first = *first;
        let mut shapes: Vec<&RegisterTile> = Vec::new();
        let mut options = Vec::new();
        let slack = slack_of(info, &results[reader]);
        for tile in tile_options(&results[first], slack) {
            if options.len() == VARIANTS {
                break;
            }
            if shapes.iter().any(|s| s.same_shape(tile)) {
                continue;
            }
            let place = Place {
                info,
                results,
                reader,
                first,
                all: &all,
                threads,
                slack,
            };
            let made = fusions_with(&place, tile);
            if !made.is_empty() {
                shapes.push(tile);
            }
            for (tiled, producers) in made.into_iter().take(VARIANTS - options.len()) {
                let init = producers
                    .iter()
                    .find(|(p, c)| *p == first && c.init_at.is_some())
                    .and_then(|_| crate::fused::init_broadcast(info, results[first].task.ops[0]));
                options.push(Fusion {
                    reader,
                    tiled,
                    flops: producers.iter().map(|(p, _)| flops(*p)).sum(),
                    producers,
                    group: group.clone(),
                    init,
                });
            }
        }
        if !options.is_empty() {
            out.push(options);
        }
    }
    out
}

/// Where fusions are made: a reader's result and its producers' (`first`
/// the biggest of `all`), with the payload, every result and the threads.
struct Place<'a> {
    info: &'a PayloadInfo,
    results: &'a [TaskResult],
    reader: usize,
    first: usize,
    all: &'a [usize],
    threads: usize,
    /// How much slower than their best the producers' tiles may be.
    slack: f64,
}

/// The reader's chains and each producer computed in its tiles, the
/// biggest with register tile `tile` and the others with one of theirs that
/// tiles the reader alike; none when the reader cannot be tiled as `tile`.
/// A pool's rows ([`crate::pooled`]: in blocks of the tile's channels,
/// then of twice them) or an activation's tiles ([`reader_tiles`]: one).
fn fusions_with(place: &Place<'_>, tile: &RegisterTile) -> Vec<(String, Vec<(usize, ComputedIn)>)> {
    let task = &place.results[place.reader].task;
    if crate::pooled::is_pool(place.info, task.ops[0]) {
        return (1..=2)
            .filter_map(|widen| pool_fusion(place, tile, widen))
            .collect();
    }
    rows_fusion(place, tile).into_iter().collect()
}

/// The reader's chain and each producer computed in its tiles, as `make`
/// computes a producer with a tile of its: the biggest with `tile`, the
/// others with the first of theirs that tiles the reader alike.
fn fusion_by(
    place: &Place<'_>,
    tile: &RegisterTile,
    make: impl Fn(usize, &RegisterTile) -> Option<(String, ComputedIn)>,
) -> Option<(String, Vec<(usize, ComputedIn)>)> {
    let (chain, _) = make(place.first, tile)?;
    let producers = place
        .all
        .iter()
        .filter_map(|&p| {
            let (_, computed) = match p == place.first {
                true => make(p, tile),
                false => tile_options(&place.results[p], place.slack)
                    .filter_map(|t| make(p, t))
                    .find(|(reader_chain, _)| *reader_chain == chain),
            }?;
            Some((p, computed))
        })
        .collect();
    Some((chain, producers))
}

/// [`fusions_with`] for a pool, in blocks of `widen` times the tile's
/// channels.
fn pool_fusion(
    place: &Place<'_>,
    tile: &RegisterTile,
    widen: i64,
) -> Option<(String, Vec<(usize, ComputedIn)>)> {
    let task = &place.results[place.reader].task;
    fusion_by(place, tile, |p, tile| {
        let result = &place.results[p];
        let pooled = crate::pooled::tiles(place.info, result, tile, widen, task, place.threads)?;
        let computed = ComputedIn {
            reader: place.reader,
            at: pooled.at,
            chain: pooled.producer_chain,
            init_at: pooled.init_at,
        };
        Some((pooled.reader_chain, computed))
    })
}

/// [`fusions_with`] for an activation, tiled as the biggest producer's
/// `tile`.
fn rows_fusion(
    place: &Place<'_>,
    tile: &RegisterTile,
) -> Option<(String, Vec<(usize, ComputedIn)>)> {
    let task = &place.results[place.reader].task;
    let first = &place.results[place.first];
    let tiles = reader_tiles(place.info, first, tile, task, place.threads)?;
    fusion_by(place, tile, |p, tile| {
        let chain = producer_chain(place.info, &place.results[p], tile, &tiles)?;
        let computed = ComputedIn {
            reader: place.reader,
            at: tiles.at.clone(),
            chain,
            init_at: None,
        };
        Some((tiles.chain.clone(), computed))
    })
}

/// The ops the result of `op` goes through to its reader: elementwise ops
/// the schedule inlines, each reading it with the same indices (an
/// identity map) and the only op reading it, then the first such reader
/// not inlined, or a pool reading it in whole windows
/// ([`crate::pooled::reads_in_windows`]) (last).
fn path_to_reader(info: &PayloadInfo, results: &[TaskResult], op: usize) -> Option<Vec<usize>> {
    let mut current = op;
    let mut path = Vec::new();
    loop {
        let one = [current];
        let reads: Vec<_> = info.reads_of(&one).collect();
        let [(reader, operand)] = reads.as_slice() else {
            return None;
        };
        if crate::pooled::reads_in_windows(reader, operand) {
            path.push(reader.id);
            return Some(path);
        }
        let identity = operand.via.is_empty()
            && !operand.is_init
            && reader.kind == "linalg.generic"
            && reader
                .iterators
                .iter()
                .all(|k| *k == IteratorKind::Parallel)
            && operand.map.len() == reader.iterators.len()
            && operand
                .map
                .iter()
                .enumerate()
                .all(|(i, m)| *m == MapResult::Dim(i));
        if !identity {
            return None;
        }
        let inlined = results
            .iter()
            .any(|r| r.inlined && r.task.ops.contains(&reader.id));
        path.push(reader.id);
        if !inlined {
            return Some(path);
        }
        current = reader.id;
    }
}

/// How much slower than a result's best candidate one may be whose
/// register tile a reader can take over (the best's may not divide it):
/// computed in the reader's tiles, the output is not written and read back.
pub(crate) const TILE_SLACK: f64 = 1.25;

/// How much slower than its best a convolution's register tile may be for
/// the pool reading it to compute it in its rows ([`crate::pooled`]): the
/// pool's loops are the parallel ones there, and a tile measured alone on
/// several threads without a parallel loop of its own ran at one thread's
/// speed (the MNIST CNN's conv2 on two threads: 16 channels by 7 columns
/// 3.968 ms, against 2.576 ms for the best, which vectorizes the batch and
/// cannot be computed in the pool's rows; in them, the whole model ran
/// 6.32-6.38 ms against 7.45 ms apart).
pub(crate) const POOL_TILE_SLACK: f64 = 2.0;

/// The slack a reader gives its producers' tiles.
fn slack_of(info: &PayloadInfo, reader: &TaskResult) -> f64 {
    match crate::pooled::is_pool(info, reader.task.ops[0]) {
        true => POOL_TILE_SLACK,
        false => TILE_SLACK,
    }
}

/// The register tiles of `result`'s candidates within `slack` times its
/// best ([`TILE_SLACK`], [`POOL_TILE_SLACK`]), fastest first.
fn tile_options(result: &TaskResult, slack: f64) -> impl Iterator<Item = &RegisterTile> {
    let best = result.best.as_ref().map_or(0.0, |b| b.1);
    result
        .tiles
        .iter()
        .filter(move |(_, seconds)| *seconds <= best * slack)
        .map(|(tile, _)| tile)
}

/// A reader tiled as a producer's register tile.
struct ReaderTiles {
    /// The reader's chain, and the loop the producers are computed at.
    chain: String,
    at: String,
    /// Each tiled dimension of the reader: its tile and outer loop (none
    /// when the tile covers it).
    tiled: Vec<(usize, i64, Option<String>)>,
    lanes: i64,
}

/// The dimensions of `op`'s result (`Dim`s of its init map, in order).
fn output_dims(op: &PayloadOp) -> Option<Vec<usize>> {
    let init = op.operands.iter().find(|o| o.is_init)?;
    init.map
        .iter()
        .map(|m| match m {
            MapResult::Dim(d) => Some(*d),
            _ => None,
        })
        .collect()
}

/// The reader's chain tiled as `producer`'s register tile: the reader's
/// innermost dimension (its rows) vectorized inside the other tiled
/// dimensions, their block loops around (the packed input's block
/// outermost, so each block is packed once), the other dimensions between.
fn reader_tiles(
    info: &PayloadInfo,
    producer: &TaskResult,
    tile: &RegisterTile,
    reader: &Task,
    threads: usize,
) -> Option<ReaderTiles> {
    // The reader reads the output with the same indices, so its extents
    // are the output's.
    let op = &info.ops[producer.task.ops[0]];
    let output = output_dims(op)?;
    if output.len() != reader.dims.len() || !tile.divides_output(op, &producer.task.extents) {
        return None;
    }
    let to_reader = |d: usize| output.iter().position(|&o| o == d);
    let mut tiled: Vec<(usize, i64)> = vec![(to_reader(tile.vector)?, tile.tile)];
    for &(d, factor) in &tile.unrolled {
        tiled.push((to_reader(d)?, factor));
    }
    let rows = reader.dims.len() - 1;
    let dim = |d: usize| reader.dims[d].as_str();
    let split = |d: usize, f: i64| f < reader.extents[d];
    for &(d, _) in &tiled {
        for suffix in ["o", "i"] {
            if reader.dims.contains(&format!("{}{suffix}", dim(d))) {
                return None;
            }
        }
    }
    let inner = |d: usize, f: i64| match split(d, f) {
        true => format!("{}i", dim(d)),
        false => dim(d).to_string(),
    };
    // Innermost first: the rows' tile, the other tiles, their blocks, the
    // other dimensions, the packed input's block.
    let mut inside = tiled.clone();
    inside.sort_by_key(|(d, _)| *d != rows);
    let mut order: Vec<String> = inside.iter().map(|&(d, f)| inner(d, f)).collect();
    let blocks: Vec<(usize, i64)> = tiled
        .iter()
        .copied()
        .filter(|&(d, f)| split(d, f))
        .collect();
    let packed_block = tile.packed.map(|_| tiled[0]).filter(|&(d, f)| split(d, f));
    for &(d, _) in blocks.iter().filter(|b| Some(**b) != packed_block) {
        order.push(format!("{}o", dim(d)));
    }
    for d in (0..reader.dims.len()).rev() {
        if !tiled.iter().any(|(t, _)| *t == d) {
            order.push(dim(d).to_string());
        }
    }
    order.extend(packed_block.map(|(d, _)| format!("{}o", dim(d))));
    let at = order.get(tiled.len())?.clone();
    let mut chain = String::new();
    for &(d, f) in &blocks {
        chain.push_str(&format!(".split({0}, {0}o, {0}i, {f})", dim(d)));
    }
    // No `.reorder` where the loops are in that order already (the planner
    // warns about one that changes nothing).
    let splits: Vec<(usize, bool)> = tiled.iter().map(|&(d, f)| (d, split(d, f))).collect();
    chain.push_str(&reorder(&reader.dims, &splits, &order));
    let (rows_tile, lanes) = (inside[0].1, tile.lanes);
    chain.push_str(&vectorized(&order[0], rows_tile, lanes));
    if threads > 1 {
        let mut trips: Vec<(String, i64)> = blocks
            .iter()
            .map(|&(d, f)| (format!("{}o", dim(d)), reader.extents[d] / f))
            .collect();
        trips.extend((0..reader.dims.len()).map(|d| (dim(d).to_string(), reader.extents[d])));
        chain.push_str(&parallel_mark(&order, &trips)?);
    }
    let tiled = tiled
        .into_iter()
        .map(|(d, f)| (d, f, split(d, f).then(|| format!("{}o", dim(d)))))
        .collect();
    Some(ReaderTiles {
        chain,
        at,
        tiled,
        lanes,
    })
}

/// `producer`'s chain after its `compute_at` into `tiles`: its own register
/// tile (vectorized and unrolled dimensions, then the reductions, in its
/// tuned order), its packed input packed at the reader's block of the
/// vectorized dimension. `None` unless the reader tiles each dimension it
/// vectorizes or unrolls by just that tile (else a whole extent, or a
/// register tile other than the one measured, would be unrolled).
fn producer_chain(
    info: &PayloadInfo,
    producer: &TaskResult,
    tile: &RegisterTile,
    tiles: &ReaderTiles,
) -> Option<String> {
    let task = &producer.task;
    let output = output_dims(&info.ops[task.ops[0]])?;
    // The reader's tile of one of the producer's dimensions.
    let in_reader = |d: usize| {
        let r = output.iter().position(|&o| o == d)?;
        tiles.tiled.iter().find(|t| t.0 == r)
    };
    let (_, vector_tile, block) = in_reader(tile.vector)?;
    if *vector_tile != tile.tile {
        return None;
    }
    let mut order = vec![task.dims[tile.vector].clone()];
    for &(d, factor) in &tile.unrolled {
        if in_reader(d)?.1 != factor {
            return None;
        }
        order.push(task.dims[d].clone());
    }
    order.extend(tile.reductions.iter().map(|&d| task.dims[d].clone()));
    let mut chain = format!(".reorder({})", order.join(", "));
    chain.push_str(&vectorized(&order[0], *vector_tile, tiles.lanes));
    for name in &order[1..=tile.unrolled.len()] {
        chain.push_str(&format!(".unroll({name})"));
    }
    if tile.unroll_reductions {
        for &d in &tile.reductions {
            chain.push_str(&format!(".unroll({})", task.dims[d]));
        }
    }
    if let (Some(input), Some(block)) = (tile.packed, block) {
        chain.push_str(&format!(".pack(in{input}, {block}, {})", order[0]));
    }
    Some(chain)
}
