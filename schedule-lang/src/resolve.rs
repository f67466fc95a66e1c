//! Name resolution: binds funcs to payload ops, checks every directive's
//! arguments against the func's loops, and builds the [`Model`]. Every problem
//! found is reported; nothing stops at the first.

use crate::ast::*;
use crate::diagnostic::{did_you_mean, Diagnostic};
use crate::directives::{self, ArgKind, DirectiveKind};
use crate::model::*;
use crate::payload_info::{IteratorKind, PayloadInfo, PayloadOp};
use crate::span::Span;
use indexmap::IndexMap;
use std::ops::Range;

/// Resolves a parsed schedule against a payload.
pub fn resolve(file: &ScheduleFile, payload: &PayloadInfo) -> Result<Model, Vec<Diagnostic>> {
    let mut resolver = Resolver {
        payload,
        funcs: IndexMap::new(),
        errors: Vec::new(),
        pending: Vec::new(),
    };
    for item in &file.items {
        if let Item::Func(decl) = item {
            resolver.declare(decl);
        }
    }
    for item in &file.items {
        if let Item::Chain(chain) = item {
            resolver.chain(chain);
        }
    }
    resolver.finish()
}

struct FuncState {
    model: FuncModel,
}

struct PendingComputeAt {
    func: usize,
    consumer: Ident,
    loop_name: Ident,
    span: Span,
}

struct Resolver<'a> {
    payload: &'a PayloadInfo,
    funcs: IndexMap<String, FuncState>,
    errors: Vec<Diagnostic>,
    pending: Vec<PendingComputeAt>,
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

impl<'a> Resolver<'a> {
    fn declare(&mut self, decl: &FuncDecl) {
        if let Some(existing) = self.funcs.get(&decl.name.name) {
            let previous = existing.model.span;
            self.errors.push(
                Diagnostic::error(
                    "duplicate-func",
                    decl.name.span,
                    format!("func `{}` is declared twice", decl.name.name),
                )
                .with_note(Some(previous), "first declared here"),
            );
            return;
        }
        let mut stages = Vec::new();
        let mut ok = true;
        for (definition, is_update) in
            std::iter::once((&decl.pure, false)).chain(decl.update.iter().map(|u| (u, true)))
        {
            match self.stage(definition, is_update) {
                Some(stage) => stages.push(stage),
                None => ok = false,
            }
        }
        if !ok {
            return;
        }
        for stage in &stages {
            let bound_twice = self
                .funcs
                .values()
                .find(|f| f.model.stages.iter().any(|s| s.op == stage.op));
            if let Some(other) = bound_twice {
                self.errors.push(
                    Diagnostic::error(
                        "op-bound-twice",
                        stage.span,
                        format!("this op is already bound to func `{}`", other.model.name),
                    )
                    .with_note(Some(other.model.span), "bound here"),
                );
                return;
            }
        }
        if stages.len() == 2 && stages[0].op == stages[1].op {
            self.errors.push(Diagnostic::error(
                "op-bound-twice",
                stages[1].span,
                "the update definition selects the same op as the pure one",
            ));
            return;
        }
        let model = FuncModel {
            name: decl.name.name.clone(),
            span: decl.name.span,
            stages,
            placement: Placement::Root,
        };
        self.funcs
            .insert(decl.name.name.clone(), FuncState { model });
    }

