//! `ffi::approximate_vector_math` (`payload/shim/approximate.cpp`): vector
//! math functions become polynomial approximations in vector arithmetic;
//! scalar ones, which the unscheduled reference computes, stay libm calls.

use payload::melior::ir::operation::OperationLike;

/// An exponential and a tanh on vectors, and an exponential on a scalar.
const MATH: &str =
    "func.func @f(%v: vector<16xf32>, %x: f32) -> (vector<16xf32>, vector<16xf32>, f32) {
  %e = math.exp %v : vector<16xf32>
  %t = math.tanh %v : vector<16xf32>
  %s = math.exp %x : f32
  return %e, %t, %s : vector<16xf32>, vector<16xf32>, f32
}";

#[test]
fn vector_math_is_approximated_and_scalar_math_is_not() {
    let context = payload::new_context();
    let mut module = payload::parse_module(&context, "math.mlir", MATH).unwrap();
    assert_eq!(runner::ffi::approximate_vector_math(&mut module), 2);
    let text = payload::ffi::print_module(&module);
    assert!(module.as_operation().verify(), "{text}");
    assert!(!text.contains("math.exp %arg0"), "{text}");
    assert!(!text.contains("math.tanh"), "{text}");
    assert!(text.contains("math.exp %arg1 : f32"), "{text}");
    assert!(
        text.contains("arith.mulf") && text.contains("vector<16xf32>"),
        "{text}"
    );
    // Nothing is left to approximate.
    assert_eq!(runner::ffi::approximate_vector_math(&mut module), 0);
}
