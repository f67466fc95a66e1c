//! The `.sched` parser: text → [`ScheduleFile`] plus every syntax error found.
//!
//! Statements are line-oriented: a `func` binding or a chain of directive calls
//! whose continuation lines start with `.`. Tokens are recognised with `nom`;
//! each statement is parsed by recursive descent over them. After an error the
//! parser skips to the next statement, so one run reports all syntax errors.

use crate::ast::*;
use crate::diagnostic::Diagnostic;
use crate::span::Span;
use nom::bytes::complete::{take_till, take_while, take_while1};
use nom::character::complete::{char as one_char, digit1, space0};
use nom::IResult;

mod selectors;

/// Parses a whole file. The tree holds every statement that parsed; the
/// diagnostics list every syntax error.
pub fn parse(text: &str) -> (ScheduleFile, Vec<Diagnostic>) {
    let mut parser = Parser {
        source: text,
        rest: text,
        items: Vec::new(),
        errors: Vec::new(),
    };
    parser.file();
    (
        ScheduleFile {
            items: parser.items,
        },
        parser.errors,
    )
}

/// A syntax error before it becomes a [`Diagnostic`].
struct SyntaxError {
    span: Span,
    message: String,
    label: Option<String>,
    help: Option<String>,
}

type Parsed<T> = Result<T, SyntaxError>;

struct Parser<'a> {
    source: &'a str,
    rest: &'a str,
    items: Vec<Item>,
    errors: Vec<Diagnostic>,
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn identifier(input: &str) -> IResult<&str, &str> {
    let (rest, _) = take_while1(is_ident_start)(input)?;
    let (rest, _) = take_while(is_ident_char)(rest)?;
    Ok((rest, &input[..input.len() - rest.len()]))
}

fn comment_text(input: &str) -> IResult<&str, &str> {
    take_till(|c| c == '\n')(input)
}

impl<'a> Parser<'a> {
    fn offset(&self) -> usize {
        self.source.len() - self.rest.len()
    }

    fn here(&self) -> Span {
        let offset = self.offset();
        let width = self
            .rest
            .chars()
            .next()
            .filter(|c| *c != '\n')
            .map_or(0, char::len_utf8);
        Span::new(offset, offset + width)
    }

    fn skip_spaces(&mut self) {
        if let Ok((rest, _)) = space0::<_, nom::error::Error<&str>>(self.rest) {
            self.rest = rest;
        }
    }

    fn at_comment(&self) -> bool {
        self.rest.starts_with('#') || self.rest.starts_with("//")
    }

    fn at_line_end(&self) -> bool {
        self.rest.is_empty()
            || self.rest.starts_with('\n')
            || self.rest.starts_with("\r\n")
            || self.at_comment()
    }

    fn comment(&mut self) -> Comment {
        let start = self.offset();
        let (rest, text) = comment_text(self.rest).unwrap_or((self.rest, ""));
        self.rest = rest;
        let text = text.trim_end();
        Comment {
            text: text.to_string(),
            span: Span::new(start, start + text.len()),
        }
    }

    fn newline(&mut self) {
        if let Some(rest) = self.rest.strip_prefix("\r\n") {
            self.rest = rest;
        } else if let Some(rest) = self.rest.strip_prefix('\n') {
            self.rest = rest;
        }
    }

    /// Looks past blank and comment-only lines: does the next code line start with `.`?
    fn next_code_line_continues(&self) -> bool {
        for line in self.rest.lines() {
            let trimmed = line.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("//") {
                continue;
            }
            return trimmed.starts_with('.');
        }
        false
    }

    fn file(&mut self) {
        let mut pending_blank = false;
        loop {
            self.skip_spaces();
            if self.rest.is_empty() {
                break;
            }
            if self.rest.starts_with('\n') || self.rest.starts_with("\r\n") {
                self.newline();
                // A blank line: the line we just ended was empty.
                let line_start = self.source[..self.offset() - 1]
                    .rfind('\n')
                    .map_or(0, |i| i + 1);
                if self.source[line_start..self.offset() - 1].trim().is_empty()
                    && !self.items.is_empty()
                {
                    pending_blank = true;
                }
                continue;
            }
            if pending_blank {
                self.items.push(Item::Blank);
                pending_blank = false;
            }
            if self.at_comment() {
                let comment = self.comment();
                self.items.push(Item::Comment(comment));
                continue;
            }
            let default = self.rest.strip_prefix("default").is_some_and(|rest| {
                let func = rest.trim_start_matches([' ', '\t']);
                rest.len() > func.len()
                    && func.starts_with("func")
                    && !func[4..].starts_with(is_ident_char)
            });
            let result = if default
                || self.rest.starts_with("func") && !self.rest[4..].starts_with(is_ident_char)
            {
                self.func_decl(default)
                    .map(|decl| Item::Func(Box::new(decl)))
            } else if self.rest.starts_with('.') {
                Err(SyntaxError {
                    span: self.here(),
                    message: "a `.directive(...)` line must continue a chain".into(),
                    label: Some("nothing to continue here".into()),
                    help: Some(
                        "start the chain with the func's name, as in `relu.split(x, xo, xi, 8)`"
                            .into(),
                    ),
                })
            } else {
                self.chain().map(Item::Chain)
            };
            match result {
                Ok(item) => self.items.push(item),
                Err(error) => {
                    self.errors.push(to_diagnostic(error));
                    self.recover();
                }
            }
        }
    }

