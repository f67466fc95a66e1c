//! Lowering a payload to the LLVM dialect with upstream passes: the
//! pipelines (bufferization, results computed in arguments, out-parameters,
//! parallel foralls to OpenMP, the rest), running them, and the analyses
//! between them. `jit::Program::compile` drives it.

use crate::passes::run_passes;
use payload::ffi::OpView;
use payload::signature::{entry_candidates, Signature};
use payload::transform::{apply_script, ApplyError};
use payload::PayloadError;

/// MLIR's C runtime support library (`memrefCopy` and friends, which lowered
/// copies between strided buffers call), loaded into every JIT.
pub const C_RUNNER_UTILS: &str = concat!(
    env!("MLIR_SYS_220_PREFIX"),
    "/lib/libmlir_c_runner_utils.so"
);

/// LLVM's OpenMP runtime (Debian's `libomp-22-dev`), loaded into the JIT of
/// payloads with parallel loops.
pub const OPENMP_RUNTIME: &str = concat!(env!("MLIR_SYS_220_PREFIX"), "/lib/libomp.so");

/// The first step of lowering: tensors become buffers. An argument the
/// payload overwrites (as the init of its result) is written in place, and
/// the function returns that argument.
pub const BUFFERIZE_PIPELINE: &str =
    "builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map})";

/// Drops the results that are arguments (the entry is made private for it:
/// upstream only drops results of private functions). The caller finds those
/// results in the arguments' buffers, so they are not copied at every call.
pub(crate) const DROP_ARGUMENT_RESULTS: &str = "builtin.module(drop-equivalent-buffer-results)";

/// Inlines the prefetch functions `crate::prefetch` inserted (as calls at
/// the start of loop bodies), so their addresses are computed in the loop.
pub(crate) const INLINE_PREFETCHES: &str = "builtin.module(inline)";

/// The other results become out-parameters the caller allocates. Loops
/// first stop carrying buffers they yield unchanged (canonicalization), so
/// a result computed by an `scf.for` is its buffer's allocation, which the
/// out-parameter replaces (else it was computed in a temporary and copied).
pub const OUT_PARAMS_PIPELINE: &str =
    "builtin.module(func.func(canonicalize),buffer-results-to-out-params{hoist-static-allocs modify-public-functions},func.func(canonicalize,cse))";

/// Between the two halves: every `scf.forall` the schedule marked parallel
/// (`sched.parallel`, which bufferization keeps) becomes an `scf.parallel`,
/// which the second half turns into an OpenMP parallel loop. Applied only to
/// modules that have such loops.
pub const PARALLEL_SCRIPT: &str = r#"module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %marked = transform.structured.match ops{["scf.forall"]} attributes{sched.parallel} in %root : (!transform.any_op) -> !transform.any_op
    transform.foreach %marked : !transform.any_op {
    ^bb0(%forall: !transform.any_op):
      %parallel = transform.loop.forall_to_parallel %forall : (!transform.any_op) -> !transform.any_op
    }
    transform.yield
  }
}"#;

/// The C interface every function of the payload gets (`_mlir_ciface_`
/// wrappers), requested before loop nests are outlined so that only the
/// payload's own functions get one.
pub const C_WRAPPERS_PIPELINE: &str = "builtin.module(func.func(llvm-request-c-wrappers))";

