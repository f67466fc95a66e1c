//! What `explain` shows: the loop nests a schedule asks for, as Halide's
//! `print_loop_nest` prints them. For each func, its binding, then the nest
//! after each directive (with the directive's `file:line:col` above it),
//! then the schedule as a whole: every func's final nest, with the funcs
//! computed at each loop, packs, prefetches and accelerator calls where they
//! happen; then the loops of the generated IR with the schedule's names, and
//! the requested loops it has none for. The CLI's `explain` and the Python
//! package's `Payload.explain` print [`Explanation::render`]; `--json` is the
//! same as data.

use crate::pipeline::Outcome;
use crate::plan::LOOP_NAME;
use schedule_lang::model::{Loop, Model, Placement, Stage};
use schedule_lang::{PayloadInfo, SourceFile};
use serde::Serialize;
use std::fmt::Write;

/// One loop as `explain` shows it.
#[derive(Serialize)]
struct LoopView {
    name: String,
    dimension: String,
    /// The dimension's extent in the payload; `None` when dynamic.
    extent: Option<i64>,
    /// Iterations; `None` when the extent is dynamic.
    iterations: Option<i64>,
    /// Elements of the dimension one iteration covers.
    step: i64,
    /// Whether the last iteration covers fewer elements than `step`.
    partial: bool,
    /// `parallel`, `vectorized`, `unrolled`, `rfactor`, `fused into NAME`.
    marks: Vec<String>,
    /// What happens at the start of each iteration of this loop (final nest only):
    /// `computes F`, `packs inK`, `prefetches inK`, `one call of T`.
    here: Vec<String>,
}

/// One directive and the nest it left.
#[derive(Serialize)]
struct StepView {
    location: String,
    directive: String,
    loops: Vec<LoopView>,
}

/// One stage of a func.
#[derive(Serialize)]
struct StageView {
    binding: String,
    steps: Vec<StepView>,
    /// The nest the schedule asks for in the end.
    loops: Vec<LoopView>,
}

/// One func.
#[derive(Serialize)]
struct FuncView {
    name: String,
    placement: String,
    stages: Vec<StageView>,
}

/// One loop of the generated IR.
#[derive(Serialize)]
struct IrLoopView {
    kind: String,
    /// Its stage and the schedule's names of the loops it holds
    /// (`relu: n, y, xo`); `None`: not a loop the schedule asked for (a
    /// pack's copy, a remainder, a cleanup's).
    names: Option<String>,
    iterations: Option<i64>,
    parallel: bool,
    inner: Vec<IrLoopView>,
    /// The vector types its body computes (outside inner loops).
    vectors: Vec<String>,
}

/// The generated IR's loops of one payload function.
#[derive(Serialize)]
struct FunctionLoops {
    function: String,
    loops: Vec<IrLoopView>,
    /// The vector types computed outside any loop.
    vectors: Vec<String>,
}

/// A requested loop that is no loop of the generated IR, and why.
#[derive(Serialize)]
struct Absent {
    func: String,
    name: String,
    why: String,
}

/// The whole explanation.
#[derive(Serialize)]
pub struct Explanation {
    schedule: String,
    payload: String,
    funcs: Vec<FuncView>,
    /// The transformed payload's loops, mapped back to the schedule's names.
    generated: Vec<FunctionLoops>,
    /// The requested loops the generated IR has no loop for.
    absent: Vec<Absent>,
}

/// The explanation of `outcome`, a run of `schedule` to
/// [`crate::pipeline::Stop::ApplyNamingLoops`]: the resolved model (the
/// requested nests) and the payload the script, naming its loops, made (the
/// generated nests). An error when that payload cannot be read back.
pub fn explain(outcome: &Outcome, schedule: &SourceFile) -> Result<Explanation, String> {
    let mut explanation = explanation(&outcome.model, schedule, &outcome.info);
    let transformed = outcome.payload.clone().unwrap_or_default();
    let nests = payload::loops::loop_nests(&outcome.info.name, &transformed, LOOP_NAME)
        .map_err(|e| format!("internal error: {e}"))?;
    explanation.generated = nests
        .into_iter()
        .map(|function| FunctionLoops {
            function: function.name,
            loops: function.loops.iter().map(ir_view).collect(),
            vectors: function.vectors,
        })
        .collect();
    explanation.absent = absent(&outcome.model, &explanation.generated);
    Ok(explanation)
}

