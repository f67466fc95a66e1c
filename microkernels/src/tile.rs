//! One tile call as safe Rust: C (m x n) = A (m x k) * B (k x n), plus C when
//! accumulating, row-major through leading dimensions, in f32 or as i8
//! products summed in i32. The C ABI ([`crate::abi`]) builds one of these
//! from raw pointers; kernels only ever see slices.

/// Why a tile call was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TileError {
    /// A size is beyond the device's native tile.
    #[error("a {m}x{n}x{k} tile is beyond the native {native_m}x{native_n}x{native_k} tile")]
    TooLarge {
        /// Requested rows of C.
        m: usize,
        /// Requested columns of C.
        n: usize,
        /// Requested reduction length.
        k: usize,
        /// Native rows.
        native_m: usize,
        /// Native columns.
        native_n: usize,
        /// Native reduction length.
        native_k: usize,
    },
    /// The tiles of one call do not fit in local memory.
    #[error("the tiles need {needed} bytes of local memory, the device has {available}")]
    LocalMemory {
        /// Bytes the A, B and C tiles need.
        needed: usize,
        /// Bytes the device has.
        available: usize,
    },
    /// A leading dimension is smaller than its row, or a buffer too short.
    #[error(
        "operand {operand} does not hold a {rows}x{columns} tile with leading dimension {leading}"
    )]
    Layout {
        /// `a`, `b` or `c`.
        operand: &'static str,
        /// Rows of the tile.
        rows: usize,
        /// Columns of the tile.
        columns: usize,
        /// Its leading dimension.
        leading: usize,
    },
}

/// The element types of a tile call: operands of type `Self`, accumulated
/// in `Self::Accumulator` (f32 into f32; i8 into i32, as a quantized matmul).
pub trait Element: Copy + Default {
    /// What products are summed in (C's type).
    type Accumulator: Copy + Default + PartialEq + std::fmt::Debug;
    /// `acc + a * b`, in the accumulator's arithmetic (integers wrap, as
    /// MLIR's `arith.addi` and `arith.muli` do).
    fn multiply_add(acc: Self::Accumulator, a: Self, b: Self) -> Self::Accumulator;
}

impl Element for f32 {
    type Accumulator = f32;
    fn multiply_add(acc: f32, a: f32, b: f32) -> f32 {
        acc + a * b
    }
}

impl Element for i8 {
    type Accumulator = i32;
    fn multiply_add(acc: i32, a: i8, b: i8) -> i32 {
        acc.wrapping_add(i32::from(a) * i32::from(b))
    }
}

/// One tile call: operands of type `E`, C of `E::Accumulator`.
#[derive(Debug)]
pub struct Tile<'a, E: Element> {
    /// Rows of A and C.
    pub m: usize,
    /// Columns of B and C.
    pub n: usize,
    /// Columns of A, rows of B.
    pub k: usize,
    /// A, row-major, `lda` elements from one row to the next.
    pub a: &'a [E],
    /// Leading dimension of A.
    pub lda: usize,
    /// B, row-major.
    pub b: &'a [E],
    /// Leading dimension of B.
    pub ldb: usize,
    /// C, row-major: written, or added to when `accumulate`.
    pub c: &'a mut [E::Accumulator],
    /// Leading dimension of C.
    pub ldc: usize,
    /// Add to C instead of overwriting it.
    pub accumulate: bool,
}

/// An f32 tile call.
pub type TileF32<'a> = Tile<'a, f32>;

/// An i8 x i8 -> i32 tile call.
pub type TileI8<'a> = Tile<'a, i8>;

/// Elements a row-major `rows x columns` tile with leading dimension `leading` spans.
pub fn span(rows: usize, columns: usize, leading: usize) -> usize {
    if rows == 0 || columns == 0 {
        0
    } else {
        (rows - 1) * leading + columns
    }
}

/// Whether a leading dimension holds a row-major `rows x columns` tile.
pub fn leading_fits(rows: usize, columns: usize, leading: usize) -> bool {
    rows <= 1 || leading >= columns
}

impl<E: Element> Tile<'_, E> {
    /// Checks that each buffer holds its tile through its leading dimension.
    pub fn check_layout(&self) -> Result<(), TileError> {
        let operands = [
            ("a", self.m, self.k, self.lda, self.a.len()),
            ("b", self.k, self.n, self.ldb, self.b.len()),
            ("c", self.m, self.n, self.ldc, self.c.len()),
        ];
        for (operand, rows, columns, leading, length) in operands {
            if !leading_fits(rows, columns, leading) || length < span(rows, columns, leading) {
                return Err(TileError::Layout {
                    operand,
                    rows,
                    columns,
                    leading,
                });
            }
        }
        Ok(())
    }
}

/// The plain triple loop every kernel is tested against: C's element is
/// summed in order, starting from C's value when accumulating.
pub fn reference_gemm<E: Element>(tile: &mut Tile<E>) {
    for i in 0..tile.m {
        for j in 0..tile.n {
            let c = &mut tile.c[i * tile.ldc + j];
            let mut sum = if tile.accumulate {
                *c
            } else {
                Default::default()
            };
            for p in 0..tile.k {
                sum = E::multiply_add(sum, tile.a[i * tile.lda + p], tile.b[p * tile.ldb + j]);
            }
            *c = sum;
        }
    }
}
