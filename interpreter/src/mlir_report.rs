//! How MLIR's failures while applying a script are reported: each message
//! shown at its place in the schedule or the payload, with what happened
//! said in the schedule's terms where MLIR's own words do not (an op folded
//! away, a tile dropped before `vectorize`), and a failure MLIR located only
//! in the payload traced to its directive by bisection.

use crate::failure::Failure;
use payload::transform::{apply_script, ApplyError};
use payload::MlirMessage;
use schedule_lang::{Diagnostic, SourceFile};

/// Why applying the script failed, rendered: ours when the script does not
/// parse or the result does not verify; the input's when MLIR refused a
/// step, located at the directive (found by bisection on `payload`, name
/// and text, when MLIR's messages point only into the payload).
pub(crate) fn apply_failure(
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
        "nothing left to vectorize: MLIR's cleanups dropped this op's tile before this \
         directive reached it, so the op would run as scalar code (up to 50x slower)"
            .to_string(),
    )
    .with_help(
        "this is a gap in sched-apply's planner, which avoids the cases it knows (a forall with \
         one iteration along some of its loops); please report the schedule. Meanwhile: give \
         the loops of this tile more than one iteration (another split factor), or leave this \
         directive out",
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
pub(crate) fn render_located(
    message: &MlirMessage,
    schedule: &SourceFile,
    payload_name: &str,
) -> String {
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
