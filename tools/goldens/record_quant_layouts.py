"""Record Paddle 3.3.1's ``paddle.nn.quant.weight_quantize`` on CPU with an explicit ``arch``
(the stored int8/int4 layouts and the scales) for tests/test_quant_layouts.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_quant_layouts.py

Writes tests/goldens/quant_layouts.json: ``cases``, each {id, dtype, shape, seed, algo, arch,
special, and either q (the stored bytes as hex), q_shape, scale (float values, "nan"/"-0.0"
spelled out) or error (the exception's type name)}. The inputs are not stored: both sides
build them with ``weight(dtype, shape, seed, special)`` below (tests/test_quant_layouts.py
has the same function): integers over 1024 (float16) or 256 (bfloat16), exact in the dtype,
so that many values land on the .5 ties of ``w / scale``. Paddle's CPU kernel exists for
float16 and bfloat16 only, and crashes for a first dimension that is not a multiple of 64
with arch >= 75 (not recorded).
"""
import json
import os
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import paddle  # noqa: E402  (real Paddle: this script runs only in its virtualenv)

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "goldens",
                   "quant_layouts.json")


def weight(dtype, shape, seed, special=""):
    """The float64 values of the input (exact in ``dtype``)."""
    rng = np.random.default_rng(seed)
    den = 1024 if dtype == "float16" else 256
    w = rng.integers(-den + 1, den, size=shape).astype(np.float64) / den
    if "zero" in special:           # an all-zero column, one of -0.0, one led by -0.0
        w[:, 1] = 0.0
        w[:, 2] = -0.0
        w[0, 3] = -0.0
    if "nan" in special:            # NaN below the first row, and leading a column
        w[5, 4] = np.nan
        w[0, 6] = np.nan
    return w


def _float(v):
    v = float(v)
    if v != v:
        return "nan"
    if v == 0 and np.signbit(v):
        return "-0.0"
    return v


CASES = []


def case(dtype, shape, seed, algo, arch, special=""):
    cid = f"{dtype}-{shape[0]}x{shape[1]}-{algo[12:]}-arch{arch}{'-' + special if special else ''}"
    c = {"id": cid, "dtype": dtype, "shape": list(shape), "seed": seed, "algo": algo,
         "arch": arch, "special": special}
    x = paddle.to_tensor(weight(dtype, shape, seed, special)).astype(dtype)
    try:
        q, s = paddle.nn.quant.weight_quantize(x, algo=algo, arch=arch)
    except Exception as e:              # noqa: BLE001  (the type is what is recorded)
        c["error"] = type(e).__name__
    else:
        qn = q.numpy()
        assert qn.dtype == np.int8
        c["q"] = qn.view(np.uint8).tobytes().hex()
        c["q_shape"] = list(qn.shape)
        c["scale"] = [_float(v) for v in s.astype("float32").numpy().reshape(-1)]
        c["scale_dtype"] = str(s.dtype).replace("paddle.", "")
    CASES.append(c)


def main():
    seed = 0
    for algo in ("weight_only_int8", "weight_only_int4"):
        for arch in (70, 75, 80, 86, 89, 90, 100):
            for dtype in ("float16", "bfloat16"):
                seed += 1
                case(dtype, (64, 32), seed, algo, arch)
        for shape in ((128, 48), (192, 64), (64, 256)):
            for arch in (70, 80):
                seed += 1
                case("float16", shape, seed, algo, arch)
        for arch in (70, 80):
            seed += 1
            case("float16", (64, 32), seed, algo, arch, special="zero")
            seed += 1
            case("float16", (64, 32), seed, algo, arch, special="nan")
            seed += 1
            case("bfloat16", (64, 16), seed, algo, arch, special="zero nan")
    # Paddle's argument checks
    case("float16", (64, 32), 100, "weight_only_int8", 60)
    case("float16", (64, 40), 101, "weight_only_int8", 80)
    case("float16", (64, 24), 102, "weight_only_int4", 70)
    with open(OUT, "w") as fh:
        json.dump({"paddle_version": paddle.__version__, "cases": CASES}, fh)
    print(f"wrote {len(CASES)} cases to {os.path.normpath(OUT)} "
          f"({os.path.getsize(OUT) / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
