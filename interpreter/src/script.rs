//! The transform script as a first-class artifact: a list of transform ops,
//! each with a comment naming the directive it came from and a location
//! pointing at that directive in the `.sched` file. Rendered as a standalone
//! `transform.with_named_sequence` module with `@__transform_main`, so
//! `mlir-opt --transform-interpreter` can run it too.

use std::fmt::Write;

/// One line of the script body.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Line {
    /// `// text`.
    Comment(String),
    /// One transform op; `location` is `(line, column)` in the `.sched` file.
    Op {
        text: String,
        location: Option<(usize, usize)>,
    },
}

/// A transform script under construction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Script {
    schedule_name: String,
    /// Named sequences the script calls (matchers), rendered before
    /// `@__transform_main`: (name, definition).
    helpers: Vec<(String, String)>,
    lines: Vec<Line>,
    next_id: usize,
    used_names: Vec<String>,
}

/// Our ops that stand in for an upstream op of the same syntax (only to be
/// faster on long chains; `tests/schedules.rs` checks they transform alike),
/// and that upstream op: a portable script uses the upstream one.
const STAND_INS: [(&str, &str); 2] = [
    (
        "transform.sched.fuse_into ",
        "transform.structured.fuse_into_containing_op ",
    ),
    ("transform.sched.cse ", "transform.apply_cse "),
];

/// Ops of our own that only change where values are stored, never what is
/// computed, and return no handle: the portable script leaves them out.
const STORAGE_ONLY: [&str; 1] = ["transform.sched.fresh_init "];

/// The handle type every op in the script uses.
pub const ANY_OP: &str = "!transform.any_op";

impl Script {
    /// An empty script whose locations name `schedule_name`.
    pub fn new(schedule_name: &str) -> Self {
        Self {
            schedule_name: schedule_name.to_string(),
            helpers: Vec::new(),
            lines: Vec::new(),
            next_id: 0,
            used_names: vec!["root".into()],
        }
    }

    /// A fresh SSA name (without `%`) starting with `hint`.
    pub fn fresh(&mut self, hint: &str) -> String {
        let mut base: String = hint
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        // `%xo_4` renamed again becomes `%xo_5`, not `%xo_4_5`.
        while let Some((stem, suffix)) = base.rsplit_once('_') {
            if !stem.is_empty() && !suffix.is_empty() && suffix.chars().all(|c| c.is_ascii_digit())
            {
                base.truncate(stem.len());
            } else {
                break;
            }
        }
        if base.is_empty() || base.starts_with(|c: char| c.is_ascii_digit()) {
            base.insert(0, 'h');
        }
        let mut name = base.clone();
        while self.used_names.contains(&name) {
            self.next_id += 1;
            name = format!("{base}_{}", self.next_id);
        }
        self.used_names.push(name.clone());
        name
    }

    /// Adds the named sequence `name` (its whole definition, `transform.
    /// named_sequence @name(...) {...}`) to the module, once.
    pub fn helper(&mut self, name: &str, definition: &str) {
        if !self.helpers.iter().any(|(n, _)| n == name) {
            self.helpers
                .push((name.to_string(), definition.to_string()));
        }
    }

    /// Adds a comment line.
    pub fn comment(&mut self, text: impl Into<String>) {
        self.lines.push(Line::Comment(text.into()));
    }

    /// Adds an op (its text without location) located at a `.sched` position.
    pub fn op(&mut self, text: impl Into<String>, location: Option<(usize, usize)>) {
        self.lines.push(Line::Op {
            text: text.into(),
            location,
        });
    }

    /// Annotates the ops of `handle` with `attribute = value` (`value` as MLIR
    /// writes an attribute): a `param.constant` named after `hint`, then
    /// `annotate`.
    pub fn annotate(
        &mut self,
        handle: &str,
        attribute: &str,
        value: &str,
        hint: &str,
        location: Option<(usize, usize)>,
    ) {
        let param = self.fresh(hint);
        self.op(
            format!("%{param} = transform.param.constant {value} -> !transform.any_param"),
            location,
        );
        self.op(
            format!(
                "transform.annotate %{handle} \"{attribute}\" = %{param} : {ANY_OP}, !transform.any_param"
            ),
            location,
        );
    }

