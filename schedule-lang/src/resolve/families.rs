//! Funcs of many ops: `func convs = linalg.conv_2d_nchw_fchw[*] (n, f, y, x
//! | c, ky, kx) where stride == 1` binds every op of that kind with those
//! dimensions that the conditions keep, and each is scheduled by the func's
//! chains as if it had a `func` of its own. Before resolving, the schedule
//! is rewritten so: one func per op (`convs[0]`, `convs[1]`, ... in payload
//! order), each bound by its index, the chains copied to each.
//!
//! A family named in another func's chain (`convs.compute_at(relus, xo)`)
//! pairs each op with the nearest op of the named family downstream of it,
//! whether that func binds many ops or one.
//!
//! Overlaps, by one rule: an op a single-op `func` binds (by index, name or
//! a `where` keeping one op) belongs to that func, and is left out of every
//! `[*]` func; an op two `[*]` funcs match belongs to the later line, with
//! a warning there. A `default func` binds only what no other func binds,
//! without a warning (a single-op func with no directives turns the default
//! off for its op).

use crate::ast::{Arg, Chain, Definition, FuncDecl, Ident, Item, ScheduleFile, Selector};
use crate::diagnostic::Diagnostic;
use crate::payload_info::{PayloadInfo, PayloadOp};
use std::collections::HashMap;

/// One op of a func of many ops.
pub(super) struct Member {
    /// The family's name.
    pub(super) family: String,
    /// The op's id.
    pub(super) op: usize,
    /// The family's selector.
    pub(super) span: crate::Span,
}

/// The schedule with its `[*]` funcs expanded, and what came out of it.
pub(super) struct Expansion {
    /// The rewritten schedule; `None` when it has no `[*]` func (the
    /// schedule is resolved as written).
    pub(super) file: Option<ScheduleFile>,
    /// Each member func's name, with its family's name, its op's id and
    /// where the family is declared.
    pub(super) members: HashMap<String, Member>,
    /// Errors (a `[*]` that matches nothing, a family named as a consumer).
    pub(super) errors: Vec<Diagnostic>,
    /// Overlaps between `[*]` funcs.
    pub(super) warnings: Vec<Diagnostic>,
    /// Families that bind nothing: their chains are skipped.
    pub(super) broken: Vec<String>,
}

/// Expands every `[*]` func of `file` against `payload`.
pub(super) fn expand(file: &ScheduleFile, payload: &PayloadInfo) -> Expansion {
    let mut expansion = Expansion {
        file: None,
        members: HashMap::new(),
        errors: Vec::new(),
        warnings: Vec::new(),
        broken: Vec::new(),
    };
    let singles = single_ops(file, payload);
    let families = expansion.bind_families(file, payload, &singles);
    if families.is_empty() && expansion.broken.is_empty() {
        return expansion;
    }
    let mut items = Vec::new();
    for item in &file.items {
        match item {
            Item::Func(decl) => match families.get(&decl.name.name) {
                Some(ops) => {
                    for (k, op) in ops.iter().enumerate() {
                        let member = member_decl(decl, k, op, payload);
                        let entry = Member {
                            family: decl.name.name.clone(),
                            op: op.id,
                            span: decl.pure.selector.span(),
                        };
                        expansion.members.insert(member.name.name.clone(), entry);
                        items.push(Item::Func(Box::new(member)));
                    }
                }
                // A family that binds nothing was reported; its chains are skipped.
                None if expansion.broken.contains(&decl.name.name) => {}
                None => items.push(item.clone()),
            },
            Item::Chain(chain) => match families.get(&chain.func.name) {
                Some(ops) => {
                    for (k, op) in ops.iter().enumerate() {
                        let mut copy = chain.clone();
                        copy.func.name = format!("{}[{k}]", chain.func.name);
                        expansion.pair_names(&mut copy, (op, true), &families, payload);
                        items.push(Item::Chain(copy));
                    }
                }
                None => {
                    let mut copy = chain.clone();
                    match singles.get(&chain.func.name).and_then(|ops| *ops.last()?) {
                        Some(op) => {
                            expansion.pair_names(&mut copy, (op, false), &families, payload)
                        }
                        None => expansion.check_names(chain, &families),
                    }
                    items.push(Item::Chain(copy));
                }
            },
            _ => items.push(item.clone()),
        }
    }
    expansion.file = Some(ScheduleFile { items });
    expansion
}

