//! # runner: from a transformed payload to measured machine code
//!
//! Lowers a payload the `payload` crate loaded and transformed to the LLVM
//! dialect ([`lowering`], with the offload, prefetch and stage-mark phases),
//! JIT-compiles it through a compile cache that is never a source of code
//! ([`cache`], [`files`]), links the accelerators' kernels ([`link`]), calls it
//! on host [`tensor`]s or lent memory ([`jit`], [`call`]), and measures: this core's FMA peak and
//! memory bandwidth ([`peak`]), static counts ([`profile`]) and per-stage
//! times ([`stage_times`]). Used by the CLI, and next by the tuner and the
//! Python package; the interpreter never runs code and does not depend on it.
//! All direct C calls live in [`ffi`].

#![deny(missing_docs)]
#![deny(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::todo,
    clippy::dbg_macro
)]

pub mod cache;
pub mod call;
pub mod compare;
pub mod ffi;
pub mod files;
pub mod jit;
pub mod link;
pub mod lowering;
pub mod npy;
pub mod offload;
pub mod passes;
pub mod peak;
pub mod prefetch;
pub mod profile;
pub mod stage_program;
pub mod stage_times;
pub mod tensor;
