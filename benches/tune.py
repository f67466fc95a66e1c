#!/usr/bin/env python3
"""`sched-apply tune` on the kernel examples: how long tuning takes, how long the written schedule
is, and how fast it runs against the hand-written schedule beside it, in one run.

    python3 benches/tune.py [--budget 5m] [--records tune.jsonl] [--rounds 3]

Needs only a built `target/release/sched-apply` (no torch). For each kernel (conv_layer, ResNet's
3x3 convolution, SGEMM 2048^3, the MNIST CNN at batch 64) it runs `tune` into a temporary file
(with --records, a second run reuses the measurements and takes seconds; `--caches warm` by
default, since `run --bench` times a kernel back to back), then, round after round,
`run --bench` of the hand schedule and of the tuned one in turns, each measuring the core's peak
again first (`--rounds` of each); it prints the median % of peak of each and their ratio (tuned over hand: 1 or more
means the tuner matched the person). `tune` gets every core this process may use (it times
pinned to the last and compiles the next candidate on the others); each `run --bench` is pinned to
that last core. With `--halide PYTHON` (a venv's python with PyPI's `halide`, see
benches/halide_auto.py) the convolutions and the SGEMM are also written in Halide, scheduled by
its Adams2019 autoscheduler and timed in the same turns, pinned to the same core. The whole
networks are in benches/torch_models.py, which times every schedule beside an export, the
`*.tuned.sched` ones included, against PyTorch. With `--torch PYTHON` (a venv's python with
torch) the kernels also run in PyTorch, eager and `torch.compile`, one thread, in the same turns
(benches/torch_kernels.py). A ratio tuned/X above 1 means the tuned schedule was faster.
"""
import argparse
import json
import os
import subprocess
import tempfile
import time

from paired import ROOT, cpu_name

# (payload, hand schedule, calls per round, the kernel's name in the peer scripts)
KERNELS = [
    ("examples/halide_conv/conv.mlir", "examples/halide_conv/conv.sched", 5, "conv_layer"),
    ("examples/halide_conv/resnet_conv.mlir", "examples/halide_conv/resnet_conv.sched", 10,
     "resnet_conv"),
    ("examples/gemm/gemm.mlir", "examples/gemm/gemm.sched", 5, "sgemm"),
    ("examples/cnn/mnist.mlir", "examples/cnn/mnist_cpu.sched", 10, "mnist_cnn_b64"),
]
# The peer scripts (benches/) and the kernels each has.
PEERS = {
    "halide_auto.py": {"conv_layer", "resnet_conv", "sgemm"},
    "torch_kernels.py": {"conv_layer", "resnet_conv", "sgemm", "mnist_cnn_b64"},
}
BINARY = os.path.join(ROOT, "target", "release", "sched-apply")


def pinned():
    """Pins the calling process to the last core it may use (as `taskset -c`), for a child."""
    os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})


def percent_of_peak(payload, schedule, calls):
    """One round of `run --bench`: its % of the peak measured just before it, and its median
    seconds, timed on one core."""
    command = [BINARY, "run", payload, schedule, "--bench", str(calls), "--rounds", "1",
               "--reference-calls", "0", "--json"]
    report = json.loads(subprocess.run(command, capture_output=True, text=True, check=True,
                                       cwd=ROOT, preexec_fn=pinned).stdout)
    return report["percent_of_peak"], report["median_s"]


class Peer:
    """A peer script (benches/halide_auto.py, benches/torch_kernels.py) serving one kernel under
    `python`, pinned to the core `run --bench` uses."""

    def __init__(self, python, script, kernel):
        path = os.path.join(ROOT, "benches", script)
        self.process = subprocess.Popen([python, path, kernel, "--serve"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, preexec_fn=pinned)
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"{script} {kernel} failed (its message is above)")
        self.ready = json.loads(line)

    def seconds(self, calls):
        """Each of its programs' median of `calls` timed calls, by name."""
        self.process.stdin.write(f"{calls}\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def median(figures):
    """The median (% of peak, seconds) pair by % of peak: the upper middle of an even count."""
    return sorted(figures)[len(figures) // 2]


def code_lines(path):
    """Lines that are neither blank nor comments."""
    with open(path) as text:
        return sum(1 for line in text if line.strip() and not line.lstrip().startswith("#"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", default="5m", help="tune's --budget per kernel")
    parser.add_argument("--records", help="tune's --records (reused across runs)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of --bench per schedule")
    parser.add_argument("--caches", default="warm", choices=["warm", "cold"],
                        help="tune's --caches (warm: as run --bench times a kernel, back to back)")
    parser.add_argument("--halide", metavar="PYTHON",
                        help="a python with PyPI's halide: time Adams2019's schedules in the turns")
    parser.add_argument("--torch", metavar="PYTHON",
                        help="a python with torch: time eager and torch.compile in the turns")
    args = parser.parse_args()
    pythons = {"halide_auto.py": args.halide, "torch_kernels.py": args.torch}
    print(f"{cpu_name()}, one thread")
    with tempfile.TemporaryDirectory() as scratch:
        for payload, hand, calls, kernel in KERNELS:
            name = os.path.basename(payload)
            tuned = os.path.join(scratch, name.replace(".mlir", ".sched"))
            command = [BINARY, "tune", payload, "--budget", args.budget, "--caches", args.caches,
                       "-o", tuned]
            if args.records:
                command += ["--records", os.path.abspath(args.records)]
            start = time.perf_counter()
            subprocess.run(command, check=True, cwd=ROOT, capture_output=True)
            seconds = time.perf_counter() - start
            peers = [Peer(pythons[script], script, kernel)
                     for script, kernels in PEERS.items() if pythons[script] and kernel in kernels]
            # Round by round in turns, so a slow spell of the machine falls on each; a peer's
            # % of the peak is taken from the peak the hand schedule's round measured.
            rounds = []
            for _ in range(args.rounds):
                hand_round = percent_of_peak(payload, hand, calls)
                figures = {"hand": hand_round, "tuned": percent_of_peak(payload, tuned, calls)}
                for peer in peers:
                    for program, peer_s in peer.seconds(calls).items():
                        figures[program] = (hand_round[0] * hand_round[1] / peer_s, peer_s)
                rounds.append(figures)
            medians = {program: median([r[program] for r in rounds]) for program in rounds[0]}
            (hand_peak, hand_s), (tuned_peak, tuned_s) = medians["hand"], medians["tuned"]
            print(f"{name}: tuned in {seconds:.1f} s, {code_lines(tuned)} lines; "
                  f"hand {os.path.basename(hand)} {hand_s * 1e3:.3f} ms = {hand_peak:.1f}% of peak, "
                  f"tuned {tuned_s * 1e3:.3f} ms = {tuned_peak:.1f}% of peak; "
                  f"tuned/hand {tuned_peak / hand_peak:.3f}")
            for peer in peers:
                peer.close()
            if peers:
                print("  searched and compiled in: " + ", ".join(
                    f"{os.path.basename(p.process.args[1])} {p.ready['schedule_s']:.1f} s"
                    for p in peers))
            for program, (peak, program_s) in medians.items():
                if program not in ("hand", "tuned"):
                    print(f"  {program} {program_s * 1e3:.3f} ms = {peak:.1f}% of peak; "
                          f"tuned/{program} {tuned_peak / peak:.3f}")


if __name__ == "__main__":
    main()
