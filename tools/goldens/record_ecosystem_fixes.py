"""Record Paddle 3.3.1's behaviour that the ecosystem libraries rely on and paddle_compat
fixed for them (issue 30, tools/ecosystem): the ``paddle.Tensor(value, ...)`` constructor
(paddlenlp's safetensors loader: ``paddle.Tensor(ndarray, zero_copy=True)``).

    /work/paddle_venv/bin/python tools/goldens/record_ecosystem_fixes.py

Writes tests/goldens/ecosystem_fixes.json: {case: {"code": ..., "value": ...} or
{"code": ..., "error": type name}}; tests/test_ecosystem_fixes.py runs the same code on
paddle_compat. Each case leaves its result in ``out`` (plain JSON values).
"""
import json
import os

import numpy as np
import paddle

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "ecosystem_fixes.json")

CASES = {
    # a numpy value is copied, unless zero_copy=True (then writes to the array show)
    "tensor_copies_numpy": """
a = np.arange(6, dtype="float32").reshape(2, 3)
t = paddle.Tensor(a)
a[0, 0] = 100
out = [t.numpy().tolist(), str(t.dtype), t.stop_gradient, t.persistable]
""",
    "tensor_zero_copy_shares": """
a = np.arange(6, dtype="float32").reshape(2, 3)
t = paddle.Tensor(a, zero_copy=True)
a[0, 0] = 100
out = [t.numpy().tolist(), t.stop_gradient, t.persistable, t.place.is_cpu_place()]
""",
    "tensor_keywords": """
a = np.arange(3, dtype="float64")
t = paddle.Tensor(a, persistable=True, name="w0", stop_gradient=False)
out = [t.name, t.persistable, t.stop_gradient, str(t.dtype)]
""",
    # Paddle's positional form: (value, place, persistable, zero_copy, name, stop_gradient)
    "tensor_positional": """
a = np.ones([2], dtype="int64")
t = paddle.Tensor(a, paddle.CPUPlace(), True, False, "p0", False)
a[0] = 9
out = [t.numpy().tolist(), t.persistable, t.name, t.stop_gradient, str(t.dtype)]
""",
    "tensor_positional_zero_copy": """
a = np.ones([2], dtype="float32")
t = paddle.Tensor(a, paddle.CPUPlace(), False, True)
a[1] = 5
out = [t.numpy().tolist(), t.persistable, t.stop_gradient]
""",
    "tensor_int_default_dtype": """
out = str(paddle.Tensor(np.arange(3)).dtype)
""",
}


def run(code):
    scope = {"paddle": paddle, "np": np}
    try:
        exec(code, scope)
        return {"code": code, "value": scope["out"]}
    except Exception as e:  # noqa: BLE001 - the golden records the error type
        return {"code": code, "error": type(e).__name__}


def main():
    doc = {name: run(code) for name, code in CASES.items()}
    with open(OUT, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(doc)} cases to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
