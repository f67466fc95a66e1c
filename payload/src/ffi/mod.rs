//! The only place in this crate that calls the MLIR C API directly: walking a
//! module's operations and reading their names, attributes, operands and
//! locations as text, the transform interpreter's entry point
//! (`mlirTransformApplyNamedSequence`, which melior 0.27 does not wrap), the
//! dialect registration of `shim/registry.cpp`, and the inline phase's tags
//! and fusion ([`inline`], `shim/inline.cpp`), and the collapse phase's rewrite. Each raw handle is wrapped in a
//! `Copy` view whose lifetime ties it to the module it came from.

use melior::ir::operation::OperationRef;
use mlir_sys::*;
use std::ffi::c_void;
use std::marker::PhantomData;

mod inline;
mod printing;
/// Ops that only view or re-shape a tensor (their first operand is the source):
/// a producer reached through them still feeds the op that reads the view.
pub const VIEW_OPS: [&str; 5] = [
    "tensor.extract_slice",
    "tensor.pad",
    "tensor.expand_shape",
    "tensor.collapse_shape",
    "tensor.cast",
];

/// Ops that view a buffer (their first operand is the buffer viewed).
pub const MEMREF_VIEW_OPS: [&str; 6] = [
    "memref.cast",
    "memref.subview",
    "memref.reinterpret_cast",
    "memref.expand_shape",
    "memref.collapse_shape",
    "memref.transpose",
];

pub use inline::{all_ops, collapse_dims, inline_producer, InlineRefusal};
pub use printing::{AsmNames, OutsideValue};

/// A borrowed view of one operation of a module that outlives `'m`.
#[derive(Clone, Copy)]
pub struct OpView<'m> {
    raw: MlirOperation,
    _module: PhantomData<&'m ()>,
}

/// An `MlirStringCallback` appending the text MLIR passes to the `String`
/// behind `data` (a `*mut String` alive for the call that passes it).
///
/// # Safety
/// `data` must point to a live `String` no one else borrows during the call.
pub unsafe extern "C" fn append_to_string(text: MlirStringRef, data: *mut c_void) {
    // SAFETY: `data` is the `&mut String` the caller passes, alive for the call;
    // MLIR passes a valid (pointer, length) pair for the duration of the callback.
    unsafe {
        let out = &mut *(data as *mut String);
        let bytes = std::slice::from_raw_parts(text.data as *const u8, text.length);
        out.push_str(&String::from_utf8_lossy(bytes));
    }
}

fn print_to_string(print: impl FnOnce(MlirStringCallback, *mut c_void)) -> String {
    let mut out = String::new();
    print(
        Some(append_to_string),
        &mut out as *mut String as *mut c_void,
    );
    out
}

/// Parses `text`, which must be one explicit `module` op, as a module whose
/// locations name `source_name` (melior's `Module::parse` names every buffer
/// `-`, so the payload's and the transform script's locations could not be
/// told apart). `None` after a parse error, which MLIR reports through the
/// context's diagnostics, or when the text holds another kind of op.
pub fn parse_module_named<'c>(
    context: &'c melior::Context,
    text: &str,
    source_name: &str,
) -> Option<melior::ir::Module<'c>> {
    // SAFETY: the context outlives the call; both string refs point into
    // borrowed strings that live for the call; the result is checked for null.
    let raw = unsafe {
        mlirOperationCreateParse(context.to_raw(), string_ref(text), string_ref(source_name))
    };
    if raw.ptr.is_null() {
        return None;
    }
    // SAFETY: `raw` is a fresh top-level operation that nothing else owns;
    // `Operation::from_raw` takes ownership (and `Module` then owns it).
    let operation = unsafe { melior::ir::Operation::from_raw(raw) };
    melior::ir::Module::from_operation(operation)
}

