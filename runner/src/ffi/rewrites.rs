//! The shim's rewrites of a whole module around bufferization
//! and outlining (`shim/empties.cpp`, `shim/borders.cpp`, `shim/readonly.cpp`, `shim/deinterleave.cpp`, `shim/broadcasts.cpp`, `shim/copies.cpp`, `shim/vectors.cpp`,
//! `shim/contract.cpp`, `shim/approximate.cpp`, `shim/noalias.cpp`,
//! `shim/loops.cpp`), each behind a
//! safe wrapper that borrows the module exclusively for the call.

use mlir_sys::MlirOperation;

/// Gives every use of a `tensor.empty` in `module` but one an empty of its
/// own, before bufferization (`shim/empties.cpp` says why: one empty shared
/// by n stages made one-shot bufferization's analysis quadratic). Returns
/// the copies made.
pub fn untie_shared_empty_tensors(module: &mut melior::ir::Module) -> i64 {
    let raw = module.as_operation().to_raw();
    // SAFETY: the module's op is valid and exclusively borrowed for the call;
    // the shim only inserts tensor.empty ops and redirects operands to them.
    unsafe { schedUntieSharedEmptyTensors(raw) }
}

/// Before bufferization: marks each tensor argument of `entry` (which takes
/// `count` arguments) that no op writes into (no op's destination, no
/// loop's carried init)
/// `bufferization.writable = false`, so bufferization never writes its
/// buffer (`shim/readonly.cpp`). Returns, per argument, whether it was
/// marked; `None` when the module has no such function.
pub fn mark_read_only_arguments(
    module: &mut melior::ir::Module,
    entry: &str,
    count: usize,
) -> Option<Vec<bool>> {
    let raw = module.as_operation().to_raw();
    let name = melior::StringRef::new(entry);
    let mut read_only = vec![0i8; count];
    // SAFETY: the module's op is valid and exclusively borrowed for the call;
    // `name` outlives it; the shim writes at most `count` bytes of
    // `read_only` (exactly `count`, or none when it returns -1) and only sets
    // argument attributes.
    let marked = unsafe {
        schedMarkReadOnlyArguments(raw, name.to_raw(), read_only.as_mut_ptr(), count as i64)
    };
    (marked >= 0).then(|| read_only.into_iter().map(|r| r != 0).collect())
}

/// Before bufferization: each `tensor.pad` of static shapes with a constant
/// value (not `nofold`) becomes a fill of the padded shape, placed before the
/// source's producer, and an insert of the source into it
/// (`shim/empties.cpp`), so empty-tensor elimination has the producer write
/// into the padded tensor. Returns the pads rewritten.
pub fn pads_into_fills(module: &mut melior::ir::Module) -> i64 {
    let raw = module.as_operation().to_raw();
    // SAFETY: the module's op is valid and exclusively borrowed for the call;
    // the shim replaces tensor.pad ops by tensor.empty, linalg.fill and
    // tensor.insert_slice ops computing the same tensor.
    unsafe { schedPadsIntoFills(raw) }
}

/// After bufferization: the border fills of each padded buffer move into the
/// `scf.forall` that then writes its interior, each iteration filling the
/// border of the part it writes (`shim/borders.cpp`), so the border is
/// written while its rows are in cache, on the loop's threads. Returns the
/// fills moved.
pub fn fill_borders_in_producers(module: &mut melior::ir::Module) -> i64 {
    let raw = module.as_operation().to_raw();
    // SAFETY: the module's op is valid and exclusively borrowed for the call;
    // the shim only replaces linalg.fill ops of memref subviews by fills of
    // parts of the same regions.
    unsafe { schedFillBordersInProducers(raw) }
}

