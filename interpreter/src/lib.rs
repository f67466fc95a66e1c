//! # interpreter: from a resolved schedule to transformed IR
//!
//! [`plan`] turns a [`schedule_lang::Model`] into a transform-dialect
//! [`Script`] whose every op is located at the `.sched` directive it came from;
//! `payload::transform::apply_script` runs it on a payload module through the
//! upstream transform interpreter; [`pipeline::run`] chains parsing, resolution, planning and
//! application the way `sched-apply` does. The script is standalone, so
//! `mlir-opt --transform-interpreter` gives the same result. [`explain`]
//! shows the nests a schedule asks for and the loops it made.

#![deny(missing_docs)]
#![deny(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::todo,
    clippy::dbg_macro
)]

pub mod collapse;
pub mod explain;
pub mod failure;
pub mod inline;
pub mod mlir_report;
pub mod pipeline;
pub mod plan;
pub mod script;

pub use failure::Failure;
pub use plan::plan;
pub use script::Script;
