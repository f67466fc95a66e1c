//! Measured time per stage, for `sched-apply profile --run`: the bufferized
//! entry function is cut into segments (runs of its top-level ops that one
//! stage owns, by payload location), a call to [`sched_stage_mark`] starts
//! each segment and one ends the last, and the clock the marks keep adds
//! up each segment's time under its stage. Nothing inside a loop nest is
//! touched, so the nests run as they do without the marks; a stage computed
//! inside another's loops (`compute_at`) is timed with that stage, and the
//! segments say so ([`Segments::inside`]).

use melior::ir::attribute::{FlatSymbolRefAttribute, IntegerAttribute, StringAttribute};
use melior::ir::block::BlockLike;
use melior::ir::operation::{OperationBuilder, OperationLike, OperationRef, WalkOrder, WalkResult};
use melior::ir::r#type::IntegerType;
use melior::ir::{Identifier, Location, Module, RegionLike};
use melior::Context;
use payload::PayloadError;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::time::Instant;

/// The symbol the marks call, bound to [`sched_stage_mark`] in every JIT.
pub const MARK_SYMBOL: &str = "sched_stage_mark";

/// The private function the entry calls for a mark (a defined function, so
/// that lowering's C wrappers never wrap the external symbol itself).
const MARK_HELPER: &str = "__sched_stage_mark";

/// The mark that stops the clock: the end of the last segment.
const STOP: i64 = -1;

/// Which stage owns an op, by its payload location (`(line, column)`).
#[derive(Clone, Debug, Default)]
pub struct StageOwners {
    by_location: HashMap<(usize, usize), usize>,
    stages: usize,
}

impl StageOwners {
    /// `stages` stages, owning no location yet. Ops no stage owns are timed
    /// under one more slot, index `stages`.
    pub fn new(stages: usize) -> Self {
        StageOwners {
            by_location: HashMap::new(),
            stages,
        }
    }

    /// Ops at `location` belong to `stage` (the first stage given wins).
    pub fn insert(&mut self, location: (usize, usize), stage: usize) {
        if stage < self.stages {
            self.by_location.entry(location).or_insert(stage);
        }
    }

    /// The slots times are kept in: one per stage, then the unowned ops'.
    pub fn slots(&self) -> usize {
        self.stages + 1
    }

    /// The slot of the ops at `location`: its stage, else the unowned ops' slot.
    pub fn owner(&self, location: Option<(usize, usize)>) -> usize {
        location
            .and_then(|l| self.by_location.get(&l).copied())
            .unwrap_or(self.stages)
    }
}

/// How the marks cut the entry function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Segments {
    /// Per slot: whether it starts a segment of its own (has a time).
    pub timed: Vec<bool>,
    /// Per slot: the other stages with ops inside its segments, whose time
    /// is part of its time.
    pub inside: Vec<BTreeSet<usize>>,
}

/// The time of each slot's segments in the calls since the last
/// [`take_stage_seconds`] on this thread.
#[derive(Default)]
struct Clock {
    running: Option<(usize, Instant)>,
    seconds: Vec<f64>,
}

thread_local! {
    static CLOCK: RefCell<Clock> = RefCell::new(Clock::default());
}

/// Called by the marks: ends the running segment (adding its time to its
/// slot) and starts slot `slot`'s, or stops the clock when `slot` is
/// negative. The JIT's code calls it on the thread that calls the entry.
pub extern "C" fn sched_stage_mark(slot: i64) {
    let now = Instant::now();
    CLOCK.with_borrow_mut(|clock| {
        if let Some((running, start)) = clock.running.take() {
            if clock.seconds.len() <= running {
                clock.seconds.resize(running + 1, 0.0);
            }
            clock.seconds[running] += now.duration_since(start).as_secs_f64();
        }
        if let Ok(next) = usize::try_from(slot) {
            clock.running = Some((next, now));
        }
    });
}

/// The seconds each slot's segments took on this thread since the last
/// call (`slots` of them), and a fresh start.
pub fn take_stage_seconds(slots: usize) -> Vec<f64> {
    CLOCK.with_borrow_mut(|clock| {
        let mut seconds = std::mem::take(&mut clock.seconds);
        clock.running = None;
        seconds.resize(slots.max(seconds.len()), 0.0);
        seconds.truncate(slots);
        seconds
    })
}

/// Ops that compute nothing worth a segment of their own (constants,
/// allocations, views): they stay in the segment before them.
fn is_bookkeeping(op: &OperationRef<'_, '_>) -> bool {
    if op.region_count() > 0 {
        return false;
    }
    let name = op.name().as_string_ref().as_str().unwrap_or("").to_string();
    let dialect = name.split('.').next().unwrap_or("");
    matches!(dialect, "arith" | "index" | "ub")
        || name == "affine.apply"
        || (dialect == "memref" && name != "memref.copy")
}

