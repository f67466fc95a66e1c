//! `func` declarations: selectors matched against the payload's ops, and
//! each definition's dimension names checked against the op's iterators.

use super::loops::dims_hint;
use super::FuncState;
use super::{plural, Resolver};
use crate::ast::{Definition, FuncDecl, Ident};
use crate::diagnostic::Diagnostic;
use crate::model::{Dim, Placement, Stage};
use crate::model::{FuncModel, Loop};
use crate::payload_info::{IteratorKind, PayloadOp};

impl<'a> Resolver<'a> {
    pub(super) fn declare(&mut self, decl: &FuncDecl) {
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
            self.broken.push(decl.name.name.clone());
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
                self.broken.push(decl.name.name.clone());
                return;
            }
        }
        if stages.len() == 2 && stages[0].op == stages[1].op {
            self.errors.push(Diagnostic::error(
                "op-bound-twice",
                stages[1].span,
                "the update definition selects the same op as the pure one",
            ));
            self.broken.push(decl.name.name.clone());
            return;
        }
        let model = FuncModel {
            name: decl.name.name.clone(),
            span: decl.name.span,
            stages,
            placement: Placement::Root,
            stored_at: None,
        };
        self.funcs
            .insert(decl.name.name.clone(), FuncState { model });
    }

    /// The one payload op a selector names; `None` (reported) when it names
    /// none or several ([`super::select`]).
    pub(super) fn select(&mut self, definition: &Definition) -> Option<&'a PayloadOp> {
        super::select::select(self.payload, definition)
            .map_err(|error| self.errors.push(*error))
            .ok()
    }

    pub(super) fn stage(&mut self, definition: &Definition, is_update: bool) -> Option<Stage> {
        let op = self.select(definition)?;
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
        // Tiling an empty iteration space makes no loops at all, which the
        // plan cannot refer to (upstream tiling even crashes on some).
        if let Some(i) = (0..names.len()).find(|&i| op.extents.get(i) == Some(&Some(0))) {
            self.errors.push(
                Diagnostic::error(
                    "empty-dimension",
                    names[i].span,
                    format!(
                        "dimension `{}` of this `{}` has 0 iterations: the op computes nothing, \
                         so there is nothing to schedule",
                        names[i].name, op.kind
                    ),
                )
                .with_help("remove the binding, or give the op's tensors non-zero sizes"),
            );
            return None;
        }
        let dims: Vec<Dim> = names
            .iter()
            .enumerate()
            .map(|(i, name)| Dim {
                name: name.name.clone(),
                reduction: op.iterators[i] == IteratorKind::Reduction,
                extent: op.extents.get(i).copied().flatten(),
                joined: Vec::new(),
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
                rfactor: None,
                pipeline: None,
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
            accelerate: None,
            write_buffer: None,
            reuse_buffers: Vec::new(),
            collapsed: None,
        })
    }
}
