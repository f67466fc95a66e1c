//! The host's register-blocked micro-kernels: `C[MR x NR] += A * B` over
//! `kc` steps, from a strip of up to `MR` rows of A (read in place,
//! row-major: each step broadcasts one value of each row, and the strip
//! stays in L1 across the panels of B) and a panel of B (`NR` values per
//! step: packed, or read in place from B's rows, which the kernel then
//! prefetches a few steps ahead), with the accumulators in registers. With
//! the C ABI ([`crate::abi`]), the only `unsafe` in this crate: SIMD
//! intrinsics need `#[target_feature]` functions and raw pointers.
//!
//! [`best`] picks one at run time: AVX-512 (6 x 64: 24 zmm accumulators,
//! four loads of B and six broadcasts of A per step), AVX2 with FMA (6 x 16:
//! 12 ymm accumulators), or plain Rust (6 x 16). The SIMD kernels are built
//! for every row count up to `MR`, so a strip of 4 rows computes 4, not 6.
//! Each entry point checks its slices' lengths, and the SIMD ones check the
//! CPU, so every call is sound.

/// Rows of every micro-kernel's tile.
pub const MR: usize = 6;

/// What a micro-kernel reads: `kc` steps of `rows` rows of A (`lda` apart)
/// and of a packed panel of B (`nr` values per step, `nr` the kernel's).
pub struct Operands<'a> {
    /// Steps of the reduction.
    pub kc: usize,
    /// The strip's first row; rows past `rows` are not read.
    pub a: &'a [f32],
    /// Elements from one row of A to the next.
    pub lda: usize,
    /// The panel of B: step `p`'s `nr` values start at `p * ldb`.
    pub b: &'a [f32],
    /// Elements from one step of B to the next: `nr` when packed, B's row
    /// length when read in place.
    pub ldb: usize,
}

/// Where a micro-kernel adds its tile: the `rows x columns` corner of C.
pub struct Corner<'a> {
    /// C from the tile's first element, row-major.
    pub c: &'a mut [f32],
    /// Elements from one row of C to the next.
    pub ldc: usize,
    /// Rows of the tile that exist (at most [`MR`]); also the rows of A read.
    pub rows: usize,
    /// Columns that exist (at most the kernel's width).
    pub columns: usize,
}

/// One micro-kernel: its tile width and its entry point.
#[derive(Clone, Copy, Debug)]
pub struct MicroKernel {
    /// Columns of its tile (the packed panel's width).
    pub nr: usize,
    /// Adds A * B into the corner of C.
    pub run: fn(&Operands, &mut Corner),
    /// Its name, for reports and tests.
    pub name: &'static str,
}

/// The fastest micro-kernel this CPU runs.
pub fn best() -> MicroKernel {
    *available()
        .last()
        .expect("the portable kernel is always available")
}

/// Every micro-kernel this CPU runs, slowest (portable) first.
pub fn available() -> Vec<MicroKernel> {
    let mut kernels = vec![MicroKernel {
        nr: 16,
        run: portable,
        name: "portable 6x16",
    }];
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx2() {
            kernels.push(MicroKernel {
                nr: 16,
                run: avx2_entry,
                name: "avx2 6x16",
            });
        }
        if std::arch::is_x86_feature_detected!("avx512f") {
            kernels.push(MicroKernel {
                nr: 64,
                run: avx512_entry,
                name: "avx512 6x64",
            });
        }
    }
    kernels
}

/// Checks that the operands and the corner hold what a kernel `nr` wide reads and writes.
fn check(operands: &Operands, nr: usize, corner: &Corner) {
    let Operands { kc, a, lda, b, ldb } = *operands;
    let (rows, columns, ldc) = (corner.rows, corner.columns, corner.ldc);
    assert!(
        (1..=MR).contains(&rows) && columns <= nr,
        "a tile beyond the kernel"
    );
    assert!(
        (rows == 1 || (lda >= kc && ldc >= columns))
            && a.len() >= (rows - 1) * lda + kc
            && kc > 0
            && ldb >= nr
            && b.len() >= (kc - 1) * ldb + nr
            && corner.c.len() >= (rows - 1) * ldc + columns,
        "operands shorter than the tile"
    );
}

