//! What one candidate schedule of a task is: its chain of directives, and
//! the shape of its register tile that the cost model reads.

use schedule_lang::{MapResult, PayloadOp, VectorUnit};

/// One candidate: its chain, and what the cost model reads of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The directives after the func's name (`.split(j, jo, ji, 64)...`).
    pub chain: String,
    /// Lanes of one machine vector.
    pub lanes: i64,
    /// Extent of the vectorized dimension, and the tile of it one step computes.
    pub vector_extent: i64,
    pub vector_tile: i64,
    /// Extent of the unrolled dimension, and its tile (1: none).
    pub unroll_extent: i64,
    pub unroll_tile: i64,
    /// Extent and tile of a second unrolled dimension (1: none), whose rows
    /// the vector loads (a convolution's output rows `y` beside its channels).
    pub second_extent: i64,
    pub second_tile: i64,
    /// The dimensions vectorized and unrolled, in that order (the vector's
    /// first): with the three tiles, the register tile's shape.
    pub tiled: Vec<usize>,
    /// Whether an input is packed.
    pub packed: bool,
    /// Whether the packed panel spans a reduction of
    /// [`crate::space::LONG_REDUCTION`] steps or more whole (not in
    /// blocks), so it streams from beyond the second-level cache.
    pub streamed_panel: bool,
    /// Points of the reduction per output point (1 without reductions).
    pub reduction_points: i64,
    /// Whether an input is read with a stride along the vectorized
    /// dimension (a stride-2 convolution's `x`), or across its rows and not
    /// packed (a transposed weight read in place along its columns): each
    /// vector of it is then gathered one element at a time.
    pub strided_vector: bool,
    /// Vector and broadcast loads one step of the reduction issues, counted
    /// per input from the dimensions its map uses ([`crate::space`]); `None`
    /// where the cost model counts them as for a matmul (one input along
    /// the vector and the second unrolled dimension, one broadcast per
    /// unrolled point).
    pub loads: Option<f64>,
    /// Vector registers one reduction step keeps live beside the
    /// accumulators ([`held_per_step`]); `None` where the cost model counts
    /// them as for a matmul (the vector input's row and one broadcast).
    pub held: Option<f64>,
    /// Its register tile, which a reader's tiles can take over
    /// ([`crate::producers`]); `None` where that is not tried.
    pub tile: Option<RegisterTile>,
}

/// A [`Candidate::family`]: the dimensions tiled, their tiles, and packing.
pub type Family = (Vec<usize>, [i64; 3], bool);

impl Candidate {
    /// What the search, out of patience, tries the best of and then
    /// explores around ([`crate::cost::lead`], [`crate::cost::favour`]): the
    /// register tile's shape (dimensions, vector tile, unrolled points,
    /// second unrolled rows), and whether an input is packed. Its members
    /// differ in loop order and where they pack.
    pub fn family(&self) -> Family {
        let tiles = [self.vector_tile, self.unroll_tile, self.second_tile];
        (self.tiled.clone(), tiles, self.packed)
    }
}

/// A candidate's register tile: the loops inside the reductions' and the
/// reductions' order, as a `compute_at` into a reader's tiles keeps them.
#[derive(Clone, Debug, PartialEq)]
pub struct RegisterTile {
    /// The vectorized dimension, its tile, and the lanes of one machine vector.
    pub vector: usize,
    pub tile: i64,
    pub lanes: i64,
    /// The unrolled dimensions with their tiles, innermost first.
    pub unrolled: Vec<(usize, i64)>,
    /// The reductions, innermost first, and whether their loops are unrolled.
    pub reductions: Vec<usize>,
    pub unroll_reductions: bool,
    /// The input packed per block of the vectorized dimension (a filter
    /// with the output channels innermost), if one is.
    pub packed: Option<usize>,
}