/// A deep copy of `module`, cloned in memory (a large payload's weights are
/// not printed and parsed again). `None` if the copy is not a module.
pub fn clone_module<'c>(module: &melior::ir::Module<'c>) -> Option<melior::ir::Module<'c>> {
    // SAFETY: the module's op is valid for the call; the clone is a new
    // top-level operation that nothing else owns, and `Operation::from_raw`
    // takes ownership of it (then `Module` does).
    let operation = unsafe {
        melior::ir::Operation::from_raw(mlirOperationClone(module.as_operation().to_raw()))
    };
    melior::ir::Module::from_operation(operation)
}

/// Parses MLIR bytecode (`.mlirbc`) into a module whose locations name
/// `source_name`. `None` after a parse error, reported through the context's
/// diagnostics, or when the bytecode holds another kind of op.
pub fn parse_bytecode<'c>(
    context: &'c melior::Context,
    bytes: &[u8],
    source_name: &str,
) -> Option<melior::ir::Module<'c>> {
    let source = MlirStringRef {
        data: bytes.as_ptr() as *const _,
        length: bytes.len(),
    };
    // SAFETY: as in `parse_module_named`; the parser takes the buffer's length
    // from the string ref, so bytes with NULs are read whole.
    let raw =
        unsafe { mlirOperationCreateParse(context.to_raw(), source, string_ref(source_name)) };
    if raw.ptr.is_null() {
        return None;
    }
    // SAFETY: as in `parse_module_named`.
    let operation = unsafe { melior::ir::Operation::from_raw(raw) };
    melior::ir::Module::from_operation(operation)
}

/// The module's whole text: every region, verified first (MLIR prints ops
/// in diagnostics briefly, [`print_ops_briefly_in_diagnostics`]; a payload is
/// always printed this way).
pub fn print_module(module: &melior::ir::Module) -> String {
    print_whole(module, false)
}

/// The module's text with every op's location (`loc(...)`), so a module
/// parsed from it keeps the locations its ops had (the payload's lines).
pub fn print_with_locations(module: &melior::ir::Module) -> String {
    print_whole(module, true)
}

fn print_whole(module: &melior::ir::Module, locations: bool) -> String {
    let raw = module.as_operation().to_raw();
    // SAFETY: the module's op is valid for the call; the callback appends to
    // the string `print_to_string` passes, alive for the call.
    print_to_string(|callback, data| unsafe { schedPrintOperation(raw, locations, callback, data) })
}

/// Drops the results of every `linalg.generic` in `module` that nothing
/// reads, with their inits and the body ops only they needed, when the
/// other results do not depend on them (`shim/results.cpp`: PyTorch's
/// softmax also yields the unread index of its maximum, which keeps the
/// reduction from vectorizing). Returns the generics rewritten.
pub fn drop_unread_results(module: &mut melior::ir::Module) -> i64 {
    let raw = module.as_operation().to_raw();
    // SAFETY: the module's op is valid and exclusively borrowed for the call;
    // the shim replaces generics by generics computing the results read.
    unsafe { schedDropUnreadResults(raw) }
}

/// Writes every `linalg.generic` output of `module` indexed by a constant 0
/// (a unit dimension PyTorch's `keepdim=True` kept) through a tensor without
/// that dimension, expanded back for the readers (`shim/keepdims.cpp`: once
/// `rfactor` splits such a reduction, MLIR's vectorizer refuses the partial
/// op's map). Returns the generics rewritten.
pub fn drop_kept_dims(module: &mut melior::ir::Module) -> i64 {
    let raw = module.as_operation().to_raw();
    // SAFETY: the module's op is valid and exclusively borrowed for the call;
    // the shim replaces generics by generics with the same loops and body.
    unsafe { schedDropKeptDims(raw) }
}

/// Makes MLIR print an op in a diagnostic without its regions and without
/// verifying it again, for the whole process (`shim/printing.cpp` says why:
/// upstream ops print payload ops into diagnostics they may never emit).
/// Payloads are printed whole by [`print_module`].
pub fn print_ops_briefly_in_diagnostics() {
    // SAFETY: sets two of MLIR's printing options once (a thread-safe static
    // in the shim); no MLIR object is passed.
    unsafe { schedPrintOpsBrieflyInDiagnostics() }
}

