"""sched_apply.compile on small PyTorch modules: the compiled call equals eager PyTorch, with and
without a schedule; a wrong result is reported with its index. Skipped (with the reason) where
torch or torch-mlir is not installed: `make test-torch` installs both in a venv."""

import os
import sys
import tempfile
import unittest
import warnings

try:
    import torch
    import torch_mlir  # noqa: F401

    MISSING = None
except ImportError as error:  # pragma: no cover - depends on the environment
    MISSING = f"torch and torch-mlir are needed ({error}); `make test-torch` installs them"

import sched_apply
from private_cache import setUpModule, tearDownModule  # noqa: F401  (a cache of its own)

# The MLP's two linear layers as torch-mlir exports them: matmuls after transposes of the weights.
SCHEDULE = """
func mm = linalg.matmul[*] (i, j | k)
mm.reorder(j, k, i).vectorize(j)
"""

# A module of its own file, for the schedule found beside it.
NET_SOURCE = """
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.first = torch.nn.Linear(64, 32)
        self.second = torch.nn.Linear(32, 16)

    def forward(self, x):
        return self.second(torch.relu(self.first(x)))
"""


def small_mlp():
    """Two linear layers with a ReLU between, seeded, and an input batch."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(64, 32), torch.nn.ReLU(), torch.nn.Linear(32, 16)
    ).eval()
    return model, torch.randn(8, 64)


@unittest.skipIf(MISSING, MISSING)
class Compile(unittest.TestCase):
    def setUp(self):
        self.model, self.x = small_mlp()

    def test_unscheduled_equals_eager(self):
        fast = sched_apply.compile(self.model, (self.x,), check=True)
        got = fast(self.x)
        self.assertIsInstance(got, torch.Tensor)
        torch.testing.assert_close(got, self.model(self.x).detach(), rtol=1e-4, atol=1e-5)

    def test_scheduled_equals_eager_on_new_inputs_and_new_weights_are_not_baked_in(self):
        with tempfile.NamedTemporaryFile("w", suffix=".sched", delete=False) as file:
            file.write(SCHEDULE)
        try:
            fast = sched_apply.compile(self.model, (self.x,), schedule=file.name, check=True)
            other = torch.randn(8, 64)
            torch.testing.assert_close(fast(other), self.model(other).detach(), rtol=1e-4, atol=1e-5)
        finally:
            os.unlink(file.name)
        payload, parameters = sched_apply.export(self.model, (self.x,))
        self.assertEqual(len(parameters), 4, "two weights and two biases are arguments")
        self.assertIn("vector.contract", payload.transform(SCHEDULE), "the matmuls vectorized")

    def test_the_schedule_beside_the_models_source_is_applied_unless_told_not_to(self):
        import importlib.util

        with tempfile.TemporaryDirectory() as directory:
            source = os.path.join(directory, "net.py")
            with open(source, "w") as file:
                file.write(NET_SOURCE)
            spec = importlib.util.spec_from_file_location("net_beside_test", source)
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module  # as `import net` leaves it
            self.addCleanup(sys.modules.pop, spec.name)
            spec.loader.exec_module(module)
            torch.manual_seed(0)
            model = module.Net().eval()
            x = torch.randn(8, 64)
            self.assertIsNone(sched_apply.compile(model, (x,)).schedule, "nothing beside yet")
            beside = os.path.join(directory, "net.sched")
            with open(beside, "w") as file:
                file.write(SCHEDULE)
            os.chmod(beside, 0o644)
            fast = sched_apply.compile(model, (x,), check=True)
            self.assertEqual(fast.schedule, beside)
            torch.testing.assert_close(fast(x), model(x).detach(), rtol=1e-4, atol=1e-5)
            self.assertIsNone(sched_apply.compile(model, (x,), schedule=False).schedule)
            os.chmod(beside, 0o666)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                self.assertIsNone(sched_apply.compile(model, (x,)).schedule)
            self.assertTrue(any("writable by others: not used" in str(w.message) for w in caught),
                            [str(w.message) for w in caught])

    def test_a_schedule_error_is_the_located_report(self):
        with tempfile.NamedTemporaryFile("w", suffix=".sched", delete=False) as file:
            file.write("func mm = linalg.conv_2d_nchw_fchw (n, f, y, x | c, ky, kx)\n")
        try:
            with self.assertRaises(sched_apply.ScheduleError) as raised:
                sched_apply.compile(self.model, (self.x,), schedule=file.name)
            self.assertIn(f"{file.name}:1:", str(raised.exception))
        finally:
            os.unlink(file.name)

    def test_explain_shows_what_the_schedule_does_to_the_model(self):
        with tempfile.NamedTemporaryFile("w", suffix=".sched", delete=False) as file:
            file.write(SCHEDULE)
        try:
            text = sched_apply.explain(self.model, (self.x,), file.name)
        finally:
            os.unlink(file.name)
        # Both matmuls (`[*]`), each with its place in the export, reordered and vectorized.
        self.assertEqual(text.count("this one: the `linalg.matmul`"), 2, text)
        self.assertIn(f"{file.name}:3:4: reorder(j, k, i)", text)
        self.assertIn("vectorized", text)
        self.assertIn("The generated loops", text)

    def test_tune_writes_a_schedule_compile_then_uses(self):
        with tempfile.TemporaryDirectory() as directory:
            output = os.path.join(directory, "mlp.sched")
            schedule = sched_apply.tune(self.model, (self.x,), output=output, budget=30)
            with open(output, encoding="utf-8") as file:
                self.assertEqual(file.read(), schedule)
            self.assertIn("linalg.matmul", schedule)
            fast = sched_apply.compile(self.model, (self.x,), schedule=output, check=True)
            torch.testing.assert_close(fast(self.x), self.model(self.x).detach(), rtol=1e-4, atol=1e-5)

    def test_without_a_schedule_compile_tunes_from_the_records(self):
        with tempfile.TemporaryDirectory() as directory:
            records = os.path.join(directory, "tune.jsonl")
            fast = sched_apply.compile(self.model, (self.x,), tune=20, records=records, check=True)
            torch.testing.assert_close(fast(self.x), self.model(self.x).detach(), rtol=1e-4, atol=1e-5)
            self.assertTrue(os.path.getsize(records) > 0)

    def test_a_second_compile_loads_the_code_from_the_cache(self):
        first = sched_apply.compile(self.model, (self.x,))
        second = sched_apply.compile(self.model, (self.x,))
        self.assertEqual((first.program.cached, second.program.cached), (False, True))
        torch.testing.assert_close(second(self.x), first(self.x), rtol=0, atol=0)

    def test_a_second_export_of_the_same_program_is_read_from_the_cache(self):
        from torch_mlir import fx

        first, _ = sched_apply.export(self.model, (self.x,))
        lowering = fx.export_and_import

        def refused(*args, **kwargs):
            raise AssertionError("exported again")

        fx.export_and_import = refused
        try:
            second, _ = sched_apply.export(self.model, (self.x,))
            with self.assertRaisesRegex(AssertionError, "exported again"):
                sched_apply.export(self.model, (self.x,), cache=False)
        finally:
            fx.export_and_import = lowering
        self.assertEqual(second.text, first.text)

    def test_the_export_key_follows_the_program_not_the_weights(self):
        from sched_apply import export_keys, torch_module

        def key(model, x):
            arguments = torch_module._WithArguments(model)
            program = torch.export.export(arguments.wrapped, (x, *arguments.tensors), strict=False)
            return export_keys.program_key(program, "linalg-on-tensors", "forward")

        class Scaled(torch.nn.Module):
            """A linear layer times an integer buffer, which the export bakes in."""

            def __init__(self, scale, activation):
                super().__init__()
                torch.manual_seed(0)
                self.linear = torch.nn.Linear(64, 32)
                self.activation = activation
                self.register_buffer("scale", torch.tensor([scale]))

            def forward(self, x):
                return self.activation(self.linear(x)) * self.scale

        base = key(Scaled(2, torch.nn.ReLU()).eval(), self.x)
        self.assertEqual(key(Scaled(2, torch.nn.ReLU()).eval(), self.x), base)
        other_weights = Scaled(2, torch.nn.ReLU()).eval()
        with torch.no_grad():
            other_weights.linear.weight.mul_(3.0)
        self.assertEqual(key(other_weights, self.x), base, "weights are arguments, not baked in")
        self.assertNotEqual(key(Scaled(3, torch.nn.ReLU()).eval(), self.x), base, "a baked-in value")
        self.assertNotEqual(key(Scaled(2, torch.nn.GELU()).eval(), self.x), base, "another op")
        self.assertNotEqual(key(Scaled(2, torch.nn.ReLU()).eval(), self.x[:4]), base, "another shape")
        # And what runs follows: the baked-in value of each model is its own.
        for scale in (2, 3):
            model = Scaled(scale, torch.nn.ReLU()).eval()
            fast = sched_apply.compile(model, (self.x,))
            torch.testing.assert_close(fast(self.x), model(self.x).detach(), rtol=1e-4, atol=1e-5)

    def test_weights_changed_in_place_are_seen(self):
        fast = sched_apply.compile(self.model, (self.x,))
        fast(self.x)
        with torch.no_grad():
            self.model[0].weight.mul_(0.5)
            self.model[2].bias[3] += 1.0
        torch.testing.assert_close(fast(self.x), self.model(self.x).detach(), rtol=1e-4, atol=1e-5)

    def test_check_names_the_first_differing_index(self):
        fast = sched_apply.compile(self.model, (self.x,), check=True)
        # A new bias tensor: eager now differs from the weights the compiled call holds.
        bias = self.model[2].bias.detach().clone()
        bias[3] += 1.0
        self.model[2].bias = torch.nn.Parameter(bias)
        with self.assertRaisesRegex(AssertionError, r"differs from eager PyTorch at \(0, 3\)"):
            fast(self.x)


@unittest.skipIf(MISSING, MISSING)
class Backend(unittest.TestCase):
    def setUp(self):
        self.model, self.x = small_mlp()
        torch._dynamo.reset()

    def test_torch_compile_with_the_backend_equals_eager(self):
        calls = []

        def counting(graph_module, example_inputs):
            calls.append(len(example_inputs))
            return sched_apply.backend(check=True)(graph_module, example_inputs)

        fast = torch.compile(self.model, backend=counting)
        with torch.no_grad():
            torch.testing.assert_close(fast(self.x), self.model(self.x), rtol=1e-4, atol=1e-5)
            other = torch.randn(8, 64)
            torch.testing.assert_close(fast(other), self.model(other), rtol=1e-4, atol=1e-5)
        self.assertEqual(len(calls), 1, "one graph, compiled once")
        with torch.no_grad():
            self.model[0].weight.mul_(-1.0)  # a parameter TorchDynamo passes as an input, bound
            torch.testing.assert_close(fast(other), self.model(other), rtol=1e-4, atol=1e-5)

    def test_a_batch_norms_running_statistics_are_bound_and_seen_when_changed(self):
        torch.manual_seed(1)
        model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 1), torch.nn.BatchNorm2d(4)).eval()
        with torch.no_grad():
            model[1].running_mean.uniform_(-1.0, 1.0)
            model[1].running_var.uniform_(0.5, 2.0)
        x = torch.randn(2, 3, 5, 5)
        seen = []

        def recording(graph_module, example_inputs):
            seen.append(sched_apply.torch_module._module_state(graph_module, example_inputs))
            return sched_apply.backend()(graph_module, example_inputs)

        fast = torch.compile(model, backend=recording)
        with torch.no_grad():
            torch.testing.assert_close(fast(x), model(x), rtol=1e-4, atol=1e-5)
            # The conv's weight and bias, the norm's weight and bias and its two running
            # statistics (buffers, plain tensors): every input but x.
            self.assertEqual(len(seen), 1)
            self.assertEqual(len(seen[0]), 6, seen)
            model[1].running_mean.add_(0.5)  # in place: a new version of a bound buffer
            torch.testing.assert_close(fast(x), model(x), rtol=1e-4, atol=1e-5)

    def test_a_graph_exported_before_is_not_traced_again(self):
        with torch.no_grad():
            expected = self.model(self.x)
            first = torch.compile(self.model, backend=sched_apply.backend())
            torch.testing.assert_close(first(self.x), expected, rtol=1e-4, atol=1e-5)
        torch._dynamo.reset()
        tracing = torch.export.export

        def refused(*args, **kwargs):
            raise AssertionError("traced again")

        torch.export.export = refused
        try:
            with torch.no_grad(), warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                second = torch.compile(self.model, backend=sched_apply.backend())
                torch.testing.assert_close(second(self.x), expected, rtol=1e-4, atol=1e-5)
                self.assertEqual([str(w.message) for w in caught], [], "compiled, not run eagerly")
                torch._dynamo.reset()
                # Another shape is another graph: traced, which is refused here, so it runs
                # eagerly with a warning.
                third = torch.compile(self.model, backend=sched_apply.backend(), dynamic=False)
                third(self.x[:4])
                self.assertTrue(any("traced again" in str(w.message) for w in caught))
        finally:
            torch.export.export = tracing

    def test_a_graph_the_exporter_refuses_runs_eagerly_with_a_warning(self):
        class Sorts(torch.nn.Module):
            def forward(self, x):
                return torch.sort(x, dim=1).values * 2.0

        model = Sorts().eval()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fast = torch.compile(model, backend=sched_apply.backend())
            with torch.no_grad():
                got = fast(self.x)
        torch.testing.assert_close(got, model(self.x))
        messages = [str(w.message) for w in caught if "sched_apply" in str(w.message)]
        self.assertTrue(messages, [str(w.message) for w in caught])
        self.assertIn("runs in eager PyTorch", messages[0])
        self.assertIn("tm_tensor.sort", messages[0], "the op the payload could not take")

    def test_the_fused_transformer_fast_path_is_named_with_the_switch_that_traces_its_ops(self):
        torch.manual_seed(0)
        layer = torch.nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True).eval()
        x = torch.randn(1, 8, 16)
        with torch.inference_mode():
            expected = layer(x)
        for fast_path in (True, False):
            torch._dynamo.reset()
            torch.backends.mha.set_fastpath_enabled(fast_path)
            self.addCleanup(torch.backends.mha.set_fastpath_enabled, True)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                fast = torch.compile(layer, backend=sched_apply.backend(check=True))
                with torch.inference_mode():
                    got = fast(x)
            torch.testing.assert_close(got, expected, rtol=1e-4, atol=1e-5)
            messages = [str(w.message) for w in caught if "sched_apply" in str(w.message)]
            if fast_path:
                self.assertTrue(messages, [str(w.message) for w in caught])
                self.assertIn("_transformer_encoder_layer_fwd", messages[0])
                self.assertIn("torch.backends.mha.set_fastpath_enabled(False)", messages[0])
            else:
                self.assertEqual(messages, [], "the layer's ops compiled, none left to eager")

    def test_a_dynamic_size_runs_eagerly_with_a_warning_naming_the_static_switch(self):
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fast = torch.compile(self.model, backend=sched_apply.backend(), dynamic=True)
            with torch.no_grad():
                got = fast(self.x)
        torch.testing.assert_close(got, self.model(self.x))
        messages = [str(w.message) for w in caught if "sched_apply" in str(w.message)]
        self.assertTrue(messages, [str(w.message) for w in caught])
        self.assertIn("runs in eager PyTorch", messages[0])
        self.assertIn("pass dynamic=False to torch.compile", messages[0])


if __name__ == "__main__":
    unittest.main()
