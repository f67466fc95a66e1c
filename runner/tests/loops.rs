//! `ffi::keep_scalar_rows_rolled` and `ffi::attach_loop_annotations`
//! (`payload/shim/loops.cpp`): an innermost loop of scalar code with at least
//! 8 constant iterations is marked `unroll disable` for LLVM, with the loops
//! around it that hold nothing else, and the mark reaches the loop's back
//! edge in the LLVM dialect; shorter loops, outer loops with other work and
//! loops of vector code are left to LLVM.

use payload::melior::ir::operation::OperationLike;

/// Six loops: a 16-trip scalar row alone inside a 4-trip loop, a 3-trip
/// scalar loop, a 16-trip loop of vector code, and a 16-trip scalar row
/// inside a 4-trip loop that also stores.
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
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %one, %m[%i, %c0] : memref<4x16xf32>
    scf.for %j = %c0 to %c16 step %c1 {
      memref.store %one, %m[%i, %j] : memref<4x16xf32>
    }
  }
  return
}";

#[test]
fn only_innermost_scalar_rows_and_loops_of_nothing_else_are_kept_rolled_and_the_mark_reaches_the_back_edge(
) {
    let context = payload::new_context();
    let mut module = payload::parse_module(&context, "loops.mlir", LOOPS).unwrap();
    assert_eq!(runner::ffi::keep_scalar_rows_rolled(&mut module, 8), 2);
    let text = payload::ffi::print_module(&module);
    assert!(module.as_operation().verify(), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    let marked: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].contains("llvm.loop_annotation = "))
        .collect();
    // The two rows (their store just before the closing brace) and the
    // loop around the first row (its row's closing brace just before).
    assert_eq!(marked.len(), 3, "{text}");
    let after_a_row = marked
        .iter()
        .filter(|&&i| lines[i - 1].contains("memref.store %cst, %arg0[%arg2, %arg3]"))
        .count();
    let after_a_marked_loop = marked
        .iter()
        .filter(|&&i| marked.contains(&(i - 1)))
        .count();
    assert_eq!((after_a_row, after_a_marked_loop), (2, 1), "{text}");

    runner::passes::run_passes(
        &context,
        &mut module,
        "builtin.module(convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts)",
        "loops.mlir",
    )
    .unwrap();
    assert_eq!(runner::ffi::attach_loop_annotations(&mut module), 3);
    let text = payload::ffi::print_module(&module);
    assert!(module.as_operation().verify(), "{text}");
    assert!(
        text.contains("{loop_annotation = #loop_annotation}")
            && !text.contains("llvm.loop_annotation = "),
        "{text}"
    );
}
