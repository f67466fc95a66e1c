#!/usr/bin/env python3
"""The PyTorch exports in examples/torch side by side with PyTorch eager, one thread.

    taskset -c 1 TORCH_VENV/bin/python benches/torch_models.py [--calls 20] [--rounds 3]

Needs torch (a virtual environment outside the repository, as for scripts/export_torch.py, whose
models this imports), the exports' inputs written by `scripts/export_torch.py` (examples/torch/data,
not committed) and a built `target/release/sched-apply`. Each round times, per model, PyTorch's
forward pass (`torch.set_num_threads(1)`, inference mode, the same batch) and then each export
under each schedule beside it through `sched-apply run --inputs <PyTorch's inputs> --bench --json`,
so machine noise hits both alike. Prints each round, then per export and schedule the median time
and the median of the rounds' ratios (PyTorch's time over ours: above 1 means we are faster).
"""
import argparse
import os
import statistics
import sys

os.environ.setdefault("OMP_NUM_THREADS", "1")

import torch  # noqa: E402

from paired import ROOT, cpu_name, median_of_calls, sched_apply_median  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import export_torch  # noqa: E402

EXPORTS = export_torch.OUT


def schedules_of(name):
    """(export, schedule) for every schedule beside both forms of model `name`."""
    pairs = []
    for form in ["linalg", "tosa"]:
        payload = EXPORTS / f"{name}.{form}.mlir"
        for schedule in sorted(EXPORTS.glob(f"{name}.{form}.sched")) + sorted(
                EXPORTS.glob(f"{name}.{form}.*.sched")):
            pairs.append((payload, schedule))
    return pairs


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=20, help="timed calls per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds of all")
    args = parser.parse_args()
    torch.set_num_threads(1)
    print(f"{cpu_name()}; torch {torch.__version__}, {torch.get_num_threads()} thread", file=sys.stderr)
    models = export_torch.models() + export_torch.frozen_models()
    theirs = {name: [] for name, _, _ in models}
    ours = {}
    for round_index in range(args.rounds):
        for name, model, example in models:
            with torch.inference_mode():
                theirs[name].append(median_of_calls(lambda: model(example), args.calls))
            data = EXPORTS / "data" / name
            count = len(list(data.glob("arg*.npy")))
            if count == 0:
                sys.exit(f"no inputs in {data}: run scripts/export_torch.py first")
            inputs = ",".join(str(data / f"arg{i}.npy") for i in range(count))
            line = f"round {round_index + 1}: {name}: torch {theirs[name][-1] * 1e3:.4f} ms"
            for payload, schedule in schedules_of(name):
                seconds = sched_apply_median(str(payload), str(schedule), args.calls,
                                             ["--inputs", inputs])
                ours.setdefault((name, schedule.name), []).append(seconds)
                line += f", {schedule.name} {seconds * 1e3:.4f} ms"
            print(line, file=sys.stderr)
    print(f"| export and schedule | median per call | PyTorch eager | PyTorch / ours (rounds' median) |")
    print(f"|---|---|---|---|")
    for (name, schedule), times in ours.items():
        ratio = statistics.median(t / o for t, o in zip(theirs[name], times))
        print(f"| `{schedule}` | {statistics.median(times) * 1e3:.4f} ms "
              f"| {statistics.median(theirs[name]) * 1e3:.4f} ms | {ratio:.3f}x |")


if __name__ == "__main__":
    main()
