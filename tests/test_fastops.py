"""The C operator slots (paddle_compat/framework/_fastops.c) against the pure-Python operators
they stand in for: for every operator, dtype pair, Python-number operand and basic index, the
two give the same dtype, shape, values and stop_gradient, or the same exception and message.
Also: they are installed where built, an override assigned by user code wins, gradients flow,
and (``bash run.sh tests-pure``, a step of .ci/run) the core suites pass with
PADDLE_COMPAT_PURE_PYTHON=1."""
import contextlib
import itertools
import operator
import os

import numpy as np
import pytest
import torch

import paddle_compat as paddle
from paddle_compat.framework.parameter import Parameter
from paddle_compat.framework.tensor import _FAST_SLOT_NAMES, Tensor, install_fast_slots

PURE = bool(os.environ.get("PADDLE_COMPAT_PURE_PYTHON"))

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
        # torch appends a C++ backtrace to some messages (an int too large for int64); its frames
        # depend on the native call depth, not on what was called
        return ("raises", type(e), str(e).split("\nException raised from ")[0])
    if isinstance(r, (list, tuple)):
        return ("seq", type(r), [outcome(lambda v=v: v) for v in r])
    if isinstance(r, torch.Tensor):
        return ("torch", str(r.dtype), r.detach().float().numpy().tolist())
    if not isinstance(r, Tensor):
        return ("value", type(r), r)
    t = r._t.detach()
    if t.dtype is torch.bfloat16 or t.dtype is torch.complex32:    # numpy has neither
        t = t.float() if t.dtype is torch.bfloat16 else t.to(torch.complex64)
    try:
        dtype = str(r.dtype)
    except KeyError:                # a torch dtype Paddle lacks (float16 * 1j gives complex32)
        dtype = str(r._t.dtype)
    return ("tensor", dtype, list(r.shape), t.numpy().tolist(), r.stop_gradient)


def same(a, b):
    if a[0] == "seq" and b[0] == "seq":
        return a[1] is b[1] and len(a[2]) == len(b[2]) and all(map(same, a[2], b[2]))
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
    numbers = [2, 2.5, -3, True, 1j, 0.3]     # 0.3: float64 ** 0.3 leaves the C slot
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
    cases += [(f"neg({a.dtype})", lambda a=a: -a) for a in tensors]
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


# ---------------------------------------------------------------------- Paddle functions (FastOp)
def fast_ops():
    """Every FastOp paddle_compat exposes, by where it is reached."""
    import paddle_compat.nn.functional as F
    from paddle_compat.framework.fastops import FastOp
    found = {}
    for where, ns in (("paddle", paddle), ("F", F), ("linalg", paddle.linalg),
                      ("Tensor", Tensor)):
        for name, v in list(vars(ns).items()):
            if isinstance(v, FastOp):
                found[f"{where}.{name}"] = v
    return found


