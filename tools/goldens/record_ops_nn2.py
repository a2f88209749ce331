"""Record Paddle 3.3.1's convolutions, pooling, attention, vision ops, ``paddle.incubate`` fused
ops, ``paddle.nn.quant``, ``paddle.geometric`` and ``paddle.audio.functional.get_window`` as
goldens for tests/test_ops_nn2.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_ops_nn2.py

Writes tests/goldens/ops_nn2.json with the case format of ops_nn.json (api, id, inputs, pre,
call, grad, expected, weights, grads, tol) plus:

    ref   Paddle code recorded instead of ``call`` where Paddle 3.3.1 has no CPU kernel (the
          fused/GPU-only ops): the unfused composition of Paddle ops (or numpy) its docs say
          the op equals; the test still runs ``call``.

Names bound while evaluating: ``paddle``, ``F`` (paddle.nn.functional), ``IF``
(paddle.incubate.nn.functional), ``np`` and the inputs.
"""
import json
import os
import sys
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)
import paddle.incubate.nn.functional as IF  # noqa: E402
import paddle.nn.functional as F  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from opcase import build, short_floats, tensor_outputs  # noqa: E402
from opcase import encode as _encode, encode_result as _encode_result  # noqa: E402


def encode(t):
    return _encode(t, short_floats)


def encode_result(r):
    return _encode_result(r, short_floats)


paddle.set_device("cpu")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "goldens",
                   "ops_nn2.json")

rng = np.random.default_rng(20240613)
FLOATS = ("float16", "bfloat16", "float32", "float64")
LOWP = ("float16", "bfloat16")


def T(dtype, shape, lo=-2.0, hi=2.0, ints=None, values=None):
    """A tensor spec with seeded values (uniform in [lo, hi), or integers in ``ints``)."""
    n = int(np.prod(shape)) if shape else 1
    if values is not None:
        v = list(values)
    elif ints is not None:
        v = [int(a) for a in rng.integers(ints[0], ints[1], n)]
    else:
        v = rng.uniform(lo, hi, n)
        t = paddle.to_tensor(v.astype(np.float32 if dtype != "float64" else np.float64))
        v = short_floats(t.astype(dtype).astype("float32" if dtype != "float64" else "float64").numpy())
    return {"dtype": dtype, "shape": list(shape), "values": v}


CASES, IDS, DROPPED = [], set(), []


def case(api, call, grad=True, tag="", pre=None, ref=None, nograd=(), tol=None, **inputs):
    """Run ``ref`` (or ``call``) on real Paddle and store the case: the inputs, the result or
    the error, and the gradients of sum(out * w) for the float32/float64 inputs."""
    cid = f"{api}[{tag or call}]"
    k = 2
    while cid in IDS:
        cid = f"{api}[{tag or call}#{k}]"
        k += 1
    IDS.add(cid)
    env = {"paddle": paddle, "F": F, "IF": IF, "np": np}
    gnames = []
    for name, spec in inputs.items():
        t = build(spec)
        if grad and spec["dtype"] in ("float32", "float64") and name not in nograd:
            t.stop_gradient = False
            gnames.append(name)
        env[name] = t
    c = {"api": api, "id": cid, "inputs": inputs, "call": call, "grad": gnames}
    for key, val in (("pre", pre), ("ref", ref), ("tol", tol)):
        if val:
            c[key] = list(val) if key == "tol" else val
    try:
        if pre:
            exec(pre, env)
        r = eval(ref or call, env)
    except Exception as e:  # noqa: BLE001  the exception is the golden
        if any(s["dtype"] in LOWP for s in inputs.values()):
            DROPPED.append(f"{cid}: {type(e).__name__}: {str(e).splitlines()[0][:120]}")
            return
        c["expected"] = {"error": type(e).__name__, "message": str(e).split("\n")[0][:200]}
        CASES.append(c)
        return
    c["expected"] = encode_result(r)
    outs = [o for o in tensor_outputs(r) if not o.stop_gradient
            and str(o.dtype).replace("paddle.", "") in ("float32", "float64")]
    if gnames and outs:
        ws = [paddle.to_tensor(rng.uniform(-1, 1, o.shape)).astype(o.dtype) for o in outs]
        loss = sum((o * w).sum() for o, w in zip(outs, ws))
        try:
            gs = paddle.grad(loss, [env[n] for n in gnames], allow_unused=True)
        except RuntimeError as e:      # no CPU backward kernel (fused norms): forward only
            c["grad"] = []
            c["grad_error"] = str(e).split("\n")[0][:120]
        else:
            c["weights"] = [encode(w) for w in ws]
            c["grads"] = {n: (None if g is None else encode(g)) for n, g in zip(gnames, gs)}
    else:
        c["grad"] = []
    CASES.append(c)


FN = "paddle.nn.functional."
IFN = "paddle.incubate.nn.functional."