/// Before the second half, in a module with a function of more than
/// [`OUTLINED_ABOVE`] loop nests: each nest at the top of a function moves to
/// a function of its own and becomes a call. LLVM's loop passes
/// (IndVarSimplify above all) take time growing faster than the function,
/// so a long chain compiles in time linear in its length only outlined. The
/// new functions have internal linkage and LLVM may not inline them
/// (`passthrough = ["noinline"]`): with one call each, LLVM's
/// interprocedural constant propagation puts the loop bounds and constants
/// the call passes back into the nest, so the code is as fast
/// (`docs/performance.md`, "Why the code is as it is").
pub const OUTLINE_SCRIPT: &str = r#"module attributes {transform.with_named_sequence} {
  transform.named_sequence @sched_top_level_loop(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %op ["scf.forall", "scf.for", "scf.parallel"] : !transform.any_op
    %parent = transform.get_parent_op %op : (!transform.any_op) -> !transform.any_op
    transform.match.operation_name %parent ["func.func"] : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %nests = transform.collect_matching @sched_top_level_loop in %root : (!transform.any_op) -> !transform.any_op
    %functions, %calls = transform.loop.outline %nests {func_name = "sched_nest"} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %noinline = transform.param.constant ["noinline"] -> !transform.any_param
    transform.annotate %functions "passthrough" = %noinline : !transform.any_op, !transform.any_param
    %internal = transform.param.constant #llvm.linkage<internal> -> !transform.any_param
    transform.annotate %functions "llvm.linkage" = %internal : !transform.any_op, !transform.any_param
    transform.yield
  }
}"#;

/// Before outlining: the linalg ops no schedule tiled (all of them in an
/// unscheduled payload) become the loop nests they would become later in
/// [`LOOPS_PIPELINE`], so that they are outlined too.
pub const LINALG_TO_LOOPS: &str = "builtin.module(func.func(convert-linalg-to-loops))";

/// The name of the functions [`OUTLINE_SCRIPT`] makes (MLIR numbers them
/// `sched_nest_0`, `sched_nest_1`, …).
pub const OUTLINED_PREFIX: &str = "sched_nest";

/// A function with more loop nests (or linalg ops, each one later) than this has them outlined
/// ([`OUTLINE_SCRIPT`]). Below, one function compiles about as fast, and
/// LLVM sees every nest with its callers' facts, which made small models
/// faster whole.
pub const OUTLINED_ABOVE: usize = 64;

/// The first step of the second half: the other foralls run sequentially,
/// and the linalg ops left become loops ([`lower_to_llvm`] then marks the
/// scalar rows LLVM should keep rolled).
pub const LOOPS_PIPELINE: &str =
    "builtin.module(func.func(scf-forall-to-for,canonicalize,convert-linalg-to-loops))";

/// An innermost scalar loop of at least this many iterations is kept
/// rolled for LLVM, which vectorizes it along its row (`shim/loops.cpp`).
pub const ROLLED_ROW_TRIPS: i64 = 8;

/// The rest of the second half ([`LOOPS_PIPELINE`] first): parallel loops
/// become OpenMP, vector ops are lowered, and everything reaches the LLVM
/// dialect (the C interfaces were requested before,
/// [`C_WRAPPERS_PIPELINE`]). Small buffers move to the
/// stack before deallocations are placed: placed first, a buffer that one
/// branch of an `scf.if` allocates (a tiled `tensor.pad`) was freed through
/// the branch's result after it had become a stack buffer.
pub const LOWERING_PIPELINE: &str = concat!(
    "builtin.module(",
    "func.func(buffer-loop-hoisting,promote-buffers-to-stack),",
    "buffer-deallocation-pipeline,",
    "func.func(lower-vector-multi-reduction,convert-vector-to-scf{full-unroll}),",
    "convert-scf-to-openmp,",
    "convert-vector-to-llvm{vector-contract-lowering=outerproduct vector-transpose-lowering=shuffle16x16},",
    "expand-strided-metadata,lower-affine,finalize-memref-to-llvm,convert-scf-to-cf,",
    "convert-to-llvm,reconcile-unrealized-casts)"
);

/// The second half of lowering, from bufferized loops to the LLVM dialect:
/// [`LOOPS_PIPELINE`], the scalar rows marked to stay rolled,
/// [`LOWERING_PIPELINE`], and the marks attached to the loops' back edges
/// and to outlined nests' pointers.
pub(crate) fn lower_to_llvm(
    context: &melior::Context,
    module: &mut melior::ir::Module,
    payload_name: &str,
) -> Result<(), PayloadError> {
    run_passes(context, module, LOOPS_PIPELINE, payload_name)?;
    crate::ffi::keep_scalar_rows_rolled(module, ROLLED_ROW_TRIPS);
    run_passes(context, module, LOWERING_PIPELINE, payload_name)?;
    crate::ffi::attach_loop_annotations(module);
    crate::ffi::apply_no_alias_marks(module);
    Ok(())
}

