//! Calling compiled payloads repeatedly: no memory grows from call to call.

use runner::jit::Program;
use runner::tensor::Tensor;

/// Resident set size of this process, in bytes (Linux).
fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

/// Two elementwise ops with a 4 MiB intermediate tensor: each call allocates it.
const CHAIN: &str = "
#id = affine_map<(i, j) -> (i, j)>
func.func @chain(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %e = tensor.empty() : tensor<1024x1024xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = [\"parallel\", \"parallel\"]}
      ins(%x : tensor<1024x1024xf32>) outs(%e : tensor<1024x1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<1024x1024xf32>
  %e2 = tensor.empty() : tensor<1024x1024xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = [\"parallel\", \"parallel\"]}
      ins(%t, %x : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%e2 : tensor<1024x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}";

#[test]
fn memory_stays_flat_over_a_hundred_calls() {
    let program = Program::compile("chain.mlir", CHAIN, None).unwrap();
    let mut inputs = vec![Tensor::random(program.signature.inputs[0].clone(), 5)];
    let mut results = program.new_results();
    for _ in 0..10 {
        program.call(&mut inputs, &mut results).unwrap();
    }
    let before = resident_bytes();
    for _ in 0..100 {
        program.call(&mut inputs, &mut results).unwrap();
    }
    let grown = resident_bytes().saturating_sub(before);
    // A leaked intermediate would be 4 MiB per call, 400 MiB in all.
    assert!(
        grown < 16 << 20,
        "resident memory grew by {grown} bytes over 100 calls"
    );
    let (x, r) = (inputs[0].to_f64(), results[0].to_f64());
    assert!(x
        .iter()
        .zip(&r)
        .all(|(x, r)| (*r as f32) == (*x as f32) * (*x as f32) + (*x as f32)));
}
