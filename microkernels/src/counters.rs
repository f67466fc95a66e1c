//! What a device did: the counters every kernel call updates, laid out for C
//! (the ABI's context pointer points at one).

use crate::tile::{Element, Tile};

/// Counters of one accelerator over a run. `#[repr(C)]`: a HAL written in C
/// updates the same fields through the ABI's context pointer.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Tile calls completed.
    pub tiles: u64,
    /// Multiply-accumulates performed (m x n x k per tile).
    pub macs: u64,
    /// Bytes read from host memory (the A and B tiles, and C when accumulating).
    pub bytes_in: u64,
    /// Bytes written to host memory (the C tile).
    pub bytes_out: u64,
    /// Modelled device cycles (0 for kernels without a cycle model).
    pub cycles: u64,
    /// Tile calls refused (shape beyond the native tile, memory exceeded).
    pub refused: u64,
}

impl Counters {
    /// Counts one completed tile call; returns the bytes it read and wrote
    /// (the A and B tiles, and C when accumulating; the C tile).
    pub fn record<E: Element>(&mut self, tile: &Tile<E>) -> (usize, usize) {
        let (m, n, k) = (tile.m, tile.n, tile.k);
        let (operand, accumulator) = (
            std::mem::size_of::<E>(),
            std::mem::size_of::<E::Accumulator>(),
        );
        let accumulated = if tile.accumulate { m * n } else { 0 };
        let bytes_in = (m * k + k * n) * operand + accumulated * accumulator;
        let bytes_out = m * n * accumulator;
        self.tiles += 1;
        self.macs += (m * n * k) as u64;
        self.bytes_in += bytes_in as u64;
        self.bytes_out += bytes_out as u64;
        (bytes_in, bytes_out)
    }

    /// Utilization: MACs done over what the device could do in its cycles,
    /// given its peak MACs per cycle; `None` without a cycle count.
    pub fn utilization(&self, macs_per_cycle: f64) -> Option<f64> {
        (self.cycles > 0).then(|| self.macs as f64 / (self.cycles as f64 * macs_per_cycle))
    }
}
