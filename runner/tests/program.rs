//! Compiling and calling payloads: results, results computed in an
//! argument, the entry function, located signature errors.

use runner::jit::Program;
use runner::tensor::Tensor;

const ADD: &str = "func.func @add(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %e = tensor.empty() : tensor<4x3xf32>
  %r = linalg.add ins(%a, %b : tensor<4x3xf32>, tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}";

#[test]
fn compiles_and_runs_an_elementwise_add() {
    let program = Program::compile("add.mlir", ADD, None).unwrap();
    assert_eq!(program.signature.inputs.len(), 2);
    let mut inputs: Vec<Tensor> = program.random_inputs(0);
    let mut results = program.new_results();
    program.call(&mut inputs, &mut results).unwrap();
    let (a, b, r) = (inputs[0].to_f64(), inputs[1].to_f64(), results[0].to_f64());
    for i in 0..12 {
        assert_eq!(r[i] as f32, (a[i] as f32) + (b[i] as f32));
    }
}

/// `%c + %a * %b` accumulated into the argument `%c`, and `%a` returned as it is.
const IN_PLACE: &str = "func.func @mm(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4x8xf32>, tensor<4x2xf32>) {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r, %a, %r : tensor<4x2xf32>, tensor<4x8xf32>, tensor<4x2xf32>
}";

#[test]
fn results_computed_in_an_argument_are_moved_out_of_it() {
    let program = Program::compile("mm.mlir", IN_PLACE, None).unwrap();
    assert_eq!(program.results_in_arguments(), &[Some(2), Some(0), Some(2)]);
    let inputs: Vec<Tensor> = program.random_inputs(3);
    let (a, b, c) = (inputs[0].to_f64(), inputs[1].to_f64(), inputs[2].to_f64());
    for _ in 0..2 {
        let mut fresh = inputs.clone();
        let mut results = program.new_results();
        program.call(&mut fresh, &mut results).unwrap();
        let (r0, r1, r2) = (
            results[0].to_f64(),
            results[1].to_f64(),
            results[2].to_f64(),
        );
        for i in 0..4 {
            for j in 0..2 {
                let want = c[i * 2 + j] as f32
                    + (0..8)
                        .map(|k| a[i * 8 + k] as f32 * b[k * 2 + j] as f32)
                        .sum::<f32>();
                assert!(
                    (r0[i * 2 + j] as f32 - want).abs() <= 1e-5 * (1.0 + want.abs()),
                    "[{i}, {j}]: {} != {want}",
                    r0[i * 2 + j]
                );
            }
        }
        assert_eq!(r2, r0, "the same result returned twice");
        assert_eq!(r1, a, "an argument returned as it is");
    }
}

#[test]
fn an_argument_only_written_is_the_result_buffer() {
    // The ReLU overwrites %out without reading it: computed in place, no copy.
    let relu = "func.func @relu(%x: tensor<4x8xf32>, %out: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %zero = arith.constant 0.0 : f32
      %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                           iterator_types = [\"parallel\", \"parallel\"]}
           ins(%x : tensor<4x8xf32>) outs(%out : tensor<4x8xf32>) {
      ^bb0(%v: f32, %o: f32):
        %m = arith.maximumf %v, %zero : f32
        linalg.yield %m : f32
      } -> tensor<4x8xf32>
      return %r : tensor<4x8xf32>
    }";
    let program = Program::compile("relu.mlir", relu, None).unwrap();
    assert_eq!(program.results_in_arguments(), &[Some(1)]);
    let mut inputs: Vec<Tensor> = program.random_inputs(0);
    let x = inputs[0].to_f64();
    let mut results = program.new_results();
    program.call(&mut inputs, &mut results).unwrap();
    assert_eq!(
        results[0].to_f64(),
        x.iter().map(|v| v.max(0.0)).collect::<Vec<_>>()
    );
    assert!(
        x.iter().any(|v| *v < 0.0),
        "the check needs negative inputs"
    );
    // A result in a fresh buffer stays an out-parameter.
    let add = Program::compile("add.mlir", ADD, None).unwrap();
    assert_eq!(add.results_in_arguments(), &[None]);
}

#[test]
fn entry_must_be_chosen_among_several() {
    let two = format!("{ADD}\n{}", ADD.replace("@add", "@add2"));
    let error = Program::compile("two.mlir", &two, None).err().unwrap();
    assert_eq!(
        error.message,
        "two.mlir: has 2 public functions: @add, @add2; choose one with --entry NAME"
    );
    assert!(Program::compile("two.mlir", &two, Some("add2")).is_ok());
    let error = Program::compile("two.mlir", &two, Some("mul"))
        .err()
        .unwrap();
    assert_eq!(
        error.message,
        "two.mlir: no public function `@mul` (it has: @add, @add2)"
    );
}

#[test]
fn dynamic_shapes_are_a_located_error() {
    let text = "func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {\n  return %a : tensor<?xf32>\n}";
    let error = Program::compile("dyn.mlir", text, None).err().unwrap();
    assert_eq!(error.message, "dyn.mlir: cannot run @f");
    assert_eq!(
        error.diagnostics[0]
            .file_line_column()
            .map(|(_, l, c)| (l, c)),
        Some((1, 1))
    );
    assert!(error.diagnostics[0]
        .message
        .contains("argument 0 of @f: `tensor<?xf32>` has a dynamic size"));
}

/// `x + W` with `W` a 128 × 256 constant of distinct values (128 KiB): large
/// constant data is emitted apart from the code when the code is split
/// into parts, and the program computes the same on one thread and two.
#[test]
fn large_constants_give_the_same_results_split_or_not() {
    let values: Vec<String> = (0..128)
        .map(|i| {
            let row: Vec<String> = (0..256)
                .map(|j| format!("{}.5", (i * 256 + j) % 1000))
                .collect();
            format!("[{}]", row.join(", "))
        })
        .collect();
    let text = format!(
        "func.func @add(%x: tensor<128x256xf32>) -> tensor<128x256xf32> {{
  %w = arith.constant dense<[{}]> : tensor<128x256xf32>
  %e = tensor.empty() : tensor<128x256xf32>
  %r = linalg.add ins(%x, %w : tensor<128x256xf32>, tensor<128x256xf32>) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %r : tensor<128x256xf32>
}}",
        values.join(", ")
    );
    let results = |threads: usize| {
        let program =
            Program::compile_on_threads("weights.mlir", &text, None, &[], None, threads).unwrap();
        let mut inputs = program.random_inputs(3);
        let mut results = program.new_results();
        program.call(&mut inputs, &mut results).unwrap();
        (inputs[0].to_f64(), results[0].to_f64())
    };
    let (one_in, one) = results(1);
    let (two_in, two) = results(2);
    assert_eq!(one_in, two_in);
    assert_eq!(one, two);
    let sum = |k: usize, w: f32| (one_in[k] as f32 + w) as f64;
    assert_eq!(one[1], sum(1, 1.5));
    assert_eq!(one[32767], sum(32767, 767.5));
}
