//! The memory directives: `store_at`, `reuse_at`, `buffer_at` (issue:
//! stencils and memory customizations).
//!
//! Nothing is planned here yet: `schedule_lang::resolve` refuses `reuse_at`,
//! `buffer_at` and `pipeline` with a located "not planned yet" error, so no
//! stage reaches the planner with them. When they are planned, they belong
//! beside [`super::pack`]: like a pack, each places a buffer at the
//! innermost loop of a tiling run (a reuse buffer of an input, a write buffer
//! of the output, or a producer's storage at an outer loop than where it is
//! computed), right after that run is tiled.
