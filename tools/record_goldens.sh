#!/usr/bin/env bash
# Re-record every golden from real Paddle. Paddle lives in its own virtualenv outside the
# project (default ../paddle_venv; override with PADDLE_PYTHON=/path/to/python):
#   python3 -m venv ../paddle_venv && ../paddle_venv/bin/pip install paddlepaddle==3.3.1
# Some recorders (check_paddle_loads.py write) need paddle_compat and run with plain python3.
set -euo pipefail
cd "$(dirname "$0")/.."
PADDLE_PYTHON=${PADDLE_PYTHON:-../paddle_venv/bin/python}
[ -x "$PADDLE_PYTHON" ] || { echo "no Paddle virtualenv at $PADDLE_PYTHON" >&2; exit 2; }
for f in tools/goldens/record_*.py; do
  echo "== $f"
  "$PADDLE_PYTHON" "$f"
done
python3 tools/goldens/check_paddle_loads.py write
"$PADDLE_PYTHON" tools/goldens/check_paddle_loads.py check
"$PADDLE_PYTHON" tests/scripts/record_seed_goldens.py
