#!/usr/bin/env bash
# Installs the Python module into a virtual environment with torch and
# torch-mlir, outside the repository, and runs its torch tests
# (python/tests/test_torch.py). Never run by `make test`. The environment,
# ~/.cache/sched-apply/torch-venv, is made on the first run (torch 2.15.0,
# torch-mlir 20261001 and numpy from PyPI: about 3 GB) and reused after.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$HOME/.cache/sched-apply/torch-venv"

bash "$root/scripts/test_python.sh" >/dev/null   # the numpy-only tests first; makes maturin's venv
maturin="$HOME/.cache/sched-apply/python-venv/bin/maturin"
if [ ! -x "$venv/bin/python" ]; then
  echo "test_torch: making $venv (torch, torch-mlir, numpy)" >&2
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import torch, torch_mlir, numpy" 2>/dev/null; then
  "$venv/bin/pip" install --quiet --disable-pip-version-check \
    torch==2.15.0 torch-mlir==20261001 numpy
fi

cd "$root/python"
VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" "$maturin" develop --quiet
OMP_NUM_THREADS=1 "$venv/bin/python" -m unittest discover --start-directory "$root/python/tests" \
  --pattern "test_torch.py" "$@"