/// Copies of at most this many elements become one vector read and write
/// after bufferization (`ffi::vectorize_small_copies`): 16 AVX-512 vectors
/// of f32, a reuse buffer's refill next to a vector tile (3×16 for the
/// 5-point stencil's window, 3×3×16 for diag3d's); larger copies stay
/// loops or `memcpy`.
pub const SMALL_COPY_ELEMENTS: i64 = 256;

/// The width of this machine's vector registers in bits, as LLVM compiles
/// for it (`ffi::host_cpu`'s features: AVX-512's 512, AVX's 256, else 128):
/// after bufferization, vectors whose innermost dimension is not a power of
/// two are cut into pieces at most this wide (`ffi::split_wide_vectors`).
pub fn machine_vector_bits() -> i64 {
    let host = crate::ffi::host_cpu();
    let has = |feature: &str| host.split([' ', ',']).any(|f| f == feature);
    if has("+avx512f") {
        512
    } else if has("+avx") {
        256
    } else {
        128
    }
}

/// Where each result of the bufferized entry is computed (an argument, or
/// an out-parameter), and which targets its offloaded tiles call, with
/// which element types.
pub(crate) type Bufferized = (Vec<Option<usize>>, Vec<(String, crate::offload::Types)>);

/// Tensors become buffers: every use of a shared `tensor.empty` gets its
/// own first (`ffi::untie_shared_empty_tensors`), copies through a
/// temporary between disjoint regions become direct
/// (`ffi::forward_temporary_copies`), results computed in
/// arguments stay there, the others become out-parameters, copies of
/// strided regions become loops (`ffi::strided_copies_to_loops`), and vectors
/// LLVM would widen are cut into register-wide pieces. Returns where
/// each result is computed. Lowering and `profile` both start here.
pub(crate) fn bufferize(
    context: &melior::Context,
    module: &mut melior::ir::Module,
    signature: &Signature,
    payload_name: &str,
) -> Result<Vec<Option<usize>>, PayloadError> {
    crate::ffi::untie_shared_empty_tensors(module);
    run_passes(context, module, BUFFERIZE_PIPELINE, payload_name)?;
    crate::ffi::forward_temporary_copies(module);
    let in_arguments = results_in_arguments(OpView::of_module(module), signature)?;
    if in_arguments.iter().any(Option::is_some) {
        set_private(context, module, &signature.name, true);
        run_passes(context, module, DROP_ARGUMENT_RESULTS, payload_name)?;
        set_private(context, module, &signature.name, false);
    }
    run_passes(context, module, OUT_PARAMS_PIPELINE, payload_name)?;
    crate::ffi::vectorize_small_copies(module, SMALL_COPY_ELEMENTS);
    crate::ffi::strided_copies_to_loops(module);
    crate::ffi::split_wide_vectors(module, machine_vector_bits());
    crate::ffi::approximate_vector_math(module);
    crate::ffi::contract_vector_arithmetic(module);
    Ok(in_arguments)
}

/// The first half of lowering: [`bufferize`], then prefetches are inserted
/// and offloaded tiles become kernel calls ([`crate::offload`]). Returns
/// where each result is computed, and the targets called.
pub(crate) fn bufferize_and_offload(
    context: &melior::Context,
    module: &mut melior::ir::Module,
    signature: &Signature,
    payload_name: &str,
) -> Result<Bufferized, PayloadError> {
    let in_arguments = bufferize(context, module, signature, payload_name)?;
    if crate::prefetch::insert_prefetches(context, module)? > 0 {
        run_passes(context, module, INLINE_PREFETCHES, payload_name)?;
    }
    let offloaded = crate::offload::offload_tiles(context, module)?;
    Ok((in_arguments, offloaded))
}

