//! The whole way from text to transformed IR, as `sched-apply` runs it:
//! parse the schedule, load and describe the payload, resolve, plan, render
//! the script and (optionally) apply it. Every failure comes back as rendered
//! diagnostics that name the file, line and column.

use crate::failure::Failure;
use crate::inline::inline_funcs;
use crate::plan::{plan_with, PlanOptions};
use melior::ir::Module;
use melior::Context;
use payload::transform::{apply_script, ApplyError};
use payload::{MlirMessage, PayloadInfo};
use schedule_lang::{render_all_diagnostics, Diagnostic, SourceFile};
use std::time::Instant;

/// What a successful run produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The transform script (standalone module).
    pub script: String,
    /// The transformed payload, when it was applied.
    pub payload: Option<String>,
    /// Warnings and remarks MLIR printed while applying.
    pub remarks: Vec<String>,
    /// The schedule's own warnings (directives that do nothing), rendered
    /// with their locations; empty when there are none.
    pub warnings: Vec<String>,
    /// The schedule's notes (what a directive does not do here), rendered.
    pub notes: Vec<String>,
    /// Seconds spent in each phase.
    pub times: PhaseTimes,
    /// The payload's structured ops, as the schedule was resolved against them.
    pub info: PayloadInfo,
    /// The resolved schedule, against `info`.
    pub model: schedule_lang::Model,
    /// The payload after the loading and inline phases, which the script
    /// applies to, when they changed it: a TOSA payload lowered to linalg, a
    /// func inlined (`compute_inline`). Printed only by a run that stops
    /// after planning ([`Stop::Plan`]).
    pub inlined: Option<String>,
}

/// Wall-clock seconds per phase (0 for phases not run).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhaseTimes {
    /// Parsing the schedule and payload, describing and resolving.
    pub resolve_s: f64,
    /// Planning and rendering the transform script.
    pub plan_s: f64,
    /// Applying the script with the transform interpreter.
    pub apply_s: f64,
}

/// How far to go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Parse and resolve only (`sched-apply check`).
    Check,
    /// Also plan the script.
    Plan,
    /// Also plan the script, with upstream MLIR's ops only (an error when
    /// the schedule needs one of our own).
    PlanPortable,
    /// Also apply it to the payload.
    Apply,
    /// Apply a script that also names every loop it makes with the
    /// schedule's loop names (`sched.loop`), for `explain`.
    ApplyNamingLoops,
    /// Apply it, and print the payload with every op's location (the
    /// payload lines its ops came from), for `profile`.
    ApplyKeepingLocations,
}

/// Runs the pipeline on a schedule and a payload given as text; `targets`
/// are the accelerators `accelerate` may name.
pub fn run(
    schedule: &SourceFile,
    payload_name: &str,
    payload_text: &str,
    stop: Stop,
    targets: &[microkernels::Target],
) -> Result<Outcome, Failure> {
    let start = Instant::now();
    let context = payload::new_context();
    let mut module = load_payload(&context, schedule, payload_name, payload_text)?;
    let payload = Loaded {
        context: &context,
        module: &mut module,
        name: payload_name,
        text: payload_text,
        since: start,
    };
    run_loaded(schedule, payload, stop, targets)
}

/// A payload the caller loaded ([`payload::parse_module`]), handed down so
/// it is parsed once per command: after [`run_loaded`] the module is the
/// transformed payload, ready to compile.
pub struct Loaded<'a, 'c> {
    /// The context it was parsed in.
    pub context: &'c Context,
    /// The module, transformed in place.
    pub module: &'a mut Module<'c>,
    /// Its name in messages.
    pub name: &'a str,
    /// The text it was parsed from.
    pub text: &'a str,
    /// When loading began: the resolve phase's time counts from there.
    pub since: Instant,
}

