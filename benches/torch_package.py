#!/usr/bin/env python3
"""PyTorch models through the Python package against PyTorch itself, one process:

    taskset -c 1 TORCH_VENV/bin/python benches/torch_package.py [--calls 10] [--rounds 3]
        [--model mnist_cnn_b64] [--variant tuned.avx2] [--threads 2]

TORCH_VENV has torch, torch-mlir and torchvision (versions: scripts/export_torch.py) and the
package built with optimizations (`maturin develop --release` in python/ with that venv active;
`make test-torch` installs a debug build, which this refuses to time). Each model of
examples/torch and examples/torchvision with a schedule of the variant asked for beside its linalg export (`NAME.linalg.sched`; with `--variant V`,
`NAME.linalg.V.sched`; with `--threads N` above one, `NAME.linalg[.V].parallel.sched`, and
both sides get N threads) is compiled with `sched_apply.compile(model, (x,), schedule=...,
check=True)` (the first call's result is compared with eager PyTorch) and with
`torch.compile(model, backend=sched_apply.backend(schedule))`; then eager, `torch.compile`
(inductor) and both of ours are timed in alternating rounds (median of the rounds' medians).
Prints a markdown table with the first call's time beside (export, apply, and JIT-compiling, or
loading the code from the compile cache when an earlier run compiled it: run twice to see
both)."""

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import torch  # noqa: E402

import sched_apply  # noqa: E402
from paired import ROOT, cpu_name, median_of_calls, require_release_build  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import export_torch  # noqa: E402

# (name, exports directory): the models whose schedules this times; mlp_frozen's export has its
# weights in the file, and sched_apply.compile passes them as arguments.
CHOSEN = [
    ("linear", export_torch.OUT),
    ("mlp", export_torch.OUT),
    ("mnist_cnn_b1", export_torch.OUT),
    ("mnist_cnn_b64", export_torch.OUT),
    ("resnet_block", export_torch.OUT),
    ("resnet18_b1", export_torch.VISION),
    ("resnet18_b8", export_torch.VISION),
    ("mobilenet_v2", export_torch.VISION),
    ("transformer", export_torch.VISION),
]


def schedule_of(name, exports, variant, threads):
    """The schedule `--variant` and `--threads` name for model `name`, or None if there is none."""
    parts = [name, "linalg", *([variant] if variant else []), *(["parallel"] if threads > 1 else [])]
    path = exports / (".".join(parts) + ".sched")
    return path if path.exists() else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=10, help="timed calls per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds")
    parser.add_argument("--model", action="append", choices=[c[0] for c in CHOSEN],
                        help="only this model (e.g. mnist_cnn_b64); repeat for several")
    parser.add_argument("--variant", default="",
                        help="the schedules NAME.linalg.VARIANT.sched (e.g. tuned.avx2: tune's, "
                             "on an AVX2 CPU); by default the hand ones, NAME.linalg.sched")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads on both sides; above one, the *.parallel.sched schedules")
    args = parser.parse_args()
    require_release_build(sched_apply)
    torch.set_num_threads(args.threads)
    os.environ["OMP_NUM_THREADS"] = str(args.threads)
    print(f"{cpu_name()}; torch {torch.__version__}, {args.threads} thread(s)", file=sys.stderr)
    models = {n: (m, e) for n, m, e in export_torch.models() + export_torch.whole_models()}
    rows = []
    for name, exports in CHOSEN:
        if args.model and name not in args.model:
            continue
        path = schedule_of(name, exports, args.variant, args.threads)
        if path is None:
            print(f"{name}: no schedule of this variant and thread count, left out", file=sys.stderr)
            continue
        schedule = path.name
        model, example = models[name]
        start = time.perf_counter()
        ours = sched_apply.compile(model, (example,), schedule=str(path), check=True)
        with torch.inference_mode():
            ours(example)
        first = time.perf_counter() - start
        # Static shapes: compiled a second time, the frame would otherwise get a dynamic batch.
        inductor = torch.compile(model, dynamic=False)
        backend = torch.compile(model, backend=sched_apply.backend(str(path)), dynamic=False)
        with torch.inference_mode():
            inductor(example)
            backend(example)
        times = {"eager": [], "inductor": [], "ours": [], "backend": []}
        for _ in range(args.rounds):
            with torch.inference_mode():
                times["eager"].append(median_of_calls(lambda: model(example), args.calls))
                times["inductor"].append(median_of_calls(lambda: inductor(example), args.calls))
                times["ours"].append(median_of_calls(lambda: ours(example), args.calls))
                times["backend"].append(median_of_calls(lambda: backend(example), args.calls))
        line = ", ".join(f"{k} {statistics.median(v) * 1e3:.4f} ms" for k, v in times.items())
        how = "cached" if ours.program.cached else "compiled"
        print(f"{name} with {schedule}: {line}; first call {first:.1f} s ({how})", file=sys.stderr)
        rows.append((name, schedule, times, f"{first:.1f} s ({how})"))
    print("| model | schedule | sched_apply.compile | eager | eager / ours | torch.compile | compile / ours "
          "| torch.compile(backend=sched_apply.backend) | first call (export, apply, JIT or cache) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, schedule, times, first in rows:
        ours, eager, inductor, backend = (
            statistics.median(times[k]) for k in ("ours", "eager", "inductor", "backend"))
        e = statistics.median(a / b for a, b in zip(times["eager"], times["ours"]))
        i = statistics.median(a / b for a, b in zip(times["inductor"], times["ours"]))
        print(f"| {name} | `{schedule}` | {ours * 1e3:.4f} ms | {eager * 1e3:.4f} ms | {e:.3f}x "
              f"| {inductor * 1e3:.4f} ms | {i:.3f}x | {backend * 1e3:.4f} ms | {first} |")


if __name__ == "__main__":
    main()
