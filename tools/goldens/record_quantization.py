"""Record Paddle 3.3.1's ``paddle.quantization`` and ``paddle.nn.quant`` layers (QAT, PTQ,
quanters, observers, the dygraph quantisation tools) as goldens for
tests/test_quantization.py.

    /work/paddle_venv/bin/python tools/goldens/record_quantization.py

Writes tests/goldens/quantization.json: {case: {"code": ..., "out": description}} for the
cases of tests/quantization_cases.py, the description made by tests/golden_utils.describe
(values, dtypes, shapes, exception types; an exception also keeps its first line).
"""
import json
import os
import sys
import warnings

import numpy as np
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))
import golden_utils  # noqa: E402
import quantization_cases  # noqa: E402

OUT = os.path.join(HERE, "..", "..", "tests", "goldens", "quantization.json")


def main():
    warnings.simplefilter("ignore")
    paddle.set_device("cpu")
    out = {}
    for name, code in quantization_cases.CASES.items():
        env = {"paddle": paddle, "np": np}
        try:
            exec(quantization_cases.PREAMBLE, env)
            exec(code, env)
            res = golden_utils.describe(env["out"], paddle)
        except Exception as e:  # noqa: BLE001 - the exception is the result
            res = golden_utils.describe(e, paddle)
            res["message"] = str(e).strip().split("\n")[0][:300]
        out[name] = {"code": code, "out": res}
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(out)} cases to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