# ---------------------------------------------------------------------------- convolutions
def conv_cases():
    for nd in (1, 2, 3):
        api = f"{FN}conv{nd}d"
        sp = [[7], [7, 6], [5, 4, 3]][nd - 1]
        ks = [3, 2, 3][:nd] if nd < 3 else [2, 3, 2]
        x = lambda dt="float32", c=4, s=sp: T(dt, [1 if nd == 3 else 2, c] + s)  # noqa: E731
        w = lambda dt="float32", o=6, c=4: T(dt, [o, c] + ks)  # noqa: E731
        f = f"F.conv{nd}d"
        case(api, f"{f}(x, w)", x=x(), w=w())
        case(api, f"{f}(x, w, b)", x=x(), w=w(), b=T("float32", [6]))
        case(api, f"{f}(x, w, b, stride=2, padding=1)", x=x(), w=w(), b=T("float32", [6]))
        case(api, f"{f}(x, w, padding='SAME', stride=2)", x=x(), w=w())
        case(api, f"{f}(x, w, padding='same', dilation=2)", x=x(), w=w())
        case(api, f"{f}(x, w, padding='VALID')", x=x(), w=w())
        case(api, f"{f}(x, w, padding={[1, 2] * nd})", x=x(), w=w())
        case(api, f"{f}(x, w, padding={list(range(1, nd + 1))}, dilation=2)", x=x(), w=w())
        case(api, f"{f}(x, w, padding={[[0, 0], [0, 0]] + [[2, 1]] * nd})", x=x(), w=w())
        case(api, f"{f}(x, w, padding={[[0, 0], [1, 1]] + [[2, 1]] * nd})", x=x(), w=w())
        case(api, f"{f}(x, w, groups=2)", x=x(), w=w(c=2))
        case(api, f"{f}(x, w, groups=4)", tag="depthwise", x=x(), w=w(o=8, c=1))
        case(api, f"{f}(x, w, groups=3)", tag="bad groups", x=x(), w=w(c=2))
        case(api, f"{f}(x, w)", tag="f64", x=x("float64"), w=w("float64"))
        cl = {1: "NLC", 2: "NHWC", 3: "NDHWC"}[nd]
        case(api, f"{f}(x, w, b, padding=1, data_format='{cl}')",
             x=T("float32", [1] + sp + [4]), w=w(), b=T("float32", [6]))
        case(api, f"{f}(x, w, data_format='NCX')", x=x(), w=w())
        case(api, f"{f}(x, w)", tag="bad rank", x=T("float32", sp + [4]), w=w())
        for dt in LOWP:
            case(api, f"{f}(x, w)", tag=dt, x=x(dt), w=w(dt))

        api = f"{FN}conv{nd}d_transpose"
        f = f"F.conv{nd}d_transpose"
        wt = lambda dt="float32", c=4, o=3: T(dt, [c, o] + ks)  # noqa: E731
        case(api, f"{f}(x, w)", x=x(), w=wt())
        case(api, f"{f}(x, w, b, stride=2, padding=1)", x=x(), w=wt(), b=T("float32", [3]))
        case(api, f"{f}(x, w, stride=2, output_padding=1)", x=x(), w=wt())
        case(api, f"{f}(x, w, stride=2, padding='SAME')", x=x(), w=wt())
        case(api, f"{f}(x, w, padding='VALID', dilation=2)", x=x(), w=wt())
        case(api, f"{f}(x, w, b, stride=2, padding={[1, 0] * nd})", x=x(), w=wt(),
             b=T("float32", [3]))
        osz = [2 * s for s in sp]
        case(api, f"{f}(x, w, stride=2, padding=1, output_size={osz})", x=x(), w=wt())
        case(api, f"{f}(x, w, stride=2, output_size={[4 * s for s in sp]})", tag="bad size",
             x=x(), w=wt())
        case(api, f"{f}(x, w, groups=2)", x=x(), w=wt(o=2))
        case(api, f"{f}(x, w, stride=2, dilation=2, groups=2)", x=x(), w=wt(o=3))
        case(api, f"{f}(x, w)", tag="f64", x=x("float64"), w=wt("float64"))
        case(api, f"{f}(x, w, padding=1, data_format='{cl}')", x=T("float32", [1] + sp + [4]),
             w=wt())
        for dt in LOWP:
            case(api, f"{f}(x, w)", tag=dt, x=x(dt), w=wt(dt))


