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
    "builtin.module(eliminate-empty-tensors,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map})";

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
/// The last canonicalization erases the copies of a buffer onto itself CSE
/// leaves when it merges two views of one region (a tile written in place,
/// a producer writing into the interior of a padded tensor).
pub const OUT_PARAMS_PIPELINE: &str =
    "builtin.module(func.func(canonicalize),buffer-results-to-out-params{hoist-static-allocs modify-public-functions},func.func(canonicalize,cse,canonicalize))";

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
/// (`passthrough = ["noinline"]`): the constants the call passes (loop
/// bounds, a fill's vector) are cloned back into the nest after outlining
/// (`ffi::sink_outlined_constants`), so the code is as fast
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
/// become OpenMP, vector ops are lowered, and everything but the math ops
/// LLVM has no intrinsic for reaches the LLVM dialect, the rest
/// ([`LIBM_AND_LLVM_PIPELINE`]) after it (the C interfaces were requested before,
/// [`C_WRAPPERS_PIPELINE`]). Small buffers move to the
/// stack before deallocations are placed: placed first, a buffer that one
/// branch of an `scf.if` allocates (a tiled `tensor.pad`) was freed through
/// the branch's result after it had become a stack buffer. Math ops LLVM
/// has no intrinsic for (`erf`, `tanh`, ... left scalar, or vectors not
/// approximated) become libm calls, after those with intrinsics became
/// them (a libm call per lane otherwise): `erf` did not translate at all.
/// The conversions that need no module-wide view run function by function
/// (`func.func(…)`, `llvm.func(…)`), so that an outlined model's functions
/// are lowered on several threads ([`lower_to_llvm`]). For that, upstream's
/// `buffer-deallocation-pipeline` is spelled out with its canonicalizations
/// and CSE nested under `func.func` (module-wide, they were 0.28 s of
/// MobileNet-v2's lowering on one thread; nested, 0.15 s on two).
pub const LOWERING_PIPELINE: &str = concat!(
    "builtin.module(",
    "func.func(buffer-loop-hoisting,promote-buffers-to-stack),",
    "expand-realloc{emit-deallocs=false},func.func(canonicalize),",
    "ownership-based-buffer-deallocation,",
    "func.func(canonicalize,buffer-deallocation-simplification),",
    "bufferization-lower-deallocations,func.func(cse,canonicalize),",
    "func.func(lower-vector-multi-reduction,convert-vector-to-scf{full-unroll}),",
    "convert-scf-to-openmp,",
    "func.func(convert-vector-to-llvm{vector-contract-lowering=outerproduct vector-transpose-lowering=shuffle16x16},",
    "expand-strided-metadata,lower-affine),",
    "finalize-memref-to-llvm,",
    "func.func(convert-scf-to-cf,convert-math-to-llvm))"
);

/// The end of lowering, after [`LOWERING_PIPELINE`], for a module that still
/// has math ops (LLVM has no intrinsic for them): they become libm calls,
/// then everything left reaches the LLVM dialect.
pub const LIBM_AND_LLVM_PIPELINE: &str =
    "builtin.module(convert-math-to-libm,convert-to-llvm,llvm.func(reconcile-unrealized-casts))";

/// The end of lowering for a module without math ops left:
/// [`LIBM_AND_LLVM_PIPELINE`] without `convert-math-to-libm`, a module-wide
/// pass of 0.2-0.4 s on MobileNet-v2's 900 KB of MLIR that has nothing to do
/// there.
pub const LLVM_PIPELINE: &str =
    "builtin.module(convert-to-llvm,llvm.func(reconcile-unrealized-casts))";

