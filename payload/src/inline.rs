//! The inline phase (`compute_inline`), run before the transform script: the
//! op of each inlined func is fused into every linalg op that reads it,
//! through reshapes moved above it first (upstream's reshape propagation
//! and elementwise-op fusion, through `shim/inline.cpp`); readers
//! that were named ops become `linalg.generic`s with the same iteration
//! dimensions. The planner then works on the rewritten payload, so the
//! phase maps each op id of the description the schedule was resolved
//! against to its id afterwards, through a temporary attribute.

use crate::attributes::ORIGIN;
use crate::describe::describe_with_ops;
use crate::ffi::{self, InlineRefusal, OpView};
use crate::PayloadError;
use melior::ir::Module;
use melior::Context;
use schedule_lang::PayloadInfo;

/// The payload after the phase.
#[derive(Debug)]
pub struct Inlined {
    /// Its structured ops.
    pub info: PayloadInfo,
    /// For each op id before the phase, the op's id in `info`; `None` for
    /// the ops fused away.
    pub ids: Vec<Option<usize>>,
}

/// Why the phase failed.
#[derive(Debug)]
pub enum InlineError {
    /// Fusion refused to inline op `producer` (an id before the phase).
    Refused {
        /// The op that was to be inlined.
        producer: usize,
        /// Why.
        refusal: InlineRefusal,
    },
    /// Describing the payload failed.
    Payload(PayloadError),
}

/// Inlines the ops `producers` (ids in the description of `module`, in
/// payload order) into their readers, in order, so an inlined op that reads
/// another inlined op has it fused already.
pub fn inline(
    context: &Context,
    module: &mut Module,
    name: &str,
    producers: &[usize],
) -> Result<Inlined, InlineError> {
    let count = tag_ops(context, module, name).map_err(InlineError::Payload)?;
    let mut producers = producers.to_vec();
    producers.sort_unstable();
    for &producer in &producers {
        ffi::inline_producer(module, ORIGIN, producer as i64)
            .map_err(|refusal| InlineError::Refused { producer, refusal })?;
    }
    let (info, ids) = untag_ops(context, module, name, count).map_err(InlineError::Payload)?;
    Ok(Inlined { info, ids })
}

/// Tags each structured op of `module` with its id ([`ORIGIN`]), so a
/// phase rewriting ops finds them, and maps ids, afterwards; returns how
/// many there are.
pub(crate) fn tag_ops(
    context: &Context,
    module: &Module,
    name: &str,
) -> Result<usize, PayloadError> {
    let (_, views) = describe_with_ops(context, module, name)?;
    for (id, view) in views.iter().enumerate() {
        view.set_i64_attribute(ORIGIN, id as i64);
    }
    Ok(views.len())
}

/// The payload described after a phase, and for each of the `count` ids
/// [`tag_ops`] gave, the op's id now (`None` for one gone); the tags are
/// removed.
pub(crate) fn untag_ops(
    context: &Context,
    module: &Module,
    name: &str,
    count: usize,
) -> Result<(PayloadInfo, Vec<Option<usize>>), PayloadError> {
    let mut ids = vec![None; count];
    let (info, views) = describe_with_ops(context, module, name)?;
    for (id, view) in views.iter().enumerate() {
        if let Some(origin) = view.i64_attribute(ORIGIN) {
            if let Some(slot) = ids.get_mut(origin as usize) {
                *slot = Some(id);
            }
        }
    }
    for op in ffi::all_ops(OpView::of_module(module)) {
        op.remove_attribute(ORIGIN);
    }
    Ok((info, ids))
}
