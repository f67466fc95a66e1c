//! One method per directive: what each does to its func's placement or to
//! its stage's loop nest, once `chains.rs` has checked its arguments (the
//! edits of the loop list itself are in `loops.rs`, the directives about one
//! input in `operands.rs`).

use super::accelerate::accelerate_arguments;
use super::collapsed::collapse_fused;
use super::loops::{
    find_loop, fuse, info_name, pipeline, reorder, rfactor, split, stage_label, write_buffer,
};
use super::operands::operand_at_loop;
use super::{reuse, warnings, PendingComputeAt, Resolver};
use crate::ast::{Arg, Directive, Ident};
use crate::diagnostic::Diagnostic;
use crate::directives::{self, DirectiveKind};
use crate::model::{Accelerate, Edges, Loop, Placement};

/// A directive applied to one stage of one func, with its checked
/// arguments sorted by kind.
pub(super) struct Call<'d> {
    /// The func's index.
    pub func: usize,
    /// The stage the chain is at (0, or 1 after `update()`).
    pub stage: usize,
    /// The directive as written.
    pub directive: &'d Directive,
    /// Each argument that is a name, in place (`None` for a number).
    names: Vec<Option<&'d Ident>>,
    /// The arguments that are numbers, in order.
    ints: Vec<i64>,
}

impl<'d> Call<'d> {
    /// `directive` applied to stage `stage` of func `func`.
    pub fn of(func: usize, stage: usize, directive: &'d Directive) -> Self {
        let names = directive
            .args
            .iter()
            .map(|a| if let Arg::Name(i) = a { Some(i) } else { None })
            .collect();
        let ints = directive
            .args
            .iter()
            .filter_map(|a| match a {
                Arg::Int { value, .. } => Some(*value),
                Arg::Name(_) => None,
            })
            .collect();
        Call {
            func,
            stage,
            directive,
            names,
            ints,
        }
    }

    /// Argument `i`, which the signature says is a name.
    fn name(&self, i: usize) -> &'d Ident {
        self.names[i].expect("argument kinds were checked")
    }

    /// How many arguments there are.
    fn count(&self) -> usize {
        self.names.len()
    }
}

type Outcome = Result<(), Box<Diagnostic>>;