def form_args(forms):
    """Argument tuples that hit each form's fast path, its edges, and its fallbacks."""
    f32 = paddle.to_tensor([[1.5, -2.0, 0.5], [3.0, 0.25, -1.0]])
    others = [f32.astype(d) for d in ("float64", "float16", "bfloat16", "int32", "int64",
                                      "bool")]
    g = paddle.to_tensor([[1.5, -2.0, 0.5], [3.0, 0.25, -1.0]], stop_gradient=False)
    p = paddle.create_parameter([2, 3], "float32",
                                default_initializer=paddle.nn.initializer.Assign(f32.numpy()))
    xs = [f32] + others + [g, p, paddle.to_tensor(2.0), paddle.zeros([0, 3])]
    args = [(x,) for x in xs] + [([1.0, 2.0],), (None,)]
    if "x_int" in forms:
        args += [(x, k) for x in xs[:3] for k in (-3, -2, -1, 0, 1, 2, 5)] + [(f32, True)]
    if "x_ints" in forms:
        args += [(x, s) for x in xs[:5] + xs[-1:] for s in (
            [3, 2], [6], [-1], (2, 3), [0, 3], [3, -1], [4, 5], [1, 0], [0, 1], [2, 3, 1],
            [2, 1, 3], [4, 2, 3], [-1, 2, 3], [3, 0], [], [True, 6], [2.0, 3],
            [paddle.to_tensor(3), 2])]
    if "xy" in forms:
        w = paddle.to_tensor([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0]])
        args += [(a, b) for a in xs[:6] for b in xs[:6]]
        args += [(f32, w), (w, f32), (f32, f32[0]), (f32, paddle.ones([4])), (f32, 2.0)]
    if "seq" in forms:
        i32 = others[3]
        args += [([f32, f32],), ((f32, f32),), ([f32],), ([f32, f32], 1), ([f32, f32], -1),
                 ([f32, f32], 3), ([f32, i32],), ([],), ([f32, 1.0],), ([f32, f32[0]],),
                 ([i32, i32], 0), ([others[5], others[5]],)]
    if "x_dtype" in forms:
        args += [(x, d) for x in xs[:3] for d in (
            "float64", "float32", "paddle.float16", paddle.int64, torch.int32, "bool", np.float64,
            "float", "bad", None, [1])]
    if "shape" in forms or "shape_value" in forms:
        shapes = ([2, 3], (2, 3), [], [0, 3], [2, -1], [2.0, 3], [paddle.to_tensor(2), 3], 5,
                  [True], np.array([2, 3]))
        args = [(s,) for s in shapes] + [(s, v) for s in shapes[:4] for v in (
            2.5, 3, True, "int32", "float64", None)] + [([2, 3], 2.5, "float64")]
    if "x_num" in forms:
        args += [(x, v) for x in xs for v in (
            2.0, 2, -1.5, 0, 3, 0.5, -0.0, float("nan"), float("inf"), 1e10, 2 ** 70, True, 1j,
            0.3, 1e300,                                        # not exact in float32 ("f32")
            np.float64(2.0), np.int64(2), paddle.to_tensor(2.0), None, "a")]
    if "int" in forms:
        args += [(6,), (0,), (1,), (-2,), (2 ** 70,), (True,), (2.5,), (np.int64(3),),
                 (paddle.to_tensor(3),), (2, 5), (5, 2), (1, 7, 2), (7, 1, -2), (1, 7, 0),
                 (3, None), (3, "int32"), (3, 4, "float64")]
    if "index" in forms:
        idx = [paddle.to_tensor(v, dtype=d) for v, d in (
            ([1, 0, 1], "int64"), ([1], "int32"), ([], "int64"), ([5], "int64"), ([-1], "int64"),
            (1, "int64"), ([[1], [0]], "int64"), ([[1, 0]], "int64"), ([1.0], "float32"),
            ([True], "bool"))]
        args += [(x, i) for x in xs[:3] + xs[-2:] for i in idx]
        args += [(f32, i, k) for i in idx for k in (0, 1, -1, 2, True, None)]
        args += [(f32, 1, idx[0]), (f32, 0, idx[1]), (f32, -1, idx[0]), (f32, 1, idx[5]),
                 (f32, 1, idx[6]), (f32, 2, idx[0]), (f32, idx[0], idx[0])]
    if "where" in forms:
        c = f32 > 0
        args += [(c, f32, f32 * 2.0), (c, f32, others[0]), (f32, f32, f32), (c, f32, 2.0),
                 (c, others[3], others[3]), (c[0], f32, f32)]
    return args


@needs_slots
def test_the_marked_functions_are_fast_ops():
    ops = fast_ops()
    for name in ("paddle.reshape", "paddle.concat", "paddle.tanh", "paddle.add",
                 "paddle.matmul", "paddle.sum", "paddle.where", "F.softmax", "Tensor.reshape",
                 "Tensor.sum", "Tensor.astype", "paddle.cast", "paddle.zeros", "paddle.full",
                 "paddle.zeros_like", "paddle.pow", "Tensor.pow", "paddle.scale", "Tensor.scale",
                 "paddle.full_like", "paddle.arange", "paddle.eye", "F.sigmoid", "F.relu",
                 "paddle.all", "Tensor.any", "Tensor.detach"):
        assert name in ops, name
    assert paddle.reshape is paddle.Tensor.reshape          # one FastOp per function


