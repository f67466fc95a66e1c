//! Name resolution: binds funcs to payload ops, checks every directive's
//! arguments against the func's loops, and builds the [`Model`]. Every problem
//! found is reported; nothing stops at the first.
//!
//! [`bind`] resolves `func` declarations (selectors and dimension names);
//! [`chains`] applies each directive of a chain to the func's loop nest,
//! with [`loops`] holding the loop-nest edits (split, reorder, fuse) and
//! [`operands`] the directives about one input (`pack`, `prefetch`);
//! [`checks`] checks what needs the whole schedule (placements, operand
//! loops, loop orders) once every chain is applied, and [`inline`] what
//! `compute_inline` needs, and [`store`] `store_at`; [`warnings`] words the
//! warnings for directives that do nothing.

mod accelerate;
mod bind;
mod calls;
mod chains;
mod checks;
mod collapsed;
mod families;
mod inline;
mod loops;
mod operands;
mod reuse;
mod select;
mod store;
mod warnings;

use crate::ast::{Ident, Item, ScheduleFile};
use crate::diagnostic::{did_you_mean, Diagnostic};
use crate::model::{FuncModel, Model, Placement, TraceStep};
use loops::loop_names;

use crate::machine::VectorUnit;
use crate::payload_info::PayloadInfo;
use crate::span::Span;
use indexmap::IndexMap;

/// Resolves a parsed schedule against a payload, for this machine's vector
/// unit ([`VectorUnit::host`]).
pub fn resolve(file: &ScheduleFile, payload: &PayloadInfo) -> Result<Model, Vec<Diagnostic>> {
    resolve_for(file, payload, VectorUnit::host())
}

/// Resolves a parsed schedule against a payload, its register tiles
/// counted in `unit`'s registers.
pub fn resolve_for(
    file: &ScheduleFile,
    payload: &PayloadInfo,
    unit: VectorUnit,
) -> Result<Model, Vec<Diagnostic>> {
    let mut resolver = Resolver {
        payload,
        unit,
        funcs: IndexMap::new(),
        errors: Vec::new(),
        warnings: Vec::new(),
        notes: Vec::new(),
        trace: Vec::new(),
        pending: Vec::new(),
        pending_stores: Vec::new(),
        broken: Vec::new(),
    };
    let expansion = families::expand(file, payload);
    resolver.errors.extend(expansion.errors);
    resolver.warnings.extend(expansion.warnings);
    resolver.broken.extend(expansion.broken);
    let members = &expansion.members;
    let file = expansion.file.as_ref().unwrap_or(file);
    for item in &file.items {
        if let Item::Func(decl) = item {
            resolver.for_member(members, &decl.name.name, |r| r.declare(decl));
        }
    }
    for item in &file.items {
        if let Item::Chain(chain) = item {
            resolver.for_member(members, &chain.func.name, |r| r.chain(chain));
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
    /// The vector unit register tiles are counted in.
    unit: VectorUnit,
    funcs: IndexMap<String, FuncState>,
    errors: Vec<Diagnostic>,
    /// Directives that do nothing ([`Model::warnings`]).
    warnings: Vec<Diagnostic>,
    /// Notes for the schedule ([`Model::notes`]).
    notes: Vec<Diagnostic>,
    /// Each applied directive's loop nest ([`Model::trace`]).
    trace: Vec<TraceStep>,
    pending: Vec<PendingComputeAt>,
    /// `store_at` calls, resolved once every `compute_at` is.
    pending_stores: Vec<PendingComputeAt>,
    /// Funcs whose declaration had an error (already reported): later uses
    /// of the name are skipped, so one mistake gives one error.
    broken: Vec<String>,
}

/// `message` with every member of `family` (`convs[3]`) named as the family
/// (`convs`): the same mistake, whichever member made it.
fn as_family(message: &str, family: &str) -> String {
    let open = format!("{family}[");
    let mut out = String::new();
    let mut rest = message;
    while let Some(at) = rest.find(&open) {
        let after = &rest[at + open.len()..];
        let index = after
            .find(']')
            .filter(|&close| after[..close].bytes().all(|b| b.is_ascii_digit()));
        match index {
            Some(close) => {
                out.push_str(&rest[..at]);
                out.push_str(family);
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[..at + open.len()]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

impl Resolver<'_> {
    /// Runs `step` for the func `name`; when it is a member of a func of
    /// many ops, each diagnostic it adds names the member's op, and one the
    /// family's earlier members already got (the same place and words) is
    /// dropped, so one mistake in a shared chain is one error.
    fn for_member(
        &mut self,
        members: &std::collections::HashMap<String, families::Member>,
        name: &str,
        step: impl FnOnce(&mut Self),
    ) {
        let (errors, warnings) = (self.errors.len(), self.warnings.len());
        step(self);
        let Some(member) = members.get(name) else {
            return;
        };
        let family = &member.family;
        let op = &self.payload.ops[member.op];
        let place = self.payload.place(op);
        let note = format!("`{name}` is the `{}` at {place}", op.kind);
        let general = |d: &Diagnostic| {
            let message = as_family(&d.message, family);
            (d.code, d.span.map(|s| (s.start, s.end)), message)
        };
        for list in [(&mut self.errors, errors), (&mut self.warnings, warnings)] {
            let (diagnostics, before) = list;
            let seen: Vec<_> = diagnostics[..before].iter().map(general).collect();
            let added: Vec<Diagnostic> = diagnostics.drain(before..).collect();
            for diagnostic in added {
                if !seen.contains(&general(&diagnostic)) {
                    diagnostics.push(diagnostic.with_note(Some(member.span), note.clone()));
                }
            }
        }
    }

    fn finish(mut self) -> Result<Model, Vec<Diagnostic>> {
        let pending = std::mem::take(&mut self.pending);
        for at in &pending {
            let Some(consumer) = self.consumer_loop(at) else {
                continue;
            };
            self.funcs[at.func].model.placement = Placement::At {
                consumer,
                loop_name: at.loop_name.name.clone(),
                span: at.span,
            };
        }
        let stores = std::mem::take(&mut self.pending_stores);
        for at in &stores {
            if let Some(consumer) = self.consumer_loop(at) {
                self.store_at(at, consumer);
            }
        }
        self.check_placements();
        self.warn_nested_parallel();
        self.warn_register_tiles();
        self.warn_repeated_packs();
        self.check_inlines();
        self.check_loop_orders();
        self.check_operand_loops();
        self.check_collapsed_placements();
        if self.errors.is_empty() {
            self.warnings.sort_by_key(|w| w.span.map_or(0, |s| s.start));
            Ok(Model {
                funcs: self.funcs.into_values().map(|f| f.model).collect(),
                warnings: self.warnings,
                notes: self.notes,
                trace: self.trace,
            })
        } else {
            self.errors.sort_by_key(|e| e.span.map_or(0, |s| s.start));
            Err(self.errors)
        }
    }

    /// The consumer a `compute_at` or `store_at` call names, once its name
    /// and loop are checked (an error otherwise).
    fn consumer_loop(&mut self, at: &PendingComputeAt) -> Option<usize> {
        if self.broken.contains(&at.consumer.name) {
            return None;
        }
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
            return None;
        };
        if consumer == at.func {
            self.errors.push(Diagnostic::error(
                "compute-at-self",
                at.consumer.span,
                "a func cannot be computed inside its own loops",
            ));
            return None;
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
            return None;
        }
        Some(consumer)
    }
}