    /// Skips the rest of a broken statement: its line and any `.` continuation lines.
    fn recover(&mut self) {
        loop {
            let (rest, _) = comment_text(self.rest).unwrap_or((self.rest, ""));
            self.rest = rest;
            self.newline();
            if !self.rest.trim_start_matches([' ', '\t']).starts_with('.') {
                break;
            }
        }
    }

    fn expect_char(&mut self, wanted: char, what: &str) -> Parsed<Span> {
        self.skip_spaces();
        let start = self.offset();
        match one_char::<_, nom::error::Error<&str>>(wanted)(self.rest) {
            Ok((rest, _)) => {
                self.rest = rest;
                Ok(Span::new(start, start + 1))
            }
            Err(_) => Err(self.unexpected(what)),
        }
    }

    fn unexpected(&self, what: &str) -> SyntaxError {
        let found = if self.at_line_end() {
            "the end of the line".to_string()
        } else {
            let first = self.rest.chars().next().unwrap_or(' ');
            let token: String = if is_ident_char(first) || first == '.' {
                self.rest
                    .chars()
                    .take_while(|c| is_ident_char(*c) || *c == '.')
                    .take(40)
                    .collect()
            } else {
                first.to_string()
            };
            format!("`{token}`")
        };
        SyntaxError {
            span: self.here(),
            message: format!("expected {what}, found {found}"),
            label: None,
            help: None,
        }
    }

    fn ident(&mut self, what: &str) -> Parsed<Ident> {
        self.skip_spaces();
        let start = self.offset();
        match identifier(self.rest) {
            Ok((rest, name)) => {
                self.rest = rest;
                Ok(Ident {
                    name: name.to_string(),
                    span: Span::new(start, start + name.len()),
                })
            }
            Err(_) => Err(self.unexpected(what)),
        }
    }

    fn integer(&mut self) -> Parsed<(i64, Span)> {
        self.skip_spaces();
        let start = self.offset();
        let negative = self.rest.starts_with('-');
        let digits_from = if negative { &self.rest[1..] } else { self.rest };
        let (rest, digits) = digit1::<_, nom::error::Error<&str>>(digits_from)
            .map_err(|_| self.unexpected("an integer"))?;
        let span = Span::new(start, self.source.len() - rest.len());
        let value: i64 = digits.parse().map_err(|_| SyntaxError {
            span,
            message: "integer is too large".into(),
            label: None,
            help: None,
        })?;
        self.rest = rest;
        Ok((if negative { -value } else { value }, span))
    }

    fn func_decl(&mut self, default: bool) -> Parsed<FuncDecl> {
        let start = self.offset();
        if default {
            self.rest = &self.rest["default".len()..];
            self.skip_spaces();
        }
        self.rest = &self.rest[4..];
        let name = self.ident("a func name after `func`")?;
        self.expect_char('=', "`=` after the func name")?;
        let pure = self.definition()?;
        self.skip_spaces();
        let update =
            if self.rest.starts_with("update") && !self.rest[6..].starts_with(is_ident_char) {
                self.rest = &self.rest[6..];
                Some(self.definition()?)
            } else {
                None
            };
        let end = self.offset();
        let trailing = self.line_end()?;
        Ok(FuncDecl {
            default,
            name,
            pure,
            update,
            trailing,
            span: Span::new(start, end),
        })
    }

    /// Expects the end of a statement line: spaces, maybe a comment, then a newline.
    fn line_end(&mut self) -> Parsed<Option<Comment>> {
        self.skip_spaces();
        if self.at_comment() {
            let comment = self.comment();
            self.newline();
            return Ok(Some(comment));
        }
        if self.rest.is_empty() || self.rest.starts_with('\n') || self.rest.starts_with("\r\n") {
            self.newline();
            return Ok(None);
        }
        Err(self.unexpected("the end of the line"))
    }

