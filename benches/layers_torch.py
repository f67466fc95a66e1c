#!/usr/bin/env python3
"""Named convolution and pooling layers under a schedule, side by side with PyTorch eager, one thread.

    taskset -c 1 TORCH_VENV/bin/python benches/layers_torch.py [--calls 10] [--rounds 3]

The layers of the MNIST CNN (examples/cnn, batch 64) and a ResNet basic block's 3x3 convolution
(batch 1, 64 channels, 56x56). Each is written as one named linalg op on its (pre-padded)
arguments with the schedule docs/named-ops.md gives it; each round times PyTorch's layer
(`torch.set_num_threads(1)`, inference mode, NCHW; the convolution pads inside) and then
`sched-apply run --bench --json` on it. Medians over calls, then over rounds, and the median of
the rounds' own ratios. PyTorch is optional (a venv outside the repository, as for
benches/mnist_torch.py); needs a built `target/release/sched-apply`.
"""
import argparse
import json
import os
import statistics
import sys
import tempfile

os.environ.setdefault("OMP_NUM_THREADS", "1")

import torch  # noqa: E402

from paired import median_of_calls, sched_apply_median  # noqa: E402
ATTRS = "{dilations = dense<1> : vector<2xi64>, strides = dense<%d> : vector<2xi64>}"


def conv_payload(n, c, f, h, w):
    x, k, o = f"{n}x{c}x{h + 2}x{w + 2}", f"{f}x{c}x3x3", f"{n}x{f}x{h}x{w}"
    return (f"func.func @layer(%x: tensor<{x}xf32>, %k: tensor<{k}xf32>, %o: tensor<{o}xf32>) -> tensor<{o}xf32> {{\n"
            f"  %r = linalg.conv_2d_nchw_fchw {ATTRS % 1} ins(%x, %k : tensor<{x}xf32>, tensor<{k}xf32>) outs(%o : tensor<{o}xf32>) -> tensor<{o}xf32>\n"
            f"  return %r : tensor<{o}xf32>\n}}\n")


def pool_payload(n, c, h, w):
    x, o = f"{n}x{c}x{h}x{w}", f"{n}x{c}x{h // 2}x{w // 2}"
    return (f"func.func @layer(%x: tensor<{x}xf32>, %o: tensor<{o}xf32>) -> tensor<{o}xf32> {{\n"
            f"  %win = tensor.empty() : tensor<2x2xf32>\n"
            f"  %r = linalg.pooling_nchw_max {ATTRS % 2} ins(%x, %win : tensor<{x}xf32>, tensor<2x2xf32>) outs(%o : tensor<{o}xf32>) -> tensor<{o}xf32>\n"
            f"  return %r : tensor<{o}xf32>\n}}\n")


CONV = "func c = linalg.conv_2d_nchw_fchw (n, f, y, x | ch, ky, kx)\n"
LAYERS = [
    ("MNIST conv1 (64x1x28x28, 16 3x3 filters)", conv_payload(64, 1, 16, 28, 28),
     CONV + "c.split(x, xo, xi, 14).reorder(xi, ky, kx, ch, xo, y, f, n).vectorize(xi)\n",
     lambda: (torch.nn.Conv2d(1, 16, 3, padding=1, bias=False), torch.rand(64, 1, 28, 28))),
    ("MNIST conv2 (64x16x28x28, 32 3x3 filters)", conv_payload(64, 16, 32, 28, 28),
     CONV + "c.split(x, xo, xi, 14).split(f, fo, fi, 8).reorder(xi, fi, ky, kx, ch, xo, y, fo, n).vectorize(xi).unroll(fi)\n",
     lambda: (torch.nn.Conv2d(16, 32, 3, padding=1, bias=False), torch.rand(64, 16, 28, 28))),
    ("MNIST max pool 2x2 (64x32x28x28)", pool_payload(64, 32, 28, 28),
     "func p = linalg.pooling_nchw_max (n, c, y, x | ky, kx)\np.split(c, co, ci, 16).reorder(ci, ky, kx, x, y, co, n).vectorize(ci)\n",
     lambda: (torch.nn.MaxPool2d(2), torch.rand(64, 32, 28, 28))),
    ("ResNet basic block 3x3 conv (1x64x56x56, 64 filters)", conv_payload(1, 64, 64, 56, 56),
     CONV + "c.split(x, xo, xi, 8).split(f, fo, fi, 4).reorder(xi, fi, ky, kx, ch, xo, fo, y, n).vectorize(xi).unroll(fi)\n",
     lambda: (torch.nn.Conv2d(64, 64, 3, padding=1, bias=False), torch.rand(1, 64, 56, 56))),
]


def torch_median(layer, x, calls):
    with torch.inference_mode():
        return median_of_calls(lambda: layer(x), calls)


def ours_median(directory, calls):
    return sched_apply_median(os.path.join(directory, "layer.mlir"), os.path.join(directory, "layer.sched"), calls)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} thread", file=sys.stderr)
    report = []
    with tempfile.TemporaryDirectory() as scratch:
        for index, (name, payload, schedule, make) in enumerate(LAYERS):
            directory = os.path.join(scratch, str(index))
            os.makedirs(directory)
            with open(os.path.join(directory, "layer.mlir"), "w") as f:
                f.write(payload)
            with open(os.path.join(directory, "layer.sched"), "w") as f:
                f.write(schedule)
            layer, x = make()
            layer.eval()
            theirs, ours = [], []
            for _ in range(args.rounds):
                theirs.append(torch_median(layer, x, args.calls))
                ours.append(ours_median(directory, args.calls))
            entry = {"layer": name, "torch_median_s": statistics.median(theirs), "ours_median_s": statistics.median(ours),
                     "speed_vs_torch_per_round_median": statistics.median(t / o for t, o in zip(theirs, ours))}
            print(json.dumps(entry), file=sys.stderr)
            report.append(entry)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
