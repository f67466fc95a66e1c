//! Errors below the language: whose fault a failure is ([`ErrorKind`]: the
//! user's input, this tool, an accelerator), what went wrong, and MLIR's own
//! diagnostics, kept as MLIR printed them. The CLI derives its exit code
//! from the kind ([`ErrorKind::exit_code`]) and renders the diagnostics on
//! the payload in one place (`interpreter::pipeline::render_on_payload`).

use crate::diagnostics::MlirMessage;

/// Whose fault a failure is, which decides the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The user's input (schedule, payload, arguments, files): exit code 1.
    Input,
    /// This tool: exit code 2.
    Internal,
    /// An accelerator's kernel failed a tile at run time: exit code 3.
    Accelerator,
}

impl ErrorKind {
    /// The process's exit code for a failure of this kind.
    pub fn exit_code(self) -> u8 {
        match self {
            ErrorKind::Input => 1,
            ErrorKind::Internal => 2,
            ErrorKind::Accelerator => 3,
        }
    }
}

/// A failure to load, describe, transform, lower or compile a payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayloadError {
    /// What went wrong, in one line.
    pub message: String,
    /// MLIR's own diagnostics, as it printed them.
    pub diagnostics: Vec<MlirMessage>,
    /// Whose fault it is.
    pub kind: ErrorKind,
}

impl PayloadError {
    /// A fault of the input, with MLIR's diagnostics about it.
    pub fn input(message: impl Into<String>, diagnostics: Vec<MlirMessage>) -> Self {
        Self {
            message: message.into(),
            diagnostics,
            kind: ErrorKind::Input,
        }
    }

    /// A failure of this tool, not of the input.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::internal_with(message, Vec::new())
    }

    /// A failure of this tool, with MLIR's diagnostics about it.
    pub fn internal_with(message: impl Into<String>, diagnostics: Vec<MlirMessage>) -> Self {
        Self {
            message: message.into(),
            diagnostics,
            kind: ErrorKind::Internal,
        }
    }

    /// Whether the fault is this tool's.
    pub fn is_internal(&self) -> bool {
        self.kind == ErrorKind::Internal
    }
}

impl std::fmt::Display for PayloadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.message)?;
        for diagnostic in &self.diagnostics {
            write!(f, "\n{diagnostic}")?;
        }
        Ok(())
    }
}

impl std::error::Error for PayloadError {}