fn portable(operands: &Operands, corner: &mut Corner) {
    const NR: usize = 16;
    check(operands, NR, corner);
    let Operands { kc, a, lda, b, ldb } = *operands;
    let mut acc = [[0.0f32; NR]; MR];
    for p in 0..kc {
        let bp = &b[p * ldb..p * ldb + NR];
        for (r, row) in acc.iter_mut().enumerate().take(corner.rows) {
            let av = a[r * lda + p];
            for (x, bv) in row.iter_mut().zip(bp) {
                *x = av.mul_add(*bv, *x);
            }
        }
    }
    let ldc = corner.ldc;
    for (r, row) in acc.iter().enumerate().take(corner.rows) {
        let c_row = &mut corner.c[r * ldc..r * ldc + corner.columns];
        for (x, value) in c_row.iter_mut().zip(row) {
            *x += value;
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
}

/// Steps ahead that a kernel reading B in place prefetches B's rows: far
/// enough to hide a miss to memory behind the FMAs of the steps between.
#[cfg(target_arch = "x86_64")]
const PREFETCH_STEPS: usize = 8;

/// Calls `$kernel::<R>` with `R` the corner's row count (1 to [`MR`]).
#[cfg(target_arch = "x86_64")]
macro_rules! for_rows {
    ($kernel:ident, $operands:expr, $corner:expr) => {
        match $corner.rows {
            1 => $kernel::<1>($operands, $corner),
            2 => $kernel::<2>($operands, $corner),
            3 => $kernel::<3>($operands, $corner),
            4 => $kernel::<4>($operands, $corner),
            5 => $kernel::<5>($operands, $corner),
            _ => $kernel::<MR>($operands, $corner),
        }
    };
}

#[cfg(target_arch = "x86_64")]
fn avx512_entry(operands: &Operands, corner: &mut Corner) {
    check(operands, 64, corner);
    assert!(
        std::arch::is_x86_feature_detected!("avx512f"),
        "the AVX-512 micro-kernel is only chosen on CPUs that have it"
    );
    // SAFETY: the CPU has AVX-512F (checked above); A's rows and B's panel
    // hold kc steps and C holds the corner (checked by `check`), `rows` is
    // the kernel's row count, and the kernel touches nothing else.
    unsafe { for_rows!(avx512_x64, operands, corner) }
}

#[cfg(target_arch = "x86_64")]
fn avx2_entry(operands: &Operands, corner: &mut Corner) {
    check(operands, 16, corner);
    assert!(
        has_avx2(),
        "the AVX2 micro-kernel is only chosen on CPUs that have it"
    );
    // SAFETY: as for AVX-512, with AVX2 and FMA checked.
    unsafe { for_rows!(avx2_x16, operands, corner) }
}

/// The start of each of A's `R` rows.
fn row_starts<const R: usize>(operands: &Operands) -> [*const f32; R] {
    std::array::from_fn(|r| operands.a[r * operands.lda..].as_ptr())
}

/// Prefetches `lines` cache lines of B's step `PREFETCH_STEPS` ahead of `bp`
/// when B is read in place (`ldb` longer than the panel); a packed panel is
/// already in cache. A prefetch never faults, so addresses past B are fine.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn prefetch_ahead(bp: *const f32, ldb: usize, nr: usize) {
    use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
    if ldb != nr {
        let ahead = bp.wrapping_add(PREFETCH_STEPS * ldb).cast::<i8>();
        for line in 0..nr / 16 {
            // SAFETY: a prefetch reads nothing architecturally and never faults.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(64 * line)) };
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn avx512_x64<const R: usize>(operands: &Operands, corner: &mut Corner) {
    use std::arch::x86_64::*;
    let (kc, b, ldb) = (operands.kc, operands.b.as_ptr(), operands.ldb);
    let rows_of_a = row_starts::<R>(operands);
    let mut acc = [[_mm512_setzero_ps(); 4]; R];
    for p in 0..kc {
        // SAFETY (for the block): p < kc, so step p of each row of A and of
        // B's panel is in bounds (checked by the entry point).
        unsafe {
            let bp = b.add(p * ldb);
            prefetch_ahead(bp, ldb, 64);
            let bv = [
                _mm512_loadu_ps(bp),
                _mm512_loadu_ps(bp.add(16)),
                _mm512_loadu_ps(bp.add(32)),
                _mm512_loadu_ps(bp.add(48)),
            ];
            for (row, start) in acc.iter_mut().zip(rows_of_a) {
                let av = _mm512_set1_ps(*start.add(p));
                for (x, bq) in row.iter_mut().zip(bv) {
                    *x = _mm512_fmadd_ps(av, bq, *x);
                }
            }
        }
    }
    let (c, ldc, columns) = (corner.c.as_mut_ptr(), corner.ldc, corner.columns);
    for (r, row) in acc.iter().enumerate() {
        for (q, value) in row.iter().enumerate() {
            let start = q * 16;
            if start >= columns {
                break;
            }
            let width = (columns - start).min(16);
            let mask: __mmask16 = if width == 16 {
                0xffff
            } else {
                (1 << width) - 1
            };
            // SAFETY: row r < R = rows and columns [start, start + width)
            // are in C's corner, checked by the entry point.
            unsafe {
                let cp = c.add(r * ldc + start);
                let old = _mm512_maskz_loadu_ps(mask, cp);
                _mm512_mask_storeu_ps(cp, mask, _mm512_add_ps(old, *value));
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn avx2_x16<const R: usize>(operands: &Operands, corner: &mut Corner) {
    use std::arch::x86_64::*;
    let (kc, b, ldb) = (operands.kc, operands.b.as_ptr(), operands.ldb);
    let rows_of_a = row_starts::<R>(operands);
    let mut acc = [[_mm256_setzero_ps(); 2]; R];
    for p in 0..kc {
        // SAFETY (for the block): p < kc, so step p of each row of A and of
        // B's panel is in bounds (checked by the entry point).
        unsafe {
            let bp = b.add(p * ldb);
            prefetch_ahead(bp, ldb, 16);
            let bv = [_mm256_loadu_ps(bp), _mm256_loadu_ps(bp.add(8))];
            for (row, start) in acc.iter_mut().zip(rows_of_a) {
                let av = _mm256_set1_ps(*start.add(p));
                for (x, bq) in row.iter_mut().zip(bv) {
                    *x = _mm256_fmadd_ps(av, bq, *x);
                }
            }
        }
    }
    let mut spill = [0.0f32; 16];
    for (r, row) in acc.iter().enumerate() {
        // SAFETY: `spill` holds 16 floats.
        unsafe {
            _mm256_storeu_ps(spill.as_mut_ptr(), row[0]);
            _mm256_storeu_ps(spill.as_mut_ptr().add(8), row[1]);
        }
        let c_row = &mut corner.c[r * corner.ldc..r * corner.ldc + corner.columns];
        for (x, value) in c_row.iter_mut().zip(spill) {
            *x += value;
        }
    }
}
