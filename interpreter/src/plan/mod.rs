//! The planner: from a resolved [`Model`] to a transform [`Script`].
//!
//! Halide starts from fully fused loops over named variables; linalg starts
//! with one implicit loop nest per op, and loops only exist once tiling
//! materializes them. For each stage the planner walks the loop nest the
//! schedule asks for, outermost first, and builds a [`nest::Nest`]: plain data
//! saying how many iterations each loop has, which innermost loops stay
//! implicit in the tiled op, and which loops are tiled together. Then it emits
//! the tiling ops run by run, and at each run's innermost loop the packs,
//! prefetches and producers computed there. What must wait until every stage
//! is tiled (vectorization, hoisting, unrolling, annotations, cleanups) is
//! queued and emitted by [`Planner::finish`].
//!
//! One module per directive family; each says what it decides and which
//! transform ops it emits:
//!
//! | module | decides | emits |
//! |---|---|---|
//! | [`bind`] | which payload op each stage is | `structured.match`, `split_handle` |
//! | [`nest`] | trip counts, tiles, implicit loops, tiling runs | nothing |
//! | [`tiling`] | one tiling op per run | `tile_using_forall`, `tile_using_for` |
//! | [`fuse`] | `fuse`: each fused loop becomes one loop | `loop.coalesce` |
//! | [`init`] | an unnamed zero init computed in its stage's outermost forall, or with a producer in its consumer's loops | `get_producer_of_operand`, `sched.fuse_into`, `sched.fresh_init` (our own op), `structured.vectorize` |
//! | [`compute_at`] | producers computed inside a consumer's loop | `sched.fuse_into` (our own op: upstream's `fuse_into_containing_op`, linear in a chain's length) |
//! | [`tail`] | partial last tiles of vectorized stages | `structured.split` |
//! | [`vector`] | `vectorize`, `unroll`, hoisting the accumulator | `structured.vectorize`, `loop.unroll`, `hoist_loop_invariant_subsets` |
//! | [`strided`] | vector tiles reading a strided input; the vector op's dimension order | `sched.slice_strided_reads` (our own op), `structured.interchange` |
//! | [`pack`] | `pack`: contiguous copies of input tiles | `structured.pad` (nofold), row tiling |
//! | [`prefetch`] | `prefetch`: the next iteration's input region | `param.constant`, `annotate` |
//! | [`parallel`] | `parallel`: which foralls run on threads | `annotate` |
//! | [`accelerate`] | contraction tiles handed to an accelerator's kernel | `tile_using_for` (native tile), `param.constant`, `annotate` |
//! | [`edges`] | the partial tiles of an offloaded op: as they are, padded, or split off | `structured.pad`, `structured.split` |
//! | [`views`] | producers read through slices and pads | `get_producer_of_operand`, `sched.fuse_into`, slice folding patterns |
//! | [`memory`] | `buffer_at`: a local write buffer of the output at a loop | `structured.pad` (nofold init, `copy_back_op = "linalg.copy"`) |
//! | [`reuse`] | `reuse_at`: a reuse buffer of an input carried by a sequential loop (line buffer; at an inner loop, window buffer) | `sched.reuse_buffer` (our own op, the payload crate's shim) |
//! | [`sliding`] | `store_at` + `compute_at`: a sliding window, the producer's new rows computed into a reuse buffer | `sched.sliding_window` (our own op) |
//!
//! Whatever cannot be honoured exactly is an error at the directive's span.

mod accelerate;
mod bind;
mod compute_at;
mod edges;
mod fuse;
mod init;
mod memory;
mod nest;
mod pack;
mod parallel;
mod pipeline;
mod prefetch;
mod reuse;
mod rfactor;
mod sliding;
mod strided;
mod tail;
mod tiling;
mod vector;
mod views;

use crate::script::{Script, ANY_OP};
use indexmap::IndexMap;
use microkernels::Target;
use schedule_lang::model::{Model, Placement};
use schedule_lang::{Diagnostic, PayloadInfo, SourceFile, Span};

/// The attribute naming a loop the script made with the schedule's names of
/// the loops it holds ([`PlanOptions::name_loops`]).
pub const LOOP_NAME: &str = payload::attributes::LOOP;

