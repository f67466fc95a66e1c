//! Partial last tiles of vectorized stages. A vector tile must have a static
//! shape, so where a loop's last tile would be partial the planner does what
//! Halide does with tails: it splits the op before that loop
//! (`structured.split`) into a part of whole tiles and a remainder smaller
//! than one tile, and plans each part on from that loop, both with static
//! tiles. Split along a reduction dimension, the remainder accumulates into
//! the whole tiles' result. A func computed inside such a loop cannot be fused into both
//! parts: that is an error at the split.

use super::nest::{Nest, Tail};
use super::{MaterializedLoop, Planner, Resume};
use crate::script::ANY_OP;
use schedule_lang::Diagnostic;
use std::ops::Range;

/// The outermost loop in `range` whose tiles are partial, over a dimension
/// of static extent. Over a reduction dimension the two parts run one after
/// the other, the second accumulating into the first's result, so the sum
/// keeps the order the loops give it.
pub(super) fn find_tail(nest: &Nest, range: Range<usize>) -> Option<Tail> {
    let loops = nest.loops;
    let partial = |i: usize| {
        nest.entering(i)[loops[i].dim].filter(|&e| e > loops[i].step && e % loops[i].step != 0)
    };
    let (at, extent) = range.into_iter().find_map(|i| Some((i, partial(i)?)))?;
    let l = &loops[at];
    Some(Tail {
        at,
        dim: l.dim,
        extent,
        whole: extent - extent % l.step,
        region: nest.entering(at).clone(),
    })
}

impl Planner<'_> {
    /// Refuses a split-off tail with a func computed at or inside its loop.
    /// False after an error.
    pub(super) fn check_tail_compute_at(
        &mut self,
        func: usize,
        stage_index: usize,
        nest: &Nest,
    ) -> bool {
        let Some(tail) = &nest.tail else { return true };
        let loops = nest.loops;
        let Some(target) = (tail.at..loops.len()).find(|&i| nest.targets[i]) else {
            return true;
        };
        let stage = &self.model.funcs[func].stages[stage_index];
        let name = self.stage_name(func, stage_index);
        let l = &loops[tail.at];
        let target_name = loops[target].visible_name();
        let producer = self.producers_at(func, target_name)[0];
        let producer_name = &self.model.funcs[producer].name;
        self.errors.push(
            Diagnostic::error(
                "tail-compute-at",
                l.span,
                format!(
                    "cannot split off the partial last tile of `{}` in `{name}`: \
                     `{producer_name}` is computed at `{target_name}`, and it cannot be fused \
                     into both parts of the split",
                    l.name
                ),
            )
            .with_note(Some(self.compute_at_span(producer)), "computed there")
            .with_help(format!(
                "choose a split factor that divides {} (the extent of `{}` there), or compute \
                 the func at a loop outside `{}`",
                tail.extent, stage.dims[l.dim].name, l.name
            )),
        );
        false
    }

    /// Splits the op (`handle`) before the loop of `tail` into the part of
    /// whole tiles and the remainder, and plans each on from that loop.
    pub(super) fn split_tail(
        &mut self,
        func: usize,
        stage_index: usize,
        handle: &str,
        tail: &Tail,
        containing: &[MaterializedLoop],
    ) {
        let name = self.stage_name(func, stage_index);
        let the_loop = &self.model.funcs[func].stages[stage_index].loops[tail.at];
        let rest = tail.extent - tail.whole;
        self.script.comment(format!(
            "{name}: the last tile of {} is partial ({} = {} + {rest}): split the op there, so \
             both parts have static tiles",
            the_loop.name, tail.extent, tail.whole
        ));
        let prefix = self.model.funcs[func].name.clone();
        let parts = self.script.fresh(&format!("{prefix}_parts"));
        let whole = self.script.fresh(&format!("{prefix}_whole"));
        let remainder = self.script.fresh(&format!("{prefix}_tail"));
        let location = self.at(the_loop.span);
        self.script.op(
            format!(
                "%{parts} = transform.structured.split %{handle} after {} {{dimension = {}}} : \
                 {ANY_OP}",
                tail.whole, tail.dim
            ),
            location,
        );
        self.script.op(
            format!(
                "%{whole}, %{remainder} = transform.split_handle %{parts} : ({ANY_OP}) -> \
                 ({ANY_OP}, {ANY_OP})"
            ),
            None,
        );
        self.transformed = true;
        // Each part plans the packs and prefetches at and inside the split loop anew.
        let (packed, prefetched) = (self.packed.clone(), self.prefetched.clone());
        let outer_remainder = self.in_remainder;
        for (part, extent, in_remainder) in [(whole, tail.whole, false), (remainder, rest, true)] {
            self.packed = packed.clone();
            self.prefetched = prefetched.clone();
            self.in_remainder = outer_remainder || in_remainder;
            let mut region = tail.region.clone();
            region[tail.dim] = Some(extent);
            let resume = Resume {
                start: tail.at,
                region,
                containing: containing.to_vec(),
                whole: false,
            };
            self.stage_from(func, stage_index, part, resume);
        }
        self.in_remainder = outer_remainder;
    }
}
