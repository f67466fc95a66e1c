//! The only place in this crate that calls the MLIR C API directly: walking a
//! module's operations and reading their names, attributes, operands and
//! locations as text. Each raw handle is wrapped in a `Copy` view whose
//! lifetime ties it to the module it came from.

use mlir_sys::*;
use std::ffi::c_void;
use std::marker::PhantomData;

/// A borrowed view of one operation of a module that outlives `'m`.
#[derive(Clone, Copy)]
pub struct OpView<'m> {
    raw: MlirOperation,
    _module: PhantomData<&'m ()>,
}

unsafe extern "C" fn append_to_string(text: MlirStringRef, data: *mut c_void) {
    // SAFETY: `data` is the `&mut String` passed by `print_to_string`, alive for the call;
    // MLIR passes a valid (pointer, length) pair for the duration of the callback.
    unsafe {
        let out = &mut *(data as *mut String);
        let bytes = std::slice::from_raw_parts(text.data as *const u8, text.length);
        out.push_str(&String::from_utf8_lossy(bytes));
    }
}

fn print_to_string(print: impl FnOnce(MlirStringCallback, *mut c_void)) -> String {
    let mut out = String::new();
    print(Some(append_to_string), &mut out as *mut String as *mut c_void);
    out
}

/// A borrowed (pointer, length) view of a Rust string for the C API.
pub fn string_ref(text: &str) -> MlirStringRef {
    MlirStringRef { data: text.as_ptr() as *const _, length: text.len() }
}

fn string_ref_to_string(value: MlirStringRef) -> String {
    if value.data.is_null() {
        return String::new();
    }
    // SAFETY: a non-null MlirStringRef points at `length` valid bytes owned by the context.
    let bytes = unsafe { std::slice::from_raw_parts(value.data as *const u8, value.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

impl<'m> OpView<'m> {
    /// Wraps a raw operation.
    ///
    /// # Safety
    /// `raw` must be a valid, non-null operation that stays alive for `'m`.
    pub unsafe fn from_raw(raw: MlirOperation) -> Self {
        Self { raw, _module: PhantomData }
    }

    /// The raw handle, for identity comparisons only.
    pub fn to_raw(self) -> MlirOperation {
        self.raw
    }

    /// The op's name, like `linalg.generic`.
    pub fn name(self) -> String {
        // SAFETY: `self.raw` is valid for `'m` (constructor contract).
        string_ref_to_string(unsafe { mlirIdentifierStr(mlirOperationGetName(self.raw)) })
    }

    /// The ops directly inside this op's regions, in order.
    pub fn children(self) -> Vec<OpView<'m>> {
        let mut children = Vec::new();
        // SAFETY: regions, blocks and ops are read from a valid op; null handles end each list.
        unsafe {
            for r in 0..mlirOperationGetNumRegions(self.raw) {
                let region = mlirOperationGetRegion(self.raw, r);
                let mut block = mlirRegionGetFirstBlock(region);
                while !block.ptr.is_null() {
                    let mut op = mlirBlockGetFirstOperation(block);
                    while !op.ptr.is_null() {
                        children.push(OpView::from_raw(op));
                        op = mlirOperationGetNextInBlock(op);
                    }
                    block = mlirBlockGetNextInRegion(block);
                }
            }
        }
        children
    }

    /// An attribute printed as MLIR text, if the op has it.
    pub fn attribute_text(self, name: &str) -> Option<String> {
        // SAFETY: the name is passed as (pointer, length) valid for the call; a missing
        // attribute comes back null and is checked before printing.
        unsafe {
            let attribute = mlirOperationGetAttributeByName(self.raw, string_ref(name));
            if attribute.ptr.is_null() {
                return None;
            }
            Some(print_to_string(|callback, data| mlirAttributePrint(attribute, callback, data)))
        }
    }

    /// A string attribute's value, if the op has one by that name.
    pub fn string_attribute(self, name: &str) -> Option<String> {
        // SAFETY: as in `attribute_text`; the kind is checked before reading the value.
        unsafe {
            let attribute = mlirOperationGetAttributeByName(self.raw, string_ref(name));
            if attribute.ptr.is_null() || !mlirAttributeIsAString(attribute) {
                return None;
            }
            Some(string_ref_to_string(mlirStringAttrGetValue(attribute)))
        }
    }

    /// The elements of a dense i32 array attribute (like `operandSegmentSizes`).
    pub fn i32_array_attribute(self, name: &str) -> Option<Vec<i32>> {
        // SAFETY: as in `attribute_text`; the kind is checked before reading elements.
        unsafe {
            let attribute = mlirOperationGetAttributeByName(self.raw, string_ref(name));
            if attribute.ptr.is_null() || !mlirAttributeIsADenseI32Array(attribute) {
                return None;
            }
            let count = mlirDenseArrayGetNumElements(attribute);
            Some((0..count).map(|i| mlirDenseI32ArrayGetElement(attribute, i)).collect())
        }
    }

    /// Number of operands.
    pub fn operand_count(self) -> usize {
        // SAFETY: valid op.
        unsafe { mlirOperationGetNumOperands(self.raw) as usize }
    }

    /// The op that defines operand `index`, if it is an op result (not a block argument).
    pub fn operand_owner(self, index: usize) -> Option<MlirOperation> {
        // SAFETY: `index` is below the operand count (checked by callers through `operand_count`).
        unsafe {
            let value = mlirOperationGetOperand(self.raw, index as isize);
            mlirValueIsAOpResult(value).then(|| mlirOpResultGetOwner(value))
        }
    }

    /// The type of operand `index`, printed.
    pub fn operand_type(self, index: usize) -> String {
        // SAFETY: `index` is below the operand count.
        unsafe {
            let value = mlirOperationGetOperand(self.raw, index as isize);
            let ty = mlirValueGetType(value);
            print_to_string(|callback, data| mlirTypePrint(ty, callback, data))
        }
    }

    /// The op's location, printed (`loc("conv.mlir":13:16)`).
    pub fn location(self) -> String {
        // SAFETY: valid op; its location belongs to the same context.
        unsafe {
            let location = mlirOperationGetLocation(self.raw);
            print_to_string(|callback, data| mlirLocationPrint(location, callback, data))
        }
    }
}
