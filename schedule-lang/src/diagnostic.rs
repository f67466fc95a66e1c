//! User-facing diagnostics: a message, a primary location, secondary notes and
//! a hint, rendered like rustc and mlir-opt (`FILE:LINE:COL: error: …`, the
//! source line, a caret under the span).

use crate::span::{SourceFile, Span};
use std::fmt::Write;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The input cannot be used.
    Error,
    /// The input is used, but probably not as meant.
    Warning,
    /// Extra context attached to another diagnostic.
    Note,
}

impl Severity {
    fn word(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// A secondary location with its own message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// Where, in the same source as the diagnostic; `None` for a plain note.
    pub span: Option<Span>,
    /// What to say there.
    pub message: String,
}

/// One problem found in the user's input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error, warning or note.
    pub severity: Severity,
    /// A stable identifier of the kind of problem (e.g. `unknown-loop`), for tests and docs.
    pub code: &'static str,
    /// One line saying what is wrong.
    pub message: String,
    /// The place that is wrong; `None` when the problem has no place (a missing file).
    pub span: Option<Span>,
    /// Short text printed under the caret.
    pub label: Option<String>,
    /// Other places that explain the problem.
    pub notes: Vec<Note>,
    /// How to fix it, when we know.
    pub help: Option<String>,
}

impl Diagnostic {
    /// An error at a span.
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Error,
            code,
            message: message.into(),
            span: Some(span),
            label: None,
            notes: Vec::new(),
            help: None,
        }
    }

    /// A warning at a span: the input is used, but part of it does nothing.
    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Warning,
            ..Self::error(code, span, message)
        }
    }

    /// A note at a span: something true about the input that needs no fix.
    pub fn note(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Note,
            ..Self::error(code, span, message)
        }
    }

    /// An error about the whole file (no location inside it).
    pub fn file_error(code: &'static str, message: impl Into<String>) -> Self {
        Self {
            span: None,
            ..Self::error(code, Span::default(), message)
        }
    }

    /// Adds the text shown under the caret.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// Adds a secondary location.
    pub fn with_note(mut self, span: Option<Span>, message: impl Into<String>) -> Self {
        self.notes.push(Note {
            span,
            message: message.into(),
        });
        self
    }

    /// Adds a hint.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Renders as plain text against the source the spans point into.
    pub fn render(&self, source: &SourceFile) -> String {
        let mut out = String::new();
        write_located(
            &mut out,
            source,
            self.span,
            self.severity,
            &self.message,
            self.label.as_deref(),
        );
        for note in &self.notes {
            write_located(
                &mut out,
                source,
                note.span,
                Severity::Note,
                &note.message,
                None,
            );
        }
        if let Some(help) = &self.help {
            let _ = writeln!(out, "  = help: {help}");
        }
        out
    }
}

fn write_located(
    out: &mut String,
    source: &SourceFile,
    span: Option<Span>,
    severity: Severity,
    message: &str,
    label: Option<&str>,
) {
    let Some(span) = span else {
        let _ = writeln!(out, "{}: {}: {message}", source.name, severity.word());
        return;
    };
    let (line, column) = source.line_column(span.start);
    let _ = writeln!(
        out,
        "{}:{line}:{column}: {}: {message}",
        source.name,
        severity.word()
    );
    let (text, shown_column) = cut_line(source.line_text(line), column - 1);
    let gutter = line.to_string().len();
    let _ = writeln!(out, "{:gutter$} |", "");
    let _ = writeln!(out, "{line} | {text}");
    let covered = source.slice(span);
    let room = text.chars().count().saturating_sub(shown_column).max(1);
    let on_line = covered
        .split('\n')
        .next()
        .unwrap_or("")
        .chars()
        .count()
        .clamp(1, room);
    let underline = "^".repeat(on_line);
    let padding = " ".repeat(shown_column);
    match label {
        Some(label) => {
            let _ = writeln!(out, "{:gutter$} | {padding}{underline} {label}", "");
        }
        None => {
            let _ = writeln!(out, "{:gutter$} | {padding}{underline}", "");
        }
    }
}

