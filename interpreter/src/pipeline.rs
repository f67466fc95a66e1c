//! The whole way from text to transformed IR, as `sched-apply` runs it:
//! parse the schedule, load and describe the payload, resolve, plan, render
//! the script and (optionally) apply it. Every failure comes back as rendered
//! diagnostics that name the file, line and column.

use crate::collapse::collapse_stages;
use crate::failure::Failure;
use crate::inline::{inline_funcs, Inlined};
pub use crate::mlir_report::render_on_payload;
use crate::mlir_report::{apply_failure, render_located};
use crate::plan::{plan_with, PlanOptions};
use melior::ir::Module;
use melior::Context;
use payload::transform::apply_script;
use payload::PayloadInfo;
use schedule_lang::{render_all_diagnostics, Diagnostic, SourceFile, VectorUnit};
use std::time::Instant;

/// What a schedule is checked and planned for: the CPU's vector unit (its
/// register tiles are counted in its registers) and the accelerators
/// `accelerate` may name.
#[derive(Clone, Copy, Debug)]
pub struct Machine<'a> {
    /// The vector unit.
    pub vector_unit: VectorUnit,
    /// The accelerators `accelerate` may name: only these (a caller that
    /// offers the built-in ones lists them, as `sched-apply` does).
    pub accelerators: &'a [microkernels::Target],
}

impl Machine<'static> {
    /// This machine's vector unit ([`VectorUnit::host`]) and no
    /// accelerator.
    pub fn host() -> Self {
        Machine {
            vector_unit: VectorUnit::host(),
            accelerators: &[],
        }
    }
}

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

/// Runs the pipeline on a schedule and a payload given as text, for
/// `machine`.
pub fn run(
    schedule: &SourceFile,
    payload_name: &str,
    payload_text: &str,
    stop: Stop,
    machine: &Machine<'_>,
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
    run_loaded(schedule, payload, stop, machine)
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

/// A payload parsed once in a caller's context, to plan many schedules on
/// (`sched-apply tune` checks thousands of candidates): each run works on a
/// copy of the module, so neither the context nor the parse is paid again.
pub struct Parsed<'c> {
    context: &'c Context,
    module: Module<'c>,
    name: String,
    text: String,
}

impl<'c> Parsed<'c> {
    /// Parses `text` (named `name` in messages) in `context`.
    pub fn new(context: &'c Context, name: &str, text: &str) -> Result<Self, Failure> {
        let module = payload::parse_module(context, name, text)
            .map_err(|error| Failure::of_kind(error.kind, error.message))?;
        Ok(Self::of_module(context, module, name, text))
    }

    /// `module`, parsed by the caller from `text` in `context`.
    pub fn of_module(context: &'c Context, module: Module<'c>, name: &str, text: &str) -> Self {
        Parsed {
            context,
            module,
            name: name.to_string(),
            text: text.to_string(),
        }
    }

    /// The module as parsed (runs work on copies of it).
    pub fn module(&self) -> &Module<'c> {
        &self.module
    }

    /// [`run`] on a copy of the payload, up to `stop`.
    pub fn run(&self, schedule: &SourceFile, stop: Stop) -> Result<Outcome, Failure> {
        let start = Instant::now();
        let mut module = payload::ffi::clone_module(&self.module).ok_or_else(|| {
            Failure::Internal(format!("internal error: {} could not be copied", self.name))
        })?;
        let payload = Loaded {
            context: self.context,
            module: &mut module,
            name: &self.name,
            text: &self.text,
            since: start,
        };
        run_loaded(schedule, payload, stop, &Machine::host())
    }
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
    machine: &Machine<'_>,
) -> Result<Outcome, Failure> {
    let Loaded {
        context,
        module,
        name: payload_name,
        text: payload_text,
        since: start,
    } = payload;
    let mut times = PhaseTimes::default();
    let (info, model) = resolve(schedule, context, module, payload_name, machine.vector_unit)?;
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
    let inlined = payload_phases(context, module, info, model, schedule)?;
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
    let mut planned = plan_with(
        planned_model,
        planned_info,
        schedule,
        machine.accelerators,
        options,
    )
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
            // The failure is traced by applying parts of the script to what
            // it applied to: the payload as loaded and inlined, loaded again
            // (the module itself is half transformed now).
            let reloaded = match inlined_text {
                Some(text) => Some(text),
                None if inlined.is_some() || loaded_from_tosa => {
                    reloaded_and_inlined(context, (payload_name, payload_text), &outcome, schedule)
                }
                None => None,
            };
            let payload = (payload_name, reloaded.as_deref().unwrap_or(payload_text));
            Err(apply_failure(error, &planned, schedule, payload))
        }
    }
}

/// The phases that rewrite the payload before the script: the inline phase
/// (`compute_inline`), then the collapse phase (`fuse` of whole loops);
/// `None` when neither changed it.
fn payload_phases(
    context: &melior::Context,
    module: &mut Module<'_>,
    info: &PayloadInfo,
    model: &schedule_lang::Model,
    schedule: &SourceFile,
) -> Result<Option<Inlined>, Failure> {
    let inlined = inline_funcs(context, module, info, model, schedule)?;
    let (model, info) = match &inlined {
        Some(inlined) => (&inlined.model, &inlined.info),
        None => (model, info),
    };
    Ok(collapse_stages(context, module, info, model, schedule)?.or(inlined))
}

/// The payload's text as the script sees it, for tracing a failure: loaded
/// afresh (a TOSA payload lowered) and with the schedule's `compute_inline`s
/// done, as [`run_loaded`] did before applying the script; `None` if that
/// fails this time.
fn reloaded_and_inlined(
    context: &melior::Context,
    (payload_name, payload_text): (&str, &str),
    outcome: &Outcome,
    schedule: &SourceFile,
) -> Option<String> {
    let mut module = payload::parse_module(context, payload_name, payload_text).ok()?;
    payload_phases(
        context,
        &mut module,
        &outcome.info,
        &outcome.model,
        schedule,
    )
    .ok()?;
    Some(payload::ffi::print_module(&module))
}

/// The schedule parsed, the payload described, and the schedule resolved
/// against it; a syntax error stops before resolving (names declared on
/// broken lines are unknown, so resolving would only repeat it).
fn resolve(
    schedule: &SourceFile,
    context: &Context,
    module: &Module<'_>,
    payload_name: &str,
    unit: VectorUnit,
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
    let model = schedule_lang::resolve_for(&file, &info, unit)
        .map_err(|errors| Failure::Input(render_all_diagnostics(&errors, schedule)))?;
    Ok((info, model))
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
