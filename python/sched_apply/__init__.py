"""sched_apply: apply Halide-style `.sched` schedules to MLIR linalg payloads, JIT-compile them in
this process and call them on numpy arrays; or compile a PyTorch module with its schedule.

    import numpy as np, sched_apply
    payload = sched_apply.Payload(open("gemm.mlir").read(), name="gemm.mlir")
    program = payload.apply(open("gemm.sched").read(), name="gemm.sched")
    c = program(a, b)                       # numpy arrays in, numpy arrays out

    fast = sched_apply.compile(model, (x,), schedule="net.sched", check=True)
    y = fast(x)                             # torch tensors in and out (needs torch and torch-mlir)
    fast = torch.compile(model, backend=sched_apply.backend("net.sched"))
    print(sched_apply.explain(model, (x,), "net.sched"))   # the loop nests it asks for and made
    sched_apply.tune(model, (x,), output="net.sched", cluster="auto")   # measured on Ray's workers

Errors are the command line's located reports: `ScheduleError` (the schedule), `PayloadError` (the
payload), `RunError` (a call); arrays of another dtype or shape raise `TypeError`/`ValueError`.
`DEBUG_BUILD` is true for an extension built without optimizations (`maturin develop` without
`--release`, as `make test` builds it): calls then cost tens of microseconds more; time nothing so.
"""

from ._native import DEBUG_BUILD, Payload, PayloadError, Program, RunError, ScheduleError, __version__
from . import ray_tune
from .torch_module import backend, compile, explain, export, tune

__all__ = [
    "Payload",
    "Program",
    "ScheduleError",
    "PayloadError",
    "RunError",
    "backend",
    "compile",
    "explain",
    "export",
    "tune",
    "ray_tune",
    "__version__",
    "DEBUG_BUILD",
]