/// A control character (a NUL byte in a payload) as its visible symbol (␀),
/// so the terminal shows where it is instead of acting on it.
fn visible(character: char) -> char {
    match character {
        '\0'..='\u{1f}' if character != '\t' => {
            char::from_u32(0x2400 + character as u32).unwrap_or(character)
        }
        '\u{7f}' => '\u{2421}',
        _ => character,
    }
}

/// Source lines longer than this many characters are cut around the column.
const LONGEST_SHOWN_LINE: usize = 120;

/// The part of a source line to show, and the column (0-based, in
/// characters) within it: a line longer than [`LONGEST_SHOWN_LINE`] (a
/// payload's one-line constant can be megabytes) is cut to a window around
/// the column, with `…` where text was left out.
fn cut_line(line: &str, column: usize) -> (String, usize) {
    let length = line.chars().count();
    if length <= LONGEST_SHOWN_LINE {
        return (line.chars().map(visible).collect(), column);
    }
    let first = column
        .saturating_sub(LONGEST_SHOWN_LINE / 2)
        .min(length - LONGEST_SHOWN_LINE);
    let last = first + LONGEST_SHOWN_LINE;
    let mut shown: String = line
        .chars()
        .skip(first)
        .take(LONGEST_SHOWN_LINE)
        .map(visible)
        .collect();
    let mut shown_column = column - first;
    if first > 0 {
        shown.insert(0, '…');
        shown_column += 1;
    }
    if last < length {
        shown.push('…');
    }
    (shown, shown_column)
}

/// Renders many diagnostics, one after the other, separated by blank lines.
pub fn render_all(diagnostics: &[Diagnostic], source: &SourceFile) -> String {
    diagnostics
        .iter()
        .map(|d| d.render(source))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The closest candidate to `name` by edit distance, if one is close enough to suggest.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|candidate| (edit_distance(name, candidate), candidate))
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_caret_under_span() {
        let source = SourceFile::new("s.sched", "relu.split(c, co, ci, 0)\n");
        let diagnostic = Diagnostic::error(
            "zero-factor",
            Span::new(22, 23),
            "split factor must be positive",
        )
        .with_label("this is 0")
        .with_help("use a factor of 1 or more");
        assert_eq!(
            diagnostic.render(&source),
            "s.sched:1:23: error: split factor must be positive\n  |\n1 | relu.split(c, co, ci, 0)\n  |                       ^ this is 0\n  = help: use a factor of 1 or more\n"
        );
    }

    #[test]
    fn suggests_close_names_only() {
        assert_eq!(did_you_mean("xO", ["xo", "xi", "y"]), Some("xo"));
        assert_eq!(did_you_mean("banana", ["xo", "xi"]), None);
    }

    #[test]
    fn long_lines_are_cut_around_the_column() {
        let line = format!("{}X{}", "a".repeat(5000), "b".repeat(5000));
        let file = SourceFile::new("p.mlir", format!("{line}\n"));
        let text = Diagnostic::error("e", Span::new(5000, 5001), "here").render(&file);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "p.mlir:1:5001: error: here");
        assert!(lines[2].chars().count() < 140, "{}", lines[2]);
        let shown = lines[2].trim_start_matches("1 | ");
        let caret = lines[3].trim_start_matches("  | ");
        let x = shown.chars().position(|c| c == 'X').unwrap();
        assert_eq!(caret.chars().position(|c| c == '^'), Some(x));
        assert!(shown.starts_with('…') && shown.ends_with('…'));
    }

    #[test]
    fn carets_under_multi_byte_characters() {
        let file = SourceFile::new("p.mlir", "  %x = \u{e9}\n");
        let text = Diagnostic::error("e", Span::new(7, 9), "bad").render(&file);
        assert_eq!(
            text,
            "p.mlir:1:8: error: bad\n  |\n1 |   %x = \u{e9}\n  |        ^\n"
        );
    }
}
