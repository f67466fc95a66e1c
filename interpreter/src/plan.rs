//! The planner: from a resolved [`Model`] to a transform [`Script`].
//!
//! Halide starts from fully fused loops over named variables; linalg starts
//! with one implicit loop nest per op, and loops only exist once tiling
//! materializes them. For each stage the planner walks the loop nest the
//! schedule asks for, outermost first, and:
//!
//! 1. keeps the innermost loops *implicit* in the tiled op: in a vectorized
//!    stage, the loops that are vectorized or unrolled (they become one
//!    multi-dimensional vector op, whose lowering unrolls it); otherwise the
//!    unit-step loops already in the op's own order;
//! 2. materializes the other loops by tiling, one tiling op per run of loops
//!    whose dimensions come in the op's order; loops of one iteration are
//!    skipped. Loops over parallel dimensions become `scf.forall`
//!    (`tile_using_forall`: fusion can go through its shared outputs, so a
//!    producer of the consumer's init can be computed inside it); loops over
//!    reduction dimensions and loops to unroll become `scf.for`
//!    (`tile_using_for`). Foralls the schedule marked `parallel` are annotated
//!    `sched.parallel`, which lowering makes OpenMP loops; it runs the others
//!    sequentially. The parts of a fused loop must land in one tiling op:
//!    foralls share one multi-dimensional `scf.forall`; `scf.for`s end the
//!    run and are coalesced into one loop (`loop.coalesce`);
//! 3. right after the loop a `compute_at` names, fuses the producer funcs into
//!    every loop materialized so far, outermost first
//!    (`fuse_into_containing_op`), then plans the producers' own loops inside;
//! 4. at the end folds unit dimensions, vectorizes the marked tiles, hoists
//!    loop-invariant subsets (the accumulator tile) out of the sequential
//!    loops innermost first so they become loop-carried values, unrolls the
//!    marked loops innermost first, and cleans up.
//!
//! Whatever cannot be honoured exactly is an error at the directive's span.

use crate::script::{Script, ANY_OP};
use indexmap::IndexMap;
use std::ops::Range;
use schedule_lang::model::{Loop, Model, Placement, Stage};
use schedule_lang::{Diagnostic, MapResult, PayloadInfo, SourceFile, Span};

/// Plans the transform script for `model` on `payload`. `source` is the
/// `.sched` file, used for locations.
pub fn plan(model: &Model, payload: &PayloadInfo, source: &SourceFile) -> Result<Script, Vec<Diagnostic>> {
    let mut planner = Planner {
        model,
        payload,
        source,
        script: Script::new(&source.name),
        errors: Vec::new(),
        stage_handles: IndexMap::new(),
        function_handles: IndexMap::new(),
        vectorize: Vec::new(),
        unroll: Vec::new(),
        annotate_parallel: Vec::new(),
        hoist: Vec::new(),
        packed: Vec::new(),
        prefetched: Vec::new(),
        annotate_prefetch: Vec::new(),
        transformed: false,
    };
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
    if planner.errors.is_empty() {
        Ok(planner.script)
    } else {
        Err(planner.errors)
    }
}

struct Planner<'a> {
    model: &'a Model,
    payload: &'a PayloadInfo,
    source: &'a SourceFile,
    script: Script,
    errors: Vec<Diagnostic>,
    /// `(func, stage)` → handle to its (current) payload op.
    stage_handles: IndexMap<(usize, usize), String>,
    /// Payload function name → handle to its `func.func`.
    function_handles: IndexMap<String, String>,
    /// Tiles to vectorize, with the `vectorize` call that asked.
    vectorize: Vec<(String, Span, VectorizeWhen)>,
    /// Loops to unroll (handle, factor, the `unroll` call), in creation order.
    unroll: Vec<(String, i64, Span)>,
    /// Foralls the schedule marked `parallel`, with the call that asked.
    annotate_parallel: Vec<(String, Span)>,
    /// Sequential `scf.for` loops, outer before inner, whose loop-invariant
    /// subsets (the accumulator tile) are hoisted into loop-carried values.
    hoist: Vec<String>,
    /// `(func, stage, pack index)` of each `pack` planned so far.
    packed: Vec<(usize, usize, usize)>,
    /// `(func, stage, prefetch index)` of each `prefetch` planned so far.
    prefetched: Vec<(usize, usize, usize)>,
    /// Loops to annotate with a prefetch (handle, the annotation's value, the call).
    annotate_prefetch: Vec<(String, String, Span)>,
    /// Whether any op changes the payload.
    transformed: bool,
}

/// When a tile is vectorized relative to folding unit dimensions.
#[derive(Clone, Copy, PartialEq, Eq)]
enum VectorizeWhen {
    /// Before: a reduction over plain dimensions (a contraction) vectorizes as
    /// is, and keeps its reduction, which becomes a `vector.contract` whose
    /// lowering emits fused multiply-adds.
    BeforeFolding,
    /// After: ops indexed by expressions (convolutions' `y + rz`) vectorize
    /// only once their unit dimensions are folded away.
    AfterFolding,
}

/// Whether a loop is materialized as `scf.forall` (independent iterations over
/// a parallel dimension, not unrolled) rather than `scf.for`.
fn uses_forall(stage: &Stage, the_loop: &Loop) -> bool {
    !stage.dims[the_loop.dim].reduction && the_loop.unroll.is_none()
}

/// Extents of a stage's dimensions in the region it computes; `None` when
/// dynamic or made of partial tiles.
type Region = Vec<Option<i64>>;

/// Where to resume planning a stage: loops before `start` are materialized
/// already, as `containing`, and the stage's tile inside them is `region`.
struct Resume {
    start: usize,
    region: Region,
    containing: Vec<MaterializedLoop>,
}

/// A loop whose last tile is partial, in a stage that must have static
/// tiles (vectorized). As Halide peels such tails, the planner splits the op
/// before that loop (`structured.split`) into a part of whole tiles and a
/// remainder smaller than one tile; both then have static tiles.
struct Tail {
    /// Index of the loop in the stage's loops.
    at: usize,
    /// The stage's tile entering that loop.
    region: Region,
    /// The split dimension, its extent there, and the extent of the whole tiles.
    dim: usize,
    extent: i64,
    whole: i64,
}

