//! The contexts' dialect registry (`payload/shim/registry.cpp`): loading the
//! transform dialect makes every transform op the planner emits available,
//! and does not load the dialects of extensions sched-apply never uses (with
//! MLIR's register-everything, those made each apply about 1.4x as long).

use melior::Context;

/// Loads the transform dialect (and with it the registered extensions) by
/// parsing an empty transform script.
fn context_with_transform_dialect() -> Context {
    let context = payload::new_context();
    let script = "module attributes {transform.with_named_sequence} {
      transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
        transform.yield
      }
    }";
    payload::parse_module(&context, "script.mlir", script)
        .expect("an empty transform script parses");
    context
}

#[test]
fn every_transform_op_family_the_planner_emits_is_registered() {
    let context = context_with_transform_dialect();
    for op in [
        "transform.structured.match",
        "transform.structured.tile_using_forall",
        "transform.structured.tile_using_for",
        "transform.structured.vectorize",
        "transform.structured.pad",
        "transform.structured.split",
        "transform.loop.unroll",
        "transform.loop.coalesce",
        "transform.loop.forall_to_parallel",
        "transform.loop.hoist_loop_invariant_subsets",
        "transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices",
        "transform.apply_patterns.tensor.fold_tensor_empty",
        "transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers",
        "transform.apply_patterns.vector.cast_away_vector_leading_one_dim",
        "transform.apply_patterns.vector.reduction_to_contract",
        "transform.apply_patterns.canonicalization",
        "transform.verify",
        "transform.sched.reuse_buffer",
        "transform.sched.sliding_window",
        "transform.sched.fuse_into",
        "transform.sched.cse",
    ] {
        assert!(
            context.is_registered_operation(op),
            "{op} is not registered once the transform dialect is loaded"
        );
    }
}

#[test]
fn the_transform_dialect_loads_no_gpu_or_sparse_dialects() {
    let context = context_with_transform_dialect();
    for op in [
        "transform.gpu.map_forall_to_blocks",
        "transform.sparse_tensor.match.sparse_inout",
        "rocdl.barrier",
        "amdgpu.lds_barrier",
        "nvvm.barrier0",
    ] {
        assert!(!context.is_registered_operation(op), "{op} is registered: the transform dialect loaded an extension sched-apply does not use");
    }
}
