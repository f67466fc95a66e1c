"""What the side-by-side benchmarks share: the median of timed calls of a
Python callable, and sched-apply's own median from `run --bench --json`.
Imported by compare_numpy.py, compare_torch.py, mnist_torch.py, layers_torch.py,
torch_models.py, torch_package.py and python_calls.py (run them as scripts: their directory is
then on the import path)."""
import json
import os
import platform
import statistics
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def median_of_calls(call, calls, warmup=2):
    """Calls `call` `warmup` times, then times `calls` calls; the median in seconds."""
    for _ in range(warmup):
        call()
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def sched_apply_median(payload, schedule, calls, extra=()):
    """`sched-apply run PAYLOAD SCHEDULE --bench CALLS --json [EXTRA...]`'s median, in seconds."""
    binary = os.path.join(ROOT, "target", "release", "sched-apply")
    command = [binary, "run", payload, schedule, "--bench", str(calls), "--reference-calls", "0", "--json",
               *extra]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(result.stdout)["median_s"]


def require_release_build(sched_apply):
    """Exits when the `sched_apply` package imported is a debug build, whose calls cost tens of
    microseconds more (`make test` and `make test-torch` build one, into the same python/
    directory every venv's editable install loads)."""
    if sched_apply.DEBUG_BUILD:
        raise SystemExit("sched_apply is a debug build: rebuild it with `maturin develop --release` "
                         "in python/ with this venv active before timing it")


def cpu_name():
    """The CPU's model name with its family and model numbers (a VM may show only "AMD EPYC")."""
    fields = {}
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                key, _, value = line.partition(":")
                fields.setdefault(key.strip(), value.strip())
    except OSError:
        return platform.processor() or "unknown"
    return (f"{fields.get('model name', 'unknown')} (family {fields.get('cpu family', '?')}, "
            f"model {fields.get('model', '?')})")


def serve(ready, time_round):
    """A peer of benches/tune.py: prints `ready` (a dict) as one JSON line, then for each line
    `CALLS` read from stdin prints `time_round(CALLS)` (a dict of name -> median seconds), so the
    caller takes its rounds in turns with other programs."""
    import sys
    print(json.dumps(ready), flush=True)
    for line in sys.stdin:
        print(json.dumps(time_round(int(line))), flush=True)
