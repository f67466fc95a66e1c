//! Byte spans into a `.sched` source and their conversion to line:column.
//!
//! A [`Span`] is a small `Copy` value stored in every AST node; it becomes a
//! human position only when a diagnostic is rendered, through [`SourceFile`].

/// A half-open byte range `start..end` into one source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// First byte of the range.
    pub start: u32,
    /// One past the last byte of the range.
    pub end: u32,
}

impl Span {
    /// A span from byte offsets.
    pub fn new(start: usize, end: usize) -> Self {
        Self {
            start: start as u32,
            end: end.max(start) as u32,
        }
    }

    /// The smallest span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// Length in bytes.
    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    /// True when the span covers no byte.
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

/// A named source text (a `.sched` file or a string in a test).
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The name shown in diagnostics, usually the path as the user gave it.
    pub name: String,
    /// The whole text.
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// Wraps a text under a display name.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Self {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// The largest character boundary at or before a byte offset (clamped to
    /// the text): a location from elsewhere (MLIR counts bytes) may fall
    /// inside a multi-byte character.
    fn floor_boundary(&self, offset: usize) -> usize {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_column(&self, offset: u32) -> (usize, usize) {
        let offset = self.floor_boundary(offset as usize);
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        let start = self.line_starts[line];
        let column = self.text[start..offset].chars().count() + 1;
        (line + 1, column)
    }

    /// The byte offset of a 1-based line and column (in characters), clamped to the text.
    pub fn offset(&self, line: usize, column: usize) -> u32 {
        let Some(&start) = self.line_starts.get(line.saturating_sub(1)) else {
            return self.text.len() as u32;
        };
        let text = self.line_text(line);
        let within: usize = text
            .chars()
            .take(column.saturating_sub(1))
            .map(char::len_utf8)
            .sum();
        (start + within) as u32
    }

    /// The text of a 1-based line, without its newline; empty for line 0
    /// (MLIR's "unknown" line) and for lines past the end.
    pub fn line_text(&self, line: usize) -> &str {
        let Some(index) = line.checked_sub(1) else {
            return "";
        };
        let start = self
            .line_starts
            .get(index)
            .copied()
            .unwrap_or(self.text.len());
        let end = self
            .line_starts
            .get(line)
            .map(|e| e.saturating_sub(1))
            .unwrap_or(self.text.len());
        self.text[start..end.max(start)].trim_end_matches('\r')
    }

    /// The text a span covers.
    pub fn slice(&self, span: Span) -> &str {
        let end = self.floor_boundary(span.end as usize);
        let start = self.floor_boundary((span.start as usize).min(end));
        &self.text[start..end]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_zero_and_lines_past_the_end_are_empty() {
        let file = SourceFile::new("a.mlirbc", "");
        assert_eq!(file.line_text(0), "");
        assert_eq!(file.line_text(3), "");
        assert_eq!(file.offset(0, 0), 0);
        let file = SourceFile::new("a.sched", "ab\ncd\n");
        assert_eq!(file.line_text(0), "");
        assert_eq!(file.line_text(2), "cd");
        assert_eq!(file.line_text(9), "");
    }

    #[test]
    fn line_and_column_are_one_based() {
        let file = SourceFile::new("a.sched", "ab\ncd\n");
        assert_eq!(file.line_column(0), (1, 1));
        assert_eq!(file.line_column(4), (2, 2));
        assert_eq!(file.line_text(2), "cd");
        assert_eq!(file.line_column(6), (3, 1));
    }

    #[test]
    fn offsets_inside_a_character_fall_back_to_its_start() {
        let file = SourceFile::new("a.mlir", "\u{feff}x = \u{e9}\n");
        assert_eq!(file.line_column(1), (1, 1));
        assert_eq!(file.line_column(3), (1, 2));
        assert_eq!(file.line_column(8), (1, 6));
        assert_eq!(file.slice(Span::new(1, 9)), "\u{feff}x = \u{e9}");
        assert_eq!(file.slice(Span::new(3, 9)), "x = \u{e9}");
    }
}
