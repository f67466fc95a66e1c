"""The Python module on small payloads, with numpy only: a schedule applied and run equals the
unscheduled payload and numpy; errors are the CLI's located reports; arrays of the wrong dtype or
shape are refused, never converted."""

import json
import os
import shutil
import tempfile
import threading
import time
import unittest
import warnings

import numpy as np

import sched_apply
from private_cache import setUpModule, tearDownModule  # noqa: F401  (a cache of its own)

MATMUL = """
func.func @mm(%a: tensor<64x48xf32>, %b: tensor<48x80xf32>) -> tensor<64x80xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x80xf32>
  %c = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x80xf32>) -> tensor<64x80xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x48xf32>, tensor<48x80xf32>)
                     outs(%c : tensor<64x80xf32>) -> tensor<64x80xf32>
  return %r : tensor<64x80xf32>
}
"""

MATMUL_ADD = """
func.func @mm_add(%a: tensor<64x48xf32>, %b: tensor<48x80xf32>, %bias: tensor<64x80xf32>) -> tensor<64x80xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x80xf32>
  %c = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x80xf32>) -> tensor<64x80xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x48xf32>, tensor<48x80xf32>)
                     outs(%c : tensor<64x80xf32>) -> tensor<64x80xf32>
  %r = linalg.add ins(%m, %bias : tensor<64x80xf32>, tensor<64x80xf32>)
                  outs(%empty : tensor<64x80xf32>) -> tensor<64x80xf32>
  return %r : tensor<64x80xf32>
}
"""

SCHEDULE = """
func mm = linalg.matmul (i, j | k)
mm.split(j, jo, ji, 16).split(i, io, ii, 4)
    .reorder(ji, ii, k, jo, io).vectorize(ji).unroll(ii)
"""

TWO_RESULTS = """
func.func @two(%x: tensor<8x16xf64>) -> (tensor<8x16xf64>, tensor<8x16xf64>) {
  %e = tensor.empty() : tensor<8x16xf64>
  %d = linalg.add ins(%x, %x : tensor<8x16xf64>, tensor<8x16xf64>) outs(%e : tensor<8x16xf64>) -> tensor<8x16xf64>
  %s = linalg.mul ins(%x, %x : tensor<8x16xf64>, tensor<8x16xf64>) outs(%e : tensor<8x16xf64>) -> tensor<8x16xf64>
  return %d, %s : tensor<8x16xf64>, tensor<8x16xf64>
}
"""


def inputs(seed=0):
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (64, 48)).astype(np.float32)
    b = rng.uniform(-1, 1, (48, 80)).astype(np.float32)
    return a, b