/// The matcher of loops directly in a function's body (the outermost loop
/// of each nest), for [`Planner::cse_in_loop_nests`].
const TOP_LEVEL_LOOP: &str = "sched_top_level_loop";
const TOP_LEVEL_LOOP_MATCHER: &str = "\
// matches the outermost loop of each loop nest of a function
transform.named_sequence @sched_top_level_loop(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
  transform.match.operation_name %op [\"scf.forall\", \"scf.for\"] : !transform.any_op
  %parent = transform.get_parent_op %op : (!transform.any_op) -> !transform.any_op
  transform.match.operation_name %parent [\"func.func\"] : !transform.any_op
  transform.yield %op : !transform.any_op
}";

/// What to plan besides the schedule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlanOptions {
    /// Annotate every loop the script makes with its schedule names
    /// ([`LOOP_NAME`]), for `explain`; off in the scripts users get.
    pub name_loops: bool,
}

/// Plans the transform script for `model` on `payload`. `source` is the
/// `.sched` file, used for locations.
/// `targets` are the accelerators `accelerate` may name.
pub fn plan(
    model: &Model,
    payload: &PayloadInfo,
    source: &SourceFile,
    targets: &[Target],
) -> Result<Script, Vec<Diagnostic>> {
    plan_with(model, payload, source, targets, PlanOptions::default())
}

/// [`plan`], with options.
pub fn plan_with(
    model: &Model,
    payload: &PayloadInfo,
    source: &SourceFile,
    targets: &[Target],
    options: PlanOptions,
) -> Result<Script, Vec<Diagnostic>> {
    let mut planner = Planner::new(model, payload, source, targets);
    planner.options = options;
    planner.bind();
    for (func, model_func) in model.funcs.iter().enumerate() {
        if model_func.placement == Placement::Root {
            for stage in 0..model_func.stages.len() {
                let handle = planner.stage_handles[&(func, stage)].clone();
                let region = payload.ops[model_func.stages[stage].op].extents.clone();
                planner.stage(func, stage, handle, region);
            }
        }
    }
    planner.finish();
    planner.check_pipelined();
    if planner.errors.is_empty() {
        Ok(planner.script)
    } else {
        // The parts of a stage split at a partial tile are planned alike, so
        // a mistake in the loops inside is found once per part: say it once.
        let mut errors: Vec<Diagnostic> = Vec::new();
        for error in planner.errors {
            if !errors.contains(&error) {
                errors.push(error);
            }
        }
        Err(errors)
    }
}

/// Extents of a stage's dimensions in the region it computes; `None` when
/// dynamic or made of partial tiles.
type Region = Vec<Option<i64>>;

/// Identifies one directive of a stage: `(func, stage, index)` of a `pack`
/// or `prefetch` in the stage's list.
type DirectiveId = (usize, usize, usize);

struct Planner<'a> {
    model: &'a Model,
    payload: &'a PayloadInfo,
    source: &'a SourceFile,
    /// The accelerators `accelerate` may name.
    targets: &'a [Target],
    script: Script,
    errors: Vec<Diagnostic>,
    /// `(func, stage)` → handle to its (current) payload op.
    stage_handles: IndexMap<(usize, usize), String>,
    /// Payload function name → handle to its `func.func`.
    function_handles: IndexMap<String, String>,
    /// Work queued for the end of the script ([`Planner::finish`]).
    late: vector::LateSteps,
    /// Foralls the schedule marked `parallel`, with the call that asked.
    annotate_parallel: Vec<(String, Span)>,
    /// Each `pack` planned so far.
    packed: Vec<DirectiveId>,
    /// The stages whose write buffer (`buffer_at`) is planned.
    write_buffered: Vec<(usize, usize)>,
    /// Each reuse buffer (`reuse_at`) planned so far.
    reused: Vec<DirectiveId>,
    /// Each `prefetch` planned so far.
    prefetched: Vec<DirectiveId>,
    /// Whether the remainder of a split-off partial tile is being planned:
    /// a loop of one iteration there has no next one, and the part of
    /// whole tiles prefetches ([`tail`]).
    in_remainder: bool,
    /// Loops to annotate `sched.pipeline` (handle, initiation interval, the call).
    annotate_pipeline: Vec<(String, i64, Span)>,
    /// Loops to annotate with a prefetch (handle, the annotation's value, the call).
    annotate_prefetch: Vec<(String, String, Span)>,
    /// Payload ops (ids) the script has generalized to `linalg.generic`.
    generalized: Vec<usize>,
    /// `(op, operand)` → handles to the views it reads a placed producer
    /// through, nearest the op first ([`views`]).
    view_handles: IndexMap<(usize, usize), Vec<String>>,
    /// Whether any op changes the payload.
    transformed: bool,
    /// What to plan besides the schedule.
    options: PlanOptions,
}

