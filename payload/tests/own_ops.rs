//! sched-apply's own transform ops that stand in for upstream ones
//! (`payload/shim/fuse.cpp`, `cse.cpp`), applied to small payloads by hand:
//! what they do, and the error a misuse gets (`tests/schedules.rs` checks
//! on every fixture that they transform as upstream's ops do); and
//! `union_slices` (`union.cpp`), which has no upstream counterpart.

use payload::transform::{apply_script, ApplyError};

/// A row-major 8x16 elementwise generic `result = operation(input, scalar)`.
fn generic(result: &str, input: &str, operation: &str, scalar: &str) -> String {
    format!(
        "  {result} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = [\"parallel\", \"parallel\"]}}
      ins({input} : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %r = {operation} %a, {scalar} : f32
    linalg.yield %r : f32
  }} -> tensor<8x16xf32>
"
    )
}

/// A producer `%p` (x + 1) read by a consumer `%c` (p * 2), on 8x16, and
/// `%q`, which the consumer does not read.
fn chain() -> String {
    format!(
        "#id = affine_map<(i, j) -> (i, j)>
func.func @chain(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {{
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
{}{}{}  return %c, %q : tensor<8x16xf32>, tensor<8x16xf32>
}}",
        generic("%p", "%x", "arith.addf", "%one"),
        generic("%q", "%y", "arith.addf", "%one"),
        generic("%c", "%p", "arith.mulf", "%two"),
    )
}

/// Tiles the consumer (the third generic) by rows and applies `body` with
/// `%loop` (the row loop) and `%p` (the generic `index` of the three).
fn script(producer: usize, body: &str) -> String {
    format!(
        r#"module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
    %generics = transform.structured.match ops{{["linalg.generic"]}} in %root : (!transform.any_op) -> !transform.any_op
    %g0, %g1, %g2 = transform.split_handle %generics : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %tiled, %loop = transform.structured.tile_using_forall %g2 tile_sizes [1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %p = transform.merge_handles %g{producer} : !transform.any_op
    {body}
    transform.yield
  }}
}}"#
    )
}

/// Applies `script` to [`chain`]; the payload's text, or the error.
fn apply(script: &str) -> Result<String, ApplyError> {
    let context = payload::new_context();
    let mut module = payload::parse_module(&context, "chain.mlir", &chain()).expect("parses");
    apply_script(&context, &mut module, script).map(|_| payload::ffi::print_module(&module))
}

#[test]
fn fuse_into_computes_the_producer_on_each_row_the_loop_reads() {
    let text = apply(&script(
        0,
        "%fused, %new_loop = transform.sched.fuse_into %p into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %fused \"fused\" : !transform.any_op",
    ))
    .unwrap_or_else(|error| panic!("fusion failed: {error:?}"));
    let body = &text[text.find("scf.forall").expect("the row loop")..];
    // The producer's tile, one row of `x + 1`, is computed in the loop
    // before the consumer's, which reads it.
    let fused = body
        .find("arith.addf")
        .expect("the producer's body in the loop");
    let consumer = body
        .find("arith.mulf")
        .expect("the consumer's body in the loop");
    assert!(fused < consumer, "{text}");
    assert!(
        body.contains("tensor<1x16xf32>"),
        "the tiles are rows: {text}"
    );
    assert!(
        text.contains("{fused}"),
        "the fused handle holds the tile: {text}"
    );
}

#[test]
fn fuse_into_a_loop_that_does_not_read_the_producer_is_an_error_naming_both() {
    let error = apply(&script(
        1,
        "%fused, %new_loop = transform.sched.fuse_into %p into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)",
    ))
    .expect_err("the second generic is not read in the loop");
    let ApplyError::Failed(messages) = error else {
        panic!("expected the interpreter's failure, got {error:?}")
    };
    let first = &messages[0];
    assert_eq!(first.severity, "error");
    assert!(
        first.message.contains("not used inside the loop"),
        "{first:?}"
    );
    let notes: Vec<&str> = first.notes.iter().map(|n| n.message.as_str()).collect();
    assert_eq!(notes, ["the producer", "the loop"], "{first:?}");
}

