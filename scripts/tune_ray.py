#!/usr/bin/env python3
"""`sched-apply tune` spread over a Ray cluster.

Each kind of op of the payload is tuned on a worker, as its own
`sched-apply tune PAYLOAD --kind KEY` process with its share of the budget
(its FLOPs' part of the kinds' three quarters, as one machine would give
it); the measurements the workers return are merged into the records, and
then one `sched-apply tune` here reads them (measuring only what they do not
hold) and makes the decisions measured on the whole model. Workers must
have this CPU: records count only on CPUs of the same name, so the records
of a worker of another CPU are left out (and said so).

    pip install ray          # in a virtual environment of your own
    python scripts/tune_ray.py model.mlir -o model.sched --records tune.jsonl \\
        --budget 600 [--address auto] [--sched-apply PATH]

Without --address, a local Ray cluster is started for the run (useful to
try it; on one machine it is no faster than `sched-apply tune`). Each task
asks Ray for --cpus-per-task CPUs (default 2: one to time on, one to compile
the next candidate on), so no two measure on the same cores at once.
Ray schedules the tasks; this script only splits the work and merges the
records. From Python, `sched_apply.tune(..., cluster=...)` does the same with
the package on the workers instead of this binary.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

def _shared():
    """The package's pure-Python half of a spread tune (`shares`, `merge`), loaded from its file
    so that this script needs neither the package installed nor its native module."""
    import importlib.util

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python",
                        "sched_apply", "ray_tune.py")
    spec = importlib.util.spec_from_file_location("sched_apply_ray_tune", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


shared = _shared()
shares = shared.shares
merge = shared.merge


def list_kinds(sched_apply, payload):
    """The payload's kinds of op, as `sched-apply tune --list-kinds` prints them."""
    out = subprocess.run(
        [sched_apply, "tune", payload, "--list-kinds"],
        check=True, capture_output=True, text=True,
    ).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def tune_kind(sched_apply, payload_text, key, seconds, options):
    """Runs `sched-apply tune --kind KEY` on a payload written to a private
    temporary directory: its records' lines (JSON text), and its stderr."""
    with tempfile.TemporaryDirectory(prefix="sched-tune-") as directory:
        payload = os.path.join(directory, "payload.mlir")
        records = os.path.join(directory, "records.jsonl")
        with open(payload, "w") as f:
            f.write(payload_text)
        command = [
            sched_apply, "tune", payload, "--kind", key,
            "--budget", f"{max(seconds, 1.0)!r}s",
            "--records", records, "-o", os.path.join(directory, "kind.sched"),
        ] + options
        done = subprocess.run(command, capture_output=True, text=True)
        lines = []
        if os.path.exists(records):
            with open(records) as f:
                lines = [line for line in f if line.strip()]
        if done.returncode != 0:
            return lines, f"exit {done.returncode}: {done.stderr}"
        return lines, done.stderr


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("payload", help="the MLIR payload, as `sched-apply tune` takes it")
    parser.add_argument("-o", "--output", required=True,
                        help="the schedule to write (one already there is kept and added to, "
                             "as `sched-apply tune` does)")
    parser.add_argument("--records", required=True, help="JSON-lines records, appended to")
    parser.add_argument("--budget", type=float, default=600.0,
                        help="seconds, as `sched-apply tune --budget` (default 600)")
    parser.add_argument("--address", help="a Ray cluster's address (default: a local one)")
    parser.add_argument("--cpus-per-task", type=float, default=2.0,
                        help="CPUs Ray gives each kind's process (default 2)")
    parser.add_argument("--sched-apply", default="sched-apply",
                        help="the sched-apply binary, the same path on every worker")
    parser.add_argument("--caches", choices=["cold", "warm"], default="cold",
                        help="as `sched-apply tune --caches` (default cold)")
    args = parser.parse_args(argv)
    try:
        import ray
    except ImportError:
        sys.exit("tune_ray: Ray is not installed here (pip install ray)")

    kinds = list_kinds(args.sched_apply, args.payload)
    if not kinds:
        sys.exit(f"tune_ray: {args.payload} has no kind of op to tune")
    cpu = kinds[0]["cpu"]
    with open(args.payload) as f:
        payload_text = f.read()
    options = ["--caches", args.caches]

    ray.init(address=args.address, include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(num_cpus=args.cpus_per_task)(tune_kind)
        futures = [
            remote.remote(args.sched_apply, payload_text, kind["task"], seconds, options)
            for kind, seconds in zip(kinds, shares(kinds, args.budget))
        ]
        results = ray.get(futures)
    finally:
        ray.shutdown()

    for kind, (_, log) in zip(kinds, results):
        if log.startswith("exit "):
            print(f"tune_ray: {kind['op'][:60]}: {log.strip()}", file=sys.stderr)
    added, foreign = merge(args.records, [lines for lines, _ in results], cpu)
    print(f"tune_ray: {len(kinds)} kinds of op tuned on the cluster, {added} records merged "
          f"into {args.records}", file=sys.stderr)
    if foreign:
        print(f"tune_ray: left out the records of other CPUs ({', '.join(sorted(map(str, foreign)))}); "
              f"this one is {cpu}", file=sys.stderr)
    # Here: the kinds from the records, then the whole-model decisions.
    final = subprocess.run(
        [args.sched_apply, "tune", args.payload, "-o", args.output, "--records", args.records,
         "--budget", f"{args.budget}s"] + options
    )
    return final.returncode


if __name__ == "__main__":
    sys.exit(main())
