"""What the layer-golden recorders share (record_nn_layers, record_nn_more, record_rnn,
record_zoo_mech): run each case's code under real Paddle after the recorder's prelude and write
``{"prelude", "cases": [{id, code, expected[, ref]}]}`` for the test that replays them.
Runs under real Paddle only."""
import json
import os

import numpy as np
import paddle

from golden_utils import describe


def record(cases, prelude, out, **env):
    """``cases``: ``(id, code)`` or ``(id, code, ref)`` (``ref``: what Paddle runs instead of
    ``code`` where its CPU build has no kernel; the test runs ``code``). ``env``: more names
    the code sees besides ``paddle`` and ``np``."""
    results = []
    for cid, code, *rest in cases:
        ref = rest[0] if rest else None
        scope = {"paddle": paddle, "np": np, **env}
        with paddle.utils.unique_name.guard():
            try:
                exec(prelude, scope)
                exec(ref or code, scope)
                expected = describe(scope["out"], paddle)
            except Exception as e:  # noqa: BLE001 - the exception is the result
                expected = describe(e, paddle)
        entry = {"id": cid, "code": code, "expected": expected}
        if ref:
            entry["ref"] = ref
        results.append(entry)
    with open(out, "w") as f:
        json.dump({"prelude": prelude, "cases": results}, f, indent=0)
        f.write("\n")
    print(f"wrote {len(results)} cases to {out} ({os.path.getsize(out)} bytes)")