impl Explanation {
    /// The explanation as `sched-apply explain` prints it.
    pub fn render(&self) -> String {
        render(self)
    }
}

/// A stage's binding as written; for a func of many ops (`[*]`), which op
/// this one is, so each op shows the rule that scheduled it.
fn binding(schedule: &SourceFile, stage: &Stage, info: &PayloadInfo) -> String {
    let written = schedule.slice(stage.span).to_string();
    match info.ops.get(stage.op) {
        Some(op) if written.contains("[*]") => {
            format!(
                "{written}  # this one: the `{}` at {}",
                op.kind,
                info.place(op)
            )
        }
        _ => written,
    }
}

fn explanation(model: &Model, schedule: &SourceFile, info: &PayloadInfo) -> Explanation {
    let payload = info.name.as_str();
    let funcs = model
        .funcs
        .iter()
        .enumerate()
        .map(|(func, f)| FuncView {
            name: f.name.clone(),
            placement: match &f.placement {
                Placement::Root => "compute_root (its own loop nest)".to_string(),
                Placement::At {
                    consumer,
                    loop_name,
                    ..
                } => match &f.stored_at {
                    Some(stored) => format!(
                        "store_at({0}, {1}).compute_at({0}, {loop_name}): a sliding window: its \
                         rows are kept from one iteration of `{loop_name}` to the next in a \
                         buffer of `{1}`'s iteration; before `{loop_name}` it computes the rows \
                         the first iteration shares with the one before, then in each iteration \
                         only the new rows",
                        model.funcs[*consumer].name, stored.loop_name
                    ),
                    None => format!(
                        "compute_at({0}, {loop_name}): inside loop `{loop_name}` of `{0}`; the \
                         iterations below are over the whole op, each instance computes only \
                         what that iteration of `{0}` reads",
                        model.funcs[*consumer].name
                    ),
                },
                Placement::Inline { .. } => {
                    "compute_inline: fused into every op that reads it".to_string()
                }
            },
            stages: f
                .stages
                .iter()
                .enumerate()
                .map(|(index, stage)| StageView {
                    binding: binding(schedule, stage, info),
                    steps: model
                        .trace
                        .iter()
                        .filter(|t| t.func == func && t.stage == index)
                        .map(|t| {
                            let (line, column) = schedule.line_column(t.span.start);
                            StepView {
                                location: format!("{}:{line}:{column}", schedule.name),
                                directive: schedule.slice(t.span).to_string(),
                                loops: views(stage, &t.loops, None),
                            }
                        })
                        .collect(),
                    loops: views(stage, &stage.loops, Some((model, func, index))),
                })
                .collect(),
        })
        .collect();
    Explanation {
        schedule: schedule.name.clone(),
        payload: payload.to_string(),
        funcs,
        generated: Vec::new(),
        absent: Vec::new(),
    }
}

fn ir_view(l: &payload::loops::IrLoop) -> IrLoopView {
    IrLoopView {
        kind: l.kind.clone(),
        names: l.names.clone(),
        iterations: l.iterations,
        parallel: l.parallel,
        inner: l.inner.iter().map(ir_view).collect(),
        vectors: l.vectors.clone(),
    }
}

/// Every `(stage, loop name)` the generated loops carry (`relu: n, y, xo`).
fn generated_names(loops: &[IrLoopView], out: &mut Vec<(String, String)>) {
    for l in loops {
        if let Some((stage, names)) = l.names.as_deref().and_then(|n| n.split_once(": ")) {
            out.extend(
                names
                    .split(", ")
                    .map(|n| (stage.to_string(), n.to_string())),
            );
        }
        generated_names(&l.inner, out);
    }
}