fn location_of(op: &OperationRef<'_, '_>) -> Option<(usize, usize)> {
    crate::profile::line_column(&op.location().to_string())
}

/// The owner of a top-level op (its own location, else that of the first
/// op inside it that has one), and the stages owning ops inside it.
fn owners_of(op: &OperationRef<'_, '_>, owners: &StageOwners) -> (usize, BTreeSet<usize>) {
    let mut first = location_of(op);
    let mut inner = BTreeSet::new();
    op.walk(WalkOrder::PreOrder, |nested| {
        let location = location_of(&nested);
        if first.is_none() {
            first = location;
        }
        let owner = owners.owner(location);
        if owner < owners.stages {
            inner.insert(owner);
        }
        WalkResult::Advance
    });
    (owners.owner(first), inner)
}

/// Inserts the marks into `function` of the bufferized `module` and the
/// helper they call; returns the segments.
pub(crate) fn insert_marks(
    context: &Context,
    module: &mut Module,
    function: &str,
    owners: &StageOwners,
) -> Result<Segments, PayloadError> {
    let missing = || PayloadError::internal(format!("no body of @{function} to time"));
    let mut entry = None;
    let mut op = module.body().first_operation();
    while let Some(candidate) = op {
        let named = candidate
            .attribute("sym_name")
            .ok()
            .and_then(|a| StringAttribute::try_from(a).ok())
            .is_some_and(|a| a.value() == function);
        if named && candidate.region_count() > 0 {
            entry = Some(candidate);
        }
        op = candidate.next_in_block();
    }
    let entry = entry.ok_or_else(missing)?;
    let body = entry
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .ok_or_else(missing)?;

    let slots = owners.slots();
    let mut segments = Segments {
        timed: vec![false; slots],
        inside: vec![BTreeSet::new(); slots],
    };
    // (position in the block, slot) of each mark, the stop before the terminator.
    let mut marks: Vec<(usize, i64)> = Vec::new();
    let mut running = None;
    let mut position = 0;
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if next.is_none() {
            marks.push((position, STOP));
        } else if !is_bookkeeping(&op) {
            let (owner, inner) = owners_of(&op, owners);
            if running != Some(owner) {
                marks.push((position, owner as i64));
                running = Some(owner);
            }
            segments.timed[owner] = true;
            segments.inside[owner].extend(inner.into_iter().filter(|&s| s != owner));
        }
        position += 1;
    }

    let location = Location::unknown(context);
    let i64_type = IntegerType::new(context, 64).into();
    for &(position, slot) in marks.iter().rev() {
        let constant = OperationBuilder::new("arith.constant", location)
            .add_attributes(&[(
                Identifier::new(context, "value"),
                IntegerAttribute::new(i64_type, slot).into(),
            )])
            .add_results(&[i64_type])
            .build()
            .map_err(|e| PayloadError::internal(e.to_string()))?;
        let constant = body.insert_operation(position, constant);
        let value = constant
            .result(0)
            .map_err(|e| PayloadError::internal(e.to_string()))?;
        let call = OperationBuilder::new("func.call", location)
            .add_attributes(&[(
                Identifier::new(context, "callee"),
                FlatSymbolRefAttribute::new(context, MARK_HELPER).into(),
            )])
            .add_operands(&[value.into()])
            .build()
            .map_err(|e| PayloadError::internal(e.to_string()))?;
        body.insert_operation(position + 1, call);
    }
    let helper = format!(
        "llvm.func @{MARK_SYMBOL}(i64)\n\
         func.func private @{MARK_HELPER}(%slot: i64) {{\n  \
         llvm.call @{MARK_SYMBOL}(%slot) : (i64) -> ()\n  return\n}}\n"
    );
    crate::passes::append_generated(context, module, &helper, "stage marks")?;
    Ok(segments)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_adds_each_segment_to_its_slot() {
        take_stage_seconds(0);
        sched_stage_mark(1);
        std::thread::sleep(std::time::Duration::from_millis(20));
        sched_stage_mark(0);
        sched_stage_mark(1);
        std::thread::sleep(std::time::Duration::from_millis(20));
        sched_stage_mark(STOP);
        let seconds = take_stage_seconds(3);
        assert_eq!(seconds.len(), 3);
        // Slot 1 ran through both sleeps (a sleep lasts at least its time);
        // nothing ran under slot 2.
        assert!(seconds[1] >= 0.040, "{seconds:?}");
        assert_eq!(seconds[2], 0.0);
        assert_eq!(take_stage_seconds(3), vec![0.0; 3]);
    }
}
