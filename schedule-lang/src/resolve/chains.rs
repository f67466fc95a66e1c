//! Directive chains: each directive's arguments checked against its
//! signature and the func's loops, then applied to the stage's loop nest.

use super::*;

impl Resolver<'_> {
    pub(super) fn chain(&mut self, chain: &Chain) {
        if self.broken.contains(&chain.func.name) {
            return;
        }
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
            match self.apply(func, &mut stage, directive, info.kind) {
                Ok(()) => self.trace.push(TraceStep {
                    func,
                    stage,
                    span: directive.span,
                    loops: self.funcs[func].model.stages[stage].loops.clone(),
                }),
                Err(error) => self.errors.push(*error),
            }
        }
    }

    pub(super) fn check_arguments(
        &mut self,
        directive: &Directive,
        info: &directives::DirectiveInfo,
    ) -> bool {
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

    pub(super) fn apply(
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
                self.pending_stores.retain(|p| p.func != func);
                Ok(())
            }
            DirectiveKind::ComputeInline => {
                if *stage != 0 || state.model.stages.len() > 1 {
                    return Err(Box::new(
                        Diagnostic::error(
                            "inline-update",
                            directive.span,
                            format!("`{func_name}` has an update definition; only a func computed in one step can be inlined"),
                        )
                        .with_help("a reduction is computed where it is placed: use `compute_at` or `compute_root`"),
                    ));
                }
                state.model.placement = Placement::Inline {
                    span: directive.span,
                };
                self.pending.retain(|p| p.func != func);
                self.pending_stores.retain(|p| p.func != func);
                Ok(())
            }
            DirectiveKind::ComputeAt | DirectiveKind::StoreAt => {
                if *stage != 0 {
                    return Err(Box::new(Diagnostic::error(
                        "stage-placement",
                        directive.span,
                        format!(
                            "`{}` places a whole func; call it before `update()`",
                            directives::info(kind).name
                        ),
                    )));
                }
                let pending = if kind == DirectiveKind::ComputeAt {
                    &mut self.pending
                } else {
                    &mut self.pending_stores
                };
                pending.retain(|p| p.func != func);
                pending.push(PendingComputeAt {
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
                let stage = &mut state.model.stages[stage_index];
                let before = stage.loops.clone();
                reorder(stage, &func_name, &loops)?;
                if stage.loops == before {
                    self.warnings
                        .push(warnings::reorder_no_op(stage, &func_name, directive.span));
                }
                stage.order_span = Some(directive.span);
                Ok(())
            }
            DirectiveKind::Vectorize | DirectiveKind::Unroll | DirectiveKind::Parallel => {
                let stage = &mut state.model.stages[*stage];
                let target = name(0);
                let range = find_loop(stage, &func_name, target)?;
                let index = range.start;
                let dims = stage.dims.clone();
                let extent = move |l: &Loop| l.trip_count(dims[l.dim].extent);
                let iterations = (range.len() == 1)
                    .then(|| extent(&stage.loops[index]))
                    .flatten();
                let marked = if let Some(&factor) = ints.first() {
                    if kind != DirectiveKind::Parallel && iterations == Some(factor) {
                        self.warnings.push(warnings::factor_is_extent(
                            kind,
                            target,
                            factor,
                            directive.span,
                        ));
                    }
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
                        .find(|l| stage.dims[l.dim].reduction && l.rfactor.is_none())
                    {
                        return Err(Box::new(Diagnostic::error("parallel-reduction", target.span, format!("`{}` iterates reduction dimension `{}`; its iterations cannot run in parallel", target.name, stage.dims[reduction.dim].name))
                            .with_help(format!("parallelize a loop over a parallel dimension instead, or compute partial reductions over its tiles in parallel: `split({0}, {0}o, {0}i, F).reorder(.., {0}o).rfactor({0}o, u).parallel(u)`", target.name))));
                    }
                }
                let single = stage.loops[marked.clone()]
                    .iter()
                    .all(|l| extent(l) == Some(1));
                if single {
                    self.warnings
                        .push(warnings::one_iteration(kind, target, directive.span));
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
            DirectiveKind::Rfactor => {
                let stage = &mut state.model.stages[*stage];
                rfactor(stage, &func_name, name(0), name(1), directive.span)
            }
            DirectiveKind::Pack | DirectiveKind::Prefetch => {
                let stage = &mut state.model.stages[*stage];
                let op = &self.payload.ops[stage.op];
                let rest: Vec<&Ident> = (0..names.len()).map(name).collect();
                operand_at_loop(op, stage, &func_name, kind, &rest, directive.span)
            }
            DirectiveKind::Accelerate => {
                let stage = &mut state.model.stages[*stage];
                if let Some(previous) = &stage.accelerate {
                    return Err(Box::new(
                        Diagnostic::error(
                            "duplicate-accelerate",
                            directive.span,
                            format!("{} is already offloaded", stage_label(stage, &func_name)),
                        )
                        .with_note(Some(previous.span), "offloaded here"),
                    ));
                }
                let rest: Vec<&Ident> = (1..names.len()).map(name).collect();
                let (loop_arg, edges_arg) =
                    accelerate::accelerate_arguments(stage, &func_name, &rest)?;
                stage.accelerate = Some(Accelerate {
                    target: name(0).name.clone(),
                    target_span: name(0).span,
                    loop_name: loop_arg.map(|l| l.name.clone()),
                    loop_span: loop_arg.map(|l| l.span),
                    edges: edges_arg.map_or(Edges::Partial, |(edges, _)| edges),
                    edges_span: edges_arg.map(|(_, span)| span),
                    span: directive.span,
                });
                Ok(())
            }
            DirectiveKind::Pipeline => {
                let stage = &mut state.model.stages[*stage];
                let interval = ints.first().copied().unwrap_or(1);
                let note = pipeline(stage, &func_name, name(0), interval, directive.span)?;
                self.notes.push(note);
                Ok(())
            }
            DirectiveKind::BufferAt => {
                let stage = &mut state.model.stages[*stage];
                let target = name(names.len() - 1);
                write_buffer(
                    stage,
                    &func_name,
                    (names.len() == 2).then(|| name(0)),
                    target,
                    directive.span,
                )
            }
            DirectiveKind::ReuseAt => {
                let producers: Option<Vec<usize>> = self
                    .funcs
                    .get(&name(0).name)
                    .map(|f| f.model.stages.iter().map(|s| s.op).collect());
                let payload = self.payload;
                let stage = &mut self.funcs[func].model.stages[*stage];
                let op = &payload.ops[stage.op];
                reuse::reuse_buffer(
                    stage,
                    &func_name,
                    op,
                    name(0),
                    producers.as_deref(),
                    name(1),
                    directive.span,
                )
            }
        }
    }
}
