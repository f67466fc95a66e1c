//! `store_at(consumer, loop)`: Halide's storage placement. With the func
//! computed at the loop just inside `loop` (`compute_at(consumer, inner)`),
//! its values are kept from one iteration of `inner` to the next, and each
//! iteration computes only what the previous one did not: the sliding
//! window. It becomes a reuse buffer of the consumer at `inner` whose new
//! elements are computed ([`ReuseAt::computing`]); whether the consumer's
//! reads overlap from one iteration to the next is the planner's op to say.

use super::loops::stage_label;
use super::{PendingComputeAt, Resolver};
use crate::diagnostic::Diagnostic;
use crate::model::Placement;
use crate::model::{ReuseAt, StoredAt};

impl Resolver<'_> {
    /// Resolves `func.store_at(consumer, loop)` (`at`), once every
    /// `compute_at` is placed: the loop `func` is computed at must be the
    /// one just inside `loop`, and the consumer must read `func` itself.
    pub(super) fn store_at(&mut self, at: &PendingComputeAt, consumer: usize) {
        let Some((compute_loop, compute_span)) = self.store_compute_loop(at, consumer) else {
            return;
        };
        if !self.check_store_loop(at, consumer, &compute_loop, compute_span) {
            return;
        }
        let Some(input) = self.sliding_input(at, consumer) else {
            return;
        };
        let func = at.func;
        let name = self.funcs[func].model.name.clone();
        let consumer_name = self.funcs[consumer].model.name.clone();
        let stage = self.funcs[consumer]
            .model
            .stages
            .last_mut()
            .expect("a func has a stage");
        if let Some(buffered) = stage
            .reuse_buffers
            .iter()
            .find(|r| r.input == input && r.loop_name == compute_loop)
        {
            self.errors.push(
                Diagnostic::error(
                    "duplicate-reuse-at",
                    at.span,
                    format!(
                        "`{consumer_name}` already keeps a reuse buffer of `{name}` at \
                         `{compute_loop}`"
                    ),
                )
                .with_note(Some(buffered.span), "buffered here")
                .with_help(
                    "drop one: the sliding window is a reuse buffer whose new values are computed",
                ),
            );
            return;
        }
        stage.reuse_buffers.push(ReuseAt {
            input,
            input_name: name,
            loop_name: compute_loop,
            loop_span: at.loop_name.span,
            span: at.span,
            computing: Some(func),
        });
        self.funcs[func].model.stored_at = Some(StoredAt {
            loop_name: at.loop_name.name.clone(),
            span: at.span,
        });
    }

    /// The loop of `consumer` the stored func is computed at, and where that
    /// `compute_at` is; `None` (reported) when it is computed elsewhere.
    fn store_compute_loop(
        &mut self,
        at: &PendingComputeAt,
        consumer: usize,
    ) -> Option<(String, crate::Span)> {
        let name = self.funcs[at.func].model.name.clone();
        let consumer_name = self.funcs[consumer].model.name.clone();
        let store_loop = &at.loop_name.name;
        match &self.funcs[at.func].model.placement {
            Placement::At {
                consumer: c,
                loop_name,
                span,
            } if *c == consumer => Some((loop_name.clone(), *span)),
            Placement::At {
                consumer: c, span, ..
            } => {
                let other = self.funcs[*c].model.name.clone();
                self.errors.push(
                    Diagnostic::error(
                        "store-at-consumer",
                        at.consumer.span,
                        format!(
                            "`{name}` is stored in `{consumer_name}`'s loops but computed in \
                             `{other}`'s"
                        ),
                    )
                    .with_note(Some(*span), "computed here")
                    .with_help("store and compute it in the same consumer's loops"),
                );
                None
            }
            Placement::Root | Placement::Inline { .. } => {
                self.errors.push(
                    Diagnostic::error(
                        "store-at-root",
                        at.span,
                        format!(
                            "`{name}` is stored at `{store_loop}` of `{consumer_name}` but not \
                             computed inside it"
                        ),
                    )
                    .with_help(format!(
                        "add `.compute_at({consumer_name}, LOOP)` with the loop just inside \
                         `{store_loop}`: each of its iterations then computes only what the \
                         previous one did not"
                    )),
                );
                None
            }
        }
    }

    /// Whether the store loop directly encloses the compute loop (a store at
    /// the compute loop itself is a warning and does nothing); reports why not.
    fn check_store_loop(
        &mut self,
        at: &PendingComputeAt,
        consumer: usize,
        compute_loop: &str,
        compute_span: crate::Span,
    ) -> bool {
        let name = &self.funcs[at.func].model.name;
        let consumer_name = &self.funcs[consumer].model.name;
        let store_loop = &at.loop_name.name;
        let last = self.funcs[consumer]
            .model
            .stages
            .last()
            .expect("a func has a stage");
        let (Some(stored), Some(computed)) =
            (last.find_loop(store_loop), last.find_loop(compute_loop))
        else {
            return false; // The loops were checked; a broken one was reported.
        };
        if stored == computed {
            self.warnings.push(
                Diagnostic::warning(
                    "store-at-compute-loop",
                    at.span,
                    format!(
                        "`store_at` at `{store_loop}`, the loop `{name}` is computed at, does \
                         nothing: that is where its values are kept already"
                    ),
                )
                .with_help("store it at the loop just outside, for a sliding window"),
            );
            return false;
        }
        if stored.start > computed.start {
            self.errors.push(
                Diagnostic::error(
                    "store-at-inside",
                    at.loop_name.span,
                    format!(
                        "`{name}` is stored at `{store_loop}`, inside `{compute_loop}` where it \
                         is computed: values must be stored at or outside where they are \
                         computed"
                    ),
                )
                .with_note(Some(compute_span), "computed here")
                .with_help(format!(
                    "store it at the loop just outside `{compute_loop}`"
                )),
            );
            return false;
        }
        if stored.end != computed.start {
            let between = last.loops[computed.start - 1].visible_name();
            self.errors.push(
                Diagnostic::error(
                    "store-at-not-adjacent",
                    at.loop_name.span,
                    format!(
                        "the sliding window keeps `{name}`'s values at the loop just outside \
                         `{compute_loop}`, which is `{between}`, not `{store_loop}`"
                    ),
                )
                .with_note(Some(compute_span), "computed here")
                .with_help(format!(
                    "write `store_at({consumer_name}, {between})`, or reorder so that \
                     `{store_loop}` directly encloses `{compute_loop}`"
                )),
            );
            return false;
        }
        true
    }

    /// The consumer's input that reads the stored func (the one the window
    /// keeps); `None` (reported) when it reads it only through another func,
    /// or when a func is computed inside the stored one's loops.
    fn sliding_input(&mut self, at: &PendingComputeAt, consumer: usize) -> Option<usize> {
        let func = at.func;
        let name = &self.funcs[func].model.name;
        let consumer_name = &self.funcs[consumer].model.name;
        let last = self.funcs[consumer]
            .model
            .stages
            .last()
            .expect("a func has a stage");
        let producers: Vec<usize> = self.funcs[func].model.stages.iter().map(|s| s.op).collect();
        let op = &self.payload.ops[last.op];
        let read = op
            .operands
            .iter()
            .position(|o| !o.is_init && o.producer.is_some_and(|p| producers.contains(&p)));
        let Some(input) = read else {
            self.errors.push(
                Diagnostic::error(
                    "store-at-indirect",
                    at.consumer.span,
                    format!(
                        "{} does not read `{name}` itself: the sliding window keeps what the \
                         consumer reads",
                        stage_label(last, consumer_name)
                    ),
                )
                .with_help("store and compute it in the loops of the func that reads it"),
            );
            return None;
        };
        let inner = self.funcs.values().find(
            |f| matches!(&f.model.placement, Placement::At { consumer: c, .. } if *c == func),
        );
        if let Some(inner) = inner {
            let inner_span = match &inner.model.placement {
                Placement::At { span, .. } => Some(*span),
                _ => None,
            };
            self.errors.push(
                Diagnostic::error(
                    "store-at-chain",
                    at.span,
                    format!(
                        "`{name}` is computed in a sliding window, and `{}` inside its loops: \
                         that chain is not supported yet",
                        inner.model.name
                    ),
                )
                .with_note(inner_span, "computed inside here")
                .with_help(format!(
                    "compute `{}` at root, or drop this `store_at`",
                    inner.model.name
                )),
            );
            return None;
        }
        Some(input)
    }
}
