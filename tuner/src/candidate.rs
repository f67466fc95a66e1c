//! What one candidate schedule of a task is: its chain of directives, and
//! the shape of its register tile that the cost model reads.

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
    /// Whether an input is packed.
    pub packed: bool,
    /// Points of the reduction per output point (1 without reductions).
    pub reduction_points: i64,
    /// Whether an input is read with a stride along the vectorized
    /// dimension (a stride-2 convolution's `x`), or across its rows and not
    /// packed (a transposed weight read in place along its columns): each
    /// vector of it is then gathered one element at a time.
    pub strided_vector: bool,
}
