//! `host`: the host CPU behind the tile ABI, computed as BLIS does. A call
//! of any shape is cut into blocks that stay in the caches: for each block
//! of `NC` columns and `KC` steps of the reduction, the block of B is packed
//! into panels `NR` columns wide (it stays in L2); for each strip of `MR`
//! rows of A (read in place: it stays in L1 across the panels; packing it
//! too measured 8% slower), a register-blocked micro-kernel computes the
//! `MR x NR` tile of C for every panel, with the accumulators in registers.
//! B's last panel is padded with zeros and only the rows and columns of C
//! in the tile are written back, so one micro-kernel serves every shape.
//!
//! A call with few rows (at most [`PACK_ROWS`]) reuses each block of B too
//! few times to pay for packing it: its full panels are read in place, the
//! micro-kernel prefetching B's rows ahead (measured on Zen 4, N = 256,
//! K = 6272 out of a 1024-wide B: 64 rows 7% faster in place, 128 rows 5%,
//! 256 rows 4%; 512 rows of a 2048-wide B 5% slower).
//!
//! The micro-kernel is chosen once, at run time, from what the CPU has
//! ([`crate::simd`]): AVX-512 (6 x 64), AVX2 with FMA (6 x 16), or plain
//! Rust (6 x 16). Packing buffers are per thread, so calls from parallel
//! loops do not share them. The host counts tiles, MACs and bytes; it has no
//! cycle model.

use crate::counters::Counters;
use crate::simd::{self, Corner, MicroKernel, Operands, MR};
use crate::tile::{TileError, TileF32};
use std::cell::RefCell;

/// Reduction steps per packed block: a 6-row strip of A (6 KB) stays in L1.
const KC: usize = 320;
/// Columns per packed block of B: 320 x 640 floats (800 KB) stay in L2.
const NC: usize = 640;
/// Calls with more rows than this pack every panel of B; others read the
/// full panels in place.
pub const PACK_ROWS: usize = 256;

thread_local! {
    /// The packed block of B, reused by every call on this thread.
    static PACKED: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
}

/// Runs one tile call on this core, with the fastest micro-kernel it has.
pub fn run(tile: &mut TileF32, counters: &mut Counters) -> Result<(), TileError> {
    run_with(tile, simd::best(), counters)
}

/// Runs one tile call with a given micro-kernel (tests compare them all).
pub fn run_with(
    tile: &mut TileF32,
    kernel: MicroKernel,
    counters: &mut Counters,
) -> Result<(), TileError> {
    if let Err(error) = tile.check_layout() {
        counters.refused += 1;
        return Err(error);
    }
    if !tile.accumulate {
        for i in 0..tile.m {
            tile.c[i * tile.ldc..i * tile.ldc + tile.n].fill(0.0);
        }
    }
    if tile.m > 0 && tile.n > 0 && tile.k > 0 {
        PACKED.with(|packed| blocked(tile, kernel, &mut packed.borrow_mut()));
    }
    counters.record(tile);
    Ok(())
}

/// C += A * B through blocks of B (packed, or read in place) and the micro-kernel.
fn blocked(tile: &mut TileF32, kernel: MicroKernel, b_block: &mut Vec<f32>) {
    let nr = kernel.nr;
    let in_place = tile.m <= PACK_ROWS;
    for jc in (0..tile.n).step_by(NC) {
        let nc = NC.min(tile.n - jc);
        let panels = nc.div_ceil(nr);
        // Panels `[0, packed_from)` are read in place, the rest packed.
        let packed_from = if in_place { nc / nr } else { 0 };
        let packed_columns = (jc + packed_from * nr, nc - packed_from * nr);
        for pc in (0..tile.k).step_by(KC) {
            let kc = KC.min(tile.k - pc);
            pack_b(tile, (pc, kc), packed_columns, nr, b_block);
            for ic in (0..tile.m).step_by(MR) {
                let mr = MR.min(tile.m - ic);
                let a_strip = &tile.a[ic * tile.lda + pc..];
                for panel in 0..panels {
                    let j = jc + panel * nr;
                    let (b, ldb) = if panel < packed_from {
                        (&tile.b[pc * tile.ldb + j..], tile.ldb)
                    } else {
                        let at = (panel - packed_from) * kc * nr;
                        (&b_block[at..at + kc * nr], nr)
                    };
                    let operands = Operands {
                        kc,
                        a: a_strip,
                        lda: tile.lda,
                        b,
                        ldb,
                    };
                    let mut corner = Corner {
                        c: &mut tile.c[ic * tile.ldc + j..],
                        ldc: tile.ldc,
                        rows: mr,
                        columns: nr.min(tile.n - j),
                    };
                    (kernel.run)(&operands, &mut corner);
                }
            }
        }
    }
}

/// Packs steps `[p, p + kc)` and columns `[j, j + nc)` of B into panels of
/// `nr` columns, each step's `nr` values adjacent; columns past `nc` are zeros.
fn pack_b(
    tile: &TileF32,
    (p, kc): (usize, usize),
    (j, nc): (usize, usize),
    nr: usize,
    out: &mut Vec<f32>,
) {
    let panels = nc.div_ceil(nr);
    out.clear();
    out.resize(panels * kc * nr, 0.0);
    for panel in 0..panels {
        let first = j + panel * nr;
        let width = nr.min(j + nc - first);
        let block = &mut out[panel * kc * nr..(panel + 1) * kc * nr];
        for step in 0..kc {
            let row = (p + step) * tile.ldb + first;
            block[step * nr..step * nr + width].copy_from_slice(&tile.b[row..row + width]);
        }
    }
}
