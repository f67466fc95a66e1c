//! The canonical printer (`sched-apply fmt`): one binding per line, a chain's
//! first call on the func's line and its line breaks kept (a call that began
//! a line, or follows comments, begins one indented four spaces; calls on
//! one line stay together). Comments and single blank lines are kept.

use crate::ast::*;
use std::fmt::Write;

/// Prints a file in canonical form. Parsing the result gives the same tree.
pub fn format(file: &ScheduleFile) -> String {
    let mut out = String::new();
    for item in &file.items {
        match item {
            Item::Func(decl) => {
                if decl.default {
                    out.push_str("default ");
                }
                let _ = write!(out, "func {} = {}", decl.name.name, definition(&decl.pure));
                if let Some(update) = &decl.update {
                    let _ = write!(out, " update {}", definition(update));
                }
                trailing(&mut out, decl.trailing.as_ref());
            }
            Item::Chain(chain) => {
                out.push_str(&chain.func.name);
                for (i, directive) in chain.directives.iter().enumerate() {
                    let after_comment = i > 0 && chain.directives[i - 1].trailing.is_some();
                    if after_comment
                        || (i > 0 && (directive.starts_line || !directive.leading.is_empty()))
                    {
                        if !after_comment {
                            out.push('\n');
                        }
                        for comment in &directive.leading {
                            let _ = writeln!(out, "    {}", comment.text);
                        }
                        out.push_str("    ");
                    }
                    let _ = write!(out, ".{}(", directive.name.name);
                    let args: Vec<String> = directive.args.iter().map(argument).collect();
                    out.push_str(&args.join(", "));
                    out.push(')');
                    if directive.trailing.is_some() {
                        trailing(&mut out, directive.trailing.as_ref());
                    }
                }
                let ended = chain
                    .directives
                    .last()
                    .is_some_and(|d| d.trailing.is_some());
                if !ended {
                    out.push('\n');
                }
            }
            Item::Comment(comment) => {
                let _ = writeln!(out, "{}", comment.text);
            }
            Item::Blank => out.push('\n'),
        }
    }
    out
}

fn trailing(out: &mut String, comment: Option<&Comment>) {
    if let Some(comment) = comment {
        let _ = write!(out, "  {}", comment.text);
    }
    out.push('\n');
}

fn argument(arg: &Arg) -> String {
    match arg {
        Arg::Name(ident) => ident.name.clone(),
        Arg::Int { value, .. } => value.to_string(),
    }
}

/// `SELECTOR (d0, d1 | r0)` as written canonically.
pub fn definition(definition: &Definition) -> String {
    let mut dims = definition
        .dims
        .iter()
        .map(|d| d.name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    if !definition.reduction_dims.is_empty() {
        let reduction = definition
            .reduction_dims
            .iter()
            .map(|d| d.name.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        dims = if dims.is_empty() {
            format!("| {reduction}")
        } else {
            format!("{dims} | {reduction}")
        };
    }
    let mut text = format!("{} ({dims})", selector(&definition.selector));
    for (position, filter) in definition.filters.iter().enumerate() {
        text.push_str(if position == 0 { " where " } else { ", " });
        let value = match &filter.value {
            FilterValue::Int(value, _) => value.to_string(),
            FilterValue::Name(name) => name.name.clone(),
        };
        let _ = write!(
            text,
            "{} {} {value}",
            filter.subject.name,
            filter.comparison.symbol()
        );
    }
    text
}

/// A selector as written canonically.
pub fn selector(selector: &Selector) -> String {
    match selector {
        Selector::Op {
            function,
            kind,
            index,
            every,
            ..
        } => {
            let mut text = String::new();
            if let Some(function) = function {
                let _ = write!(text, "@{}:", function.name);
            }
            text.push_str(&kind.name);
            if *every {
                text.push_str("[*]");
            }
            if let Some((index, _)) = index {
                let _ = write!(text, "[{index}]");
            }
            text
        }
        Selector::Named { name, .. } => format!("\"{name}\""),
    }
}
