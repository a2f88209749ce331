"""Paddle 3.3.1's torch-style names, replayed against goldens from real Paddle
(tools/goldens/record_compat_namespace.py -> tests/goldens/compat_namespace.json): the
``paddle.compat`` namespace (functions, named tuples, nn layers and functional) and the
top-level names Paddle 3 added for torch-style code. Each case runs the recorded snippet with
``paddle`` = paddle_compat and compares ``out``: tensors by dtype, shape, stop_gradient and
values (float64 at 1e-12, float32 at the single-op tolerance), named tuples by type and
fields, Python values exactly, exceptions by type (and message for Paddle's keyword errors).
"""
import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest

import paddle_compat as paddle
from golden_utils import depth_of, depth_tol

GOLDEN = json.loads((Path(__file__).parent / "goldens" / "compat_namespace.json").read_text())
PRE, CASES = GOLDEN["pre"], GOLDEN["cases"]

# deliberate differences: case id -> why (each must still differ: strict xfail)
KNOWN = {
    "from_numpy": "Paddle 3.3.1's from_numpy copies the array although its documentation says "
                  "the Tensor and the ndarray share memory; we follow the documentation "
                  "(torch.from_numpy: a write to the array shows in the Tensor)",
    "compat.equal.int32_f16": "Paddle 3.3.1 has no CPU float16 kernel of equal_all and raises "
                              "RuntimeError; we compare (True)",
}

TOL = {"float64": dict(rtol=1e-12, atol=1e-12),
       "float32": None,                 # by the case's depth (golden_utils.depth_of)
       "float16": dict(rtol=1e-3, atol=1e-3), "bfloat16": dict(rtol=1e-2, atol=1e-2)}


def encode(v):
    """Our ``out`` in the recorder's format."""
    if isinstance(v, paddle.Tensor):
        dt = str(v.dtype).replace("paddle.", "")
        a = v.astype("float32").numpy() if dt == "bfloat16" else v.numpy()
        if a.dtype.kind == "f":
            vals = [repr(float(z)) if not np.isfinite(z) else float(z) for z in a.reshape(-1)]
        elif a.dtype.kind == "b":
            vals = [bool(z) for z in a.reshape(-1)]
        else:
            vals = [int(z) for z in a.reshape(-1)]
        return {"tensor": {"dtype": dt, "shape": list(v.shape), "values": vals,
                           "stop_gradient": bool(v.stop_gradient)}}
    if isinstance(v, tuple) and hasattr(v, "_fields"):
        return {"named": type(v).__name__, "fields": list(v._fields),
                "items": [encode(x) for x in v]}
    if isinstance(v, (tuple, list)) and type(v).__name__ != "Size":
        return {"seq": type(v).__name__, "items": [encode(x) for x in v]}
    if type(v).__name__ == "Size":
        return {"py": list(v)}
    if isinstance(v, paddle.dtype):
        return {"dtype": str(v).replace("paddle.", "")}
    if isinstance(v, float) and not math.isfinite(v):
        return {"py": repr(v)}
    if v is None or isinstance(v, (bool, int, float, str)):
        return {"py": v}
    return {"type": type(v).__name__}


def same(got, want, where="out", depth="op"):
    if "tensor" in want:
        assert "tensor" in got, f"{where}: want a Tensor, got {got}"
        g, w = got["tensor"], want["tensor"]
        for key in ("dtype", "shape", "stop_gradient"):
            assert g[key] == w[key], f"{where}: {key} {g[key]} != {w[key]}"
        gv, wv = g["values"], w["values"]
        if w["dtype"] in TOL:
            assert [v for v in gv if isinstance(v, str)] == [v for v in wv if isinstance(v, str)]
            ga = np.array([np.nan if isinstance(v, str) else v for v in gv], dtype=float)
            wa = np.array([np.nan if isinstance(v, str) else v for v in wv], dtype=float)
            tol = TOL[w["dtype"]] or dict(zip(("rtol", "atol"), depth_tol(depth)["float32"]))
            np.testing.assert_allclose(ga, wa, equal_nan=True, err_msg=where, **tol)
        else:
            assert gv == wv, f"{where}: {gv} != {wv}"
    elif "named" in want or "seq" in want:
        kind = "named" if "named" in want else "seq"
        assert got.get(kind) == want[kind], f"{where}: {got.get(kind)} != {want[kind]}"
        if kind == "named":
            assert got["fields"] == want["fields"]
        assert len(got["items"]) == len(want["items"]), where
        for i, (g, w) in enumerate(zip(got["items"], want["items"])):
            same(g, w, f"{where}[{i}]", depth)
    elif "py" in want and isinstance(want["py"], float):
        assert got.get("py") == pytest.approx(want["py"], rel=1e-15), where
    else:
        assert got == want, f"{where}: {got} != {want}"


