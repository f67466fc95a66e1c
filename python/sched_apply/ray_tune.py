"""A tune spread over a Ray cluster: each kind of op of a payload tuned on a worker within its
share of the budget (`Payload.tune(only=[kind])`), the workers' measurements merged into the
records, then one tune here that reads them (measuring only what they do not hold) and makes the
decisions measured on the whole model (`docs/tuning.md`, "Measuring elsewhere").

Workers need this package (the same version) and this CPU: records count only on CPUs of the same
name, so a worker's records of another CPU are left out, with a warning. Ray schedules the tasks;
this module only splits the work and merges the records. Ray is imported only when a tune is
spread; `shares` and `merge` need neither Ray nor the native module (`scripts/tune_ray.py`, which
runs `sched-apply` processes on the workers instead, loads them from this file)."""

import json
import os
import tempfile
import warnings

# The part of the budget the kinds of op share (tuner/src/lib.rs: TASKS_SHARE): a worker's budget
# is its kind's part of it, so that, leaving its own twentieth for planning (PLANNING_SHARE) as
# one machine's run does, it measures what that run would let the kind measure.
TASKS_SHARE = 0.75


def shares(kinds, budget):
    """Each kind's seconds: its FLOPs (times its ops) part of the kinds' share of `budget`."""
    weights = [max(k["flops"] * k["ops"], 1) for k in kinds]
    pool = budget * (TASKS_SHARE if len(kinds) > 1 else 1.0)
    total = sum(weights)
    return [pool * w / total for w in weights]


def merge(records_path, results, cpu):
    """Appends the records (JSON lines) in `results` (one list per worker) that were measured on
    `cpu` to the file `records_path`: how many, and the set of the other CPUs left out."""
    added, foreign = 0, set()
    with open(records_path, "a", encoding="utf-8") as out:
        for lines in results:
            for line in lines:
                record = json.loads(line)
                if record.get("cpu") != cpu:
                    foreign.add(record.get("cpu"))
                    continue
                out.write(line if line.endswith("\n") else line + "\n")
                added += 1
    return added, foreign


def _tune_kind(text, name, key, seconds, threads, warm):
    """On a worker: kind `key` of payload `text` tuned alone for `seconds`, its records in a
    private temporary directory; returns their lines and the error, if any, as text."""
    from sched_apply import Payload

    with tempfile.TemporaryDirectory(prefix="sched-tune-") as directory:
        records = os.path.join(directory, "records.jsonl")
        error = None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                Payload(text, name=name).tune(budget=max(seconds, 1.0), threads=threads,
                                              records=records, warm=warm, only=[key])
        except Exception as failure:  # reported by the caller, the other kinds still merged
            error = f"{type(failure).__name__}: {failure}"
        lines = []
        if os.path.exists(records):
            with open(records, encoding="utf-8") as f:
                lines = [line for line in f if line.strip()]
    return lines, error


def running():
    """Whether this process has a Ray connection already (`ray.init()` was called); Ray is not
    imported to find out."""
    import sys

    ray = sys.modules.get("ray")
    return ray is not None and ray.is_initialized()


def tune(payload, budget, records=None, cluster=None, threads=1, warm=False, cpus_per_task=2.0):
    """The schedule `Payload.tune` would write for `payload`, its kinds of op measured on the
    workers of a Ray cluster: `cluster` is the address `ray.init` takes (`"ray://host:10001"`,
    `"auto"`), or `"local"` for a Ray cluster started on this machine for the call; with None,
    the connection this process has (`ray.init()` called before). A connection made here is
    closed at the end. Each worker's task asks Ray for `cpus_per_task` CPUs (one to time on, one
    to compile the next candidate on), so no two measure on the same cores at once. `records`:
    the JSON-lines file the workers' measurements are merged into (read and appended to; None: a
    temporary one)."""
    try:
        import ray
    except ImportError:
        raise ImportError("sched_apply.tune(cluster=...) needs Ray: pip install ray") from None
    if records is None:
        with tempfile.TemporaryDirectory(prefix="sched-tune-") as directory:
            return tune(payload, budget, os.path.join(directory, "records.jsonl"), cluster,
                        threads, warm, cpus_per_task)
    records = os.fspath(records)
    kinds = payload.kinds()
    if not kinds:
        return payload.tune(budget=budget, threads=threads, records=records, warm=warm)
    start = not ray.is_initialized()
    if not start and cluster is not None:
        warnings.warn(f"sched_apply: Ray is already connected; cluster={cluster!r} is not used",
                      stacklevel=3)
    if start:
        address = None if cluster in (None, "local") else cluster
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(num_cpus=cpus_per_task)(_tune_kind)
        futures = [
            remote.remote(payload.text, payload.name, kind["task"], seconds, threads, warm)
            for kind, seconds in zip(kinds, shares(kinds, budget))
        ]
        results = ray.get(futures)
    finally:
        if start:
            ray.shutdown()
    for kind, (_, error) in zip(kinds, results):
        if error is not None:
            op = kind["op"] if len(kind["op"]) <= 60 else kind["op"][:59] + "…"
            warnings.warn(f"sched_apply: tuning the kind of op {kind['task']} ({op}) on a worker "
                          f"failed: {error}", stacklevel=3)
    cpu = kinds[0]["cpu"]
    _, foreign = merge(records, [lines for lines, _ in results], cpu)
    if foreign:
        warnings.warn(f"sched_apply: left out the records of other CPUs "
                      f"({', '.join(sorted(map(str, foreign)))}); this one is {cpu}", stacklevel=3)
    # Here: the kinds from the records, then the whole-model decisions.
    return payload.tune(budget=budget, threads=threads, records=records, warm=warm)
