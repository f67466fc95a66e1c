#!/usr/bin/env python3
"""conv_layer (examples/halide_conv) side by side with PyTorch's CPU convolution (oneDNN).

    taskset -c 1 TORCH_VENV/bin/python benches/compare_torch.py [--pairs 5] [--calls 10]
    taskset -c 0,1 TORCH_VENV/bin/python benches/compare_torch.py --threads 2
    taskset -c 1 TORCH_VENV/bin/python benches/compare_torch.py --shape resnet

`--shape resnet` compares the second shape instead: ResNet's 3x3 convolution, N=8, 56x56 (pre-padded
to 58x58), 64 -> 64 channels, examples/halide_conv/resnet_conv.mlir with resnet_conv.sched (one
thread) or resnet_conv_parallel.sched (more).

The same layer in both: N=5, 82x102 pre-padded input, 128 -> 128 channels, a 3x3 window, bias
and ReLU. PyTorch runs `relu(conv2d(x, w, b))` in channels-last (NHWC, as our payload's tensors
are), `torch.set_num_threads(THREADS)`, inference mode; ours is `sched-apply run --bench --json`
on examples/halide_conv/conv.mlir with conv_16x25.sched (one thread) or conv_16x25_parallel.sched (more). Each
pair times PyTorch and then ours, so machine noise hits both alike; it prints every pair and the
median of the pairs' ratios (PyTorch's time over ours: above 1 means we are faster).

PyTorch is optional and never needed by `make test`: install it in a virtual environment outside
the repository (`python3 -m venv ~/torch-venv && ~/torch-venv/bin/pip install torch numpy`). Needs
a built `target/release/sched-apply`.
"""
import argparse
import json
import os
import statistics
import subprocess

from paired import ROOT, cpu_name, median_of_calls


# Each shape: batch, channels (in = out), pre-padded height and width, the payload, and its
# fastest schedules for one thread and for more (`--schedule conv.sched`: Halide's).
SHAPES = {
    "conv_layer": (5, 128, 82, 102, "conv.mlir", "conv_16x25.sched", "conv_16x25_parallel.sched"),
    "resnet": (8, 64, 58, 58, "resnet_conv.mlir", "resnet_conv.sched", "resnet_conv_parallel.sched"),
}


def ours(payload, schedule, calls, threads):
    """sched-apply's median and GFLOP/s for `payload` under `schedule`."""
    example = os.path.join(ROOT, "examples", "halide_conv")
    command = [
        os.path.join(ROOT, "target", "release", "sched-apply"), "run",
        os.path.join(example, payload), os.path.join(example, schedule),
        "--bench", str(calls), "--reference-calls", "0", "--json",
    ]
    if threads > 1:
        command += ["--threads", str(threads)]
    report = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
    return report["median_s"], report["gflops"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--shape", choices=sorted(SHAPES), default="conv_layer")
    parser.add_argument("--schedule", help="default: the shape's schedule for one thread, or for more")
    args = parser.parse_args()
    os.environ["OMP_NUM_THREADS"] = str(args.threads)

    import torch

    torch.set_num_threads(args.threads)
    n, c, h, w_, payload, one, more = SHAPES[args.shape]
    schedule = args.schedule or (one if args.threads == 1 else more)
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(n, c, h, w_, generator=generator).to(memory_format=torch.channels_last)
    w = torch.randn(c, c, 3, 3, generator=generator).to(memory_format=torch.channels_last)
    b = torch.randn(c, generator=generator)

    def layer():
        return torch.relu(torch.nn.functional.conv2d(x, w, b))

    flops = 2 * n * (h - 2) * (w_ - 2) * c * c * 9
    print(f"CPU: {cpu_name()}; torch {torch.__version__}, {args.threads} thread(s); "
          f"{args.shape}; ours: {payload} with {schedule}")
    ratios = []
    with torch.inference_mode():
        for pair in range(args.pairs):
            theirs = median_of_calls(layer, args.calls)
            mine, _ = ours(payload, schedule, args.calls, args.threads)
            ratios.append(theirs / mine)
            print(f"pair {pair + 1}: torch {theirs * 1e3:.3f} ms ({flops / theirs / 1e9:.1f} GFLOP/s), "
                  f"sched-apply {mine * 1e3:.3f} ms ({flops / mine / 1e9:.1f} GFLOP/s), ratio {theirs / mine:.3f}")
    print(json.dumps({"cpu": cpu_name(), "threads": args.threads, "shape": args.shape,
                      "schedule": schedule,
                      "ratios": [round(r, 4) for r in ratios],
                      "median_ratio": statistics.median(ratios)}, indent=2))


if __name__ == "__main__":
    main()