/// Before bufferization: each vector read of a slice with a stride above 1
/// on its innermost dimension (a stride-2 window vectorized along its row)
/// becomes contiguous reads of 16 lanes' worth and shuffles keeping every
/// stride-th element (`shim/deinterleave.cpp`), instead of one load per
/// element. Returns the reads rewritten.
pub fn deinterleave_strided_reads(module: &mut melior::ir::Module) -> i64 {
    let raw = module.as_operation().to_raw();
    // SAFETY: the module's op is valid and exclusively borrowed for the call;
    // the shim replaces vector.transfer_read ops by reads and shuffles of the
    // same elements.
    unsafe { schedDeinterleaveStridedReads(raw) }
}

/// Before bufferization: each vector read of a broadcast's result (a
/// `linalg.broadcast`, or a generic that only copies its input) reads the
/// broadcast's input, with the added dimensions broadcast by the read
/// (`shim/broadcasts.cpp`): a bias broadcast computed in a convolution's
/// tile is no longer gathered lane by lane. Returns the reads rewritten.
pub fn read_broadcast_inputs(module: &mut melior::ir::Module) -> i64 {
    let raw = module.as_operation().to_raw();
    // SAFETY: the module's op is valid and exclusively borrowed for the call;
    // the shim replaces vector.transfer_read ops by reads of the same values.
    unsafe { schedReadBroadcastInputs(raw) }
}

/// After bufferization: each copy through a temporary buffer between two
/// regions of one buffer that share no element becomes one direct copy
/// (`shim/copies.cpp`). Returns the temporaries removed.
pub fn forward_temporary_copies(module: &mut melior::ir::Module) -> i64 {
    let raw = module.as_operation().to_raw();
    // SAFETY: the module's op is valid and exclusively borrowed for the call;
    // the shim replaces two memref.copy ops and their temporary by one copy.
    unsafe { schedForwardTemporaryCopies(raw) }
}

/// After bufferization: each copy between buffers of one static shape of at
/// most `max_elements` elements, contiguous in their innermost dimension,
/// becomes one vector read and one vector write (`shim/copies.cpp`), a few
/// loads and stores in place of a runtime call or scalar loops. Returns the
/// copies replaced.
pub fn vectorize_small_copies(module: &mut melior::ir::Module, max_elements: i64) -> i64 {
    let raw = module.as_operation().to_raw();
    // SAFETY: the module's op is valid and exclusively borrowed for the call;
    // the shim replaces copy ops by vector transfers of the same buffers.
    unsafe { schedVectorizeSmallCopies(raw, max_elements) }
}

/// After bufferization: each vector whose innermost dimension is not a power
/// of two (`vector<8x48xf32>`) is split into power-of-two pieces of at most a
/// `bits`-wide machine vector, loop-carried ones too (`shim/vectors.cpp` says
/// why: LLVM rebuilt such a register tile through the stack at every step).
/// Returns the loops whose arguments were split.
pub fn split_wide_vectors(module: &mut melior::ir::Module, bits: i64) -> i64 {
    let raw = module.as_operation().to_raw();
    // SAFETY: the module's op is valid and exclusively borrowed for the call;
    // the shim replaces loops and vector ops by equivalent ones on pieces.
    unsafe { schedSplitWideVectors(raw, bits) }
}

/// After bufferization, on AVX2: every 2-D f32 vector transpose whose sides
/// are multiples of 8 becomes 8 x 8 transposes in AVX2 shuffles
/// (`shim/transposes.cpp` says why: a 16 x 16 one spilled). Returns the
/// transposes lowered so.
pub fn transpose_in_avx2_blocks(module: &mut melior::ir::Module) -> i64 {
    let raw = module.as_operation().to_raw();
    // SAFETY: the module's op is valid and exclusively borrowed for the call;
    // the shim replaces transposes by equivalent blocks and shuffles.
    unsafe { schedTransposeInAvx2Blocks(raw) }
}

/// After bufferization: every vector multiply, add and subtract may be
/// contracted, so LLVM fuses a multiply feeding an add into one fused
/// multiply-add (`shim/contract.cpp` says why only vector ones). Returns
/// the ops marked.
pub fn contract_vector_arithmetic(module: &mut melior::ir::Module) -> i64 {
    let raw = module.as_operation().to_raw();
    // SAFETY: the module's op is valid and exclusively borrowed for the call;
    // the shim only sets the fast-math attribute of arith ops.
    unsafe { schedContractVectorArithmetic(raw) }
}

