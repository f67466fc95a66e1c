"""PyTorch modules through sched_apply: exported with torch-mlir's FX importer (parameters and
float buffers as arguments, so weights are passed, not baked in), scheduled, JIT-compiled once.
torch and torch-mlir are imported only when these are called."""

import os
import warnings

import numpy as np

from ._native import Payload, ScheduleError, cached_export, read_found_file, store_export


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


# What `export` asks torch-mlir for; part of every export key.
_OUTPUT_TYPE, _FUNC_NAME = "linalg-on-tensors", "forward"


def export(model, example_inputs, name=None, cache=True):
    """The linalg payload torch-mlir's FX importer makes of `model` on `example_inputs` (a tuple
    of tensors), with its parameters and float buffers as arguments after the inputs: a
    `Payload`, and the parameter tensors to pass. With `cache`, a program exported before is
    read from sched-apply's cache instead of being decomposed and lowered again, which is most
    of an export's time: found by the traced program (`export_keys.program_key`: the same
    graph, shapes and baked-in values, by the same torch and torch-mlir), or, for a graph
    TorchDynamo made (the `torch.compile` backend's), by that graph before it is traced
    (`export_keys.graph_key`), which skips the trace too."""
    import torch
    from torch_mlir import fx

    from . import export_keys

    example_inputs = tuple(example_inputs)
    arguments = _WithArguments(model)
    name = name or f"{type(model).__name__}.mlir"
    graph_key = export_keys.graph_key(model, example_inputs, arguments.names) if cache else None
    text = None if graph_key is None else cached_export(graph_key)
    if text is not None:
        return Payload(text, name=name), arguments.tensors
    program = torch.export.export(arguments.wrapped, (*example_inputs, *arguments.tensors), strict=False)
    key = export_keys.program_key(program, _OUTPUT_TYPE, _FUNC_NAME) if cache else None
    text = None if key is None else cached_export(key)
    if text is None:
        module = fx.export_and_import(program, output_type=_OUTPUT_TYPE, func_name=_FUNC_NAME)
        text = str(module)
        if key is not None:
            store_export(key, text)
    if graph_key is not None:
        store_export(graph_key, text)
    return Payload(text, name=name), arguments.tensors


class Compiled:
    """A module compiled by `compile`: call it with tensors like the model; returns tensors.

    Weights are copied into the program once (`Program.bind`) and again only when they change:
    each is held with its version counter, which PyTorch advances at every in-place change. Inputs
    at the positions `constant` names (a graph's parameters, which TorchDynamo passes as inputs)
    are bound the same way, while the same tensor comes back unchanged."""

    def __init__(self, program, inputs, parameters, model, check, constant=(), schedule=None):
        self.program = program
        self.schedule = schedule  # the `.sched` file applied, if one was
        self._count = inputs
        self._held = {inputs + i: [p, None] for i, p in enumerate(parameters)}
        self._constant = {i: [None, None] for i in constant}
        self._model = model
        self._check = check

    @staticmethod
    def _rebind(program, index, held, tensor):
        """Binds `tensor` as argument `index` unless `held` has it at its current version."""
        if held[0] is not tensor or held[1] != tensor._version:
            program.bind(index, np.asarray(tensor.detach().cpu()))
            held[0], held[1] = tensor, tensor._version

    def __call__(self, *inputs):
        import torch

        for index, held in self._held.items():
            self._rebind(self.program, index, held, held[0])
        for index, held in self._constant.items():
            self._rebind(self.program, index, held, inputs[index])
        arrays = [np.asarray(t.detach().cpu()) for i, t in enumerate(inputs) if i not in self._constant]
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


def _beside(model):
    """The schedule beside the file that defines `model`'s class (`net.py` defines `Net`:
    `net.sched`), as `sched-apply run` finds `model.sched` beside `model.mlir`: its path and text,
    or None when there is none. It is read only as the compile cache is (`read_found_file`): a
    file another user owns, that others may write, or reached through a symbolic link is not used
    (a warning says so)."""
    import inspect

    try:
        source = inspect.getsourcefile(type(model))
    except TypeError:  # a class defined in C, or in no file
        return None
    if source is None:
        return None
    path = os.path.splitext(source)[0] + ".sched"
    if not os.path.isfile(path):
        return None
    data = read_found_file(path)
    if data is None:
        warnings.warn(f"sched_apply: {path} is beside {type(model).__name__}'s source but is not "
                      f"this user's own file, or is writable by others: not used (name it with "
                      f"schedule=)", stacklevel=3)
        return None
    return path, data.decode("utf-8")


