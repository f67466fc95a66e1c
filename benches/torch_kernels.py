#!/usr/bin/env python3
"""The kernel examples in PyTorch, eager and `torch.compile` (inductor), one thread: the
framework `sched-apply tune`'s kernels are measured against (benches/tune.py --torch runs this
beside it, in its turns).

    taskset -c 1 ~/torch-venv/bin/python benches/torch_kernels.py conv_layer [--calls 5] [--rounds 3]
    ~/torch-venv/bin/python benches/torch_kernels.py sgemm --serve

Needs torch and numpy in a venv outside the repository (the one of scripts/export_torch.py).
Kernels, the same shapes and layouts as the payloads in examples/:
- conv_layer: `relu(conv2d(x, w, b))`, channels-last (as examples/halide_conv/conv.mlir's NHWC),
  5 x 128 x 82 x 102 pre-padded input, 128 -> 128 channels, 3x3;
- resnet_conv: the same at 8 x 64 x 58 x 58, 64 -> 64 channels (resnet_conv.mlir);
- sgemm: `torch.mm` of two 2048 x 2048 matrices (examples/gemm/gemm.mlir);
- mnist_cnn_b64: scripts/export_torch.py's MnistCnn at batch 64 (examples/cnn/mnist.mlir).
Inference mode, `torch.set_num_threads(1)`. `torch.compile`'s result is checked against eager's
first. With `--serve` it prints one JSON line when ready (compiled), then times `CALLS` calls of
each for each line `CALLS` read from stdin and prints `{"eager": SECONDS, "torch.compile":
SECONDS}`. Otherwise it prints each round's medians.
"""
import argparse
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
import torch  # noqa: E402

from paired import ROOT, median_of_calls, serve  # noqa: E402


def conv_layer(n, channels, height, width):
    """Bias, 3x3 convolution (no padding: the input is pre-padded) and ReLU, channels-last."""
    x = torch.randn(n, channels, height, width).to(memory_format=torch.channels_last)
    w = torch.randn(channels, channels, 3, 3).to(memory_format=torch.channels_last)
    b = torch.randn(channels)
    flops = 2.0 * n * channels * channels * 9 * (height - 2) * (width - 2)
    return (lambda x, w, b: torch.relu(torch.nn.functional.conv2d(x, w, b))), (x, w, b), flops


def sgemm(size):
    a, b = torch.randn(size, size), torch.randn(size, size)
    return torch.mm, (a, b), 2.0 * size**3


def mnist_cnn(batch):
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from export_torch import MnistCnn
    torch.manual_seed(0)
    model = MnistCnn().eval()
    flops = 2.0 * batch * (16 * 9 * 28 * 28 + 32 * 16 * 9 * 28 * 28 + 6272 * 1024 + 1024 * 10)
    return model, (torch.randn(batch, 1, 28, 28),), flops


KERNELS = {
    "conv_layer": lambda: conv_layer(5, 128, 82, 102),
    "resnet_conv": lambda: conv_layer(8, 64, 58, 58),
    "sgemm": lambda: sgemm(2048),
    "mnist_cnn_b64": lambda: mnist_cnn(64),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kernel", choices=sorted(KERNELS))
    parser.add_argument("--calls", type=int, default=5, help="timed calls per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--serve", action="store_true",
                        help="time a round for each line CALLS read from stdin (JSON out)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    function, inputs, flops = KERNELS[args.kernel]()
    start = time.perf_counter()
    compiled = torch.compile(function)
    with torch.inference_mode():
        expected, got = function(*inputs), compiled(*inputs)
    compile_s = time.perf_counter() - start
    error = float((got - expected).abs().max() / max(float(expected.abs().max()), 1.0))
    if not error < 1e-4:
        sys.exit(f"{args.kernel}: torch.compile's result differs from eager's "
                 f"(relative error {error:.3g})")

    def time_round(calls):
        with torch.inference_mode():
            return {"eager": median_of_calls(lambda: function(*inputs), calls),
                    "torch.compile": median_of_calls(lambda: compiled(*inputs), calls)}

    if args.serve:
        serve({"kernel": args.kernel, "schedule_s": compile_s, "torch": torch.__version__},
              time_round)
        return
    print(f"{args.kernel}: torch {torch.__version__}, compiled in {compile_s:.1f} s")
    for _ in range(args.rounds):
        figures = time_round(args.calls)
        print("  " + ", ".join(f"{name} {seconds * 1e3:.3f} ms = {flops / seconds / 1e9:.1f} "
                               f"GFLOP/s" for name, seconds in figures.items()))


if __name__ == "__main__":
    main()