/// After bufferization: every vector math op MLIR can approximate (exp,
/// tanh, erf, log, ...) becomes its polynomial approximation in vector
/// arithmetic (`shim/approximate.cpp` says why). Returns the ops rewritten.
pub fn approximate_vector_math(module: &mut melior::ir::Module) -> i64 {
    let raw = module.as_operation().to_raw();
    // SAFETY: the module's op is valid and exclusively borrowed for the call;
    // the shim rewrites math ops inside it with MLIR's patterns.
    unsafe { schedApproximateVectorMath(raw) }
}

/// Marks every innermost scalar `scf.for` of at least `min_trips` constant
/// iterations `unroll disable` for LLVM (`shim/loops.cpp` says why).
/// Returns the loops marked.
pub fn keep_scalar_rows_rolled(module: &mut melior::ir::Module, min_trips: i64) -> i64 {
    let raw = module.as_operation().to_raw();
    // SAFETY: the module's op is valid and exclusively borrowed for the call;
    // the shim only sets an attribute on loops.
    unsafe { schedKeepScalarRowsRolled(raw, min_trips) }
}

/// Moves the loop marks [`keep_scalar_rows_rolled`] made, which the
/// conversion to the LLVM dialect leaves on the loops' back edges, into the
/// branches' own `loop_annotation`. Returns the branches changed.
pub fn attach_loop_annotations(module: &mut melior::ir::Module) -> i64 {
    let raw = module.as_operation().to_raw();
    // SAFETY: as above; the shim only moves an attribute of `llvm.br` ops.
    unsafe { schedAttachLoopAnnotations(raw) }
}

/// After outlining: marks the buffer arguments of each function named
/// `prefix…` with one call that cannot share memory with the call's other
/// buffers `llvm.noalias` (`shim/noalias.cpp` says why and when). Returns
/// the arguments marked.
pub fn mark_outlined_no_alias(module: &mut melior::ir::Module, prefix: &str) -> i64 {
    let raw = module.as_operation().to_raw();
    let prefix = melior::StringRef::new(prefix);
    // SAFETY: the module's op is valid and exclusively borrowed for the call;
    // `prefix` outlives it; the shim only sets argument attributes.
    unsafe { schedMarkOutlinedNoAlias(raw, prefix.to_raw()) }
}

/// After outlining: each function named `prefix…` gets the constants all
/// its calls pass for an argument (loop bounds, a fill's vector) cloned in,
/// in place of the argument (`shim/constants.cpp` says why). Returns the
/// arguments replaced.
pub fn sink_outlined_constants(module: &mut melior::ir::Module, prefix: &str) -> i64 {
    let raw = module.as_operation().to_raw();
    let prefix = melior::StringRef::new(prefix);
    // SAFETY: the module's op is valid and exclusively borrowed for the call;
    // `prefix` outlives it; the shim only clones constants into functions.
    unsafe { schedSinkOutlinedConstants(raw, prefix.to_raw()) }
}

/// After [`sink_outlined_constants`] and [`mark_outlined_no_alias`]: the
/// functions named with `prefix` that are the same but for their names (a
/// network's repeated blocks) become one, their calls calling it
/// (`shim/merge.cpp`). Returns the functions erased.
pub fn merge_identical_outlined(module: &mut melior::ir::Module, prefix: &str) -> i64 {
    let raw = module.as_operation().to_raw();
    let prefix = melior::StringRef::new(prefix);
    // SAFETY: the module's op is valid and exclusively borrowed for the call;
    // `prefix` outlives it; the shim only redirects calls and erases their
    // former callees.
    unsafe { schedMergeIdenticalOutlined(raw, prefix.to_raw()) }
}