class ApplyAndRun(unittest.TestCase):
    def test_scheduled_equals_unscheduled_and_numpy(self):
        payload = sched_apply.Payload(MATMUL, name="mm.mlir")
        a, b = inputs()
        scheduled = payload.apply(SCHEDULE, name="mm.sched")
        reference = payload.compile()
        got = scheduled.run(a, b)
        self.assertEqual(got.dtype, np.float32)
        self.assertEqual(got.shape, (64, 80))
        np.testing.assert_allclose(got, reference(a, b), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(got, a @ b, rtol=1e-4, atol=1e-4)
        self.assertEqual(scheduled.inputs, [("float32", [64, 48]), ("float32", [48, 80])])
        self.assertEqual(scheduled.results, [("float32", [64, 80])])
        self.assertFalse(scheduled.parallel)

    def test_the_transformed_ir_has_the_schedules_loops(self):
        payload = sched_apply.Payload(MATMUL, name="mm.mlir")
        unscheduled = payload.transform("func mm = linalg.matmul (i, j | k)\n")
        scheduled = payload.transform(SCHEDULE)
        self.assertNotIn("scf.for", unscheduled)
        self.assertIn("scf.for", scheduled)
        self.assertIn("vector<", scheduled)

    def test_explain_shows_the_requested_nest_and_the_generated_loops(self):
        text = sched_apply.Payload(MATMUL, name="mm.mlir").explain(SCHEDULE, name="mm.sched")
        # The nest after a directive, located; the nest in the end, with its marks.
        self.assertIn("mm.sched:4:6: reorder(ji, ii, k, jo, io)", text)
        self.assertIn("for ii in 4  (i)  unrolled", text)
        self.assertIn("for ji in 16  (j)  vectorized", text)
        # The loops MLIR made, under the schedule's names.
        self.assertIn("scf.forall mm: io, jo  (80 iterations)", text)
        self.assertIn("scf.for mm: k  (48 iterations)", text)
        with self.assertRaises(sched_apply.ScheduleError) as raised:
            sched_apply.Payload(MATMUL).explain("func mm = linalg.matmul (i, j | k)\nmm.unroll(q)\n")
        self.assertIn("schedule.sched:2:", str(raised.exception))

    def test_non_contiguous_arrays_are_read_in_their_logical_order(self):
        payload = sched_apply.Payload(MATMUL)
        a, b = inputs(1)
        program = payload.apply(SCHEDULE)
        a_fortran = np.asfortranarray(a)
        b_strided = np.ascontiguousarray(np.repeat(b, 2, axis=1))[:, ::2]
        self.assertFalse(b_strided.flags["C_CONTIGUOUS"])
        np.testing.assert_allclose(program(a_fortran, b_strided), program(a, b), rtol=0, atol=0)

    def test_arguments_the_code_only_reads_are_read_where_they_are(self):
        program = sched_apply.Payload(MATMUL).apply(SCHEDULE)
        a, b = inputs(4)
        b.flags.writeable = False  # lent arrays are only read
        want = program(a, b)
        self.assertEqual(program.copied_arguments, [])
        np.testing.assert_allclose(want, a @ b, rtol=1e-4, atol=1e-4)
        # Fortran order, and an unaligned view (one byte into a buffer), are copied.
        raw = np.empty(a.nbytes + 1, np.uint8)
        unaligned = raw[1:].view(np.float32).reshape(a.shape)
        unaligned[...] = a
        self.assertFalse(unaligned.flags["ALIGNED"])
        np.testing.assert_array_equal(program(unaligned, np.asfortranarray(b)), want)
        self.assertEqual(program.copied_arguments, [0, 1])

    def test_results_are_new_arrays_of_their_own(self):
        program = sched_apply.Payload(MATMUL).apply(SCHEDULE)
        a, b = inputs(5)
        first, second = program(a, b), program(a, b)
        self.assertFalse(np.shares_memory(first, second))
        self.assertTrue(first.flags["C_CONTIGUOUS"] and first.flags["WRITEABLE"] and first.flags["OWNDATA"])
        np.testing.assert_array_equal(first, second)

    def test_a_lent_argument_comes_back_unchanged_where_an_op_writes_a_view_of_it(self):
        # The fill writes into a slice of %x: bufferized in place, it would zero the caller's rows.
        zero_rows = """
func.func @zero_rows(%x: tensor<4x8xf32>) -> tensor<2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %s = tensor.extract_slice %x[0, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
  %r = linalg.fill ins(%zero : f32) outs(%s : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}
"""
        program = sched_apply.Payload(zero_rows).compile()
        x = np.arange(1, 33, dtype=np.float32).reshape(4, 8)
        np.testing.assert_array_equal(program(x), np.zeros((2, 8), np.float32))
        self.assertEqual(program.copied_arguments, [])
        np.testing.assert_array_equal(x, np.arange(1, 33, dtype=np.float32).reshape(4, 8))

    def test_an_argument_the_code_writes_is_copied_and_the_callers_array_kept(self):
        program = sched_apply.Payload(ACCUMULATE).compile()
        a, b, c = accumulate_inputs(6)
        np.testing.assert_allclose(program(a, b, c), c + a @ b, rtol=1e-5, atol=1e-5)
        self.assertEqual(program.copied_arguments, [2])
        np.testing.assert_array_equal(c, np.ones((16, 16), np.float32))

    def test_several_results_come_back_as_a_tuple(self):
        x = np.arange(128, dtype=np.float64).reshape(8, 16)
        doubled, squared = sched_apply.Payload(TWO_RESULTS).compile().run(x)
        np.testing.assert_array_equal(doubled, x + x)
        np.testing.assert_array_equal(squared, x * x)


ACCUMULATE = """
func.func @acc(%a: tensor<16x8xf32>, %b: tensor<8x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x16xf32>)
                     outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
"""


def accumulate_inputs(seed):
    """`a`, `b` (random) and `c` (ones) for ACCUMULATE."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (16, 8)).astype(np.float32)
    b = rng.uniform(-1, 1, (8, 16)).astype(np.float32)
    return a, b, np.ones((16, 16), np.float32)


def square_matmul(n):
    """An n x n matmul payload, unscheduled it runs scalar code (slow on purpose)."""
    t = f"tensor<{n}x{n}xf32>"
    return f"""
func.func @mm(%a: {t}, %b: {t}) -> {t} {{
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : {t}
  %c = linalg.fill ins(%zero : f32) outs(%empty : {t}) -> {t}
  %r = linalg.matmul ins(%a, %b : {t}, {t}) outs(%c : {t}) -> {t}
  return %r : {t}
}}
"""


def ticks_during(work):
    """Runs `work()` while another thread ticks about once a millisecond; each tick needs the GIL,
    so none can fall inside a stretch that holds it. Returns work's result, the ticks that fell
    inside the call, and the call's seconds."""
    ticks, stop = [], threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        time.sleep(0.01)
        start = time.perf_counter()
        result = work()
        end = time.perf_counter()
    finally:
        stop.set()
        ticker.join()
    return result, len([t for t in ticks if start < t < end]), end - start


class Threads(unittest.TestCase):
    def test_other_python_threads_run_while_the_compiled_code_does(self):
        program = sched_apply.Payload(square_matmul(384)).compile(cache=False)
        a = np.ones((384, 384), dtype=np.float32)
        for _ in range(5):
            got, during, seconds = ticks_during(lambda: program(a, a))
            if seconds >= 0.02:
                break
        np.testing.assert_array_equal(got, np.full((384, 384), 384.0, dtype=np.float32))
        self.assertGreaterEqual(seconds, 0.02, "the call was too quick to tell")
        # A thread switch just before the call can give one or two; released, ~1 per ms.
        self.assertGreaterEqual(during, 5, f"{during} ticks in a {seconds:.3f} s call")

    def test_other_python_threads_run_while_tune_measures(self):
        payload = sched_apply.Payload(MATMUL, name="mm.mlir")
        schedule, during, seconds = ticks_during(
            lambda: payload.tune(budget=60.0, patience=2, min_seconds=0.001))
        self.assertIn("func mm0 = linalg.matmul", schedule)
        self.assertGreaterEqual(during, 5, f"{during} ticks in a {seconds:.3f} s tuning run")


class Bind(unittest.TestCase):
    def test_bound_weights_are_copied_once_and_later_calls_take_the_rest(self):
        a, b = inputs(2)
        program = sched_apply.Payload(MATMUL).apply(SCHEDULE)
        program.bind(1, b)
        b[:] = 0.0  # changed after binding: not seen
        np.testing.assert_allclose(program(a), a @ inputs(2)[1], rtol=1e-4, atol=1e-4)
        with self.assertRaisesRegex(TypeError, "takes 1 arrays besides the 1 bound, 2 given"):
            program(a, b)

    def test_an_argument_the_call_writes_cannot_be_bound(self):
        program = sched_apply.Payload(ACCUMULATE).compile()
        a, b, c = accumulate_inputs(3)
        with self.assertRaisesRegex(ValueError, "argument 2 of .* is written by the call"):
            program.bind(2, c)
        program.bind(0, a, b)
        for _ in range(2):  # the accumulator comes fresh each call, the bound inputs stay
            np.testing.assert_allclose(program(c), c + a @ b, rtol=1e-5, atol=1e-5)


class Cache(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp()
        self.saved = os.environ["SCHED_APPLY_CACHE"]
        os.environ["SCHED_APPLY_CACHE"] = os.path.join(self.directory, "cache")

    def tearDown(self):
        os.environ["SCHED_APPLY_CACHE"] = self.saved
        shutil.rmtree(self.directory)

    def test_a_second_apply_loads_the_code_and_computes_the_same(self):
        payload = sched_apply.Payload(MATMUL)
        first = payload.apply(SCHEDULE)
        second = payload.apply(SCHEDULE)
        uncached = payload.apply(SCHEDULE, cache=False)
        self.assertEqual((first.cached, second.cached, uncached.cached), (False, True, False))
        self.assertFalse(payload.compile().cached, "the reference is another entry")
        a, b = inputs(4)
        np.testing.assert_array_equal(second(a, b), first(a, b))

    def test_a_directory_others_can_write_is_not_used(self):
        shared = os.path.join(self.directory, "cache")
        os.makedirs(shared)
        os.chmod(shared, 0o777)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            program = sched_apply.Payload(MATMUL).apply(SCHEDULE)
        self.assertTrue(any("not using the compile cache" in str(w.message) for w in caught))
        self.assertFalse(program.cached)
        self.assertEqual(os.listdir(shared), [])


    def test_an_export_is_stored_under_its_key_and_read_back_only_while_it_is_trusted(self):
        from sched_apply import _native

        key = "ab" * 32
        self.assertIsNone(_native.cached_export(key))
        self.assertTrue(_native.store_export(key, MATMUL))
        self.assertEqual(_native.cached_export(key), MATMUL)
        self.assertIsNone(_native.cached_export("cd" * 32), "another key, another entry")
        entry = os.path.join(self.directory, "cache", "exports", key + ".mlir")
        self.assertEqual(os.stat(entry).st_mode & 0o777, 0o600)
        os.chmod(entry, 0o622)
        self.assertIsNone(_native.cached_export(key), "an entry others can write is not read")
        os.chmod(entry, 0o600)
        # An entry renamed to another key does not name that key: not read.
        os.rename(entry, entry.replace(key, "ef" * 32))
        self.assertIsNone(_native.cached_export("ef" * 32))

    def test_an_export_key_that_is_not_a_sha256_is_refused(self):
        from sched_apply import _native

        for key in ("../x", "AB" * 32, "ab" * 31, ""):
            with self.assertRaisesRegex(ValueError, "64 lowercase hex digits"):
                _native.store_export(key, "x")


class Tune(unittest.TestCase):
    def test_a_schedule_tuned_on_another_cpu_warns_naming_both(self):
        header = "# Written by `sched-apply tune` for mm.mlir on elsewhere/00000000 (one thread).\n"
        payload = sched_apply.Payload(MATMUL, name="mm.mlir")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            program = payload.apply(header + SCHEDULE, name="mm.sched", cache=False)
            payload.apply(SCHEDULE, name="mm.sched", cache=False)
        notes = [str(w.message) for w in caught if "tuned on" in str(w.message)]
        self.assertEqual(len(notes), 1, notes)
        self.assertIn("mm.sched:1:48: note: tuned on elsewhere/00000000; this CPU is", notes[0])
        a, b = inputs(6)
        np.testing.assert_allclose(program(a, b), a @ b, rtol=1e-5, atol=1e-5)

    def test_a_tuned_schedule_checks_applies_and_equals_the_unscheduled_payload(self):
        payload = sched_apply.Payload(MATMUL, name="mm.mlir")
        with tempfile.TemporaryDirectory() as directory:
            records = os.path.join(directory, "tune.jsonl")
            schedule = payload.tune(budget=60.0, records=records, patience=4, min_seconds=0.001)
            self.assertIn("func mm0 = linalg.matmul", schedule)
            self.assertEqual(payload.check(schedule), [])
            a, b = inputs(5)
            np.testing.assert_allclose(payload.apply(schedule)(a, b), payload.compile()(a, b),
                                       rtol=1e-5, atol=1e-5)
            with open(records, encoding="utf-8") as file:
                measured = len(file.readlines())
            self.assertGreater(measured, 1, "the unscheduled op and candidates were recorded")
            again = payload.tune(budget=60.0, records=records, patience=4, min_seconds=0.001)
            with open(records, encoding="utf-8") as file:
                self.assertEqual(len(file.readlines()), measured, "the second run measured nothing")
            self.assertEqual(again, schedule)

    def test_one_kind_tuned_alone_records_only_that_kind(self):
        payload = sched_apply.Payload(MATMUL_ADD, name="mm_add.mlir")
        kinds = payload.kinds()
        self.assertEqual(len(kinds), 2, kinds)
        matmul = next(k for k in kinds if "linalg.matmul" in k["op"])
        self.assertEqual(matmul["flops"], 2 * 64 * 48 * 80)
        self.assertEqual(matmul["ops"], 1)
        self.assertEqual({k["cpu"] for k in kinds}, {matmul["cpu"]})
        with tempfile.TemporaryDirectory() as directory:
            records = os.path.join(directory, "tune.jsonl")
            schedule = payload.tune(budget=30.0, records=records, patience=4, min_seconds=0.001,
                                    only=[matmul["task"]])
            with open(records, encoding="utf-8") as file:
                tasks = {json.loads(line)["task"] for line in file if line.strip()}
            self.assertEqual(tasks, {matmul["task"]})
            self.assertIn("linalg.matmul", schedule)
            self.assertNotIn("linalg.add", schedule)
        with self.assertRaisesRegex(ValueError, "has no kind of op `nonesuch` to tune"):
            payload.tune(budget=5.0, only=["nonesuch"])
        with self.assertRaisesRegex(ValueError, "only= names no kind of op"):
            payload.tune(budget=5.0, only=[])

    def test_a_bad_budget_is_refused(self):
        with self.assertRaisesRegex(ValueError, "budget must be a positive number of seconds"):
            sched_apply.Payload(MATMUL).tune(budget=0)


class Errors(unittest.TestCase):
    def test_a_schedule_error_is_the_located_report(self):
        payload = sched_apply.Payload(MATMUL, name="mm.mlir")
        with self.assertRaises(sched_apply.ScheduleError) as raised:
            payload.apply("func mm = linalg.matmul (i, j | k)\nmm.split(q, qo, qi, 4)\n",
                          name="bad.sched")
        message = str(raised.exception)
        self.assertIn("bad.sched:2:", message)
        self.assertIn("q", message)
        self.assertIn("^", message)

    def test_a_payload_error_names_the_line(self):
        with self.assertRaises(sched_apply.PayloadError) as raised:
            sched_apply.Payload("func.func @f() {\n  %x = arith.bogus\n}\n", name="broken.mlir")
        self.assertIn("broken.mlir:2:", str(raised.exception))

    def test_bool_and_int8_arrays_go_in_and_come_back(self):
        # The mask payload of the Rust tests: numpy's bool is one byte per element, as an i1 is.
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        with open(os.path.join(root, "tests", "payloads", "mask.mlir")) as f:
            payload = sched_apply.Payload(f.read(), name="mask.mlir")
        rng = np.random.default_rng(5)
        x = rng.uniform(-1, 1, (8, 64)).astype(np.float32)
        keep = rng.uniform(0, 1, (8, 64)) < 0.5
        keep[3] = True
        x[3] = np.abs(x[3]) + 0.1
        q = rng.integers(-100, 100, (8, 64), dtype=np.int8)
        # A strided view of a bool array is read in its logical order too.
        wide = np.repeat(keep, 2, axis=1)
        for mask in (keep, wide[:, ::2]):
            pos, rows, sel, signed = payload.compile()(x, mask, q)
            self.assertEqual((pos.dtype, rows.dtype, sel.dtype, signed.dtype),
                             (np.bool_, np.bool_, np.float32, np.int8))
            positive = (x > 0) & keep
            np.testing.assert_array_equal(pos, positive)
            np.testing.assert_array_equal(rows, positive.all(axis=1, keepdims=True))
            self.assertTrue(rows[3, 0])
            np.testing.assert_array_equal(sel, np.where(rows, x, 0))
            np.testing.assert_array_equal(signed, np.where(keep, q, -q))

    def test_wrong_dtype_shape_and_count_are_refused(self):
        program = sched_apply.Payload(MATMUL).compile()
        a, b = inputs()
        with self.assertRaisesRegex(TypeError, "argument 0: the payload takes float32, this array is float64"):
            program(a.astype(np.float64), b)
        # float32 by name, but big-endian: its bytes are not the code's floats.
        with self.assertRaisesRegex(TypeError, r"argument 0: .* this array is float32 \(>f4\)"):
            program(a.astype(">f4"), b)
        with self.assertRaisesRegex(ValueError, r"argument 1: the payload takes shape \[48, 80\]"):
            program(a, b[:, :40])
        with self.assertRaisesRegex(TypeError, "takes 2 arrays, 1 given"):
            program(a)

    def test_warnings_become_user_warnings_and_check_returns_them(self):
        payload = sched_apply.Payload(MATMUL, name="mm.mlir")
        useless = "func mm = linalg.matmul (i, j | k)\nmm.reorder(j, k, i).vectorize(j, 80)\n"
        self.assertTrue(any("80 iterations" in w for w in payload.check(useless)))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            payload.transform(useless)
        self.assertTrue(any(issubclass(w.category, UserWarning) for w in caught))
        self.assertEqual(payload.check(SCHEDULE), [])


if __name__ == "__main__":
    unittest.main()