# ---------------------------------------------------------------------------- pooling
def pool_cases():
    x2 = lambda dt="float32", s=(7, 6): T(dt, [2, 3, *s])  # noqa: E731
    for api, f in (("max_pool2d", "F.max_pool2d"), ("avg_pool2d", "F.avg_pool2d")):
        a = FN + api
        for args in ("2", "3, 2", "3, 2, 1", "[3, 2], [2, 1], [1, 0]", "3, 2, 'SAME'",
                     "3, 1, 'VALID'", "3, 2, [1, 0, 1, 1]",
                     "3, 2, [[0, 0], [0, 0], [0, 1], [1, 0]]",
                     "2, 2, 0, ceil_mode=True", "3, 2, 1, ceil_mode=True",
                     "3, 3, 1, ceil_mode=True", "3, 2, 2"):
            case(a, f"{f}(x, {args})", x=x2())
        case(a, f"{f}(x, 3, 2, 1, data_format='NHWC')", x=x2(s=(7, 6)))
        case(a, f"{f}(x, 3, 2, 1)", tag="f64", x=x2("float64"))
        for dt in LOWP:
            case(a, f"{f}(x, 2)", tag=dt, x=x2(dt))
        case(a, f"{f}(x, 2)", tag="3-D input", x=T("float32", [3, 4, 4]))
        case(a, f"{f}(x, 2, data_format='NCW')", x=x2())
    a = FN + "avg_pool2d"
    for args in ("3, 2, 1, exclusive=False", "3, 2, 1, ceil_mode=True, exclusive=False",
                 "3, 2, [1, 0, 0, 1], exclusive=False", "3, 2, 1, divisor_override=4",
                 "2, divisor_override=3", "3, 2, 'SAME', exclusive=False"):
        case(a, f"F.avg_pool2d(x, {args})", x=x2())
    a = FN + "max_pool2d"
    for args in ("2", "3, 2, 1", "3, 2, [1, 0, 0, 1]", "3, 2, 1, ceil_mode=True"):
        case(a, f"F.max_pool2d(x, {args}, return_mask=True)", x=x2())
    case(a, "F.max_pool2d(x, 2, return_mask=True, data_format='NHWC')", x=x2())
    x1 = T("float32", [2, 3, 9])
    for args in ("2", "3, 2, 1", "3, 2, 'SAME'", "3, 2, [0, 1]", "2, ceil_mode=True"):
        case(FN + "max_pool1d", f"F.max_pool1d(x, {args})", x=x1)
        case(FN + "avg_pool1d", f"F.avg_pool1d(x, {args})", x=x1)
    case(FN + "max_pool1d", "F.max_pool1d(x, 3, 2, 1, return_mask=True)", x=x1)
    case(FN + "avg_pool1d", "F.avg_pool1d(x, 3, 2, 1, exclusive=False)", x=x1)
    x3 = lambda dt="float32": T(dt, [1, 2, 5, 6, 4])  # noqa: E731
    for args in ("2", "3, 2, 1", "[3, 2, 2], 2, 'SAME'", "2, 2, 0, ceil_mode=True",
                 "3, 2, [1, 0, 0, 1, 1, 0]"):
        case(FN + "max_pool3d", f"F.max_pool3d(x, {args})", x=x3())
        case(FN + "avg_pool3d", f"F.avg_pool3d(x, {args})", x=x3())
    case(FN + "max_pool3d", "F.max_pool3d(x, 2, return_mask=True)", x=x3())
    case(FN + "avg_pool3d", "F.avg_pool3d(x, 3, 2, 1, exclusive=False)", x=x3())
    case(FN + "avg_pool3d", "F.avg_pool3d(x, 2, divisor_override=5)", x=x3())
    case(FN + "max_pool3d", "F.max_pool3d(x, 2, data_format='NDHWC')", x=x3())
    case(FN + "avg_pool3d", "F.avg_pool3d(x, 2)", tag="f64", x=x3("float64"))

    for nd, shape in ((1, [2, 3, 10]), (2, [2, 3, 7, 9]), (3, [1, 2, 5, 7, 6])):
        for kind in ("avg", "max"):
            a = f"{FN}adaptive_{kind}_pool{nd}d"
            f = f"F.adaptive_{kind}_pool{nd}d"
            for osz in (1, 3, [2, 4, 3][:nd], [5, 4, 3][:nd]):
                case(a, f"{f}(x, {osz})", x=T("float32", shape))
            if nd > 1:
                case(a, f"{f}(x, {[None, 2, 3][:nd]})", x=T("float32", shape))
            if kind == "max":
                case(a, f"{f}(x, 3, return_mask=True)", x=T("float32", shape))
            case(a, f"{f}(x, 3)", tag="f64", x=T("float64", shape))
    case(FN + "adaptive_avg_pool2d", "F.adaptive_avg_pool2d(x, [3, 2], data_format='NHWC')",
         x=T("float32", [2, 7, 9, 3]))
    case(FN + "adaptive_avg_pool2d", "F.adaptive_avg_pool2d(x, 4)", tag="float16",
         x=T("float16", [2, 3, 8, 8]))

    a = FN + "lp_pool2d"
    xp = T("float32", [2, 3, 6, 7], 0.1, 2.0)
    for args in ("2, 2", "2, 3, 2", "3, 3, 2, 1", "1, 2", "2, 3, 2, ceil_mode=True",
                 "2.5, [2, 3], [1, 2]", "float('inf'), 2", "0, 2"):
        case(a, f"F.lp_pool2d(x, {args})", x=xp)
    case(a, "F.lp_pool2d(x, 2, 2, data_format='NHWC')", x=xp)
    case(FN + "lp_pool1d", "F.lp_pool1d(x, 2, 3, 2)", x=T("float32", [2, 3, 9], 0.1, 2.0))

    a = FN + "max_unpool2d"
    xu = T("float32", [2, 3, 6, 6])
    case(a, "F.max_unpool2d(*F.max_pool2d(x, 2, return_mask=True), 2)", x=xu)
    case(a, "F.max_unpool2d(*F.max_pool2d(x, 3, 2, 1, return_mask=True), 3, 2, 1)", x=xu)
    case(a, "F.max_unpool2d(*F.max_pool2d(x, 2, return_mask=True), 2, output_size=[7, 7])",
         x=xu)
    case(a, "F.max_unpool2d(*F.max_pool2d(x, 2, return_mask=True), 2, output_size=[9, 9])",
         tag="bad size", x=xu)
    case(FN + "max_unpool1d", "F.max_unpool1d(*F.max_pool1d(x, 2, return_mask=True), 2)",
         x=T("float32", [2, 3, 8]))
    case(FN + "max_unpool3d", "F.max_unpool3d(*F.max_pool3d(x, 2, return_mask=True), 2)",
         x=T("float32", [1, 2, 4, 4, 4]))

    for nd, shape in ((2, [1, 2, 9, 11]), (3, [1, 1, 7, 8, 6])):
        a = f"{FN}fractional_max_pool{nd}d"
        f = f"F.fractional_max_pool{nd}d"
        for u in (0.1, 0.5, 0.77, 0.95):
            for osz in (3, [5, 4, 6][:nd], [2, 7, 3][:nd]):
                case(a, f"{f}(x, {osz}, random_u={u}, return_mask=True)", x=T("float32", shape))
            case(a, f"{f}(x, 3, kernel_size=2, random_u={u}, return_mask=True)",
                 x=T("float32", shape))
        case(a, f"{f}(x, 3, random_u=1.5)", x=T("float32", shape))


