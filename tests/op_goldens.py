"""Replaying the op goldens recorded from real Paddle (tests/goldens/ops_*.json) under
paddle_compat: what test_ops_math/nn/nn2 (and, reusing them, test_ops_more/nn3) share, and the
pieces test_ops_manip and test_ops_linalg share with them (error and gradient checks).

The case format is that of tools/goldens/opcase.py: ``inputs`` name -> {dtype, shape, values};
``grad``: the names made ``stop_gradient=False``; ``call``: the expression (after ``pre``, the
statements it needs, unless ``ref`` says the golden came from a reference composition);
``expected``: a tensor {dtype, shape, values}, ``{"tuple": [...]}``, ``{"py": value}`` or
``{"error", "message"}``; ``weights`` and ``grads``: the gradient of sum(out_k * weight_k) over
the float32/float64 outputs w.r.t. each name in ``grad`` (null where Paddle gives none).
"""
import json
import os

import numpy as np
import pytest
import torch

import paddle_compat as paddle

FLOATS = ("float16", "bfloat16", "float32", "float64")
TORCH_DTYPES = {
    "bool": torch.bool, "int8": torch.int8, "uint8": torch.uint8, "int16": torch.int16,
    "int32": torch.int32, "int64": torch.int64, "float16": torch.float16,
    "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64,
}


GOLDEN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "goldens")


def load_cases(name):
    """The cases recorded in tests/goldens/``name``."""
    with open(os.path.join(GOLDEN_DIR, name)) as f:
        return json.load(f)["cases"]


def each_case(cases):
    """``pytest.mark.parametrize`` over ``cases`` as ``case``, each named by its id."""
    return pytest.mark.parametrize("case", cases, ids=[c["id"] for c in cases])


def known_difference_test(known, cases, run):
    """The test over ``known`` ({id: (what, reason)}): a "skip" entry skips with its reason,
    any other replays the case's result without its gradients through ``run``."""
    @pytest.mark.parametrize("cid", sorted(known), ids=sorted(known))
    def test_known_difference(cid):
        what, reason = known[cid]
        if what == "skip":
            pytest.skip(reason)
        run(next(c for c in cases if c["id"] == cid), grads=False)
    return test_known_difference


def build(spec):
    """The torch tensor holding exactly the recorded values."""
    dt = spec["dtype"]
    src = torch.float64 if dt in FLOATS else (torch.bool if dt == "bool" else torch.int64)
    return torch.tensor(spec["values"], dtype=src).reshape(spec["shape"]).to(TORCH_DTYPES[dt])


def make_env(case, **names):
    """The namespace a case's code runs in: ``paddle``, ``np``, ``names`` and the inputs as
    Tensors (those in ``grad`` with ``stop_gradient=False``)."""
    env = {"paddle": paddle, "np": np, **names}
    for name, spec in case["inputs"].items():
        x = paddle.to_tensor(build(spec))
        if name in case["grad"]:
            x.stop_gradient = False
        env[name] = x
    return env


def check_tensor(got, exp, tol, what="result"):
    """``got`` is a Tensor of the golden's dtype and shape; float and complex values agree
    within ``tol`` ({dtype: (rtol, atol)}, or one (rtol, atol) for every dtype), the others
    exactly."""
    assert isinstance(got, paddle.Tensor), f"{what}: expected a Tensor, got {type(got).__name__}"
    dt = exp["dtype"]
    assert got.dtype.name == dt, f"{what}: dtype {got.dtype.name} != {dt}"
    assert list(got.shape) == exp["shape"], f"{what}: shape {list(got.shape)} != {exp['shape']}"
    t = got._t.detach().cpu()
    if dt.startswith("complex"):
        want = np.array([complex(*v) for v in exp["values"]])
        have = t.resolve_conj().numpy().reshape(-1)
    elif dt in FLOATS:
        want = np.array(exp["values"], dtype=np.float64)
        have = t.to(torch.float64).numpy().reshape(-1)
    else:
        np.testing.assert_array_equal(t.numpy().reshape(-1), np.array(exp["values"]),
                                      err_msg=what)
        return
    if isinstance(tol, dict):
        assert dt in tol, f"{what}: no tolerance for {dt}"
        tol = tol[dt]
    rtol, atol = tol
    np.testing.assert_allclose(have, want, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)


