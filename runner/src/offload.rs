//! The offload phase of lowering: after bufferization, each linalg op the
//! planner marked `sched.accelerate = "TARGET"` (a contraction tile on
//! memrefs) is replaced by a call of a helper function, which reads the
//! tile's sizes, leading dimensions and addresses from the memrefs and calls
//! the target's kernel through the tile ABI (`microkernels/README.md`).
//! An operand the planner marks stored transposed (`sched.accelerate_transposed`)
//! is first copied, transposed, into a row-major buffer the kernel reads.
//! Nothing else changes: the other linalg ops are lowered as before.
//!
//! The helper refers to three symbols per target, which the JIT binds
//! ([`crate::ffi::KernelSlot`]): the kernel, its context, and a status word
//! where a failed call (a refused tile, or a tile whose rows are not
//! contiguous) leaves its code, so that `Program::call` reports it instead
//! of returning wrong results.

use melior::ir::attribute::{FlatSymbolRefAttribute, StringAttribute};
use melior::ir::block::BlockLike;
use melior::ir::operation::{
    OperationBuilder, OperationLike, OperationMutLike, WalkOrder, WalkResult,
};
use melior::ir::r#type::{MemRefType, ShapedTypeLike};
use melior::ir::{Identifier, Module, Type, Value, ValueLike};
use melior::Context;
use payload::PayloadError;

use payload::attributes::{ACCELERATE as ANNOTATION, ACCELERATE_TRANSPOSED as TRANSPOSED};

/// The element types of a tile call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Types {
    /// f32 x f32 -> f32.
    F32,
    /// i8 x i8 -> i32.
    I8I32,
}

impl Types {
    /// The element types of A, B and C, as MLIR writes them.
    fn elements(self) -> [&'static str; 3] {
        match self {
            Types::F32 => ["f32", "f32", "f32"],
            Types::I8I32 => ["i8", "i8", "i32"],
        }
    }

    /// The suffix of the ABI function's name (`sched_tile_f32_NAME`).
    fn suffix(self) -> &'static str {
        match self {
            Types::F32 => "f32",
            Types::I8I32 => "i8i32",
        }
    }
}

/// The symbol the JIT binds to `target`'s kernel for `types`.
pub fn kernel_symbol(target: &str, types: Types) -> String {
    format!("__sched_kernel_{target}_{}", types.suffix())
}

/// The symbol the JIT binds to `target`'s context.
pub fn context_symbol(target: &str) -> String {
    format!("__sched_context_{target}")
}

/// The symbol the JIT binds to `target`'s status word.
pub fn status_symbol(target: &str) -> String {
    format!("__sched_status_{target}")
}

/// One kind of tile call: a target, the element types, the tile's rank, and
/// whether A and B are stored transposed.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Helper {
    target: String,
    types: Types,
    rank: usize,
    transposed: [bool; 2],
}

impl Helper {
    fn symbol(&self) -> String {
        let suffix = self.types.suffix();
        let layout = match self.transposed {
            [false, false] => "",
            [true, false] => "_ta",
            [false, true] => "_tb",
            [true, true] => "_tab",
        };
        format!(
            "__sched_offload_{}_{suffix}_r{}{layout}",
            self.target, self.rank
        )
    }
}