#[test]
fn cse_merges_values_but_never_loops() {
    // Two equal loops stay two; the equal index computations and slices
    // in each are merged.
    let equal_loop = |result: &str| {
        format!(
            "  {result} = scf.forall (%i) in (4) shared_outs(%o = %x) -> (tensor<4xf32>) {{
    %k1 = affine.apply affine_map<(d0) -> (3 - d0)>(%i)
    %k2 = affine.apply affine_map<(d0) -> (3 - d0)>(%i)
    %s1 = tensor.extract_slice %o[%k1] [1] [1] : tensor<4xf32> to tensor<1xf32>
    %s2 = tensor.extract_slice %o[%k2] [1] [1] : tensor<4xf32> to tensor<1xf32>
    %sum = arith.addf %s1, %s2 : tensor<1xf32>
    scf.forall.in_parallel {{
      tensor.parallel_insert_slice %sum into %o[%i] [1] [1] : tensor<1xf32> into tensor<4xf32>
    }}
  }}
"
        )
    };
    let payload = format!(
        "func.func @twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {{
{}{}  return %a, %b : tensor<4xf32>, tensor<4xf32>
}}",
        equal_loop("%a"),
        equal_loop("%b")
    );
    let script = r#"module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.sched.cse to %f : !transform.any_op
    transform.yield
  }
}"#;
    let context = payload::new_context();
    let mut module = payload::parse_module(&context, "twice.mlir", &payload).expect("parses");
    apply_script(&context, &mut module, script).expect("cse applies");
    let text = payload::ffi::print_module(&module);
    assert_eq!(text.matches("scf.forall (").count(), 2, "{text}");
    assert_eq!(
        text.matches("affine.apply").count(),
        2,
        "one per loop: {text}"
    );
    assert_eq!(
        text.matches("tensor.extract_slice").count(),
        2,
        "one per loop: {text}"
    );
}

/// A producer `%p` (x + 1, 12 rows) read by a consumer through two row
/// slices `rows` apart, the consumer tiled by 4 rows and the slices moved
/// into its loop; then `union_slices` and the producer's fusion.
fn union_of_slices(rows: usize) -> String {
    let payload = format!(
        "#id = affine_map<(i, j) -> (i, j)>
func.func @shifted(%x: tensor<12x16xf32>) -> tensor<4x16xf32> {{
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<12x16xf32>
  %p = linalg.generic {{indexing_maps = [#id, #id], iterator_types = [\"parallel\", \"parallel\"]}}
      ins(%x : tensor<12x16xf32>) outs(%e : tensor<12x16xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %one : f32
    linalg.yield %r : f32
  }} -> tensor<12x16xf32>
  %top = tensor.extract_slice %p[0, 0] [4, 16] [1, 1] : tensor<12x16xf32> to tensor<4x16xf32>
  %low = tensor.extract_slice %p[{rows}, 0] [4, 16] [1, 1] : tensor<12x16xf32> to tensor<4x16xf32>
  %e2 = tensor.empty() : tensor<4x16xf32>
  %c = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = [\"parallel\", \"parallel\"]}}
      ins(%top, %low : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e2 : tensor<4x16xf32>) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  }} -> tensor<4x16xf32>
  return %c : tensor<4x16xf32>
}}"
    );
    let script = r#"module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %generics = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %p, %c = transform.split_handle %generics : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %top = transform.get_producer_of_operand %c[0] : (!transform.any_op) -> !transform.any_op
    %low = transform.get_producer_of_operand %c[1] : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_forall %c tile_sizes [2, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t, %loop1 = transform.sched.fuse_into %top into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %l, %loop2 = transform.sched.fuse_into %low into %loop1 : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.apply_patterns to %loop2 {
      transform.apply_patterns.tensor.merge_consecutive_insert_extract_slice
    } : !transform.any_op
    transform.sched.union_slices %p in %loop2 : !transform.any_op, !transform.any_op
    %fused, %loop3 = transform.sched.fuse_into %p into %loop2 : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}"#;
    let context = payload::new_context();
    let mut module = payload::parse_module(&context, "shifted.mlir", &payload).expect("parses");
    apply_script(&context, &mut module, script)
        .unwrap_or_else(|error| panic!("the script failed: {error:?}"));
    payload::ffi::print_module(&module)
}

#[test]
fn union_slices_computes_overlapping_slices_once_over_their_hull() {
    // Rows [2i, 2i + 2) and [2i + 1, 2i + 3): one 3-row tile of the
    // producer per iteration (not two of 2), each slice a part of it.
    let text = union_of_slices(1);
    let body = &text[text.find("scf.forall").expect("the row loop")..];
    assert_eq!(body.matches("arith.addf").count(), 1, "{text}");
    assert!(body.contains("-> tensor<3x16xf32>"), "{text}");
    assert!(
        body.contains("[0, 0] [2, 16] [1, 1] : tensor<3x16xf32> to tensor<2x16xf32>")
            && body.contains("[1, 0] [2, 16] [1, 1] : tensor<3x16xf32> to tensor<2x16xf32>"),
        "{text}"
    );
}

#[test]
fn union_slices_leaves_slices_whose_hull_is_larger_than_they_are() {
    // Rows [2i, 2i + 2) and [2i + 8, 2i + 10): a 10-row hull for 4 rows
    // read, so each slice is computed on its own.
    let text = union_of_slices(8);
    let body = &text[text.find("scf.forall").expect("the row loop")..];
    assert_eq!(body.matches("arith.addf").count(), 2, "{text}");
    assert_eq!(body.matches("-> tensor<2x16xf32>").count(), 3, "{text}");
    assert!(!body.contains("tensor<10x16xf32>"), "{text}");
}