/// A borrowed (pointer, length) view of a Rust string for the C API.
pub fn string_ref(text: &str) -> MlirStringRef {
    MlirStringRef {
        data: text.as_ptr() as *const _,
        length: text.len(),
    }
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
        Self {
            raw,
            _module: PhantomData,
        }
    }

    /// The raw handle, for identity comparisons only.
    pub fn to_raw(self) -> MlirOperation {
        self.raw
    }

    /// A view of a module's top-level operation, borrowing the module.
    pub fn of_module(module: &'m melior::ir::Module) -> Self {
        // SAFETY: the module owns the operation and outlives `'m` (borrowed).
        unsafe { Self::from_raw(module.as_operation().to_raw()) }
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
            Some(print_to_string(|callback, data| {
                mlirAttributePrint(attribute, callback, data)
            }))
        }
    }

    /// Whether the op's attribute `name` is a `dense_resource`, whose
    /// data lives in the module's resource section, not in the op's text.
    pub fn holds_resource(self, name: &str) -> bool {
        // SAFETY: as in `attribute_text`; a missing attribute is checked first.
        unsafe {
            let attribute = mlirOperationGetAttributeByName(self.raw, string_ref(name));
            !attribute.ptr.is_null() && mlirAttributeIsADenseResourceElements(attribute)
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
            Some(
                (0..count)
                    .map(|i| mlirDenseI32ArrayGetElement(attribute, i))
                    .collect(),
            )
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

    /// The op that computes operand `index`, looking through the view ops
    /// in [`VIEW_OPS`] (each's first operand is its source), with the names
    /// of the views passed, nearest the operand first. `None` for a block
    /// argument (also behind views) or a bad index.
    pub fn operand_through_views(self, index: usize) -> Option<(MlirOperation, Vec<String>)> {
        if index >= self.operand_count() {
            return None;
        }
        let mut views = Vec::new();
        // SAFETY: valid op and an index below the operand count; each owner is
        // an op of the same module, and a view op has at least one operand.
        unsafe {
            let mut value = mlirOperationGetOperand(self.raw, index as isize);
            loop {
                if !mlirValueIsAOpResult(value) {
                    return None;
                }
                let owner = mlirOpResultGetOwner(value);
                let name = Self::from_raw(owner).name();
                if !VIEW_OPS.contains(&name.as_str()) || mlirOperationGetNumOperands(owner) == 0 {
                    return Some((owner, views));
                }
                views.push(name);
                value = mlirOperationGetOperand(owner, 0);
            }
        }
    }

    /// Which argument of `function`'s entry block operand `index` is, looking
    /// through `memref.cast`s; `None` for any other value or a bad index.
    pub fn operand_argument_of(self, index: usize, function: OpView<'m>) -> Option<usize> {
        if index >= self.operand_count() {
            return None;
        }
        // SAFETY: valid ops (constructor contract) and an index below the operand
        // count; every value, owner and block read comes from them and is checked
        // for its kind before use.
        unsafe {
            let mut value = mlirOperationGetOperand(self.raw, index as isize);
            while mlirValueIsAOpResult(value) {
                let owner = mlirOpResultGetOwner(value);
                if Self::from_raw(owner).name() != "memref.cast" {
                    return None;
                }
                value = mlirOperationGetOperand(owner, 0);
            }
            if !mlirValueIsABlockArgument(value) || mlirOperationGetNumRegions(function.raw) == 0 {
                return None;
            }
            let entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(function.raw, 0));
            mlirBlockEqual(mlirBlockArgumentGetOwner(value), entry)
                .then(|| mlirBlockArgumentGetArgNumber(value) as usize)
        }
    }

    /// Which argument of `function`'s entry block the buffer operand `index`
    /// views, looking through [`MEMREF_VIEW_OPS`] (each's first operand is
    /// the buffer it views); `None` for a buffer allocated in the function.
    pub fn operand_root_argument(self, index: usize, function: OpView<'m>) -> Option<usize> {
        if index >= self.operand_count() {
            return None;
        }
        // SAFETY: as in `operand_argument_of`; a view op has at least one operand.
        unsafe {
            let mut value = mlirOperationGetOperand(self.raw, index as isize);
            while mlirValueIsAOpResult(value) {
                let owner = mlirOpResultGetOwner(value);
                let name = Self::from_raw(owner).name();
                if !MEMREF_VIEW_OPS.contains(&name.as_str())
                    || mlirOperationGetNumOperands(owner) == 0
                {
                    return None;
                }
                value = mlirOperationGetOperand(owner, 0);
            }
            if mlirOperationGetNumRegions(function.raw) == 0 {
                return None;
            }
            let entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(function.raw, 0));
            mlirBlockEqual(mlirBlockArgumentGetOwner(value), entry)
                .then(|| mlirBlockArgumentGetArgNumber(value) as usize)
        }
    }

    /// Where operand `index` comes from inside `owner`'s first block: one of
    /// its arguments, or one of the ops directly in it (by position).
    pub fn operand_source(self, index: usize, owner: OpView<'m>) -> Option<ValueSource> {
        if index >= self.operand_count() {
            return None;
        }
        // SAFETY: valid ops (constructor contract) and an index below the operand
        // count; the value's kind is checked before reading its owner.
        unsafe {
            let value = mlirOperationGetOperand(self.raw, index as isize);
            if mlirValueIsABlockArgument(value) {
                if mlirOperationGetNumRegions(owner.raw) == 0 {
                    return None;
                }
                let entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(owner.raw, 0));
                return mlirBlockEqual(mlirBlockArgumentGetOwner(value), entry)
                    .then(|| ValueSource::Argument(mlirBlockArgumentGetArgNumber(value) as usize));
            }
            let defining = mlirOpResultGetOwner(value);
            owner
                .children()
                .iter()
                .position(|op| op.raw.ptr == defining.ptr)
                .map(ValueSource::Op)
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

    /// The types of the op's results, each printed.
    pub fn result_types(self) -> Vec<String> {
        // SAFETY: valid op; results are read below their count.
        unsafe {
            (0..mlirOperationGetNumResults(self.raw))
                .map(|i| {
                    let ty = mlirValueGetType(mlirOperationGetResult(self.raw, i));
                    print_to_string(|callback, data| mlirTypePrint(ty, callback, data))
                })
                .collect()
        }
    }

    /// For a `func.func`: its input and result types, each printed.
    pub fn function_types(self) -> Option<(Vec<String>, Vec<String>)> {
        // SAFETY: as in `attribute_text`; the attribute and type kinds are checked before use.
        unsafe {
            let attribute = mlirOperationGetAttributeByName(self.raw, string_ref("function_type"));
            if attribute.ptr.is_null() || !mlirAttributeIsAType(attribute) {
                return None;
            }
            let ty = mlirTypeAttrGetValue(attribute);
            if !mlirTypeIsAFunction(ty) {
                return None;
            }
            let print =
                |t: MlirType| print_to_string(|callback, data| mlirTypePrint(t, callback, data));
            let inputs = (0..mlirFunctionTypeGetNumInputs(ty))
                .map(|i| print(mlirFunctionTypeGetInput(ty, i)))
                .collect();
            let results = (0..mlirFunctionTypeGetNumResults(ty))
                .map(|i| print(mlirFunctionTypeGetResult(ty, i)))
                .collect();
            Some((inputs, results))
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

/// A shared reference to the op `op` points at (melior has no safe
/// conversion), to insert ops before it.
pub fn shared_ref<'c, 'a>(
    op: &melior::ir::operation::OperationRefMut<'c, 'a>,
) -> OperationRef<'c, 'a> {
    use melior::ir::operation::OperationLike;
    // SAFETY: the same valid op, borrowed for no longer than the mutable
    // reference's lifetimes.
    unsafe { OperationRef::from_raw(op.to_raw()) }
}

/// Erases `op`, found by a post-order walk (which allows erasing the op it
/// visits). The op must have no results in use.
pub fn erase_visited(op: melior::ir::operation::OperationRefMut<'_, '_>) -> Result<(), String> {
    let raw = op.to_raw();
    // SAFETY: valid op (from the walk); its results are checked for uses first.
    unsafe {
        for i in 0..mlirOperationGetNumResults(raw) {
            if !mlirValueGetFirstUse(mlirOperationGetResult(raw, i))
                .ptr
                .is_null()
            {
                return Err("the op's results are still used".into());
            }
        }
        mlirOperationDestroy(raw);
    }
    Ok(())
}

/// Where a value inside a block comes from ([`OpView::operand_source`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueSource {
    /// The block's argument with this number.
    Argument(usize),
    /// A result of the op at this position in the block.
    Op(usize),
}

/// Owned transform-interpreter options.
struct TransformOptions(MlirTransformOptions);

impl TransformOptions {
    fn new(expensive_checks: bool) -> Self {
        // SAFETY: creating options has no preconditions; the handle is destroyed in Drop.
        let raw = unsafe { mlirTransformOptionsCreate() };
        // SAFETY: `raw` was just created and is valid.
        unsafe { mlirTransformOptionsEnableExpensiveChecks(raw, expensive_checks) };
        Self(raw)
    }
}

impl Drop for TransformOptions {
    fn drop(&mut self) {
        // SAFETY: created by `mlirTransformOptionsCreate` and destroyed exactly once.
        unsafe { mlirTransformOptionsDestroy(self.0) }
    }
}

unsafe extern "C" {
    /// Defined in `shim/registry.cpp`.
    fn schedRegisterDialects(registry: MlirDialectRegistry);
    /// Defined in `shim/results.cpp`.
    fn schedDropUnreadResults(root: MlirOperation) -> i64;
    /// Defined in `shim/keepdims.cpp`.
    fn schedDropKeptDims(root: MlirOperation) -> i64;
    /// Defined in `shim/printing.cpp`.
    fn schedPrintOpsBrieflyInDiagnostics();
    /// Defined in `shim/printing.cpp`.
    fn schedPrintOperation(
        op: MlirOperation,
        debug_info: bool,
        callback: MlirStringCallback,
        user_data: *mut c_void,
    );
}

/// Registers every upstream dialect with its interface implementations, the
/// transform extensions the planner's scripts use, and the LLVM-conversion
/// interfaces lowering needs (`shim/registry.cpp` lists them and says why).
pub fn register_dialects(registry: &melior::dialect::DialectRegistry) {
    // SAFETY: `registry` is a live registry; the shim only inserts into it.
    unsafe { schedRegisterDialects(registry.to_raw()) }
}

/// Runs the named sequence `entry` of `transform_module` on `payload`.
/// `expensive_checks` makes the interpreter verify every handle use (slower,
/// catches use-after-invalidation). Returns whether it succeeded; diagnostics
/// go to the context's handlers.
pub fn apply_named_sequence(
    payload: OperationRef,
    entry: OperationRef,
    transform_module: OperationRef,
    expensive_checks: bool,
) -> bool {
    let options = TransformOptions::new(expensive_checks);
    // SAFETY: all three operations are alive for the duration of the call (borrowed),
    // belong to the same context, and `entry` is nested in `transform_module`
    // (checked by the caller); the options outlive the call.
    let result = unsafe {
        mlirTransformApplyNamedSequence(
            payload.to_raw(),
            entry.to_raw(),
            transform_module.to_raw(),
            options.0,
        )
    };
    result.value != 0
}
