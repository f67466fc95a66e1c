"""PyTorch modules through sched_apply: exported with torch-mlir's FX importer (parameters and
float buffers as arguments, so weights are passed, not baked in), scheduled, JIT-compiled once.
torch and torch-mlir are imported only when these are called."""

import os

import numpy as np

from ._native import Payload


class _WithArguments:
    """`module` as a function of its input(s), then its parameters, then its float buffers."""

    def __init__(self, module):
        import torch

        self.names = [n for n, _ in module.named_parameters()] + [
            n for n, b in module.named_buffers() if b.is_floating_point()
        ]
        self.tensors = [p.detach() for _, p in module.named_parameters()] + [
            b.detach() for _, b in module.named_buffers() if b.is_floating_point()
        ]
        names = self.names

        class Wrapped(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.inner = module

            def forward(self, *arguments):
                count = len(arguments) - len(names)
                inputs, values = arguments[:count], arguments[count:]
                state = dict(zip(names, values))
                return torch.func.functional_call(self.inner, state, tuple(inputs))

        self.wrapped = Wrapped().eval()


def export(model, example_inputs, name=None):
    """The linalg payload torch-mlir's FX importer makes of `model` on `example_inputs` (a tuple
    of tensors), with its parameters and float buffers as arguments after the inputs: a
    `Payload`, and the parameter tensors to pass."""
    from torch_mlir import fx

    example_inputs = tuple(example_inputs)
    arguments = _WithArguments(model)
    module = fx.export_and_import(
        arguments.wrapped,
        *example_inputs,
        *arguments.tensors,
        output_type="linalg-on-tensors",
        func_name="forward",
    )
    name = name or f"{type(model).__name__}.mlir"
    return Payload(str(module), name=name), arguments.tensors


class Compiled:
    """A module compiled by `compile`: call it with tensors like the model; returns tensors."""

    def __init__(self, program, inputs, parameters, model, check):
        self.program = program
        # The weights are copied in once: each call copies only its inputs.
        program.bind(inputs, *[p.numpy() for p in parameters])
        self._model = model
        self._check = check

    def __call__(self, *inputs):
        import torch

        arrays = [np.asarray(t.detach().cpu()) for t in inputs]
        results = self.program(*arrays)
        outputs = tuple(torch.from_numpy(r) for r in results) if isinstance(results, tuple) else torch.from_numpy(results)
        if self._check:
            self._check = False
            _compare_with_eager(self._model, inputs, outputs)
        return outputs


def _compare_with_eager(model, inputs, outputs):
    """Raises AssertionError naming the first differing index when `outputs` differ from eager
    PyTorch's beyond 1e-4 relative and 1e-5 of the largest magnitude."""
    import torch

    with torch.no_grad():
        expected = model(*inputs)
    got = outputs if isinstance(outputs, tuple) else (outputs,)
    want = expected if isinstance(expected, tuple) else (expected,)
    for index, (g, w) in enumerate(zip(got, want)):
        g, w = g.numpy(), w.detach().numpy()
        atol = 1e-5 * max(float(np.max(np.abs(w))), 1.0) if w.size else 0.0
        bad = ~np.isclose(g, w, rtol=1e-4, atol=atol)
        if bad.any():
            first = tuple(int(i) for i in np.argwhere(bad)[0])
            raise AssertionError(
                f"sched_apply.compile: result {index} differs from eager PyTorch at {first}: "
                f"{g[first]} but PyTorch gives {w[first]} ({int(bad.sum())} of {w.size} elements differ)"
            )


def compile(model, example_inputs, schedule=None, check=False, name=None, cache=True):
    """`model` (a torch.nn.Module in eval mode) exported on `example_inputs`, with `schedule`
    applied (a path to a `.sched` file, or None for the unscheduled payload) and JIT-compiled
    once, its weights (parameters and float buffers) copied in as they are now: later changes to
    them are not seen (compile again). With `check=True` the first call is compared with eager
    PyTorch. With `cache` the code is kept in sched-apply's compile cache and loaded from it when
    the same model is compiled with the same schedule again (`Payload.apply`)."""
    payload, parameters = export(model, example_inputs, name=name)
    if schedule is None:
        program = payload.compile(cache=cache)
    else:
        with open(schedule, encoding="utf-8") as file:
            text = file.read()
        program = payload.apply(text, name=os.fspath(schedule), cache=cache)
    return Compiled(program, len(tuple(example_inputs)), parameters, model, check)