/// The payload parsed, or its error rendered after the schedule's syntax
/// errors (both are shown when both files are broken).
fn load_payload<'c>(
    context: &'c Context,
    schedule: &SourceFile,
    payload_name: &str,
    payload_text: &str,
) -> Result<Module<'c>, Failure> {
    payload::parse_module(context, payload_name, payload_text).map_err(|error| {
        let (_, diagnostics) = schedule_lang::parse(&schedule.text);
        let mut text = String::new();
        if !diagnostics.is_empty() {
            text.push_str(&render_all_diagnostics(&diagnostics, schedule));
            text.push('\n');
        }
        text.push_str(&format!(
            "{}: error: {}\n",
            payload_name,
            error
                .message
                .trim_start_matches(&format!("{payload_name}: "))
        ));
        let payload_source = SourceFile::new(payload_name, payload_text);
        for message in &error.diagnostics {
            text.push_str(&render_on_payload(message, &payload_source));
        }
        Failure::of_kind(error.kind, text)
    })
}

/// [`run`] on a payload already loaded: the schedule parsed, resolved
/// against it, planned and (as `stop` says) applied to it in place.
pub fn run_loaded(
    schedule: &SourceFile,
    payload: Loaded<'_, '_>,
    stop: Stop,
    targets: &[microkernels::Target],
) -> Result<Outcome, Failure> {
    let Loaded {
        context,
        module,
        name: payload_name,
        text: payload_text,
        since: start,
    } = payload;
    let mut times = PhaseTimes::default();
    let (info, model) = resolve(schedule, context, module, payload_name)?;
    let mut outcome = Outcome {
        script: String::new(),
        payload: None,
        remarks: Vec::new(),
        warnings: model.warnings.iter().map(|w| w.render(schedule)).collect(),
        notes: model.notes.iter().map(|n| n.render(schedule)).collect(),
        times,
        info,
        model,
        inlined: None,
    };
    if stop == Stop::Check {
        return Ok(outcome);
    }
    let (info, model) = (&outcome.info, &outcome.model);
    times.resolve_s = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let inlined = inline_funcs(context, module, info, model, schedule)?;
    // The script applies to the module as loaded (a TOSA payload is lowered
    // to linalg then; its text names a `tosa.` op) and inlined.
    let loaded_from_tosa = payload_text.contains("tosa.");
    // Printed only where it is shown (`--emit inlined` stops after planning):
    // a frozen model's weights make it tens of megabytes.
    let inlined_text = (stop == Stop::Plan && (inlined.is_some() || loaded_from_tosa))
        .then(|| payload::ffi::print_module(module));
    let (planned_model, planned_info) = match &inlined {
        Some(inlined) => (&inlined.model, &inlined.info),
        None => (model, info),
    };
    let options = PlanOptions {
        name_loops: stop == Stop::ApplyNamingLoops,
    };
    let mut planned = plan_with(planned_model, planned_info, schedule, targets, options)
        .map_err(|errors| Failure::Input(render_all_diagnostics(&errors, schedule)))?;
    if stop == Stop::PlanPortable {
        planned = planned
            .portable()
            .map_err(|(op, location)| Failure::Input(not_portable(&op, location, schedule)))?;
    }
    outcome.script = planned.render();
    times.plan_s = start.elapsed().as_secs_f64();
    outcome.times = times;
    if matches!(stop, Stop::Plan | Stop::PlanPortable) {
        outcome.inlined = inlined_text;
        return Ok(outcome);
    }
    let start = Instant::now();
    match apply_script(context, module, &outcome.script) {
        Ok(messages) => {
            outcome.times.apply_s = start.elapsed().as_secs_f64();
            outcome.remarks = messages
                .iter()
                .map(|m| render_located(m, schedule, payload_name))
                .collect();
            outcome.payload = Some(if stop == Stop::ApplyKeepingLocations {
                payload::ffi::print_with_locations(module)
            } else {
                payload::ffi::print_module(module)
            });
            Ok(outcome)
        }
        Err(error) => {
            let applied_to = inlined_text.as_deref().unwrap_or(payload_text);
            let payload = (payload_name, applied_to);
            Err(apply_failure(error, &planned, schedule, payload))
        }
    }
}

