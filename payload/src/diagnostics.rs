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

/// Parses `loc("file":12:5)`: the first `"file":line:column` in a printed
/// location, also inside fused, named (`loc("name"("file":1:2))`) or
/// call-site locations. The one location parser: diagnostics, the profile's
/// counts and the stage marks all read locations through it.
pub fn file_line_column(location: &str) -> Option<(String, usize, usize)> {
    let mut from = 0;
    while let Some(found) = location[from..].find("\":") {
        let close = from + found;
        let digits =
            |text: &str| -> String { text.chars().take_while(char::is_ascii_digit).collect() };
        let rest = &location[close + 2..];
        let line = digits(rest);
        let column = rest[line.len()..].strip_prefix(':').map(digits);
        if let (Ok(line), Some(Ok(column))) = (line.parse(), column.map(|c| c.parse())) {
            let open = location[..close].rfind('"')?;
            return Some((location[open + 1..close].to_string(), line, column));
        }
        from = close + 2;
    }
    None
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

#[cfg(test)]
mod tests {
    use super::file_line_column;

    #[test]
    fn the_first_file_position_of_a_location_is_read() {
        let at = |file: &str, line, column| Some((file.to_string(), line, column));
        assert_eq!(
            file_line_column("loc(\"p.mlir\":12:5)"),
            at("p.mlir", 12, 5)
        );
        assert_eq!(
            file_line_column("loc(fused[\"a.mlir\":2:3, \"b.mlir\":4:5])"),
            at("a.mlir", 2, 3)
        );
        // A named location: the name is not a file.
        assert_eq!(
            file_line_column("loc(\"conv1\"(\"m.mlir\":7:9))"),
            at("m.mlir", 7, 9)
        );
        assert_eq!(file_line_column("loc(\"x\": oops)"), None);
        assert_eq!(file_line_column("loc(unknown)"), None);
    }
}
