"""The C operator slots (paddle_compat/framework/_fastops.c) against the pure-Python operators
they stand in for: for every operator, dtype pair, Python-number operand and basic index, the
two give the same dtype, shape, values and stop_gradient, or the same exception and message.
Also: they are installed where built, an override assigned by user code wins, gradients flow,
and the core suites pass with PADDLE_COMPAT_PURE_PYTHON=1 (a subprocess)."""
import contextlib
import itertools
import operator
import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import paddle_compat as paddle
from paddle_compat.framework.parameter import Parameter
from paddle_compat.framework.tensor import _FAST_SLOT_NAMES, Tensor, install_fast_slots

PURE = bool(os.environ.get("PADDLE_COMPAT_PURE_PYTHON"))
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

try:
    from paddle_compat.framework import _fastops
except ImportError:
    _fastops = None

needs_slots = pytest.mark.skipif(PURE, reason="PADDLE_COMPAT_PURE_PYTHON is set")


@contextlib.contextmanager
def pure_slots():
    """Tensor's operators as the pure-Python methods (what CPython does without _fastops)."""
    for name in _FAST_SLOT_NAMES:
        setattr(Tensor, name, Tensor.__dict__[name])       # resets the slot to the method
    try:
        yield
    finally:
        if not PURE:
            install_fast_slots(Parameter)


def outcome(fn):
    """What a user sees: (dtype, shape, values, stop_gradient) or (exception type, message)."""
    try:
        r = fn()
    except Exception as e:  # noqa: BLE001  the exception is the outcome
        return ("raises", type(e), str(e))
    if isinstance(r, torch.Tensor):
        return ("torch", str(r.dtype), r.detach().float().numpy().tolist())
    if not isinstance(r, Tensor):
        return ("value", type(r), r)
    t = r._t.detach()
    if t.dtype is torch.bfloat16:
        t = t.float()
    return ("tensor", str(r.dtype), list(r.shape), t.numpy().tolist(), r.stop_gradient)


def same(a, b):
    if a[0] != "tensor" or b[0] != "tensor":
        return a == b
    return a[:3] == b[:3] and a[4] == b[4] and np.array_equal(
        np.asarray(a[3]), np.asarray(b[3]), equal_nan=True)


BINARY = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
          operator.mod, operator.pow, operator.matmul, operator.and_, operator.or_,
          operator.xor, operator.lshift, operator.rshift, operator.eq, operator.ne,
          operator.lt, operator.le, operator.gt, operator.ge]

DTYPES = ["float32", "float64", "float16", "bfloat16", "int32", "int64", "uint8", "bool",
          "complex64"]


def operand(dtype, requires_grad=False):
    x = paddle.to_tensor([[1.5, -2.0], [3.0, 0.5]]).astype(dtype)
    if requires_grad and dtype.startswith("float"):
        x.stop_gradient = False
    return x


def operands():
    tensors = [operand(d) for d in DTYPES] + [operand("float32", True)]
    numbers = [2, 2.5, -3, True, 1j]
    return tensors, numbers


def compare_all(cases):
    """Run every case with the C slots, then with the pure-Python ones; list the mismatches."""
    fast = [outcome(c) for _, c in cases]
    with pure_slots():
        slow = [outcome(c) for _, c in cases]
    return [(name, f, s) for (name, _), f, s in zip(cases, fast, slow) if not same(f, s)]


@needs_slots
def test_installed_where_built():
    assert _fastops is not None, (
        "the C operator slots are not built: `python setup.py build_ext --inplace` builds them "
        "(or set PADDLE_COMPAT_PURE_PYTHON=1 to test the pure-Python operators)")
    assert _fastops.installed(Tensor) and _fastops.installed(Parameter)


def test_binary_operators_match_pure_python():
    tensors, numbers = operands()
    cases = []
    for op in BINARY:
        for a, b in itertools.product(tensors, tensors):
            cases.append((f"{op.__name__}({a.dtype}, {b.dtype})", lambda op=op, a=a, b=b: op(a, b)))
        for a, n in itertools.product(tensors, numbers):
            cases.append((f"{op.__name__}({a.dtype}, {n!r})", lambda op=op, a=a, n=n: op(a, n)))
            cases.append((f"{op.__name__}({n!r}, {a.dtype})", lambda op=op, a=a, n=n: op(n, a)))
    assert len(cases) > 2000
    assert compare_all(cases) == []


