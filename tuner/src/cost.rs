//! The analytical model that orders a task's candidates before any is
//! measured, from the register tile alone (as the BLIS analytical model
//! starts): one step of the reduction issues `vectors × unroll × rows` FMAs on
//! two FMA ports, loads on two load ports, per input the tile's points along
//! the dimensions it uses (`vectors × rows + unroll` for a matmul or a
//! convolution's input and filter; every point of the tile for a depthwise
//! convolution's input; a vector read with a stride, lane by lane), and each
//! accumulator waits an FMA's latency (4 cycles) for its previous update;
//! more accumulators than the vector registers leave room for (28 of
//! AVX-512's 32, 12 of AVX2's 16) spill, and so does one when the
//! accumulators, one step's vector operand and a broadcast together
//! outnumber the registers (AVX2's 3 x 32: 12 + 4 + 1).
//! A packed panel over a long reduction left whole streams from beyond the
//! second-level cache. Partial tiles waste the lanes and rows they leave empty. Measurement
//! decides; the model only says what to measure first.

use crate::candidate::{unit_of, Family};
use crate::space::Candidate;

/// FMA latency in cycles, and FMA and load ports, of the cores we know
/// (Skylake-SP, Rocket Lake, Zen 4 alike).
const FMA_LATENCY: f64 = 4.0;
const FMA_PORTS: f64 = 2.0;
const LOAD_PORTS: f64 = 2.0;
/// What a tile loses whose accumulators fit but not beside one step's
/// vector operand and a broadcast: LLVM keeps an accumulator on the stack,
/// a store and a reload on every step's critical path. Measured on a Zen 3
/// (AVX2: 16 registers), the transformer's 4x128x128x64 batch matmul: 3 x 32
/// (12 accumulators, 4 vectors, 1 broadcast: 17) 0.210 ms, 6 x 16 (15)
/// 0.127 ms.
const SPILLS_ONE: f64 = 0.6;

/// The fraction of the FMA peak the candidate's inner loop could reach.
pub fn score(candidate: &Candidate) -> f64 {
    let lanes = candidate.lanes as f64;
    let vectors = (candidate.vector_tile as f64 / lanes).ceil().max(1.0);
    let unroll = candidate.unroll_tile as f64;
    let second = candidate.second_tile as f64;
    let used = |extent: i64, tile: i64| {
        let tiles = (extent + tile - 1) / tile;
        extent as f64 / (tiles * tile) as f64
    };
    let lane_use = candidate.vector_tile.min(candidate.vector_extent) as f64 / (vectors * lanes);
    let fill = used(candidate.vector_extent, candidate.vector_tile)
        * used(candidate.unroll_extent, candidate.unroll_tile)
        * used(candidate.second_extent, candidate.second_tile)
        * lane_use;
    if candidate.reduction_points <= 1 {
        // Elementwise: bound by memory; wider tiles only amortize the loop.
        return fill * (1.0 - 0.05 / vectors);
    }
    // Per step: the vector operand's rows (one per second unrolled row),
    // and one broadcast per unrolled point; a vector read with a stride is
    // gathered one lane at a time.
    let fmas = vectors * unroll * second;
    let gathered = if candidate.strided_vector { lanes } else { 1.0 };
    let loads = candidate
        .loads
        .unwrap_or(vectors * second * gathered + unroll);
    let cycles = (fmas / FMA_PORTS).max(loads / LOAD_PORTS).max(FMA_LATENCY);
    let mut score = fill * (fmas / FMA_PORTS) / cycles;
    let unit = unit_of(candidate.lanes);
    if (fmas as i64) > unit.accumulators() {
        score *= 0.3;
    } else if fmas + candidate.held.unwrap_or(vectors * second + 1.0) > unit.registers as f64 {
        score *= SPILLS_ONE;
    }
    if candidate.packed && candidate.reduction_points >= 256 {
        score *= 1.1;
    }
    // The MNIST CNN's fc1 (k = 6272) ran 0.76x as fast with the whole k
    // packed per 64 columns as in blocks of 448.
    if candidate.streamed_panel {
        score *= 0.9;
    }
    score
}

