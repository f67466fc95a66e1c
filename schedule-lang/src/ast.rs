//! The syntax tree of a `.sched` file. Every node carries the [`Span`] it was
//! parsed from; comments and blank lines are kept so the formatter can print
//! the file back without losing them.

use crate::span::Span;

/// A name as written, with its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where it was written.
    pub span: Span,
}

/// A whole `.sched` file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScheduleFile {
    /// Top-level items in source order.
    pub items: Vec<Item>,
}

/// One top-level item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// `func NAME = SELECTOR (dims) [update SELECTOR (dims)]`.
    Func(Box<FuncDecl>),
    /// `NAME.directive(...).directive(...)`, possibly over several lines.
    Chain(Chain),
    /// A comment on a line of its own.
    Comment(Comment),
    /// One or more empty lines between items.
    Blank,
}

/// A `#` or `//` comment; `text` includes the marker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// The comment as written, marker included, trailing spaces removed.
    pub text: String,
    /// Where it was written.
    pub span: Span,
}

/// Binds a func name to payload ops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuncDecl {
    /// The func's name.
    pub name: Ident,
    /// The op computing the func (Halide's pure definition).
    pub pure: Definition,
    /// The op updating it (Halide's update definition), if bound.
    pub update: Option<Definition>,
    /// A comment at the end of the line.
    pub trailing: Option<Comment>,
    /// The whole declaration.
    pub span: Span,
}

/// One bound op and the names of its iteration dimensions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    /// Which op.
    pub selector: Selector,
    /// Names of the parallel dimensions, in linalg order.
    pub dims: Vec<Ident>,
    /// Names of the reduction dimensions (after `|`), in linalg order.
    pub reduction_dims: Vec<Ident>,
    /// The whole definition.
    pub span: Span,
}

/// How a definition names its payload op.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selector {
    /// `[@function:]dialect.op[index]`.
    Op {
        /// `@function:` scope, if any.
        function: Option<Ident>,
        /// The op name, like `linalg.matmul`.
        kind: Ident,
        /// `[index]`: the n-th such op in payload order, if given.
        index: Option<(u32, Span)>,
        /// The whole selector.
        span: Span,
    },
    /// `"name"`: the op whose `sched.name` attribute is this string.
    Named {
        /// The string, without quotes.
        name: String,
        /// The whole selector, quotes included.
        span: Span,
    },
}

impl Selector {
    /// Where the selector was written.
    pub fn span(&self) -> Span {
        match self {
            Selector::Op { span, .. } | Selector::Named { span, .. } => *span,
        }
    }
}

/// `func.directive(...)` chained calls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    /// The func the chain starts from.
    pub func: Ident,
    /// The calls, in order.
    pub directives: Vec<Directive>,
    /// The whole chain.
    pub span: Span,
}

/// One scheduling call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    /// The directive's name (`split`, `reorder`, …).
    pub name: Ident,
    /// The arguments as written.
    pub args: Vec<Arg>,
    /// Comments on their own lines just before this call.
    pub leading: Vec<Comment>,
    /// A comment after this call on the same line.
    pub trailing: Option<Comment>,
    /// The call, from its name to its closing parenthesis.
    pub span: Span,
}

/// A directive argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A loop or func name.
    Name(Ident),
    /// An integer (factor, width).
    Int {
        /// The value.
        value: i64,
        /// Where it was written.
        span: Span,
    },
}

impl Arg {
    /// Where the argument was written.
    pub fn span(&self) -> Span {
        match self {
            Arg::Name(ident) => ident.span,
            Arg::Int { span, .. } => *span,
        }
    }
}

/// Sets every span in the file to the empty span: two files that differ only
/// in layout then compare equal (used to test that formatting keeps meaning).
pub fn erase_spans(file: &mut ScheduleFile) {
    fn ident(i: &mut Ident) {
        i.span = Span::default();
    }
    fn comment(c: &mut Comment) {
        c.span = Span::default();
    }
    fn definition(d: &mut Definition) {
        d.span = Span::default();
        d.dims
            .iter_mut()
            .chain(d.reduction_dims.iter_mut())
            .for_each(ident);
        match &mut d.selector {
            Selector::Op {
                function,
                kind,
                index,
                span,
            } => {
                function.iter_mut().for_each(ident);
                ident(kind);
                if let Some((_, s)) = index {
                    *s = Span::default();
                }
                *span = Span::default();
            }
            Selector::Named { span, .. } => *span = Span::default(),
        }
    }
    for item in &mut file.items {
        match item {
            Item::Func(f) => {
                ident(&mut f.name);
                definition(&mut f.pure);
                f.update.iter_mut().for_each(definition);
                f.trailing.iter_mut().for_each(comment);
                f.span = Span::default();
            }
            Item::Chain(c) => {
                ident(&mut c.func);
                c.span = Span::default();
                for d in &mut c.directives {
                    ident(&mut d.name);
                    d.span = Span::default();
                    d.leading.iter_mut().for_each(comment);
                    d.trailing.iter_mut().for_each(comment);
                    for a in &mut d.args {
                        match a {
                            Arg::Name(i) => ident(i),
                            Arg::Int { span, .. } => *span = Span::default(),
                        }
                    }
                }
            }
            Item::Comment(c) => comment(c),
            Item::Blank => {}
        }
    }
}