/// The second half of lowering, from bufferized loops to the LLVM dialect:
/// [`LOOPS_PIPELINE`], the scalar rows marked to stay rolled,
/// [`LOWERING_PIPELINE`], [`LIBM_AND_LLVM_PIPELINE`] or, with no math op
/// left, [`LLVM_PIPELINE`], and the marks attached to the loops' back edges
/// and to outlined nests' pointers, then the module verified once more before
/// LLVM sees it (`passes::run_passes` verifies before each pipeline, not
/// after each pass). The pipelines' function-level passes
/// run on MLIR's threads (one per core; the context is single-threaded
/// otherwise): a model whose loop nests were outlined into a few hundred
/// functions (MobileNet-v2) lowered in 2.6-2.9 s instead of 3.6-3.9 s on
/// two cores. Diagnostics stay ordered: MLIR re-emits those of worker
/// threads on this one.
pub(crate) fn lower_to_llvm(
    context: &melior::Context,
    module: &mut melior::ir::Module,
    payload_name: &str,
) -> Result<(), PayloadError> {
    context.enable_multi_threading(true);
    let lowered = run_passes(context, module, LOOPS_PIPELINE, payload_name).and_then(|()| {
        crate::ffi::keep_scalar_rows_rolled(module, ROLLED_ROW_TRIPS);
        run_passes(context, module, LOWERING_PIPELINE, payload_name)?;
        let last = if has_math_ops(OpView::of_module(module)) {
            LIBM_AND_LLVM_PIPELINE
        } else {
            LLVM_PIPELINE
        };
        run_passes(context, module, last, payload_name)
    });
    context.enable_multi_threading(false);
    lowered?;
    crate::ffi::attach_loop_annotations(module);
    crate::ffi::apply_no_alias_marks(module);
    crate::passes::verify_module(context, module, "after lowering to LLVM", payload_name)
}

/// Copies of at most this many elements become one vector read and write
/// after bufferization (`ffi::vectorize_small_copies`): 16 AVX-512 vectors
/// of f32, a reuse buffer's refill next to a vector tile (3×16 for the
/// 5-point stencil's window, 3×3×16 for diag3d's); larger copies stay
/// loops or `memcpy`.
pub const SMALL_COPY_ELEMENTS: i64 = 256;

/// The width of this machine's vector registers in bits
/// ([`schedule_lang::VectorUnit::host`], the unit `check` counts register
/// tiles in: AVX-512's 512, AVX's 256, else 128): after bufferization,
/// vectors whose innermost dimension is not a power of two are cut into
/// pieces at most this wide (`ffi::split_wide_vectors`).
pub fn machine_vector_bits() -> i64 {
    schedule_lang::VectorUnit::host().bytes * 8
}

/// The vector width of AVX2 machines, whose transposes are lowered in 8 x 8
/// blocks (`ffi::transpose_in_avx2_blocks`).
const AVX2_BITS: i64 = 256;

/// How the bufferized entry takes its arguments and gives its results.
#[derive(Clone, Debug, PartialEq)]
pub struct Boundary {
    /// For each result, the argument whose buffer it is computed in, if
    /// bufferization made it one (else it is an out-parameter).
    pub in_arguments: Vec<Option<usize>>,
    /// For each argument, whether the code only reads its buffer: no op
    /// writes into it (`ffi::mark_read_only_arguments`) and no result is
    /// computed in it. A caller may pass memory of its own for it.
    pub read_only: Vec<bool>,
}

/// The bufferized entry's [`Boundary`], and which targets its offloaded
/// tiles call, with which element types.
pub(crate) type Bufferized = (Boundary, Vec<(String, crate::offload::Types)>);

