//! `hwacc16`: a simulated systolic GEMM device. The functional model computes
//! each tile exactly (as the device would: in f32, or i8 products summed in
//! i32); the device refuses tiles beyond its native shape or its local
//! memory, and counts what it does.
//!
//! Cycle model, per call, with no overlap between the phases: load the A and
//! B tiles (and C when accumulating) at the device's bandwidth in bytes per
//! cycle; stream K through the array, `k + (m - 1) + (n - 1)` cycles for the
//! wavefront to fill, run and drain; write C back at the same bandwidth.

use crate::counters::Counters;
use crate::target::Target;
use crate::tile::{reference_gemm, Element, Tile, TileError};

/// The device's parameters, from its [`Target`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Device {
    /// Native tile: rows of C, columns of C, reduction length.
    pub native: (usize, usize, usize),
    /// Bytes of local memory the A, B and C tiles of one call must fit in.
    pub local_bytes: usize,
    /// Host-memory bytes moved per cycle.
    pub bytes_per_cycle: usize,
}

impl Device {
    /// The device a target describes.
    pub fn from_target(target: &Target) -> Self {
        let bytes_per_cycle = target.roofline.bandwidth_bytes_per_second / target.roofline.clock_hz;
        Device {
            native: (target.tile.m, target.tile.n, target.tile.k),
            local_bytes: target.memory.local_bytes,
            bytes_per_cycle: (bytes_per_cycle.round() as usize).max(1),
        }
    }

    /// Runs one tile call, or refuses it (counted as refused).
    pub fn run<E: Element>(
        &self,
        tile: &mut Tile<E>,
        counters: &mut Counters,
    ) -> Result<(), TileError> {
        let refused = |counters: &mut Counters, error: TileError| {
            counters.refused += 1;
            Err(error)
        };
        if let Err(error) = tile.check_layout() {
            return refused(counters, error);
        }
        let (m, n, k) = (tile.m, tile.n, tile.k);
        let (native_m, native_n, native_k) = self.native;
        if m > native_m || n > native_n || k > native_k {
            let error = TileError::TooLarge {
                m,
                n,
                k,
                native_m,
                native_n,
                native_k,
            };
            return refused(counters, error);
        }
        let needed = (m * k + k * n) * std::mem::size_of::<E>()
            + m * n * std::mem::size_of::<E::Accumulator>();
        if needed > self.local_bytes {
            let error = TileError::LocalMemory {
                needed,
                available: self.local_bytes,
            };
            return refused(counters, error);
        }
        reference_gemm(tile);
        let (bytes_in, bytes_out) = counters.record(tile);
        let transfer = |bytes: usize| bytes.div_ceil(self.bytes_per_cycle);
        let compute = if m * n * k == 0 {
            0
        } else {
            k + (m - 1) + (n - 1)
        };
        counters.cycles += (transfer(bytes_in) + compute + transfer(bytes_out)) as u64;
        Ok(())
    }
}