# ---------------------------------------------------------------------------- attention
def _dense_flashmask(sri, causal, sq):
    """numpy: the additive mask the flashmask docs define (``flashmask_to_densemask``)."""
    b, h, sk, r = sri.shape
    m = np.zeros((b, h, sq, sk), dtype=np.float32)
    has_end = (causal and r == 2) or ((not causal) and r == 4)
    for bi in range(b):
        for hi in range(h):
            for j in range(sk):
                s = sri[bi, hi, j]
                if has_end:
                    m[bi, hi, s[0]:s[1], j] = -np.inf
                else:
                    m[bi, hi, s[0]:, j] = -np.inf
                if causal:
                    m[bi, hi, :j, j] = -np.inf
                elif has_end:
                    m[bi, hi, s[2]:s[3], j] = -np.inf
                else:
                    m[bi, hi, :s[1], j] = -np.inf
    return m


def _ref_attention(q, k, v, mask, scale=None):
    """Paddle: softmax(q k^T * scale + mask) v in [b, s, h, d], fully masked rows -> 0."""
    qt, kt, vt = (paddle.transpose(t, [0, 2, 1, 3]) for t in (q, k, v))
    if kt.shape[1] != qt.shape[1]:
        kt = paddle.repeat_interleave(kt, qt.shape[1] // kt.shape[1], 1)
        vt = paddle.repeat_interleave(vt, qt.shape[1] // vt.shape[1], 1)
    s = paddle.matmul(qt * (scale or q.shape[-1] ** -0.5), kt, transpose_y=True)
    m = paddle.to_tensor(mask)
    full = paddle.isinf(m).all(-1, keepdim=True)
    s = s + paddle.where(full, paddle.zeros_like(m), m)
    out = paddle.matmul(F.softmax(s, -1), vt)
    out = paddle.where(full, paddle.zeros_like(out), out)
    return paddle.transpose(out, [0, 2, 1, 3])


paddle.nn.functional._ref_attention = _ref_attention
paddle.nn.functional._dense_flashmask = _dense_flashmask


def attention_cases():
    a = FN + "scaled_dot_product_attention"
    f = "F.scaled_dot_product_attention"
    q = lambda dt="float32", s=5, h=4: T(dt, [2, s, h, 4])  # noqa: E731
    case(a, f"{f}(q, k, v)", q=q(), k=q(), v=q())
    case(a, f"{f}(q, k, v, is_causal=True)", q=q(), k=q(), v=q())
    case(a, f"{f}(q, k, v, is_causal=True)", tag="causal q<k", q=q(s=3), k=q(), v=q())
    case(a, f"{f}(q, k, v, m)", q=q(), k=q(s=6), v=q(s=6), m=T("float32", [2, 4, 5, 6]),
         nograd=("m",))
    case(a, f"{f}(q, k, v, m)", tag="broadcast mask", q=q(), k=q(), v=q(),
         m=T("float32", [5, 5]), nograd=("m",))
    case(a, f"{f}(q, k, v, m)", tag="bool mask", q=q(), k=q(), v=q(),
         m=T("bool", [2, 1, 5, 5], values=[True] + [bool(b) for b in rng.integers(0, 2, 49)]))
    case(a, f"{f}(q, k, v, m, is_causal=True)", tag="causal ignores mask", q=q(), k=q(),
         v=q(), m=T("float32", [2, 4, 5, 5]), nograd=("m",))
    case(a, f"{f}(q, k, v, scale=0.2)", q=q(), k=q(), v=q())
    case(a, f"{f}(q, k, v)", tag="gqa", q=q(), k=q(h=2), v=q(h=2))
    case(a, f"{f}(q, k, v, enable_gqa=False)", tag="gqa disabled", q=q(), k=q(h=2), v=q(h=2))
    case(a, f"{f}(q, k, v)", tag="gqa bad", q=q(), k=q(h=3), v=q(h=3))
    case(a, f"{f}(q, k, v)", tag="3-D", q=T("float32", [5, 2, 8]), k=T("float32", [5, 2, 8]),
         v=T("float32", [5, 2, 8]))
    case(a, f"{f}(q, k, v, dropout_p=0.4, training=False)", q=q(), k=q(), v=q())
    case(a, f"{f}(q, k, v, dropout_p=0.3)", tag="dropout", pre="paddle.seed(7)", q=q(), k=q(),
         v=q())
    case(a, f"{f}(q, k, v)", tag="f64", q=q("float64"), k=q("float64"), v=q("float64"))
    for dt in LOWP:
        case(a, f"{f}(q, k, v)", tag=dt, q=q(dt), k=q(dt), v=q(dt))

    a = FN + "flash_attention.flash_attention"
    f = "F.flash_attention.flash_attention"
    case(a, f"{f}(q, k, v)[0]", q=q(), k=q(), v=q())
    case(a, f"{f}(q, k, v, causal=True)[0]", q=q(), k=q(), v=q())
    case(a, f"{f}(q, k, v, causal=True, return_softmax=True)", q=q(), k=q(), v=q())

    # flashmask: GPU-only in Paddle, recorded from the dense mask its docs define
    a = FN + "flashmask_attention"
    sris = {
        "causal": ([8] * 10, True, 1),
        "sliding window": ([3, 4, 5, 6, 7, 8, 9, 10, 10, 10], True, 1),
        "causal document": ([4, 4, 4, 4, 7, 7, 7, 10, 10, 10], True, 1),
        "share question": ([10, 10, 10, 10, 7, 7, 7, 10, 10, 10], True, 1),
        "causal blockwise": ([4, 7] * 4 + [10, 10] * 6, True, 2),
        "document": ([4, 0, 4, 0, 4, 0, 4, 0, 7, 4, 7, 4, 7, 4, 10, 7, 10, 7, 10, 7], False, 2),
        "prefix lm causal": ([10, 0] * 5 + [10, 5, 10, 6, 10, 7, 10, 8, 10, 9], False, 2),
        "global + sliding": ([10, 10, 0, 0, 10, 10, 0, 0, 4, 10, 0, 0, 5, 10, 0, 0, 6, 10, 2, 3,
                              7, 10, 2, 4, 8, 10, 2, 5, 9, 10, 2, 6, 10, 10, 2, 7, 10, 10, 2, 8],
                             False, 4),
    }
    for name, (vals, causal, r) in sris.items():
        sri = T("int32", [1, 1, 10, r], values=vals)
        case(a, f"F.flashmask_attention(q, k, v, s, causal={causal})", tag=name,
             ref=f"F._ref_attention(q, k, v, F._dense_flashmask(s.numpy(), {causal}, 10))",
             q=T("float32", [1, 10, 2, 8]), k=T("float32", [1, 10, 2, 8]),
             v=T("float32", [1, 10, 2, 8]), s=sri)
    sri = T("int32", [2, 2, 6, 1], ints=(2, 7))
    case(a, "F.flashmask_attention(q, k, v, s, causal=True)", tag="per head gqa",
         ref="F._ref_attention(q, k, v, F._dense_flashmask(np.repeat(s.numpy(), 2, 1), True, 6))",
         q=T("float32", [2, 6, 4, 8]), k=T("float32", [2, 6, 2, 8]), v=T("float32", [2, 6, 2, 8]),
         s=sri)
    case(a, "F.flashmask_attention(q, k, v, causal=True)", tag="no mask",
         ref="F._ref_attention(q, k, v, np.triu(np.full((6, 6), -np.inf, 'float32'), 1))",
         q=T("float32", [2, 6, 2, 8]), k=T("float32", [2, 6, 2, 8]), v=T("float32", [2, 6, 2, 8]))
    for causal in (True, False):
        case(a, f"F.flashmask_attention(q, k, v, causal={causal}, window_size=2)",
             tag=f"window causal={causal}",
             ref=f"F._ref_attention(q, k, v, np.where(np.abs(np.arange(8)[:, None] - "
                 f"np.arange(8)) <= 2, 0, -np.inf).astype('float32') + "
                 f"{'np.triu(np.full((8, 8), -np.inf, np.float32), 1)' if causal else '0'})",
             q=T("float32", [1, 8, 2, 8]), k=T("float32", [1, 8, 2, 8]),
             v=T("float32", [1, 8, 2, 8]))


# ---------------------------------------------------------------------------- vision
def vision_cases():
    case(FN + "pixel_shuffle", "F.pixel_shuffle(x, 2)", x=T("float32", [2, 8, 3, 3]))
    case(FN + "pixel_shuffle", "F.pixel_shuffle(x, 2, 'NHWC')", x=T("float32", [2, 3, 3, 8]))
    case(FN + "pixel_unshuffle", "F.pixel_unshuffle(x, 2)", x=T("float32", [2, 2, 4, 6]))
    case(FN + "channel_shuffle", "F.channel_shuffle(x, 3)", x=T("float32", [2, 6, 2, 2]))
    case(FN + "channel_shuffle", "F.channel_shuffle(x, 2, 'NHWC')", x=T("float32", [2, 2, 2, 6]))
    g = T("float32", [2, 4, 5, 2], -1.2, 1.2)
    for args in ("", ", align_corners=False", ", mode='nearest'", ", padding_mode='border'",
                 ", padding_mode='reflection', align_corners=False"):
        case(FN + "grid_sample", f"F.grid_sample(x, g{args})", x=T("float32", [2, 3, 6, 7]), g=g)
    th = T("float32", [2, 2, 3])
    case(FN + "affine_grid", "F.affine_grid(t, [2, 3, 4, 5])", t=th)
    case(FN + "affine_grid", "F.affine_grid(t, [2, 3, 4, 5], align_corners=False)", t=th)


# ---------------------------------------------------------------------------- incubate
def incubate_cases():
    a = IFN + "fused_dropout_add"
    case(a, "IF.fused_dropout_add(x, y, p=0.0)", x=T("float32", [3, 4]), y=T("float32", [3, 4]))
    case(a, "IF.fused_dropout_add(x, y, p=0.5, training=False)", x=T("float32", [3, 4]),
         y=T("float32", [3, 4]))
    case(a, "IF.fused_dropout_add(x, y, p=0.5, training=False, mode='downscale_in_infer')",
         x=T("float32", [3, 4]), y=T("float32", [3, 4]))
    case(a, "IF.fused_dropout_add(x, y, p=0.3)", pre="paddle.seed(11)", x=T("float32", [4, 6]),
         y=T("float32", [4, 6]))

    x, w, b = T("float32", [2, 3, 8]), T("float32", [8]), T("float32", [8])
    r, bb = T("float32", [2, 3, 8]), T("float32", [8])
    a = IFN + "fused_rms_norm"
    case(a, "IF.fused_rms_norm(x, w, None, 1e-6, begin_norm_axis=2)[0]", x=x, w=w)
    case(a, "IF.fused_rms_norm(x, w, b, 1e-5, begin_norm_axis=-1)[0]", x=x, w=w, b=b)
    case(a, "IF.fused_rms_norm(x, w, b, 1e-6, 2, residual=r)", x=x, w=w, b=b, r=r)
    case(a, "IF.fused_rms_norm(x, w, b, 1e-6, 2, bias=bb, residual=r)", x=x, w=w, b=b, r=r,
         bb=bb)
    case(a, "IF.fused_rms_norm(x, w, b, 1e-6, 2, bias=bb)[0]", tag="bias without residual",
         x=x, w=w, b=b, bb=bb)
    case(a, "IF.fused_rms_norm(x, w, None, 1e-6, 1)[0]", x=x, w=T("float32", [3, 8]))
    case(a, "IF.fused_rms_norm(x, w, None, 1e-6, 3)[0]", tag="bad axis", x=x, w=w)
    a = IFN + "fused_layer_norm"
    case(a, "[o for i, o in enumerate(IF.fused_layer_norm(x, w, b, 1e-5, begin_norm_axis=2)) "
            "if i != 1]", tag="no residual", x=x, w=w, b=b)
    case(a, "IF.fused_layer_norm(x, w, b, 1e-5, 0.5, 2, residual=r)", x=x, w=w, b=b, r=r)
    case(a, "IF.fused_layer_norm(x, w, b, 1e-5, 1.0, 2, bias=bb, residual=r)", x=x, w=w, b=b,
         r=r, bb=bb)
    case(a, "IF.fused_layer_norm(x, w, b, 1e-5, begin_norm_axis=1)[0]", x=x,
         w=T("float32", [24]), b=T("float32", [24]))

    a = IFN + "fused_bias_act"
    xa = T("float32", [3, 8])
    for act, ref in (("gelu", "F.gelu(x + b)"), ("relu", "F.relu(x + b)"),
                     ("swiglu", "F.silu((x + b)[:, :4]) * (x + b)[:, 4:]"),
                     ("geglu", "F.gelu((x + b)[:, :4]) * (x + b)[:, 4:]")):
        case(a, f"IF.fused_bias_act(x, b, act_method='{act}')", ref=ref, x=xa,
             b=T("float32", [8]))
    case(a, "IF.fused_bias_act(x, act_method='gelu')", ref="F.gelu(x)", x=xa)
    case(a, "IF.fused_bias_act(x, b, shift=s, smooth=m, act_method='swiglu')",
         ref="(F.silu((x + b)[:, :4]) * (x + b)[:, 4:] + s) * m", x=xa, b=T("float32", [8]),
         s=T("float32", [4]), m=T("float32", [4]))

    a = IFN + "swiglu"
    case(a, "IF.swiglu(x)", x=T("float32", [3, 8]))
    case(a, "IF.swiglu(x, y)", x=T("float32", [3, 4]), y=T("float32", [3, 4]))
    case(a, "IF.swiglu(x)", tag="f64 3-D", x=T("float64", [2, 3, 6]))
    case(a, "IF.swiglu(x)", tag="bfloat16", x=T("bfloat16", [3, 8]))
    a = IFN + "fused_linear"
    case(a, "IF.fused_linear(x, w)", x=T("float32", [2, 3, 5]), w=T("float32", [5, 4]))
    case(a, "IF.fused_linear(x, w, b)", ref="paddle.matmul(x, w) + b", x=T("float32", [3, 5]),
         w=T("float32", [5, 4]), b=T("float32", [4]))
    case(a, "IF.fused_linear(x, w, b, transpose_weight=True)",
         ref="paddle.matmul(x, w, transpose_y=True) + b", x=T("float32", [3, 5]),
         w=T("float32", [4, 5]), b=T("float32", [4]))
    a = IFN + "fused_matmul_bias"
    case(a, "IF.fused_matmul_bias(x, y)", x=T("float32", [3, 5]), y=T("float32", [5, 4]))
    case(a, "IF.fused_matmul_bias(x, y, b, True, True)",
         ref="paddle.matmul(x, y, True, True) + b", x=T("float32", [5, 3]),
         y=T("float32", [4, 5]), b=T("float32", [4]))

    # rotary embedding: GPU-only in Paddle; the reference of its unit tests
    a = IFN + "fused_rotary_position_embedding"
    pre = (
        "def rot2(t):\n"
        "    return paddle.stack([-t[..., 1::2], t[..., 0::2]], -1).reshape(t.shape)\n"
        "def roth(t):\n"
        "    h = t.shape[-1] // 2\n"
        "    return paddle.concat([-t[..., h:], t[..., :h]], -1)\n"
        "def tables(seq, dim, base=10000.0, two=True):\n"
        "    inv = 1.0 / base ** (paddle.arange(0, dim, 2, dtype='float32') / dim)\n"
        "    ang = paddle.arange(seq, dtype='float32')[:, None] * inv[None, :]\n"
        "    ang = paddle.repeat_interleave(ang, 2, -1) if two else paddle.concat([ang, ang], -1)\n"
        "    return ang.sin().reshape([1, seq, 1, dim]), ang.cos().reshape([1, seq, 1, dim])\n")
    qs = lambda: T("float32", [2, 4, 3, 8])  # noqa: E731
    case(a, "IF.fused_rotary_position_embedding(q, k, v)", pre=pre,
         ref="[t * tables(4, 8)[1] + rot2(t) * tables(4, 8)[0] for t in (q, k, v)]",
         q=qs(), k=qs(), v=qs())
    case(a, "IF.fused_rotary_position_embedding(q, rotary_emb_base=500.0)[0]", pre=pre,
         ref="q * tables(4, 8, 500.0)[1] + rot2(q) * tables(4, 8, 500.0)[0]", q=qs())
    sc = lambda: T("float32", [1, 4, 1, 8])  # noqa: E731
    case(a, "IF.fused_rotary_position_embedding(q, k, None, sin=s, cos=c, "
            "use_neox_rotary_style=False)[:2]", pre=pre,
         ref="[t * c + roth(t) * s for t in (q, k)]", q=qs(), k=qs(), s=sc(), c=sc(),
         nograd=("s", "c"))
    case(a, "IF.fused_rotary_position_embedding(q, sin=s, cos=c)[0]", pre=pre,
         ref="q * c.reshape([1, 4, 1, 8]) + rot2(q) * s.reshape([1, 4, 1, 8])", q=qs(),
         s=T("float32", [4, 8]), c=T("float32", [4, 8]),
         nograd=("s", "c"))
    case(a, "IF.fused_rotary_position_embedding(q, sin=s, cos=c, position_ids=p, "
            "use_neox_rotary_style=False)[0]", pre=pre,
         ref="q * paddle.gather(c.reshape([6, 8]), p.reshape([-1])).reshape([2, 4, 1, 8]) + "
             "roth(q) * paddle.gather(s.reshape([6, 8]), p.reshape([-1])).reshape([2, 4, 1, 8])",
         q=qs(), s=T("float32", [1, 6, 1, 8]), c=T("float32", [1, 6, 1, 8]),
         p=T("int64", [2, 4], ints=(0, 6)), nograd=("s", "c"))
    case(a, "IF.fused_rotary_position_embedding(q, time_major=True)[0]", pre=pre,
         ref="q * tables(4, 8)[1].transpose([1, 0, 2, 3]) + "
             "rot2(q) * tables(4, 8)[0].transpose([1, 0, 2, 3])", q=T("float32", [4, 2, 3, 8]))

    a = "paddle.incubate.softmax_mask_fuse_upper_triangle"
    case(a, "paddle.incubate.softmax_mask_fuse_upper_triangle(x)",
         ref="F.softmax(x + paddle.triu(paddle.full([5, 5], -1e4), 1), -1)",
         x=T("float32", [2, 3, 5, 5]))
    case("paddle.incubate.softmax_mask_fuse", "paddle.incubate.softmax_mask_fuse(x, m)",
         x=T("float32", [2, 3, 4, 4]), m=T("float32", [2, 1, 4, 4]), nograd=("m",))

    a = IFN + "fused_multi_head_attention"
    pre = (
        "def fmha(x, qkv_w, lin_w, pre_ln, pre_s, pre_b, s, b, qkv_b, lin_b, mask):\n"
        "    h = F.layer_norm(x, x.shape[-1:], pre_s, pre_b, 1e-5) if pre_ln else x\n"
        "    qkv = paddle.matmul(h, qkv_w.reshape([-1, x.shape[-1]]), transpose_y=True)\n"
        "    qkv = (qkv + qkv_b.reshape([-1])).reshape([x.shape[0], x.shape[1], 3, 2, -1])\n"
        "    qkv = qkv.transpose([2, 0, 3, 1, 4])\n"
        "    q, k, v = qkv[0], qkv[1], qkv[2]\n"
        "    sc = paddle.matmul(q * q.shape[-1] ** -0.5, k, transpose_y=True)\n"
        "    sc = sc + mask if mask is not None else sc\n"
        "    o = paddle.matmul(F.softmax(sc, -1), v).transpose([0, 2, 1, 3])\n"
        "    o = paddle.matmul(o.reshape([x.shape[0], x.shape[1], -1]), lin_w) + lin_b + x\n"
        "    return o if pre_ln else F.layer_norm(o, o.shape[-1:], s, b, 1e-5)\n")
    emb = 8
    fm_in = dict(x=T("float32", [2, 4, emb]), qw=T("float32", [3, 2, 4, emb], -0.5, 0.5),
                 lw=T("float32", [emb, emb], -0.5, 0.5), qb=T("float32", [3, 2, 4]),
                 lb=T("float32", [emb]), s=T("float32", [emb]), b=T("float32", [emb]))
    for pre_ln in (False, True):
        case(a, f"IF.fused_multi_head_attention(x, qw, lw, pre_layer_norm={pre_ln}, "
                "pre_ln_scale=s, pre_ln_bias=b, ln_scale=s, ln_bias=b, qkv_bias=qb, "
                "linear_bias=lb, dropout_rate=0.0, attn_dropout_rate=0.0)", pre=pre,
             ref=f"fmha(x, qw, lw, {pre_ln}, s, b, s, b, qb, lb, None)", **fm_in)
    case(a, "IF.fused_multi_head_attention(x, qw, lw, ln_scale=s, ln_bias=b, qkv_bias=qb, "
            "linear_bias=lb, attn_mask=m, training=False)", pre=pre,
         ref="fmha(x, qw, lw, False, s, b, s, b, qb, lb, m)", m=T("float32", [2, 1, 4, 4]),
         nograd=("m",), **fm_in)

    a = IFN + "variable_length_memory_efficient_attention"
    pre = (
        "def vlmea(q, k, v, ql, kl, mask=None, causal=False, pre=0, scale=None):\n"
        "    sq, sk = q.shape[2], k.shape[2]\n"
        "    m = np.zeros((q.shape[0], 1, sq, sk), 'float32')\n"
        "    for b, (a, c) in enumerate(zip(ql.numpy().reshape(-1), kl.numpy().reshape(-1))):\n"
        "        m[b, :, :, c:] = -np.inf\n"
        "        if causal:\n"
        "            m[b, :, :, :] += np.triu(np.full((sq, sk), -np.inf, 'float32'), 1 + pre)\n"
        "        m[b, :, a:, :] = 0\n"
        "    bias = paddle.to_tensor(m) + (mask if mask is not None else 0)\n"
        "    s = paddle.matmul(q, k, transpose_y=True) * (scale or q.shape[-1] ** -0.5) + bias\n"
        "    o = paddle.matmul(F.softmax(s, -1), v)\n"
        "    ql = ql.astype('int64').reshape([-1, 1, 1, 1])\n"
        "    keep = paddle.arange(sq).reshape([1, 1, sq, 1]) < ql\n"
        "    return o * keep.astype(o.dtype)\n")
    vq = lambda: T("float32", [2, 2, 6, 8])  # noqa: E731
    lens = T("int32", [2, 1], values=[6, 4])
    klens = T("int32", [2, 1], values=[6, 3])
    case(a, "IF.variable_length_memory_efficient_attention(q, k, v, l, kl)", pre=pre,
         ref="vlmea(q, k, v, l, kl)", q=vq(), k=vq(), v=vq(), l=lens, kl=klens)
    case(a, "IF.variable_length_memory_efficient_attention(q, k, v, l, l, m, 0.3)", pre=pre,
         ref="vlmea(q, k, v, l, l, m, scale=0.3)", q=vq(), k=vq(), v=vq(), l=lens,
         m=T("float32", [2, 1, 6, 6]), nograd=("m",))
    case(a, "IF.variable_length_memory_efficient_attention(q, k, v, l, l, causal=True)",
         pre=pre, ref="vlmea(q, k, v, l, l, causal=True)", q=vq(), k=vq(), v=vq(), l=lens)


# ---------------------------------------------------------------------------- quant, graphs
def quant_cases():
    # GPU-only in Paddle (and its int8 layout is CUTLASS-specific): numpy per-channel int8
    pre = ("def quant(w):\n"
           "    a = w.astype('float32').numpy()\n"
           "    s = np.abs(a).max(0) / 127\n"
           "    return paddle.to_tensor(np.round(a / s).astype('int8').T.copy()), "
           "paddle.to_tensor(s).astype(w.dtype)\n")
    case("paddle.nn.quant.weight_quantize", "paddle.nn.quant.weight_quantize(w)", pre=pre,
         ref="quant(w)", grad=False, w=T("float32", [16, 8]))
    case("paddle.nn.quant.weight_quantize", "paddle.nn.quant.weight_quantize(w)", pre=pre,
         ref="quant(w)", tag="float16", w=T("float16", [16, 8]))
    case("paddle.nn.quant.weight_dequantize", "paddle.nn.quant.weight_dequantize(q, s, "
         "out_dtype='float32')", ref="(q.astype('float32') * s[:, None]).T",
         q=T("int8", [8, 16], ints=(-127, 128)), s=T("float32", [8], 0.01, 0.1), grad=False)
    case("paddle.nn.quant.weight_only_linear", "paddle.nn.quant.weight_only_linear(x, q, b, s)",
         ref="paddle.matmul(x, (q.astype('float32') * s[:, None]), transpose_y=True) + b",
         x=T("float32", [3, 16]), q=T("int8", [8, 16], ints=(-127, 128)),
         s=T("float32", [8], 0.01, 0.1), b=T("float32", [8]), nograd=("s", "b"))

    g = "paddle.geometric."
    x = T("float32", [5, 3])
    src = T("int64", [8], values=[0, 1, 2, 0, 3, 4, 1, 1])
    dst = T("int64", [8], values=[1, 2, 1, 0, 0, 1, 2, 2])
    e = T("float32", [8, 3])
    for red in ("sum", "mean", "max", "min"):
        case(g + "send_u_recv", f"paddle.geometric.send_u_recv(x, s, d, '{red}')", x=x, s=src,
             d=dst)
        for msg in ("add", "sub", "mul", "div"):
            case(g + "send_ue_recv",
                 f"paddle.geometric.send_ue_recv(x, e, s, d, '{msg}', '{red}')", x=x,
                 e=e if msg != "div" else T("float32", [8, 3], 0.5, 2.0), s=src, d=dst)
    case(g + "send_ue_recv", "paddle.geometric.send_ue_recv(x, e, s, d, out_size=3)", x=x,
         e=e, s=src, d=dst)
    case(g + "send_ue_recv", "paddle.geometric.send_ue_recv(x, e, s, d)", tag="int32 index",
         x=x, e=T("float32", [8, 1]), s=T("int32", [8], values=src["values"]),
         d=T("int32", [8], values=dst["values"]))
    case(g + "send_ue_recv", "paddle.geometric.send_ue_recv(x, e, s, d, reduce_op='prod')",
         x=x, e=e, s=src, d=dst)
    case(g + "send_uv", "paddle.geometric.send_uv(x, y, s, d, 'mul')", x=x,
         y=T("float32", [5, 3]), s=src, d=dst)
    seg = T("int64", [6], values=[0, 0, 1, 3, 3, 3])
    for red in ("sum", "mean", "max", "min"):
        case(g + f"segment_{red}", f"paddle.geometric.segment_{red}(x, s)",
             x=T("float32", [6, 3]), s=seg)

    a = "paddle.audio.functional.get_window"
    for win in ("'hann'", "'hamming'", "'blackman'", "'bartlett'", "'triang'", "'bohman'",
                "'cosine'", "'nuttall'", "('tukey', 0.3)", "('kaiser', 6.0)",
                "('gaussian', 2.0)", "('general_gaussian', 1.5, 3.0)", "('exponential', None, 2.0)",
                "'taylor'", "'gaussian'", "'nope'"):
        for n, fft in ((8, True), (7, False)):
            case(a, f"paddle.audio.functional.get_window({win}, {n}, fftbins={fft})")
    case(a, "paddle.audio.functional.get_window('hann', 6, dtype='float32')")


def save():
    """Write the recorded cases to OUT (which the recorders built on this one set) and list
    the dropped ones."""
    with open(OUT, "w") as fh:
        json.dump({"paddle_version": paddle.__version__, "cases": CASES}, fh)
    print(f"wrote {len(CASES)} cases to {os.path.normpath(OUT)} "
          f"({os.path.getsize(OUT) / 1e6:.2f} MB)")
    for d in DROPPED:
        print("dropped", d)


def main():
    conv_cases()
    pool_cases()
    attention_cases()
    vision_cases()
    incubate_cases()
    quant_cases()
    save()


if __name__ == "__main__":
    main()
