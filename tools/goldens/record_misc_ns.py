"""Record Paddle 3.3.1's paddle.audio, paddle.profiler and paddle.hub behaviour as goldens for
tests/test_audio.py, tests/test_profiler.py and tests/test_hub.py.

    /work/paddle_venv/bin/python tools/goldens/record_misc_ns.py

Writes tests/goldens/misc_ns.json: {section: {case: {"code": ..., "out": description}}}, the
description made by tests/golden_utils.describe (values, dtypes, shapes, exception types); the
tests run the same code on paddle_compat. A case's code runs with ``paddle``, ``np`` and
``SIG`` (a deterministic test signal builder) bound and leaves its result in ``out``.
"""
import gc
import json
import os
import sys
import warnings

import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))
import golden_utils  # noqa: E402
import misc_ns_cases  # noqa: E402

OUT = os.path.join(HERE, "..", "..", "tests", "goldens", "misc_ns.json")


def main():
    warnings.simplefilter("ignore")
    paddle.set_device("cpu")
    out = {}
    for section, cases in misc_ns_cases.SECTIONS.items():
        out[section] = {}
        for name, code in cases.items():
            env = misc_ns_cases.env(paddle)
            try:
                exec(code, env)
                res = golden_utils.describe(env["out"], paddle)
            except Exception as e:  # noqa: BLE001 - the exception is the result
                res = golden_utils.describe(e, paddle)
                res["message"] = str(e).strip().split("\n")[0][:300]
            out[section][name] = {"code": code, "out": res}
            del env
            gc.collect()    # Paddle allows one live Profiler at a time
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {sum(len(v) for v in out.values())} cases to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