/// The requested loops no generated loop carries, and why.
fn absent(model: &Model, generated: &[FunctionLoops]) -> Vec<Absent> {
    let mut found = Vec::new();
    for function in generated {
        generated_names(&function.loops, &mut found);
    }
    let mut absent = Vec::new();
    for func in &model.funcs {
        let inlined = matches!(func.placement, Placement::Inline { .. });
        let computed_at = match &func.placement {
            Placement::At {
                consumer,
                loop_name,
                ..
            } if func.stored_at.is_some() => Some(format!(
                "computed in a sliding window inside `{}`'s `{loop_name}`: the rows one tile \
                 computes (the first ones before `{loop_name}`, the step's in it) are one tile",
                model.funcs[*consumer].name
            )),
            Placement::At {
                consumer,
                loop_name,
                ..
            } => Some(format!(
                "computed inside `{}`'s `{loop_name}`, over the part one iteration reads: \
                 folded, or kept in the op's tile",
                model.funcs[*consumer].name
            )),
            _ => None,
        };
        for stage in &func.stages {
            let label = if stage.is_update {
                format!("{}.update()", func.name)
            } else {
                func.name.clone()
            };
            let accelerated = stage.accelerate.as_ref().map(|a| a.loop_name.clone());
            let kernel_from = match &accelerated {
                Some(Some(name)) => stage.find_loop(name).map(|r| r.end),
                Some(None) => Some(0),
                None => None,
            };
            for (index, l) in stage.loops.iter().enumerate() {
                if found
                    .iter()
                    .any(|(s, n)| *s == label && n == l.visible_name())
                {
                    continue;
                }
                let why = if inlined {
                    "the func is inlined into its readers"
                } else if kernel_from.is_some_and(|from| index >= from) {
                    "inside the accelerator's tile: the kernel's loops"
                } else if l.vectorize.is_some() {
                    "vectorized: in the vector ops"
                } else if l.unroll.is_some() {
                    "unrolled"
                } else if let Some(why) = &computed_at {
                    why
                } else if l.trip_count(stage.dims[l.dim].extent) == Some(1) {
                    "one iteration: folded away"
                } else {
                    "kept in the op's tile: one of the loops lowering makes"
                };
                absent.push(Absent {
                    func: label.clone(),
                    name: l.visible_name().to_string(),
                    why: why.to_string(),
                });
            }
        }
    }
    absent
}

/// The loops of `stage` (`loops`, outermost first) as shown; with the model,
/// the func and the stage's index, what happens at each loop too.
fn views(stage: &Stage, loops: &[Loop], at: Option<(&Model, usize, usize)>) -> Vec<LoopView> {
    loops
        .iter()
        .map(|l| {
            let dim = &stage.dims[l.dim];
            let covered = l.tile.or(dim.extent);
            let mut marks = Vec::new();
            for (mark, word) in [
                (l.parallel, "parallel"),
                (l.vectorize, "vectorized"),
                (l.unroll, "unrolled"),
                (l.rfactor, "rfactor (partial reductions)"),
            ] {
                if mark.is_some() {
                    marks.push(word.to_string());
                }
            }
            if let Some(fused) = &l.fused {
                marks.push(format!("fused into `{}`", fused.name));
            }
            if !dim.joined.is_empty() && l.name == dim.name {
                let joined: Vec<String> = dim.joined.iter().map(|d| format!("`{d}`")).collect();
                marks.push(format!("{} as one dimension", joined.join(" and ")));
            }
            let here = at.map_or(Vec::new(), |(model, func, index)| {
                let last = index + 1 == model.funcs[func].stages.len();
                here(model, func, last, stage, l)
            });
            LoopView {
                name: l.name.clone(),
                dimension: dim.name.clone(),
                extent: dim.extent,
                iterations: l.trip_count(dim.extent),
                step: l.step,
                partial: covered.is_some_and(|c| c % l.step != 0),
                marks,
                here,
            }
        })
        .collect()
}

/// What the schedule does at the start of each iteration of loop `l` of
/// `stage`; funcs are computed at the loops of a func's last stage.
fn here(model: &Model, func: usize, last_stage: bool, stage: &Stage, l: &Loop) -> Vec<String> {
    let name = l.visible_name();
    let mut here = Vec::new();
    if last_stage {
        for other in &model.funcs {
            if matches!(&other.placement, Placement::At { consumer, loop_name, .. }
                if *consumer == func && loop_name == name)
            {
                here.push(format!("computes `{}`", other.name));
            }
            if let (Placement::At { consumer, .. }, Some(stored)) =
                (&other.placement, &other.stored_at)
            {
                if *consumer == func && stored.loop_name == name {
                    here.push(format!("keeps `{}`'s sliding window", other.name));
                }
            }
        }
    }
    for reuse in stage.reuse_buffers.iter().filter(|r| r.loop_name == name) {
        if reuse.computing.is_none() {
            here.push(format!("reuse buffer of `{}`", reuse.input_name));
        }
    }
    for pack in stage.packs.iter().filter(|p| p.loop_name == name) {
        here.push(match &pack.innermost {
            Some(innermost) => format!(
                "packs in{} with `{}` innermost",
                pack.written, stage.dims[innermost.dim].name
            ),
            None => format!("packs in{}", pack.written),
        });
    }
    for prefetch in stage.prefetches.iter().filter(|p| p.loop_name == name) {
        here.push(format!(
            "prefetches in{} for the next iteration",
            prefetch.written
        ));
    }
    if let Some(accelerate) = &stage.accelerate {
        if accelerate.loop_name.as_deref() == Some(name) {
            here.push(format!("one call of accelerator `{}`", accelerate.target));
        }
    }
    here
}

