//! `store_at(consumer, outer)` with `compute_at(consumer, inner)`: Halide's
//! sliding window. The resolver turns it into a reuse buffer of the
//! consumer at `inner` whose new elements are computed ([`ReuseAt::computing`]):
//! `inner` is an `scf.for` (as for `reuse_at`), and
//! `transform.sched.sliding_window` (our own op, the payload crate's shim)
//! makes it carry the rows of the producer the consumer reads, computes
//! before the loop what the first iteration shares with the one before it,
//! and in each iteration only the new rows, into the buffer. The producer is
//! not fused into the consumer's loops ([`super::compute_at`] skips it): its
//! tiles, before the loop and in it, are planned from its own loops on,
//! like a fused producer's.

use super::{MaterializedLoop, Planner, Region, Resume};
use crate::script::ANY_OP;
use schedule_lang::model::ReuseAt;
use schedule_lang::MapResult;

impl Planner<'_> {
    /// Plans the sliding window `reuse` of stage `stage_index` of `func` (a
    /// reuse buffer whose `computing` func is computed in it). The stage's
    /// op (`handle`) is inside `containing`, the last of them the `scf.for`
    /// it slides along (not marked parallel: [`super::reuse`] refuses that),
    /// where the stage's tile is `region`.
    pub(super) fn plan_sliding_window(
        &mut self,
        func: usize,
        stage_index: usize,
        reuse: &ReuseAt,
        handle: &str,
        containing: &[MaterializedLoop],
        region: &Region,
    ) {
        let Some(producer) = reuse.computing else {
            return;
        };
        let at = reuse.loop_name.as_str();
        let stage = &self.model.funcs[func].stages[stage_index];
        let producer_name = self.model.funcs[producer].name.clone();
        let marked = stage.loops.iter().find(|l| l.visible_name() == at);
        let Some((slide_loop, outside)) = containing.split_last() else {
            return;
        };
        let stages = self.model.funcs[producer].stages.len();
        let producer_handles: Vec<String> = (0..stages)
            .map(|s| self.stage_handles[&(producer, s)].clone())
            .collect();
        let before: Vec<String> = (0..stages)
            .map(|s| self.script.fresh(&format!("{producer_name}_{s}_before")))
            .collect();
        let inside: Vec<String> = (0..stages)
            .map(|s| self.script.fresh(&format!("{producer_name}_{s}_sliding")))
            .collect();
        self.script.comment(format!(
            "store_at: {producer_name} kept from one iteration of {at} to the next in a buffer \
             {at} carries; its first rows computed before {at}, then only the new rows in each \
             iteration (a sliding window)"
        ));
        let results: Vec<String> = before
            .iter()
            .chain(&inside)
            .map(|h| format!("%{h}"))
            .collect();
        let operands: Vec<String> = producer_handles.iter().map(|h| format!("%{h}")).collect();
        self.script.op(
            format!(
                "{} = transform.sched.sliding_window %{handle} input {} at %{} computing {} \
                 : ({}) -> ({})",
                results.join(", "),
                reuse.input,
                slide_loop.handle,
                operands.join(", "),
                vec![ANY_OP; 2 + stages].join(", "),
                vec![ANY_OP; 2 * stages].join(", "),
            ),
            self.at(reuse.span),
        );
        self.transformed = true;

        // The producer's tiles span what the consumer's tile reads, except
        // along the dimensions that slide: there the op decides how many
        // rows (the first ones before the loop, the step's in it), a few,
        // computed as one tile (not tiled further: a loop of one iteration
        // there would be folded away with the handles to what it holds).
        let read = self.model.funcs[producer].stages.last().map(|s| s.op);
        let slide_dim = marked.map(|l| l.dim);
        let slides = match (read, slide_dim) {
            (Some(op), Some(dim)) => self.dims_moving_with(stage.op, op, dim),
            _ => Vec::new(),
        };
        let mut known: Vec<(usize, Region)> = vec![(stage.op, region.clone())];
        for producer_stage in (0..stages).rev() {
            let op = self.model.funcs[producer].stages[producer_stage].op;
            let mut region = self.derive_region(op, &known);
            if Some(op) == read {
                for &d in &slides {
                    region[d] = Some(1);
                }
            }
            known.push((op, region.clone()));
            for (handle, loops) in [
                (&before[producer_stage], outside),
                (&inside[producer_stage], containing),
            ] {
                let resume = Resume {
                    start: 0,
                    region: region.clone(),
                    containing: loops.to_vec(),
                    whole: false,
                };
                self.stage_from(producer, producer_stage, handle.clone(), resume);
            }
        }
    }

    /// The dimensions of `producer` whose position in what `consumer` reads
    /// of it moves with the consumer's dimension `dim` (`y` read as `y`, or
    /// through a window map such as `y + k`).
    fn dims_moving_with(&self, consumer: usize, producer: usize, dim: usize) -> Vec<usize> {
        let ops = &self.payload.ops;
        let Some(read) = ops[consumer]
            .operands
            .iter()
            .find(|o| o.producer == Some(producer))
        else {
            return Vec::new();
        };
        let Some(output) = ops[producer].operands.iter().find(|o| o.is_init) else {
            return Vec::new();
        };
        let name = format!("d{dim}");
        output
            .map
            .iter()
            .zip(&read.map)
            .filter_map(|(written, read)| {
                let moves = match read {
                    MapResult::Dim(d) => *d == dim,
                    MapResult::Expression(text) => text
                        .split(|c: char| !c.is_ascii_alphanumeric())
                        .any(|token| token == name),
                    MapResult::Constant(_) => false,
                };
                match written {
                    MapResult::Dim(d) if moves => Some(*d),
                    _ => None,
                }
            })
            .collect()
    }
}