/// After the conversion to the LLVM dialect: the pointers
/// [`mark_outlined_no_alias`] marked become `llvm.noalias` arguments.
/// Returns the pointers marked.
pub fn apply_no_alias_marks(module: &mut melior::ir::Module) -> i64 {
    let raw = module.as_operation().to_raw();
    // SAFETY: the module's op is valid and exclusively borrowed for the call;
    // the shim only moves an attribute onto function arguments.
    unsafe { schedApplyNoAliasMarks(raw) }
}

/// After bufferization: each `memref.copy` of a region that is not
/// contiguous (a padded tensor's interior) becomes a `linalg.copy`, and so
/// loops LLVM vectorizes, instead of the runtime's element-wise copy
/// (`shim/copies.cpp`). Returns the copies replaced.
pub fn strided_copies_to_loops(module: &mut melior::ir::Module) -> i64 {
    let raw = module.as_operation().to_raw();
    // SAFETY: the module's op is valid and exclusively borrowed for the call;
    // the shim replaces copy ops with equivalent linalg copies.
    unsafe { schedStridedCopiesToLoops(raw) }
}

unsafe extern "C" {
    /// Defined in `shim/copies.cpp`.
    fn schedStridedCopiesToLoops(root: MlirOperation) -> i64;
    /// Defined in `shim/noalias.cpp`.
    fn schedApplyNoAliasMarks(root: MlirOperation) -> i64;
    /// Defined in `shim/constants.cpp`.
    fn schedSinkOutlinedConstants(root: MlirOperation, prefix: mlir_sys::MlirStringRef) -> i64;
    /// Defined in `shim/merge.cpp`.
    fn schedMergeIdenticalOutlined(root: MlirOperation, prefix: mlir_sys::MlirStringRef) -> i64;
    /// Defined in `shim/noalias.cpp`.
    fn schedMarkOutlinedNoAlias(root: MlirOperation, prefix: mlir_sys::MlirStringRef) -> i64;
    /// Defined in `shim/loops.cpp`.
    fn schedKeepScalarRowsRolled(root: MlirOperation, min_trips: i64) -> i64;
    /// Defined in `shim/loops.cpp`.
    fn schedAttachLoopAnnotations(root: MlirOperation) -> i64;
    /// Defined in `shim/readonly.cpp`.
    fn schedMarkReadOnlyArguments(
        root: MlirOperation,
        entry: mlir_sys::MlirStringRef,
        read_only: *mut i8,
        count: i64,
    ) -> i64;
    /// Defined in `shim/empties.cpp`.
    fn schedUntieSharedEmptyTensors(root: MlirOperation) -> i64;
    /// Defined in `shim/empties.cpp`.
    fn schedPadsIntoFills(root: MlirOperation) -> i64;
    /// Defined in `shim/borders.cpp`.
    fn schedFillBordersInProducers(root: MlirOperation) -> i64;
    /// Defined in `shim/deinterleave.cpp`.
    fn schedDeinterleaveStridedReads(root: MlirOperation) -> i64;
    /// Defined in `shim/broadcasts.cpp`.
    fn schedReadBroadcastInputs(root: MlirOperation) -> i64;
    /// Defined in `shim/copies.cpp`.
    fn schedForwardTemporaryCopies(root: MlirOperation) -> i64;
    /// Defined in `shim/copies.cpp`.
    fn schedVectorizeSmallCopies(root: MlirOperation, max_elements: i64) -> i64;
    /// Defined in `shim/vectors.cpp`.
    fn schedSplitWideVectors(root: MlirOperation, bits: i64) -> i64;
    /// Defined in `shim/transposes.cpp`.
    fn schedTransposeInAvx2Blocks(root: MlirOperation) -> i64;
    /// Defined in `shim/contract.cpp`.
    fn schedContractVectorArithmetic(root: MlirOperation) -> i64;
    /// Defined in `shim/approximate.cpp`.
    fn schedApproximateVectorMath(root: MlirOperation) -> i64;
}
