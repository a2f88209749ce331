"""Record tests/goldens/legacy_names.json from real Paddle 3.3.1 (the scenarios of
tests/legacy_scenarios.py). Run with the Paddle virtualenv's python."""
import json
import os
import sys

import paddle

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from legacy_scenarios import SCENARIOS  # noqa: E402

out = {name: fn(paddle) for name, fn in SCENARIOS.items()}
with open(os.path.join(ROOT, "tests", "goldens", "legacy_names.json"), "w") as f:
    json.dump({"paddle": paddle.__version__, "cases": out}, f, indent=1)
print("recorded", len(out))
