"""A compile cache of the test run's own: `from private_cache import setUpModule, tearDownModule`
in a test module sends the code it compiles to a temporary directory, not the user's cache."""

import os
import shutil
import tempfile

_state = {}


def setUpModule():
    _state["directory"] = tempfile.mkdtemp()
    _state["saved"] = os.environ.get("SCHED_APPLY_CACHE")
    os.environ["SCHED_APPLY_CACHE"] = _state["directory"]


def tearDownModule():
    if _state["saved"] is None:
        del os.environ["SCHED_APPLY_CACHE"]
    else:
        os.environ["SCHED_APPLY_CACHE"] = _state["saved"]
    shutil.rmtree(_state["directory"])
