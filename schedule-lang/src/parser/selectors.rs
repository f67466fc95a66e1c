//! Selectors (`linalg.generic[1]`, `@f:linalg.matmul`, `"name"`, `[*]`) and
//! the `where` conditions after a definition's dimensions.

use super::{Parsed, Parser, SyntaxError};
use crate::ast::*;
use crate::span::Span;

impl Parser<'_> {
    /// A definition's selector: a quoted name, or `[@function:]dialect.op` with
    /// `[index]` or `[*]`.
    pub(super) fn selector(&mut self) -> Parsed<Selector> {
        self.skip_spaces();
        let start = self.offset();
        if self.rest.starts_with('"') {
            let body = &self.rest[1..];
            let Some(end) = body
                .find(['"', '\n'])
                .filter(|&i| body[i..].starts_with('"'))
            else {
                return Err(SyntaxError {
                    span: Span::new(start, start + 1),
                    message: "unterminated string".into(),
                    label: Some("this quote is never closed".into()),
                    help: None,
                });
            };
            let name = body[..end].to_string();
            self.rest = &body[end + 1..];
            return Ok(Selector::Named {
                name,
                span: Span::new(start, self.offset()),
            });
        }
        let function = if self.rest.starts_with('@') {
            self.rest = &self.rest[1..];
            let function = self.ident("a function name after `@`")?;
            self.expect_char(':', "`:` between the function and the op")?;
            Some(function)
        } else {
            None
        };
        let kind_start = self.offset();
        let first = self
            .ident("an op selector such as `linalg.matmul`, `linalg.generic[1]` or `\"name\"`")?;
        let mut kind = first.name;
        while self.rest.starts_with('.') {
            self.rest = &self.rest[1..];
            let part = self.ident("the rest of the op name")?;
            kind.push('.');
            kind.push_str(&part.name);
        }
        if !kind.contains('.') {
            return Err(SyntaxError {
                span: Span::new(kind_start, self.offset()),
                message: format!("`{kind}` is not an op name"),
                label: Some("expected `dialect.op`".into()),
                help: Some("write the op with its dialect, as in `linalg.matmul`".into()),
            });
        }
        let kind = Ident {
            name: kind,
            span: Span::new(kind_start, self.offset()),
        };
        let every = self.rest.starts_with("[*]");
        if every {
            self.rest = &self.rest[3..];
        }
        let index = if !every && self.rest.starts_with('[') {
            self.rest = &self.rest[1..];
            let (value, span) = self.integer()?;
            if value < 0 {
                return Err(SyntaxError {
                    span,
                    message: "an op index cannot be negative".into(),
                    label: None,
                    help: None,
                });
            }
            self.expect_char(']', "`]` after the op index")?;
            Some((value as u32, span))
        } else {
            None
        };
        Ok(Selector::Op {
            function,
            kind,
            index,
            every,
            span: Span::new(start, self.offset()),
        })
    }

    /// `where COND, COND...` after a definition's dimensions, if there.
    pub(super) fn filters(&mut self) -> Parsed<Vec<Filter>> {
        let mut filters = Vec::new();
        // Spaces before something else stay unread: the definition ends at its `)`.
        let before = self.rest;
        self.skip_spaces();
        let Some(rest) = self
            .rest
            .strip_prefix("where")
            .filter(|r| r.starts_with([' ', '\t']))
        else {
            self.rest = before;
            return Ok(filters);
        };
        self.rest = rest;
        loop {
            self.skip_spaces();
            let start = self.offset();
            let subject = self.ident("a dimension name or `stride`, `dilation`, `type`, `body`")?;
            self.skip_spaces();
            let comparison = [
                ("==", Comparison::Eq),
                ("!=", Comparison::Ne),
                ("<=", Comparison::Le),
                (">=", Comparison::Ge),
                ("<", Comparison::Lt),
                (">", Comparison::Gt),
            ]
            .into_iter()
            .find(|(symbol, _)| self.rest.starts_with(symbol));
            let Some((symbol, comparison)) = comparison else {
                return Err(self.unexpected("a comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`)"));
            };
            self.rest = &self.rest[symbol.len()..];
            self.skip_spaces();
            let value = if self
                .rest
                .starts_with(|c: char| c.is_ascii_digit() || c == '-')
            {
                let (value, span) = self.integer()?;
                FilterValue::Int(value, span)
            } else {
                FilterValue::Name(self.ident("a number or a name after the comparison")?)
            };
            filters.push(Filter {
                subject,
                comparison,
                value,
                span: Span::new(start, self.offset()),
            });
            self.skip_spaces();
            match self.rest.strip_prefix(',') {
                Some(rest) => self.rest = rest,
                None => return Ok(filters),
            }
        }
    }
}
