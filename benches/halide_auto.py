#!/usr/bin/env python3
"""The kernel examples written in Halide and scheduled by one of Halide's own autoschedulers
(Adams2019 by default), JIT-compiled and timed on one thread: the state of the art that
`sched-apply tune` is measured against (benches/tune.py --halide runs this beside it).

    ~/halide-venv/bin/python benches/halide_auto.py conv_layer [--autoscheduler Adams2019]
        [--calls 5] [--rounds 3]
    ~/halide-venv/bin/python benches/halide_auto.py sgemm --serve

Needs PyPI's `halide` (21 or later, whose wheel ships the autoschedulers) and numpy, in a venv
outside the repository: `python3 -m venv ~/halide-venv && ~/halide-venv/bin/pip install halide
numpy`. Kernels (the same shapes and layouts as the payloads in examples/):
- conv_layer: examples/halide_conv/conv.mlir (5 x 80 x 100, 128 -> 128 channels, 3x3, bias, ReLU);
- resnet_conv: examples/halide_conv/resnet_conv.mlir (8 x 56 x 56, 64 -> 64 channels, 3x3);
- sgemm: examples/gemm/gemm.mlir (2048^3, row-major).
Each is checked against numpy before it is timed. The schedule is searched for one core
(`parallelism` 1) and run with HL_NUM_THREADS=1. With `--serve` it prints one JSON line when
ready, then times `CALLS` calls for each line `CALLS` read from stdin and prints
`{"Adams2019": SECONDS}`: a caller takes its rounds in turns with other programs. Otherwise it prints
each round's median.
"""
import argparse
import os
import sys
import time

os.environ.setdefault("HL_NUM_THREADS", "1")
import halide as hl  # noqa: E402  (reads HL_NUM_THREADS when its runtime starts)
import numpy as np  # noqa: E402

from paired import median_of_calls, serve  # noqa: E402


def relative_error(got, want):
    """The largest difference against the largest magnitude (at least 1)."""
    return np.abs(got - want).max() / max(np.abs(want).max(), 1.0)


def conv_layer(n, h, w, ci, co):
    """Bias, 3x3 convolution and ReLU over NHWC `n x (h+2) x (w+2) x ci` input and a
    `ci x 3 x 3 x co` filter (Halide's dimensions are innermost first)."""
    input_ = hl.ImageParam(hl.Float(32), 4, "input")  # (ci, x, y, n)
    filter_ = hl.ImageParam(hl.Float(32), 4, "filter")  # (co, kw, kh, ci)
    bias = hl.ImageParam(hl.Float(32), 1, "bias")
    c, x, y, b = hl.Var("c"), hl.Var("x"), hl.Var("y"), hl.Var("b")
    r = hl.RDom([(0, ci), (0, 3), (0, 3)], "r")
    conv = hl.Func("conv")
    conv[c, x, y, b] = bias[c]
    conv[c, x, y, b] += filter_[c, r.y, r.z, r.x] * input_[r.x, x + r.y, y + r.z, b]
    relu = hl.Func("relu")
    relu[c, x, y, b] = hl.max(0.0, conv[c, x, y, b])
    input_.set_estimates([(0, ci), (0, w + 2), (0, h + 2), (0, n)])
    filter_.set_estimates([(0, co), (0, 3), (0, 3), (0, ci)])
    bias.set_estimates([(0, co)])
    relu.set_estimates([(0, co), (0, w), (0, h), (0, n)])
    rng = np.random.default_rng(0)
    arrays = {
        input_: rng.standard_normal((n, h + 2, w + 2, ci), dtype=np.float32),
        filter_: rng.standard_normal((ci, 3, 3, co), dtype=np.float32),
        bias: rng.standard_normal(co, dtype=np.float32),
    }

    def expected(out):
        """The first image's result by numpy, against `out`'s."""
        image = arrays[input_][0]
        windows = np.lib.stride_tricks.sliding_window_view(image, (3, 3), axis=(0, 1))
        # windows: (h, w, ci, kh, kw); the filter (ci, kh, kw, co).
        got = np.einsum("yxcij,cijo->yxo", windows, arrays[filter_], optimize=True)
        want = np.maximum(got + arrays[bias], 0.0)
        return relative_error(out[0], want)

    flops = 2.0 * n * h * w * co * ci * 9
    return relu, arrays, (n, h, w, co), expected, flops


