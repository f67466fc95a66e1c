//! `host`: the host CPU behind the tile ABI. Any tile shape; C's rows are
//! updated a row of B at a time (`c[i, :] += a[i, p] * b[p, :]`), which the
//! compiler vectorizes. It counts tiles, MACs and bytes (no cycle model).

use crate::counters::Counters;
use crate::tile::{TileError, TileF32};

/// Runs one tile call on this core.
pub fn run(tile: &mut TileF32, counters: &mut Counters) -> Result<(), TileError> {
    if let Err(error) = tile.check_layout() {
        counters.refused += 1;
        return Err(error);
    }
    let (m, n, k) = (tile.m, tile.n, tile.k);
    for i in 0..m {
        let row = &mut tile.c[i * tile.ldc..i * tile.ldc + n];
        if !tile.accumulate {
            row.fill(0.0);
        }
        for p in 0..k {
            let scale = tile.a[i * tile.lda + p];
            let b_row = &tile.b[p * tile.ldb..p * tile.ldb + n];
            for (c, b) in row.iter_mut().zip(b_row) {
                *c += scale * b;
            }
        }
    }
    counters.record(tile);
    Ok(())
}