def compile(model, example_inputs, schedule=None, check=False, name=None, cache=True, constant=(),
            tune=None, records=None):
    """`model` (a torch.nn.Module in eval mode) exported on `example_inputs`, with `schedule`
    applied (a path to a `.sched` file) and JIT-compiled once. Without a schedule, the one beside
    the file defining the model's class is used (`net.py`, `net.sched`); without one there
    either: with `tune` (a budget in seconds) or `records` (a tuning records file), a schedule is
    tuned first (`tune`'s budget, else 60 s; what the records hold is reused, not measured
    again); with neither, or with `schedule=False`, the payload runs unscheduled. The result's
    `schedule` says which file was applied. Its weights (parameters and float buffers) are
    copied in once, and again after an in-place change (a parameter replaced by a new tensor is
    not seen: compile again). With `check=True` the first call is compared with eager PyTorch.
    With `cache` the code is kept in sched-apply's compile cache and loaded from it when the
    same model is compiled with the same schedule again (`Payload.apply`), and the export is
    kept too (`export`)."""
    payload, parameters = export(model, example_inputs, name=name, cache=cache)
    found = None
    if schedule is None and tune is None and records is None:
        found = _beside(model)
    if found is not None:
        applied, text = found
    elif schedule:
        applied = os.fspath(schedule)
        with open(applied, encoding="utf-8") as file:
            text = file.read()
    else:
        applied, text = None, None
    if text is None and (tune is not None or records is not None):
        tuned = payload.tune(budget=float(tune or 60.0),
                             records=None if records is None else os.fspath(records))
        program = payload.apply(tuned, name=f"{payload.name} (tuned)", cache=cache)
    elif text is None:
        program = payload.compile(cache=cache)
    else:
        program = payload.apply(text, name=applied, cache=cache)
    return Compiled(program, len(tuple(example_inputs)), parameters, model, check, constant,
                    schedule=applied)


def explain(model, example_inputs, schedule, name=None):
    """What `schedule` (a path to a `.sched` file) does to `model` exported on `example_inputs`,
    as `sched-apply explain` prints it: each func's loop nest after each directive and in the
    end, then the generated loops under the schedule's names. Schedule errors raise
    `ScheduleError` with the located report."""
    payload, _ = export(model, example_inputs, name=name)
    with open(schedule, encoding="utf-8") as file:
        text = file.read()
    return payload.explain(text, name=os.fspath(schedule))


def _why(error, graph_module):
    """What failed: MLIR's first error in the exception's message (the op a dialect does not
    know: `tm_tensor.sort`); else its first line and the functions the graph calls (torch-mlir
    prints the op it could not lower to stderr, not into the exception)."""
    lines = str(error).strip().splitlines()
    located = [line.split("error:", 1)[1].strip() for line in lines if "error:" in line]
    if located:
        return located[0]
    calls = []
    for node in graph_module.graph.nodes:
        name = getattr(node.target, "__name__", str(node.target))
        if node.op == "call_function" and name not in calls:
            calls.append(name)
    summary = (lines or [type(error).__name__])[0].rstrip(":")
    return f"{summary}; the graph calls {', '.join(calls[:8])}" + (", ..." if len(calls) > 8 else "")


# PyTorch's fused transformer kernels (its "fast path"), which torch-mlir does not lower.
_FAST_PATH = {"_transformer_encoder_layer_fwd", "_native_multi_head_attention"}


def _hint(graph_module, example_inputs=()):
    """How to have the graph traced as ops the exporter lowers, when it calls one of PyTorch's
    fused transformer kernels (`_FAST_PATH`), or with static shapes, when TorchDynamo made a
    size dynamic (a `SymInt` input); else nothing."""
    import torch

    if any(isinstance(x, torch.SymInt) for x in example_inputs):
        return (". TorchDynamo made a size dynamic (it does so when a recompiled frame saw "
                "another shape, or with dynamic=True), and the backend compiles static shapes: "
                "pass dynamic=False to torch.compile")
    for node in graph_module.graph.nodes:
        name = getattr(node.target, "__name__", str(node.target))
        if node.op == "call_function" and name in _FAST_PATH:
            return (f". `{name}` is PyTorch's fused fast path: call "
                    f"torch.backends.mha.set_fastpath_enabled(False) before torch.compile to "
                    f"have its ops traced, which the backend compiles")
    return ""


