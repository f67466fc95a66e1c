//! Math functions in vectorized bodies: each one a schedule vectorizes
//! (lowering approximates most with polynomials, `shim/approximate.cpp`)
//! compiles, runs and matches the unscheduled payload's libm results.

mod common;

use common::{sched_apply, stderr, tempdir};

/// A 4 x 64 elementwise op computing `f(|x| + 0.5)`, so logarithms and
/// square roots see positive values.
fn payload(function: &str) -> String {
    format!(
        r#"#id = affine_map<(i, j) -> (i, j)>
func.func @f(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {{
  %e = tensor.empty() : tensor<4x64xf32>
  %r = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%x : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %abs = math.absf %a : f32
    %p = arith.addf %abs, %half : f32
    %m = {function} %p : f32
    linalg.yield %m : f32
  }} -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}}
"#
    )
}

/// rsqrt crashed the process: upstream's approximation of it builds ops of
/// a dialect the lowering had not loaded.
#[test]
fn every_vectorized_math_function_matches_libm() {
    let scratch = tempdir();
    let schedule = scratch.join("f.sched");
    std::fs::write(
        &schedule,
        "func f = linalg.generic (i, j)\nf.split(j, jo, ji, 16).vectorize(ji)\n",
    )
    .unwrap();
    for function in [
        "math.exp",
        "math.tanh",
        "math.erf",
        "math.log",
        "math.rsqrt",
        "math.sqrt",
        "math.sin",
        "math.cos",
    ] {
        let path = scratch.join("f.mlir");
        std::fs::write(&path, payload(function)).unwrap();
        let output = sched_apply(&[
            "run",
            path.to_str().unwrap(),
            schedule.to_str().unwrap(),
            "--check",
            "--no-cache",
        ]);
        assert!(
            output.status.success(),
            "{function}: {:?}\n{}",
            output.status,
            stderr(&output)
        );
        let report = String::from_utf8_lossy(&output.stdout);
        assert!(report.contains("check: ok"), "{function}: {report}");
    }
}
