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

/// Which form of rfactor a stage asks for, checked.
struct Form {
    /// The position of the `rfactor` loop in the stage's loops.
    position: usize,
    /// The inner form's split outer loop (only loops over parallel
    /// dimensions outside it); `None` for the forall form.
    split_outer: Option<usize>,
    /// Where the `rfactor` is.
    span: Span,
    /// The partial reductions' width: the loop's tiles (forall form) or the
    /// split's factor (inner form), which divides the extent.
    width: i64,
    /// How many tiles of `width` the dimension holds.
    count: i64,
}

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
        let Some(form) = self.rfactor_form(func, stage_index, &region) else {
            return;
        };
        // Loops outside the split's outer loop are materialized first; the
        // partial reductions are made inside them, on the tiled op.
        let (handle, mut containing, region) = match form.split_outer.filter(|&q| q > 0) {
            Some(q) => match self.materialize_prefix(func, stage_index, handle, &region, q) {
                Some(prefix) => prefix,
                None => return,
            },
            None => (handle, Vec::new(), region),
        };
        let (partial, new_loop) = self.emit_rfactor(func, stage_index, &handle, &region, &form);
        let stage = &self.model.funcs[func].stages[stage_index];
        let the_loop = &stage.loops[form.position];
        let made = &stage.loops[form.split_outer.unwrap_or(form.position)];
        let inner_form = form.split_outer.is_some();
        let mut inner = region;
        inner[the_loop.dim] = Some(form.width);
        containing.push(MaterializedLoop {
            handle: new_loop,
            name: made.name.clone(),
            region: inner.clone(),
            op: stage.op,
            ivs: (!inner_form).then(|| vec![(the_loop.dim, form.width)]),
            dynamic_loop: None,
        });
        let resume = Resume {
            start: form.split_outer.map_or(1, |q| q + 1),
            region: inner,
            containing,
            whole: false,
        };
        self.stage_from(func, stage_index, partial, resume);
    }

    /// The stage's rfactor form, checked: the loop is outermost or the inner
    /// loop of a split with only loops over parallel dimensions outside it,
    /// the forall form is not vectorized or unrolled, the combiner is
    /// associative and the tiles divide the extent. `None` when reported.
    fn rfactor_form(&mut self, func: usize, stage_index: usize, region: &Region) -> Option<Form> {
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
        if position != 0 && split_outer.is_none() {
            self.errors
                .push(not_outermost(stage, &name, position, span));
            return None;
        }
        // (`parallel` on the inner form's outer loop, a reduction loop, is
        // refused when resolving.)
        let mark = split_outer
            .is_none()
            .then(|| the_loop.vectorize.or(the_loop.unroll))
            .flatten();
        if let Some(mark) = mark {
            self.errors.push(
                Diagnostic::error(
                    "rfactor-marked",
                    mark,
                    format!(
                        "`{}` runs the partial reductions as an scf.forall: it can be parallel, \
                         not vectorized or unrolled",
                        the_loop.name
                    ),
                )
                .with_note(Some(span), "rfactor here"),
            );
            return None;
        }
        if !self.check_combiner(stage, &name, span) {
            return None;
        }
        let dim = the_loop.dim;
        let width = match split_outer {
            Some(q) => stage.loops[q].step,
            None => the_loop.step,
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
            return None;
        };
        Some(Form {
            position,
            split_outer,
            span,
            width,
            count,
        })
    }

    /// Emits the `tile_reduction_using_for` (inner form) or `_forall` op on
    /// `handle` and names, hoists or marks parallel the loop it makes;
    /// returns the handles of the partial op and of the new loop.
    fn emit_rfactor(
        &mut self,
        func: usize,
        stage_index: usize,
        handle: &str,
        region: &Region,
        form: &Form,
    ) -> (String, String) {
        let stage = &self.model.funcs[func].stages[stage_index];
        let name = self.stage_name(func, stage_index);
        let the_loop = &stage.loops[form.position];
        let dim = the_loop.dim;
        let hint = name.replace(".update()", "_update");
        let [fill, partial, combine, new_loop] = ["init", "partial", "combine", "loop"]
            .map(|part| self.script.fresh(&format!("{hint}_{part}")));
        let mut sizes = vec![0; region.len()];
        let (op, what, made) = match form.split_outer {
            Some(q) => {
                sizes[dim] = form.width;
                (
                    format!(
                        "tile_reduction_using_for %{handle} by tile_sizes = [{}]",
                        comma_list(&sizes)
                    ),
                    format!(
                        "{} partial accumulators side by side (loop {}), in a loop over `{}`",
                        form.width, the_loop.name, stage.loops[q].name
                    ),
                    &stage.loops[q],
                )
            }
            None => {
                sizes[dim] = form.count;
                (
                    format!(
                        "tile_reduction_using_forall %{handle} by num_threads = [{}]",
                        comma_list(&sizes)
                    ),
                    format!("{} partial reductions (loop {})", form.count, the_loop.name),
                    the_loop,
                )
            }
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
            self.at(form.span),
        );
        self.transformed = true;
        self.name_loop(func, stage_index, &new_loop, &made.name, self.at(form.span));
        if form.split_outer.is_some() {
            // The accumulators stay in registers across the loop.
            self.late.hoist.push(new_loop.clone());
        } else if let Some(parallel) = the_loop.parallel {
            self.annotate_parallel.push((new_loop.clone(), parallel));
        }
        (partial, new_loop)
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
            self.materialize(func, stage_index, handle, &nest, Vec::new(), None)?;
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

/// The error for an `rfactor` loop in neither form.
fn not_outermost(stage: &Stage, name: &str, position: usize, span: Span) -> Diagnostic {
    let the_loop = &stage.loops[position];
    let names: Vec<String> = stage
        .loops
        .iter()
        .map(|l| format!("`{}`", l.name))
        .collect();
    Diagnostic::error(
        "rfactor-not-outermost",
        span,
        format!(
            "`{}` is not the outermost loop of `{name}`, nor the inner loop of a split with only \
             loops over parallel dimensions outside its outer loop",
            the_loop.name
        ),
    )
    .with_help(format!(
        "for parallel partial reductions, order `{0}` outermost (`reorder` lists loops innermost \
         first); for vectorized ones, rfactor the inner loop of a split whose outer loop has only \
         loops over parallel dimensions outside it: `split(k, ko, ki, 16).rfactor(ki, {0}).\
         vectorize({0})`; the loops now, outermost first: {1}",
        the_loop.name,
        names.join(", ")
    ))
}
