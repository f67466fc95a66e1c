//! `rfactor(r, u)`: Halide's factoring of a reduction, in two forms.
//!
//! - `u` outermost: an `scf.forall` of partial reductions, each over its
//!   tile of the dimension, into a buffer with one slot per iteration
//!   (`structured.tile_reduction_using_forall`); `parallel(u)` runs them on
//!   several threads.
//! - `split(k, ko, ki, t).rfactor(ki, u)` with only loops over parallel
//!   dimensions outside `ko` (materialized first, as usual): `t` partial
//!   accumulators, updated side by side in a sequential loop over `ko`
//!   (`structured.tile_reduction_using_for`, on the tiled op), so
//!   `vectorize(u)` makes them one vector register (a matrix-vector product
//!   keeps a few rows' accumulators in registers this way).
//!
//! Either way a final reduction combines the partial results, and the
//! stage's other loops are planned on the partial op, inside the new loop,
//! as usual.

use super::{comma_list, MaterializedLoop, Planner, Region, Resume};
use crate::script::ANY_OP;
use schedule_lang::model::Stage;
use schedule_lang::{Diagnostic, Span};

/// Combiners whose partial results may be combined in any grouping.
const ASSOCIATIVE: &[&str] = &[
    "arith.addf",
    "arith.addi",
    "arith.mulf",
    "arith.muli",
    "arith.maximumf",
    "arith.minimumf",
    "arith.maxnumf",
    "arith.minnumf",
    "arith.maxsi",
    "arith.minsi",
    "arith.maxui",
    "arith.minui",
    "arith.andi",
    "arith.ori",
    "arith.xori",
];