def sgemm(size):
    """C = A B, all `size x size`, row-major."""
    a = hl.ImageParam(hl.Float(32), 2, "a")  # (k, i)
    b = hl.ImageParam(hl.Float(32), 2, "b")  # (j, k)
    i, j = hl.Var("i"), hl.Var("j")
    k = hl.RDom([(0, size)], "k")
    c = hl.Func("c")
    c[j, i] = 0.0
    c[j, i] += a[k.x, i] * b[j, k.x]
    a.set_estimates([(0, size), (0, size)])
    b.set_estimates([(0, size), (0, size)])
    c.set_estimates([(0, size), (0, size)])
    rng = np.random.default_rng(0)
    arrays = {
        a: rng.standard_normal((size, size), dtype=np.float32),
        b: rng.standard_normal((size, size), dtype=np.float32),
    }

    def expected(out):
        want = arrays[a][:64] @ arrays[b]
        return relative_error(out[:64], want)

    return c, arrays, (size, size), expected, 2.0 * size**3


KERNELS = {
    "conv_layer": lambda: conv_layer(5, 80, 100, 128, 128),
    "resnet_conv": lambda: conv_layer(8, 56, 56, 64, 64),
    "sgemm": lambda: sgemm(2048),
}


class Kernel:
    """One kernel, autoscheduled and JIT-compiled, its inputs bound."""

    def __init__(self, name, autoscheduler):
        output, arrays, shape, self.error, self.flops = KERNELS[name]()
        # The wheel keeps the autoschedulers beside libHalide, off the loader's path.
        library = os.path.join(os.path.dirname(hl.__file__), "lib64",
                               f"libautoschedule_{autoscheduler.lower()}.so")
        hl.load_plugin(library)
        self.pipeline = hl.Pipeline(output)
        target = hl.get_jit_target_from_environment()
        start = time.perf_counter()
        self.pipeline.apply_autoscheduler(
            target, hl.AutoschedulerParams(autoscheduler, {"parallelism": "1"}))
        self.pipeline.compile_jit(target)
        self.schedule_s = time.perf_counter() - start
        for param, array in arrays.items():
            param.set(hl.Buffer(array, reverse_axes=True))
        self.result = np.zeros(shape, dtype=np.float32)
        self.buffer = hl.Buffer(self.result, reverse_axes=True)

    def call(self):
        """One call, the result written into `self.result`."""
        self.pipeline.realize(self.buffer)

    def median(self, calls):
        """The median of `calls` timed calls after one untimed, in seconds."""
        return median_of_calls(self.call, calls, warmup=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kernel", choices=sorted(KERNELS))
    parser.add_argument("--autoscheduler", default="Adams2019",
                        choices=["Adams2019", "Mullapudi2016", "Li2018", "Anderson2021"])
    parser.add_argument("--calls", type=int, default=5, help="timed calls per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--serve", action="store_true",
                        help="time a round for each line CALLS read from stdin (JSON out)")
    args = parser.parse_args()
    kernel = Kernel(args.kernel, args.autoscheduler)
    kernel.call()
    error = float(kernel.error(kernel.result))
    if not error < 1e-4:
        sys.exit(f"{args.kernel}: {args.autoscheduler}'s result differs from numpy's "
                 f"(relative error {error:.3g})")
    ready = {"kernel": args.kernel, "autoscheduler": args.autoscheduler,
             "schedule_s": kernel.schedule_s, "relative_error": error, "flops": kernel.flops}
    if args.serve:
        serve(ready, lambda calls: {args.autoscheduler: kernel.median(calls)})
        return
    print(f"{args.kernel}: {args.autoscheduler} searched and compiled in "
          f"{kernel.schedule_s:.1f} s, relative error {error:.2g} against numpy")
    for _ in range(args.rounds):
        seconds = kernel.median(args.calls)
        print(f"  {seconds * 1e3:.3f} ms, {kernel.flops / seconds / 1e9:.1f} GFLOP/s")


if __name__ == "__main__":
    main()