    fn select(&mut self, selector: &Selector) -> Option<&'a PayloadOp> {
        let payload = self.payload;
        match selector {
            Selector::Named { name, span } => {
                let matches: Vec<&PayloadOp> = payload
                    .ops
                    .iter()
                    .filter(|op| op.name.as_deref() == Some(name.as_str()))
                    .collect();
                match matches.as_slice() {
                    [op] => Some(op),
                    [] => {
                        let names: Vec<&str> = payload
                            .ops
                            .iter()
                            .filter_map(|op| op.name.as_deref())
                            .collect();
                        let mut error = Diagnostic::error(
                            "no-match",
                            *span,
                            format!("no op in `{}` is named \"{name}\"", payload.name),
                        )
                        .with_label("matches nothing");
                        error = match did_you_mean(name, names.iter().copied()) {
                            Some(close) => error.with_help(format!("did you mean \"{close}\"?")),
                            None => error.with_help("name an op by giving it a `sched.name = \"...\"` attribute in the payload"),
                        };
                        self.errors.push(error);
                        None
                    }
                    _ => {
                        self.errors.push(
                            Diagnostic::error(
                                "ambiguous",
                                *span,
                                format!("{} ops are named \"{name}\"", matches.len()),
                            )
                            .with_label("matches more than one op"),
                        );
                        None
                    }
                }
            }
            Selector::Op {
                function,
                kind,
                index,
                span,
            } => {
                if let Some(function) = function {
                    if !payload.functions.contains(&function.name) {
                        let mut error = Diagnostic::error(
                            "unknown-function",
                            function.span,
                            format!("no function `@{}` in `{}`", function.name, payload.name),
                        );
                        if let Some(close) = did_you_mean(
                            &function.name,
                            payload.functions.iter().map(String::as_str),
                        ) {
                            error = error.with_help(format!("did you mean `@{close}`?"));
                        }
                        self.errors.push(error);
                        return None;
                    }
                }
                let candidates: Vec<&PayloadOp> = payload
                    .ops
                    .iter()
                    .filter(|op| {
                        op.kind == kind.name
                            && function.as_ref().is_none_or(|f| f.name == op.function)
                    })
                    .collect();
                if candidates.is_empty() {
                    let mut kinds: Vec<&str> =
                        payload.ops.iter().map(|op| op.kind.as_str()).collect();
                    kinds.dedup();
                    let mut error = Diagnostic::error(
                        "no-match",
                        kind.span,
                        format!("no `{}` op in `{}`", kind.name, payload.name),
                    )
                    .with_label("matches nothing");
                    error = match did_you_mean(&kind.name, kinds.iter().copied()) {
                        Some(close) => error.with_help(format!("did you mean `{close}`?")),
                        None if !kinds.is_empty() => {
                            let mut unique = kinds.clone();
                            unique.sort();
                            unique.dedup();
                            error.with_help(format!("the payload has: {}", unique.join(", ")))
                        }
                        None => error.with_help("the payload has no linalg ops to schedule"),
                    };
                    self.errors.push(error);
                    return None;
                }
                match index {
                    Some((i, index_span)) => match candidates.get(*i as usize) {
                        Some(op) => Some(op),
                        None => {
                            self.errors.push(
                                Diagnostic::error(
                                    "index-out-of-range",
                                    *index_span,
                                    format!(
                                        "index {i} is out of range: there {} `{}` {}",
                                        if candidates.len() == 1 {
                                            "is 1".to_string()
                                        } else {
                                            format!("are {}", candidates.len())
                                        },
                                        kind.name,
                                        if candidates.len() == 1 { "op" } else { "ops" }
                                    ),
                                )
                                .with_help(format!(
                                    "indices count from 0, in payload order: use 0 to {}",
                                    candidates.len() - 1
                                )),
                            );
                            None
                        }
                    },
                    None if candidates.len() == 1 => Some(candidates[0]),
                    None => {
                        self.errors.push(
                            Diagnostic::error(
                                "ambiguous",
                                *span,
                                format!("`{}` matches {} ops", kind.name, candidates.len()),
                            )
                            .with_label("which one?")
                            .with_help(format!(
                                "add an index in payload order, from `{0}[0]` to `{0}[{1}]`",
                                kind.name,
                                candidates.len() - 1
                            )),
                        );
                        None
                    }
                }
            }
        }
    }

    fn stage(&mut self, definition: &Definition, is_update: bool) -> Option<Stage> {
        let op = self.select(&definition.selector)?;
        let names: Vec<&Ident> = definition
            .dims
            .iter()
            .chain(&definition.reduction_dims)
            .collect();
        let parallel = op
            .iterators
            .iter()
            .filter(|k| **k == IteratorKind::Parallel)
            .count();
        let reduction = op.iterators.len() - parallel;
        if names.len() != op.iterators.len() {
            self.errors.push(
                Diagnostic::error(
                    "dim-count",
                    definition.span,
                    format!(
                        "`{}` has {} ({} parallel, {} reduction), but {} named",
                        op.kind,
                        plural(op.iterators.len(), "iteration dimension"),
                        parallel,
                        reduction,
                        names.len()
                    ),
                )
                .with_help(format!(
                    "name them in linalg order, reduction dimensions after `|`: ({})",
                    dims_hint(op)
                )),
            );
            return None;
        }
        let mut ok = true;
        for (position, name) in names.iter().enumerate() {
            let named_reduction = position >= definition.dims.len();
            let is_reduction = op.iterators[position] == IteratorKind::Reduction;
            if named_reduction != is_reduction {
                let (said, is) = if named_reduction {
                    ("reduction", "parallel")
                } else {
                    ("parallel", "reduction")
                };
                self.errors.push(
                    Diagnostic::error(
                        "dim-kind",
                        name.span,
                        format!(
                            "`{}` is named as a {said} dimension, but d{position} of `{}` is {is}",
                            name.name, op.kind
                        ),
                    )
                    .with_help(format!("the op's dimensions are ({})", dims_hint(op))),
                );
                ok = false;
            }
            if let Some(first) = names[..position]
                .iter()
                .find(|other| other.name == name.name)
            {
                self.errors.push(
                    Diagnostic::error(
                        "duplicate-dim",
                        name.span,
                        format!("dimension `{}` is named twice", name.name),
                    )
                    .with_note(Some(first.span), "first named here"),
                );
                ok = false;
            }
        }
        if !ok {
            return None;
        }
        let dims: Vec<Dim> = names
            .iter()
            .enumerate()
            .map(|(i, name)| Dim {
                name: name.name.clone(),
                reduction: op.iterators[i] == IteratorKind::Reduction,
                extent: op.extents.get(i).copied().flatten(),
            })
            .collect();
        let loops = names
            .iter()
            .enumerate()
            .map(|(i, name)| Loop {
                name: name.name.clone(),
                dim: i,
                step: 1,
                tile: None,
                vectorize: None,
                unroll: None,
                parallel: None,
                fused: None,
                span: name.span,
            })
            .collect();
        Some(Stage {
            op: op.id,
            is_update,
            dims,
            loops,
            span: definition.span,
            order_span: None,
            packs: Vec::new(),
            prefetches: Vec::new(),
        })
    }

    fn chain(&mut self, chain: &Chain) {
        let Some(func) = self.funcs.get_index_of(&chain.func.name) else {
            let mut error = Diagnostic::error(
                "unknown-func",
                chain.func.span,
                format!("unknown func `{}`", chain.func.name),
            );
            error = match did_you_mean(&chain.func.name, self.funcs.keys().map(String::as_str)) {
                Some(close) => error.with_help(format!("did you mean `{close}`?")),
                None => error.with_help(format!(
                    "declare it first: `func {} = linalg.OP (dims...)`",
                    chain.func.name
                )),
            };
            self.errors.push(error);
            return;
        };
        let mut stage = 0;
        for directive in &chain.directives {
            let Some(info) = directives::lookup(&directive.name.name) else {
                let mut error = Diagnostic::error(
                    "unknown-directive",
                    directive.name.span,
                    format!("unknown directive `{}`", directive.name.name),
                );
                if let Some(close) = did_you_mean(
                    &directive.name.name,
                    directives::DIRECTIVES.iter().map(|d| d.name),
                ) {
                    error = error.with_help(format!("did you mean `{close}`?"));
                }
                self.errors.push(error);
                continue;
            };
            if !self.check_arguments(directive, info) {
                continue;
            }
            if !info.planned {
                self.errors.push(
                    Diagnostic::error(
                        "not-planned",
                        directive.name.span,
                        format!("`{}` is not supported by the planner yet", info.name),
                    )
                    .with_label("understood, but cannot be turned into transform ops yet")
                    .with_help("remove it for now; it is never ignored silently"),
                );
                continue;
            }
            if let Err(error) = self.apply(func, &mut stage, directive, info.kind) {
                self.errors.push(*error);
            }
        }
    }

    fn check_arguments(&mut self, directive: &Directive, info: &directives::DirectiveInfo) -> bool {
        let args = &directive.args;
        let form = if info.variadic {
            if args.is_empty() {
                self.errors.push(
                    Diagnostic::error(
                        "arity",
                        directive.span,
                        format!("`{}` needs at least one loop", info.name),
                    )
                    .with_help(format!("write `{}`", info.signature)),
                );
                return false;
            }
            None
        } else {
            match info.forms.iter().find(|form| form.len() == args.len()) {
                Some(form) => Some(*form),
                None => {
                    let counts: Vec<String> =
                        info.forms.iter().map(|f| f.len().to_string()).collect();
                    self.errors.push(
                        Diagnostic::error(
                            "arity",
                            directive.span,
                            format!(
                                "`{}` takes {} argument(s), {} given",
                                info.name,
                                counts.join(" or "),
                                args.len()
                            ),
                        )
                        .with_help(format!("write `{}`", info.signature)),
                    );
                    return false;
                }
            }
        };
        let mut ok = true;
        for (i, arg) in args.iter().enumerate() {
            let kind = form.map_or(ArgKind::Loop, |f| f[i]);
            match (kind, arg) {
                (ArgKind::Int, Arg::Int { value, span }) if *value <= 0 => {
                    self.errors.push(
                        Diagnostic::error(
                            "non-positive",
                            *span,
                            format!("`{}` needs a positive integer here, not {value}", info.name),
                        )
                        .with_label("must be 1 or more")
                        .with_help(format!("write `{}`", info.signature)),
                    );
                    ok = false;
                }
                (ArgKind::Int, Arg::Int { .. }) => {}
                (ArgKind::Int, Arg::Name(name)) => {
                    self.errors.push(
                        Diagnostic::error(
                            "argument-kind",
                            name.span,
                            format!("expected an integer, found name `{}`", name.name),
                        )
                        .with_help(format!("write `{}`", info.signature)),
                    );
                    ok = false;
                }
                (_, Arg::Int { span, .. }) => {
                    let what = if kind == ArgKind::Func {
                        "a func name"
                    } else {
                        "a loop name"
                    };
                    self.errors.push(
                        Diagnostic::error(
                            "argument-kind",
                            *span,
                            format!("expected {what}, found an integer"),
                        )
                        .with_help(format!("write `{}`", info.signature)),
                    );
                    ok = false;
                }
                (_, Arg::Name(_)) => {}
            }
        }
        ok
    }

    fn apply(
        &mut self,
        func: usize,
        stage: &mut usize,
        directive: &Directive,
        kind: DirectiveKind,
    ) -> Result<(), Box<Diagnostic>> {
        let names: Vec<Option<&Ident>> = directive
            .args
            .iter()
            .map(|a| if let Arg::Name(i) = a { Some(i) } else { None })
            .collect();
        let ints: Vec<i64> = directive
            .args
            .iter()
            .filter_map(|a| {
                if let Arg::Int { value, .. } = a {
                    Some(*value)
                } else {
                    None
                }
            })
            .collect();
        let name = |i: usize| names[i].expect("argument kinds were checked");
        let state = &mut self.funcs[func];
        let func_name = state.model.name.clone();
        match kind {
            DirectiveKind::Update => {
                if state.model.stages.len() < 2 {
                    return Err(Box::new(Diagnostic::error("no-update", directive.span, format!("func `{func_name}` has no update definition"))
                        .with_help(format!("bind one: `func {func_name} = SELECTOR (dims) update SELECTOR (dims | reduction dims)`"))));
                }
                *stage = 1;
                Ok(())
            }
            DirectiveKind::ComputeRoot => {
                if *stage != 0 {
                    return Err(Box::new(Diagnostic::error(
                        "stage-placement",
                        directive.span,
                        "`compute_root` places a whole func; call it before `update()`",
                    )));
                }
                state.model.placement = Placement::Root;
                self.pending.retain(|p| p.func != func);
                Ok(())
            }
            DirectiveKind::ComputeAt => {
                if *stage != 0 {
                    return Err(Box::new(Diagnostic::error(
                        "stage-placement",
                        directive.span,
                        "`compute_at` places a whole func; call it before `update()`",
                    )));
                }
                self.pending.retain(|p| p.func != func);
                self.pending.push(PendingComputeAt {
                    func,
                    consumer: name(0).clone(),
                    loop_name: name(1).clone(),
                    span: directive.span,
                });
                Ok(())
            }
            DirectiveKind::Split => {
                let stage = &mut state.model.stages[*stage];
                split(
                    stage,
                    &func_name,
                    name(0),
                    &name(1).name,
                    name(1).span,
                    &name(2).name,
                    name(2).span,
                    ints[0],
                    directive.span,
                )
            }
            DirectiveKind::Tile => {
                let stage_index = *stage;
                let stage = &mut state.model.stages[stage_index];
                let (x, y) = (name(0), name(1));
                let (xo, yo, xi, yi) = if names.len() == 8 {
                    (
                        name(2).clone(),
                        name(3).clone(),
                        name(4).clone(),
                        name(5).clone(),
                    )
                } else {
                    (x.clone(), y.clone(), name(2).clone(), name(3).clone())
                };
                split(
                    stage,
                    &func_name,
                    x,
                    &xo.name,
                    xo.span,
                    &xi.name,
                    xi.span,
                    ints[0],
                    directive.span,
                )?;
                split(
                    stage,
                    &func_name,
                    y,
                    &yo.name,
                    yo.span,
                    &yi.name,
                    yi.span,
                    ints[1],
                    directive.span,
                )?;
                let order = [xi, yi, xo, yo];
                reorder(stage, &func_name, &order.iter().collect::<Vec<_>>())?;
                stage.order_span = Some(directive.span);
                Ok(())
            }
            DirectiveKind::Reorder => {
                let stage_index = *stage;
                let loops: Vec<&Ident> = names
                    .iter()
                    .map(|n| n.expect("reorder takes loop names"))
                    .collect();
                reorder(&mut state.model.stages[stage_index], &func_name, &loops)?;
                state.model.stages[stage_index].order_span = Some(directive.span);
                Ok(())
            }
            DirectiveKind::Vectorize | DirectiveKind::Unroll | DirectiveKind::Parallel => {
                let stage = &mut state.model.stages[*stage];
                let target = name(0);
                let range = find_loop(stage, &func_name, target)?;
                let index = range.start;
                let marked = if let Some(&factor) = ints.first() {
                    if range.len() > 1 {
                        let verb = info_name(kind);
                        return Err(Box::new(Diagnostic::error("split-fused", directive.span, format!("cannot {verb} `{}` by {factor}: it is a fused loop, and a factor splits it", target.name))
                            .with_help(format!("write `{verb}({})` to mark the whole fused loop, or split before `fuse`", target.name))));
                    }
                    let suffix = match kind {
                        DirectiveKind::Vectorize => "v",
                        DirectiveKind::Unroll => "u",
                        _ => "p",
                    };
                    let inner = format!("{}.{suffix}", target.name);
                    split(
                        stage,
                        &func_name,
                        target,
                        &target.name,
                        target.span,
                        &inner,
                        directive.span,
                        factor,
                        directive.span,
                    )?;
                    // vectorize/unroll mark the inner part; parallel marks the outer (tasks).
                    if kind == DirectiveKind::Parallel {
                        index..index + 1
                    } else {
                        index + 1..index + 2
                    }
                } else {
                    range
                };
                if kind == DirectiveKind::Parallel {
                    if let Some(reduction) = stage.loops[marked.clone()]
                        .iter()
                        .find(|l| stage.dims[l.dim].reduction)
                    {
                        return Err(Box::new(Diagnostic::error("parallel-reduction", target.span, format!("`{}` iterates reduction dimension `{}`; its iterations cannot run in parallel", target.name, stage.dims[reduction.dim].name))
                            .with_help("parallelize a loop over a parallel dimension instead")));
                    }
                }
                for the_loop in &mut stage.loops[marked] {
                    match kind {
                        DirectiveKind::Vectorize => the_loop.vectorize = Some(directive.span),
                        DirectiveKind::Unroll => the_loop.unroll = Some(directive.span),
                        _ => the_loop.parallel = Some(directive.span),
                    }
                }
                Ok(())
            }
            DirectiveKind::Fuse => {
                let stage = &mut state.model.stages[*stage];
                fuse(stage, &func_name, name(0), name(1), name(2), directive.span)
            }
            DirectiveKind::Pack | DirectiveKind::Prefetch => {
                let stage = &mut state.model.stages[*stage];
                let op = &self.payload.ops[stage.op];
                let inputs = op.operands.iter().filter(|o| !o.is_init).count();
                let operand = name(0);
                let index = operand
                    .name
                    .strip_prefix("in")
                    .and_then(|k| k.parse::<usize>().ok())
                    .filter(|k| operand.name == format!("in{k}"));
                let listed = (0..inputs)
                    .map(|k| format!("`in{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                match index {
                    Some(k) if k < inputs => {}
                    Some(k) => {
                        return Err(Box::new(
                            Diagnostic::error(
                                "unknown-operand",
                                operand.span,
                                format!(
                                    "{} has {}, so there is no `in{k}`",
                                    stage_label(stage, &func_name),
                                    plural(inputs, "input")
                                ),
                            )
                            .with_help(format!(
                                "inputs are named in payload order (`ins(...)` of `{}`): {listed}",
                                op.kind
                            )),
                        ));
                    }
                    None => {
                        return Err(Box::new(
                            Diagnostic::error(
                                "unknown-operand",
                                operand.span,
                                format!(
                                    "`{}` does not name an input of {}",
                                    operand.name,
                                    stage_label(stage, &func_name)
                                ),
                            )
                            .with_help(format!(
                                "name an input by its position in the op's `ins(...)`: {listed}"
                            )),
                        ));
                    }
                }
                let k = index.expect("checked above");
                let (list, code, done) = match kind {
                    DirectiveKind::Pack => (&mut stage.packs, "duplicate-pack", "packed"),
                    _ => (&mut stage.prefetches, "duplicate-prefetch", "prefetched"),
                };
                if let Some(previous) = list.iter().find(|p| p.operand == k) {
                    return Err(Box::new(
                        Diagnostic::error(
                            code,
                            directive.span,
                            format!("`in{k}` is already {done}"),
                        )
                        .with_note(Some(previous.span), format!("{done} here")),
                    ));
                }
                list.push(OperandAtLoop {
                    operand: k,
                    loop_name: name(1).name.clone(),
                    loop_span: name(1).span,
                    span: directive.span,
                });
                Ok(())
            }
            DirectiveKind::Accelerate
            | DirectiveKind::ReuseAt
            | DirectiveKind::BufferAt
            | DirectiveKind::Pipeline => {
                unreachable!("unplanned directives are rejected before apply")
            }
        }
    }

    fn finish(mut self) -> Result<Model, Vec<Diagnostic>> {
        let pending = std::mem::take(&mut self.pending);
        for at in &pending {
            let Some(consumer) = self.funcs.get_index_of(&at.consumer.name) else {
                let mut error = Diagnostic::error(
                    "unknown-func",
                    at.consumer.span,
                    format!("unknown func `{}`", at.consumer.name),
                );
                if let Some(close) =
                    did_you_mean(&at.consumer.name, self.funcs.keys().map(String::as_str))
                {
                    error = error.with_help(format!("did you mean `{close}`?"));
                }
                self.errors.push(error);
                continue;
            };
            if consumer == at.func {
                self.errors.push(Diagnostic::error(
                    "compute-at-self",
                    at.consumer.span,
                    "a func cannot be computed inside its own loops",
                ));
                continue;
            }
            let consumer_model = &self.funcs[consumer].model;
            let last = consumer_model.stages.last().expect("a func has a stage");
            if last.find_loop(&at.loop_name.name).is_none() {
                let mut error = Diagnostic::error(
                    "unknown-loop",
                    at.loop_name.span,
                    format!(
                        "`{}` is not a loop of `{}`",
                        at.loop_name.name, consumer_model.name
                    ),
                )
                .with_label(format!("not a loop of `{}`", consumer_model.name));
                error = match did_you_mean(
                    &at.loop_name.name,
                    last.loops.iter().map(|l| l.visible_name()),
                ) {
                    Some(close) => error.with_help(format!("did you mean `{close}`?")),
                    None => error.with_help(format!(
                        "`{}` has loops: {}",
                        consumer_model.name,
                        loop_names(last)
                    )),
                };
                self.errors.push(error);
                continue;
            }
            self.funcs[at.func].model.placement = Placement::At {
                consumer,
                loop_name: at.loop_name.name.clone(),
                span: at.span,
            };
        }
        self.check_placements();
        self.check_loop_orders();
        self.check_operand_loops();
        if self.errors.is_empty() {
            Ok(Model {
                funcs: self.funcs.into_values().map(|f| f.model).collect(),
            })
        } else {
            self.errors.sort_by_key(|e| e.span.map_or(0, |s| s.start));
            Err(self.errors)
        }
    }

    /// Each `compute_at` must form no cycle, and the consumer (or a func computed
    /// inside it) must use the producer's result.
    fn check_placements(&mut self) {
        let count = self.funcs.len();
        for func in 0..count {
            let Placement::At { consumer, span, .. } = self.funcs[func].model.placement.clone()
            else {
                continue;
            };
            let mut seen = vec![func];
            let mut cursor = consumer;
            let mut cyclic = false;
            while let Placement::At { consumer: next, .. } = &self.funcs[cursor].model.placement {
                if seen.contains(&cursor) {
                    cyclic = true;
                    break;
                }
                seen.push(cursor);
                cursor = *next;
            }
            if cyclic || seen.contains(&cursor) && cursor == func {
                self.errors.push(Diagnostic::error(
                    "compute-at-cycle",
                    span,
                    format!(
                        "`compute_at` makes a cycle through `{}`",
                        self.funcs[func].model.name
                    ),
                ));
                continue;
            }
            // Ops that run inside the consumer's loop: the consumer's and those of funcs placed inside it.
            let mut inside: Vec<usize> = Vec::new();
            for (other, state) in self.funcs.values().enumerate() {
                if other != func && (other == consumer || self.placed_inside(other, consumer)) {
                    inside.extend(state.model.stages.iter().map(|s| s.op));
                }
            }
            let own: Vec<usize> = self.funcs[func].model.stages.iter().map(|s| s.op).collect();
            let used = self
                .payload
                .ops
                .iter()
                .filter(|op| inside.contains(&op.id))
                .any(|op| {
                    op.operands
                        .iter()
                        .any(|o| o.producer.is_some_and(|p| own.contains(&p)))
                });
            if !used {
                let model = &self.funcs[func].model;
                self.errors.push(
                    Diagnostic::error("not-a-producer", span, format!("`{}` does not feed `{}`", model.name, self.funcs[consumer].model.name))
                        .with_help("`compute_at(f, loop)` needs `f` (or a func computed inside `f`) to use this func's result"),
                );
            }
        }
    }

    fn placed_inside(&self, func: usize, consumer: usize) -> bool {
        let mut cursor = func;
        for _ in 0..self.funcs.len() {
            match &self.funcs[cursor].model.placement {
                Placement::At { consumer: next, .. } if *next == consumer => return true,
                Placement::At { consumer: next, .. } => cursor = *next,
                Placement::Root => return false,
            }
        }
        false
    }

    /// A `pack` or `prefetch` loop must enclose the stage: one of its own
    /// loops, or a loop of the func it is computed in, at or outside the
    /// `compute_at` loop.
    fn check_operand_loops(&mut self) {
        let mut errors = Vec::new();
        for state in self.funcs.values() {
            let model = &state.model;
            for stage in &model.stages {
                for (pack, verb) in stage
                    .packs
                    .iter()
                    .map(|p| (p, "pack"))
                    .chain(stage.prefetches.iter().map(|p| (p, "prefetch")))
                {
                    if stage.find_loop(&pack.loop_name).is_some() {
                        continue;
                    }
                    let outer: Vec<String> = match &model.placement {
                        Placement::At {
                            consumer,
                            loop_name,
                            ..
                        } => {
                            let last = self.funcs[*consumer]
                                .model
                                .stages
                                .last()
                                .expect("a func has a stage");
                            let units = last.visible_loops();
                            let until = units
                                .iter()
                                .position(|u| last.loops[u.start].visible_name() == loop_name)
                                .map_or(0, |p| p + 1);
                            units[..until]
                                .iter()
                                .map(|u| last.loops[u.start].visible_name().to_string())
                                .collect()
                        }
                        Placement::Root => Vec::new(),
                    };
                    if outer.contains(&pack.loop_name) {
                        continue;
                    }
                    let label = stage_label(stage, &model.name);
                    let mut candidates: Vec<String> = outer.clone();
                    candidates.extend(
                        stage
                            .visible_loops()
                            .into_iter()
                            .map(|u| stage.loops[u.start].visible_name().to_string()),
                    );
                    let mut error = Diagnostic::error(
                        "unknown-loop",
                        pack.loop_span,
                        format!("`{}` is not a loop around {label}", pack.loop_name),
                    )
                    .with_label("not a loop around it");
                    error = match did_you_mean(
                        &pack.loop_name,
                        candidates.iter().map(String::as_str),
                    ) {
                        Some(close) => error.with_help(format!("did you mean `{close}`?")),
                        None => error.with_help(format!(
                            "{verb} at one of {label}'s loops ({}){}",
                            loop_names(stage),
                            if outer.is_empty() {
                                String::new()
                            } else {
                                format!(
                                    " or of the loops it is computed in: {}",
                                    outer
                                        .iter()
                                        .map(|l| format!("`{l}`"))
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                )
                            }
                        )),
                    };
                    errors.push(error);
                }
            }
        }
        self.errors.extend(errors);
    }

    /// The planner materializes loops by tiling, so the loops of one dimension
    /// must stay nested outer-to-inner in split order.
    fn check_loop_orders(&mut self) {
        for state in self.funcs.values() {
            for stage in &state.model.stages {
                for (position, inner) in stage.loops.iter().enumerate() {
                    let misplaced = stage.loops[position + 1..]
                        .iter()
                        .find(|outer| outer.dim == inner.dim && outer.step > inner.step);
                    if let Some(outer) = misplaced {
                        let blame = stage.order_span.unwrap_or(outer.span);
                        self.errors.push(
                            Diagnostic::error("split-order", blame, format!("this order puts `{}` outside `{}`, but both iterate `{}` and `{}` was split inside `{}`", inner.name, outer.name, stage.dims[inner.dim].name, inner.name, outer.name))
                                .with_help("loops are materialized by tiling, so the inner part of a split must stay inside its outer part"),
                        );
                    }
                }
            }
        }
    }
}

