//! The only place in this crate that calls C directly: the JIT ([`engine`]:
//! host buffers, compiled code and its calls, accelerator slots; [`orc`]:
//! LLVM's ORC JIT and the host CPU's name), the shim's whole-module rewrites
//! around bufferization and before LLVM ([`rewrites`]), the HAL crash guard
//! ([`signals`]) and the process's user id. The C++ entry points it declares
//! (`shim/compile.cpp`, `empties.cpp`, `copies.cpp`, `vectors.cpp`,
//! `contract.cpp`, `loops.cpp`) are compiled into the `payload` crate's one
//! shim archive, linked once (ARCHITECTURE.md says why).

mod engine;
mod orc;
mod rewrites;
mod signals;

pub use engine::{HostBuffer, JitEngine, KernelSlot, MemrefArg};
pub use orc::host_cpu;
pub use rewrites::{
    apply_no_alias_marks, approximate_vector_math, attach_loop_annotations,
    contract_vector_arithmetic, deinterleave_strided_reads, fill_borders_in_producers,
    forward_temporary_copies, keep_scalar_rows_rolled, mark_outlined_no_alias,
    mark_read_only_arguments, merge_identical_outlined, pads_into_fills, read_broadcast_inputs,
    sink_outlined_constants, split_wide_vectors, strided_copies_to_loops, transpose_in_avx2_blocks,
    untie_shared_empty_tensors, vectorize_small_copies,
};
pub use signals::HalCrashGuard;

/// The effective user id of this process: who owns the files it may trust
/// (`crate::files`).
pub fn effective_uid() -> u32 {
    // SAFETY: geteuid takes no arguments, cannot fail and touches no memory of ours.
    unsafe { libc::geteuid() }
}

/// The cores this thread may run on (its affinity, as `taskset -c` sets
/// it), lowest first; empty when it cannot be read.
pub fn allowed_cores() -> Vec<usize> {
    // SAFETY: the set is a plain bit array owned here, passed with its size;
    // pid 0 is the calling thread.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        let size = std::mem::size_of::<libc::cpu_set_t>();
        if libc::sched_getaffinity(0, size, &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect()
    }
}

/// Lets this thread (and the threads it starts later) run only on `cores`:
/// whether it could (not with no cores, or cores out of range).
pub fn run_on(cores: &[usize]) -> bool {
    if cores.is_empty() || cores.iter().any(|&c| c >= libc::CPU_SETSIZE as usize) {
        return false;
    }
    // SAFETY: as in `allowed_cores`; every core is within the set's size.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &core in cores {
            libc::CPU_SET(core, &mut set);
        }
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
    }
}
