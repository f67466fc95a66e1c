//! `ffi::keep_scalar_rows_rolled` and `ffi::attach_loop_annotations`
//! (`payload/shim/loops.cpp`): an innermost loop of scalar code with at least
//! 8 constant iterations is marked `unroll disable` for LLVM, and the mark
//! reaches the loop's back edge in the LLVM dialect; shorter loops, outer
//! loops and loops of vector code are left to LLVM.

use payload::melior::ir::operation::OperationLike;

/// Four loops: a 16-trip scalar row inside a 4-trip loop, a 3-trip scalar
/// loop, and a 16-trip loop of vector code.
const LOOPS: &str = "func.func @f(%m: memref<4x16xf32>, %v: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  %ones = arith.constant dense<1.0> : vector<16xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      memref.store %one, %m[%i, %j] : memref<4x16xf32>
    }
  }
  scf.for %k = %c0 to %c3 step %c1 {
    memref.store %one, %m[%k, %k] : memref<4x16xf32>
  }
  scf.for %r = %c0 to %c16 step %c1 {
    vector.store %ones, %v[%r, %c0] : memref<16x16xf32>, vector<16xf32>
  }
  return
}";

#[test]
fn only_innermost_scalar_rows_are_kept_rolled_and_the_mark_reaches_the_back_edge() {
    let context = payload::new_context();
    let mut module = payload::parse_module(&context, "loops.mlir", LOOPS).unwrap();
    assert_eq!(runner::ffi::keep_scalar_rows_rolled(&mut module, 8), 1);
    let text = payload::ffi::print_module(&module);
    assert!(module.as_operation().verify(), "{text}");
    assert_eq!(text.matches("llvm.loop_annotation = ").count(), 1, "{text}");
    let marked = text
        .lines()
        .position(|l| l.contains("llvm.loop_annotation = "))
        .unwrap();
    let store = text
        .lines()
        .position(|l| l.contains("memref.store %cst, %arg0[%arg2, %arg3]"))
        .unwrap();
    assert_eq!(
        marked,
        store + 1,
        "the 16-trip row is the loop marked:\n{text}"
    );

    runner::passes::run_passes(
        &context,
        &mut module,
        "builtin.module(convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts)",
        "loops.mlir",
    )
    .unwrap();
    assert_eq!(runner::ffi::attach_loop_annotations(&mut module), 1);
    let text = payload::ffi::print_module(&module);
    assert!(module.as_operation().verify(), "{text}");
    assert!(
        text.contains("{loop_annotation = #loop_annotation}")
            && !text.contains("llvm.loop_annotation = "),
        "{text}"
    );
}
