//! The `sched.*` attribute names: the contract between the planner, which
//! annotates the payload's ops and loops through the script, and the phases
//! that read the annotations (the inline phase, lowering, offload, prefetch,
//! `explain`). Each name is spelled here once.

/// The id the inline phase tags every structured op with while it fuses.
pub const ORIGIN: &str = "sched.origin";

/// A name the payload gives an op (`func f = "name"` selects it).
pub const NAME: &str = "sched.name";

/// A loop the script made, named with the schedule's loops it holds (only in
/// scripts planned for `explain`).
pub const LOOP: &str = "sched.loop";

/// An `scf.forall` the schedule marked `parallel` (lowered to OpenMP).
pub const PARALLEL: &str = "sched.parallel";

/// A loop's initiation interval from `pipeline` (an annotation only).
pub const PIPELINE: &str = "sched.pipeline";

/// A tile the schedule hands to an accelerator: the target's name.
pub const ACCELERATE: &str = "sched.accelerate";

/// The operands of an accelerated tile stored transposed (`"a"`, `"b"`, `"ab"`).
pub const ACCELERATE_TRANSPOSED: &str = "sched.accelerate_transposed";

/// The prefix of a loop's prefetch annotations (`sched.prefetch_0`, ...).
pub const PREFETCH_PREFIX: &str = "sched.prefetch_";