/// Where to resume planning a stage: loops before `start` are materialized
/// already, as `containing`, and the stage's tile inside them is `region`.
struct Resume {
    start: usize,
    region: Region,
    containing: Vec<MaterializedLoop>,
    /// Whether the handle is the stage's whole op as the payload has it (at
    /// root, not a part of a split, not a partial reduction): only then is
    /// its init fill the payload's ([`init`]).
    whole: bool,
}

/// A loop of the generated code, made by tiling a stage.
#[derive(Clone)]
struct MaterializedLoop {
    /// The transform handle to the loop (updated as producers fuse into it).
    handle: String,
    /// The schedule's name of the innermost loop it holds.
    name: String,
    /// The stage's tile inside it.
    region: Region,
    /// The payload op of the stage the loop was tiled from.
    op: usize,
    /// For an `scf.forall`: the dimension of `op` each induction variable
    /// tiles, and its tile size, in induction-variable order (the forall's
    /// iterations are normalized: the tile's offset is size × variable).
    /// Dimensions of one iteration are left out: cleanups fold their
    /// variables away. `None` for an `scf.for`.
    ivs: Option<Vec<(usize, i64)>>,
    /// For an `scf.forall`: a loop of it whose trip count is not static (its
    /// tiles are partial or dynamic), which leaves the forall's bounds dynamic.
    dynamic_loop: Option<String>,
}