/// The schedule parsed, the payload described, and the schedule resolved
/// against it; a syntax error stops before resolving (names declared on
/// broken lines are unknown, so resolving would only repeat it).
fn resolve(
    schedule: &SourceFile,
    context: &Context,
    module: &Module<'_>,
    payload_name: &str,
) -> Result<(PayloadInfo, schedule_lang::Model), Failure> {
    let (file, diagnostics) = schedule_lang::parse(&schedule.text);
    if !diagnostics.is_empty() {
        return Err(Failure::Input(render_all_diagnostics(
            &diagnostics,
            schedule,
        )));
    }
    let info = payload::describe(context, module, payload_name)
        .map_err(|error| Failure::Internal(error.to_string()))?;
    let model = schedule_lang::resolve(&file, &info)
        .map_err(|errors| Failure::Input(render_all_diagnostics(&errors, schedule)))?;
    Ok((info, model))
}

/// Why applying the script failed, rendered: ours when the script does not
/// parse or the result does not verify; the input's when MLIR refused a
/// step, located at the directive (found by bisection on `payload`, name
/// and text, when MLIR's messages point only into the payload).
fn apply_failure(
    error: ApplyError,
    planned: &crate::script::Script,
    schedule: &SourceFile,
    payload: (&str, &str),
) -> Failure {
    let (payload_name, payload_text) = payload;
    match error {
        ApplyError::BadScript(messages, what) => {
            let mut text = format!("internal error: {what}\n");
            for message in &messages {
                text.push_str(&format!("{message}\n"));
            }
            Failure::Internal(text)
        }
        ApplyError::Failed(messages) => {
            let mut text = String::from("error: MLIR could not apply the schedule\n");
            for message in &messages {
                text.push_str(&render_located(message, schedule, payload_name));
            }
            text.push_str(&explain_folded_away(&messages, schedule, payload_name));
            text.push_str(&explain_vanished_tile(&messages, schedule));
            if !messages.iter().any(|m| located_in(m, &schedule.name)) {
                text.push_str(&locate_failure(
                    planned,
                    schedule,
                    payload_name,
                    payload_text,
                ));
            }
            Failure::Input(text)
        }
        ApplyError::Invalid(messages) => {
            let mut text =
                String::from("internal error: the transformed payload does not verify\n");
            for message in &messages {
                text.push_str(&format!("{}\n", render_mlir_message(message, payload_name)));
            }
            Failure::Internal(text)
        }
    }
}

/// Why a script cannot be upstream-only: `op` is ours, made for the
/// directive at `location`.
fn not_portable(op: &str, location: Option<(usize, usize)>, schedule: &SourceFile) -> String {
    let (line, column) = location.unwrap_or((1, 1));
    let start = schedule.offset(line, column);
    let error = Diagnostic::error(
        "not-portable",
        schedule_lang::Span::new(start as usize, start as usize + 1),
        format!(
            "this directive needs `{op}`, our own transform op: upstream MLIR has none like it"
        ),
    )
    .with_help(
        "emit the script without --portable and run it with the plugin: `mlir-opt \
         --load-dialect-plugin=$(sched-apply plugin) --transform-interpreter`",
    );
    render_all_diagnostics(&[error], schedule)
}

