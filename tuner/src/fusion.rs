//! The first decision made on the whole model: elementwise ops (batch
//! norms' steps, residual adds, activations) and transposes (a weight's,
//! then read in place by its matmul) inlined into the ops reading them
//! (Halide's default) where the schedule still checks: all of them unless
//! the model is more than 2% slower so than with none; else only those
//! every reader reads once per element (never recomputed), on the same
//! terms; then the rest kind by kind. Each comparison is one pair of whole
//! models timed with their calls interleaved ([`crate::paired`]), recorded
//! so that a second `tune` decides the same.

use crate::tasks::Task;
use crate::{paired, Model, Session, TaskResult};
use schedule_lang::{IteratorKind, MapResult, PayloadInfo};

/// The whole model's time with the elementwise kinds inlined and without.
pub struct Decision {
    /// Kinds of op inlined.
    pub inlined: usize,
    /// Seconds of the whole model with none and with every kind that
    /// checks inlined (one interleaved pair), and in the pair that decided
    /// the kinds kept.
    pub with: f64,
    pub without: f64,
    pub chosen: f64,
    /// Seconds with only the kinds read once per element inlined
    /// ([`read_once`]), when some are and some are not.
    pub read_once: Option<f64>,
}

/// Marks each elementwise generic's kind inlined where the schedule still
/// checks; measures the model with all of them against none (all kept
/// unless more than 2% slower), then only those read once per element
/// ([`read_once`]) against the better (kept if more than 2% faster than
/// all, or within 2% of none); when that is not all of them, tries the
/// others one by one while another pair ends before the session has spent
/// `deadline` seconds measuring ([`Session::pair_fits`]). `None` when no kind could be inlined.
pub fn inline_elementwise(
    model: &Model<'_>,
    results: &mut [TaskResult],
    session: &mut Session<'_>,
    deadline: f64,
) -> Result<Option<Decision>, String> {
    // Transposes the chains of the matmuls reading them were tuned with
    // inlined ([`Task::feeders`]) stay inlined, out of the decision.
    for i in 0..results.len() {
        if fed_to_tuned_readers(model.info, results, i) {
            results[i].inlined = true;
            let text = model.schedule(results);
            results[i].inlined = model.plans(&text);
            results[i].fed = results[i].inlined;
        }
    }
    let elementwise: Vec<usize> = (0..results.len())
        .filter(|&i| {
            let task = &results[i].task;
            let elementwise = task.kind == "linalg.generic" && !task.reduction.contains(&true);
            (elementwise || task.kind == "linalg.transpose")
                && results[i].conditions.is_some()
                && !results[i].inlined
        })
        .collect();
    let mut inlined = Vec::new();
    for &i in &elementwise {
        results[i].inlined = true;
        if model.plans(&model.schedule(results)) {
            inlined.push(i);
        } else {
            results[i].inlined = false;
        }
    }
    if inlined.is_empty() {
        return Ok(None);
    }
    let key = model.key();
    // The model with the kinds of `base` inlined against `trial`'s, their
    // calls interleaved.
    let versus =
        |results: &mut [TaskResult], session: &mut Session<'_>, base: &[usize], trial: &[usize]| {
            let mut text = |on: &[usize]| {
                for &i in &inlined {
                    results[i].inlined = on.contains(&i);
                }
                model.schedule(results)
            };
            let (base, trial) = (text(base), text(trial));
            paired(&key, model.name, (&base, &trial), model.text, session)
        };
    let (once, recomputed): (Vec<usize>, Vec<usize>) = inlined
        .iter()
        .partition(|&&i| read_once(model.info, &results[i].task));
    // Inlined unless measurably slower (Halide's default): 2% is within
    // this machine's noise. Most inlining first.
    let (without, with) = match versus(results, session, &[], &inlined)? {
        Ok(pair) => pair,
        Err(why) => {
            for &i in &inlined {
                results[i].inlined = false;
            }
            return Err(why);
        }
    };
    let (mut kept, mut best) = match with <= without * 1.02 {
        true => (inlined.clone(), with),
        false => (Vec::new(), without),
    };
    // Only the kinds read once, against the better of those two: taken
    // when all inlined is more than 2% slower, or none no faster.
    let mut read_once = None;
    if !once.is_empty() && !recomputed.is_empty() {
        if let Ok((base, seconds)) = versus(results, session, &kept, &once)? {
            read_once = Some(seconds);
            let taken = match kept.is_empty() {
                true => seconds <= base * 1.02,
                false => seconds * 1.02 < base,
            };
            if taken {
                (kept, best) = (once.clone(), seconds);
            }
        }
    }
    // Slower all together (an op recomputed per use in a matmul's loops):
    // the kinds not kept one by one, biggest first, each kept when the
    // model is no slower.
    let rest: Vec<usize> = inlined
        .iter()
        .copied()
        .filter(|i| !kept.contains(i))
        .collect();
    for i in rest {
        if !session.pair_fits(deadline) {
            break;
        }
        let mut trial = kept.clone();
        trial.push(i);
        for &j in &inlined {
            results[j].inlined = trial.contains(&j);
        }
        let text = model.schedule(results);
        if !model.plans(&text) {
            continue;
        }
        if let Ok((base, seconds)) = versus(results, session, &kept, &trial)? {
            if seconds <= base * 1.01 {
                (kept, best) = (trial, seconds);
            }
        }
    }
    for &i in &inlined {
        results[i].inlined = kept.contains(&i);
    }
    Ok(Some(Decision {
        inlined: kept.len(),
        with,
        without,
        read_once,
        chosen: best,
    }))
}

/// Whether result `i` is a kind of transpose whose every op is read only by
/// matmul-like ops of tasks tuned with their feeding transposes inlined
/// (and sped up).
fn fed_to_tuned_readers(info: &PayloadInfo, results: &[TaskResult], i: usize) -> bool {
    let task = &results[i].task;
    if task.kind != "linalg.transpose" {
        return false;
    }
    let tuned_with_feeders = |reader: usize| {
        results
            .iter()
            .any(|r| !r.task.feeders.is_empty() && r.best.is_some() && r.task.ops.contains(&reader))
    };
    // Each read directly (not through a reshape) as a matmul's input.
    task.ops.iter().all(|&op| {
        let one = [op];
        let reads: Vec<_> = info.reads_of(&one).collect();
        !reads.is_empty()
            && reads.iter().all(|(r, o)| {
                !o.is_init && o.via.is_empty() && r.multiply_accumulate && tuned_with_feeders(r.id)
            })
    })
}

/// Whether every op reading one of `task`'s ops reads each of its elements
/// once: an op with no reduction, through a map naming each of its
/// dimensions once (an elementwise reader). Inlined into a convolution or
/// a matmul, or broadcast along a reader's dimension, an op is recomputed
/// per use instead (mobilenet_v2's ReLU6 inside the 1x1 convolutions
/// reading it: 32.7 ms against 27.5 ms).
fn read_once(info: &PayloadInfo, task: &Task) -> bool {
    info.reads_of(&task.ops)
        .filter(|(_, o)| !o.is_init)
        .all(|(reader, operand)| {
            let elementwise = reader
                .iterators
                .iter()
                .all(|k| *k == IteratorKind::Parallel);
            let mut dims: Vec<usize> = operand
                .map
                .iter()
                .filter_map(|m| match m {
                    MapResult::Dim(d) => Some(*d),
                    _ => None,
                })
                .collect();
            dims.sort();
            dims.dedup();
            elementwise
                && operand.map.len() == reader.iterators.len()
                && dims.len() == operand.map.len()
        })
}