impl Resolver<'_> {
    fn func_name(&self, call: &Call) -> String {
        self.funcs[call.func].model.name.clone()
    }

    /// `update()`: the chain goes on with the update stage, which it returns.
    pub(super) fn update(&mut self, call: &Call) -> Result<usize, Box<Diagnostic>> {
        let func_name = self.func_name(call);
        if self.funcs[call.func].model.stages.len() < 2 {
            return Err(Box::new(Diagnostic::error("no-update", call.directive.span, format!("func `{func_name}` has no update definition"))
                .with_help(format!("bind one: `func {func_name} = SELECTOR (dims) update SELECTOR (dims | reduction dims)`"))));
        }
        Ok(1)
    }

    /// `compute_root()`: the func in a loop nest of its own.
    pub(super) fn compute_root(&mut self, call: &Call) -> Outcome {
        if call.stage != 0 {
            return Err(Box::new(Diagnostic::error(
                "stage-placement",
                call.directive.span,
                "`compute_root` places a whole func; call it before `update()`",
            )));
        }
        self.funcs[call.func].model.placement = Placement::Root;
        self.forget_placements(call.func);
        Ok(())
    }

    /// `compute_inline()`: the func fused into every op reading it.
    pub(super) fn compute_inline(&mut self, call: &Call) -> Outcome {
        let model = &mut self.funcs[call.func].model;
        if call.stage != 0 || model.stages.len() > 1 {
            return Err(Box::new(
                Diagnostic::error(
                    "inline-update",
                    call.directive.span,
                    format!("`{}` has an update definition; only a func computed in one step can be inlined", model.name),
                )
                .with_help("a reduction is computed where it is placed: use `compute_at` or `compute_root`"),
            ));
        }
        model.placement = Placement::Inline {
            span: call.directive.span,
        };
        self.forget_placements(call.func);
        Ok(())
    }

    /// Drops the `compute_at`/`store_at` a func's chain asked for before.
    fn forget_placements(&mut self, func: usize) {
        self.pending.retain(|p| p.func != func);
        self.pending_stores.retain(|p| p.func != func);
    }

    /// `compute_at(consumer, loop)` or `store_at(consumer, loop)`: recorded,
    /// and checked once every func's loops are known.
    pub(super) fn compute_at(&mut self, call: &Call, kind: DirectiveKind) -> Outcome {
        if call.stage != 0 {
            return Err(Box::new(Diagnostic::error(
                "stage-placement",
                call.directive.span,
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
        pending.retain(|p| p.func != call.func);
        pending.push(PendingComputeAt {
            func: call.func,
            consumer: call.name(0).clone(),
            loop_name: call.name(1).clone(),
            span: call.directive.span,
        });
        Ok(())
    }

    /// `split(d, o, i, f)`.
    pub(super) fn split(&mut self, call: &Call) -> Outcome {
        let func_name = self.func_name(call);
        let stage = &mut self.funcs[call.func].model.stages[call.stage];
        let (outer, inner) = (call.name(1), call.name(2));
        split(
            stage,
            &func_name,
            call.name(0),
            &outer.name,
            outer.span,
            &inner.name,
            inner.span,
            call.ints[0],
            call.directive.span,
        )
    }

    /// `tile(x, y, [xo, yo,] xi, yi, fx, fy)`: two splits and a reorder.
    pub(super) fn tile(&mut self, call: &Call) -> Outcome {
        let func_name = self.func_name(call);
        let stage = &mut self.funcs[call.func].model.stages[call.stage];
        let (x, y) = (call.name(0), call.name(1));
        let (xo, yo, xi, yi) = if call.count() == 8 {
            (call.name(2), call.name(3), call.name(4), call.name(5))
        } else {
            (x, y, call.name(2), call.name(3))
        };
        let span = call.directive.span;
        split(
            stage,
            &func_name,
            x,
            &xo.name,
            xo.span,
            &xi.name,
            xi.span,
            call.ints[0],
            span,
        )?;
        split(
            stage,
            &func_name,
            y,
            &yo.name,
            yo.span,
            &yi.name,
            yi.span,
            call.ints[1],
            span,
        )?;
        reorder(stage, &func_name, &[xi, yi, xo, yo])?;
        stage.order_span = Some(span);
        Ok(())
    }

    /// `reorder(l0, l1, ...)`, innermost first.
    pub(super) fn reorder(&mut self, call: &Call) -> Outcome {
        let func_name = self.func_name(call);
        let loops: Vec<&Ident> = (0..call.count()).map(|i| call.name(i)).collect();
        let stage = &mut self.funcs[call.func].model.stages[call.stage];
        let before = stage.loops.clone();
        reorder(stage, &func_name, &loops)?;
        if stage.loops == before {
            self.warnings.push(warnings::reorder_no_op(
                stage,
                &func_name,
                call.directive.span,
            ));
        }
        stage.order_span = Some(call.directive.span);
        Ok(())
    }

    /// `vectorize(l[, w])`, `unroll(l[, f])`, `parallel(l[, t])`: a mark on
    /// the loop, after splitting it by the factor when there is one.
    pub(super) fn mark(&mut self, call: &Call, kind: DirectiveKind) -> Outcome {
        let func_name = self.func_name(call);
        let span = call.directive.span;
        let stage = &mut self.funcs[call.func].model.stages[call.stage];
        let target = call.name(0);
        let range = find_loop(stage, &func_name, target)?;
        let index = range.start;
        let dims = stage.dims.clone();
        let extent = move |l: &Loop| l.trip_count(dims[l.dim].extent);
        let iterations = (range.len() == 1)
            .then(|| extent(&stage.loops[index]))
            .flatten();
        let marked = match call.ints.first() {
            Some(&factor) => {
                if kind != DirectiveKind::Parallel && iterations == Some(factor) {
                    self.warnings
                        .push(warnings::factor_is_extent(kind, target, factor, span));
                }
                if range.len() > 1 {
                    let verb = info_name(kind);
                    return Err(Box::new(Diagnostic::error("split-fused", span, format!("cannot {verb} `{}` by {factor}: it is a fused loop, and a factor splits it", target.name))
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
                    span,
                    factor,
                    span,
                )?;
                // vectorize/unroll mark the inner part; parallel marks the outer (tasks).
                if kind == DirectiveKind::Parallel {
                    index..index + 1
                } else {
                    index + 1..index + 2
                }
            }
            None => range,
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
        if stage.loops[marked.clone()]
            .iter()
            .all(|l| extent(l) == Some(1))
        {
            self.warnings
                .push(warnings::one_iteration(kind, target, span));
        }
        for the_loop in &mut stage.loops[marked] {
            match kind {
                DirectiveKind::Vectorize => the_loop.vectorize = Some(span),
                DirectiveKind::Unroll => the_loop.unroll = Some(span),
                _ => the_loop.parallel = Some(span),
            }
        }
        Ok(())
    }

    /// `fuse(outer, inner, fused)`.
    pub(super) fn fuse(&mut self, call: &Call) -> Outcome {
        let func_name = self.func_name(call);
        let only_stage = self.funcs[call.func].model.stages.len() == 1;
        let stage = &mut self.funcs[call.func].model.stages[call.stage];
        let names = (call.name(0), call.name(1), call.name(2));
        let span = call.directive.span;
        fuse(stage, &func_name, names.0, names.1, names.2, span)?;
        collapse_fused(stage, self.payload, &names.2.name, span, only_stage);
        Ok(())
    }

    /// `rfactor(loop, u)`.
    pub(super) fn rfactor(&mut self, call: &Call) -> Outcome {
        let func_name = self.func_name(call);
        let stage = &mut self.funcs[call.func].model.stages[call.stage];
        rfactor(
            stage,
            &func_name,
            call.name(0),
            call.name(1),
            call.directive.span,
        )
    }

    /// `pack(inK, loop[, dim])` or `prefetch(inK, loop)`.
    pub(super) fn operand(&mut self, call: &Call, kind: DirectiveKind) -> Outcome {
        let func_name = self.func_name(call);
        let stage = &mut self.funcs[call.func].model.stages[call.stage];
        // A collapsed stage's op lives in the stage; the directive edits it.
        let op = stage.op(self.payload).clone();
        let names: Vec<&Ident> = (0..call.count()).map(|i| call.name(i)).collect();
        operand_at_loop(&op, stage, &func_name, kind, &names, call.directive.span)
    }

    /// `accelerate(target[, loop][, edges])`.
    pub(super) fn accelerate(&mut self, call: &Call) -> Outcome {
        let func_name = self.func_name(call);
        let stage = &mut self.funcs[call.func].model.stages[call.stage];
        if let Some(previous) = &stage.accelerate {
            return Err(Box::new(
                Diagnostic::error(
                    "duplicate-accelerate",
                    call.directive.span,
                    format!("{} is already offloaded", stage_label(stage, &func_name)),
                )
                .with_note(Some(previous.span), "offloaded here"),
            ));
        }
        let rest: Vec<&Ident> = (1..call.count()).map(|i| call.name(i)).collect();
        let (loop_arg, edges_arg) = accelerate_arguments(stage, &func_name, &rest)?;
        let target = call.name(0);
        stage.accelerate = Some(Accelerate {
            target: target.name.clone(),
            target_span: target.span,
            loop_name: loop_arg.map(|l| l.name.clone()),
            loop_span: loop_arg.map(|l| l.span),
            edges: edges_arg.map_or(Edges::Partial, |(edges, _)| edges),
            edges_span: edges_arg.map(|(_, span)| span),
            span: call.directive.span,
        });
        Ok(())
    }

    /// `pipeline(loop[, ii])`: a mark, and a note that a CPU ignores it.
    pub(super) fn pipeline(&mut self, call: &Call) -> Outcome {
        let func_name = self.func_name(call);
        let stage = &mut self.funcs[call.func].model.stages[call.stage];
        let interval = call.ints.first().copied().unwrap_or(1);
        let note = pipeline(
            stage,
            &func_name,
            call.name(0),
            interval,
            call.directive.span,
        )?;
        self.notes.push(note);
        Ok(())
    }

    /// `buffer_at([out,] loop)`.
    pub(super) fn buffer_at(&mut self, call: &Call) -> Outcome {
        let func_name = self.func_name(call);
        let stage = &mut self.funcs[call.func].model.stages[call.stage];
        let output = (call.count() == 2).then(|| call.name(0));
        let target = call.name(call.count() - 1);
        write_buffer(stage, &func_name, output, target, call.directive.span)
    }

    /// `reuse_at(input, loop)`: `input` is `inK` or the func producing it.
    pub(super) fn reuse_at(&mut self, call: &Call) -> Outcome {
        let func_name = self.func_name(call);
        let producers: Option<Vec<usize>> = self
            .funcs
            .get(&call.name(0).name)
            .map(|f| f.model.stages.iter().map(|s| s.op).collect());
        let payload = self.payload;
        let stage = &mut self.funcs[call.func].model.stages[call.stage];
        let op = stage.op(payload).clone();
        reuse::reuse_buffer(
            stage,
            &func_name,
            &op,
            call.name(0),
            producers.as_deref(),
            call.name(1),
            call.directive.span,
        )
    }
}
