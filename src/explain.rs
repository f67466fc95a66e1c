//! `sched-apply explain`: the loop nests a schedule asks for, as Halide's
//! `print_loop_nest` prints them. For each func, its binding, then the nest
//! after each directive (with the directive's `file:line:col` above it),
//! then the schedule as a whole: every func's final nest, with the funcs
//! computed at each loop, packs, prefetches and accelerator calls where they
//! happen. `--json` gives the same as data.

use crate::{read, read_schedule, report_warnings, Exit};
use interpreter::pipeline::{self, Stop};
use schedule_lang::model::{Loop, Model, Placement, Stage};
use schedule_lang::SourceFile;
use serde::Serialize;
use std::fmt::Write;
use std::path::Path;

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

/// The whole explanation.
#[derive(Serialize)]
struct Explanation {
    schedule: String,
    payload: String,
    funcs: Vec<FuncView>,
}

/// Runs `sched-apply explain`.
pub(crate) fn explain(
    payload_path: &Path,
    schedule_path: Option<&Path>,
    targets: &[std::path::PathBuf],
    json: bool,
) -> Result<(), Exit> {
    let schedule_path = match schedule_path {
        Some(path) => path.to_path_buf(),
        None => crate::default_schedule(payload_path)?,
    };
    let schedule = read_schedule(&schedule_path)?;
    let payload_text = read(payload_path)?;
    let targets = crate::targets::load(targets)?;
    let outcome = pipeline::run(
        &schedule,
        &payload_path.display().to_string(),
        &payload_text,
        Stop::Check,
        &targets,
    )?;
    report_warnings(&outcome.warnings, false)?;
    let explanation = explanation(
        &outcome.model,
        &schedule,
        &payload_path.display().to_string(),
    );
    let text = if json {
        serde_json::to_string_pretty(&explanation).expect("plain data serializes") + "\n"
    } else {
        render(&explanation)
    };
    crate::print_text(&text)
}

fn explanation(model: &Model, schedule: &SourceFile, payload: &str) -> Explanation {
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
                } => format!(
                    "compute_at({0}, {loop_name}): inside loop `{loop_name}` of `{0}`; the \
                     iterations below are over the whole op, each instance computes only what \
                     that iteration of `{0}` reads",
                    model.funcs[*consumer].name
                ),
                Placement::Inline { .. } => {
                    "compute_inline: fused into every op that reads it".to_string()
                }
            },
            stages: f
                .stages
                .iter()
                .enumerate()
                .map(|(index, stage)| StageView {
                    binding: schedule.slice(stage.span).to_string(),
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
                    loops: views(stage, &stage.loops, Some((model, func))),
                })
                .collect(),
        })
        .collect();
    Explanation {
        schedule: schedule.name.clone(),
        payload: payload.to_string(),
        funcs,
    }
}

/// The loops of `stage` (`loops`, outermost first) as shown; with the model,
/// what happens at each loop too.
fn views(stage: &Stage, loops: &[Loop], at: Option<(&Model, usize)>) -> Vec<LoopView> {
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
            let here = at.map_or(Vec::new(), |(model, func)| here(model, func, stage, l));
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

/// What the schedule does at the start of each iteration of loop `l`.
fn here(model: &Model, func: usize, stage: &Stage, l: &Loop) -> Vec<String> {
    let name = l.visible_name();
    let mut here = Vec::new();
    let last_stage = model.funcs[func]
        .stages
        .last()
        .is_some_and(|last| std::ptr::eq(last, stage));
    if last_stage {
        for other in &model.funcs {
            if matches!(&other.placement, Placement::At { consumer, loop_name, .. }
                if *consumer == func && loop_name == name)
            {
                here.push(format!("computes `{}`", other.name));
            }
        }
    }
    for pack in stage.packs.iter().filter(|p| p.loop_name == name) {
        here.push(format!("packs in{}", pack.operand));
    }
    for prefetch in stage.prefetches.iter().filter(|p| p.loop_name == name) {
        here.push(format!(
            "prefetches in{} for the next iteration",
            prefetch.operand
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