impl Planner<'_> {
    /// Plans a stage with an `rfactor` loop: the loop of partial reductions,
    /// then the rest of the stage inside it.
    pub(super) fn rfactor_stage(
        &mut self,
        func: usize,
        stage_index: usize,
        handle: String,
        region: Region,
    ) {
        let stage = &self.model.funcs[func].stages[stage_index];
        let name = self.stage_name(func, stage_index);
        let position = stage
            .loops
            .iter()
            .position(|l| l.rfactor.is_some())
            .expect("called for a stage with an rfactor loop");
        let the_loop = &stage.loops[position];
        let span = the_loop.rfactor.expect("found by its mark");
        // The inner form: the split's outer loop, with only loops over
        // parallel dimensions outside it (materialized first).
        let split_outer = stage.loops[..position]
            .iter()
            .position(|l| l.dim == the_loop.dim && the_loop.tile == Some(l.step))
            .filter(|&q| {
                stage.loops[..q]
                    .iter()
                    .all(|l| !stage.dims[l.dim].reduction && l.rfactor.is_none())
            });
        let inner_form = split_outer.is_some();
        let outer = &stage.loops[split_outer.unwrap_or(0)];
        if position != 0 && !inner_form {
            let names: Vec<String> = stage
                .loops
                .iter()
                .map(|l| format!("`{}`", l.name))
                .collect();
            self.errors.push(
                Diagnostic::error(
                    "rfactor-not-outermost",
                    span,
                    format!(
                        "`{}` is not the outermost loop of `{name}`, nor the inner loop of a split \
                         with only loops over parallel dimensions outside its outer loop",
                        the_loop.name
                    ),
                )
                .with_help(format!(
                    "for parallel partial reductions, order `{0}` outermost (`reorder` lists loops \
                     innermost first); for vectorized ones, rfactor the inner loop of a split whose \
                     outer loop has only loops over parallel dimensions outside it: `split(k, ko, \
                     ki, 16).rfactor(ki, {0}).vectorize({0})`; the loops now, outermost first: {1}",
                    the_loop.name,
                    names.join(", ")
                )),
            );
            return;
        }
        // (`parallel` on the inner form's outer loop, a reduction loop, is
        // refused when resolving.)
        let marked = (!inner_form)
            .then(|| the_loop.vectorize.or(the_loop.unroll))
            .flatten()
            .map(|mark| {
                (
                    mark,
                    the_loop,
                    "runs the partial reductions as an scf.forall: it can be parallel, not \
                     vectorized or unrolled",
                )
            });
        if let Some((mark, marked_loop, why)) = marked {
            self.errors.push(
                Diagnostic::error(
                    "rfactor-marked",
                    mark,
                    format!("`{}` {why}", marked_loop.name),
                )
                .with_note(Some(span), "rfactor here"),
            );
            return;
        }
        if !self.check_combiner(stage, &name, span) {
            return;
        }
        let dim = the_loop.dim;
        // The partial reductions' width: the loop's tiles (forall form) or
        // the split's factor (inner form), which must divide the extent.
        let width = if inner_form {
            outer.step
        } else {
            the_loop.step
        };
        let Some(count) = region[dim].filter(|e| e % width == 0).map(|e| e / width) else {
            self.errors.push(Diagnostic::error(
                "rfactor-partial",
                span,
                format!(
                    "rfactor needs tiles of {width} steps of `{}` to divide the dimension's extent \
                     ({}), so every partial reduction covers a whole tile",
                    stage.dims[dim].name,
                    region[dim].map_or("dynamic".to_string(), |e| e.to_string())
                ),
            ));
            return;
        };
        // Loops outside the split's outer loop are materialized first; the
        // partial reductions are made inside them, on the tiled op.
        let (handle, mut containing, region) = match split_outer.filter(|&q| q > 0) {
            Some(q) => match self.materialize_prefix(func, stage_index, handle, &region, q) {
                Some(prefix) => prefix,
                None => return,
            },
            None => (handle, Vec::new(), region),
        };
        let hint = name.replace(".update()", "_update");
        let [fill, partial, combine, new_loop] = ["init", "partial", "combine", "loop"]
            .map(|part| self.script.fresh(&format!("{hint}_{part}")));
        let mut sizes = vec![0; region.len()];
        let (op, what) = if inner_form {
            sizes[dim] = width;
            (
                format!(
                    "tile_reduction_using_for %{handle} by tile_sizes = [{}]",
                    comma_list(&sizes)
                ),
                format!(
                    "{width} partial accumulators side by side (loop {}), in a loop over `{}`",
                    the_loop.name, outer.name
                ),
            )
        } else {
            sizes[dim] = count;
            (
                format!(
                    "tile_reduction_using_forall %{handle} by num_threads = [{}]",
                    comma_list(&sizes)
                ),
                format!("{count} partial reductions (loop {})", the_loop.name),
            )
        };
        self.script.comment(format!(
            "{name}: rfactor over `{}`: {what}, then their combination",
            stage.dims[dim].name
        ));
        self.script.op(
            format!(
                "%{fill}, %{partial}, %{combine}, %{new_loop} = transform.structured.{op} \
                 : ({ANY_OP}) -> ({ANY_OP}, {ANY_OP}, {ANY_OP}, {ANY_OP})"
            ),
            self.at(span),
        );
        self.transformed = true;
        let made = if inner_form { outer } else { the_loop };
        self.name_loop(func, stage_index, &new_loop, &made.name, self.at(span));
        if inner_form {
            // The accumulators stay in registers across the loop.
            self.late.hoist.push(new_loop.clone());
        } else if let Some(parallel) = the_loop.parallel {
            self.annotate_parallel.push((new_loop.clone(), parallel));
        }
        let mut inner = region;
        inner[dim] = Some(width);
        containing.push(MaterializedLoop {
            handle: new_loop,
            name: made.name.clone(),
            region: inner.clone(),
            op: stage.op,
            ivs: (!inner_form).then(|| vec![(dim, width)]),
            dynamic_loop: None,
        });
        let resume = Resume {
            start: split_outer.map_or(1, |q| q + 1),
            region: inner,
            containing,
        };
        self.stage_from(func, stage_index, partial, resume);
    }

    /// Materializes the stage's loops before `end` (over parallel
    /// dimensions) as usual; returns the tiled op, the loops made and the
    /// stage's tile inside them.
    fn materialize_prefix(
        &mut self,
        func: usize,
        stage_index: usize,
        handle: String,
        region: &Region,
        end: usize,
    ) -> Option<(String, Vec<MaterializedLoop>, Region)> {
        let stage = &self.model.funcs[func].stages[stage_index];
        let mut nest = self.walk(func, stage_index, 0, region);
        nest.first_implicit = end;
        nest.group_runs(stage);
        if !self.check_fused(func, stage_index, &nest) {
            return None;
        }
        let inside = nest.after[end - 1].clone();
        let (handle, containing) =
            self.materialize(func, stage_index, handle, &nest, Vec::new())?;
        Some((handle, containing, inside))
    }

    /// Whether the stage's reduction combines with an associative op (a
    /// located error if not).
    fn check_combiner(&mut self, stage: &Stage, name: &str, span: Span) -> bool {
        let op = &self.payload.ops[stage.op];
        let error = match op.combiner.as_deref() {
            Some(combiner) if ASSOCIATIVE.contains(&combiner) => return true,
            Some(combiner) => Diagnostic::error(
                "rfactor-combiner",
                span,
                format!(
                    "`{name}` combines its reduction with `{combiner}`, which is not associative: \
                     partial results cannot be combined in another order"
                ),
            )
            .with_help("rfactor needs a sum, product, min, max or bitwise and/or/xor"),
            None => Diagnostic::error(
                "rfactor-combiner",
                span,
                format!(
                    "the body of `{name}` does not yield `op(accumulator, value)`, so how to \
                     combine partial results is unknown"
                ),
            ),
        };
        self.errors.push(error);
        false
    }
}
