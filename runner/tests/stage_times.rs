//! Stage marks (`runner::stage_times`): a program compiled with them
//! computes what it computes without them, and times each stage's segment
//! of the entry under that stage's slot.

use runner::jit::Program;
use runner::stage_times::StageOwners;

/// Two elementwise stages: `%t` (x * x, line 5) then `%r` (t + x, line 11).
const TWO_STAGES: &str = "#id = affine_map<(i, j) -> (i, j)>
func.func @two(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = [\"parallel\", \"parallel\"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = [\"parallel\", \"parallel\"]}
      ins(%t, %x : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}";

#[test]
fn each_stage_is_timed_under_its_slot_and_the_results_do_not_change() {
    let mut owners = StageOwners::new(2);
    owners.insert((5, 8), 0);
    owners.insert((11, 8), 1);
    let timed = Program::compile_timing_stages("two.mlir", TWO_STAGES, None, &[], &owners).unwrap();
    let plain = Program::compile("two.mlir", TWO_STAGES, None).unwrap();

    let segments = timed.segments().unwrap();
    assert_eq!(segments.timed, vec![true, true, false]);
    assert!(segments.inside.iter().all(|inside| inside.is_empty()));
    assert!(plain.segments().is_none());

    let mut inputs = timed.random_inputs(3);
    let mut results = timed.new_results();
    let seconds = timed.call_by_stage(&mut inputs, &mut results).unwrap();
    assert_eq!(seconds.len(), 3);
    assert!(seconds[0] > 0.0 && seconds[1] > 0.0, "{seconds:?}");
    assert_eq!(seconds[2], 0.0, "no op is unowned: {seconds:?}");

    let mut plain_inputs = plain.random_inputs(3);
    let mut plain_results = plain.new_results();
    plain.call(&mut plain_inputs, &mut plain_results).unwrap();
    assert_eq!(results[0].buffer.bytes(), plain_results[0].buffer.bytes());
    let (x, r) = (inputs[0].to_f64(), results[0].to_f64());
    assert!(r.iter().any(|&v| v != 0.0));
    for (x, r) in x.iter().zip(&r) {
        assert!((x * x + x - r).abs() < 1e-5, "{x} {r}");
    }
}

/// An op of the first stage inside the second's segment (its location in
/// the second's body) makes the first stage part of the second's time.
#[test]
fn a_stage_inside_anothers_segment_is_timed_with_it() {
    let mut owners = StageOwners::new(2);
    owners.insert((11, 8), 1);
    owners.insert((14, 10), 0);
    let timed = Program::compile_timing_stages("two.mlir", TWO_STAGES, None, &[], &owners).unwrap();
    let segments = timed.segments().unwrap();
    // The first generic (line 5) is unowned now: slot 2.
    assert_eq!(segments.timed, vec![false, true, true]);
    assert_eq!(
        segments.inside[1].iter().copied().collect::<Vec<_>>(),
        vec![0]
    );
}