/// Turns the bufferized module's marked foralls into `scf.parallel`s
/// ([`PARALLEL_SCRIPT`]), once the OpenMP runtime they will need is found.
pub(crate) fn make_parallel_loops(
    context: &melior::Context,
    module: &mut melior::ir::Module,
    payload_name: &str,
) -> Result<(), PayloadError> {
    if !std::path::Path::new(OPENMP_RUNTIME).exists() {
        return Err(PayloadError::input(
            format!("{payload_name}: its parallel loops need LLVM's OpenMP runtime, {OPENMP_RUNTIME}, which is missing (install Debian's libomp-22-dev, as `make install` does)"),
            Vec::new(),
        ));
    }
    match apply_script(context, module, PARALLEL_SCRIPT) {
        Ok(_) => Ok(()),
        Err(ApplyError::BadScript(messages, what)) => {
            Err(PayloadError::internal_with(what, messages))
        }
        Err(ApplyError::Failed(messages) | ApplyError::Invalid(messages)) => {
            Err(PayloadError::internal_with(
                format!("{payload_name}: its parallel loops could not be made OpenMP loops"),
                messages,
            ))
        }
    }
}

/// Requests the C interfaces ([`C_WRAPPERS_PIPELINE`]), then outlines each
/// function's loop nests ([`OUTLINE_SCRIPT`]) when a function has more than
/// `above` of them, its linalg ops made loops first ([`LINALG_TO_LOOPS`]),
/// and marks the nests' buffers that cannot overlap `llvm.noalias` ([`OUTLINED_ABOVE`] when compiling).
pub(crate) fn outline_loop_nests(
    context: &melior::Context,
    module: &mut melior::ir::Module,
    payload_name: &str,
    above: usize,
) -> Result<(), PayloadError> {
    run_passes(context, module, C_WRAPPERS_PIPELINE, payload_name)?;
    let is_nest = |op: &OpView<'_>| {
        let name = op.name();
        matches!(name.as_str(), "scf.forall" | "scf.for" | "scf.parallel")
            || name.starts_with("linalg.")
    };
    let most = OpView::of_module(module)
        .children()
        .into_iter()
        .filter(|op| op.name() == "func.func")
        .map(|function| function.children().into_iter().filter(is_nest).count())
        .max()
        .unwrap_or(0);
    if most <= above {
        return Ok(());
    }
    run_passes(context, module, LINALG_TO_LOOPS, payload_name)?;
    apply_script(context, module, OUTLINE_SCRIPT).map_err(|error| {
        let (ApplyError::BadScript(messages, _)
        | ApplyError::Failed(messages)
        | ApplyError::Invalid(messages)) = error;
        PayloadError::internal_with(
            format!("{payload_name}: its loop nests could not be outlined"),
            messages,
        )
    })?;
    crate::ffi::mark_outlined_no_alias(module, OUTLINED_PREFIX);
    Ok(())
}

/// Whether any `scf.forall` in `op` is marked `sched.parallel`.
pub(crate) fn has_parallel_loops(op: OpView<'_>) -> bool {
    (op.name() == "scf.forall" && op.attribute_text(payload::attributes::PARALLEL).is_some())
        || op.children().into_iter().any(has_parallel_loops)
}

