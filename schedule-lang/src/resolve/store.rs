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
    /// `compute_at` is placed.
    pub(super) fn store_at(&mut self, at: &PendingComputeAt, consumer: usize) {
        let func = at.func;
        let name = self.funcs[func].model.name.clone();
        let consumer_name = self.funcs[consumer].model.name.clone();
        let store_loop = &at.loop_name.name;
        let (compute_loop, compute_span) = match &self.funcs[func].model.placement {
            Placement::At {
                consumer: c,
                loop_name,
                span,
            } if *c == consumer => (loop_name.clone(), *span),
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
                return;
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
                return;
            }
        };
        let last = self.funcs[consumer]
            .model
            .stages
            .last()
            .expect("a func has a stage");
        let (Some(stored), Some(computed)) =
            (last.find_loop(store_loop), last.find_loop(&compute_loop))
        else {
            return; // The loops were checked; a broken one was reported.
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
            return;
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
            return;
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
            return;
        }
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
                        stage_label(last, &consumer_name)
                    ),
                )
                .with_help("store and compute it in the loops of the func that reads it"),
            );
            return;
        };
        if let Some(inner) = self
            .funcs
            .values()
            .find(|f| matches!(&f.model.placement, Placement::At { consumer: c, .. } if *c == func))
        {
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
            return;
        }
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
                        "`{consumer_name}` already keeps a reuse buffer of `{name}` at                          `{compute_loop}`"
                    ),
                )
                .with_note(Some(buffered.span), "buffered here")
                .with_help("drop one: the sliding window is a reuse buffer whose new values are computed"),
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
            loop_name: store_loop.clone(),
            span: at.span,
        });
    }
}