    fn definition(&mut self) -> Parsed<Definition> {
        self.skip_spaces();
        let start = self.offset();
        let selector = self.selector()?;
        self.expect_char('(', "`(` and the op's dimension names")?;
        let mut dims = Vec::new();
        let mut reduction_dims = Vec::new();
        let mut in_reduction = false;
        loop {
            self.skip_spaces();
            if self.rest.starts_with(')') {
                break;
            }
            if self.rest.starts_with('|') && !in_reduction {
                self.rest = &self.rest[1..];
                in_reduction = true;
                continue;
            }
            let dim = self.ident("a dimension name")?;
            if in_reduction {
                reduction_dims.push(dim)
            } else {
                dims.push(dim)
            }
            self.skip_spaces();
            if self.rest.starts_with(',') {
                self.rest = &self.rest[1..];
            } else if !self.rest.starts_with(')') && !self.rest.starts_with('|') {
                return Err(self.unexpected("`,`, `|` or `)` in the dimension list"));
            }
        }
        self.expect_char(')', "`)`")?;
        let filters = self.filters()?;
        Ok(Definition {
            selector,
            dims,
            reduction_dims,
            filters,
            span: Span::new(start, self.offset()),
        })
    }

    fn chain(&mut self) -> Parsed<Chain> {
        let start = self.offset();
        let func = self.ident("a `func` binding or a func name starting a directive chain")?;
        let mut directives = Vec::new();
        self.skip_spaces();
        if !self.rest.starts_with('.') {
            return Err(SyntaxError {
                span: self.here(),
                message: format!("expected `.directive(...)` after `{}`", func.name),
                label: None,
                help: Some(format!(
                    "schedule the func with a call, as in `{}.compute_root()`",
                    func.name
                )),
            });
        }
        let mut leading = Vec::new();
        let mut new_line = false;
        loop {
            self.skip_spaces();
            if self.rest.starts_with('.') {
                self.rest = &self.rest[1..];
                let mut directive = self.directive()?;
                directive.leading = std::mem::take(&mut leading);
                directive.starts_line = std::mem::take(&mut new_line);
                directives.push(directive);
                continue;
            }
            new_line = true;
            // End of a line: keep going only if the next code line continues the chain.
            let trailing = self.line_end()?;
            if let Some(last) = directives.last_mut() {
                last.trailing = trailing;
            }
            if !self.next_code_line_continues() {
                break;
            }
            // Collect comment lines between here and the continuation.
            loop {
                self.skip_spaces();
                if self.at_comment() {
                    leading.push(self.comment());
                    self.newline();
                } else if self.rest.starts_with('\n') || self.rest.starts_with("\r\n") {
                    self.newline();
                } else {
                    break;
                }
            }
        }
        let end = directives
            .last()
            .map_or(func.span.end as usize, |d| d.span.end as usize);
        Ok(Chain {
            func,
            directives,
            span: Span::new(start, end),
        })
    }

    fn directive(&mut self) -> Parsed<Directive> {
        let name = self.ident("a directive name after `.`")?;
        self.expect_char('(', &format!("`(` after `{}`", name.name))?;
        let mut args = Vec::new();
        loop {
            self.skip_spaces();
            if self.rest.starts_with(')') {
                break;
            }
            let arg = if self
                .rest
                .starts_with(|c: char| c.is_ascii_digit() || c == '-')
            {
                let (value, span) = self.integer()?;
                Arg::Int { value, span }
            } else {
                Arg::Name(self.ident("a loop name, a func name or an integer")?)
            };
            args.push(arg);
            self.skip_spaces();
            if self.rest.starts_with(',') {
                self.rest = &self.rest[1..];
            } else if !self.rest.starts_with(')') {
                let mut error = self.unexpected("`,` or `)` in the argument list");
                if self.at_line_end() {
                    error.help = Some("a call must close on the line it starts".into());
                }
                return Err(error);
            }
        }
        let close = self.expect_char(')', "`)`")?;
        Ok(Directive {
            span: name.span.to(close),
            name,
            args,
            leading: Vec::new(),
            trailing: None,
            starts_line: false,
        })
    }
}

fn to_diagnostic(error: SyntaxError) -> Diagnostic {
    let mut diagnostic = Diagnostic::error("syntax", error.span, error.message);
    diagnostic.label = error.label;
    diagnostic.help = error.help;
    diagnostic
}
