//! An argmax, as `aten.max.dim` exports it. A `linalg.generic` result
//! nothing reads is dropped as the payload loads (`payload/shim/results.cpp`):
//! PyTorch's softmax maximum also yields the index of the maximum, which
//! nothing reads and which kept the reduction from vectorizing. A read index,
//! or a result another one depends on, stays; vectorizing it is then refused
//! by `check`, where MLIR's vectorizer would fail.

mod common;

use common::sched_apply_on as scheduled;

/// A row maximum with its index (as `aten.max.dim` exports), then `USE`
/// returned: `%m#0`, `%m#1` or both.
fn max_with_index(returned: &str, types: &str) -> String {
    format!(
        r#"
#in = affine_map<(i, r) -> (i, r)>
#row = affine_map<(i, r) -> (i)>
func.func @f(%x: tensor<8x32xf32>) -> ({types}) {{
  %lowest = arith.constant -3.4e38 : f32
  %c0 = arith.constant 0 : i64
  %ei = tensor.empty() : tensor<8xi64>
  %zi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<8xi64>) -> tensor<8xi64>
  %ef = tensor.empty() : tensor<8xf32>
  %zf = linalg.fill ins(%lowest : f32) outs(%ef : tensor<8xf32>) -> tensor<8xf32>
  %m:2 = linalg.generic {{indexing_maps = [#in, #row, #row], iterator_types = ["parallel", "reduction"]}}
      ins(%x : tensor<8x32xf32>) outs(%zf, %zi : tensor<8xf32>, tensor<8xi64>) {{
  ^bb0(%v: f32, %best: f32, %at: i64):
    %r = linalg.index 1 : index
    %ri = arith.index_cast %r : index to i64
    %max = arith.maximumf %v, %best : f32
    %more = arith.cmpf ogt, %v, %best : f32
    %where = arith.select %more, %ri, %at : i64
    linalg.yield %max, %where : f32, i64
  }} -> (tensor<8xf32>, tensor<8xi64>)
  return {returned} : {types}
}}
"#
    )
}

/// `sched-apply` with `args` on `payload` (an empty schedule beside it).
fn sched_apply(payload: &str, args: &[&str]) -> (Option<i32>, String) {
    scheduled(payload, "", args)
}

#[test]
fn an_unread_index_of_the_maximum_is_dropped() {
    let payload = max_with_index("%m#0", "tensor<8xf32>");
    let (code, ops) = sched_apply(&payload, &["ops"]);
    assert_eq!(code, Some(0), "{ops}");
    assert!(ops.contains("body: max,"), "{ops}");
    // The index's fill went with it: one fill is left.
    assert!(
        ops.contains("linalg.fill (i)") && !ops.contains("linalg.fill[1]"),
        "{ops}"
    );
    let (code, report) = sched_apply(&payload, &["run", "--check"]);
    assert_eq!(code, Some(0), "{report}");
    assert!(report.contains("check: ok"), "{report}");
}

#[test]
fn a_read_index_stays() {
    for (returned, types) in [
        ("%m#1", "tensor<8xi64>"),
        ("%m#0, %m#1", "tensor<8xf32>, tensor<8xi64>"),
    ] {
        let (code, ops) = sched_apply(&max_with_index(returned, types), &["ops"]);
        assert_eq!(code, Some(0), "{ops}");
        assert!(
            ops.contains("body: index index_cast max cmp select"),
            "{ops}"
        );
    }
}

#[test]
fn vectorizing_a_read_argmax_is_refused_at_the_directive() {
    let payload = max_with_index("%m#0, %m#1", "tensor<8xf32>, tensor<8xi64>");
    for schedule in [
        "func am = linalg.generic (i | r)\nam.split(r, ro, ri, 16).vectorize(ri)\n",
        "func am = linalg.generic (i | r)\nam.split(i, io, ii, 8).reorder(ii, r, io).vectorize(ii)\n",
    ] {
        let (code, report) = scheduled(&payload, schedule, &["run", "--check"]);
        assert_eq!(code, Some(1), "{report}");
        assert!(
            report.contains("p.sched:2:") && report.contains("error: MLIR's vectorizer cannot vectorize `am`, whatever its tile: its result 0 reads its accumulator in 2 ops, not one"),
            "{report}"
        );
        assert!(!report.contains("MLIR could not apply"), "{report}");
    }
    // Unrolled, it runs and computes what the unscheduled payload does.
    let unrolled = "func am = linalg.generic (i | r)\nam.split(r, ro, ri, 4).unroll(ri)\n";
    let (code, report) = scheduled(&payload, unrolled, &["run", "--check"]);
    assert_eq!(code, Some(0), "{report}");
    assert!(report.contains("check: ok"), "{report}");
}