def check_result(got, exp, tol, what="result", py_type=True):
    """A (nested) result against its golden; Python values compare equal (and, with
    ``py_type``, of the same type)."""
    if "tuple" in exp:
        assert isinstance(got, (tuple, list)), f"{what}: expected a tuple, got {type(got).__name__}"
        assert len(got) == len(exp["tuple"]), f"{what}: {len(got)} results"
        for i, (g, e) in enumerate(zip(got, exp["tuple"])):
            check_result(g, e, tol, f"{what}[{i}]", py_type)
    elif "py" in exp:
        if py_type:
            assert not isinstance(got, paddle.Tensor), f"{what}: expected a Python value"
            assert type(got) is type(exp["py"]), f"{what}: {got!r} != {exp['py']!r}"
        assert got == exp["py"], f"{what}: {got!r} != {exp['py']!r}"
    else:
        check_tensor(got, exp, tol, what)


def tensor_outputs(r):
    """The Tensors in a result, in order."""
    if isinstance(r, paddle.Tensor):
        return [r]
    if isinstance(r, (tuple, list)):
        return [t for v in r for t in tensor_outputs(v)]
    return []


def expect_error(name, run, paddle_said=""):
    """``run()`` raises an exception whose type is called ``name`` (Paddle's)."""
    with pytest.raises(Exception) as info:
        run()
    assert type(info.value).__name__ == name, (
        f"raised {type(info.value).__name__}: {info.value}; Paddle raised {name}"
        + (f": {paddle_said}" if paddle_said else ""))


def check_grads(loss, named_leaves, wants, check, skip=(), zero_fill=True):
    """The gradients of ``loss`` w.r.t. the torch leaves ``named_leaves`` [(name, leaf)] against
    ``wants`` {name: golden or None}: where Paddle has none ours is none or zero; else
    ``check(name, grad, golden)`` (no gradient at all counts as zeros with ``zero_fill``, and
    fails without). Names in ``skip`` are not compared."""
    grads = torch.autograd.grad(loss, [t for _, t in named_leaves], allow_unused=True)
    for (n, t), g in zip(named_leaves, grads):
        if n in skip:
            continue
        want = wants[n]
        if want is None:
            assert g is None or not g.any(), f"grad {n}: Paddle has none"
            continue
        if zero_fill and (g is None or g._is_zerotensor()):
            g = torch.zeros_like(t)
        assert g is not None, f"grad {n}: ours is none"
        check(n, g, want)


def missing_kernel(exp):
    """Paddle's CPU build lacks a kernel for this dtype (float16 abs, bool cumsum ...): a gap of
    that build, not of the API. We may compute a result with torch or raise RuntimeError."""
    return exp.get("error") == "RuntimeError" and "is not registered" in exp["message"]


def run_case(case, env, tol, grad_tol, grads=True, allow_missing_kernel=False):
    """Replay a case in ``env`` (make_env): the result against ``expected`` with ``tol``, an
    in-place op's identity, and (with ``grads``) the gradients with ``grad_tol``. With
    ``allow_missing_kernel``, where Paddle had no kernel we may raise RuntimeError or compute."""
    exp = case["expected"]
    if allow_missing_kernel and missing_kernel(exp):
        try:
            eval(case["call"], env)
        except RuntimeError:
            pass
        return
    if "pre" in case and "ref" not in case:
        exec(case["pre"], env)
    if "error" in exp:
        expect_error(exp["error"], lambda: eval(case["call"], env), exp.get("message", ""))
        return
    got = eval(case["call"], env)
    check_result(got, exp, tol)
    if case.get("inplace"):
        assert got is env[next(iter(case["inputs"]))], "an in-place op returns its input"
    if grads and case.get("grads"):
        outs = [o for o in tensor_outputs(got) if not o.stop_gradient
                and o.dtype.name in ("float32", "float64")]
        assert len(outs) == len(case["weights"]), f"{len(outs)} float outputs"
        loss = sum((o._t * build(w)).sum() for o, w in zip(outs, case["weights"]))
        check_grads(loss, [(n, env[n]._t) for n in case["grad"]], case["grads"],
                    lambda n, g, want: check_tensor(paddle.Tensor(g), want, grad_tol,
                                                    f"grad {n}"))
