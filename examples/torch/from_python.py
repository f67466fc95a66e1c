#!/usr/bin/env python3
"""The MNIST CNN (batch 64) and torchvision's resnet18 run from PyTorch through sched_apply, each
with the schedule beside its export, checked against eager PyTorch on the first call:

    taskset -c 1 TORCH_VENV/bin/python examples/torch/from_python.py

TORCH_VENV has torch, torch-mlir, torchvision and the package (`make test-torch` makes one; the
versions are in scripts/export_torch.py). benches/torch_package.py times these against eager and
torch.compile."""

import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import torch  # noqa: E402

import sched_apply  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import export_torch  # noqa: E402  (the models, with the seeded weights the exports used)


def main():
    torch.set_num_threads(1)
    models = {n: (m, x) for n, m, x in export_torch.models() + export_torch.whole_models()}
    for name, schedule in [
        ("mnist_cnn_b64", os.path.join(HERE, "mnist_cnn_b64.linalg.sched")),
        ("resnet18_b1", os.path.join(ROOT, "examples/torchvision/resnet18_b1.linalg.sched")),
    ]:
        model, x = models[name]
        start = time.perf_counter()
        fast = sched_apply.compile(model, (x,), schedule=schedule, check=True)
        with torch.inference_mode():
            y = fast(x)  # the first call: compared with eager PyTorch (raises if they differ)
        seconds = time.perf_counter() - start
        how = "loaded from the compile cache" if fast.program.cached else "compiled"
        print(f"{name}: {tuple(y.shape)} output equal to eager PyTorch; {how}, first call {seconds:.1f} s")
        # Or as a torch.compile backend:
        compiled = torch.compile(model, backend=sched_apply.backend(schedule))
        with torch.inference_mode():
            torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
        print(f"{name}: torch.compile(backend=sched_apply.backend(...)) equal to eager PyTorch")


if __name__ == "__main__":
    main()