impl Expansion {
    /// The ops each `[*]` func binds, after the overlap rule; errors and
    /// warnings recorded.
    fn bind_families<'a>(
        &mut self,
        file: &ScheduleFile,
        payload: &'a PayloadInfo,
        singles: &HashMap<String, Vec<Option<&PayloadOp>>>,
    ) -> HashMap<String, Vec<&'a PayloadOp>> {
        let decls = declarations(file);
        // Ops single-op funcs bind (their own errors come when they are declared).
        let single: Vec<usize> = singles
            .values()
            .flatten()
            .flatten()
            .map(|op| op.id)
            .collect();
        for decl in decls.iter().filter(|d| d.default && !is_family(d)) {
            self.refuse(&decl.name.name, default_refused(decl));
        }
        let mut owner: HashMap<usize, (String, crate::Span)> = HashMap::new();
        let mut families: HashMap<String, Vec<&'a PayloadOp>> = HashMap::new();
        // The defaults last: they take only the ops no other func binds.
        let (defaults, others): (Vec<&FuncDecl>, Vec<&FuncDecl>) = decls
            .iter()
            .filter(|d| is_family(d))
            .partition(|d| d.default);
        // Ops the funcs that are not defaults bind, as they are bound.
        let mut taken: Vec<usize> = Vec::new();
        for decl in others.iter().chain(&defaults) {
            let name = &decl.name.name;
            if let Some(update) = &decl.update {
                self.refuse(name, update_refused(update));
                continue;
            }
            let ops = match super::select::every(payload, &decl.pure) {
                Ok(ops) => ops,
                Err(error) => {
                    self.refuse(name, *error);
                    continue;
                }
            };
            let ops: Vec<&PayloadOp> = ops
                .into_iter()
                .filter(|op| {
                    let claimed = decl.default && taken.contains(&op.id);
                    !single.contains(&op.id) && !claimed
                })
                .collect();
            if !decl.default {
                taken.extend(ops.iter().map(|op| op.id));
            }
            let span = decl.pure.selector.span();
            for op in &ops {
                if let Some((earlier, earlier_span)) = owner.insert(op.id, (name.clone(), span)) {
                    if let Some(list) = families.get_mut(&earlier) {
                        list.retain(|o| o.id != op.id);
                    }
                    let place = payload.place(op);
                    self.warnings
                        .push(overlap(name, &earlier, (earlier_span, span), op, &place));
                }
            }
            families.insert(name.clone(), ops);
        }
        families
    }

    /// A family that binds nothing: the error, and its chains skipped.
    fn refuse(&mut self, name: &str, error: Diagnostic) {
        self.errors.push(error);
        self.broken.push(name.to_string());
    }

    /// In the copy of a family's chain for member `op`, each family named
    /// as a func (`convs.compute_at(relus, xo)`) becomes the member of that
    /// family nearest downstream of `op`: the first of its ops met going
    /// from `op` to the ops reading it, and on to theirs (a batch norm's
    /// steps between a convolution and its ReLU, inlined into the ReLU). A
    /// member no op of the family reads from is an error at the name. The
    /// chain of a single-op func (`member` false) is paired the same way.
    fn pair_names(
        &mut self,
        chain: &mut Chain,
        (op, member): (&PayloadOp, bool),
        families: &HashMap<String, Vec<&PayloadOp>>,
        payload: &PayloadInfo,
    ) {
        for directive in &mut chain.directives {
            for arg in &mut directive.args {
                let Arg::Name(name) = arg else { continue };
                let Some(members) = families.get(&name.name) else {
                    continue;
                };
                match nearest_reader(op.id, members, payload) {
                    Some(j) => name.name = format!("{}[{j}]", name.name),
                    None => {
                        self.broken.push(name.name.clone());
                        self.errors.push(
                            Diagnostic::error(
                                "many-ops-unpaired",
                                name.span,
                                format!(
                                    "no op `{}` binds reads from `{}` ({} at {})",
                                    name.name,
                                    chain.func.name,
                                    op.kind,
                                    payload.place(op)
                                ),
                            )
                            .with_help(match member {
                                true => format!(
                                    "a func of many ops names another as `{}` pairs each op \
                                     with the nearest op of the other that reads it; leave this \
                                     op out of the `where`, or give it a func of its own",
                                    directive.name.name
                                ),
                                false => format!(
                                    "a func of one op names a func of many as `{}` pairs it \
                                     with the nearest of them that reads it; name a func that \
                                     reads this op",
                                    directive.name.name
                                ),
                            }),
                        );
                    }
                }
            }
        }
    }

    /// A directive naming a family as a func (a consumer, a producer) in
    /// the chain of a func whose op is unknown (its declaration failed, or
    /// there is none) is an error: which of the family's ops is meant?
    fn check_names(&mut self, chain: &Chain, families: &HashMap<String, Vec<&PayloadOp>>) {
        for directive in &chain.directives {
            for arg in &directive.args {
                let Arg::Name(name) = arg else { continue };
                let Some(ops) = families.get(&name.name) else {
                    continue;
                };
                // Reported here; later uses of the name are skipped.
                self.broken.push(name.name.clone());
                self.errors.push(
                    Diagnostic::error(
                        "many-ops-named",
                        name.span,
                        format!(
                            "`{}` binds {} op{}, and `{}`'s op is not known to pair it with \
                             the nearest of them reading it",
                            name.name,
                            ops.len(),
                            if ops.len() == 1 { "" } else { "s" },
                            chain.func.name
                        ),
                    )
                    .with_help(format!(
                        "declare `{}` with a `func` line that binds one op",
                        chain.func.name
                    )),
                );
            }
        }
    }
}