/// The outermost loop in `range` whose tiles are partial, when it iterates a
/// parallel dimension of static extent (a partial reduction is not split:
/// that would change the order of the sum only, but is not needed so far).
fn find_tail(stage: &Stage, loops: &[Loop], region: &Region, after: &[Region], range: Range<usize>) -> Option<Tail> {
    let entering = |i: usize| if i == 0 { region } else { &after[i - 1] };
    let partial = |i: usize| entering(i)[loops[i].dim].filter(|&e| e > loops[i].step && e % loops[i].step != 0);
    let (at, extent) = range.into_iter().find_map(|i| Some((i, partial(i)?)))?;
    let l = &loops[at];
    (!stage.dims[l.dim].reduction).then(|| Tail { at, dim: l.dim, extent, whole: extent - extent % l.step, region: entering(at).clone() })
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

/// A typed zero attribute for an element type (`0.0 : f32`, `0 : i32`).
fn zero_attribute(element: &str) -> String {
    if element.starts_with('f') || element.starts_with("bf") { format!("0.0 : {element}") } else { format!("0 : {element}") }
}

fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

impl<'a> Planner<'a> {
    fn at(&self, span: Span) -> Option<(usize, usize)> {
        Some(self.source.line_column(span.start))
    }

    fn stage_name(&self, func: usize, stage: usize) -> String {
        let model = &self.model.funcs[func];
        if model.stages[stage].is_update { format!("{}.update()", model.name) } else { model.name.clone() }
    }

    /// Matches each function and splits the handles to its ops of each bound kind.
    fn bind(&mut self) {
        let mut groups: IndexMap<(String, String), Vec<(usize, usize, usize)>> = IndexMap::new();
        for (func, model_func) in self.model.funcs.iter().enumerate() {
            for (stage, s) in model_func.stages.iter().enumerate() {
                let op = &self.payload.ops[s.op];
                let index = self.payload.index_in_function(op);
                groups.entry((op.function.clone(), op.kind.clone())).or_default().push((index, func, stage));
            }
        }
        for ((function, kind), bound) in &groups {
            if !self.function_handles.contains_key(function) {
                let handle = self.script.fresh(&format!("func_{function}"));
                self.script.comment(format!("payload function @{function}"));
                self.script.op(
                    format!("%{handle} = transform.structured.match ops{{[\"func.func\"]}} attributes{{sym_name = \"{function}\"}} in %root : ({ANY_OP}) -> {ANY_OP}"),
                    None,
                );
                self.function_handles.insert(function.clone(), handle);
            }
            let function_handle = self.function_handles[function].clone();
            let count = self.payload.count_in_function(function, kind);
            let short = kind.rsplit('.').next().unwrap_or(kind);
            for (_, func, stage) in bound {
                let span = self.model.funcs[*func].stages[*stage].span;
                self.script.comment(format!("{} = {}", self.stage_name(*func, *stage), self.source.slice(span)));
            }
            let all = self.script.fresh(&format!("all_{short}"));
            self.script.op(format!("%{all} = transform.structured.match ops{{[\"{kind}\"]}} in %{function_handle} : ({ANY_OP}) -> {ANY_OP}"), None);
            if count == 1 {
                let (_, func, stage) = bound[0];
                self.stage_handles.insert((func, stage), all);
                continue;
            }
            let mut names = Vec::new();
            for index in 0..count {
                match bound.iter().find(|(i, _, _)| *i == index) {
                    Some((_, func, stage)) => {
                        let name = self.script.fresh(&self.stage_name(*func, *stage).replace(".update()", "_update"));
                        self.stage_handles.insert((*func, *stage), name.clone());
                        names.push(name);
                    }
                    None => names.push(self.script.fresh(&format!("other_{short}"))),
                }
            }
            let results: Vec<String> = names.iter().map(|n| format!("%{n}")).collect();
            let types = vec![ANY_OP; count].join(", ");
            self.script.op(format!("{} = transform.split_handle %{all} : ({ANY_OP}) -> ({types})", results.join(", ")), None);
        }
    }

    /// Funcs computed at loop `loop_name` of `func`, the nearest consumer first.
    fn producers_at(&self, func: usize, loop_name: &str) -> Vec<usize> {
        let mut producers: Vec<usize> = self
            .model
            .funcs
            .iter()
            .enumerate()
            .filter(|(_, f)| matches!(&f.placement, Placement::At { consumer, loop_name: l, .. } if *consumer == func && l == loop_name))
            .map(|(i, _)| i)
            .collect();
        let last_op = |f: usize| self.model.funcs[f].stages.iter().map(|s| s.op).max().unwrap_or(0);
        producers.sort_by_key(|&f| std::cmp::Reverse(last_op(f)));
        producers
    }

    fn compute_at_span(&self, func: usize) -> Span {
        match &self.model.funcs[func].placement {
            Placement::At { span, .. } => *span,
            Placement::Root => self.model.funcs[func].span,
        }
    }

    fn stage(&mut self, func: usize, stage_index: usize, handle: String, region: Region) {
        self.stage_from(func, stage_index, handle, Resume { start: 0, region, containing: Vec::new() });
    }

    /// Plans a stage's loops from `resume.start` on: the loops before it are
    /// already materialized (`resume.containing`), and `resume.region` is the
    /// stage's tile inside them. A vectorized stage whose tiles of a parallel
    /// dimension would be partial is split there into a part of whole tiles
    /// and a remainder part, each planned on from that loop (see [`Tail`]).
    fn stage_from(&mut self, func: usize, stage_index: usize, mut handle: String, resume: Resume) {
        let Resume { start, region, containing: inherited } = resume;
        let model: &'a Model = self.model;
        let model_func = &model.funcs[func];
        let stage: &'a Stage = &model_func.stages[stage_index];
        let loops: &'a [Loop] = &stage.loops;
        let name = self.stage_name(func, stage_index);
        let is_last = stage_index + 1 == model_func.stages.len();
        let target_names: Vec<String> = if is_last {
            loops.iter().filter(|l| !self.producers_at(func, l.visible_name()).is_empty()).map(|l| l.visible_name().to_string()).collect()
        } else {
            Vec::new()
        };
        // Fused loops: ranges of `loops` joined by `fuse`.
        let groups: Vec<Range<usize>> = stage.visible_loops().into_iter().filter(|unit| unit.len() > 1).collect();
        let group_of = |i: usize| groups.iter().find(|g| g.contains(&i)).cloned();
        // A fused loop is a `compute_at` or `pack` point at its innermost component.
        let ends_visible_loop = |i: usize| group_of(i).is_none_or(|g| g.end == i + 1);
        let is_target = |i: usize| target_names.iter().any(|t| t == loops[i].visible_name()) && ends_visible_loop(i);
        // A `pack` copies at the end of a tiling run: this stage's packs, and
        // those of the funcs computed inside this one at its loops.
        let mut pack_loops: Vec<&str> = stage.packs.iter().map(|p| p.loop_name.as_str()).collect();
        if is_last {
            for other in &model.funcs {
                if matches!(other.placement, Placement::At { consumer, .. } if consumer == func) {
                    pack_loops.extend(other.stages.iter().flat_map(|s| s.packs.iter().map(|p| p.loop_name.as_str())));
                }
            }
        }
        let packs_at = |i: usize| pack_loops.contains(&loops[i].visible_name()) && ends_visible_loop(i);

        for l in loops {
            if let (Some(parallel), Some(other)) = (l.parallel, l.unroll.or(l.vectorize)) {
                self.errors.push(
                    Diagnostic::error("parallel-conflict", parallel, format!("`{}` cannot be both parallel and {}", l.name, if l.unroll.is_some() { "unrolled" } else { "vectorized" }))
                        .with_note(Some(other), "marked here")
                        .with_help("split the loop and mark the outer part parallel, as `parallel(x, 16)` does"),
                );
                return;
            }
        }
        // Extent of each dimension's current tile after each loop, outermost first.
        let mut current = region.clone();
        let mut trips = Vec::new();
        let mut after = Vec::new();
        // Tile size of each loop: its step, or the whole extent when smaller
        // (a loop of one iteration kept as a `compute_at` or `pack` point).
        let mut tile_sizes = Vec::new();
        for (i, l) in loops.iter().enumerate() {
            if i < start {
                trips.push(Some(1));
                tile_sizes.push(l.step);
                after.push(current.clone());
                continue;
            }
            let extent = current[l.dim];
            trips.push(extent.map(|e| ceil_div(e, l.step)));
            tile_sizes.push(extent.map_or(l.step, |e| e.min(l.step)));
            current[l.dim] = match extent {
                Some(e) if e <= l.step => Some(e),
                Some(e) if e % l.step == 0 => Some(l.step),
                _ => None,
            };
            after.push(current.clone());
        }

        // The innermost loops that stay implicit in the tiled op.
        let vector_mode = loops.iter().any(|l| l.vectorize.is_some());
        let mut first_implicit = loops.len();
        // In a vectorized stage, the loop whose last tile is partial, where
        // the op is split in two.
        let mut tail = None;
        if vector_mode {
            while first_implicit > 0 {
                let l = &loops[first_implicit - 1];
                if (l.vectorize.is_some() || l.unroll.is_some()) && !is_target(first_implicit - 1) {
                    first_implicit -= 1;
                } else {
                    break;
                }
            }
            if let Some(outside) = loops[..first_implicit].iter().find(|l| l.vectorize.is_some()) {
                let blocker = &loops[first_implicit - 1];
                let reason = if blocker.name == outside.name {
                    format!("`{}` is a `compute_at` target, so it must stay a loop", outside.name)
                } else {
                    format!("`{}` is inside it and is neither vectorized nor unrolled", blocker.name)
                };
                self.errors.push(
                    Diagnostic::error("vectorize-outer", outside.vectorize.unwrap_or(outside.span), format!("cannot vectorize `{}` in `{name}`: {reason}", outside.name))
                        .with_help("vectorize the innermost loop (reorder it inside), and unroll or vectorize the loops between"),
                );
                return;
            }
            let entry = if first_implicit == 0 { region.clone() } else { after[first_implicit - 1].clone() };
            tail = find_tail(stage, loops, &region, &after, start..first_implicit);
            if let (None, Some(dim)) = (&tail, (0..stage.dims.len()).find(|&d| entry[d].is_none())) {
                let span = loops.iter().find_map(|l| l.vectorize).unwrap_or(stage.span);
                let dimension = &stage.dims[dim];
                let why = match dimension.extent {
                    Some(extent) => format!("the tiles of `{}` are partial (its {extent} iterations are not divided evenly by the splits)", dimension.name),
                    None => format!("`{}` has a dynamic extent", dimension.name),
                };
                self.errors.push(
                    Diagnostic::error("vectorize-dynamic", span, format!("cannot vectorize `{name}`: the vectorized tile must have a static shape, but {why}"))
                        .with_help(if dimension.reduction && dimension.extent.is_some() {
                            "choose split factors that divide the extents of reduction dimensions (the partial last tile of a parallel dimension is split off, but a reduction's is not)"
                        } else {
                            "choose split factors that divide the extents"
                        }),
                );
                return;
            }
        } else {
            let mut lowest_dim = usize::MAX;
            while first_implicit > 0 {
                let l = &loops[first_implicit - 1];
                // Fused loops are materialized, so they become one loop.
                if l.step == 1 && l.unroll.is_none() && l.parallel.is_none() && l.fused.is_none() && l.dim < lowest_dim && !is_target(first_implicit - 1) {
                    lowest_dim = l.dim;
                    first_implicit -= 1;
                } else {
                    break;
                }
            }
        }

        if let Some(tail) = &tail {
            if let Some(target) = (tail.at..loops.len()).find(|&i| is_target(i)) {
                let l = &loops[tail.at];
                let producer = self.producers_at(func, loops[target].visible_name())[0];
                let producer_name = &self.model.funcs[producer].name;
                self.errors.push(
                    Diagnostic::error("tail-compute-at", l.span, format!("cannot split off the partial last tile of `{}` in `{name}`: `{producer_name}` is computed at `{}`, and it cannot be fused into both parts of the split", l.name, loops[target].visible_name()))
                        .with_note(Some(self.compute_at_span(producer)), "computed there")
                        .with_help(format!("choose a split factor that divides {} (the extent of `{}` there), or compute the func at a loop outside `{}`", tail.extent, stage.dims[l.dim].name, l.name)),
                );
                return;
            }
        }

        // Group the loops to materialize into tiling runs.
        let materialized: Vec<usize> = (start..first_implicit).filter(|&i| trips[i] != Some(1) || is_target(i) || packs_at(i)).collect();
        let mut segments: Vec<Vec<usize>> = Vec::new();
        for &i in &materialized {
            let l = &loops[i];
            let extend = segments.last().is_some_and(|segment: &Vec<usize>| {
                let last_index = *segment.last().expect("segments are never empty");
                let last = &loops[last_index];
                // A fused scf.for nest is coalesced from its outermost loop down,
                // so nothing may be tiled inside it in the same run.
                let ends_fused_for = !uses_forall(stage, last) && group_of(last_index).is_some_and(|g| g.end == last_index + 1);
                let at_tail = tail.as_ref().is_some_and(|t| t.at == i);
                !is_target(last_index) && !packs_at(last_index) && !ends_fused_for && !at_tail && uses_forall(stage, last) == uses_forall(stage, l) && l.dim > last.dim
            });
            if extend {
                segments.last_mut().expect("checked above").push(i);
            } else {
                segments.push(vec![i]);
            }
        }

        if !self.check_fused(stage, &name, &groups, first_implicit, &materialized, &segments) {
            return;
        }

        // The loops materialized so far.
        let mut containing: Vec<MaterializedLoop> = inherited;
        for segment in &segments {
            if let Some(tail) = tail.as_ref().filter(|t| t.at == segment[0]) {
                self.split_tail(func, stage_index, &handle, tail, &containing);
                return;
            }
            let forall = uses_forall(stage, &loops[segment[0]]);
            let sizes: Vec<String> = (0..stage.dims.len())
                .map(|d| segment.iter().find(|&&i| loops[i].dim == d).map_or(0, |&i| tile_sizes[i]).to_string())
                .collect();
            let names: Vec<&str> = segment.iter().map(|&i| loops[i].name.as_str()).collect();
            let mut tiled = self.script.fresh(&format!("{}_tiled", model_func.name));
            let location = self.at(stage.order_span.unwrap_or(loops[segment[0]].span));
            self.transformed = true;
            if forall {
                self.script.comment(format!("{name}: loop(s) {} (scf.forall)", names.join(", ")));
                for group in groups.iter().filter(|g| segment.iter().filter(|i| g.contains(i)).count() > 1) {
                    let fused = loops[group.start].fused.as_ref().expect("a group is fused");
                    self.script.comment(format!("fuse: {} is this forall's iteration space over their dimensions", fused.name));
                }
                let forall = self.script.fresh(&names.join("_"));
                self.script.op(
                    format!("%{tiled}, %{forall} = transform.structured.tile_using_forall %{handle} tile_sizes [{}] : ({ANY_OP}) -> ({ANY_OP}, {ANY_OP})", sizes.join(", ")),
                    location,
                );
                let parallel: Vec<&Loop> = segment.iter().map(|&i| &loops[i]).filter(|l| l.parallel.is_some()).collect();
                if let Some(first) = parallel.first() {
                    if parallel.len() != segment.len() {
                        let sequential: Vec<&str> = segment.iter().map(|&i| loops[i].name.as_str()).filter(|n| !parallel.iter().any(|p| p.name == *n)).collect();
                        self.errors.push(
                            Diagnostic::error("parallel-partial", first.parallel.unwrap_or(first.span), format!("`{}` is parallel but the adjacent loop(s) {} are not, and they are tiled together", first.name, sequential.join(", ")))
                                .with_help("mark all of them parallel, or reorder so a sequential loop separates them"),
                        );
                    }
                    self.annotate_parallel.push((forall.clone(), first.parallel.unwrap_or(first.span)));
                }
                let last = *segment.last().expect("a segment has loops");
                let ivs = (0..stage.dims.len())
                    .filter_map(|d| segment.iter().find(|&&i| loops[i].dim == d && trips[i] != Some(1)).map(|&i| (d, tile_sizes[i])))
                    .collect();
                let dynamic_loop = segment.iter().find(|&&i| trips[i].is_none()).map(|&i| loops[i].name.clone());
                containing.push(MaterializedLoop { handle: forall, name: loops[last].visible_name().to_string(), region: after[last].clone(), op: stage.op, ivs: Some(ivs), dynamic_loop });
            } else {
                self.script.comment(format!("{name}: loop(s) {} (scf.for)", names.join(", ")));
                let loop_handles: Vec<String> = names.iter().map(|n| self.script.fresh(n)).collect();
                self.tile_using_for(&tiled, &loop_handles, &handle, &sizes, location);
                // The fused components at the end of the run, coalesced into one loop.
                let last = *segment.last().expect("a segment has loops");
                let components: Vec<usize> = group_of(last).map_or(Vec::new(), |g| segment.iter().copied().filter(|i| g.contains(i)).collect());
                let coalesced = if components.len() > 1 {
                    let first = segment.iter().position(|&i| i == components[0]).expect("components are in the segment");
                    let fused = loops[last].fused.as_ref().expect("a group is fused");
                    self.script.comment(format!("fuse: loops {} become the one loop {}", components.iter().map(|&i| loops[i].name.as_str()).collect::<Vec<_>>().join(", "), fused.name));
                    let fused_handle = self.script.fresh(&fused.name);
                    self.script.op(format!("%{fused_handle} = transform.loop.coalesce %{} : ({ANY_OP}) -> {ANY_OP}", loop_handles[first]), self.at(fused.span));
                    // Coalescing rebuilds the nest: find the tiled op again inside it.
                    let retiled = self.script.fresh(&format!("{}_tiled", model_func.name));
                    let kind = &self.payload.ops[stage.op].kind;
                    self.script.op(format!("%{retiled} = transform.structured.match ops{{[\"{kind}\"]}} in %{fused_handle} : ({ANY_OP}) -> {ANY_OP}"), self.at(fused.span));
                    tiled = retiled;
                    Some(fused_handle)
                } else {
                    None
                };
                for (&i, loop_handle) in segment.iter().zip(&loop_handles) {
                    if coalesced.is_some() && components.contains(&i) {
                        continue;
                    }
                    // Every loop of the nest, unrolled ones too: hoisting from an
                    // outer loop across an inner loop that kept its subset ops
                    // leaves the inner loop's partial sums out (wrong results).
                    self.hoist.push(loop_handle.clone());
                    self.plan_unroll(&loops[i], loop_handle, trips[i]);
                }
                match coalesced {
                    Some(fused_handle) => {
                        let marked: Vec<&Loop> = components.iter().map(|&i| &loops[i]).filter(|l| l.unroll.is_some()).collect();
                        self.hoist.push(fused_handle.clone());
                        if marked.len() == components.len() {
                            let trip = components.iter().try_fold(1, |product, &i| trips[i].map(|t| product * t));
                            self.plan_unroll(marked[0], &fused_handle, trip);
                        } else if let Some(one) = marked.first() {
                            self.errors.push(
                                Diagnostic::error("unroll-fused-part", one.unroll.unwrap_or(one.span), format!("`{}` is unrolled, but it was fused into `{}` with loops that are not", one.name, one.visible_name()))
                                    .with_help(format!("unroll the fused loop: `unroll({})`", one.visible_name())),
                            );
                        }
                        containing.push(MaterializedLoop { handle: fused_handle, name: loops[last].visible_name().to_string(), region: after[last].clone(), op: stage.op, ivs: None, dynamic_loop: None });
                    }
                    None => containing.push(MaterializedLoop {
                        handle: loop_handles.last().expect("a segment has loops").clone(),
                        name: loops[last].visible_name().to_string(),
                        region: after[last].clone(),
                        op: stage.op,
                        ivs: None,
                        dynamic_loop: None,
                    }),
                }
            }
            handle = tiled;
            let last = *segment.last().expect("a segment has loops");
            let at = loops[last].visible_name().to_string();
            self.plan_packs(func, stage_index, &at, &mut handle, &after[last]);
            let innermost = containing.last().expect("the segment's loop was just pushed").clone();
            self.plan_prefetches(func, stage_index, &innermost, &after[last]);
            if is_target(last) {
                self.fuse_producers(func, stage, &loops[last], &mut containing, after[last].clone());
            }
        }
        for (index, pack) in stage.packs.iter().enumerate() {
            if !self.packed.contains(&(func, stage_index, index)) {
                let why = match loops.iter().position(|l| l.visible_name() == pack.loop_name) {
                    Some(i) if i >= first_implicit && vector_mode => format!("`{}` stays inside the vector op, so it is not a loop of the generated code", pack.loop_name),
                    Some(i) if i >= first_implicit => format!("`{}` is left to the op itself (innermost unit-step loops in the op's dimension order are not tiled), so it is not a loop of the generated code", pack.loop_name),
                    Some(_) => format!("`{}` has one iteration, so it is not a loop of the generated code", pack.loop_name),
                    None => format!("`{}` is tiled together with the loops inside it into one loop nest, so no copy can be placed between them", pack.loop_name),
                };
                self.errors.push(
                    Diagnostic::error("pack-unplannable", pack.span, format!("cannot pack `in{}` of `{name}` at `{}`: {why}", pack.operand, pack.loop_name))
                        .with_help("pack at a loop that is materialized: the innermost loop of a tiling run (e.g. the `compute_at` loop) or an outer one that is tiled on its own"),
                );
            }
        }
        for (index, prefetch) in stage.prefetches.iter().enumerate() {
            if !self.prefetched.contains(&(func, stage_index, index)) {
                self.errors.push(
                    Diagnostic::error("prefetch-unplannable", prefetch.span, format!("cannot prefetch `in{}` of `{name}` at `{}`: it is not a loop of the generated code (it has one iteration, stays inside the op, or is tiled together with the loops inside it)", prefetch.operand, prefetch.loop_name))
                        .with_help("prefetch at a loop that is materialized as an `scf.forall`: the innermost loop of a tiling run over parallel dimensions (e.g. the `compute_at` loop)"),
                );
            }
        }
        if vector_mode {
            let span = loops.iter().find_map(|l| l.vectorize).unwrap_or(stage.span);
            let op = &self.payload.ops[stage.op];
            let plain = op.operands.iter().all(|o| o.map.iter().all(|r| matches!(r, MapResult::Dim(_) | MapResult::Constant(0))));
            let when = if plain && stage.dims.iter().any(|d| d.reduction) { VectorizeWhen::BeforeFolding } else { VectorizeWhen::AfterFolding };
            self.vectorize.push((handle, span, when));
            self.transformed = true;
        }
    }

    /// Splits the op (`handle`) before the loop of `tail` into the part of
    /// whole tiles and the remainder, and plans each on from that loop.
    fn split_tail(&mut self, func: usize, stage_index: usize, handle: &str, tail: &Tail, containing: &[MaterializedLoop]) {
        let name = self.stage_name(func, stage_index);
        let the_loop = &self.model.funcs[func].stages[stage_index].loops[tail.at];
        let rest = tail.extent - tail.whole;
        self.script.comment(format!(
            "{name}: the last tile of {} is partial ({} = {} + {rest}): split the op there, so both parts have static tiles",
            the_loop.name, tail.extent, tail.whole
        ));
        let prefix = self.model.funcs[func].name.clone();
        let parts = self.script.fresh(&format!("{prefix}_parts"));
        let (whole, remainder) = (self.script.fresh(&format!("{prefix}_whole")), self.script.fresh(&format!("{prefix}_tail")));
        let location = self.at(the_loop.span);
        self.script.op(format!("%{parts} = transform.structured.split %{handle} after {} {{dimension = {}}} : {ANY_OP}", tail.whole, tail.dim), location);
        self.script.op(format!("%{whole}, %{remainder} = transform.split_handle %{parts} : ({ANY_OP}) -> ({ANY_OP}, {ANY_OP})"), None);
        self.transformed = true;
        // Each part plans the packs and prefetches at and inside the split loop anew.
        let (packed, prefetched) = (self.packed.clone(), self.prefetched.clone());
        for (part, extent) in [(whole, tail.whole), (remainder, rest)] {
            self.packed = packed.clone();
            self.prefetched = prefetched.clone();
            let mut region = tail.region.clone();
            region[tail.dim] = Some(extent);
            self.stage_from(func, stage_index, part, Resume { start: tail.at, region, containing: containing.to_vec() });
        }
    }

    /// Plans the `pack`s of a stage at loop `at`, now that the op (`handle`)
    /// is inside it: a `nofold` pad of each packed operand, which bufferizes
    /// to a copy into a fresh contiguous buffer, made once per iteration of
    /// `at`. `region` is the stage's tile there. Its reduction dimensions must
    /// be static: padding a reduction would add terms (zeros) to it. Partial
    /// tiles of parallel dimensions are padded to their bound, and the extra
    /// results dropped.
    fn plan_packs(&mut self, func: usize, stage_index: usize, at: &str, handle: &mut String, region: &[Option<i64>]) {
        let stage = &self.model.funcs[func].stages[stage_index];
        let op = &self.payload.ops[stage.op];
        let name = self.stage_name(func, stage_index);
        for (index, pack) in stage.packs.iter().enumerate() {
            if pack.loop_name != at || self.packed.contains(&(func, stage_index, index)) {
                continue;
            }
            self.packed.push((func, stage_index, index));
            if let Some(dim) = (0..stage.dims.len()).find(|&d| stage.dims[d].reduction && region[d].is_none()) {
                self.errors.push(
                    Diagnostic::error("pack-dynamic", pack.span, format!("cannot pack `in{}` of `{name}` at `{at}`: the tile of reduction `{}` there is partial or dynamic, and padding it would change the sum", pack.operand, stage.dims[dim].name))
                        .with_help("choose split factors that divide the extents"),
                );
                continue;
            }
            // The pad also pads the accumulator when a parallel tile is
            // partial; inside a reduction loop that breaks the loop-carried
            // accumulator (bufferization cannot keep it in place).
            let enclosing_reduction = stage.loops.iter().position(|l| l.visible_name() == at).and_then(|p| stage.loops[..=p].iter().find(|l| stage.dims[l.dim].reduction));
            let partial = (0..stage.dims.len()).find(|&d| !stage.dims[d].reduction && region[d].is_none());
            if let (Some(reduction_loop), Some(dim)) = (enclosing_reduction, partial) {
                self.errors.push(
                    Diagnostic::error("pack-partial-accumulator", pack.span, format!("cannot pack `in{}` of `{name}` at `{at}`: the tile of `{}` there is partial or dynamic, so the accumulator would be padded too, inside reduction loop `{}`", pack.operand, stage.dims[dim].name, reduction_loop.visible_name()))
                        .with_help("choose split factors that divide the extents, or pack at a loop outside the reduction loops"),
                );
                continue;
            }
            let values: Vec<String> = op.operands.iter().map(|o| zero_attribute(&o.element)).collect();
            let dims: Vec<String> = (0..stage.dims.len()).map(|d| d.to_string()).collect();
            let nofold: Vec<&str> = op.operands.iter().enumerate().map(|(i, _)| if i == pack.operand { "1" } else { "0" }).collect();
            let padded = self.script.fresh(&format!("{}_packed", self.model.funcs[func].name));
            let pad = self.script.fresh("pack");
            let copy = self.script.fresh("copy");
            self.script.comment(format!("pack: in{} of {name} copied into a contiguous buffer once per iteration of {at} (a nofold pad that pads nothing)", pack.operand));
            self.script.op(
                format!(
                    "%{padded}, %{pad}, %{copy} = transform.structured.pad %{handle} {{padding_values = [{}], padding_dimensions = [{}], nofold_flags = [{}], copy_back_op = \"none\"}} : ({ANY_OP}) -> ({ANY_OP}, {ANY_OP}, {ANY_OP})",
                    values.join(", "),
                    dims.join(", "),
                    nofold.join(", ")
                ),
                self.at(pack.span),
            );
            // Fold the identity slice the pad leaves on the result, so later
            // fusion sees the op's result used directly. Folders only: the
            // canonicalization patterns would also inline a one-iteration
            // forall that later fusion still needs.
            self.script.comment("fold the identity slice of the result (no patterns: folders only)");
            self.apply_patterns(&self.functions(), &[], false);
            self.plan_pack_copy(&padded, pack.operand, &op.operands[pack.operand].map, region);
            *handle = padded;
            self.transformed = true;
        }
    }

    /// Plans the `prefetch`es of a stage at `the_loop`, now that the op is
    /// inside it (`region` is its tile there). The region of the input read in
    /// one iteration is worked out here, from the op's indexing map and the
    /// loop's induction variables, and the loop is annotated with it; lowering
    /// inserts the prefetches (`payload::prefetch`), after bufferization.
    fn plan_prefetches(&mut self, func: usize, stage_index: usize, the_loop: &MaterializedLoop, region: &[Option<i64>]) {
        let stage = &self.model.funcs[func].stages[stage_index];
        let op = &self.payload.ops[stage.op];
        let name = self.stage_name(func, stage_index);
        for (index, prefetch) in stage.prefetches.iter().enumerate() {
            if prefetch.loop_name != the_loop.name || self.prefetched.contains(&(func, stage_index, index)) {
                continue;
            }
            self.prefetched.push((func, stage_index, index));
            let at = &prefetch.loop_name;
            let fail = |why: String| Diagnostic::error("prefetch-unplannable", prefetch.span, format!("cannot prefetch `in{}` of `{name}` at `{at}`: {why}", prefetch.operand));
            let operand = &op.operands[prefetch.operand];
            let Some(argument) = operand.argument else {
                self.errors.push(fail(format!("`in{}` is not an argument of @{}, and only arguments are prefetched so far", prefetch.operand, op.function)).with_help("prefetch an input the function receives"));
                continue;
            };
            let Some(ivs) = &the_loop.ivs else {
                self.errors.push(fail(format!("`{at}` is an `scf.for` (a sequential loop), and only `scf.forall` loops prefetch so far")).with_help("prefetch at a loop over a parallel dimension, such as the `compute_at` loop"));
                continue;
            };
            if ivs.is_empty() {
                self.errors.push(fail(format!("`{at}` has one iteration, so there is no next one")));
                continue;
            }
            if let Some(dynamic) = &the_loop.dynamic_loop {
                self.errors.push(
                    fail(format!("`{dynamic}`, in the same `scf.forall` as `{at}`, has a trip count that is not static (a split around it does not divide its extent), so the forall's bounds are dynamic"))
                        .with_help("choose split factors that divide the extents"),
                );
                continue;
            }
            // The op's dimension each induction variable tiles.
            let Some(dims) = ivs.iter().map(|&(d, _)| self.corresponding_dim(the_loop.op, stage.op, d)).collect::<Option<Vec<usize>>>() else {
                self.errors.push(fail(format!("the loop was tiled from `{}`, whose dimensions do not map one to one to this op's", self.payload.ops[the_loop.op].kind)));
                continue;
            };
            let names: Vec<&str> = stage.dims.iter().map(|d| d.name.as_str()).collect();
            match prefetch_region(op, prefetch.operand, region, &dims, ivs, &names, at) {
                Ok((_, _, shifts)) if shifts.iter().all(|&s| s == 0) => {
                    self.errors.push(
                        fail(format!("the next iteration of `{at}` reads the same part of `in{}`, so there is nothing new to prefetch", prefetch.operand))
                            .with_help(format!("prefetch an input whose tile moves with `{at}`, or at a loop that moves it")),
                    );
                }
                Ok((offsets, sizes, shifts)) => {
                    let list = |values: &[i64]| values.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
                    let value = format!("{{argument = {argument} : i64, offsets = [{}], sizes = array<i64: {}>, shifts = array<i64: {}>}}", offsets.join(", "), list(&sizes), list(&shifts));
                    self.annotate_prefetch.push((the_loop.handle.clone(), value, prefetch.span));
                    self.transformed = true;
                }
                Err(why) => self.errors.push(fail(why)),
            }
        }
    }

    /// The dimension of op `to` that dimension `dim` of op `from` tiles:
    /// itself, or through the operand by which `from` reads `to`'s result.
    fn corresponding_dim(&self, from: usize, to: usize, dim: usize) -> Option<usize> {
        if from == to {
            return Some(dim);
        }
        let output = self.payload.ops[to].operands.iter().find(|o| o.is_init)?;
        let operand = self.payload.ops[from].operands.iter().find(|o| o.producer == Some(to))?;
        let position = operand.map.iter().position(|r| *r == MapResult::Dim(dim))?;
        match output.map.get(position)? {
            MapResult::Dim(d) => Some(*d),
            _ => None,
        }
    }

    /// Makes the copy of a pack row by row: the nofold pad feeding operand
    /// `operand` of `padded` is tiled to single rows (`1 x ... x 1 x W`) and
    /// each row vectorized, which folds to a contiguous row copy (a `memcpy`
    /// of `W` elements). Left whole, the pad bufferizes to a zero fill of the
    /// buffer and an element-by-element strided copy, several times slower.
    /// Needs the operand's tile shape, static and read through plain
    /// dimensions; otherwise the pad is left whole (correct, only slower).
    fn plan_pack_copy(&mut self, padded: &str, operand: usize, map: &[MapResult], region: &[Option<i64>]) {
        let shape: Option<Vec<i64>> = map
            .iter()
            .map(|r| match r {
                MapResult::Dim(d) => region.get(*d).copied().flatten(),
                _ => None,
            })
            .collect();
        let Some(shape) = shape.filter(|s| !s.is_empty()) else {
            self.script.comment("the packed tile's shape is not static: the pad is copied whole");
            return;
        };
        self.script.comment(format!("copy the packed tile row by row (rows of {} elements, each one vector, so each folds to a contiguous copy)", shape[shape.len() - 1]));
        // The pad handle also holds the pads of partial tiles of other operands: take this operand's.
        let pad = self.script.fresh("pack_copy");
        self.script.op(format!("%{pad} = transform.get_producer_of_operand %{padded}[{operand}] : ({ANY_OP}) -> {ANY_OP}"), None);
        // Unit tiles of every dimension but the last, which stays whole.
        let (rows, width) = (shape.len() - 1, shape[shape.len() - 1]);
        let mut row = pad.clone();
        if rows > 0 {
            row = self.script.fresh(&format!("{pad}_row"));
            let loops: Vec<String> = (0..rows).map(|_| self.script.fresh(&format!("{pad}_loop"))).collect();
            let sizes: Vec<String> = std::iter::repeat_n("1".to_string(), rows).chain(["0".to_string()]).collect();
            self.tile_using_for(&row, &loops, &pad, &sizes, None);
        }
        let vector: Vec<String> = std::iter::repeat_n("1".to_string(), rows).chain([width.to_string()]).collect();
        self.script.op(format!("transform.structured.vectorize %{row} vector_sizes [{}] : {ANY_OP}", vector.join(", ")), None);
    }

    /// Emits `tile_using_for` of `handle` with `sizes` (one per dimension),
    /// naming the tiled op `tiled` and the loops `loops` (one per non-zero size).
    fn tile_using_for(&mut self, tiled: &str, loops: &[String], handle: &str, sizes: &[String], location: Option<(usize, usize)>) {
        let results: Vec<String> = loops.iter().map(|l| format!("%{l}")).collect();
        let types = vec![ANY_OP; loops.len() + 1].join(", ");
        self.script.op(
            format!("%{tiled}, {} = transform.structured.tile_using_for %{handle} tile_sizes [{}] : ({ANY_OP}) -> ({types})", results.join(", "), sizes.join(", ")),
            location,
        );
    }

    /// Queues the unroll of a materialized loop marked `unroll`.
    fn plan_unroll(&mut self, the_loop: &Loop, handle: &str, trip: Option<i64>) {
        let Some(span) = the_loop.unroll else { return };
        match trip {
            Some(trip) => self.unroll.push((handle.to_string(), trip, span)),
            None => self.errors.push(
                Diagnostic::error("unroll-dynamic", span, format!("cannot unroll `{}`: its trip count is not static", the_loop.visible_name()))
                    .with_help("unroll with a factor, as in `unroll(x, 4)`"),
            ),
        }
    }

    /// Each fused loop must become one loop: all its components implicit in
    /// one vector op, or all materialized by one tiling op (one multi-dimensional
    /// `scf.forall`, or `scf.for`s coalesced into one). Reports the others.
    fn check_fused(&mut self, stage: &Stage, name: &str, groups: &[Range<usize>], first_implicit: usize, materialized: &[usize], segments: &[Vec<usize>]) -> bool {
        let loops = &stage.loops;
        let mut ok = true;
        for group in groups {
            let fused = loops[group.start].fused.as_ref().expect("a group is fused");
            let component = |i: usize| {
                let dim = &stage.dims[loops[i].dim].name;
                if *dim == loops[i].name { format!("`{dim}`") } else { format!("`{}` (over `{dim}`)", loops[i].name) }
            };
            let implicit: Vec<usize> = group.clone().filter(|&i| i >= first_implicit).collect();
            let tiled: Vec<usize> = group.clone().filter(|i| materialized.contains(i)).collect();
            let mut runs: Vec<usize> = tiled.iter().filter_map(|i| segments.iter().position(|s| s.contains(i))).collect();
            runs.dedup();
            const ORDER_HELP: &str = "fuse loops of the same kind whose dimensions follow the op's order (linalg's d0, d1, …), outermost first";
            let problem = if !implicit.is_empty() && !tiled.is_empty() {
                let help = format!("mark the whole fused loop, as in `vectorize({})`, or do not fuse a vectorized loop", fused.name);
                Some((format!("{} stays inside the vectorized op while {} must be a loop", component(implicit[0]), component(tiled[0])), help))
            } else if runs.len() > 1 {
                let (a, b) = (tiled[0], tiled[tiled.len() - 1]);
                if uses_forall(stage, &loops[a]) != uses_forall(stage, &loops[b]) {
                    let kind = |i: usize| if uses_forall(stage, &loops[i]) { "an scf.forall (parallel dimension)" } else { "an scf.for (reduction or unrolled)" };
                    Some((format!("{} becomes {} but {} becomes {}", component(a), kind(a), component(b), kind(b)), ORDER_HELP.to_string()))
                } else {
                    Some((format!("{} is outside {}, against the op's dimension order, so tiling makes them separate loops", component(a), component(b)), ORDER_HELP.to_string()))
                }
            } else {
                None
            };
            if let Some((reason, help)) = problem {
                self.errors.push(Diagnostic::error("fuse-unplannable", fused.span, format!("cannot make `{}` one loop in `{name}`: {reason}", fused.name)).with_help(help));
                ok = false;
            }
        }
        ok
    }

    /// Fuses the funcs computed at `loop_name` into the loops materialized so
    /// far, then plans their own loops. `region` is the consumer's tile there.
    fn fuse_producers(&mut self, func: usize, stage: &Stage, target: &Loop, containing: &mut [MaterializedLoop], region: Region) {
        let loop_name = target.name.as_str();
        // The target itself, or a loop around it, may iterate a reduction.
        let target_index = stage.loops.iter().position(|l| l.name == target.name).unwrap_or(0);
        let reduction_loop = stage.loops[..=target_index].iter().rev().find(|l| stage.dims[l.dim].reduction);
        let mut fused = Vec::new();
        // Per containing loop, the tiles there of the consumer and of the
        // producers fused so far (for the tile shapes of their packs).
        let mut known_at: Vec<Vec<(usize, Region)>> = containing.iter().map(|l| vec![(stage.op, l.region.clone())]).collect();
        for producer in self.producers_at(func, loop_name) {
            let span = self.compute_at_span(producer);
            let feeds_init = self.model.funcs[producer].stages.iter().any(|s| {
                self.payload.ops[stage.op].operands.iter().any(|o| o.is_init && o.producer == Some(s.op))
            });
            if let (Some(reduction_loop), true) = (reduction_loop, feeds_init) {
                let (producer_name, consumer_name) = (&self.model.funcs[producer].name, &self.model.funcs[func].name);
                let where_ = if reduction_loop.name == target.name { format!("`{loop_name}`") } else { format!("`{}`, a loop around `{loop_name}`,", reduction_loop.name) };
                self.errors.push(
                    Diagnostic::error("compute-at-reduction", span, format!("cannot compute `{producer_name}` inside `{loop_name}` of `{consumer_name}`"))
                        .with_note(Some(reduction_loop.span), format!("{where_} iterates reduction dimension `{}`, and `{producer_name}` initializes what `{consumer_name}` accumulates: it would be reset at every step", stage.dims[reduction_loop.dim].name))
                        .with_help("compute it at a loop outside the reduction loops"),
                );
                continue;
            }
            for producer_stage in (0..self.model.funcs[producer].stages.len()).rev() {
                let mut handle = self.stage_handles[&(producer, producer_stage)].clone();
                self.script.comment(format!("compute_at: {} inside loop {loop_name} of {}", self.stage_name(producer, producer_stage), self.model.funcs[func].name));
                let op = self.model.funcs[producer].stages[producer_stage].op;
                for (containing_loop, known) in containing.iter_mut().zip(known_at.iter_mut()) {
                    let new_handle = self.script.fresh(&format!("{}_fused", self.model.funcs[producer].name));
                    let new_loop = self.script.fresh(&containing_loop.handle);
                    self.script.op(
                        format!(
                            "%{new_handle}, %{new_loop} = transform.structured.fuse_into_containing_op %{handle} into %{} : ({ANY_OP}, {ANY_OP}) -> ({ANY_OP}, {ANY_OP})",
                            containing_loop.handle
                        ),
                        self.at(span),
                    );
                    containing_loop.handle = new_loop;
                    handle = new_handle;
                    // A consumer's loops tile only the producer's parallel
                    // dimensions; its reductions are whole there.
                    let region_here = self.derive_region(op, known);
                    self.plan_packs(producer, producer_stage, &containing_loop.name, &mut handle, &region_here);
                    self.plan_prefetches(producer, producer_stage, containing_loop, &region_here);
                    known.push((op, region_here));
                }
                fused.push((producer, producer_stage, handle));
            }
        }
        // Regions of the fused ops, derived from the ops that use them.
        let mut known: Vec<(usize, Region)> = vec![(stage.op, region)];
        for (producer, producer_stage, handle) in fused {
            let op = self.model.funcs[producer].stages[producer_stage].op;
            let region = self.derive_region(op, &known);
            known.push((op, region.clone()));
            self.stage(producer, producer_stage, handle, region);
        }
    }

    /// The region of `op` computed for the users in `known` (op, region).
    fn derive_region(&self, op: usize, known: &[(usize, Region)]) -> Region {
        let producer = &self.payload.ops[op];
        let mut region = producer.extents.clone();
        let Some(output) = producer.operands.iter().find(|o| o.is_init) else { return region };
        for (user, user_region) in known.iter().rev() {
            let Some(operand) = self.payload.ops[*user].operands.iter().find(|o| o.producer == Some(op)) else { continue };
            for (position, result) in output.map.iter().enumerate() {
                if let MapResult::Dim(dim) = result {
                    region[*dim] = match operand.map.get(position) {
                        Some(MapResult::Dim(user_dim)) => user_region.get(*user_dim).copied().flatten(),
                        _ => None,
                    };
                }
            }
            break;
        }
        region
    }

    fn finish(&mut self) {
        if !self.transformed {
            return;
        }
        let functions = self.functions();
        if !self.vectorize.is_empty() {
            let tiles = std::mem::take(&mut self.vectorize);
            let (early, late): (Vec<_>, Vec<_>) = tiles.into_iter().partition(|(_, _, when)| *when == VectorizeWhen::BeforeFolding);
            if !early.is_empty() {
                for (handle, span, _) in early {
                    self.script.comment(format!("vectorize: {} (a contraction, vectorized with its reduction)", self.source.slice(span)));
                    self.script.op(format!("transform.structured.vectorize %{handle} : {ANY_OP}"), self.at(span));
                }
                // Before any canonicalization folds a unit reduction into a plain add.
                self.script.comment("turn multiply-reduce pairs into vector.contract (its lowering emits fused multiply-adds)");
                self.apply_patterns(&functions, &["vector.transfer_permutation_patterns", "vector.reduction_to_contract", "canonicalization"], false);
            }
            if !late.is_empty() {
                self.script.comment("fold unit dimensions so each tile vectorizes as one compact vector op");
                self.apply_patterns(&functions, &["linalg.fold_unit_extent_dims_via_slices", "canonicalization"], false);
            }
            for (handle, span, _) in late {
                self.script.comment(format!("vectorize: {}", self.source.slice(span)));
                self.script.op(format!("transform.structured.vectorize %{handle} : {ANY_OP}"), self.at(span));
            }
        }
        if !self.hoist.is_empty() {
            self.script.comment("keep accumulator tiles in loop-carried values: hoist loop-invariant subsets, innermost loop first");
            self.script.comment("(after a cleanup, so each read and write of the tile is one subset pair)");
            self.apply_patterns(&functions, &["canonicalization"], true);
            for handle in std::mem::take(&mut self.hoist).into_iter().rev() {
                self.script.op(format!("transform.loop.hoist_loop_invariant_subsets %{handle} : {ANY_OP}"), None);
            }
            // Hoisting has produced IR that fails to verify (a value used outside
            // its loop), which later steps then turned into wrong results: stop there.
            self.script.comment("the hoisted loops must still verify");
            for function in &functions {
                self.script.op(format!("transform.verify %{function} : {ANY_OP}"), None);
            }
        }
        for (handle, span) in std::mem::take(&mut self.annotate_parallel) {
            self.script.comment(format!("parallel: {}", self.source.slice(span)));
            self.script.op(format!("transform.annotate %{handle} \"sched.parallel\" : {ANY_OP}"), self.at(span));
        }
        for (n, (handle, value, span)) in std::mem::take(&mut self.annotate_prefetch).into_iter().enumerate() {
            self.script.comment(format!("prefetch: {} (inserted when lowering, at the start of each iteration)", self.source.slice(span)));
            let param = self.script.fresh("prefetch_region");
            self.script.op(format!("%{param} = transform.param.constant {value} -> !transform.any_param"), self.at(span));
            self.script.op(format!("transform.annotate %{handle} \"sched.prefetch_{n}\" = %{param} : {ANY_OP}, !transform.any_param"), self.at(span));
        }
        let unrolls = std::mem::take(&mut self.unroll);
        for (handle, factor, span) in unrolls.into_iter().rev() {
            self.script.comment(format!("unroll: {}", self.source.slice(span)));
            self.script.op(format!("transform.loop.unroll %{handle} {{factor = {factor}}} : {ANY_OP}"), self.at(span));
        }
        self.script.comment("clean up; slices of a tensor.empty become tile-sized empties, so no whole-tensor buffer is allocated per call,");
        self.script.comment("and unit leading vector dimensions are dropped, so an init written and read back is forwarded in registers");
        self.apply_patterns(&functions, &["tensor.fold_tensor_empty", "vector.cast_away_vector_leading_one_dim", "tensor.fold_tensor_subset_ops_into_vector_transfers", "canonicalization"], true);
    }

    /// Handles to the payload functions the schedule touches.
    fn functions(&self) -> Vec<String> {
        self.function_handles.values().cloned().collect()
    }

    /// Applies the named pattern sets (`transform.apply_patterns.<name>`) to each
    /// payload function, then, with `cse`, common subexpression elimination.
    fn apply_patterns(&mut self, functions: &[String], patterns: &[&str], cse: bool) {
        let body: String = patterns.iter().map(|p| format!("  transform.apply_patterns.{p}\n")).collect();
        for function in functions {
            self.script.op(format!("transform.apply_patterns to %{function} {{\n{body}}} : {ANY_OP}"), None);
            if cse {
                self.script.op(format!("transform.apply_cse to %{function} : {ANY_OP}"), None);
            }
        }
    }
}

/// The region of input `operand` of `op` that one iteration of a forall reads:
/// per operand dimension, an affine map from the forall's induction variables
/// to the offset, the size, and how far the region moves from one iteration
/// of the innermost variable to the next. `region` is the op's tile in the
/// loop; `dims` the op dimension each variable tiles, with `ivs` giving the
/// tile sizes; `names` the op's dimension names. The op's other dimensions
/// must be whole there (offset 0).
type PrefetchRegion = (Vec<String>, Vec<i64>, Vec<i64>);
fn prefetch_region(op: &schedule_lang::PayloadOp, operand: usize, region: &[Option<i64>], dims: &[usize], ivs: &[(usize, i64)], names: &[&str], at: &str) -> Result<PrefetchRegion, String> {
    let variables: Vec<String> = (0..ivs.len()).map(|k| format!("d{k}")).collect();
    let mut offsets = Vec::new();
    let mut sizes = Vec::new();
    let mut shifts = Vec::new();
    for result in &op.operands[operand].map {
        let terms = match result {
            MapResult::Dim(d) => vec![(Some(*d), 1)],
            MapResult::Constant(c) => vec![(None, *c)],
            MapResult::Expression(text) => parse_sum(text).ok_or_else(|| format!("its index `{text}` is not a sum of dimensions, which is all prefetching handles so far"))?,
        };
        let mut offset: Vec<String> = Vec::new();
        let mut size = 1;
        let mut shift = 0;
        for (dim, coefficient) in terms {
            let Some(dim) = dim else {
                offset.push(coefficient.to_string());
                continue;
            };
            let tile = region.get(dim).copied().flatten().ok_or_else(|| format!("the tile of `{}` there is partial or dynamic", names[dim]))?;
            size += coefficient * (tile - 1);
            match dims.iter().position(|&d| d == dim) {
                Some(k) => {
                    let stride = coefficient * ivs[k].1;
                    offset.push(if stride == 1 { format!("d{k}") } else { format!("d{k} * {stride}") });
                    if k + 1 == ivs.len() {
                        shift += stride;
                    }
                }
                None if Some(tile) == op.extents[dim] => {}
                None => return Err(format!("what it reads depends on `{}`, which a loop outside `{at}` tiles", names[dim])),
            }
        }
        offsets.push(format!("affine_map<({}) -> ({})>", variables.join(", "), if offset.is_empty() { "0".to_string() } else { offset.join(" + ") }));
        sizes.push(size);
        shifts.push(shift);
    }
    Ok((offsets, sizes, shifts))
}

/// Parses `d1 + d4`, `d2 * 3 + 1`: (dimension or none for a constant, coefficient) terms.
fn parse_sum(text: &str) -> Option<Vec<(Option<usize>, i64)>> {
    text.split('+')
        .map(|term| {
            let term = term.trim();
            let dim = |t: &str| t.strip_prefix('d').and_then(|n| n.parse::<usize>().ok());
            if let Some(d) = dim(term) {
                return Some((Some(d), 1));
            }
            if let Some((left, right)) = term.split_once('*') {
                let (left, right) = (left.trim(), right.trim());
                return match (dim(left), right.parse::<i64>().ok(), dim(right), left.parse::<i64>().ok()) {
                    (Some(d), Some(c), _, _) | (_, _, Some(d), Some(c)) if c > 0 => Some((Some(d), c)),
                    _ => None,
                };
            }
            term.parse::<i64>().ok().filter(|c| *c >= 0).map(|c| (None, c))
        })
        .collect()
}
