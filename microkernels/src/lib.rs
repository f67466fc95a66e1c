//! # microkernels: GEMM accelerators as tiling targets
//!
//! An accelerator is data, not a code path: a [`Target`] (read from TOML
//! under `microkernels/targets/`, or a user's file) gives its native tile,
//! element types, operand layouts, local memory and roofline, and names the
//! kernel that computes one tile. Every kernel sits behind one C ABI (see
//! `microkernels/README.md` and [`abi`]): the contract a hardware team's HAL
//! implements, which the JIT binds into generated code.
//!
//! Two kernels are built in:
//! - [`hwacc16`]: a simulated 16x16x16 systolic device. A functional model
//!   computes each tile exactly, enforces the native tile and the local
//!   memory, and counts tiles, MACs, bytes in and out, and modelled cycles.
//! - [`host`]: the host CPU through the same ABI, blocked and packed as BLIS
//!   does around register-blocked SIMD micro-kernels ([`simd`]).
//!
//! Both are tested against a naive GEMM ([`reference_gemm`]) on random and
//! edge shapes. This crate stands alone: no MLIR. Its `unsafe` is in two
//! modules: [`abi`] (the C entry points) and [`simd`] (the intrinsics).

#![deny(missing_docs)]
#![deny(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::todo,
    clippy::dbg_macro
)]

pub mod abi;
pub mod counters;
pub mod host;
pub mod hwacc16;
pub mod kernel;
pub mod simd;
pub mod target;
pub mod tile;

pub use counters::Counters;
pub use kernel::Kernel;
pub use target::{builtin_targets, Target, TargetError};
pub use tile::{reference_gemm, Element, Tile, TileError, TileF32, TileI8};