/// The index among `members` of the first op met going downstream from op
/// `from` (to the ops reading it, breadth first); None if none is.
fn nearest_reader(from: usize, members: &[&PayloadOp], payload: &PayloadInfo) -> Option<usize> {
    let mut seen = vec![from];
    let mut frontier = vec![from];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for (op, _) in payload.reads_of(&frontier) {
            if seen.contains(&op.id) {
                continue;
            }
            if let Some(j) = members.iter().position(|m| m.id == op.id) {
                return Some(j);
            }
            seen.push(op.id);
            next.push(op.id);
        }
        frontier = next;
    }
    None
}

/// The schedule's `func` declarations, in order.
fn declarations(file: &ScheduleFile) -> Vec<&FuncDecl> {
    file.items
        .iter()
        .filter_map(|item| match item {
            Item::Func(decl) => Some(decl.as_ref()),
            _ => None,
        })
        .collect()
}

/// The ops each single-op func binds, by the func's name: its pure
/// definition's, then its update's (the op reading the first), each `None`
/// where the selection fails (its error comes when the func is declared).
/// The last is the op a chain naming a func of many ops is paired from.
fn single_ops<'a>(
    file: &ScheduleFile,
    payload: &'a PayloadInfo,
) -> HashMap<String, Vec<Option<&'a PayloadOp>>> {
    declarations(file)
        .into_iter()
        .filter(|decl| !is_family(decl))
        .map(|decl| {
            let ops = std::iter::once(&decl.pure)
                .chain(&decl.update)
                .map(|definition| super::select::select(payload, definition).ok())
                .collect();
            (decl.name.name.clone(), ops)
        })
        .collect()
}

/// Whether a declaration binds many ops (`[*]`).
fn is_family(decl: &FuncDecl) -> bool {
    matches!(decl.pure.selector, Selector::Op { every: true, .. })
}

/// Member `k` of the family `decl`: bound to `op` by its function and index.
fn member_decl(decl: &FuncDecl, k: usize, op: &PayloadOp, payload: &PayloadInfo) -> FuncDecl {
    let index = payload
        .ops
        .iter()
        .filter(|o| o.kind == op.kind && o.function == op.function)
        .position(|o| o.id == op.id)
        .expect("the op is among its kind's");
    let Selector::Op { kind, span, .. } = &decl.pure.selector else {
        unreachable!("a family selects by kind");
    };
    let selector = Selector::Op {
        function: Some(Ident {
            name: op.function.clone(),
            span: kind.span,
        }),
        kind: kind.clone(),
        index: Some((index as u32, *span)),
        every: false,
        span: *span,
    };
    FuncDecl {
        default: false,
        name: Ident {
            name: format!("{}[{k}]", decl.name.name),
            span: decl.name.span,
        },
        pure: Definition {
            selector,
            filters: Vec::new(),
            ..decl.pure.clone()
        },
        update: None,
        trailing: decl.trailing.clone(),
        span: decl.span,
    }
}

/// `default` on a func of one op.
fn default_refused(decl: &FuncDecl) -> Diagnostic {
    Diagnostic::error(
        "default-one-op",
        decl.pure.selector.span(),
        "`default` applies to a func of many ops: it binds the ops no other func binds",
    )
    .with_help("add `[*]` to the selector, or drop `default`")
}

/// A family with an update definition.
fn update_refused(update: &Definition) -> Diagnostic {
    Diagnostic::error(
        "many-ops-update",
        update.span,
        "a func of many ops (`[*]`) has no update definition",
    )
    .with_help("bind the op with its update in a `func` of its own")
}

/// `op`, matched by the earlier family too, goes to the later one.
fn overlap(
    name: &str,
    earlier: &str,
    (earlier_span, span): (crate::Span, crate::Span),
    op: &PayloadOp,
    place: &str,
) -> Diagnostic {
    Diagnostic::warning(
        "many-ops-overlap",
        span,
        format!(
            "`{name}` and `{earlier}` both match the `{}` at {place}: the later line schedules it",
            op.kind
        ),
    )
    .with_note(Some(earlier_span), format!("`{earlier}` matches it too"))
    .with_help("add a `where` to one of them so each op is matched once")
}
