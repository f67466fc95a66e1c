//! The C API calls that print ops and values with one numbering of the
//! module's SSA names (`MlirAsmState`), so an op's text and the names of its
//! operands and results agree: what [`crate::isolate`] needs to copy one op
//! into a module of its own as text.

use super::{print_to_string, OpView};
use mlir_sys::*;

unsafe extern "C" {
    /// Defined in `shim/printing.cpp`: a state whose flags print regions whole.
    fn schedAsmStateWhole(op: MlirOperation) -> MlirAsmState;
}

/// The SSA names of one module, numbered once; dropped with the C state.
pub struct AsmNames<'m> {
    raw: MlirAsmState,
    _module: std::marker::PhantomData<&'m ()>,
}

impl<'m> AsmNames<'m> {
    /// Numbers every value of `module` as printing it whole would.
    pub fn of_module(module: &'m melior::ir::Module) -> Self {
        // SAFETY: the module's op is valid while borrowed; the state is
        // destroyed once, in `drop`.
        let raw = unsafe { schedAsmStateWhole(module.as_operation().to_raw()) };
        Self {
            raw,
            _module: std::marker::PhantomData,
        }
    }
}

impl Drop for AsmNames<'_> {
    fn drop(&mut self) {
        // SAFETY: created by `mlirAsmStateCreateForOperation`, destroyed once.
        unsafe { mlirAsmStateDestroy(self.raw) }
    }
}

impl<'m> OpView<'m> {
    /// The op as MLIR prints it (its results' and operands' names from `names`).
    pub fn printed_with(self, names: &AsmNames<'m>) -> String {
        // SAFETY: a valid op of the module `names` numbers; the callback
        // appends to the string `print_to_string` passes.
        print_to_string(|callback, data| unsafe {
            mlirOperationPrintWithState(self.raw, names.raw, callback, data)
        })
    }

    /// Every value the op uses that is defined outside it (its operands,
    /// then values its regions capture, such as a body's constant), each
    /// once, in order of use.
    pub fn values_from_outside(self, names: &AsmNames<'m>) -> Vec<OutsideValue> {
        let mut values: Vec<OutsideValue> = Vec::new();
        let mut uses = Vec::new();
        // SAFETY: every op visited is nested in `self` (valid for `'m`); operand
        // indices stay below each op's count; owners and parents are read from
        // valid values, blocks and ops, and null ends each walk.
        unsafe {
            collect_uses(self.raw, &mut uses);
            for value in uses {
                if defined_within(value, self.raw) {
                    continue;
                }
                let name = print_to_string(|callback, data| {
                    mlirValuePrintAsOperand(value, names.raw, callback, data)
                });
                if values.iter().any(|v| v.name == name) {
                    continue;
                }
                let ty = mlirValueGetType(value);
                let ty = print_to_string(|callback, data| mlirTypePrint(ty, callback, data));
                let owner = mlirValueIsAOpResult(value).then(|| mlirOpResultGetOwner(value));
                let constant = owner
                    .map(|op| OpView::<'m>::from_raw(op))
                    .filter(|op| op.name() == "arith.constant" && !op.holds_resource("value"))
                    .map(|op| op.printed_with(names));
                values.push(OutsideValue { name, ty, constant });
            }
        }
        values
    }

    /// Result `index`'s name in `names`' numbering.
    pub fn result_name(self, index: usize, names: &AsmNames<'m>) -> String {
        // SAFETY: callers keep `index` below the result count.
        print_to_string(|callback, data| unsafe {
            let value = mlirOperationGetResult(self.raw, index as isize);
            mlirValuePrintAsOperand(value, names.raw, callback, data)
        })
    }
}

/// A value an op uses from outside it.
pub struct OutsideValue {
    /// Its name (`%5`, `%arg0`, `%cst`).
    pub name: String,
    /// Its type, printed.
    pub ty: String,
    /// The `arith.constant` defining it, printed, when one does and its
    /// text holds its value (not a `dense_resource`, a frozen export's
    /// weight, whose data is in the module's resource section).
    pub constant: Option<String>,
}

/// The operands of `op` and of every op nested in it, in order.
///
/// # Safety
/// `op` must be a valid operation.
unsafe fn collect_uses(op: MlirOperation, out: &mut Vec<MlirValue>) {
    // SAFETY: the caller's contract; indices below the counts; null ends lists.
    unsafe {
        for i in 0..mlirOperationGetNumOperands(op) {
            out.push(mlirOperationGetOperand(op, i));
        }
        for r in 0..mlirOperationGetNumRegions(op) {
            let mut block = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
            while !block.ptr.is_null() {
                let mut child = mlirBlockGetFirstOperation(block);
                while !child.ptr.is_null() {
                    collect_uses(child, out);
                    child = mlirOperationGetNextInBlock(child);
                }
                block = mlirBlockGetNextInRegion(block);
            }
        }
    }
}

/// Whether `value` is defined inside `op` (by an op nested in it, or as an
/// argument of a block of its regions).
///
/// # Safety
/// `value` and `op` must be valid.
unsafe fn defined_within(value: MlirValue, op: MlirOperation) -> bool {
    // SAFETY: the caller's contract; each parent is checked for null.
    unsafe {
        let mut at = if mlirValueIsAOpResult(value) {
            mlirOperationGetParentOperation(mlirOpResultGetOwner(value))
        } else {
            mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(value))
        };
        while !at.ptr.is_null() {
            if at.ptr == op.ptr {
                return true;
            }
            at = mlirOperationGetParentOperation(at);
        }
        false
    }
}
