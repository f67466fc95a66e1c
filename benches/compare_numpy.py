#!/usr/bin/env python3
"""Time SGEMM 2048^3 in numpy (OpenBLAS, one thread) and in sched-apply's
scheduled examples/gemm, in the same run, and print the ratio.

    taskset -c 1 python3 benches/compare_numpy.py [--calls 10] [--rounds 3] [--schedule S ...]

Each round times numpy, then each schedule (`--schedule` repeated: the candidates
for one CPU compared in one run), so machine noise hits them alike; the
figures are medians over calls, then the median over rounds. On a noisy
machine a burst can hit one side of a round only: `ratio_per_round_median`,
the median of each round's own ratio, compares the paired measurements. Needs numpy
(Debian: python3-numpy, which uses OpenBLAS through libblas.so.3) and a built
`target/release/sched-apply`.
"""
import argparse
import json
import os
import statistics
import sys

# One thread for every BLAS numpy may be linked against; set before importing numpy.
for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS"):
    os.environ[variable] = "1"

import numpy as np  # noqa: E402

from paired import ROOT, cpu_name, median_of_calls, sched_apply_median  # noqa: E402
N = 2048
FLOPS = 2 * N ** 3


def numpy_median(calls):
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (N, N)).astype(np.float32)
    b = rng.uniform(-1, 1, (N, N)).astype(np.float32)
    out = np.empty((N, N), dtype=np.float32)
    return median_of_calls(lambda: np.matmul(a, b, out=out), calls)


def sched_apply_gemm_median(calls, schedule):
    return sched_apply_median(os.path.join(ROOT, "examples", "gemm", "gemm.mlir"), schedule, calls)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=10, help="timed calls per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds of numpy and each schedule")
    parser.add_argument("--schedule", action="append",
                        help="a schedule to time; repeat it to compare several in one run (default: "
                             "examples/gemm/gemm.sched)")
    args = parser.parse_args()
    schedules = args.schedule or [os.path.join(ROOT, "examples", "gemm", "gemm.sched")]
    config = np.__config__.get_info("blas_opt_info") if hasattr(np.__config__, "get_info") else {}
    print(f"CPU: {cpu_name()}; numpy {np.__version__}, BLAS: {config.get('libraries', 'see numpy.show_config()')}, "
          "one thread", file=sys.stderr)
    theirs, ours = [], {schedule: [] for schedule in schedules}
    for round_index in range(args.rounds):
        theirs.append(numpy_median(args.calls))
        line = f"round {round_index + 1}: numpy {theirs[-1] * 1e3:.3f} ms"
        for schedule in schedules:
            ours[schedule].append(sched_apply_gemm_median(args.calls, schedule))
            line += f", {os.path.basename(schedule)} {ours[schedule][-1] * 1e3:.3f} ms"
        print(line, file=sys.stderr)
    numpy_s = statistics.median(theirs)
    report = {"cpu": cpu_name(), "size": N, "numpy_median_s": numpy_s, "numpy_gflops": FLOPS / numpy_s / 1e9,
              "schedules": []}
    for schedule in schedules:
        ours_s = statistics.median(ours[schedule])
        report["schedules"].append({
            "schedule": schedule,
            "sched_apply_median_s": ours_s,
            "sched_apply_gflops": FLOPS / ours_s / 1e9,
            "ratio_vs_numpy": numpy_s / ours_s,
            "ratio_per_round_median": statistics.median(t / o for t, o in zip(theirs, ours[schedule])),
        })
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
