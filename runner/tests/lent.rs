//! Calling with lent memory (`Program::call_lent`): which arguments the
//! code only reads, that those come back unchanged even where an op writes
//! into a view of one, and that a written argument cannot be lent.

use runner::call::Argument;
use runner::jit::Program;
use runner::tensor::Tensor;

/// Zeroed bytes for each result of `program`.
fn result_bytes(program: &Program) -> Vec<Vec<u8>> {
    let results = program.new_results();
    results.iter().map(|t| t.buffer.bytes().to_vec()).collect()
}

/// `bytes` read as little-endian f32s.
fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

#[test]
fn lent_arguments_and_results_give_what_owned_tensors_give() {
    let add = "func.func @add(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
      %e = tensor.empty() : tensor<4x3xf32>
      %r = linalg.add ins(%a, %b : tensor<4x3xf32>, tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
      return %r : tensor<4x3xf32>
    }";
    let program = Program::compile("add.mlir", add, None).unwrap();
    assert!(program.reads_only(0) && program.reads_only(1));
    let inputs: Vec<Tensor> = program.random_inputs(5);
    let mut owned_results = program.new_results();
    program
        .call(&mut inputs.clone(), &mut owned_results)
        .unwrap();
    let mut results = result_bytes(&program);
    let mut lent: Vec<Argument<'_>> = inputs
        .iter()
        .map(|t| Argument::Lent(t.buffer.bytes()))
        .collect();
    let mut outs: Vec<&mut [u8]> = results.iter_mut().map(Vec::as_mut_slice).collect();
    program.call_lent(&mut lent, &mut outs).unwrap();
    assert_eq!(results[0], owned_results[0].buffer.bytes());
    assert!(floats(&results[0]).iter().any(|&v| v != 0.0));
}

#[test]
fn an_op_writing_into_a_view_of_a_read_only_argument_writes_a_copy() {
    // The fill's destination is a slice of %x, not %x: bufferized in place,
    // it would zero the first two rows of the caller's buffer.
    let zero_rows = "func.func @zero_rows(%x: tensor<4x8xf32>) -> tensor<2x8xf32> {
      %zero = arith.constant 0.0 : f32
      %s = tensor.extract_slice %x[0, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
      %r = linalg.fill ins(%zero : f32) outs(%s : tensor<2x8xf32>) -> tensor<2x8xf32>
      return %r : tensor<2x8xf32>
    }";
    let program = Program::compile("zero_rows.mlir", zero_rows, None).unwrap();
    assert!(program.reads_only(0));
    let x = Tensor::random(program.signature.inputs[0].clone(), 1);
    let before = x.buffer.bytes().to_vec();
    assert!(
        floats(&before).iter().all(|&v| v != 0.0),
        "the check needs nonzero inputs"
    );
    let mut results = result_bytes(&program);
    let mut outs: Vec<&mut [u8]> = results.iter_mut().map(Vec::as_mut_slice).collect();
    program
        .call_lent(&mut [Argument::Lent(x.buffer.bytes())], &mut outs)
        .unwrap();
    assert_eq!(x.buffer.bytes(), before, "the lent argument is unchanged");
    assert_eq!(floats(&results[0]), vec![0.0; 16]);
}

/// `%c + %a * %b` accumulated into the argument `%c`, and `%a` returned as it is.
const IN_PLACE: &str = "func.func @mm(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4x8xf32>) {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r, %a : tensor<4x2xf32>, tensor<4x8xf32>
}";

#[test]
fn arguments_a_result_is_computed_in_are_not_read_only_and_cannot_be_lent() {
    let program = Program::compile("mm.mlir", IN_PLACE, None).unwrap();
    assert_eq!(program.results_in_arguments(), &[Some(2), Some(0)]);
    let read_only: Vec<bool> = (0..3).map(|i| program.reads_only(i)).collect();
    assert_eq!(read_only, [false, true, false]);
    let inputs: Vec<Tensor> = program.random_inputs(2);
    let mut results = result_bytes(&program);
    let mut outs: Vec<&mut [u8]> = results.iter_mut().map(Vec::as_mut_slice).collect();
    let error = program
        .call_lent(
            &mut inputs
                .iter()
                .map(|t| Argument::Lent(t.buffer.bytes()))
                .collect::<Vec<_>>(),
            &mut outs,
        )
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("argument 0 of @mm is written by the call"),
        "{error}"
    );
}

#[test]
fn a_result_computed_in_an_owned_argument_is_copied_out() {
    let program = Program::compile("mm.mlir", IN_PLACE, None).unwrap();
    let inputs: Vec<Tensor> = program.random_inputs(2);
    let mut owned_results = program.new_results();
    program
        .call(&mut inputs.clone(), &mut owned_results)
        .unwrap();
    let (mut a, mut c) = (inputs[0].clone(), inputs[2].clone());
    let mut arguments = [
        Argument::Tensor(&mut a),
        Argument::Lent(inputs[1].buffer.bytes()),
        Argument::Tensor(&mut c),
    ];
    let mut results = result_bytes(&program);
    let mut outs: Vec<&mut [u8]> = results.iter_mut().map(Vec::as_mut_slice).collect();
    program.call_lent(&mut arguments, &mut outs).unwrap();
    assert_eq!(results[0], owned_results[0].buffer.bytes());
    assert_eq!(results[1], inputs[0].buffer.bytes());
    assert_ne!(
        results[0],
        inputs[2].buffer.bytes(),
        "the product was added"
    );
}

#[test]
fn lent_bytes_of_the_wrong_size_are_an_error() {
    let program = Program::compile("mm.mlir", IN_PLACE, None).unwrap();
    let mut inputs: Vec<Tensor> = program.random_inputs(2);
    let short = vec![0u8; 8];
    let (first, rest) = inputs.split_at_mut(1);
    let (_, last) = rest.split_at_mut(1);
    let mut arguments = [
        Argument::Tensor(&mut first[0]),
        Argument::Lent(&short),
        Argument::Tensor(&mut last[0]),
    ];
    let mut results = result_bytes(&program);
    let mut outs: Vec<&mut [u8]> = results.iter_mut().map(Vec::as_mut_slice).collect();
    let error = program.call_lent(&mut arguments, &mut outs).unwrap_err();
    assert!(
        error.to_string().contains("do not match the signature"),
        "{error}"
    );
}

#[test]
fn an_argument_a_loop_carries_is_written_in_place() {
    // A tiled op's accumulator: the loop's body writes into %c, so %c keeps
    // its in-place bufferization (no copy before the loop) and is not lent.
    let accumulate = "func.func @acc(%x: tensor<8xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %c) -> (tensor<8xf32>) {
        %v = tensor.extract %x[%i] : tensor<8xf32>
        %a = tensor.extract %acc[%i] : tensor<8xf32>
        %s = arith.addf %v, %a : f32
        %n = tensor.insert %s into %acc[%i] : tensor<8xf32>
        scf.yield %n : tensor<8xf32>
      }
      return %r : tensor<8xf32>
    }";
    let program = Program::compile("acc.mlir", accumulate, None).unwrap();
    assert!(program.reads_only(0));
    assert!(!program.reads_only(1));
    let inputs: Vec<Tensor> = program.random_inputs(9);
    let (x, c) = (inputs[0].to_f64(), inputs[1].to_f64());
    let mut results = program.new_results();
    program.call(&mut inputs.clone(), &mut results).unwrap();
    let want: Vec<f64> = x
        .iter()
        .zip(&c)
        .map(|(a, b)| (*a as f32 + *b as f32) as f64)
        .collect();
    assert_eq!(results[0].to_f64(), want);
}
