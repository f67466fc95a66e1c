#!/usr/bin/env python3
"""Exports PyTorch models to linalg and TOSA payloads for sched-apply (examples/torch/).

    TORCH_VENV/bin/python scripts/export_torch.py [--check]

Run by hand, never by `make test`. Versions used: torch 2.15.0, torch-mlir 20261001,
torchvision 0.29.2 (`python3 -m venv ~/torch-venv && ~/torch-venv/bin/pip install torch==2.15.0
torch-mlir==20261001 torchvision==0.29.2 numpy`).

Whole networks (torchvision's resnet18 at batch 1 and 8, mobilenet_v2, a transformer encoder
layer) go to examples/torchvision, linalg form only (`--only torchvision` exports just those).

Each model's parameters (and float buffers, such as batch norm's running statistics) become
arguments of `forward` after its input (but for one small frozen model, whose weights stay in the
file as `dense_resource` blobs, as a plain export writes them), in `named_parameters()` then `named_buffers()` order, so
the exports stay a few KB; the exporter is `torch_mlir.fx.export_and_import` with
`output_type="linalg-on-tensors"` and `"tosa"`. Writes:
- examples/torch/NAME.linalg.mlir and NAME.tosa.mlir (committed);
- examples/torch/data/NAME/arg<i>.npy (input, then parameters) and expected.npy, PyTorch's output
  (not committed: the MLP and CNN weights are megabytes).
With --check, runs each export through `target/release/sched-apply run` on those inputs, under
every schedule beside it (NAME.FORM.sched, NAME.FORM.*.sched; unscheduled.sched when there is
none), and compares the result with PyTorch's (max |diff| within 1e-5 of the output's largest
magnitude).
"""
import argparse
import pathlib
import subprocess
import sys

import numpy as np
import torch
import torch.nn as nn
import torchvision
from torch_mlir import fx

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "examples" / "torch"
VISION = ROOT / "examples" / "torchvision"