    /// The script with upstream MLIR's ops only (`--emit transform
    /// --portable`), the stand-ins replaced by the ops they stand in for and
    /// the storage-only ones left out; an op of our own that upstream has
    /// nothing like (`reuse_at`'s, `store_at`'s, ...) is an `Err` with its
    /// name and location.
    pub fn portable(&self) -> Result<Script, (String, Option<(usize, usize)>)> {
        let mut portable = self.clone();
        portable.lines.retain(|line| match line {
            Line::Op { text, .. } => !STORAGE_ONLY.iter().any(|op| text.contains(op)),
            Line::Comment(_) => true,
        });
        for line in &mut portable.lines {
            let Line::Op { text, location } = line else {
                continue;
            };
            for (ours, upstream) in STAND_INS {
                *text = text.replace(ours, upstream);
            }
            if let Some(start) = text.find("transform.sched.") {
                let name = text[start..].split_whitespace().next().unwrap_or_default();
                return Err((name.to_string(), *location));
            }
        }
        Ok(portable)
    }

    /// True when the script does nothing.
    pub fn is_empty(&self) -> bool {
        !self.lines.iter().any(|l| matches!(l, Line::Op { .. }))
    }

    /// How many ops the script has.
    pub fn op_count(&self) -> usize {
        self.lines
            .iter()
            .filter(|l| matches!(l, Line::Op { .. }))
            .count()
    }

    /// Op `index`'s name (`transform.structured.vectorize`) and the `.sched`
    /// line and column of the directive it came from, if it has one.
    pub fn op_origin(&self, index: usize) -> Option<(String, Option<(usize, usize)>)> {
        let (text, location) = self
            .lines
            .iter()
            .filter_map(|l| match l {
                Line::Op { text, location } => Some((text, *location)),
                Line::Comment(_) => None,
            })
            .nth(index)?;
        let name = text
            .split_whitespace()
            .find(|word| word.starts_with("transform."))
            .unwrap_or("a transform op")
            .to_string();
        Some((name, location))
    }

    /// The whole module as MLIR text.
    pub fn render(&self) -> String {
        self.render_prefix(usize::MAX)
    }

    /// The module with only the first `ops` ops (what they need is defined
    /// before them, so it is a valid script too).
    pub fn render_prefix(&self, ops: usize) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "// Transform script generated by sched-apply from {}.",
            self.schedule_name
        );
        out.push_str("module attributes {transform.with_named_sequence} {\n");
        for (_, definition) in &self.helpers {
            for line in definition.lines() {
                let _ = writeln!(out, "  {line}");
            }
        }
        out.push_str("  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {\n");
        let file = self
            .schedule_name
            .replace('\\', "\\\\")
            .replace('"', "\\\"");
        let mut emitted = 0;
        for line in &self.lines {
            if matches!(line, Line::Op { .. }) {
                if emitted == ops {
                    break;
                }
                emitted += 1;
            }
            match line {
                Line::Comment(text) => {
                    let _ = writeln!(out, "    // {text}");
                }
                Line::Op { text, location } => {
                    let mut body = text.lines();
                    let first = body.next().unwrap_or_default();
                    let rest: Vec<&str> = body.collect();
                    let located = |s: &str| match location {
                        Some((line, column)) => format!("{s} loc(\"{file}\":{line}:{column})"),
                        None => s.to_string(),
                    };
                    if rest.is_empty() {
                        let _ = writeln!(out, "    {}", located(first));
                    } else {
                        let _ = writeln!(out, "    {first}");
                        for (i, part) in rest.iter().enumerate() {
                            let text = if i + 1 == rest.len() {
                                located(part)
                            } else {
                                part.to_string()
                            };
                            let _ = writeln!(out, "    {text}");
                        }
                    }
                }
            }
        }
        out.push_str("    transform.yield\n  }\n}\n");
        out
    }
}

/// A typed zero attribute for an element type (`0.0 : f32`, `0 : i32`).
pub(crate) fn zero_attribute(element: &str) -> String {
    if element.starts_with('f') || element.starts_with("bf") {
        format!("0.0 : {element}")
    } else {
        format!("0 : {element}")
    }
}