/// `candidates` best first (stable: ties keep their order), then the
/// [`baseline`] moved second: measured right after the model's favourite,
/// so that a model wrong about a kind of op cannot keep the plain schedule
/// from being tried (mobilenet_v2's stride-2 depthwise convolution: 41
/// register tiles measured, best 1.26 ms, and no one-row tile, of which a
/// hand-written one takes 0.59 ms).
///
/// With several threads, the baseline's twin with a parallel loop follows
/// it: ranked on its own, it came too late for a cheap op's share of the
/// budget (resnet18_b8's max pool on two threads kept the plain schedule,
/// 5.34 ms, where parallel ones measured later took 4.26).
pub fn rank(candidates: &mut Vec<Candidate>) {
    candidates.sort_by(|a, b| score(b).total_cmp(&score(a)));
    let Some(mut at) = baseline(candidates) else {
        return;
    };
    if at > 1 {
        let plain = candidates.remove(at);
        candidates.insert(1, plain);
        at = 1;
    }
    let plain = &candidates[at].chain;
    let twin = candidates.iter().position(|c| {
        c.chain
            .strip_prefix(plain.as_str())
            .is_some_and(|rest| rest.starts_with(".parallel("))
    });
    if let Some(twin) = twin.filter(|&twin| twin > at + 1) {
        let parallel = candidates.remove(twin);
        candidates.insert(at + 1, parallel);
    }
}

/// When the search in [`rank`]'s order runs out of patience: moves to
/// `from` the best-rated candidate of each [`Candidate::family`] none of
/// `candidates[..from]` is of and the model rates at least
/// [`LEADER_SCORE`] of its favourite (the first), in its order, and
/// returns how many. After them, [`favour`] puts the measured best's
/// family first.
pub fn lead(candidates: &mut [Candidate], from: usize) -> usize {
    let Some(top) = candidates.first().map(score) else {
        return 0;
    };
    let mut families: Vec<Family> = candidates[..from].iter().map(|c| c.family()).collect();
    let mut leading = from;
    for at in from..candidates.len() {
        let candidate = &candidates[at];
        if families.contains(&candidate.family()) || score(candidate) < top * LEADER_SCORE {
            continue;
        }
        families.push(candidate.family());
        candidates[leading..=at].rotate_right(1);
        leading += 1;
    }
    leading - from
}

/// Where a task's search is in its measuring order: [`rank`]'s, then,
/// once out of patience, [`lead`]'s shapes, then [`favour`]'s.
#[derive(Default)]
pub struct Order {
    /// Where the leading shapes end, once the patience first ran out.
    leading: Option<usize>,
    /// The family last put first.
    favoured: Option<Family>,
}

impl Order {
    /// Before `candidates[index]` is measured, with `stale` candidates in
    /// a row no faster (of `patience`) and `best` the best chain so far:
    /// puts what comes next at `index`, or says to stop (`false`).
    pub fn next(
        &mut self,
        candidates: &mut [Candidate],
        index: usize,
        (stale, patience): (usize, usize),
        best: Option<&str>,
    ) -> bool {
        match self.leading {
            Some(end) if index < end => true,
            Some(_) if stale >= patience => false,
            Some(_) => {
                let best = best.and_then(|b| candidates[..index].iter().find(|c| c.chain == b));
                let family = best.map(|c| c.family());
                if let Some(family) = family.filter(|f| self.favoured.as_ref() != Some(f)) {
                    favour(&mut candidates[index..], &family);
                    self.favoured = Some(family);
                }
                true
            }
            None if stale >= patience => {
                let end = index + lead(candidates, index);
                self.leading = Some(end);
                end > index
            }
            None => true,
        }
    }
}

/// The least score, against the model's favourite, of a family's best for
/// it to be measured once the patience ran out: the model cannot tell a
/// 4-vector unpacked convolution tile (ResNet's 3x3 by hand: 64 channels
/// by 4 columns, the filter read in place from L2) from a packed 2-vector
/// one, which it rates a tenth higher; with every candidate in its order,
/// 41 packed 2-vector ones were measured and no 4-vector one. (ResNet's
/// 3x3 has 26 families this close of 552 candidates, conv_layer's 36 of
/// 608.)
pub const LEADER_SCORE: f64 = 0.9;

/// Moves the candidates of `family` ahead of the others in `rest`, each
/// group in its order.
pub fn favour(rest: &mut [Candidate], family: &Family) {
    rest.sort_by_key(|c| c.family() != *family);
}

/// The first candidate (in `candidates`' order) a person would write first:
/// the output's rows vectorized in the widest tile any candidate has,
/// nothing else unrolled, nothing packed, a small window unrolled.
fn baseline(candidates: &[Candidate]) -> Option<usize> {
    let plain = |c: &Candidate| {
        c.unroll_tile == 1
            && c.second_tile == 1
            && !c.packed
            && c.tile.as_ref().is_some_and(|t| t.unroll_reductions)
    };
    let widest = candidates
        .iter()
        .filter(|c| plain(c))
        .map(|c| c.vector_tile)
        .max()?;
    candidates
        .iter()
        .position(|c| plain(c) && c.vector_tile == widest)
}