def run(code):
    env = {"paddle": paddle, "np": np}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(PRE, env)
        try:
            exec(code, env)
        except Exception as e:  # noqa: BLE001
            return {"error": type(e).__name__, "message": str(e).split("\n")[0][:200]}
    return encode(env["out"])


def check(cid):
    case = CASES[cid]
    got, want = run(case["code"]), case["expected"]
    if "error" in want:
        assert "error" in got, f"want {want['error']}, got {got}"
        assert got["error"] == want["error"], got
        if "unexpected keyword argument" in want["message"] or "should stop" in want["message"]:
            assert got["message"] == want["message"]
        return
    assert "error" not in got, got
    same(got, want, depth=depth_of(case["code"]))


# recorded on Paddle's CPU build: what paddle.cuda says without CUDA
CPU_ONLY = {"cuda.cpu_build", "cuda.rng_state", "Generator.err.gpu"}


@pytest.mark.parametrize("cid", [c for c in CASES if c not in KNOWN])
def test_case(cid):
    if cid in CPU_ONLY:
        import torch
        if torch.cuda.is_available():
            pytest.skip("recorded without CUDA")
    check(cid)


@pytest.mark.parametrize("cid", list(KNOWN))
def test_known_difference(cid):
    with pytest.raises(AssertionError):
        check(cid)


def test_torch_proxy_cannot_be_enabled():
    """Paddle's proxy makes ``import torch`` load Paddle; here torch is the engine."""
    with pytest.raises(NotImplementedError, match="import torch"):
        paddle.compat.enable_torch_proxy()
    with pytest.raises(NotImplementedError):
        paddle.enable_compat()
    with pytest.raises(NotImplementedError):
        with paddle.compat.use_torch_proxy_guard():
            pass
    with paddle.compat.use_torch_proxy_guard(enable=False):
        import torch
        assert torch.ones(1).sum().item() == 1.0
    assert paddle.use_compat_guard is paddle.compat.use_torch_proxy_guard


def test_compat_nn_is_lazy_and_importable_as_paddle():
    import subprocess
    import sys
    code = ("import sys, paddle_compat as p; assert 'paddle_compat.compat.nn' not in sys.modules"
            " or type(sys.modules['paddle_compat.compat.nn']).__name__ == '_LazyModule';"
            "p.compat.install(); import paddle; import paddle.compat.nn.functional as F;"
            "from paddle.compat import unique, MinMaxRetType;"
            "assert F is p.compat.nn.functional and paddle.compat.nn.Linear is p.compat.nn.Linear")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_static_mode_records_compat_ops():
    """The compat functions work on static Variables (fx proxies) as the ops do."""
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [3, 4], "float64")
            r = paddle.compat.max(x, 1)
            s = paddle.compat.sort(x, 0, descending=True)
            y = paddle.compat.nn.functional.linear(x, paddle.ones([2, 4], "float64"))
        exe = paddle.static.Executor()
        a = np.random.default_rng(1).standard_normal((3, 4))
        got = exe.run(main, feed={"x": a}, fetch_list=[r.values, r.indices, s.values, y])
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(got[0], a.max(1))
    np.testing.assert_array_equal(got[1], a.argmax(1))
    np.testing.assert_allclose(got[2], -np.sort(-a, 0))
    np.testing.assert_allclose(got[3], a @ np.ones((4, 2)))


# names of Paddle 3.3.1 we do not have, and why (the test fails when one appears, so the list
# stays true)
MISSING = {
    "paddle.compat.proxy": "the module behind the torch proxy (its switches are in compat)",
    "paddle.compat.utils": "an internal helper module of Paddle's compat functions",
    "paddle.compat.nn.transformer": "the module holding MultiheadAttention (compat.nn has it)",
    "paddle.compat.nn.functional.sdpa": "the module holding scaled_dot_product_attention "
                                        "(compat.nn.functional has it)",
}


@pytest.mark.parametrize("ns", sorted(GOLDEN["names"]))
def test_public_names_resolve(ns):
    obj = paddle
    for part in ns.split(".")[1:]:
        obj = getattr(obj, part)
    absent = sorted(f"{ns}.{n}" for n in GOLDEN["names"][ns] if not hasattr(obj, n))
    assert absent == sorted(k for k in MISSING if k.rsplit(".", 1)[0] == ns)