/// `1, 2, 3`: integers as transform ops list them.
fn comma_list(values: &[i64]) -> String {
    values
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

impl<'a> Planner<'a> {
    fn new(
        model: &'a Model,
        payload: &'a PayloadInfo,
        source: &'a SourceFile,
        targets: &'a [Target],
    ) -> Self {
        Planner {
            model,
            payload,
            source,
            targets,
            script: Script::new(&source.name),
            errors: Vec::new(),
            stage_handles: IndexMap::new(),
            function_handles: IndexMap::new(),
            late: vector::LateSteps::default(),
            annotate_parallel: Vec::new(),
            packed: Vec::new(),
            prefetched: Vec::new(),
            in_remainder: false,
            write_buffered: Vec::new(),
            reused: Vec::new(),
            annotate_prefetch: Vec::new(),
            annotate_pipeline: Vec::new(),
            generalized: Vec::new(),
            view_handles: IndexMap::new(),
            transformed: false,
            options: PlanOptions::default(),
        }
    }

    /// The `.sched` line and column of a span, for an op's location.
    fn at(&self, span: Span) -> Option<(usize, usize)> {
        Some(self.source.line_column(span.start))
    }

    /// `conv` or `conv.update()`.
    fn stage_name(&self, func: usize, stage: usize) -> String {
        let model = &self.model.funcs[func];
        if model.stages[stage].is_update {
            format!("{}.update()", model.name)
        } else {
            model.name.clone()
        }
    }

    /// Plans a whole stage whose op is `handle` and whose tile is `region`.
    fn stage(&mut self, func: usize, stage_index: usize, handle: String, region: Region) {
        let stage = &self.model.funcs[func].stages[stage_index];
        if stage.loops.iter().any(|l| l.rfactor.is_some()) {
            self.rfactor_stage(func, stage_index, handle, region);
            return;
        }
        let resume = Resume {
            start: 0,
            region,
            containing: Vec::new(),
            whole: true,
        };
        self.stage_from(func, stage_index, handle, resume);
    }

    /// Plans a stage's loops from `resume.start` on: the loops before it are
    /// already materialized (`resume.containing`), and `resume.region` is the
    /// stage's tile inside them. A vectorized stage whose tiles of a parallel
    /// dimension would be partial is split there into a part of whole tiles
    /// and a remainder part, each planned on from that loop (see [`tail`]).
    fn stage_from(&mut self, func: usize, stage_index: usize, handle: String, resume: Resume) {
        let model: &'a Model = self.model;
        let stage = &model.funcs[func].stages[stage_index];
        if !self.check_parallel_marks(stage) {
            return;
        }
        let offload = if stage.accelerate.is_some() {
            match self.check_accelerate(stage) {
                Some(offload) => Some(offload),
                None => return,
            }
        } else {
            None
        };
        let mut nest = self.walk(func, stage_index, resume.start, &resume.region);
        let chosen = match &offload {
            Some(offload) => self.choose_accelerated_tile(&mut nest, offload),
            None => self.choose_implicit_loops(func, stage_index, &mut nest),
        };
        if !chosen {
            return;
        }
        if !self.check_tail_compute_at(func, stage_index, &nest) {
            return;
        }
        nest.group_runs(stage);
        if !self.check_fused(func, stage_index, &nest) {
            return;
        }
        let init = if resume.whole && offload.is_none() {
            self.take_init_fill(func, stage_index, &handle, &nest)
        } else {
            None
        };
        let Some((handle, _)) =
            self.materialize(func, stage_index, handle, &nest, resume.containing, init)
        else {
            return;
        };
        self.report_unplanned_packs(func, stage_index, &nest);
        self.report_unplanned_write_buffer(func, stage_index, &nest);
        self.report_unplanned_reuse_buffers(func, stage_index, &nest);
        self.report_unplanned_prefetches(func, stage_index);
        if let Some(offload) = offload {
            let region = nest.entering(nest.first_implicit).clone();
            self.emit_offload(func, stage_index, handle, &offload, &region);
        } else if nest.vector_mode {
            self.queue_vectorize(func, stage_index, handle, &nest);
        }
    }

    /// Emits what was queued while tiling, once every stage is tiled.
    fn finish(&mut self) {
        if !self.transformed {
            return;
        }
        let functions = self.functions();
        self.emit_vectorize(&functions);
        self.emit_hoisting(&functions);
        self.emit_parallel_annotations();
        self.emit_prefetch_annotations();
        self.emit_pipeline_annotations();
        self.emit_unrolls();
        self.script.comment(
            "clean up; slices of a tensor.empty become tile-sized empties, so no whole-tensor \
             buffer is allocated per call,",
        );
        self.script.comment(
            "and unit leading vector dimensions are dropped, so an init written and read back is \
             forwarded in registers",
        );
        let cleanups = [
            "tensor.fold_tensor_empty",
            "vector.cast_away_vector_leading_one_dim",
            "tensor.fold_tensor_subset_ops_into_vector_transfers",
            "canonicalization",
        ];
        self.apply_patterns(&functions, &cleanups, true);
    }

    /// The op name a payload op has in the script now (`linalg.generic` once
    /// generalized), for matching it again.
    fn current_kind(&self, op: usize) -> &str {
        if self.generalized.contains(&op) {
            "linalg.generic"
        } else {
            &self.payload.ops[op].kind
        }
    }

    /// Handles to the payload functions the schedule touches.
    fn functions(&self) -> Vec<String> {
        self.function_handles.values().cloned().collect()
    }

    /// Common subexpression elimination inside each loop nest at the top of
    /// `function`, one nest at a time, of ops without regions
    /// (`transform.sched.cse`, `payload/shim/cse.cpp`). Upstream's
    /// `apply_cse` also merges loops, looked up by a hash that leaves their
    /// bodies out: the loops of many stages, with the same operands (the
    /// `tensor.empty`s are merged first), were compared pairwise, each
    /// comparison walking their bodies (1 000 stages took seconds, in one
    /// nest as in a function), and merging two stages' loops is never wanted.
    fn cse_in_loop_nests(&mut self, function: &str, location: Option<(usize, usize)>) {
        self.script.helper(TOP_LEVEL_LOOP, TOP_LEVEL_LOOP_MATCHER);
        let nests = self.script.fresh("nests");
        self.script.op(
            format!(
                "%{nests} = transform.collect_matching @{TOP_LEVEL_LOOP} in %{function} : \
                 ({ANY_OP}) -> {ANY_OP}"
            ),
            location,
        );
        self.script.op(
            format!("transform.sched.cse to %{nests} : {ANY_OP}"),
            location,
        );
    }

    /// Applies the named pattern sets (`transform.apply_patterns.<name>`) to each
    /// payload function, then, with `cse`, common subexpression elimination
    /// inside each of its loop nests.
    fn apply_patterns(&mut self, functions: &[String], patterns: &[&str], cse: bool) {
        self.apply_patterns_at(functions, patterns, cse, None);
    }

    /// [`Planner::apply_patterns`] for one directive: the ops carry its location.
    fn apply_patterns_at(
        &mut self,
        functions: &[String],
        patterns: &[&str],
        cse: bool,
        location: Option<(usize, usize)>,
    ) {
        let body: String = patterns
            .iter()
            .map(|p| format!("  transform.apply_patterns.{p}\n"))
            .collect();
        for function in functions {
            self.script.op(
                format!("transform.apply_patterns to %{function} {{\n{body}}} : {ANY_OP}"),
                location,
            );
            if cse {
                self.cse_in_loop_nests(function, location);
            }
        }
    }
}
