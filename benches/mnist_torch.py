#!/usr/bin/env python3
"""The MNIST CNN test bench (examples/cnn) side by side with PyTorch eager, one thread.

    taskset -c 1 TORCH_VENV/bin/python benches/mnist_torch.py [--calls 10] [--rounds 3]

PyTorch is optional and never needed by `make test`: install it in a virtual
environment outside the repository (`python3 -m venv ~/torch-venv &&
~/torch-venv/bin/pip install torch numpy`, about 5.7 GB) and run this script
with that environment's python. Each round times PyTorch's forward pass
(batch 64, `torch.set_num_threads(1)`, inference mode) and then each schedule
beside examples/cnn/mnist.mlir through `sched-apply run --bench --json`, so
machine noise hits all of them alike; medians over calls, then over rounds,
and each schedule's ratio to PyTorch per round (its median too). Needs a
built `target/release/sched-apply`.
"""
import argparse
import json
import os
import statistics
import sys

os.environ.setdefault("OMP_NUM_THREADS", "1")

import torch  # noqa: E402

from paired import ROOT, median_of_calls, sched_apply_median  # noqa: E402

EXAMPLE = os.path.join(ROOT, "examples", "cnn")
SCHEDULES = ["mnist_loops.sched", "mnist_cpu.sched", "mnist_accel.sched"]


class Cnn(torch.nn.Module):
    """conv 1->16 3x3 pad 1 + ReLU, conv 16->32 3x3 pad 1 + ReLU, 2x2 max pool, 6272->1024 + ReLU, 1024->10."""

    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = torch.nn.Conv2d(16, 32, 3, padding=1)
        self.fc1 = torch.nn.Linear(6272, 1024)
        self.fc2 = torch.nn.Linear(1024, 10)

    def forward(self, x):
        x = torch.relu(self.conv1(x))
        x = torch.relu(self.conv2(x))
        x = torch.nn.functional.max_pool2d(x, 2)
        x = torch.relu(self.fc1(torch.flatten(x, 1)))
        return self.fc2(x)


def torch_median(model, x, calls):
    with torch.inference_mode():
        return median_of_calls(lambda: model(x), calls)


def schedule_median(schedule, calls):
    return sched_apply_median(os.path.join(EXAMPLE, "mnist.mlir"), os.path.join(EXAMPLE, schedule), calls)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=10, help="timed calls per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds of all")
    parser.add_argument("--loops-calls", type=int, default=2, help="timed calls of the unscheduled (slow) payload")
    args = parser.parse_args()
    torch.set_num_threads(1)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} thread", file=sys.stderr)
    model = Cnn().eval()
    x = torch.rand(64, 1, 28, 28)
    theirs = []
    ours = {schedule: [] for schedule in SCHEDULES}
    for round_index in range(args.rounds):
        theirs.append(torch_median(model, x, args.calls))
        line = f"round {round_index + 1}: torch {theirs[-1] * 1e3:.3f} ms"
        for schedule in SCHEDULES:
            calls = args.loops_calls if schedule == "mnist_loops.sched" else args.calls
            ours[schedule].append(schedule_median(schedule, calls))
            line += f", {schedule} {ours[schedule][-1] * 1e3:.3f} ms"
        print(line, file=sys.stderr)
    report = {"torch_median_s": statistics.median(theirs)}
    for schedule, times in ours.items():
        report[schedule] = {
            "median_s": statistics.median(times),
            "speed_vs_torch_per_round_median": statistics.median(t / o for t, o in zip(theirs, times)),
        }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
