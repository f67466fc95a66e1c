//! The third decision made on the whole model, after the producers one:
//! convolutions left at root whose fastest candidate alone vectorizes
//! their columns or channels, but which have a fused-pixels candidate
//! ([`crate::pixels`]: a 1x1 convolution as a GEMM over its pixels) within
//! [`SLACK`] of it, take that one instead where the whole model, measured,
//! runs faster so. Alone, each call's caches are flushed first; in the
//! model a 1x1 convolution reads the activation its producer just wrote:
//! MobileNet-v2's ran within 3% of each other alone and 20-50% faster as
//! GEMMs in the model.

use crate::paired::keep_faster;
use crate::{paired, Model, Session, TaskResult};

/// How much slower alone a fused-pixels candidate may be and still be
/// tried in the model.
pub const SLACK: f64 = 1.35;

/// What the whole model measured.
pub struct Decision {
    /// Kinds that could take their fused-pixels candidate, and those that do.
    pub possible: usize,
    pub taken: usize,
    /// Seconds with none and with all of them (one interleaved pair), or
    /// why they could not be measured.
    pub together: Result<(f64, f64), String>,
}

/// Whether `chain` is a fused-pixels candidate's.
pub fn is_pixels(chain: &str) -> bool {
    chain.starts_with(".fuse(")
}

/// Tries each kind's fused-pixels candidate in place of its best: all
/// together against none, and when that is not faster, one by one (most
/// FLOPs first, while another pair ends before the session has spent
/// `deadline` seconds measuring) against those taken so far; keeps what
/// makes the model faster. `None` when no kind has one to try.
pub fn take_gemm_forms(
    model: &Model<'_>,
    results: &mut [TaskResult],
    session: &mut Session<'_>,
    deadline: f64,
) -> Result<Option<Decision>, String> {
    let mut kinds: Vec<usize> = (0..results.len())
        .filter(|&i| {
            let r = &results[i];
            let (Some((best, seconds)), Some((_, pixels))) = (&r.best, &r.pixels) else {
                return false;
            };
            r.computed_in.is_none()
                && r.tiled.is_none()
                && !r.inlined
                && !is_pixels(best)
                && *pixels <= seconds * SLACK
        })
        .collect();
    let originals: Vec<Option<(String, f64)>> = results.iter().map(|r| r.best.clone()).collect();
    let take = |results: &mut [TaskResult], on: &[usize]| {
        for (i, result) in results.iter_mut().enumerate() {
            let taken = on.contains(&i);
            result.best = match taken {
                true => result.pixels.clone(),
                false => originals[i].clone(),
            };
            result.gemm_over = originals[i].as_ref().filter(|_| taken).map(|(_, s)| *s);
        }
    };
    kinds.retain(|&i| {
        take(results, &[i]);
        let clean = model.plans(&model.schedule(results));
        take(results, &[]);
        clean
    });
    if kinds.is_empty() {
        return Ok(None);
    }
    kinds.sort_by_key(|&i| {
        std::cmp::Reverse(results[i].task.flops * results[i].task.ops.len() as u64)
    });
    let key = model.key();
    let decided = keep_faster(&kinds, session, deadline, |session, base, trial| {
        take(results, base);
        let base = model.schedule(results);
        take(results, trial);
        let trial = model.schedule(results);
        paired(&key, model.name, (&base, &trial), model.text, session)
    })?;
    let taken = decided.kept;
    let together = decided.together;
    take(results, &taken);
    Ok(Some(Decision {
        possible: kinds.len(),
        taken: taken.len(),
        together,
    }))
}
