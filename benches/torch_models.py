#!/usr/bin/env python3
"""The PyTorch exports in examples/torch and examples/torchvision side by side with PyTorch eager
and torch.compile, one thread.

    taskset -c 1 TORCH_VENV/bin/python benches/torch_models.py [--calls 20] [--rounds 3]
        [--only torch|torchvision] [--model transformer] [--compile] [--threads 2]
        [--variant tuned.znver3 [--variant tuned.rocketlake]]

Needs torch (a virtual environment outside the repository, as for scripts/export_torch.py, whose
models this imports), the exports' inputs written by `scripts/export_torch.py` (examples/torch/data,
not committed) and a built `target/release/sched-apply`. Each round times, per model, PyTorch's
forward pass (`torch.set_num_threads(1)`, inference mode, the same batch) and then each export
under each schedule beside it through `sched-apply run --inputs <PyTorch's inputs> --bench --json`,
so machine noise hits both alike. With --compile, also `torch.compile(model)` (the default inductor
backend, compiled before the first round). With --threads N (run it unpinned, or on N cores), both
sides get N threads (`torch.set_num_threads`, `sched-apply run --threads`), and only the schedules
named `*.parallel.sched` are timed (on one thread those that mark no loop `parallel`); otherwise
those are left out. With --variant V, only the schedules `NAME.FORM.V.sched` (and
`NAME.FORM.V.parallel.sched`): the files tuned for one CPU, say; repeated, each variant's, so that
two CPUs' files are timed side by side in one run. Prints each round, then per export and schedule the
median time and the median of the rounds' ratios (PyTorch's time over ours: above 1 means we are
faster).
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



def schedules_of(name, exports, parallel, variants=None):
    """(export, schedule) for every schedule beside both forms of model `name` in `exports`: the
    `*.parallel.sched` ones when `parallel`, the others otherwise; with `variants`, only
    `NAME.FORM.VARIANT[.parallel].sched` for each of them."""
    pairs = []
    for form in ["linalg", "tosa"]:
        payload = exports / f"{name}.{form}.mlir"
        for schedule in sorted(exports.glob(f"{name}.{form}.sched")) + sorted(
                exports.glob(f"{name}.{form}.*.sched")):
            if schedule.name.endswith(".parallel.sched") != parallel:
                continue
            middle = schedule.name[len(f"{name}.{form}."):-len(".sched")].removesuffix("parallel")
            if variants is None or middle.rstrip(".") in variants:
                pairs.append((payload, schedule))
    return pairs


def marks_parallel(schedule):
    """Whether `schedule` marks a loop `parallel`: `sched-apply run --threads` refuses one that
    marks none (a schedule `tune --threads 2` wrote for a model too small to gain from a second
    thread), which then runs on one thread."""
    code = (line.split("#")[0] for line in schedule.read_text().splitlines())
    return any(".parallel(" in line for line in code)


def models_of(only):
    """(name, model, example, exports directory) for the models `--only` selects."""
    models = []
    if only != "torchvision":
        models += [(n, m, e, export_torch.OUT)
                   for n, m, e in export_torch.models() + export_torch.frozen_models()]
    if only != "torch":
        models += [(n, m, e, export_torch.VISION) for n, m, e in export_torch.whole_models()]
    return models


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=20, help="timed calls per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds of all")
    parser.add_argument("--only", choices=["torch", "torchvision"], help="one directory's models")
    parser.add_argument("--model", action="append",
                        help="only this model (e.g. transformer); repeat for several")
    parser.add_argument("--compile", action="store_true", help="also time torch.compile (inductor)")
    parser.add_argument("--threads", type=int, default=1, help="threads on both sides")
    parser.add_argument("--variant", action="append",
                        help="only the schedules NAME.FORM.VARIANT[.parallel].sched "
                        "(e.g. tuned.znver3); repeat for several")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    print(f"{cpu_name()}; torch {torch.__version__}, {torch.get_num_threads()} thread(s)", file=sys.stderr)
    models = models_of(args.only)
    if args.model:
        unknown = set(args.model) - {name for name, _, _, _ in models}
        if unknown:
            sys.exit(f"no model named {', '.join(sorted(unknown))}; "
                     f"there are {', '.join(name for name, _, _, _ in models)}")
        models = [m for m in models if m[0] in args.model]
    theirs = {name: [] for name, _, _, _ in models}
    compiled = {}
    if args.compile:
        for name, model, example, _ in models:
            compiled[name] = (torch.compile(model), [])
            with torch.inference_mode():
                compiled[name][0](example)
    ours = {}
    for round_index in range(args.rounds):
        for name, model, example, exports in models:
            with torch.inference_mode():
                theirs[name].append(median_of_calls(lambda: model(example), args.calls))
                if name in compiled:
                    fast = compiled[name][0]
                    compiled[name][1].append(median_of_calls(lambda: fast(example), args.calls))
            data = exports / "data" / name
            count = len(list(data.glob("arg*.npy")))
            if count == 0:
                sys.exit(f"no inputs in {data}: run scripts/export_torch.py first")
            inputs = ",".join(str(data / f"arg{i}.npy") for i in range(count))
            line = f"round {round_index + 1}: {name}: torch {theirs[name][-1] * 1e3:.4f} ms"
            if name in compiled:
                line += f", torch.compile {compiled[name][1][-1] * 1e3:.4f} ms"
            for payload, schedule in schedules_of(name, exports, args.threads > 1, args.variant):
                threads = ["--threads", str(args.threads)] if marks_parallel(schedule) else []
                seconds = sched_apply_median(str(payload), str(schedule), args.calls,
                                             ["--inputs", inputs, *threads])
                ours.setdefault((name, schedule.name), []).append(seconds)
                line += f", {schedule.name} {seconds * 1e3:.4f} ms"
            print(line, file=sys.stderr)
    print("| export and schedule | median per call | PyTorch eager | eager / ours (rounds' median) "
          "| torch.compile | compile / ours |")
    print("|---|---|---|---|---|---|")
    for (name, schedule), times in ours.items():
        ratio = statistics.median(t / o for t, o in zip(theirs[name], times))
        row = (f"| `{schedule}` | {statistics.median(times) * 1e3:.4f} ms "
               f"| {statistics.median(theirs[name]) * 1e3:.4f} ms | {ratio:.3f}x |")
        if name in compiled:
            inductor = compiled[name][1]
            ratio = statistics.median(t / o for t, o in zip(inductor, times))
            row += f" {statistics.median(inductor) * 1e3:.4f} ms | {ratio:.3f}x |"
        else:
            row += " | |"
        print(row)


if __name__ == "__main__":
    main()