@needs_slots
def test_fast_ops_match_their_python_functions():
    cases = []
    for name, op in fast_ops().items():
        forms = op._impl._fast_path[0]
        for args in form_args(forms):
            cases.append((f"{name}{args!r}", lambda op=op, a=args: op(*a)))
            cases.append((f"{name}{args!r} py", lambda op=op, a=args: op._impl(*a)))
        if op._kw:
            for args in form_args(forms):
                if len(args) == 2:
                    kw = {op._kw: args[1]}
                    cases.append((f"{name} kw{args!r}", lambda op=op, a=args, k=kw: op(a[0], **k)))
                    cases.append((f"{name} kw{args!r} py",
                                  lambda op=op, a=args, k=kw: op._impl(a[0], **k)))
    assert len(cases) > 3000
    got = [outcome(c) for _, c in cases]
    for i, (name, _) in enumerate(cases):
        if "empty" in name and got[i][0] == "tensor":        # uninitialised values
            got[i] = got[i][:3] + ([],) + got[i][4:]
    bad = [cases[i][0] for i in range(0, len(cases), 2) if not same(got[i], got[i + 1])]
    assert bad == []


@needs_slots
@pytest.mark.parametrize("change", ["paddle float64", "torch float64", "torch default device",
                                    "paddle cpu again"])
def test_creation_fast_ops_follow_changed_defaults(change):
    old_torch = torch.get_default_dtype()
    calls = [(paddle.zeros, ([2, 3],)), (paddle.ones, ([4],)), (paddle.empty, ((2, 1),)),
             (paddle.full, ([2, 3], 2.5)), (paddle.zeros, (3,)), (paddle.arange, (5,)),
             (paddle.eye, (3,))]
    try:
        if change == "paddle float64":
            paddle.set_default_dtype("float64")
        elif change == "torch float64":
            torch.set_default_dtype(torch.float64)
        elif change == "torch default device":
            torch.set_default_device("meta")
        else:
            paddle.set_device("cpu")
        for op, args in calls:
            got, want = op(*args), op._impl(*args)
            assert (got.dtype, got.shape, got._t.device) == (want.dtype, want.shape,
                                                             want._t.device), op.__name__
    finally:
        paddle.set_default_dtype("float32")
        torch.set_default_dtype(old_torch)
        if change == "torch default device":
            torch.set_default_device(None)


@needs_slots
def test_fast_ops_keep_what_a_function_has():
    import inspect
    import pickle
    op = paddle.reshape
    assert op.__name__ == "reshape" and op.__doc__ == op._impl.__doc__
    assert str(inspect.signature(op)) == str(inspect.signature(op._impl))
    assert pickle.loads(pickle.dumps(op)) is getattr(op._impl, "__wrapped__", op._impl)
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    bound = x.reshape                                       # read as an attribute
    assert bound([4]).shape == [4]
    y = paddle.sum(paddle.reshape(x, [4]) * paddle.concat([x, x], 1).reshape([2, 4])[0])
    y.backward()
    t = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    torch.sum(t.reshape(4) * torch.cat([t, t], 1).reshape(2, 4)[0]).backward()
    np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy())


# torch < 2.13's dynamo cannot hash an object with its own __hash__ (a paddle dtype as a
# dict key, in astype): it breaks the graph there, which fullgraph refuses
@pytest.mark.skipif(torch.__version__ < "2.13",
                    reason="fullgraph over astype needs torch >= 2.13's dynamo")
def test_torch_compile_traces_paddle_code_through_the_fast_layers():
    """fullgraph=True fails on any graph break: the Python definitions must stay traceable."""
    dynamo = pytest.importorskip("torch._dynamo")

    def f(t):
        x = paddle.from_torch(t)
        s = x.shape
        y = paddle.reshape(x, [s[1], s[0]]) * 2.0 - x.T
        z = paddle.concat([y.reshape([6]), x.reshape([-1])]) + paddle.tanh(x).sum()
        w = paddle.where(x > 0, x, paddle.zeros_like(x)) + paddle.nn.functional.softmax(x)
        return paddle.to_torch(z.sum() + w.transpose([1, 0]).T.mean(axis=1).sum() + x[0, 1:].sum()
                               + paddle.zeros([2]).astype("float32").sum() + (-x).sum())

    t = torch.randn(2, 3)
    dynamo.reset()
    try:
        got = torch.compile(f, fullgraph=True, backend="eager")(t)
    finally:
        dynamo.reset()
    torch.testing.assert_close(got, f(t))