class MnistCnn(nn.Module):
    """The CNN of the accelerator report (examples/cnn/mnist.mlir has it by hand)."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc1 = nn.Linear(32 * 14 * 14, 1024)
        self.fc2 = nn.Linear(1024, 10)

    def forward(self, x):
        x = torch.relu(self.conv1(x))
        x = torch.relu(self.conv2(x))
        x = torch.max_pool2d(x, 2)
        x = torch.flatten(x, 1)
        x = torch.relu(self.fc1(x))
        return self.fc2(x)


class Mlp(nn.Module):
    """Two hidden layers, as in an MNIST MLP."""

    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10)
        )

    def forward(self, x):
        return self.layers(x)


def models():
    """(name, model, example input), every model in eval mode with seeded weights."""
    torch.manual_seed(0)
    block = torchvision.models.resnet.BasicBlock(64, 64).eval()
    # Non-trivial running statistics, so batch norm is not an identity.
    with torch.no_grad():
        for bn in (block.bn1, block.bn2):
            bn.running_mean.uniform_(-0.1, 0.1)
            bn.running_var.uniform_(0.5, 1.5)
    return [
        ("linear", nn.Linear(16, 10).eval(), torch.randn(8, 16)),
        ("mlp", Mlp().eval(), torch.randn(64, 784)),
        ("mnist_cnn_b1", MnistCnn().eval(), torch.randn(1, 1, 28, 28)),
        ("mnist_cnn_b64", MnistCnn().eval(), torch.randn(64, 1, 28, 28)),
        ("resnet_block", block, torch.randn(1, 64, 14, 14)),
    ]


class WithArguments(nn.Module):
    """Calls `model` with its parameters and float buffers passed as arguments."""

    def __init__(self, model):
        super().__init__()
        self.model = model
        self.names = [n for n, _ in model.named_parameters()] + [
            n for n, b in model.named_buffers() if b.is_floating_point()
        ]

    def forward(self, x, *tensors):
        return torch.func.functional_call(self.model, dict(zip(self.names, tensors)), (x,))

    def tensors(self):
        state = dict(self.model.named_parameters()) | dict(self.model.named_buffers())
        return [state[n].detach().clone() for n in self.names]


def frozen_models():
    """(name, model, example): models exported frozen, their weights in the file as
    `dense_resource` blobs (as a plain `export_and_import` writes them)."""
    torch.manual_seed(1)
    mlp = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 10)).eval()
    return [("mlp_frozen", mlp, torch.randn(4, 16))]


def export_frozen(name, model, example):
    """Exports `model` with its weights inside the file; returns the argument count (1)."""
    with torch.no_grad():
        expected = model(example)
    data = OUT / "data" / name
    data.mkdir(parents=True, exist_ok=True)
    np.save(data / "arg0.npy", example.numpy().astype(np.float32))
    np.save(data / "expected.npy", expected.numpy().astype(np.float32))
    for form, output_type in [("linalg", "linalg-on-tensors"), ("tosa", "tosa")]:
        module = fx.export_and_import(model, example, output_type=output_type, func_name="forward")
        header = (
            f"// {name}: exported by scripts/export_torch.py (torch {torch.__version__}, "
            f"output_type=\"{output_type}\"), frozen: the weights are dense_resource blobs below.\n"
            f"// Arguments: the input.\n"
        )
        path = OUT / f"{name}.{form}.mlir"
        path.write_text(header + str(module))
        print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size} bytes)")
    return 1


def whole_models():
    """(name, model, example input): the whole networks of examples/torchvision, eval mode,
    seeded weights (torchvision's initialisation; batch norms' statistics made non-trivial)."""
    torch.manual_seed(0)
    resnet18 = torchvision.models.resnet18().eval()
    mobilenet = torchvision.models.mobilenet_v2().eval()
    for model in (resnet18, mobilenet):
        with torch.no_grad():
            for module in model.modules():
                if isinstance(module, nn.BatchNorm2d):
                    module.running_mean.uniform_(-0.1, 0.1)
                    module.running_var.uniform_(0.5, 1.5)
    encoder = nn.TransformerEncoderLayer(256, 4, 1024, dropout=0.0, batch_first=True).eval()
    return [
        ("resnet18_b1", resnet18, torch.randn(1, 3, 224, 224)),
        ("resnet18_b8", resnet18, torch.randn(8, 3, 224, 224)),
        ("mobilenet_v2", mobilenet, torch.randn(1, 3, 224, 224)),
        ("transformer", encoder, torch.randn(1, 128, 256)),
    ]


def export(name, model, example, out=OUT, forms=("linalg", "tosa")):
    """Exports `model` with its parameters as arguments into `out`, one file per form;
    returns the argument count."""
    wrapped = WithArguments(model).eval()
    tensors = wrapped.tensors()
    with torch.no_grad():
        expected = wrapped(example, *tensors)
    data = out / "data" / name
    data.mkdir(parents=True, exist_ok=True)
    arguments = [example] + tensors
    for i, tensor in enumerate(arguments):
        np.save(data / f"arg{i}.npy", tensor.numpy().astype(np.float32))
    np.save(data / "expected.npy", expected.numpy().astype(np.float32))
    output_types = {"linalg": "linalg-on-tensors", "tosa": "tosa"}
    for form in forms:
        output_type = output_types[form]
        module = fx.export_and_import(
            wrapped, example, *tensors, output_type=output_type, func_name="forward"
        )
        header = (
            f"// {name}: exported by scripts/export_torch.py (torch {torch.__version__}, "
            f"output_type=\"{output_type}\").\n"
            f"// Arguments: the input, then {', '.join(wrapped.names)}.\n"
        )
        path = out / f"{name}.{form}.mlir"
        path.write_text(header + str(module))
        print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size} bytes)")
    return len(arguments)


def check(name, arguments, out=OUT, forms=("linalg", "tosa")):
    """Runs the exports on the saved inputs and compares with PyTorch's output."""
    data = out / "data" / name
    expected = np.load(data / "expected.npy")
    inputs = ",".join(str(data / f"arg{i}.npy") for i in range(arguments))
    ok = True
    for form in forms:
        payload = out / f"{name}.{form}.mlir"
        schedules = sorted(out.glob(f"{name}.{form}.sched")) + sorted(out.glob(f"{name}.{form}.*.sched"))
        for schedule in schedules or [OUT / "unscheduled.sched"]:
            ok &= check_one(payload, schedule, inputs, expected, data / f"out_{schedule.stem}")
    return ok


def check_one(payload, schedule, inputs, expected, saved):
    """Runs `payload` under `schedule` and compares its result with PyTorch's."""
    command = [str(ROOT / "target/release/sched-apply"), "run", str(payload), str(schedule),
               "--inputs", inputs, "--save-outputs", str(saved)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        print(f"{payload.name} with {schedule.name}: sched-apply failed:\n{result.stderr}")
        return False
    got = np.load(saved / "result0.npy")
    difference = float(np.max(np.abs(got - expected)))
    scale = float(np.max(np.abs(expected)))
    within = bool(np.all(np.isfinite(got))) and difference <= 1e-5 * max(scale, 1.0)
    print(f"{payload.name} with {schedule.name}: max |diff| {difference:.3e} "
          f"(largest |output| {scale:.3e}): {'ok' if within else 'MISMATCH'}")
    return within


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="run the exports with sched-apply and compare with PyTorch")
    parser.add_argument("--only", choices=["torch", "torchvision"],
                        help="export only examples/torch's models or only examples/torchvision's")
    args = parser.parse_args()
    results = []
    if args.only != "torchvision":
        OUT.mkdir(parents=True, exist_ok=True)
        counts = {name: export(name, model, example) for name, model, example in models()}
        counts |= {name: export_frozen(name, model, example) for name, model, example in frozen_models()}
        if args.check:
            results += [check(name, count) for name, count in counts.items()]
    if args.only != "torch":
        VISION.mkdir(parents=True, exist_ok=True)
        for name, model, example in whole_models():
            count = export(name, model, example, VISION, ("linalg",))
            if args.check:
                results.append(check(name, count, VISION, ("linalg",)))
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