/// Replaces every marked op of the bufferized `module` by a kernel call;
/// returns the targets called and with which element types, in order of
/// first use.
pub fn offload_tiles(
    context: &Context,
    module: &mut Module,
) -> Result<Vec<(String, Types)>, PayloadError> {
    let mut helpers: Vec<Helper> = Vec::new();
    // The ops replaced, by address, for the erasing walk.
    let mut replaced: Vec<usize> = Vec::new();
    let mut failure = None;
    module
        .as_operation_mut()
        .walk_mut(WalkOrder::PreOrder, |mut op| {
            let string = |name: &str| {
                op.attribute(name)
                    .ok()
                    .and_then(|a| StringAttribute::try_from(a).ok())
                    .map(|a| a.value().to_string())
            };
            let Some(target) = string(ANNOTATION) else {
                return WalkResult::Advance;
            };
            let transposed = string(TRANSPOSED).unwrap_or_default();
            let transposed = [transposed.contains('a'), transposed.contains('b')];
            match replace(context, &mut op, &target, transposed) {
                Ok(helper) => {
                    replaced.push(op.to_raw().ptr as usize);
                    if !helpers.contains(&helper) {
                        helpers.push(helper);
                    }
                    WalkResult::Skip
                }
                Err(why) => {
                    failure = Some(format!("cannot offload a tile to `{target}`: {why}"));
                    WalkResult::Interrupt
                }
            }
        });
    if let Some(why) = failure {
        return Err(PayloadError::internal(why));
    }
    if helpers.is_empty() {
        return Ok(Vec::new());
    }
    let mut erased = Ok(());
    module
        .as_operation_mut()
        .walk_mut(WalkOrder::PostOrder, |op| {
            if replaced.contains(&(op.to_raw().ptr as usize)) {
                if let Err(why) = payload::ffi::erase_visited(op) {
                    erased = Err(why);
                    return WalkResult::Interrupt;
                }
            }
            WalkResult::Advance
        });
    erased
        .map_err(|why| PayloadError::internal(format!("cannot remove an offloaded op: {why}")))?;
    let mut called: Vec<(String, Types)> = Vec::new();
    let mut text = String::new();
    for helper in &helpers {
        if !called.iter().any(|(target, _)| *target == helper.target) {
            text.push_str(&target_declarations(&helper.target));
        }
        let call = (helper.target.clone(), helper.types);
        if !called.contains(&call) {
            text.push_str(&kernel_declaration(&helper.target, helper.types));
            called.push(call);
        }
        text.push_str(&helper_text(helper));
    }
    crate::passes::append_generated(context, module, &text, "offload helpers")?;
    Ok(called)
}

/// The memref type an operand is cast to: any sizes, strides and offset.
fn dynamic_memref(rank: usize, element: &str) -> String {
    let sizes = vec!["?"; rank].join("x");
    let strides = vec!["?"; rank].join(", ");
    format!("memref<{sizes}x{element}, strided<[{strides}], offset: ?>>")
}

/// Inserts the casts and the call before `op`.
fn replace(
    context: &Context,
    op: &mut melior::ir::operation::OperationRefMut<'_, '_>,
    target: &str,
    transposed: [bool; 2],
) -> Result<Helper, String> {
    if op.operand_count() != 3 || op.result_count() != 0 {
        return Err(format!(
            "`{}` is not a contraction on buffers (A, B into C)",
            op.name().as_string_ref().as_str().unwrap_or("?")
        ));
    }
    let mut rank = None;
    let mut elements = Vec::new();
    for i in 0..3 {
        let ty = op.operand(i).map_err(|e| e.to_string())?.r#type();
        let memref =
            MemRefType::try_from(ty).map_err(|_| format!("operand {i} is not a memref"))?;
        elements.push(memref.element().to_string());
        let r = memref.rank();
        if r < 2 || rank.is_some_and(|rank| rank != r) {
            return Err(format!(
                "operand {i} is {ty}: the operands differ in rank or are not matrices"
            ));
        }
        rank = Some(r);
    }
    let types = [Types::F32, Types::I8I32]
        .into_iter()
        .find(|t| t.elements() == [&elements[0][..], &elements[1][..], &elements[2][..]])
        .ok_or_else(|| {
            format!(
                "its elements are {} x {} -> {}; tiles are f32 x f32 -> f32 or i8 x i8 -> i32",
                elements[0], elements[1], elements[2]
            )
        })?;
    let helper = Helper {
        target: target.to_string(),
        types,
        rank: rank.expect("three operands were read"),
        transposed,
    };
    let element_types = types.elements();
    let block = op.block().ok_or("the op is not in a block")?;
    let location = op.location();
    let anchor = payload::ffi::shared_ref(op);
    let mut operands: Vec<Value> = Vec::new();
    for (i, element) in element_types.iter().enumerate() {
        let value = op.operand(i).map_err(|e| e.to_string())?;
        let dynamic = Type::parse(context, &dynamic_memref(helper.rank, element))
            .ok_or("the dynamic memref type does not parse")?;
        let cast = OperationBuilder::new("memref.cast", location)
            .add_operands(&[value])
            .add_results(&[dynamic])
            .build()
            .map_err(|e| e.to_string())?;
        let cast = block.insert_operation_before(anchor, cast);
        operands.push(cast.result(0).map_err(|e| e.to_string())?.into());
    }
    let call = OperationBuilder::new("func.call", location)
        .add_attributes(&[(
            Identifier::new(context, "callee"),
            FlatSymbolRefAttribute::new(context, &helper.symbol()).into(),
        )])
        .add_operands(&operands)
        .build()
        .map_err(|e| e.to_string())?;
    block.insert_operation_before(anchor, call);
    Ok(helper)
}