def backend(schedule=None, check=False, cache=True):
    """A `torch.compile` backend applying `schedule` (a `.sched` path, or None for the unscheduled
    payload) to each graph TorchDynamo hands it:

        fast = torch.compile(model, backend=sched_apply.backend("net.sched"))

    A graph torch-mlir cannot export (an op it does not lower, say) runs in eager PyTorch, with a
    warning giving the exporter's message; a schedule that does not apply raises `ScheduleError`.
    With `check=True` each graph's first call is compared with eager."""

    def compile_graph(graph_module, example_inputs):
        import torch

        try:
            # TorchDynamo passes the module's parameters and buffers as inputs: bound, not passed
            # again at every call.
            constant = _module_state(graph_module, example_inputs)
            # A graph's class is generated: no schedule beside it to look for.
            compiled = compile(graph_module, tuple(example_inputs),
                               schedule=False if schedule is None else schedule,
                               check=check, cache=cache, constant=constant)
        except ScheduleError:
            raise
        except Exception as error:  # the exporter's or the payload's: run this graph eagerly
            warnings.warn(f"sched_apply: a graph of {len(graph_module.graph.nodes)} nodes runs in "
                          f"eager PyTorch: {_why(error, graph_module)}"
                          f"{_hint(graph_module, example_inputs)}",
                          stacklevel=2)
            return graph_module.forward
        output = next(n for n in graph_module.graph.nodes if n.op == "output").args[0]

        def call(*inputs):
            results = compiled(*inputs)
            if isinstance(output, (tuple, list)):
                results = results if isinstance(results, tuple) else (results,)
                return type(output)(results)
            return results

        return call

    return compile_graph


def _module_state(graph_module, example_inputs):
    """Positions of the inputs TorchDynamo lifted from the module: its parameters (`Parameter`s)
    and its buffers (a batch norm's running statistics, plain tensors, told by the source Dynamo
    records for the placeholder: `L['self']._modules['bn']._buffers['running_mean']`). They are
    bound once and again only when another tensor or a new version comes (`Compiled`), so a
    misjudged position costs a copy, never a wrong result; where Dynamo records no source, only
    the parameters."""
    import torch

    placeholders = [n for n in graph_module.graph.nodes if n.op == "placeholder"]
    constant = []
    for index, (node, tensor) in enumerate(zip(placeholders, example_inputs)):
        if isinstance(tensor, torch.nn.Parameter):
            constant.append(index)
            continue
        source = getattr(node.meta.get("grapharg"), "source", None)
        name = getattr(source, "name", None)
        name = name() if callable(name) else name
        if isinstance(tensor, torch.Tensor) and isinstance(name, str) and "._buffers[" in name:
            constant.append(index)
    return constant


def tune(model, example_inputs, output=None, budget=600.0, records=None, threads=1, name=None,
         cluster=None):
    """Writes a schedule for `model` on `example_inputs` by measuring (`Payload.tune`, as
    `sched-apply tune` does): exported as `compile` exports it, each kind of op tuned within its
    share of `budget` seconds. Returns the schedule's text and, with `output`, writes it there
    (whole: through a temporary file beside it). `records`: a JSON-lines file of measurements,
    read first and appended to. With `cluster` (a Ray address, `"ray://host:10001"` or `"auto"`,
    or `"local"` for a Ray cluster started for the call), or when this process has called
    `ray.init()`, the kinds of op are measured on Ray's workers (`sched_apply.ray_tune`)."""
    from . import ray_tune

    payload, _ = export(model, example_inputs, name=name)
    if cluster is not None or ray_tune.running():
        schedule = ray_tune.tune(payload, float(budget), records=records, cluster=cluster,
                                 threads=threads)
    else:
        schedule = payload.tune(budget=float(budget), threads=threads,
                                records=None if records is None else os.fspath(records))
    if output is not None:
        output = os.fspath(output)
        directory = os.path.dirname(os.path.abspath(output))
        import tempfile

        with tempfile.NamedTemporaryFile("w", dir=directory, delete=False, suffix=".tmp",
                                         encoding="utf-8") as file:
            file.write(schedule)
        os.replace(file.name, output)
    return schedule
