//! Captures the diagnostics MLIR emits while a closure runs, so none is lost
//! and each can be shown to the user (re-rendered on the `.sched` source when
//! it points there).

use melior::diagnostic::DiagnosticSeverity;
use melior::Context;
use std::cell::RefCell;
use std::rc::Rc;

/// One diagnostic MLIR emitted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MlirMessage {
    /// `error`, `warning`, `note` or `remark`.
    pub severity: &'static str,
    /// The location as MLIR prints it, e.g. `loc("conv.sched":12:5)`.
    pub location: String,
    /// The message.
    pub message: String,
    /// Attached notes.
    pub notes: Vec<MlirMessage>,
}

impl MlirMessage {
    /// `(file, line, column)` when the location is a plain file location.
    pub fn file_line_column(&self) -> Option<(String, usize, usize)> {
        file_line_column(&self.location)
    }
}

/// Parses `loc("file":12:5)` (also inside fused or named locations: the first file position wins).
pub fn file_line_column(location: &str) -> Option<(String, usize, usize)> {
    let start = location.find('"')?;
    let rest = &location[start + 1..];
    let end = rest.find('"')?;
    let file = &rest[..end];
    let mut numbers = rest[end + 1..].strip_prefix(':')?.splitn(3, ':');
    let line = numbers.next()?.parse().ok()?;
    let column: String = numbers
        .next()?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    Some((file.to_string(), line, column.parse().ok()?))
}

impl std::fmt::Display for MlirMessage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}: {}", self.location, self.severity, self.message)?;
        for note in &self.notes {
            write!(f, "\n  {note}")?;
        }
        Ok(())
    }
}

fn convert(diagnostic: &melior::diagnostic::Diagnostic) -> MlirMessage {
    let severity = match diagnostic.severity() {
        DiagnosticSeverity::Error => "error",
        DiagnosticSeverity::Warning => "warning",
        DiagnosticSeverity::Note => "note",
        DiagnosticSeverity::Remark => "remark",
    };
    let notes = (0..diagnostic.note_count())
        .filter_map(|i| diagnostic.note(i).ok())
        .map(|n| convert(&n))
        .collect();
    MlirMessage {
        severity,
        location: diagnostic.location().to_string(),
        message: diagnostic.to_string(),
        notes,
    }
}

/// Runs `body` and returns its result with every diagnostic MLIR emitted meanwhile.
pub fn capture_diagnostics<R>(
    context: &Context,
    body: impl FnOnce() -> R,
) -> (R, Vec<MlirMessage>) {
    let messages = Rc::new(RefCell::new(Vec::new()));
    let sink = Rc::clone(&messages);
    let id = context.attach_diagnostic_handler(move |diagnostic| {
        sink.borrow_mut().push(convert(&diagnostic));
        true
    });
    let result = body();
    context.detach_diagnostic_handler(id);
    let messages = messages.borrow().clone();
    (result, messages)
}
