//! Directive chains: each directive's arguments checked against its
//! signature and the func's loops, then applied to the stage's loop nest.

use super::calls::Call;
use super::{Resolver, TraceStep};
use crate::ast::{Arg, Chain, Directive};
use crate::diagnostic::{did_you_mean, Diagnostic};
use crate::directives::{self, ArgKind, DirectiveKind};

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

    /// Applies one directive, whose arguments were checked, to stage
    /// `stage` of func `func` (`update()` moves the chain to the update
    /// stage): one method per directive, in `calls.rs`.
    pub(super) fn apply(
        &mut self,
        func: usize,
        stage: &mut usize,
        directive: &Directive,
        kind: DirectiveKind,
    ) -> Result<(), Box<Diagnostic>> {
        let call = Call::of(func, *stage, directive);
        match kind {
            DirectiveKind::Update => {
                *stage = self.update(&call)?;
                Ok(())
            }
            DirectiveKind::ComputeRoot => self.compute_root(&call),
            DirectiveKind::ComputeInline => self.compute_inline(&call),
            DirectiveKind::ComputeAt | DirectiveKind::StoreAt => self.compute_at(&call, kind),
            DirectiveKind::Split => self.split(&call),
            DirectiveKind::Tile => self.tile(&call),
            DirectiveKind::Reorder => self.reorder(&call),
            DirectiveKind::Vectorize | DirectiveKind::Unroll | DirectiveKind::Parallel => {
                self.mark(&call, kind)
            }
            DirectiveKind::Fuse => self.fuse(&call),
            DirectiveKind::Rfactor => self.rfactor(&call),
            DirectiveKind::Pack | DirectiveKind::Prefetch => self.operand(&call, kind),
            DirectiveKind::Accelerate => self.accelerate(&call),
            DirectiveKind::Pipeline => self.pipeline(&call),
            DirectiveKind::BufferAt => self.buffer_at(&call),
            DirectiveKind::ReuseAt => self.reuse_at(&call),
        }
    }
}