/// The context and status declarations of one target.
fn target_declarations(target: &str) -> String {
    format!(
        "llvm.mlir.global external @{context}() {{addr_space = 0 : i32}} : i8\n\
         llvm.mlir.global external @{status}() {{addr_space = 0 : i32}} : i32\n",
        context = context_symbol(target),
        status = status_symbol(target),
    )
}

/// The declaration of one target's kernel for some element types: every
/// tile call has the same C signature, pointers aside.
fn kernel_declaration(target: &str, types: Types) -> String {
    format!(
        "llvm.func @{}(!llvm.ptr, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64, i32) -> i32\n",
        kernel_symbol(target, types)
    )
}

/// The helper of one kind of tile call: reads each operand's address, sizes
/// and leading dimension, checks that rows are contiguous and batch
/// dimensions are 1, calls the kernel (accumulating into C, as the linalg op
/// did), and stores a failed call's status.
fn helper_text(helper: &Helper) -> String {
    let rank = helper.rank;
    let elements = helper.types.elements();
    let memrefs = elements.map(|element| dynamic_memref(rank, element));
    let indices = vec!["index"; 2 * rank + 1].join(", ");
    let mut body = String::new();
    let mut line = |text: String| {
        body.push_str("  ");
        body.push_str(&text);
        body.push('\n');
    };
    line(format!(
        "%ctx = llvm.mlir.addressof @{} : !llvm.ptr",
        context_symbol(&helper.target)
    ));
    line(format!(
        "%word = llvm.mlir.addressof @{} : !llvm.ptr",
        status_symbol(&helper.target)
    ));
    line("%accumulate = arith.constant 1 : i32".into());
    line("%ok = arith.constant 0 : i32".into());
    line("%bad = arith.constant 2 : i32".into());
    line("%c1 = arith.constant 1 : index".into());
    line("%c4 = arith.constant 4 : index".into());
    line("%true = arith.constant true".into());
    let (row, column) = (rank - 2, rank - 1);
    let mut conditions = Vec::new();
    for (i, x) in ["a", "b", "c"].into_iter().enumerate() {
        let (memref, element) = (&memrefs[i], elements[i]);
        let size = if element == "i8" { "%c1" } else { "%c4" };
        line(format!(
            "%base_{x}, %offset_{x}, %sizes_{x}:{rank}, %strides_{x}:{rank} = memref.extract_strided_metadata %{x} : {memref} -> memref<{element}>, {indices}"
        ));
        if i < 2 && helper.transposed[i] {
            // Stored [columns, rows]: copied, transposed, into a row-major buffer.
            let view = format!("memref<?x?x{element}, strided<[?, ?], offset: ?>>");
            let packed = format!("memref<?x?x{element}>");
            line(format!(
                "%view_{x} = memref.reinterpret_cast %base_{x} to offset: [%offset_{x}], sizes: [%sizes_{x}#{row}, %sizes_{x}#{column}], strides: [%strides_{x}#{row}, %strides_{x}#{column}] : memref<{element}> to {view}"
            ));
            line(format!(
                "%packed_{x} = memref.alloc(%sizes_{x}#{column}, %sizes_{x}#{row}) {{alignment = 64 : i64}} : {packed}"
            ));
            line(format!(
                "linalg.transpose ins(%view_{x} : {view}) outs(%packed_{x} : {packed}) permutation = [1, 0]"
            ));
            line(format!(
                "%address_{x} = memref.extract_aligned_pointer_as_index %packed_{x} : {packed} -> index"
            ));
            line(format!(
                "%leading_{x} = arith.index_cast %sizes_{x}#{row} : index to i64"
            ));
        } else {
            line(format!(
                "%aligned_{x} = memref.extract_aligned_pointer_as_index %base_{x} : memref<{element}> -> index"
            ));
            line(format!(
                "%bytes_{x} = arith.muli %offset_{x}, {size} : index"
            ));
            line(format!(
                "%address_{x} = arith.addi %aligned_{x}, %bytes_{x} : index"
            ));
            line(format!(
                "%leading_{x} = arith.index_cast %strides_{x}#{row} : index to i64"
            ));
            line(format!(
                "%unit_{x} = arith.cmpi eq, %strides_{x}#{column}, %c1 : index"
            ));
            conditions.push(format!("%unit_{x}"));
        }
        line(format!(
            "%integer_{x} = arith.index_cast %address_{x} : index to i64"
        ));
        line(format!(
            "%pointer_{x} = llvm.inttoptr %integer_{x} : i64 to !llvm.ptr"
        ));
        for d in 0..row {
            line(format!(
                "%batch_{x}_{d} = arith.cmpi eq, %sizes_{x}#{d}, %c1 : index"
            ));
            conditions.push(format!("%batch_{x}_{d}"));
        }
    }
    let mut all = "%true".to_string();
    for (i, condition) in conditions.iter().enumerate() {
        line(format!("%all_{i} = arith.andi {all}, {condition} : i1"));
        all = format!("%all_{i}");
    }
    // A is m x k (stored k x m when transposed); B is k x n (n x k).
    let (m_at, k_at) = if helper.transposed[0] {
        (column, row)
    } else {
        (row, column)
    };
    let n_at = if helper.transposed[1] { row } else { column };
    line(format!(
        "%m = arith.index_cast %sizes_a#{m_at} : index to i64"
    ));
    line(format!(
        "%k = arith.index_cast %sizes_a#{k_at} : index to i64"
    ));
    line(format!(
        "%n = arith.index_cast %sizes_b#{n_at} : index to i64"
    ));
    line(format!("%status = scf.if {all} -> (i32) {{"));
    line(format!(
        "  %code = llvm.call @{}(%ctx, %m, %n, %k, %pointer_a, %leading_a, %pointer_b, %leading_b, %pointer_c, %leading_c, %accumulate) : (!llvm.ptr, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64, i32) -> i32",
        kernel_symbol(&helper.target, helper.types)
    ));
    line("  scf.yield %code : i32".into());
    line("} else {".into());
    line("  scf.yield %bad : i32".into());
    line("}".into());
    line("%failed = arith.cmpi ne, %status, %ok : i32".into());
    line("scf.if %failed {".into());
    // Tiles of parallel loops may fail at once: the store is atomic.
    line(
        "  llvm.store %status, %word atomic monotonic {alignment = 4 : i64} : i32, !llvm.ptr"
            .into(),
    );
    line("}".into());
    // The packed copies are freed by lowering's buffer-deallocation pipeline.
    line("return".into());
    let [a, b, c] = &memrefs;
    format!(
        "func.func private @{}(%a: {a}, %b: {b}, %c: {c}) {{\n{body}}}\n",
        helper.symbol()
    )
}
