//! The collapse phase (`fuse` of two whole loops), run after the inline
//! phase and before the script: each collapsed stage's op gets its
//! neighbouring dimensions joined, as `schedule_lang::collapse` described it
//! when the schedule was resolved (`shim/collapse.cpp`). The ops keep their
//! ids' order, but a collapsed init's fill is made again, so the phase maps
//! ids as the inline phase does.

use crate::attributes::ORIGIN;
use crate::ffi;
use crate::inline::{tag_ops, untag_ops};
use crate::PayloadError;
use melior::ir::Module;
use melior::Context;
use schedule_lang::PayloadInfo;

/// The payload after the phase.
#[derive(Debug)]
pub struct Collapsed {
    /// Its structured ops.
    pub info: PayloadInfo,
    /// For each op id before the phase, the op's id in `info`.
    pub ids: Vec<Option<usize>>,
}

/// Why the phase failed.
#[derive(Debug)]
pub enum CollapseError {
    /// The op `op` (an id before the phase) did not allow collapsing its
    /// dimension `outer` with the next (after inlining changed its
    /// operands, say).
    Refused {
        /// The op.
        op: usize,
        /// The outer dimension, as the collapses before left the op.
        outer: usize,
    },
    /// Describing the payload failed.
    Payload(PayloadError),
}

/// Collapses, for each `(op, outers)`, the op's dimension `outer` with the
/// next one, for each of `outers` in order.
pub fn collapse(
    context: &Context,
    module: &mut Module,
    name: &str,
    steps: &[(usize, Vec<usize>)],
) -> Result<Collapsed, CollapseError> {
    let count = tag_ops(context, module, name).map_err(CollapseError::Payload)?;
    for (op, outers) in steps {
        for &outer in outers {
            if !ffi::collapse_dims(module, ORIGIN, *op as i64, outer) {
                // Leave no tag behind in a module the caller may print.
                let _ = untag_ops(context, module, name, count);
                return Err(CollapseError::Refused { op: *op, outer });
            }
        }
    }
    let (info, ids) = untag_ops(context, module, name, count).map_err(CollapseError::Payload)?;
    Ok(Collapsed { info, ids })
}
