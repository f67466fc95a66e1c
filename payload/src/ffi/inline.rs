//! The C API and shim calls of the inline phase (`compute_inline`): tagging
//! ops with an integer attribute, finding them again by it, and fusing a
//! producer into its readers (`shim/inline.cpp`); the collapse phase's
//! rewrite of one op (`shim/collapse.cpp`); reading integer constants
//! (loop bounds, for `explain`).

use super::{string_ref, OpView};
use mlir_sys::*;

unsafe extern "C" {
    /// Defined in `shim/inline.cpp`.
    fn schedInlineProducer(producer: MlirOperation, failed_reader: *mut MlirOperation) -> i32;
    /// Defined in `shim/collapse.cpp`: 0 when collapsed, 1 when refused.
    fn schedCollapseDims(op: MlirOperation, outer: i64) -> i32;
}

/// `shim/inline.cpp`'s results (its `InlineStatus`).
const INLINED: i32 = 0;
const PRODUCER_NOT_FUSABLE: i32 = 1;

/// Why a producer could not be inlined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InlineRefusal {
    /// No op carries the tag.
    NotFound,
    /// The producer is not a linalg op with one result that generalizes.
    Producer,
    /// Fusion refused this reader, or this reshape between the producer and
    /// a reader could not move above the producer: its name and location,
    /// printed.
    Reader {
        /// The reader's op name (after generalization: `linalg.generic`), or
        /// the reshape's (`tensor.expand_shape`, `tensor.collapse_shape`).
        kind: String,
        /// Its location as MLIR prints it.
        location: String,
    },
}

impl OpView<'_> {
    /// Sets the discardable attribute `name` to the i64 `value`. Attributes
    /// are values in the context, so no view of the module is invalidated.
    pub fn set_i64_attribute(self, name: &str, value: i64) {
        // SAFETY: valid op (constructor contract); the type and attribute are
        // created in the op's own context; the name is valid for the call.
        unsafe {
            let context = mlirOperationGetContext(self.raw);
            let attribute = mlirIntegerAttrGet(mlirIntegerTypeGet(context, 64), value);
            mlirOperationSetDiscardableAttributeByName(self.raw, string_ref(name), attribute);
        }
    }

    /// The i64 value of the integer attribute `name`, if the op has one.
    pub fn i64_attribute(self, name: &str) -> Option<i64> {
        // SAFETY: valid op; the kind is checked before reading the value.
        unsafe {
            let attribute = mlirOperationGetAttributeByName(self.raw, string_ref(name));
            (!attribute.ptr.is_null() && mlirAttributeIsAInteger(attribute))
                .then(|| mlirIntegerAttrGetValueInt(attribute))
        }
    }

    /// The value of operand `index` when an `arith.constant` of integer type
    /// defines it (a loop bound, say).
    pub fn operand_constant(self, index: usize) -> Option<i64> {
        if index >= self.operand_count() {
            return None;
        }
        let owner = self.operand_owner(index)?;
        // SAFETY: the defining op of a valid op's operand is a valid op of
        // the same module, alive as long as `self` is.
        let owner = unsafe { OpView::from_raw(owner) };
        if owner.name() != "arith.constant" {
            return None;
        }
        owner.i64_attribute("value")
    }

    /// Removes the discardable attribute `name`, if present.
    pub fn remove_attribute(self, name: &str) {
        // SAFETY: valid op; removing a missing attribute is a no-op.
        unsafe {
            mlirOperationRemoveDiscardableAttributeByName(self.raw, string_ref(name));
        }
    }
}

/// Every op nested in `root`, in pre-order.
pub fn all_ops(root: OpView<'_>) -> Vec<OpView<'_>> {
    let mut ops = Vec::new();
    let mut stack = vec![root];
    while let Some(op) = stack.pop() {
        ops.push(op);
        stack.extend(op.children().into_iter().rev());
    }
    ops
}

/// Fuses the op of `module` whose attribute `tag` is `value` into every
/// linalg op that reads it as an input, directly or through reshapes moved
/// above it first (the readers keep their discardable attributes), and
/// erases it once unused. The module is taken mutably:
/// ops are erased, so no view of it may live across the call.
pub fn inline_producer(
    module: &mut melior::ir::Module,
    tag: &str,
    value: i64,
) -> Result<(), InlineRefusal> {
    let root = OpView::of_module(module);
    let producer = all_ops(root)
        .into_iter()
        .find(|op| op.i64_attribute(tag) == Some(value))
        .ok_or(InlineRefusal::NotFound)?;
    let mut failed = MlirOperation {
        ptr: std::ptr::null_mut(),
    };
    // SAFETY: `producer` is an op of `module`, which is borrowed mutably, so
    // no other view outlives the ops the shim erases; `failed` is written
    // only with an op that is still in the module.
    let status = unsafe { schedInlineProducer(producer.to_raw(), &mut failed) };
    match status {
        INLINED => Ok(()),
        PRODUCER_NOT_FUSABLE => Err(InlineRefusal::Producer),
        _ => {
            // SAFETY: the shim set `failed` to a live op of the module.
            let reader = unsafe { OpView::from_raw(failed) };
            Err(InlineRefusal::Reader {
                kind: reader.name(),
                location: reader.location(),
            })
        }
    }
}

/// Collapses iteration dimensions `outer` and `outer + 1` of the linalg op
/// of `module` whose attribute `tag` is `value` into one
/// (`shim/collapse.cpp`; the op, a `linalg.generic` after, keeps its
/// discardable attributes). `false` when no op carries the tag or the op
/// does not allow it (then it is untouched). Ops are replaced, so no view of
/// the module may live across the call.
pub fn collapse_dims(module: &mut melior::ir::Module, tag: &str, value: i64, outer: usize) -> bool {
    let root = OpView::of_module(module);
    let Some(op) = all_ops(root)
        .into_iter()
        .find(|op| op.i64_attribute(tag) == Some(value))
    else {
        return false;
    };
    // SAFETY: `op` is an op of `module`, borrowed mutably, so no other view
    // outlives the op the shim replaces.
    unsafe { schedCollapseDims(op.to_raw(), outer as i64) == 0 }
}
