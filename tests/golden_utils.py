"""Shared by golden recorders (run under real Paddle) and tests (run under paddle_compat):
run a snippet of Paddle code and describe what it produced in plain JSON.

A case is ``(case_id, code)``; the code runs with ``paddle`` and ``np`` bound and leaves its
result in ``out``. ``describe`` turns the result (or the exception) into JSON that both worlds
produce the same way, and ``assert_same`` compares two descriptions with dtype tolerances.
"""
import math

import numpy as np

_TOL = {"float16": (1e-3, 1e-3), "bfloat16": (1e-2, 1e-2), "float32": (1e-5, 1e-6),
        "float64": (1e-10, 1e-12), "complex64": (1e-5, 1e-6), "complex128": (1e-10, 1e-12)}

# ------------------------------------------------------------------ float32 tolerance by depth
#: (rtol, atol) of float32 / complex64 results by how deep the compared computation is. On
#: another CPU every op rounds differently (its BLAS and oneDNN blocking, the vector width of
#: ATen's reductions, the thread count) and a chain of ops adds those differences up, so a
#: golden recorded on one machine is met within a tolerance that grows with depth.
#: tools/float32_spread.py measures how far results move; DEVELOPERS.md ("Float32 tolerances")
#: has the numbers and the rule. float64 and the half types keep their dtype tolerances.
DEPTH_TOL = {
    # one op (elementwise, a reduction, one matmul/conv, one norm, a loss), an optimizer's
    # steps with given gradients, the small training loop of examples/train_custom_op.py
    "op": (1e-5, 1e-6),
    # a composition: attention, encoders, stacked layers, RNNs over a sequence, fused
    # attention/feed-forward kernels, QR-based initialisers, gradients through any of them
    "deep": (1e-4, 1e-5),
}

#: names whose presence in a case's code (or its API) makes the case "deep"
DEEP_MARKERS = ("MultiHeadAttention", "MultiheadAttention", "Transformer", "LSTM", "GRU", "SimpleRNN", "BiRNN",
                "RNNCell", "Orthogonal", "attention", "fused_feedforward",
                "fused_multi_head", "fused_bias_dropout_residual")


def depth_of(text):
    """"deep" where ``text`` (a case's code or API name) names a deep construct, else "op"."""
    return "deep" if any(m in text for m in DEEP_MARKERS) else "op"


def depth_tol(depth, base=None):
    """The ``tol`` ({dtype: (rtol, atol)}) for ``depth`` ("op" or "deep"): ``base`` (or the
    dtype defaults) with its float32 and complex64 entries widened to the depth's tier (never
    tightened; the other dtypes as they are)."""
    out = dict(base if base is not None else _TOL)
    rt, at = DEPTH_TOL[depth]
    for dt in ("float32", "complex64"):
        if dt in out:
            r0, a0 = out[dt]
            out[dt] = (max(r0, rt), max(a0, at))
    return out


def _values(arr):
    arr = np.asarray(arr)
    if arr.dtype.kind == "c":
        return [[float(v.real), float(v.imag)] for v in arr.reshape(-1)]
    if arr.dtype.kind == "f":
        return [float(v) if math.isfinite(v) else repr(float(v)) for v in arr.reshape(-1)]
    return arr.reshape(-1).tolist()


def describe(obj, paddle):
    """JSON-able description of ``obj`` (a Tensor, container, scalar, ndarray, exception)."""
    if isinstance(obj, BaseException):
        # the nearest built-in exception type: a subclass of Paddle's type counts as that type
        builtin = next(c for c in type(obj).__mro__ if c.__module__ == "builtins")
        return {"error": builtin.__name__}
    if isinstance(obj, paddle.Tensor):
        dt = str(obj.dtype).replace("paddle.", "")
        arr = obj.astype("float32").numpy() if dt == "bfloat16" else obj.numpy()
        return {"dtype": dt, "shape": list(obj.shape), "values": _values(arr),
                "stop_gradient": bool(obj.stop_gradient)}
    if isinstance(obj, np.ndarray):
        return {"ndarray": str(obj.dtype), "shape": list(obj.shape), "values": _values(obj)}
    if isinstance(obj, (list, tuple)):
        return [describe(v, paddle) for v in obj]
    if isinstance(obj, dict):
        return {str(k): describe(v, paddle) for k, v in obj.items()}
    if isinstance(obj, (bool, int, str)) or obj is None:
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else repr(obj)
    if isinstance(obj, (np.generic,)):
        return describe(obj.item(), paddle)
    return {"repr": repr(obj)}


def run_case(code, paddle):
    """Run a case's code; the description of ``out`` or of the exception it raised."""
    env = {"paddle": paddle, "np": np}
    try:
        exec(code, env)
        return describe(env["out"], paddle)
    except Exception as e:  # noqa: BLE001 - the exception is the result
        return describe(e, paddle)


def assert_same(got, want, where="out", tol=None):
    """Assert two descriptions match: structure, dtypes and shapes exactly, values with the
    tolerance of the dtype, or with ``tol`` ({dtype: (rtol, atol)}) where it names the dtype
    (deep float32 compositions round differently across CPUs and BLAS builds)."""
    if isinstance(want, dict) and "values" in want:
        assert isinstance(got, dict) and "values" in got, f"{where}: got {got!r}, want {want!r}"
        for k in ("dtype", "ndarray", "shape", "stop_gradient"):
            assert got.get(k) == want.get(k), f"{where}.{k}: got {got.get(k)!r}, want {want.get(k)!r}"
        g, w = got["values"], want["values"]
        assert len(g) == len(w), f"{where}: {len(g)} values, want {len(w)}"
        dt = want.get("dtype") or want.get("ndarray")
        if dt in _TOL:
            rtol, atol = (tol or {}).get(dt, _TOL[dt])
            ga = np.array([complex(*v) if isinstance(v, list) else float(v) for v in g])
            wa = np.array([complex(*v) if isinstance(v, list) else float(v) for v in w])
            np.testing.assert_allclose(ga, wa, rtol=rtol, atol=atol, equal_nan=True,
                                       err_msg=where)
        else:
            assert g == w, f"{where}: got {g}, want {w}"
    elif isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), f"{where}: got {got!r}, want {want!r}"
        for k in want:
            assert_same(got[k], want[k], f"{where}.{k}", tol)
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{where}: got {got!r}, want {want!r}"
        for i, (a, b) in enumerate(zip(got, want)):
            assert_same(a, b, f"{where}[{i}]", tol)
    elif isinstance(want, float):
        assert isinstance(got, float) and math.isclose(got, want, rel_tol=1e-6, abs_tol=1e-7), \
            f"{where}: got {got!r}, want {want!r}"
    else:
        assert got == want, f"{where}: got {got!r}, want {want!r}"
