"""The keys `torch_module.export` keeps torch-mlir's exports under in sched-apply's cache: the
SHA-256 of everything an export depends on, so that an entry is reused only for the program it
was made of. Two kinds: `program_key`, of the program `torch.export` traced (any module), and
`graph_key`, of a graph TorchDynamo made before any trace (the `torch.compile` backend's graphs),
which spares the trace itself. Weights are arguments of the export, not part of it: only their
shapes and dtypes are in a key, so new weights reuse the entry."""

import hashlib
import importlib.metadata
import os

# The torch-mlir files an export runs through, whose size and time are in every key (a rebuilt
# torch-mlir of the same version changes the key).
_TORCH_MLIR_FILES = ("fx.py", "compiler_utils.py", "extras/fx_importer.py",
                     "extras/fx_decomp_util.py", "_mlir_libs")


class _Hasher:
    """A SHA-256 of parts, each after its length (so no two lists of parts hash alike)."""

    def __init__(self, kind):
        self._hasher = hashlib.sha256()
        self.part(kind)
        self._versions()

    def part(self, value):
        data = value if isinstance(value, (bytes, memoryview)) else str(value).encode("utf-8")
        self._hasher.update(len(data).to_bytes(8, "little"))
        self._hasher.update(data)

    def tensor(self, name, value, content):
        """`value`'s dtype and shape, and with `content` its bytes; False when it has no plain
        bytes to hash (a quantized or sparse tensor)."""
        import torch

        self.part(f"{name} {value.dtype} {tuple(value.shape)} {tuple(value.stride())}")
        if content:
            try:
                flat = value.detach().cpu().contiguous().reshape(-1)
                self.part(memoryview(flat.view(torch.uint8).numpy()))
            except (RuntimeError, TypeError):
                return False
        return True

    def hexdigest(self):
        return self._hasher.hexdigest()

    def _versions(self):
        import torch
        from torch_mlir import fx

        self.part(torch.__version__)
        try:
            self.part(importlib.metadata.version("torch-mlir"))
        except importlib.metadata.PackageNotFoundError:  # a build of torch-mlir on the path
            self.part("")
        package = os.path.dirname(fx.__file__)
        for relative in _TORCH_MLIR_FILES:
            try:
                stat = os.stat(os.path.join(package, relative))
            except OSError:
                continue
            self.part(f"{relative} {stat.st_size} {stat.st_mtime_ns}")


def _without_comments(code):
    """`code` without its comment lines, which hold the source lines each node came from: the
    export does not depend on them."""
    return "\n".join(line for line in code.splitlines() if not line.lstrip().startswith("#"))


def program_key(program, output_type, func_name):
    """The key of torch-mlir's export of `program` (an `ExportedProgram`) as `output_type` with
    entry `func_name`: the graph with every node's shapes, strides, dtypes and arguments; the
    signature; the values of the tensors it bakes in (the state and constants the graph uses,
    by content); the versions and files of torch and torch-mlir. None when the program holds
    something this cannot hash (a script object): it is then exported without the cache."""
    import torch
    from torch.export.graph_signature import InputKind

    hasher = _Hasher("sched-apply export 1")
    hasher.part(f"{output_type} {func_name}")
    graph = program.graph_module.print_readable(print_output=False, include_stride=True,
                                                include_device=True)
    hasher.part(_without_comments(graph))
    hasher.part(program.graph_signature)
    hasher.part(program.range_constraints)
    used = {node.name for node in program.graph.nodes if node.op == "placeholder" and node.users}
    for spec in program.graph_signature.input_specs:
        if spec.kind == InputKind.USER_INPUT or getattr(spec.arg, "name", None) not in used:
            continue
        if spec.kind not in (InputKind.PARAMETER, InputKind.BUFFER, InputKind.CONSTANT_TENSOR):
            return None
        value = program.state_dict.get(spec.target)
        if value is None:
            value = program.constants.get(spec.target)
        if not isinstance(value, torch.Tensor) or not hasher.tensor(spec.target, value, True):
            return None
    return hasher.hexdigest()


def graph_key(module, example_inputs, arguments):
    """The key of the export of `module` on `example_inputs` when `module` is a graph
    TorchDynamo made, whose code is the whole program: every call with its arguments, in Python
    (`GraphModule.code`). Also in it: each input's type, dtype, shape and strides; the modes
    the trace runs in (default dtype, grad); each attribute the graph reads, by content unless
    it is one of `arguments` (the names of the weights passed as arguments: shape and dtype
    only); the versions of torch and torch-mlir. None for any other module, or a graph that
    calls a submodule (whose code and settings are not in the graph's): it is then traced,
    and found by `program_key`."""
    import torch

    if not isinstance(module, torch.fx.GraphModule):
        return None
    if any(node.op == "call_module" for node in module.graph.nodes):
        return None
    hasher = _Hasher("sched-apply graph 1")
    hasher.part(_without_comments(module.code))
    hasher.part(f"{torch.get_default_dtype()} {torch.is_grad_enabled()}")
    for index, value in enumerate(example_inputs):
        if isinstance(value, torch.Tensor):
            hasher.tensor(f"input {index} {value.device} {value.requires_grad}", value, False)
        else:
            hasher.part(f"input {index} {type(value).__name__} {value!r}")
    weights = set(arguments)
    for node in module.graph.nodes:
        if node.op != "get_attr":
            continue
        value = module
        for step in node.target.split("."):
            value = getattr(value, step, None)
        if isinstance(value, torch.Tensor):
            if not hasher.tensor(node.target, value, node.target not in weights):
                return None
        elif isinstance(value, (bool, int, float, str, type(None))):
            hasher.part(f"{node.target} {value!r}")
        else:  # a submodule or a script object: not hashed
            return None
    return hasher.hexdigest()
