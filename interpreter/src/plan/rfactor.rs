//! `rfactor(r, u)`: Halide's factoring of a reduction. The loop `u` (once
//! `r`, over a reduction dimension) becomes an `scf.forall` of partial
//! reductions, each over its tile of the dimension, into a buffer with one
//! slot per iteration; a final reduction over that buffer combines them
//! (`structured.tile_reduction_using_forall`). The stage's other loops are
//! planned inside the forall, on the partial op, as usual; `parallel(u)`
//! runs the partial reductions on several threads.

use super::{comma_list, MaterializedLoop, Planner, Region, Resume};
use crate::script::ANY_OP;
use schedule_lang::Diagnostic;

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
    /// Plans a stage with an `rfactor` loop: the partial reductions' forall,
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
        if position != 0 {
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
                        "`{}` is not the outermost loop of `{name}`: the partial reductions run as one \
                         scf.forall around the rest of its loops",
                        the_loop.name
                    ),
                )
                .with_help(format!(
                    "order it outermost (`reorder` lists loops innermost first); the loops now, \
                     outermost first: {}",
                    names.join(", ")
                )),
            );
            return;
        }
        if let Some(mark) = the_loop.vectorize.or(the_loop.unroll) {
            self.errors.push(
                Diagnostic::error(
                    "rfactor-marked",
                    mark,
                    format!(
                        "`{}` runs the partial reductions as an scf.forall: it can be parallel, not \
                         vectorized or unrolled",
                        the_loop.name
                    ),
                )
                .with_note(Some(span), "rfactor here"),
            );
            return;
        }
        let op = &self.payload.ops[stage.op];
        match op.combiner.as_deref() {
            Some(combiner) if ASSOCIATIVE.contains(&combiner) => {}
            Some(combiner) => {
                self.errors.push(
                    Diagnostic::error(
                        "rfactor-combiner",
                        span,
                        format!(
                            "`{name}` combines its reduction with `{combiner}`, which is not \
                             associative: partial results cannot be combined in another order"
                        ),
                    )
                    .with_help("rfactor needs a sum, product, min, max or bitwise and/or/xor"),
                );
                return;
            }
            None => {
                self.errors.push(Diagnostic::error(
                    "rfactor-combiner",
                    span,
                    format!(
                        "the body of `{name}` does not yield `op(accumulator, value)`, so how to \
                         combine partial results is unknown"
                    ),
                ));
                return;
            }
        }
        let dim = the_loop.dim;
        let (extent, step) = (region[dim], the_loop.step);
        let Some(threads) = extent.filter(|e| e % step == 0).map(|e| e / step) else {
            self.errors.push(Diagnostic::error(
                "rfactor-partial",
                span,
                format!(
                    "rfactor needs `{}`'s tiles ({step} steps of `{}`) to divide the dimension's \
                     extent ({}), so every partial reduction covers a whole tile",
                    the_loop.name,
                    stage.dims[dim].name,
                    extent.map_or("dynamic".to_string(), |e| e.to_string())
                ),
            ));
            return;
        };
        let mut num_threads = vec![0; region.len()];
        num_threads[dim] = threads;
        let hint = name.replace(".update()", "_update");
        let [fill, partial, combine, forall] = ["init", "partial", "combine", "forall"]
            .map(|part| self.script.fresh(&format!("{hint}_{part}")));
        self.script.comment(format!(
            "{name}: rfactor: {threads} partial reductions over `{}` (loop {}), then their combination",
            stage.dims[dim].name, the_loop.name
        ));
        self.script.op(
            format!(
                "%{fill}, %{partial}, %{combine}, %{forall} = \
                 transform.structured.tile_reduction_using_forall %{handle} by num_threads = [{}] \
                 : ({ANY_OP}) -> ({ANY_OP}, {ANY_OP}, {ANY_OP}, {ANY_OP})",
                comma_list(&num_threads)
            ),
            self.at(span),
        );
        self.transformed = true;
        self.name_loop(func, stage_index, &forall, &the_loop.name, self.at(span));
        if let Some(parallel) = the_loop.parallel {
            self.annotate_parallel.push((forall.clone(), parallel));
        }
        let mut inner = region;
        inner[dim] = Some(step);
        let containing = MaterializedLoop {
            handle: forall,
            name: the_loop.name.clone(),
            region: inner.clone(),
            op: stage.op,
            ivs: Some(vec![(dim, step)]),
            dynamic_loop: None,
        };
        let resume = Resume {
            start: 1,
            region: inner,
            containing: vec![containing],
        };
        self.stage_from(func, stage_index, partial, resume);
    }
}
