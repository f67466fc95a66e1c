//! The one decision made on the whole model: elementwise ops (batch
//! norms' steps, residual adds, activations) and transposes (a weight's,
//! then read in place by its matmul) inlined into the ops reading
//! them (Halide's default), kind by kind where the schedule still checks,
//! kept unless the whole model, measured both ways, is slower so; when
//! it is, kind by kind. The
//! whole model's measurements are recorded too, keyed by its text's hash
//! and the schedule, so a second `tune` decides the same.

use crate::records::short_hash;
use crate::write::{schedule_text, Header};
use crate::{measured, plans_cleanly, Session, Subject, TaskResult};
use schedule_lang::PayloadInfo;
use std::time::Instant;

/// The whole model's time with the elementwise kinds inlined and without.
pub struct Decision {
    /// Kinds of op inlined.
    pub inlined: usize,
    /// Seconds of the whole model with every kind that checks inlined,
    /// with none, and as chosen.
    pub with: f64,
    pub without: f64,
    pub chosen: f64,
}

/// Marks each elementwise generic's kind inlined where the schedule still
/// checks and measures the model with all of them and with none; when all
/// is slower, tries them one by one until `deadline`. `None` when no kind
/// could be inlined.
pub fn inline_elementwise(
    info: &PayloadInfo,
    results: &mut [TaskResult],
    payload_name: &str,
    payload_text: &str,
    header: &Header,
    session: &mut Session<'_>,
    deadline: Instant,
) -> Result<Option<Decision>, String> {
    let elementwise: Vec<usize> = (0..results.len())
        .filter(|&i| {
            let task = &results[i].task;
            let elementwise = task.kind == "linalg.generic" && !task.reduction.contains(&true);
            (elementwise || task.kind == "linalg.transpose") && results[i].conditions.is_some()
        })
        .collect();
    let mut inlined = Vec::new();
    for &i in &elementwise {
        results[i].inlined = true;
        if plans_cleanly(
            &schedule_text(info, results, header),
            payload_name,
            payload_text,
        ) {
            inlined.push(i);
        } else {
            results[i].inlined = false;
        }
    }
    if inlined.is_empty() {
        return Ok(None);
    }
    let key = short_hash(payload_text, 8);
    let subject = Subject {
        key: &format!("model {key}"),
        description: payload_name,
    };
    let mut whole = |results: &[TaskResult]| -> Result<f64, String> {
        let text = schedule_text(info, results, header);
        let (outcome, _) = measured(&subject, Some(&text), Some(&text), payload_text, session)?;
        outcome.map(|m| m.seconds)
    };
    let with = whole(results)?;
    for &i in &inlined {
        results[i].inlined = false;
    }
    let without = whole(results)?;
    // Inlined unless measurably slower (Halide's default): 2% is within
    // this machine's noise.
    if with <= without * 1.02 {
        for &i in &inlined {
            results[i].inlined = true;
        }
        return Ok(Some(Decision {
            inlined: inlined.len(),
            with,
            without,
            chosen: with,
        }));
    }
    // Slower all together (an op recomputed per use in a matmul's loops):
    // kind by kind, biggest first, each kept when the model is no slower.
    let mut best = without;
    let mut kept = 0;
    for &i in &inlined {
        if Instant::now() >= deadline {
            break;
        }
        results[i].inlined = true;
        let text = schedule_text(info, results, header);
        let faster = plans_cleanly(&text, payload_name, payload_text)
            && whole(results).is_ok_and(|seconds| {
                let keep = seconds <= best * 1.01;
                if keep {
                    best = best.min(seconds);
                }
                keep
            });
        if faster {
            kept += 1;
        } else {
            results[i].inlined = false;
        }
    }
    Ok(Some(Decision {
        inlined: kept,
        with,
        without,
        chosen: best,
    }))
}
