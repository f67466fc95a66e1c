//! One tile call as safe Rust: C (m x n) = A (m x k) * B (k x n), plus C when
//! accumulating, row-major through leading dimensions. The C ABI ([`crate::abi`])
//! builds one of these from raw pointers; kernels only ever see slices.

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

/// An f32 tile call.
#[derive(Debug)]
pub struct TileF32<'a> {
    /// Rows of A and C.
    pub m: usize,
    /// Columns of B and C.
    pub n: usize,
    /// Columns of A, rows of B.
    pub k: usize,
    /// A, row-major, `lda` elements from one row to the next.
    pub a: &'a [f32],
    /// Leading dimension of A.
    pub lda: usize,
    /// B, row-major.
    pub b: &'a [f32],
    /// Leading dimension of B.
    pub ldb: usize,
    /// C, row-major: written, or added to when `accumulate`.
    pub c: &'a mut [f32],
    /// Leading dimension of C.
    pub ldc: usize,
    /// Add to C instead of overwriting it.
    pub accumulate: bool,
}

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

impl TileF32<'_> {
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

/// The plain triple loop every kernel is tested against.
pub fn reference_gemm(tile: &mut TileF32) {
    for i in 0..tile.m {
        for j in 0..tile.n {
            let mut sum = 0.0f32;
            for p in 0..tile.k {
                sum += tile.a[i * tile.lda + p] * tile.b[p * tile.ldb + j];
            }
            let c = &mut tile.c[i * tile.ldc + j];
            *c = if tile.accumulate { *c + sum } else { sum };
        }
    }
}
