#!/usr/bin/env bash
# The README's two commands: `bash run.sh examples` runs the Paddle examples on torch (CPU, or
# CUDA when torch sees a GPU); `bash run.sh tests` runs the test suite (`tests-numpy1`: the core
# tests again under numpy 1.26; `tests-pure`: on the pure-Python operators); `bash run.sh lint` checks
# the import contract of pyproject.toml. All set up first.
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-python3}

setup() {
  # The CPU build of torch where none is installed (a bare `torch` would pull CUDA packages).
  if ! "$PY" -c "import torch" >/dev/null 2>&1; then
    PIP_ROOT_USER_ACTION=ignore "$PY" -m pip install -q "torch==2.13.0"
  fi
  # Installed (editable) from this very checkout: subprocess tests import it from other folders,
  # so one that merely imports from the current directory, or from another clone, is not enough.
  if ! "$PY" -P -c "import os, paddle_compat, pytest, hypothesis, numpy, importlinter, cv2, PIL, onnx, onnxruntime
assert os.path.dirname(os.path.dirname(os.path.abspath(paddle_compat.__file__))) == os.getcwd()" \
      >/dev/null 2>&1; then
    PIP_ROOT_USER_ACTION=ignore "$PY" -m pip install -q -e ".[test]"
  fi
  # Bytecode, as a pip-installed package has it (this is an editable install, and
  # PYTHONDONTWRITEBYTECODE may be set): without it every import compiles the sources again.
  "$PY" -m compileall -q paddle_compat >/dev/null 2>&1 || true
  # The optional C operator slots (paddle_compat/framework/_fastops.c), built in place; where
  # that fails (no C compiler) paddle_compat runs on its pure-Python operators.
  # (again when a C source is newer than its build: a checkout that changed the kernels)
  stale=$(find paddle_compat/framework/_fastops.c paddle_compat/random/_rngkernels.c \
          -newer "$(ls paddle_compat/random/_rngkernels*.so 2>/dev/null | head -1)" 2>/dev/null || true)
  if [ -n "$stale" ] || ! "$PY" -c "import paddle_compat.framework._fastops, paddle_compat.random._rngkernels" >/dev/null 2>&1; then
    "$PY" setup.py -q build_ext --inplace >/dev/null 2>&1 ||
      echo "run.sh: C operator slots not built; using the pure-Python ones" >&2
  fi
}

case "${1:-}" in
  examples)
    shift; setup
    exec "$PY" -m paddle_compat.run_examples "$@" ;;
  tests)
    shift; setup
    exec "$PY" -m pytest -q "$@" ;;
  tests-numpy1)
    # the core tests again under numpy 1.26 (paddle_compat supports numpy 1.23 to 2.x): a
    # virtualenv under build/ that sees this Python's packages but numpy 1.26, made once and
    # reused; pytest arguments replace the default core subset
    shift; setup
    venv=build/venv_numpy1
    numpy1() { "$venv/bin/python" -c "import numpy, sys; sys.exit(numpy.__version__ != '1.26.4')"; }
    if ! numpy1 >/dev/null 2>&1; then
      "$PY" -m venv --system-site-packages "$venv"
      # (pip warns that packages needing numpy 2, opencv's wheel, see numpy 1 here)
      PIP_ROOT_USER_ACTION=ignore "$venv/bin/python" -m pip install -q \
        --disable-pip-version-check "numpy==1.26.4" >/dev/null 2>&1 || true
      numpy1 || { echo "run.sh: could not install numpy 1.26.4 into $venv" >&2; exit 1; }
    fi
    [ $# -gt 0 ] || set -- tests/test_tensor.py tests/test_indexing.py tests/test_promotion.py \
      tests/test_printing.py tests/test_interop.py tests/test_save_load.py \
      tests/test_import_mechanisms.py
    exec "$venv/bin/python" -m pytest -q -p no:cacheprovider "$@" ;;
  tests-pure)
    # the core tests again on the pure-Python operators (PADDLE_COMPAT_PURE_PYTHON=1: what runs
    # where the C slots could not be built); pytest arguments replace the default core subset
    shift; setup
    [ $# -gt 0 ] || set -- tests/test_tensor.py tests/test_promotion.py tests/test_indexing.py \
      tests/test_static.py tests/test_pylayer_compile.py tests/test_core_goldens.py \
      tests/test_interop.py tests/test_fastops.py
    PADDLE_COMPAT_PURE_PYTHON=1 exec "$PY" -m pytest -q -p no:cacheprovider "$@" ;;
  lint)
    # the floors of pyproject.toml's import contract (README "Layers")
    shift; setup
    exec "$PY" -c "import sys; from importlinter.cli import lint_imports_command
sys.argv[0] = 'lint-imports'; sys.exit(lint_imports_command())" --no-cache "$@" ;;
  *)
    echo "usage: bash run.sh examples [--device gpu] | bash run.sh tests [pytest args]" \
         "| bash run.sh tests-numpy1|tests-pure [pytest args] | bash run.sh lint" >&2
    exit 2 ;;
esac