/// For each result of the bufferized entry function, the argument it returns
/// (bufferization wrote the result into that argument's buffer), if any.
pub(crate) fn results_in_arguments(
    root: OpView<'_>,
    signature: &Signature,
) -> Result<Vec<Option<usize>>, PayloadError> {
    let none = vec![None; signature.results.len()];
    let Some((_, function)) = entry_candidates(root)
        .into_iter()
        .find(|(name, _)| *name == signature.name)
    else {
        return Err(PayloadError::internal(format!(
            "@{} is gone after bufferization",
            signature.name
        )));
    };
    let returns: Vec<OpView<'_>> = function
        .children()
        .into_iter()
        .filter(|op| op.name() == "func.return")
        .collect();
    // Upstream drops results only for a single return; so do we.
    let [ret] = returns.as_slice() else {
        return Ok(none);
    };
    let in_arguments: Vec<Option<usize>> = (0..ret.operand_count())
        .map(|i| ret.operand_argument_of(i, function))
        .collect();
    let same_types = in_arguments
        .iter()
        .enumerate()
        .all(|(r, a)| a.is_none_or(|a| signature.inputs.get(a) == signature.results.get(r)));
    if in_arguments.len() != signature.results.len() || !same_types {
        return Err(PayloadError::internal(format!(
            "@{}'s bufferized results do not match its signature",
            signature.name
        )));
    }
    Ok(in_arguments)
}

