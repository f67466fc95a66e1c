//! # schedule-lang: the `.sched` language
//!
//! A `.sched` file binds *funcs* to linalg ops of a payload and schedules them
//! with Halide's directives:
//!
//! ```text
//! func relu = linalg.generic[1] (n, y, x, c)
//! relu.split(c, co, ci, 64)
//!     .reorder(ci, xi, xo, y, n, co)   # innermost first, as in Halide
//! ```
//!
//! The crate turns text into a syntax tree ([`parse`]), prints it back in
//! canonical form ([`format`]), and resolves it against a description of the
//! payload ([`PayloadInfo`]) into a [`Model`]: per func and stage, the loop
//! nest Halide would build, which the `interpreter` crate plans into
//! transform-dialect ops. Every node carries a [`Span`]; every problem becomes
//! a [`Diagnostic`] that renders with the file, line, column and a caret.
//! Parsing and resolution report all the errors they find, never only the
//! first. This crate does not link MLIR.

#![deny(missing_docs)]
#![deny(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::todo,
    clippy::dbg_macro
)]

pub mod ast;
pub mod collapse;
pub mod diagnostic;
pub mod directives;
pub mod format;
pub mod machine;
pub mod model;
pub mod naming;
pub mod parser;
pub mod payload_info;
pub mod resolve;
pub mod span;

pub use ast::ScheduleFile;
pub use diagnostic::{render_all as render_all_diagnostics, Diagnostic, Severity};
pub use format::format;
pub use machine::VectorUnit;
pub use model::Model;
pub use parser::parse;
pub use payload_info::{IteratorKind, MapResult, OperandInfo, PayloadInfo, PayloadOp, StridedRead};
pub use resolve::{resolve, resolve_for};
pub use span::{SourceFile, Span};