fn render(explanation: &Explanation) -> String {
    let mut out = requested(explanation);
    let _ = writeln!(
        out,
        "The generated loops (the transformed payload's scf.for and scf.forall, with the \
         schedule's names):"
    );
    for function in &explanation.generated {
        let _ = writeln!(out, "  @{}", function.function);
        write_vectors(&mut out, &function.vectors, 4);
        write_ir(&mut out, &function.loops, 4);
    }
    if !explanation.absent.is_empty() {
        let _ = writeln!(out, "Requested loops that are no loop of the generated IR:");
        for a in &explanation.absent {
            let _ = writeln!(out, "  {}: {}: {}", a.func, a.name, a.why);
        }
    }
    out
}

fn write_ir(out: &mut String, loops: &[IrLoopView], indent: usize) {
    for l in loops {
        let pad = " ".repeat(indent);
        let names = l.names.as_deref().map_or(
            "(not a schedule loop: a pack's copy, a remainder or a cleanup's)".to_string(),
            str::to_string,
        );
        let iterations = l
            .iterations
            .map_or("? iterations".to_string(), |n| format!("{n} iterations"));
        let parallel = if l.parallel { ", parallel" } else { "" };
        let _ = writeln!(out, "{pad}{} {names}  ({iterations}{parallel})", l.kind);
        write_vectors(out, &l.vectors, indent + 2);
        write_ir(out, &l.inner, indent + 2);
    }
}

/// The vector values computed at this level: where the vectorized loops went.
fn write_vectors(out: &mut String, vectors: &[String], indent: usize) {
    if !vectors.is_empty() {
        let _ = writeln!(
            out,
            "{}vector ops on {}",
            " ".repeat(indent),
            vectors.join(", ")
        );
    }
}

/// The requested nests, func by func.
fn requested(explanation: &Explanation) -> String {
    let mut out = String::new();
    for func in &explanation.funcs {
        let _ = writeln!(out, "func {}: {}", func.name, func.placement);
        for stage in &func.stages {
            let _ = writeln!(out, "  {}", stage.binding);
            if stage.steps.is_empty() {
                let _ = writeln!(out, "  (no directives: the op's loops, in linalg order)");
            }
            for step in &stage.steps {
                let _ = writeln!(out, "  {}: {}", step.location, step.directive);
                write_nest(&mut out, &step.loops, 4);
            }
            if !stage.steps.is_empty() || stage.loops.iter().any(|l| !l.here.is_empty()) {
                let _ = writeln!(out, "  in the end:");
            }
            write_nest(&mut out, &stage.loops, 4);
        }
        out.push('\n');
    }
    out
}

fn write_nest(out: &mut String, loops: &[LoopView], indent: usize) {
    for (depth, l) in loops.iter().enumerate() {
        let pad = " ".repeat(indent + 2 * depth);
        let iterations = l.iterations.map_or("?".to_string(), |n| n.to_string());
        let mut line = format!("{pad}for {} in {iterations}", l.name);
        let mut about = Vec::new();
        if l.name != l.dimension || l.step != 1 {
            about.push(match l.step {
                1 => l.dimension.clone(),
                step => format!("{} by {step}", l.dimension),
            });
        }
        if l.partial {
            about.push("last tile partial".to_string());
        }
        if !about.is_empty() {
            let _ = write!(line, "  ({})", about.join(", "));
        }
        for mark in &l.marks {
            let _ = write!(line, "  {mark}");
        }
        let _ = writeln!(out, "{line}");
        for what in &l.here {
            let _ = writeln!(out, "{pad}  - {what}");
        }
    }
}
