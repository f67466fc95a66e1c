//! A reduction into a kept unit dimension, as PyTorch's `sum(dim=-1,
//! keepdim=True)` exports it (a softmax's denominator, a layer norm's mean):
//! the output is indexed by a constant 0. Such outputs are written through a
//! tensor without that dimension as the payload loads
//! (`payload/shim/keepdims.cpp`), so `rfactor` and `vectorize` apply to them
//! (MLIR's vectorizer refused the partial op's map) and the results are the
//! same.

mod common;

use common::sched_apply_on as scheduled;

/// Row sums of an 8x64 tensor into 8x1, as a softmax's denominator; `%s` is
/// returned, and `%q` (each value over its row's sum) when `also_divided`.
fn row_sums(also_divided: bool) -> String {
    let (returned, types) = if also_divided {
        ("%s, %q", "tensor<8x1xf32>, tensor<8x64xf32>")
    } else {
        ("%s", "tensor<8x1xf32>")
    };
    format!(
        r#"
#in = affine_map<(i, r) -> (i, r)>
#kept = affine_map<(i, r) -> (i, 0)>
#row = affine_map<(i, j) -> (i, 0)>
func.func @f(%x: tensor<8x64xf32>) -> ({types}) {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x1xf32>) -> tensor<8x1xf32>
  %s = linalg.generic {{indexing_maps = [#in, #kept], iterator_types = ["parallel", "reduction"]}}
      ins(%x : tensor<8x64xf32>) outs(%z : tensor<8x1xf32>) {{
  ^bb0(%v: f32, %acc: f32):
    %sum = arith.addf %v, %acc : f32
    linalg.yield %sum : f32
  }} -> tensor<8x1xf32>
  %eq = tensor.empty() : tensor<8x64xf32>
  %q = linalg.generic {{indexing_maps = [#in, #row, #in], iterator_types = ["parallel", "parallel"]}}
      ins(%x, %s : tensor<8x64xf32>, tensor<8x1xf32>) outs(%eq : tensor<8x64xf32>) {{
  ^bb0(%v: f32, %t: f32, %o: f32):
    %d = arith.divf %v, %t : f32
    linalg.yield %d : f32
  }} -> tensor<8x64xf32>
  return {returned} : {types}
}}
"#
    )
}

const RFACTOR: &str = "func sums = linalg.generic[0] (i | r)\n\
                       sums.split(r, ro, ri, 16).rfactor(ri, u).vectorize(u)\n";

#[test]
fn the_op_keeps_its_loops_and_its_fill() {
    let (code, ops) = scheduled(&row_sums(true), "", &["ops"]);
    assert_eq!(code, Some(0), "{ops}");
    // The same loops as exported; the init's fill is now of 8 values.
    assert!(ops.contains("linalg.generic[0] (i | r)  # 8 | 64"), "{ops}");
    assert!(ops.contains("linalg.fill (i)  # 8,"), "{ops}");
}

#[test]
fn a_kept_dimension_sum_vectorizes_by_parts() {
    for also_divided in [false, true] {
        let payload = row_sums(also_divided);
        let (code, ir) = scheduled(&payload, RFACTOR, &["--emit", "payload"]);
        assert_eq!(code, Some(0), "{ir}");
        // 16 partial sums side by side, added to from each 16 values of
        // the row, then combined.
        assert!(
            ir.contains("vector.transfer_read %arg0[%arg1, %arg3], %0 {in_bounds = [true]} : tensor<8x64xf32>, vector<16xf32>"),
            "{ir}"
        );
        assert!(ir.contains("linalg.reduce"), "{ir}");
        // The readers still see 8x1.
        assert!(ir.contains("tensor.expand_shape"), "{ir}");
        let (code, report) = scheduled(&payload, RFACTOR, &["run", "--check"]);
        assert_eq!(code, Some(0), "{report}");
        assert!(report.contains("check: ok"), "{report}");
    }
}

#[test]
fn a_constant_column_of_a_wider_output_stays() {
    // Column 0 of 8x2 is not a kept unit dimension: the op is left as
    // exported, and `ops` still shows its loops.
    let payload = row_sums(false).replace("tensor<8x1xf32>", "tensor<8x2xf32>");
    let (code, ops) = scheduled(&payload, "", &["ops"]);
    assert_eq!(code, Some(0), "{ops}");
    assert!(ops.contains("linalg.fill (i, j)  # 8 x 2,"), "{ops}");
    let (code, report) = scheduled(&payload, "", &["run", "--check"]);
    assert_eq!(code, Some(0), "{report}");
}