/// When a cleanup step's canonicalization erased an op a handle still
/// named (an op whose body returns an input unchanged, such as `x * 1.0`,
/// folds away), MLIR says only that the tracking listener found no
/// replacement: this says what happened, at the binding of the handle.
fn explain_folded_away(
    messages: &[MlirMessage],
    schedule: &SourceFile,
    payload_name: &str,
) -> String {
    fn notes(message: &MlirMessage) -> Vec<&MlirMessage> {
        std::iter::once(message)
            .chain(message.notes.iter().flat_map(notes))
            .collect()
    }
    let all: Vec<&MlirMessage> = messages.iter().flat_map(notes).collect();
    let folded = all.iter().any(|m| {
        m.message
            .contains("tracking listener failed to find replacement op")
    }) && all
        .iter()
        .any(|m| m.message.contains("ran out of suitable replacement values"));
    let binding = all.iter().find_map(|m| match m.file_line_column() {
        Some((file, line, column))
            if file == schedule.name && m.message.contains("this handle must be updated") =>
        {
            Some(schedule.offset(line, column) as usize)
        }
        _ => None,
    });
    let (true, Some(offset)) = (folded, binding) else {
        return String::new();
    };
    // The payload ops MLIR could not find a replacement for, by location.
    let mut replaced: Vec<String> = all
        .iter()
        .filter(|m| m.message.contains("replaced op"))
        .filter_map(|m| {
            m.file_line_column().map(|(file, line, column)| {
                let file = if file == "-" || file.is_empty() {
                    payload_name.to_string()
                } else {
                    file
                };
                format!("{file}:{line}:{column}")
            })
        })
        .collect();
    replaced.sort();
    replaced.dedup();
    let mut diagnostic = Diagnostic::error(
        "op-folded-away",
        schedule_lang::Span::new(offset, offset + 1),
        "this op was folded away by MLIR's cleanups before its schedule was done: its body \
         returns an input unchanged (a copy or broadcast, or such as `x * 1.0` or `x + 0.0`), so \
         the op, or its tile once unit dimensions are dropped, is an identity and there is \
         nothing left to schedule"
            .to_string(),
    );
    if !replaced.is_empty() {
        let ops = if replaced.len() == 1 { "op" } else { "ops" };
        diagnostic = diagnostic.with_note(
            None,
            format!("the folded payload {ops}: {}", replaced.join(", ")),
        );
    }
    diagnostic
        .with_help(
            "drop this func's directives, or the op from the payload; for a func of many ops, \
             leave such ops out with `where body != copy`",
        )
        .render(schedule)
}

/// When the check the planner puts before each `vectorize` failed (MLIR's
/// cleanups dropped the op's tile from its handle, so vectorize would have
/// silently done nothing), the error at that directive, saying so.
fn explain_vanished_tile(messages: &[MlirMessage], schedule: &SourceFile) -> String {
    let at = messages.iter().find_map(|m| match m.file_line_column() {
        Some((file, line, column))
            if file == schedule.name
                && m.message
                    .contains("expected parameter to be greater than 0, got 0") =>
        {
            Some(schedule.offset(line, column) as usize)
        }
        _ => None,
    });
    let Some(offset) = at else {
        return String::new();
    };
    Diagnostic::error(
        TILE_VANISHED,
        schedule_lang::Span::new(offset, offset + 1),
        "nothing left to vectorize: MLIR's cleanups (folding unit dimensions) dropped this op's \
         tile before this directive reached it, so the op would run as scalar code (50x slower \
         in the case found: `pack` at a loop of one iteration, with a loop around it)"
            .to_string(),
    )
    .with_help(
        "give the loops of this tile more than one iteration (a smaller split factor), pack at \
         another loop, or leave this directive out; `check` does not predict this yet",
    )
    .render(schedule)
}

/// The code of the error [`explain_vanished_tile`] reports.
pub const TILE_VANISHED: &str = "tile-vanished";

/// Whether a message or one of its notes points into the file `name`.
fn located_in(message: &MlirMessage, name: &str) -> bool {
    matches!(message.file_line_column(), Some((file, _, _)) if file == name)
        || message.notes.iter().any(|note| located_in(note, name))
}

