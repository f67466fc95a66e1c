//! The analytical model that orders a task's candidates before any is
//! measured, from the register tile alone (as the BLIS analytical model
//! starts): one step of the reduction issues `vectors × unroll × rows` FMAs on
//! two FMA ports, loads on two load ports, per input the tile's points along
//! the dimensions it uses (`vectors × rows + unroll` for a matmul or a
//! convolution's input and filter; every point of the tile for a depthwise
//! convolution's input; a vector read with a stride, lane by lane), and each
//! accumulator waits an FMA's latency (4 cycles) for its previous update;
//! more accumulators than the 32 vector registers leave room for spills.
//! Partial tiles waste the lanes and rows they leave empty. Measurement
//! decides; the model only says what to measure first.

use crate::space::Candidate;

/// FMA latency in cycles, and FMA and load ports, of the cores we know
/// (Skylake-SP, Rocket Lake, Zen 4 alike).
const FMA_LATENCY: f64 = 4.0;
const FMA_PORTS: f64 = 2.0;
const LOAD_PORTS: f64 = 2.0;
/// Vector registers left for accumulators (32, less the operands').
const ACCUMULATOR_REGISTERS: i64 = 28;

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
    if (fmas as i64) > ACCUMULATOR_REGISTERS {
        score *= 0.3;
    }
    if candidate.packed && candidate.reduction_points >= 256 {
        score *= 1.1;
    }
    score
}

/// `candidates` best first (stable: ties keep their order), then the
/// [`baseline`] moved second: measured right after the model's favourite,
/// so that a model wrong about a kind of op cannot keep the plain schedule
/// from being tried (mobilenet_v2's stride-2 depthwise convolution: 41
/// register tiles measured, best 1.26 ms, and no one-row tile, of which a
/// hand-written one takes 0.59 ms).
pub fn rank(candidates: &mut Vec<Candidate>) {
    candidates.sort_by(|a, b| score(b).total_cmp(&score(a)));
    if let Some(at) = baseline(candidates).filter(|&at| at > 1) {
        let plain = candidates.remove(at);
        candidates.insert(1, plain);
    }
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
