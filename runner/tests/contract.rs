//! `ffi::contract_vector_arithmetic` (`payload/shim/contract.cpp`): vector
//! multiplies and adds may be fused into fused multiply-adds by LLVM; scalar
//! ones, whose reduction chains a fused multiply-add would lengthen, may not.

use payload::melior::ir::operation::OperationLike;

/// A function doing `a * b + c` once on vectors and once on scalars.
const MULTIPLY_ADD: &str =
    "func.func @f(%a: vector<16xf32>, %b: vector<16xf32>, %c: vector<16xf32>,
                %x: f32, %y: f32, %z: f32) -> (vector<16xf32>, f32) {
  %p = arith.mulf %a, %b : vector<16xf32>
  %s = arith.addf %p, %c : vector<16xf32>
  %d = arith.subf %s, %c fastmath<nnan> : vector<16xf32>
  %q = arith.mulf %x, %y : f32
  %t = arith.addf %q, %z : f32
  return %d, %t : vector<16xf32>, f32
}";

#[test]
fn vector_multiplies_and_adds_may_contract_and_scalar_ones_not() {
    let context = payload::new_context();
    let mut module = payload::parse_module(&context, "multiply_add.mlir", MULTIPLY_ADD).unwrap();
    assert_eq!(runner::ffi::contract_vector_arithmetic(&mut module), 3);
    let text = payload::ffi::print_module(&module);
    assert!(module.as_operation().verify(), "{text}");
    for op in [
        "arith.mulf %arg0, %arg1 fastmath<contract> : vector<16xf32>",
        "arith.addf %0, %arg2 fastmath<contract> : vector<16xf32>",
        "arith.subf %1, %arg2 fastmath<nnan,contract> : vector<16xf32>",
        "arith.mulf %arg3, %arg4 : f32",
        "arith.addf %3, %arg5 : f32",
    ] {
        assert!(text.contains(op), "no `{op}` in:\n{text}");
    }
    // Marking again changes nothing.
    assert_eq!(runner::ffi::contract_vector_arithmetic(&mut module), 0);
}
