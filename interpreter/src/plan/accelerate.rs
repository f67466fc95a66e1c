//! `accelerate(target[, loop])`: where matmul tiles will be handed to a GEMM
//! accelerator's kernel (issue: the GEMM accelerator as a tiling target).
//!
//! Nothing is planned here yet: `schedule_lang::resolve` refuses the
//! directive with a located "not planned yet" error, so no stage reaches the
//! planner with it. When it is planned, it belongs after the tiling runs of
//! the stage ([`super::tiling`]): the op is tiled to the target's native tile
//! (padding or splitting off the edges, as [`super::tail`] does for vectors),
//! and the tile at the accelerated loop is replaced by a call to the target's
//! kernel instead of being queued for [`super::vector`].