impl RegisterTile {
    /// Whether `other` tiles the same dimensions by the same sizes, packed
    /// the same way (its reductions may run in another order).
    pub fn same_shape(&self, other: &RegisterTile) -> bool {
        (self.vector, self.tile, &self.unrolled, self.packed)
            == (other.vector, other.tile, &other.unrolled, other.packed)
    }

    /// Whether each tiled dimension's tile divides its extent in `extents`
    /// (or covers it), and the output's innermost dimension (the rows of an
    /// elementwise reader) is among them: a tile a reader of `op`'s result
    /// can be tiled as.
    pub fn divides_output(&self, op: &PayloadOp, extents: &[i64]) -> bool {
        let innermost = op
            .operands
            .iter()
            .find(|o| o.is_init)
            .and_then(|o| o.map.last());
        let tiled = std::iter::once((self.vector, self.tile)).chain(self.unrolled.iter().copied());
        let mut rows = false;
        for (d, tile) in tiled {
            let extent = extents[d];
            if tile < extent && extent % tile != 0 {
                return false;
            }
            rows |= innermost == Some(&MapResult::Dim(d));
        }
        rows
    }
}

/// Loads one reduction step of a register tile issues: per input, the
/// tile's points along the dimensions its map uses, `vector_loads` for the
/// vectorized dimension `v` (its vectors, each gathered lane by lane when
/// read with a stride) and each unrolled dimension's tile; an input using
/// none of them is one broadcast. A filter shared by the tile's rows is
/// loaded once per channel; a depthwise convolution's input, once per point.
pub(crate) fn loads_per_step(
    op: &PayloadOp,
    v: usize,
    vector_loads: i64,
    unrolled: impl Iterator<Item = (usize, i64)> + Clone,
) -> f64 {
    op.operands
        .iter()
        .filter(|o| !o.is_init)
        .map(|o| {
            let uses = |d: usize| o.depends_on(d) != Some(false);
            let along_vector = if uses(v) { vector_loads } else { 1 };
            let along_unrolled: i64 = unrolled
                .clone()
                .filter(|&(d, _)| uses(d))
                .map(|(_, f)| f)
                .product();
            (along_vector * along_unrolled) as f64
        })
        .sum()
}

/// Vector registers one reduction step of a register tile keeps live
/// beside its accumulators: the vectors of each input read along `v` and
/// reused by every row of the first unrolled dimension `u` (a matmul's B
/// row; a depthwise convolution's input, read anew per row, is not held),
/// times the second unrolled dimension's tile where that input uses it,
/// and one broadcast in flight.
pub(crate) fn held_per_step(
    op: &PayloadOp,
    v: usize,
    vector_loads: i64,
    u: Option<usize>,
    second: Option<(usize, i64)>,
) -> f64 {
    let held: i64 = op
        .operands
        .iter()
        .filter(|o| !o.is_init)
        .filter(|o| o.depends_on(v) != Some(false))
        .filter(|o| u.is_none_or(|u| o.depends_on(u) == Some(false)))
        .map(|o| match second {
            Some((d, f)) if o.depends_on(d) != Some(false) => vector_loads * f,
            _ => vector_loads,
        })
        .sum();
    held as f64 + 1.0
}

/// The vector unit whose registers hold `lanes` floats: AVX-512 for 16,
/// AVX2 for 8, else SSE.
pub fn unit_of(lanes: i64) -> VectorUnit {
    match lanes {
        16.. => VectorUnit::AVX512,
        8.. => VectorUnit::AVX2,
        _ => VectorUnit::SSE,
    }
}

/// The most accumulator vectors a register tile of the search space holds
/// with `lanes` floats per vector: 24 on AVX-512, 12 on AVX2 (BLIS's
/// Haswell SGEMM tile, 6 x 16, and oneDNN's AVX2 convolution's, 3 x 32).
pub fn most_accumulators(lanes: i64) -> i64 {
    unit_of(lanes).accumulators().min(24)
}
