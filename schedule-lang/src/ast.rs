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
    /// `default func`: a func of many ops that binds only the ops no other
    /// func binds (Halide's default schedule for the rest).
    pub default: bool,
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
    /// `where` conditions narrowing the ops the selector matches.
    pub filters: Vec<Filter>,
    /// The whole definition.
    pub span: Span,
}

/// One `where` condition on the ops a selector matches: `f >= 64` (a
/// dimension's extent), `stride == 2`, `dilation == 1`, `type == f32`,
/// `body == max`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    /// A dimension name of the definition, or a property (`stride`,
    /// `dilation`, `type`, `body`).
    pub subject: Ident,
    /// How the op's value compares with `value`.
    pub comparison: Comparison,
    /// What it is compared with.
    pub value: FilterValue,
    /// The whole condition.
    pub span: Span,
}

/// A comparison in a `where` condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl Comparison {
    /// As written.
    pub fn symbol(self) -> &'static str {
        match self {
            Comparison::Eq => "==",
            Comparison::Ne => "!=",
            Comparison::Lt => "<",
            Comparison::Le => "<=",
            Comparison::Gt => ">",
            Comparison::Ge => ">=",
        }
    }

    /// Whether `left` compares so with `right`.
    pub fn holds<T: PartialOrd>(self, left: T, right: T) -> bool {
        match self {
            Comparison::Eq => left == right,
            Comparison::Ne => left != right,
            Comparison::Lt => left < right,
            Comparison::Le => left <= right,
            Comparison::Gt => left > right,
            Comparison::Ge => left >= right,
        }
    }
}

/// The right side of a `where` condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FilterValue {
    /// An integer: an extent, a stride or a dilation.
    Int(i64, Span),
    /// A name: an element type (`f32`) or a body's kind (`max`, `exp`).
    Name(Ident),
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
        /// `[*]`: every such op (a func of many ops, each scheduled alike).
        every: bool,
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
    /// Whether the call began a line of its own (not the chain's first
    /// call): `fmt` keeps a chain's line breaks.
    pub starts_line: bool,
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
        for filter in &mut d.filters {
            filter.span = Span::default();
            ident(&mut filter.subject);
            match &mut filter.value {
                FilterValue::Int(_, span) => *span = Span::default(),
                FilterValue::Name(name) => ident(name),
            }
        }
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
                ..
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
