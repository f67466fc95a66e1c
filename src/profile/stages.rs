//! `profile`'s rows per func: the static counts of the ops each func owns
//! (by payload location), and with `--run` the measured time of each
//! func's segments of the entry (`runner::stage_times`), with which funcs
//! were computed inside another's loops and timed with it.

use super::Figures;
use crate::call_failure;
use crate::Exit;
use runner::jit::Program;
use runner::profile::{Counts, Profile};
use runner::stage_times::{Segments, StageOwners};
use runner::tensor::{restore, Tensor};
use schedule_lang::Model;
use serde::Serialize;
use std::time::Instant;

/// The figures of one func (or of the ops no func names) before and after.
#[derive(Serialize)]
pub(crate) struct StageRow {
    pub name: String,
    pub before: Figures,
    pub after: Figures,
}

/// Which side of the schedule.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Side {
    Before,
    After,
}

impl StageRow {
    fn side_mut(&mut self, side: Side) -> &mut Figures {
        match side {
            Side::Before => &mut self.before,
            Side::After => &mut self.after,
        }
    }

    fn side(&self, side: Side) -> &Figures {
        match side {
            Side::Before => &self.before,
            Side::After => &self.after,
        }
    }
}

/// The func owning each payload location: that of one of its payload ops,
/// or of an op in their bodies (which vectorized code keeps). Slot
/// `model.funcs.len()` holds the ops no func names.
pub(crate) fn owners(model: &Model, locations: &[Vec<(usize, usize)>]) -> StageOwners {
    let mut owners = StageOwners::new(model.funcs.len());
    for (index, func) in model.funcs.iter().enumerate() {
        for stage in &func.stages {
            for &location in locations.get(stage.op).into_iter().flatten() {
                owners.insert(location, index);
            }
        }
    }
    owners
}

/// One row per slot of `owners` (each func, in model order, then the ops no
/// func names), with the counts of the ops each owns; the last row is
/// dropped when nothing is in it.
pub(crate) fn stage_rows(
    model: &Model,
    owners: &StageOwners,
    before: &Profile,
    after: &Profile,
) -> Vec<StageRow> {
    let sum = |profile: &Profile, slot: usize| {
        let mut counts = Counts::ZERO;
        for (location, c) in &profile.by_location {
            if owners.owner(*location) == slot {
                counts.add(*c);
            }
        }
        counts
    };
    let names = model
        .funcs
        .iter()
        .map(|f| f.name.clone())
        .chain(["(ops no func names)".to_string()]);
    names
        .enumerate()
        .map(|(slot, name)| StageRow {
            name,
            before: Figures::of(&sum(before, slot)),
            after: Figures::of(&sum(after, slot)),
        })
        .filter(|row| {
            row.name != "(ops no func names)"
                || row.before.flops != Some(0)
                || row.before.bytes != Some(0)
                || row.after.flops != Some(0)
                || row.after.bytes != Some(0)
        })
        .collect()
}

/// Median of each slot's seconds over `calls` calls (after one warm-up),
/// and the median of whole calls.
pub(crate) fn time_stages(
    program: &Program,
    inputs: &[Tensor],
    calls: usize,
) -> Result<(f64, Vec<f64>), Exit> {
    let mut results = program.new_results();
    let mut totals = Vec::with_capacity(calls);
    let mut per_call: Vec<Vec<f64>> = Vec::with_capacity(calls);
    let mut fresh = inputs.to_vec();
    for call in 0..=calls {
        restore(&mut fresh, inputs);
        let start = Instant::now();
        let seconds = program
            .call_by_stage(&mut fresh, &mut results)
            .map_err(call_failure)?;
        let elapsed = start.elapsed().as_secs_f64();
        if call > 0 {
            totals.push(elapsed);
            per_call.push(seconds);
        }
    }
    let slots = per_call.first().map_or(0, Vec::len);
    let stages = (0..slots)
        .map(|slot| median(per_call.iter().map(|c| c[slot]).collect()))
        .collect();
    Ok((median(totals), stages))
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}

/// Fills `side`'s times of `rows` from one program's `segments` and the
/// median `seconds` of each slot. A func with no segment of its own has no
/// time (`timed_in` names the funcs whose loops compute it); a func with
/// others inside its loops has their time in its own (`includes`), and its
/// GFLOP/s count their FLOPs too when all of them are timed only there.
pub(crate) fn attach_times(
    rows: &mut [StageRow],
    model: &Model,
    side: Side,
    segments: &Segments,
    seconds: &[f64],
) {
    let name = |slot: usize| {
        model
            .funcs
            .get(slot)
            .map_or("(ops no func names)".to_string(), |f| f.name.clone())
    };
    let row_of = |rows: &[StageRow], slot: usize| rows.iter().position(|r| r.name == name(slot));
    for slot in 0..segments.timed.len() {
        let Some(index) = row_of(rows, slot) else {
            continue;
        };
        let includes: Vec<usize> = segments.inside[slot].iter().copied().collect();
        let timed_in: Vec<usize> = (0..segments.inside.len())
            .filter(|&other| other != slot && segments.inside[other].contains(&slot))
            .collect();
        let mut flops = rows[index].side(side).flops;
        for &inner in &includes {
            let whole = !segments.timed[inner];
            flops = match (whole, flops, row_of(rows, inner)) {
                (true, Some(f), Some(i)) => rows[i].side(side).flops.map(|g| f + g),
                (true, Some(f), None) => Some(f),
                _ => None,
            };
        }
        let figures = rows[index].side_mut(side);
        figures.includes = includes.into_iter().map(name).collect();
        figures.timed_in = timed_in.into_iter().map(name).collect();
        if segments.timed[slot] {
            let time = seconds.get(slot).copied().unwrap_or(0.0);
            figures.seconds = Some(time);
            figures.gflops = flops
                .filter(|_| figures.timed_in.is_empty() && time > 0.0)
                .map(|f| f as f64 / time / 1e9);
        }
    }
}

/// The roofline point of row `index` on `side`: the operational intensity
/// of its ops and those timed with it, and its GFLOP/s.
pub(crate) fn point(rows: &[StageRow], index: usize, side: Side) -> Option<(f64, f64)> {
    let figures = rows[index].side(side);
    let gflops = figures.gflops?;
    let mut flops = figures.flops?;
    let mut bytes = figures.bytes?;
    for inner in &figures.includes {
        let other = rows.iter().find(|r| &r.name == inner)?.side(side);
        flops += other.flops?;
        bytes += other.bytes?;
    }
    (bytes > 0).then(|| (flops as f64 / bytes as f64, gflops))
}