fn info_name(kind: DirectiveKind) -> &'static str {
    directives::DIRECTIVES
        .iter()
        .find(|d| d.kind == kind)
        .map_or("mark", |d| d.name)
}

fn dims_hint(op: &PayloadOp) -> String {
    let parallel: Vec<String> = op
        .iterators
        .iter()
        .enumerate()
        .filter(|(_, k)| **k == IteratorKind::Parallel)
        .map(|(i, _)| format!("d{i}"))
        .collect();
    let reduction: Vec<String> = op
        .iterators
        .iter()
        .enumerate()
        .filter(|(_, k)| **k == IteratorKind::Reduction)
        .map(|(i, _)| format!("d{i}"))
        .collect();
    if reduction.is_empty() {
        parallel.join(", ")
    } else {
        format!("{} | {}", parallel.join(", "), reduction.join(", "))
    }
}

fn loop_names(stage: &Stage) -> String {
    stage
        .visible_loops()
        .into_iter()
        .map(|unit| format!("`{}`", stage.loops[unit.start].visible_name()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn stage_label(stage: &Stage, func: &str) -> String {
    if stage.is_update {
        format!("`{func}.update()`")
    } else {
        format!("`{func}`")
    }
}

/// The loops `name` refers to: one loop, or the components of a fused loop.
fn find_loop(stage: &Stage, func: &str, name: &Ident) -> Result<Range<usize>, Box<Diagnostic>> {
    if let Some(range) = stage.find_loop(&name.name) {
        return Ok(range);
    }
    let stage_name = stage_label(stage, func);
    let error = Diagnostic::error(
        "unknown-loop",
        name.span,
        format!("`{}` is not a loop of {stage_name}", name.name),
    )
    .with_label(format!("not a loop of {stage_name}"));
    Err(
        match did_you_mean(&name.name, stage.loops.iter().map(|l| l.visible_name())) {
            Some(close) => error.with_help(format!("did you mean `{close}`?")),
            None => error.with_help(format!("{stage_name} has loops: {}", loop_names(stage))),
        }
        .into(),
    )
}

#[allow(clippy::too_many_arguments)]
fn split(
    stage: &mut Stage,
    func: &str,
    target: &Ident,
    outer: &str,
    outer_span: Span,
    inner: &str,
    inner_span: Span,
    factor: i64,
    span: Span,
) -> Result<(), Box<Diagnostic>> {
    let range = find_loop(stage, func, target)?;
    if range.len() > 1 {
        let parts: Vec<String> = stage.loops[range]
            .iter()
            .map(|l| format!("`{}`", l.name))
            .collect();
        return Err(Box::new(Diagnostic::error("split-fused", target.span, format!("cannot split `{}`: it is a fused loop (of {})", target.name, parts.join(", ")))
            .with_help("loops are materialized by tiling, which cannot split a fused iteration space; split before `fuse`")));
    }
    let index = range.start;
    if outer == inner {
        return Err(Box::new(Diagnostic::error(
            "duplicate-loop",
            inner_span,
            format!("the outer and inner loops of a split are both named `{inner}`"),
        )));
    }
    for (new, new_span) in [(outer, outer_span), (inner, inner_span)] {
        if new != target.name && stage.loops.iter().any(|l| l.visible_name() == new) {
            return Err(Box::new(
                Diagnostic::error(
                    "duplicate-loop",
                    new_span,
                    format!("a loop named `{new}` already exists"),
                )
                .with_help("give the new loop a fresh name"),
            ));
        }
    }
    let original = stage.loops[index].clone();
    let outer_loop = Loop {
        name: outer.to_string(),
        step: original.step * factor,
        span,
        ..original.clone()
    };
    let inner_loop = Loop {
        name: inner.to_string(),
        step: original.step,
        tile: Some(original.step * factor),
        span,
        vectorize: None,
        unroll: None,
        parallel: None,
        ..original
    };
    stage.loops.splice(index..=index, [outer_loop, inner_loop]);
    Ok(())
}

/// Reorders the named loops (innermost first) among the slots they occupy; a
/// fused loop moves as a whole.
fn reorder(stage: &mut Stage, func: &str, loops: &[&Ident]) -> Result<(), Box<Diagnostic>> {
    let units = stage.visible_loops();
    let mut positions = Vec::new();
    for (i, name) in loops.iter().enumerate() {
        if let Some(first) = loops[..i].iter().find(|other| other.name == name.name) {
            return Err(Box::new(
                Diagnostic::error(
                    "duplicate-loop",
                    name.span,
                    format!("loop `{}` is named twice", name.name),
                )
                .with_note(Some(first.span), "first named here"),
            ));
        }
        let range = find_loop(stage, func, name)?;
        positions.push(
            units
                .iter()
                .position(|u| *u == range)
                .expect("a found loop is a visible loop"),
        );
    }
    let mut slots = positions.clone();
    slots.sort_unstable();
    // `loops` lists innermost first; slots are outermost first.
    let mut order: Vec<usize> = (0..units.len()).collect();
    for (slot, unit) in slots.into_iter().zip(positions.into_iter().rev()) {
        order[slot] = unit;
    }
    stage.loops = order
        .into_iter()
        .flat_map(|unit| stage.loops[units[unit].clone()].to_vec())
        .collect();
    Ok(())
}

/// `fuse(inner, outer, fused)`: joins `outer` and the loop directly inside it.
fn fuse(
    stage: &mut Stage,
    func: &str,
    inner: &Ident,
    outer: &Ident,
    fused: &Ident,
    span: Span,
) -> Result<(), Box<Diagnostic>> {
    let inner_range = find_loop(stage, func, inner)?;
    let outer_range = find_loop(stage, func, outer)?;
    if inner_range == outer_range {
        return Err(Box::new(Diagnostic::error(
            "duplicate-loop",
            outer.span,
            format!(
                "`fuse` needs two different loops, but both are `{}`",
                outer.name
            ),
        )));
    }
    if outer_range.end != inner_range.start {
        return Err(Box::new(Diagnostic::error("fuse-not-adjacent", span, format!("cannot fuse `{}` into `{}`: `{}` must be the loop directly outside `{}`", inner.name, outer.name, outer.name, inner.name))
            .with_help(format!("{} has loops {} (outermost first); `fuse(inner, outer, fused)` lists the inner loop first", stage_label(stage, func), loop_names(stage)))));
    }
    if fused.name != inner.name
        && fused.name != outer.name
        && stage.find_loop(&fused.name).is_some()
    {
        return Err(Box::new(
            Diagnostic::error(
                "duplicate-loop",
                fused.span,
                format!("a loop named `{}` already exists", fused.name),
            )
            .with_help("give the fused loop a fresh name"),
        ));
    }
    for the_loop in &mut stage.loops[outer_range.start..inner_range.end] {
        the_loop.fused = Some(Fused {
            name: fused.name.clone(),
            span,
        });
    }
    Ok(())
}