/// When MLIR's messages about a failed script point only at the payload,
/// finds the first op whose script fails (applying ever longer prefixes of
/// the script to fresh copies of the payload, by bisection) and reports it
/// at the directive that op came from.
fn locate_failure(
    planned: &crate::script::Script,
    schedule: &SourceFile,
    payload_name: &str,
    payload_text: &str,
) -> String {
    let context = payload::new_context();
    let fails = |ops: usize| match payload::parse_module(&context, payload_name, payload_text) {
        Ok(mut module) => matches!(
            apply_script(&context, &mut module, &planned.render_prefix(ops)),
            Err(ApplyError::Failed(_))
        ),
        Err(_) => false,
    };
    // The whole script fails; find the shortest prefix that does.
    let (mut good, mut bad) = (0, planned.op_count());
    if fails(good) || !fails(bad) {
        return String::new();
    }
    while bad - good > 1 {
        let middle = good + (bad - good) / 2;
        if fails(middle) {
            bad = middle;
        } else {
            good = middle;
        }
    }
    // Op `bad - 1` failed; the nearest op at or before it with a location
    // names the directive.
    let Some((name, _)) = planned.op_origin(bad - 1) else {
        return String::new();
    };
    let origin = (0..bad)
        .rev()
        .find_map(|i| planned.op_origin(i).and_then(|(_, at)| at));
    let Some((line, column)) = origin else {
        return String::new();
    };
    let offset = schedule.offset(line, column) as usize;
    let span = schedule_lang::Span::new(offset, offset + 1);
    Diagnostic::error(
        "mlir-failed-here",
        span,
        format!("MLIR failed on `{name}`, which this directive became"),
    )
    .with_help("`--emit transform` prints the script; the messages above say what MLIR found")
    .render(schedule)
}

/// Renders an MLIR message: on the `.sched` source when it points there, as MLIR printed it otherwise.
fn render_located(message: &MlirMessage, schedule: &SourceFile, payload_name: &str) -> String {
    let mut text = String::new();
    match message.file_line_column() {
        Some((file, line, column)) if file == schedule.name => {
            let offset = schedule.offset(line, column);
            let span = schedule_lang::Span::new(offset as usize, offset as usize + 1);
            let mut diagnostic =
                Diagnostic::error("mlir", span, format!("MLIR: {}", message.message));
            diagnostic.severity = severity(message.severity);
            text.push_str(&diagnostic.render(schedule));
        }
        _ => {
            text.push_str(&render_mlir_message(message, payload_name));
            text.push('\n');
        }
    }
    for note in &message.notes {
        text.push_str(&render_located(note, schedule, payload_name));
    }
    text
}

/// Renders an MLIR message about the payload text itself (parse and verify errors) with its source line.
pub fn render_on_payload(message: &MlirMessage, payload: &SourceFile) -> String {
    let mut text = match message.file_line_column() {
        // A source with no text (a bytecode payload) has no line to show.
        Some((file, line, column))
            if (file == "-" || file == payload.name) && !payload.text.is_empty() =>
        {
            let offset = schedule_lang_offset(payload, line, column);
            let mut diagnostic = Diagnostic::error(
                "mlir",
                schedule_lang::Span::new(offset, offset + 1),
                message.message.clone(),
            );
            diagnostic.severity = severity(message.severity);
            diagnostic.render(payload)
        }
        _ => format!("{}\n", render_mlir_message(message, &payload.name)),
    };
    for note in &message.notes {
        text.push_str(&render_on_payload(note, payload));
    }
    text
}

fn schedule_lang_offset(source: &SourceFile, line: usize, column: usize) -> usize {
    source.offset(line, column) as usize
}

fn severity(word: &str) -> schedule_lang::Severity {
    match word {
        "warning" => schedule_lang::Severity::Warning,
        "error" => schedule_lang::Severity::Error,
        _ => schedule_lang::Severity::Note,
    }
}