def test_other_operands_match_pure_python():
    x = operand("float32")
    p = paddle.create_parameter([2, 2], "float32")
    others = [np.ones((2, 2), np.float32), np.float64(2.0), torch.ones(2, 2), None, "a",
              [1.0, 2.0], p, paddle.to_tensor(2.0), paddle.to_tensor(3)]
    cases = []
    for op in BINARY:
        for o in others:
            cases.append((f"{op.__name__}(x, {type(o).__name__})", lambda op=op, o=o: op(x, o)))
            cases.append((f"{op.__name__}({type(o).__name__}, x)", lambda op=op, o=o: op(o, x)))
        cases.append((f"{op.__name__}(p, p)", lambda op=op: op(p, p)))
    assert compare_all(cases) == []


def test_basic_indexing_matches_pure_python():
    x = paddle.arange(24, dtype="float32").reshape([2, 3, 4])
    keys = [0, -1, 1, 5, slice(None), slice(1, None), slice(None, -1), slice(-2, 3),
            (0, 1), (0, slice(1, 3)), (slice(None), 2), (None, 0), (Ellipsis, 1),
            (0, Ellipsis, slice(None, 2)), (Ellipsis, Ellipsis), (), None, Ellipsis,
            (slice(None), None, 1), (0, 0, 0, 0), slice(None, None, 2), slice(None, None, -1),
            [0, 1], (0, [1, 2]), True, (slice(None), False), np.int64(1),
            slice(paddle.to_tensor(1), None), slice(1.5, None)]
    cases = [(repr(k), lambda k=k: x[k]) for k in keys]
    assert compare_all(cases) == []


def test_gradients_through_the_slots():
    a = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    b = paddle.to_tensor([[0.5, -1.0], [2.0, 1.0]], stop_gradient=False)
    y = ((a * b + 2.0 - a / b) @ b)[0] * 3.0 + (1.0 - a[:, 1:]).sum()
    y.sum().backward()
    ga, gb = a.grad.numpy(), b.grad.numpy()
    ta = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    tb = torch.tensor([[0.5, -1.0], [2.0, 1.0]], requires_grad=True)
    ty = ((ta * tb + 2.0 - ta / tb) @ tb)[0] * 3.0 + (1.0 - ta[:, 1:]).sum()
    ty.sum().backward()
    np.testing.assert_allclose(ga, ta.grad.numpy(), rtol=1e-6)
    np.testing.assert_allclose(gb, tb.grad.numpy(), rtol=1e-6)


def test_an_override_assigned_later_wins():
    x = operand("float32")
    original = Tensor.__dict__["__mul__"]
    try:
        Tensor.__mul__ = lambda self, other: "overridden"
        assert x * x == "overridden"
        assert paddle.create_parameter([1], "float32") * x == "overridden"
    finally:
        Tensor.__mul__ = original
        if not PURE:
            install_fast_slots(Parameter)
    assert isinstance(x * x, Tensor)


def test_static_mode_operators():
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            a = paddle.static.data("a", [2, 2], "float32")
            b = paddle.static.data("b", [2, 2], "float32")
            out = (a * b + 1.0)[0] - (a < b).astype("float32")[1]
        exe = paddle.static.Executor()
        av = np.array([[1, 2], [3, 4]], np.float32)
        bv = np.array([[2, 1], [5, 0]], np.float32)
        r, = exe.run(main, feed={"a": av, "b": bv}, fetch_list=[out])
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(r, (av * bv + 1.0)[0] - (av < bv).astype(np.float32)[1])


PURE_SUITES = ["test_tensor.py", "test_promotion.py", "test_indexing.py", "test_static.py",
               "test_pylayer_compile.py", "test_core_goldens.py", "test_interop.py",
               "test_fastops.py"]


@pytest.mark.skipif(PURE, reason="this is the pure-Python run itself")
def test_core_suites_pass_without_the_slots():
    env = dict(os.environ, PADDLE_COMPAT_PURE_PYTHON="1")
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider"] +
                       [os.path.join("tests", f) for f in PURE_SUITES],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
