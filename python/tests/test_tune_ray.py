"""A tune spread over a local Ray cluster, two ways: `scripts/tune_ray.py` (each kind of op tuned
by a worker's `sched-apply tune --kind`) and the package's `sched_apply.ray_tune.tune` (each by a
worker's `Payload.tune(only=...)`); the records merged, the schedule written here from them, and
that schedule equal to the unscheduled payload when run. Skipped, with the reason printed, where
Ray is not installed (the package's own test environment has numpy only)."""

import json
import os
import subprocess
import sys
import tempfile
import unittest
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PAYLOAD = """
func.func @f(%a: tensor<64x96xf32>, %b: tensor<96x128xf32>, %bias: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x128xf32>) -> tensor<64x128xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x96xf32>, tensor<96x128xf32>)
                     outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = linalg.add ins(%m, %bias : tensor<64x128xf32>, tensor<64x128xf32>)
                  outs(%empty : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
"""


def sched_apply_binary():
    """The workspace's sched-apply: the debug build `cargo test` makes, else the release one."""
    for profile in ("debug", "release"):
        path = os.path.join(ROOT, "target", profile, "sched-apply")
        if os.access(path, os.X_OK):
            return path
    return None


def setUpModule():
    try:
        import ray  # noqa: F401
    except ImportError:
        reason = "Ray is not installed in this Python (pip install ray)"
        print(f"\ntest_tune_ray skipped: {reason}", file=sys.stderr)
        raise unittest.SkipTest(reason)
    try:
        import sched_apply  # noqa: F401
    except ImportError:
        reason = "the sched_apply package is not installed in this Python (maturin develop)"
        print(f"\ntest_tune_ray skipped: {reason}", file=sys.stderr)
        raise unittest.SkipTest(reason)
    if sched_apply_binary() is None:
        reason = "no sched-apply build under target/ (cargo build first)"
        print(f"\ntest_tune_ray skipped: {reason}", file=sys.stderr)
        raise unittest.SkipTest(reason)


class TuneOnRay(unittest.TestCase):
    def assert_each_kind_measured(self, records, kinds):
        """The records file holds, for each of `kinds`, its unscheduled op and candidates."""
        with open(records) as f:
            merged = [json.loads(line) for line in f if line.strip()]
        for kind in kinds:
            own = [r for r in merged if r["task"] == kind["task"]]
            self.assertTrue(any(r["schedule"] is None for r in own), kind)
            self.assertTrue(any(r["schedule"] for r in own), kind)

    def test_kinds_tuned_on_workers_are_merged_and_the_schedule_runs_equal(self):
        binary = sched_apply_binary()
        with tempfile.TemporaryDirectory() as directory:
            payload = os.path.join(directory, "model.mlir")
            with open(payload, "w") as f:
                f.write(PAYLOAD)
            records = os.path.join(directory, "tune.jsonl")
            output = os.path.join(directory, "model.sched")
            kinds = [
                json.loads(line)
                for line in subprocess.run(
                    [binary, "tune", payload, "--list-kinds"],
                    check=True, capture_output=True, text=True,
                ).stdout.splitlines()
            ]
            self.assertEqual(len(kinds), 2, kinds)
            done = subprocess.run(
                [sys.executable, os.path.join(ROOT, "scripts", "tune_ray.py"), payload,
                 "-o", output, "--records", records, "--budget", "4",
                 "--sched-apply", binary, "--caches", "warm"],
                capture_output=True, text=True, timeout=600,
            )
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertIn("2 kinds of op tuned on the cluster", done.stderr)
            self.assert_each_kind_measured(records, kinds)
            # The run here took them from the records.
            summary = next(l for l in done.stderr.splitlines() if l.startswith("tuned "))
            reused = int(summary.split("(")[1].split(" from the records")[0])
            self.assertGreater(reused, 0, summary)
            checked = subprocess.run(
                [binary, "run", payload, output, "--check", "--no-cache"],
                capture_output=True, text=True,
            )
            self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)

    def test_the_package_spreads_the_kinds_over_workers_and_merges_their_records(self):
        import numpy as np
        import sched_apply
        from sched_apply import ray_tune

        payload = sched_apply.Payload(PAYLOAD, name="model.mlir")
        kinds = payload.kinds()
        self.assertEqual(len(kinds), 2, kinds)
        with tempfile.TemporaryDirectory() as directory:
            records = os.path.join(directory, "tune.jsonl")
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                schedule = ray_tune.tune(payload, 4.0, records=records, cluster="local",
                                         warm=True)
            failed = [str(w.message) for w in caught if "on a worker failed" in str(w.message)]
            self.assertEqual(failed, [], "every kind was measured on a worker")
            self.assert_each_kind_measured(records, kinds)
            self.assertFalse(ray_tune.running(), "the cluster started for the call was shut down")
            self.assertEqual(payload.check(schedule), [])
            rng = np.random.default_rng(3)
            a, b, bias = (rng.standard_normal(s).astype(np.float32)
                          for s in ((64, 96), (96, 128), (64, 128)))
            np.testing.assert_allclose(payload.apply(schedule, cache=False)(a, b, bias),
                                       payload.compile(cache=False)(a, b, bias),
                                       rtol=1e-5, atol=1e-5)


if __name__ == "__main__":
    unittest.main()
