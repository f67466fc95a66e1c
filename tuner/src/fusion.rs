//! The one decision made on the whole model: elementwise ops (batch
//! norms' steps, residual adds, activations) inlined into the ops reading
//! them (Halide's default), kind by kind where the schedule still checks,
//! kept only when the whole model, measured both ways, is faster so.

use crate::measure::Measurer;
use crate::write::{schedule_text, Header};
use crate::TaskResult;
use interpreter::pipeline::{self, Stop};
use schedule_lang::{PayloadInfo, SourceFile};

/// The whole model's time with the elementwise kinds inlined and without.
pub struct Decision {
    /// Kinds of op inlined, if kept.
    pub inlined: usize,
    /// Seconds of the whole model with them inlined, and without.
    pub with: f64,
    pub without: f64,
}

/// Whether `schedule` checks (resolves and plans, inlining included) against the payload.
fn checks(schedule: &str, payload_name: &str, payload_text: &str) -> bool {
    let source = SourceFile::new("(tuned schedule)", schedule);
    matches!(
        pipeline::run(&source, payload_name, payload_text, Stop::Plan, &[]),
        Ok(outcome) if outcome.warnings.is_empty()
    )
}

/// Marks each elementwise generic's kind inlined where the schedule still
/// checks, measures the model both ways and keeps the faster; `None` when
/// no kind could be inlined.
pub fn inline_elementwise(
    info: &PayloadInfo,
    results: &mut [TaskResult],
    payload_name: &str,
    payload_text: &str,
    header: &Header,
    measurer: &mut dyn Measurer,
) -> Result<Option<Decision>, String> {
    let elementwise: Vec<usize> = (0..results.len())
        .filter(|&i| {
            let task = &results[i].task;
            task.kind == "linalg.generic"
                && !task.reduction.contains(&true)
                && results[i].conditions.is_some()
        })
        .collect();
    let mut inlined = Vec::new();
    for &i in &elementwise {
        results[i].inlined = true;
        if checks(&schedule_text(info, results, header), payload_name, payload_text) {
            inlined.push(i);
        } else {
            results[i].inlined = false;
        }
    }
    if inlined.is_empty() {
        return Ok(None);
    }
    let with_text = schedule_text(info, results, header);
    let with = measurer.measure("(model)", payload_text, &with_text)?;
    for &i in &inlined {
        results[i].inlined = false;
    }
    let without_text = schedule_text(info, results, header);
    let without = measurer.measure("(model)", payload_text, &without_text)?;
    let keep = with.seconds < without.seconds;
    for &i in &inlined {
        results[i].inlined = keep;
    }
    Ok(Some(Decision {
        inlined: if keep { inlined.len() } else { 0 },
        with: with.seconds,
        without: without.seconds,
    }))
}