/// Makes the function `name` private, or public again.
pub(crate) fn set_private(
    context: &melior::Context,
    module: &mut melior::ir::Module,
    name: &str,
    private: bool,
) {
    use melior::ir::attribute::StringAttribute;
    use melior::ir::block::BlockLike;
    use melior::ir::operation::{OperationLike, OperationMutLike};
    let mut op = module.body().first_operation_mut();
    while let Some(mut function) = op {
        let named = function
            .attribute("sym_name")
            .ok()
            .and_then(|a| StringAttribute::try_from(a).ok())
            .is_some_and(|a| a.value() == name);
        if function.name().as_string_ref().as_str() == Ok("func.func") && named {
            if private {
                function.set_attribute(
                    "sym_visibility",
                    StringAttribute::new(context, "private").into(),
                );
            } else {
                let _ = function.remove_attribute("sym_visibility");
            }
        }
        op = function.next_in_block_mut();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::operation::OperationLike;

    /// Two loop nests on buffers, as bufferization leaves them.
    const TWO_NESTS: &str = r#"
func.func @two(%a: memref<8xf32>, %b: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %one, %a[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    memref.store %v, %b[%i] : memref<8xf32>
  }
  return
}"#;

    #[test]
    fn each_loop_nest_becomes_an_internal_function_llvm_may_not_inline() {
        let context = payload::new_context();
        let mut module = melior::ir::Module::parse(&context, TWO_NESTS).unwrap();
        outline_loop_nests(&context, &mut module, "two.mlir", 0).unwrap();
        let text = payload::ffi::print_module(&module);
        assert_eq!(text.matches("call @sched_nest").count(), 2, "{text}");
        assert_eq!(
            text.matches(r#"passthrough = ["noinline"]"#).count(),
            2,
            "{text}"
        );
        assert_eq!(text.matches("#llvm.linkage<internal>").count(), 2, "{text}");
        // Only the payload's own function gets a C interface.
        assert_eq!(text.matches("llvm.emit_c_interface").count(), 1, "{text}");
        let entry = &text[text.find("func.func @two").unwrap()..];
        assert!(!entry.contains("scf.for"), "{text}");
    }

    /// The outlined nests' functions, each with the pointer positions
    /// marked for `llvm.noalias` (`[]` when none).
    fn marks(text: &str) -> Vec<String> {
        text.lines()
            .filter(|line| {
                line.contains("func.func private @sched_nest")
                    || line.contains("func.func @sched_nest")
            })
            .map(
                |line| match line.find("sched.noalias_pointers = array<i64: ") {
                    Some(at) => {
                        let rest = &line[at + "sched.noalias_pointers = array<i64: ".len()..];
                        rest[..rest.find('>').unwrap()].to_string()
                    }
                    None => String::new(),
                },
            )
            .collect()
    }

    #[test]
    fn an_outlined_nests_buffers_that_cannot_overlap_are_marked_no_alias() {
        // Nest 1 writes a fresh buffer from an argument; nest 2 copies one
        // subview of it into another (one buffer: unmarked); nest 3 reads
        // two arguments (the caller may pass one buffer twice: unmarked);
        // nest 4 reads the fresh buffer into an argument.
        let text = r#"
func.func @f(%a: memref<8xf32>, %b: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %t = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    memref.store %v, %t[%i] : memref<8xf32>
  }
  %low = memref.subview %t[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %high = memref.subview %t[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %low[%i] : memref<4xf32, strided<[1]>>
    memref.store %v, %high[%i] : memref<4xf32, strided<[1], offset: 4>>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    memref.store %v, %b[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %t[%i] : memref<8xf32>
    memref.store %v, %b[%i] : memref<8xf32>
  }
  return
}"#;
        let context = payload::new_context();
        let mut module = melior::ir::Module::parse(&context, text).unwrap();
        outline_loop_nests(&context, &mut module, "f.mlir", 0).unwrap();
        let text = payload::ffi::print_module(&module);
        // Each memref<8xf32> argument converts to 5 values (pointers first).
        assert_eq!(marks(&text), ["0, 1, 5, 6", "", "", "0, 1, 5, 6"], "{text}");
        lower_to_llvm(&context, &mut module, "f.mlir").unwrap();
        let lowered = payload::ffi::print_module(&module);
        assert_eq!(lowered.matches("llvm.noalias").count(), 8, "{lowered}");
        assert!(!lowered.contains("sched.noalias_pointers"), "{lowered}");
    }

    #[test]
    fn linalg_ops_left_untiled_are_outlined_as_loops() {
        let text = r#"
func.func @f(%a: memref<8xf32>, %b: memref<8xf32>) {
  linalg.copy ins(%a : memref<8xf32>) outs(%b : memref<8xf32>)
  linalg.copy ins(%b : memref<8xf32>) outs(%a : memref<8xf32>)
  return
}"#;
        let context = payload::new_context();
        let mut module = melior::ir::Module::parse(&context, text).unwrap();
        outline_loop_nests(&context, &mut module, "f.mlir", 1).unwrap();
        let text = payload::ffi::print_module(&module);
        assert_eq!(text.matches("call @sched_nest").count(), 2, "{text}");
        assert!(!text.contains("linalg.copy"), "{text}");
    }

    #[test]
    fn a_function_with_few_loop_nests_keeps_them_and_gets_its_c_interface() {
        let context = payload::new_context();
        let mut module = melior::ir::Module::parse(&context, TWO_NESTS).unwrap();
        outline_loop_nests(&context, &mut module, "two.mlir", 2).unwrap();
        let text = payload::ffi::print_module(&module);
        assert!(!text.contains("sched_nest"), "{text}");
        assert_eq!(text.matches("scf.for").count(), 2, "{text}");
        assert_eq!(text.matches("llvm.emit_c_interface").count(), 1, "{text}");
    }

    #[test]
    fn small_copies_become_one_vector_read_and_write() {
        let context = payload::new_context();
        // A 3x2 strided copy (a window's shift), a self-copy, and a
        // 32x32 copy (1 024 elements, above the limit).
        let text = r#"
func.func @f(%a: memref<3x18xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  %from = memref.subview %a[0, 16] [3, 2] [1, 1] : memref<3x18xf32> to memref<3x2xf32, strided<[18, 1], offset: 16>>
  %to = memref.subview %a[0, 0] [3, 2] [1, 1] : memref<3x18xf32> to memref<3x2xf32, strided<[18, 1]>>
  memref.copy %from, %to : memref<3x2xf32, strided<[18, 1], offset: 16>> to memref<3x2xf32, strided<[18, 1]>>
  memref.copy %to, %to : memref<3x2xf32, strided<[18, 1]>> to memref<3x2xf32, strided<[18, 1]>>
  %big = memref.subview %b[0, 0] [32, 32] [1, 1] : memref<64x64xf32> to memref<32x32xf32, strided<[64, 1]>>
  %big_to = memref.subview %c[0, 0] [32, 32] [1, 1] : memref<64x64xf32> to memref<32x32xf32, strided<[64, 1]>>
  linalg.copy ins(%big : memref<32x32xf32, strided<[64, 1]>>) outs(%big_to : memref<32x32xf32, strided<[64, 1]>>)
  return
}"#;
        let mut module = melior::ir::Module::parse(&context, text).unwrap();
        let replaced = crate::ffi::vectorize_small_copies(&mut module, SMALL_COPY_ELEMENTS);
        let text = payload::ffi::print_module(&module);
        assert_eq!(replaced, 1, "{text}");
        assert!(
            text.contains("vector.transfer_read %subview[%c0, %c0], %0 {in_bounds = [true, true]} : memref<3x2xf32, strided<[18, 1], offset: 16>>, vector<3x2xf32>"),
            "{text}"
        );
        assert_eq!(text.matches("vector.transfer_write").count(), 1, "{text}");
        assert_eq!(
            text.matches("memref.copy").count(),
            1,
            "the self-copy stays: {text}"
        );
        assert_eq!(
            text.matches("linalg.copy").count(),
            1,
            "the large copy stays: {text}"
        );
    }

    #[test]
    fn copies_of_strided_regions_become_loops_and_contiguous_ones_stay_copies() {
        let context = payload::new_context();
        // A padded tensor's interior (strided), a whole buffer (contiguous),
        // the first rows of one (contiguous), and a self-copy.
        let text = r#"
func.func @f(%a: memref<1x8x6x6xf32>, %b: memref<1x8x4x4xf32>, %c: memref<1x8x4x4xf32>, %d: memref<8x4xf32>) {
  %interior = memref.subview %a[0, 0, 1, 1] [1, 8, 4, 4] [1, 1, 1, 1] : memref<1x8x6x6xf32> to memref<1x8x4x4xf32, strided<[288, 36, 6, 1], offset: 7>>
  memref.copy %b, %interior : memref<1x8x4x4xf32> to memref<1x8x4x4xf32, strided<[288, 36, 6, 1], offset: 7>>
  memref.copy %b, %c : memref<1x8x4x4xf32> to memref<1x8x4x4xf32>
  %rows = memref.subview %d[0, 0] [2, 4] [1, 1] : memref<8x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  %first = memref.subview %c[0, 0, 0, 0] [1, 1, 2, 4] [1, 1, 1, 1] : memref<1x8x4x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  memref.copy %first, %rows : memref<2x4xf32, strided<[4, 1]>> to memref<2x4xf32, strided<[4, 1]>>
  memref.copy %interior, %interior : memref<1x8x4x4xf32, strided<[288, 36, 6, 1], offset: 7>> to memref<1x8x4x4xf32, strided<[288, 36, 6, 1], offset: 7>>
  return
}"#;
        let mut module = melior::ir::Module::parse(&context, text).unwrap();
        let replaced = crate::ffi::strided_copies_to_loops(&mut module);
        let text = payload::ffi::print_module(&module);
        assert_eq!(replaced, 1, "{text}");
        assert!(
            text.contains("linalg.copy ins(%arg1 : memref<1x8x4x4xf32>) outs(%subview : memref<1x8x4x4xf32, strided<[288, 36, 6, 1], offset: 7>>)"),
            "{text}"
        );
        assert_eq!(text.matches("memref.copy").count(), 3, "{text}");
    }

    /// A register tile of `rows` x `columns` f32 accumulated over 4 steps
    /// of a loop (an outer product per step), as vectorization leaves it.
    fn register_tile_loop(rows: usize, columns: usize) -> String {
        format!(
            r#"
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @f(%x: memref<{rows}x4xf32>, %y: memref<4x{columns}xf32>, %z: memref<{rows}x{columns}xf32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %pad = ub.poison : f32
  %init = vector.transfer_read %z[%c0, %c0], %pad {{in_bounds = [true, true]}} : memref<{rows}x{columns}xf32>, vector<{rows}x{columns}xf32>
  %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (vector<{rows}x{columns}xf32>) {{
    %l = vector.transfer_read %x[%c0, %k], %pad {{in_bounds = [true, true]}} : memref<{rows}x4xf32>, vector<{rows}x1xf32>
    %r = vector.transfer_read %y[%k, %c0], %pad {{in_bounds = [true, true]}} : memref<4x{columns}xf32>, vector<1x{columns}xf32>
    %next = vector.contract {{indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}} %l, %r, %acc : vector<{rows}x1xf32>, vector<1x{columns}xf32> into vector<{rows}x{columns}xf32>
    scf.yield %next : vector<{rows}x{columns}xf32>
  }}
  vector.transfer_write %sum, %z[%c0, %c0] {{in_bounds = [true, true]}} : vector<{rows}x{columns}xf32>, memref<{rows}x{columns}xf32>
  return
}}"#
        )
    }

    #[test]
    fn a_tile_three_vectors_wide_is_carried_as_three_vectors() {
        let context = payload::new_context();
        let mut module = melior::ir::Module::parse(&context, &register_tile_loop(8, 48)).unwrap();
        assert_eq!(crate::ffi::split_wide_vectors(&mut module, 512), 1);
        let text = payload::ffi::print_module(&module);
        assert!(module.as_operation().verify(), "{text}");
        assert!(
            !text.contains("vector<8x48xf32>"),
            "no op on the whole tile is left: {text}"
        );
        let loop_line = text.lines().find(|l| l.contains("scf.for")).unwrap();
        assert_eq!(loop_line.matches("vector<8x16xf32>").count(), 3, "{text}");
        assert_eq!(text.matches("vector.contract").count(), 3, "{text}");
        assert_eq!(text.matches("vector.transfer_write").count(), 3, "{text}");
        // The pieces are the largest power of two dividing the width, at
        // most one machine vector: six 8-lane pieces of 48 on 256-bit
        // vectors, three of 24 on 512-bit ones.
        for (columns, bits, piece, count) in [
            (48, 256, "vector<8x8xf32>", 6),
            (24, 512, "vector<8x8xf32>", 3),
        ] {
            let mut module =
                melior::ir::Module::parse(&context, &register_tile_loop(8, columns)).unwrap();
            assert_eq!(crate::ffi::split_wide_vectors(&mut module, bits), 1);
            let text = payload::ffi::print_module(&module);
            assert!(module.as_operation().verify(), "{text}");
            let loop_line = text.lines().find(|l| l.contains("scf.for")).unwrap();
            assert_eq!(loop_line.matches(piece).count(), count, "{text}");
        }
    }

    #[test]
    fn tiles_a_power_of_two_wide_or_in_pieces_under_128_bits_are_left_to_llvm() {
        let context = payload::new_context();
        // 16 and 64 lanes split cleanly in LLVM; 6 would be cut into 2-lane pieces.
        for columns in [16, 64, 6] {
            let mut module =
                melior::ir::Module::parse(&context, &register_tile_loop(6, columns)).unwrap();
            let before = payload::ffi::print_module(&module);
            assert_eq!(crate::ffi::split_wide_vectors(&mut module, 512), 0);
            assert_eq!(payload::ffi::print_module(&module), before);
        }
    }

    #[test]
    fn each_use_of_an_empty_tensor_gets_its_own() {
        let context = payload::new_context();
        let text = r#"
#id = affine_map<(i) -> (i)>
func.func @f(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %empty = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%empty : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %v : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%empty : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.mulf %v, %v : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %a, %b : tensor<8xf32>, tensor<8xf32>
}"#;
        let mut module = melior::ir::Module::parse(&context, text).unwrap();
        assert_eq!(crate::ffi::untie_shared_empty_tensors(&mut module), 1);
        let printed = payload::ffi::print_module(&module);
        assert_eq!(printed.matches("tensor.empty()").count(), 2, "{printed}");
        assert!(module.as_operation().verify(), "{printed}");
        // Untied already: nothing more to do.
        assert_eq!(crate::ffi::untie_shared_empty_tensors(&mut module), 0);
    }
}
