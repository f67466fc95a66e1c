//! Why a run of the pipeline failed, as the CLI reports it: bad input (exit
//! code 1) or a failure of this tool (exit code 2), each with its rendered
//! report. Shared by the pipeline and the inline phase.

use payload::ErrorKind;

/// Why a run failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// Bad input (schedule, payload): the rendered diagnostics. Exit code 1.
    Input(String),
    /// A failure of this tool: what happened. Exit code 2.
    Internal(String),
}

impl Failure {
    /// A failure of `kind` with its rendered report (an accelerator's, which
    /// the pipeline never runs into, counts as this tool's).
    pub fn of_kind(kind: ErrorKind, report: String) -> Self {
        match kind {
            ErrorKind::Input => Failure::Input(report),
            ErrorKind::Internal | ErrorKind::Accelerator => Failure::Internal(report),
        }
    }

    /// Whose fault it is.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Failure::Input(_) => ErrorKind::Input,
            Failure::Internal(_) => ErrorKind::Internal,
        }
    }

    /// The rendered report.
    pub fn message(&self) -> &str {
        match self {
            Failure::Input(text) | Failure::Internal(text) => text,
        }
    }
}