fn render_mlir_message(message: &MlirMessage, payload_name: &str) -> String {
    let place = match message.file_line_column() {
        Some((file, line, _)) if file == payload::transform::SCRIPT_SOURCE_NAME => {
            return format!(
                "{}: {} (in a cleanup step of the generated transform script, line {line}; \
                 `--emit transform` prints it)",
                message.severity, message.message
            );
        }
        Some((file, line, column)) => {
            let file = if file == "-" || file.is_empty() {
                payload_name.to_string()
            } else {
                file
            };
            format!("{file}:{line}:{column}")
        }
        None => payload_name.to_string(),
    };
    format!("{place}: {}: {}", message.severity, message.message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::{Script, ANY_OP};

    #[test]
    fn mlir_errors_at_schedule_locations_are_shown_on_the_schedule() {
        let schedule = SourceFile::new(
            "s.sched",
            "func mm = linalg.matmul (i, j | k)\nmm.vectorize(j, 16)\n",
        );
        let message = MlirMessage {
            severity: "error",
            location: "loc(\"s.sched\":2:4)".into(),
            message: "Attempted to vectorize, but failed".into(),
            notes: vec![MlirMessage {
                severity: "note",
                location: "loc(\"-\":3:8)".into(),
                message: "payload op".into(),
                notes: Vec::new(),
            }],
        };
        assert_eq!(
            render_located(&message, &schedule, "mm.mlir"),
            "s.sched:2:4: error: MLIR: Attempted to vectorize, but failed\n  |\n2 | mm.vectorize(j, 16)\n  |    ^\nmm.mlir:3:8: note: payload op\n"
        );
    }

    #[test]
    fn mlir_errors_in_unlocated_script_ops_name_the_script_line() {
        let message = MlirMessage {
            severity: "error",
            location: format!("loc(\"{}\":23:5)", payload::transform::SCRIPT_SOURCE_NAME),
            message: "tracking listener failed".into(),
            notes: Vec::new(),
        };
        assert_eq!(
            render_mlir_message(&message, "payload.mlir"),
            "error: tracking listener failed (in a cleanup step of the generated transform \
             script, line 23; `--emit transform` prints it)"
        );
    }

    /// A script whose third op fails on a payload op (a matmul with a dynamic
    /// dimension cannot be vectorized without vector sizes), with MLIR's message
    /// pointing only at the payload: the failure is found by bisection and
    /// reported at the directive the failing op came from.
    #[test]
    fn a_failure_located_in_the_payload_is_traced_to_its_directive() {
        let payload = "func.func @f(%a: tensor<?x8xf32>, %b: tensor<8x4xf32>, %c: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x4xf32>) outs(%c : tensor<?x4xf32>) -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}";
        let schedule = SourceFile::new(
            "s.sched",
            "func mm = linalg.matmul (i, j | k)\nmm.vectorize(j)\n",
        );
        let mut script = Script::new("s.sched");
        script.op(format!("%f = transform.structured.match ops{{[\"func.func\"]}} in %root : ({ANY_OP}) -> {ANY_OP}"), None);
        script.op(format!("%m = transform.structured.match ops{{[\"linalg.matmul\"]}} in %f : ({ANY_OP}) -> {ANY_OP}"), None);
        script.op(
            format!("transform.structured.vectorize %m : {ANY_OP}"),
            Some((2, 4)),
        );
        let context = payload::new_context();
        let mut module = payload::parse_module(&context, "p.mlir", payload).unwrap();
        let Err(ApplyError::Failed(messages)) =
            apply_script(&context, &mut module, &script.render())
        else {
            panic!("the script was expected to fail");
        };
        assert!(
            !messages.iter().any(|m| located_in(m, "s.sched")),
            "{messages:?}"
        );
        let report = locate_failure(&script, &schedule, "p.mlir", payload);
        assert!(
            report
                .starts_with("s.sched:2:4: error: MLIR failed on `transform.structured.vectorize`"),
            "{report}"
        );
    }
}