/// Tensors become buffers: strided vector reads become contiguous reads and
/// shuffles (`ffi::deinterleave_strided_reads`), reads of a broadcast read
/// its input (`ffi::read_broadcast_inputs`), every use of a shared
/// `tensor.empty` gets its own first (`ffi::untie_shared_empty_tensors`),
/// the arguments no op writes into are bufferized read-only
/// (`ffi::mark_read_only_arguments`), copies through a
/// temporary between disjoint regions become direct
/// (`ffi::forward_temporary_copies`), results computed in
/// arguments stay there, the others become out-parameters, padded
/// buffers' borders are filled in the loops writing their interiors
/// (`ffi::fill_borders_in_producers`), copies of
/// strided regions become loops (`ffi::strided_copies_to_loops`), vectors
/// LLVM would widen are cut into register-wide pieces, and on AVX2 vector
/// transposes become 8 x 8 blocks of shuffles. Returns how the
/// entry takes its arguments and gives its results. Lowering and `profile`
/// both start here.
pub(crate) fn bufferize(
    context: &melior::Context,
    module: &mut melior::ir::Module,
    signature: &Signature,
    payload_name: &str,
) -> Result<Boundary, PayloadError> {
    crate::ffi::pads_into_fills(module);
    crate::ffi::deinterleave_strided_reads(module);
    crate::ffi::read_broadcast_inputs(module);
    crate::ffi::untie_shared_empty_tensors(module);
    let count = signature.inputs.len();
    let marked =
        crate::ffi::mark_read_only_arguments(module, &signature.name, count).ok_or_else(|| {
            PayloadError::internal(format!(
                "@{} of {count} arguments is not in the module to bufferize",
                signature.name
            ))
        })?;
    run_passes(context, module, BUFFERIZE_PIPELINE, payload_name)?;
    crate::ffi::forward_temporary_copies(module);
    let in_arguments = results_in_arguments(OpView::of_module(module), signature)?;
    if in_arguments.iter().any(Option::is_some) {
        set_private(context, module, &signature.name, true);
        run_passes(context, module, DROP_ARGUMENT_RESULTS, payload_name)?;
        set_private(context, module, &signature.name, false);
    }
    run_passes(context, module, OUT_PARAMS_PIPELINE, payload_name)?;
    crate::ffi::fill_borders_in_producers(module);
    crate::ffi::vectorize_small_copies(module, SMALL_COPY_ELEMENTS);
    crate::ffi::strided_copies_to_loops(module);
    let bits = machine_vector_bits();
    crate::ffi::split_wide_vectors(module, bits);
    if bits == AVX2_BITS {
        crate::ffi::transpose_in_avx2_blocks(module);
    }
    crate::ffi::approximate_vector_math(module);
    crate::ffi::contract_vector_arithmetic(module);
    let read_only = marked
        .into_iter()
        .enumerate()
        .map(|(i, marked)| marked && !in_arguments.contains(&Some(i)))
        .collect();
    Ok(Boundary {
        in_arguments,
        read_only,
    })
}

/// The first half of lowering: [`bufferize`], then prefetches are inserted
/// and offloaded tiles become kernel calls ([`crate::offload`]). Returns
/// the entry's boundary, and the targets called.
pub(crate) fn bufferize_and_offload(
    context: &melior::Context,
    module: &mut melior::ir::Module,
    signature: &Signature,
    payload_name: &str,
) -> Result<Bufferized, PayloadError> {
    let boundary = bufferize(context, module, signature, payload_name)?;
    if crate::prefetch::insert_prefetches(context, module)? > 0 {
        run_passes(context, module, INLINE_PREFETCHES, payload_name)?;
    }
    let offloaded = crate::offload::offload_tiles(context, module)?;
    Ok((boundary, offloaded))
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
/// gives each nest the constants its call passes, marks the nests'
/// buffers that cannot overlap `llvm.noalias`, and merges the nests that are
/// then the same ([`OUTLINED_ABOVE`] when compiling).
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
    crate::ffi::sink_outlined_constants(module, OUTLINED_PREFIX);
    crate::ffi::mark_outlined_no_alias(module, OUTLINED_PREFIX);
    crate::ffi::merge_identical_outlined(module, OUTLINED_PREFIX);
    Ok(())
}

/// Whether `op` is or holds an op of the math dialect.
fn has_math_ops(op: OpView<'_>) -> bool {
    op.name().starts_with("math.") || op.children().into_iter().any(has_math_ops)
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
mod tests;
