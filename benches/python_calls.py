#!/usr/bin/env python3
"""What a call from Python costs besides the compiled code: numpy arrays in, numpy arrays out.
numpy only (no torch), one process:

    taskset -c 1 PYTHON benches/python_calls.py [--calls 20] [--rounds 3]

PYTHON has the package installed (`scripts/test_python.sh` makes such a venv under
~/.cache/sched-apply). Two payloads, compiled once each, called on fresh-looking arguments of
the sizes a model passes (nothing bound with `Program.bind`), each beside numpy doing the same
work in the same round:
- `add`: out = a + b on 2048 x 2048 float32 (two 16 MB arguments, a 16 MB result), against
  `numpy.add(a, b)`, which allocates its result the same way;
- `layer`: a 64 x 2048 batch times 2048 x 2048 float32 weights (16 MB passed per call),
  scheduled as examples/gemm, against `a @ w` (numpy's BLAS).
Prints the median of the rounds' medians of each, their ratio, and which arguments the call
copied in (`Program.copied_arguments`, when the package has it)."""

import argparse
import statistics

import numpy as np

import sched_apply
from paired import cpu_name, median_of_calls, require_release_build

ADD = """
func.func @add(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %e = tensor.empty() : tensor<2048x2048xf32>
  %r = linalg.add ins(%a, %b : tensor<2048x2048xf32>, tensor<2048x2048xf32>)
                  outs(%e : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}
"""

ADD_SCHEDULE = """
func add = linalg.add (i, j)
add.split(j, jo, ji, 16).vectorize(ji)
"""

LAYER = """
func.func @layer(%a: tensor<64x2048xf32>, %w: tensor<2048x2048xf32>) -> tensor<64x2048xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x2048xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x2048xf32>) -> tensor<64x2048xf32>
  %r = linalg.matmul ins(%a, %w : tensor<64x2048xf32>, tensor<2048x2048xf32>)
                     outs(%c : tensor<64x2048xf32>) -> tensor<64x2048xf32>
  return %r : tensor<64x2048xf32>
}
"""

LAYER_SCHEDULE = """
# examples/gemm's recipe: 6 x 64 register tiles, the weights packed per 64-column panel.
func zero = linalg.fill (i, j)
func mm = linalg.matmul (i, j | k)
mm.split(j, jo, ji, 64).split(i, io, ii, 6).reorder(ji, ii, k, io, jo)
  .vectorize(ji, 16).unroll(ji).unroll(ii).pack(in1, jo)
zero.compute_at(mm, jo).vectorize(j, 16).unroll(j)
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    require_release_build(sched_apply)
    rng = np.random.default_rng(0)
    cases = []
    a, b = (rng.uniform(-1, 1, (2048, 2048)).astype(np.float32) for _ in range(2))
    add = sched_apply.Payload(ADD, name="add.mlir").apply(ADD_SCHEDULE, name="add.sched")
    np.testing.assert_array_equal(add(a, b), a + b)
    cases.append(("add 2048x2048", lambda: add(a, b), lambda: np.add(a, b), add))
    x = rng.uniform(-1, 1, (64, 2048)).astype(np.float32)
    w = rng.uniform(-1, 1, (2048, 2048)).astype(np.float32)
    layer = sched_apply.Payload(LAYER, name="layer.mlir").apply(LAYER_SCHEDULE, name="layer.sched")
    np.testing.assert_allclose(layer(x, w), x @ w, rtol=1e-3, atol=1e-3)
    cases.append(("layer 64x2048 @ 2048x2048", lambda: layer(x, w), lambda: x @ w, layer))
    print(f"CPU: {cpu_name()}; {args.rounds} rounds of {args.calls} calls")
    print("| call | sched_apply ms | numpy ms | sched_apply / numpy | copied in |")
    print("|---|---|---|---|---|")
    for name, ours, theirs, program in cases:
        mine, numpy_s = [], []
        for _ in range(args.rounds):
            mine.append(median_of_calls(ours, args.calls))
            numpy_s.append(median_of_calls(theirs, args.calls))
        m, n = statistics.median(mine), statistics.median(numpy_s)
        copied = getattr(program, "copied_arguments", "all (no copied_arguments)")
        print(f"| {name} | {m * 1e3:.4f} | {n * 1e3:.4f} | {m / n:.3f} | {copied} |")


if __name__ == "__main__":
    main()
