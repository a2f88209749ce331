"""Record Paddle 3.3.1's Tensor methods and attributes that Paddle 3 added under torch's names
(and the dtype conversions) as goldens for tests/test_tensor_methods.py: ``x.float()`` ...
``x.complex128()``, ``type_as``, ``requires_grad``/``requires_grad_``, ``device``, ``is_cuda``,
``data``, ``itemsize``, ``stride``/``strides``/``offset``/``get_strides``, ``is_contiguous``,
``contiguous``, ``new_zeros``/``new_ones``/``new_full``/``new_empty``, ``is_same_shape``,
``get_device``, ``inplace_version``, ``apply``/``apply_``, and the op aliases ``clamp``,
``eq`` ... ``le``, ``mul``/``div``/``sub`` (and in place), ``true_divide``, ``permute``,
``swapaxes``, ``ravel``, ``narrow``, ``repeat``, ``split_with_sizes``, ``take_along_dim``,
``argwhere``, ``msort``, ``scatter_add``/``scatter_reduce``, ``view_as_complex``/``view_as_real``,
``block_diag``, ``broadcast_tensors``/``broadcast_shape(s)``, ``is_tensor``, ``multinomial``,
``baddbmm_``, ``copy_``, ``resize_``, ``random_``, ``gradient``, and the dtype names
``paddle.float``/``double``/``half``/``cfloat``/``cdouble`` (recorded under the conversions).

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_tensor_methods.py

The case format and helpers are those of record_ops_nn2.py. Attributes are recorded through
small expressions that return Python values (``x.stride()``, ``x.device == 'cpu'``). In-place
methods are recorded as ``(x.m_(...) is x, x)`` on inputs that stop gradient: the result is the
same object and the input changed. A case whose result is a Python value keeps no gradient
list, so where it needs an input that does not stop gradient it says so in ``pre`` (``SG``).
``random_`` is recorded through its dtype, range and identity (its draws are Paddle's own).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import record_ops_nn2 as base  # noqa: E402  (its helpers: T, case, the Paddle env)

base.rng = np.random.default_rng(20251122)
base.OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests",
                        "goldens", "tensor_methods.json")
T, LOWP = base.T, base.LOWP
TA = "paddle.Tensor."
SG = "x.stop_gradient = False"    # set in pre where the result is a Python value (no grads kept)


def case(name, call, **kw):
    """``base.case`` for ``paddle.Tensor.<name>``."""
    if os.environ.get("TRACE"):
        print(name, kw.get("tag") or call, file=sys.stderr, flush=True)
    base.case(TA + name, call, **kw)


def INT(dtype, shape, lo=-9, hi=10):
    return T(dtype, shape, ints=(lo, hi))


def B(shape):
    return T("bool", shape, ints=(0, 2))


ALL = ("float16", "bfloat16", "float32", "float64", "int8", "uint8", "int16", "int32", "int64",
       "bool")


def spec(dt, shape):
    if dt in ("float16", "bfloat16", "float32", "float64"):
        return T(dt, shape, -3.0, 3.0)
    if dt == "bool":
        return B(shape)
    if dt == "uint8":
        return INT(dt, shape, 0, 200)
    return INT(dt, shape)


# ---------------------------------------------------------------------------- dtype casts
CASTS = ("float", "double", "half", "bfloat16", "int", "long", "short", "char", "byte", "bool",
         "cfloat", "cdouble", "float16", "float32", "float64", "int8", "int16", "int32",
         "int64", "uint8", "complex64", "complex128")


def cast_cases():
    for m in CASTS:
        for dt in ("float32", "float64", "int64", "bool"):
            case(m, f"x.{m}()", tag=dt, x=spec(dt, [2, 3]))
        case(m, f"x.{m}()", tag="0-d", x=T("float32", []))
        case(m, f"x.{m}()", tag="empty", x=T("float32", [0, 2]))
        case(m, f"x.{m}().stop_gradient", tag="stop_gradient", x=T("float32", [2]), pre=SG)
        case(m, f"x.{m}().stop_gradient", tag="stop_gradient int64", x=INT("int64", [2]),
             pre=SG)
        case(m, f"x.{m}() is x", tag="identity", x=T("float32", [2]), grad=False)
    for m in ("int", "long", "byte", "char", "short"):
        case(m, f"x.{m}()", tag="truncation", x=T("float32", [6], values=[-2.7, -0.5, 0.5, 1.9,
                                                                          3.0, 100.2]))
    for dt in LOWP:
        case("float", "x.float()", tag=dt, x=T(dt, [3]))
    case("float", "x.cfloat().float()", tag="complex", x=T("float32", [3]))
    case("double", "x.double()", tag="int32", x=INT("int32", [3]))

    case("type_as", "x.type_as(y)", x=T("float32", [2, 3]), y=INT("int64", [1]))
    for xd, yd in (("float32", "float64"), ("int32", "float32"), ("float64", "bool"),
                   ("float32", "float32"), ("bool", "int16")):
        case("type_as", "x.type_as(y)", tag=f"{xd} as {yd}", x=spec(xd, [3]), y=spec(yd, [2]))
    case("type_as", "x.type_as(y)", tag="0-d", x=T("float64", []), y=T("float32", [2]))
    case("type_as", "x.type_as(other=y)", tag="keyword", x=T("float64", [2]), y=T("float32", []))


# ---------------------------------------------------------------------------- attributes
def attribute_cases():
    x = T("float32", [2, 3])
    case("requires_grad", "x.requires_grad", x=x, grad=False)
    case("requires_grad", "x.requires_grad", tag="not stop_gradient", x=x, pre=SG)
    case("requires_grad", "(x * 2).requires_grad", tag="intermediate", x=x, pre=SG)
    case("requires_grad", "x.requires_grad", tag="int64 not stop_gradient", x=INT("int64", [2]),
         pre=SG)
    case("requires_grad", "set_rg(x, True)", tag="set True", x=x, grad=False,
         pre="def set_rg(t, v):\n    t.requires_grad = v\n    return t.stop_gradient, t.requires_grad")
    case("requires_grad", "set_rg(x, False)", tag="set False", x=x,
         pre=SG + "\ndef set_rg(t, v):\n    t.requires_grad = v\n    return t.stop_gradient, t.requires_grad")
    case("requires_grad", "set_rg(x, True)", tag="set True int", x=INT("int64", [2]),
         pre="def set_rg(t, v):\n    t.requires_grad = v\n    return t.stop_gradient, t.requires_grad")
    case("requires_grad_", "(x.requires_grad_() is x, x.stop_gradient)", x=x, grad=False)
    case("requires_grad_", "(x.requires_grad_(False) is x, x.stop_gradient)", x=x, pre=SG)
    case("requires_grad_", "(x.requires_grad_(requires_grad=True), x.stop_gradient)",
         tag="keyword", x=x, grad=False)
    case("requires_grad_", "(x.requires_grad_(), x.stop_gradient)", tag="int64",
         x=INT("int64", [3]))
    case("requires_grad_", "x.requires_grad_(1)", tag="int argument", x=x, grad=False)
    case("requires_grad_", "x.requires_grad_(None)", tag="None", x=x, grad=False)
    case("requires_grad_", "(x.requires_grad_() * 3).sum()", tag="then grad", x=x, grad=False)

    for dt in ("float32", "int8", "int16", "int64", "bool", "float16", "bfloat16", "float64",
               "uint8"):
        case("itemsize", "x.itemsize", tag=dt, x=spec(dt, [2]))
    case("itemsize", "x.cdouble().itemsize", tag="complex128", x=x)
    case("itemsize", "x.cfloat().itemsize", tag="complex64", x=x)

    case("device", "x.device == 'cpu'", x=x)
    case("device", "str(x.device) == 'cpu' and isinstance(x.device, str)", tag="str", x=x)
    case("is_cuda", "x.is_cuda", x=x)
    case("get_device", "x.get_device()", x=x)
    case("get_device", "x.get_device()", tag="int", x=INT("int32", []))

    case("data", "x.data", x=x)
    case("data", "(x.data.stop_gradient, x.data is x)", tag="identity", x=x)
    case("data", "d.stop_gradient", tag="detached", x=x, pre="d = x.data")
    case("data", "share(x)", tag="shares memory", x=x, grad=False,
         pre="def share(t):\n    d = t.data\n    d[0] = 5.0\n    return t")
    case("data", "set_data(x, y)", tag="setter", x=x, y=T("float32", [4]),
         pre="def set_data(t, v):\n    t.data = v\n    return t, t.stop_gradient")
    case("data", "set_data(x, y)", tag="setter dtype", x=x, y=INT("int32", [2]),
         pre=SG + "\ndef set_data(t, v):\n    t.data = v\n    return t, t.stop_gradient")
    case("data_ptr", "isinstance(x.data_ptr(), int) and x.data_ptr() == x.data.data_ptr()",
         x=x)

    y = T("float32", [2, 3, 4])
    for call in ("x.stride()", "x.stride(0)", "x.stride(-1)", "x.stride(dim=1)", "x.stride(3)",
                 "x.stride(-4)", "x.strides", "x.get_strides()", "x.offset",
                 "x.is_contiguous()", "x[1].offset", "x[:, 1].offset", "x[1].stride()",
                 "x.T.stride()", "x.T.is_contiguous()", "x.T.offset",
                 "x.transpose([1, 0, 2]).strides", "x.contiguous() is x",
                 "x.T.contiguous().stride()", "x.T.contiguous()",
                 "x.T.contiguous().is_contiguous()", "x[:, :, 1:3].offset"):
        case("stride" if "stride(" in call else call.split(".")[-1].split("(")[0]
             if "offset" not in call else "offset", call, x=y)
    case("stride", "x.stride()", tag="0-d", x=T("float32", []))
    case("strides", "x.strides", tag="0-d", x=T("float32", []))
    case("offset", "x[1].offset", tag="float64", x=T("float64", [3, 2]))
    case("offset", "x[2].offset", tag="int16", x=INT("int16", [4]))
    case("contiguous", "x.contiguous()", tag="value", x=T("float32", [3]))

    case("is_same_shape", "x.is_same_shape(y)", x=x, y=T("float32", [2, 3]))
    case("is_same_shape", "x.is_same_shape(y)", tag="different", x=x, y=T("float32", [3, 2]))
    case("is_same_shape", "x.is_same_shape(y)", tag="dtype", x=x, y=INT("int32", [2, 3]))
    case("is_same_shape", "x.is_same_shape(y)", tag="0-d", x=T("float32", []),
         y=T("float32", [1]))

    case("inplace_version", "x.inplace_version", x=x)
    case("inplace_version", "bump2(x)", tag="after add_", x=x, grad=False,
         pre="def bump2(t):\n    t.add_(t)\n    t.multiply_(t)\n    return t.inplace_version")
    case("inplace_version", "bump(x)", tag="after scale_", x=x, grad=False,
         pre="def bump(t):\n    t.scale_(2.0)\n    t.add_(t)\n    return t.inplace_version")

    for m in ("new_zeros", "new_ones", "new_empty"):
        for call in (f"x.{m}([2, 3])", f"x.{m}((2,))", f"x.{m}(3)", f"x.{m}([])",
                     f"x.{m}([2], dtype='int32')", f"x.{m}([2], dtype=paddle.float64)",
                     f"x.{m}([2], requires_grad=True).stop_gradient",
                     f"x.{m}([2]).stop_gradient", f"x.{m}([0, 2])",
                     f"x.{m}(size=[1, 2])"):
            if m == "new_empty" and "stop_gradient" not in call:
                call = f"({call}).shape, ({call}).dtype == x.dtype"
            case(m, call, x=x)
        case(m, f"x.{m}([2])" if m != "new_empty" else f"x.{m}([2]).dtype == paddle.int64",
             tag="int x",
             x=INT("int64", [3]))
    for call in ("x.new_full([2, 3], 5.0)", "x.new_full([2], 3)", "x.new_full((2,), -1.5)",
                 "x.new_full([], 2.0)", "x.new_full([2], True)",
                 "x.new_full([2], 7, dtype='int64')", "x.new_full([2], v)",
                 "x.new_full([2], 1.0, requires_grad=True).stop_gradient",
                 "x.new_full(size=[1], fill_value=4.0)"):
        case("new_full", call, x=x, v=T("float32", [], values=[2.5]), nograd=("v",))
    case("new_full", "x.new_full([2], 2.7)", tag="int x", x=INT("int32", [3]))

    case("apply", "x.apply(lambda t: t * 2)", x=x, grad=False)
    case("apply", "(x.apply(lambda t: t * 2) is x, x)", tag="x unchanged", x=x, grad=False)
    case("apply", "x.apply(lambda t: t * 2)", tag="requires grad", x=x)
    case("apply", "x.apply(lambda t: t.astype('int32'))", tag="dtype change", x=x, grad=False)
    case("apply_", "(x.apply_(lambda t: t + 1) is x, x)", x=x, grad=False)
    case("apply_", "x.apply_(lambda t: t * 2)", tag="requires grad", x=x)


# ---------------------------------------------------------------------------- op aliases
def compare_cases():
    for m in ("eq", "ne", "gt", "ge", "lt", "le", "greater"):
        x = INT("float32", [2, 3], -2, 3)
        case(m, f"x.{m}(y)", x=x, y=INT("float32", [2, 3], -2, 3))
        case(m, f"x.{m}(y)", tag="broadcast", x=x, y=INT("float32", [3], -2, 3))
        case(m, f"x.{m}(y)", tag="int64", x=INT("int64", [4], -2, 3), y=INT("int64", [4], -2, 3))
        case(m, f"x.{m}(y)", tag="mixed dtypes", x=INT("int32", [4], -2, 3),
             y=INT("float32", [4], -2, 3))
        case(m, f"x.{m}(1.0)", tag="scalar", x=x)
        case(m, f"x.{m}(y)", tag="0-d", x=T("float64", []), y=T("float64", []))
        case(m, f"x.{m}(y)", tag="bool", x=B([4]), y=B([4]))
        case(m, f"x.{m}(y)", tag="bad broadcast", x=x, y=T("float32", [2]))
        case(m, f"paddle.{m}(x, y)", tag="function", x=x, y=INT("float32", [2, 3], -2, 3))
        case(m, f"paddle.{m}(x, y).stop_gradient", tag="stop_gradient", x=x,
             y=INT("float32", [2, 3], -2, 3))


def arith_cases():
    for m, fn in (("mul", "paddle.mul"), ("div", "paddle.divide"), ("sub", "paddle.subtract"),
                  ("true_divide", "paddle.true_divide")):
        x, y = T("float32", [2, 3]), T("float32", [2, 3], 0.5, 2.0)
        case(m, f"x.{m}(y)", x=x, y=y)
        case(m, f"x.{m}(y)", tag="broadcast", x=x, y=T("float32", [3], 0.5, 2.0))
        case(m, f"x.{m}(y)", tag="float64", x=T("float64", [3]), y=T("float64", [3], 0.5, 2.0))
        case(m, f"x.{m}(y)", tag="int64", x=INT("int64", [4]), y=INT("int64", [4], 1, 5))
        case(m, f"x.{m}(y)", tag="mixed", x=INT("int32", [3]), y=T("float32", [3], 0.5, 2.0))
        case(m, f"x.{m}(y)", tag="0-d", x=T("float32", []), y=T("float32", [], 0.5, 2.0))
        case(m, f"x.{m}(y)", tag="bad shapes", x=x, y=T("float32", [2]))
        for dt in LOWP:
            case(m, f"x.{m}(y)", tag=dt, x=T(dt, [3]), y=T(dt, [3], 0.5, 2.0))
        case(m, f"{fn}(x, y)", tag="function", x=x, y=y)
    case("mul", "paddle.mul(x, y)", tag="top-level", x=T("float32", [3]), y=T("float32", [3]))
    case("div", "paddle.div(x, y)", tag="top-level", x=T("float32", [3]),
         y=T("float32", [3], 0.5, 2.0))
    case("sub", "paddle.sub(x, y)", tag="top-level", x=T("float32", [3]), y=T("float32", [3]))
    case("true_divide", "x.true_divide(other=y)", tag="keyword", x=T("float32", [3]),
         y=T("float32", [3], 0.5, 2.0))
    case("true_divide", "(paddle.true_divide(x, y, out=o), o)", tag="out", x=T("float32", [3]),
         y=T("float32", [3], 0.5, 2.0), o=T("float32", [3]), grad=False)
    for m in ("mul_", "div_", "sub_"):
        case(m, f"(x.{m}(y) is x, x)", x=T("float32", [2, 3]), y=T("float32", [2, 3], 0.5, 2.0),
             grad=False)
        case(m, f"(x.{m}(y) is x, x)", tag="broadcast y", x=T("float32", [2, 3]),
             y=T("float32", [3], 0.5, 2.0), grad=False)
        case(m, f"x.{m}(y)", tag="broadcast x", x=T("float32", [3]),
             y=T("float32", [2, 3], 0.5, 2.0), grad=False)
        case(m, f"x.{m}(y)", tag="leaf requires grad", x=T("float32", [3]),
             y=T("float32", [3], 0.5, 2.0))
        case(m, f"(x.{m}(y) is x, x)", tag="int64", x=INT("int64", [3]), y=INT("int64", [3], 1, 4))
        case(m, "(z, z.{m}(y) is z)".format(m=m), tag="grad through", x=T("float32", [3]),
             y=T("float32", [3], 0.5, 2.0), pre="z = x * 1.0")
    xf = T("float32", [6], values=[7.0, -7.0, 5.5, -5.5, 0.5, -0.25])
    yf = T("float32", [6], values=[2.0, 2.0, -2.0, 2.0, 3.0, 1.0])
    xi = T("int64", [5], values=[7, -7, 5, -5, 0])
    yi = T("int64", [5], values=[2, 2, -2, 3, 4])
    for mode in ("'trunc'", "'floor'", "None", "'bad'"):
        case("div", f"x.div(y, rounding_mode={mode})", tag=f"float {mode}", x=xf, y=yf)
        case("div", f"x.div(y, rounding_mode={mode})", tag=f"int64 {mode}", x=xi, y=yi)
        case("div_", f"(x.div_(y, rounding_mode={mode}) is x, x)", tag=f"int64 {mode}", x=xi,
             y=yi)
    case("div_", "(x.div_(y, rounding_mode='floor') is x, x)", tag="float floor", x=xf, y=yf,
         grad=False)
    case("div", "x.div(y, rounding_mode='floor')", tag="mixed floor", x=xi,
         y=T("float32", [5], values=[2.0, 2.0, -2.0, 3.0, 4.0]))
    case("div", "(x.div(y, out=o), o)", tag="out", x=xf, y=yf, o=T("float32", [6]), grad=False)
    case("div", "x.div(2.0)", tag="python number", x=xf)
    for call in ("x.sub(y, alpha=2)", "x.sub(y, alpha=0.5)", "x.sub(y, alpha=-1)",
                 "paddle.sub(x, y, alpha=3)", "x.sub(1.5)"):
        case("sub", call, x=xf, y=yf)
    case("sub", "x.sub(y, alpha=2)", tag="int64 alpha", x=xi, y=yi)
    case("sub", "x.sub(y, alpha=2)", tag="broadcast alpha", x=T("float32", [2, 3]),
         y=T("float32", [3]))
    case("sub_", "(x.sub_(y, alpha=2) is x, x)", tag="alpha", x=xf, y=yf, grad=False)
    case("sub_", "(x.sub_(y, alpha=2) is x, x)", tag="int64 alpha", x=xi, y=yi)
    case("mul", "(x.mul(y, out=o), o)", tag="out", x=xf, y=yf, o=T("float32", [6]), grad=False)
    case("mul", "x.mul(2)", tag="python number", x=xf)
    case("div_", "(paddle.div_(x, y) is x, x)", tag="function", x=T("float32", [3]),
         y=T("float32", [3], 0.5, 2.0), grad=False)
    case("sub_", "(paddle.sub_(x, y) is x, x)", tag="function", x=T("float32", [3]),
         y=T("float32", [3], 0.5, 2.0), grad=False)

    x = T("float32", [2, 4], -3, 3)
    for call in ("x.clamp(-1.0, 1.0)", "x.clamp(min=0.0)", "x.clamp(max=0.5)", "x.clamp()",
                 "x.clamp(1.0, -1.0)", "x.clamp(lo, hi)", "paddle.clamp(x, -0.5, 0.5)"):
        case("clamp", call, x=x, lo=T("float32", [], values=[-1.0]),
             hi=T("float32", [], values=[2.0]), nograd=("lo", "hi"))
    case("clamp", "x.clamp(-2, 3)", tag="int64", x=INT("int64", [5]))
    case("clamp", "x.clamp(-2.5, 3.5)", tag="int64 float bounds", x=INT("int64", [5]))
    case("clamp", "x.clamp(0.0, 1.0)", tag="0-d", x=T("float64", []))
    for dt in LOWP:
        case("clamp", "x.clamp(-1.0, 1.0)", tag=dt, x=T(dt, [4]))
    case("clamp_", "(x.clamp_(-1.0, 1.0) is x, x)", x=x, grad=False)
    case("clamp_", "(x.clamp_(min=0.0) is x, x)", tag="min only", x=x, grad=False)
    case("clamp_", "x.clamp_(-1.0, 1.0)", tag="leaf requires grad", x=x)
    case("clamp_", "(x.clamp_(-2, 2) is x, x)", tag="int64", x=INT("int64", [5]))


def manip_cases():
    x = T("float32", [2, 3, 4])
    for call in ("x.permute(2, 0, 1)", "x.permute([1, 0, 2])", "x.permute((0, 2, 1))",
                 "x.permute(dims=[2, 1, 0])", "x.permute(-1, 0, 1)", "x.permute(0, 1)",
                 "x.permute(0, 0, 1)", "paddle.permute(x, [2, 1, 0])",
                 "paddle.permute(x, 1, 0, 2)"):
        case("permute", call, x=x)
    case("permute", "x.permute()", tag="0-d", x=T("float32", []))
    case("permute", "x.permute(1, 0)", tag="int64", x=INT("int64", [2, 3]))
    for m in ("swapaxes", "swapdims"):
        for call in (f"x.{m}([1, 0, 2])", f"x.{m}(perm=[2, 1, 0])", f"x.{m}(0, 2)",
                     f"x.{m}(1, -1)", f"paddle.{m}(x, [0, 2, 1])", f"paddle.{m}(x, 0, 1)"):
            case(m, call, x=x)
    for call in ("x.ravel()", "paddle.ravel(x)"):
        case("ravel", call, x=x)
    case("ravel", "x.ravel()", tag="0-d", x=T("float32", []))
    case("ravel", "x.ravel()", tag="int32", x=INT("int32", [2, 2]))
    case("ravel", "x.T.ravel()", tag="non-contiguous", x=T("float32", [2, 3]))

    for call in ("x.narrow(1, 0, 2)", "x.narrow(2, 1, 3)", "x.narrow(-1, -2, 2)",
                 "x.narrow(0, 1, 1)", "x.narrow(1, 3, 0)", "x.narrow(1, s, 2)",
                 "x.narrow(dim=2, start=0, length=4)", "paddle.narrow(x, 0, 0, 1)",
                 "x.narrow(3, 0, 1)", "x.narrow(-4, 0, 1)", "x.narrow(1, 2, 2)",
                 "x.narrow(1, 4, 0)", "x.narrow(1, -4, 1)", "x.narrow(1, 0, -1)",
                 "x.narrow(1, f, 1)"):
        case("narrow", call, x=x, s=INT("int64", [], 1, 2), f=T("float32", [], values=[1.0]),
             nograd=("f",))
    case("narrow", "x.narrow(0, 0, 1)", tag="0-d", x=T("float32", []))
    case("narrow", "x.narrow(0, 1, 2)", tag="int64", x=INT("int64", [4]))

    y = T("float32", [2, 3])
    for call in ("x.repeat(2)", "x.repeat(2, 3)", "x.repeat([2, 3])", "x.repeat((1, 2))",
                 "x.repeat(2, 1, 2)", "x.repeat(1, 1)", "x.repeat(r)", "x.repeat(0, 2)",
                 "x.repeat(repeats=[2, 2])"):
        case("repeat", call, x=y, r=T("int32", [2], values=[2, 1]))
    case("repeat", "x.repeat(3)", tag="0-d", x=T("float32", []))
    case("repeat", "x.repeat(2, 2)", tag="int64", x=INT("int64", [3]))
    case("repeat", "x.repeat(2)", tag="bool", x=B([2]))

    x = T("float32", [4, 3])
    for call in ("x.split_with_sizes([1, 3])", "x.split_with_sizes([2, 1], dim=1)",
                 "x.split_with_sizes([4])", "x.split_with_sizes([0, 4])",
                 "x.split_with_sizes([1, 1, 1, 1])", "x.split_with_sizes([2, 1], 1)",
                 "x.split_with_sizes([1, 2])", "x.split_with_sizes([5, -1])",
                 "x.split_with_sizes((3, 1))", "x.split_with_sizes(split_sizes=[1, 2], dim=-1)"):
        case("split_with_sizes", call, x=x)
    case("split_with_sizes", "x.split_with_sizes([1, 1])", tag="int64", x=INT("int64", [2]))

    x = T("float32", [3, 4])
    idx = T("int64", [3, 2], values=[0, 3, 1, 1, 2, 0])
    for call in ("x.take_along_dim(i, 1)", "x.take_along_dim(i, axis=1)",
                 "x.take_along_dim(indices=i, dim=1)", "paddle.take_along_dim(x, i, 1)",
                 "x.take_along_dim(j, 0)", "x.take_along_dim(j, 0, broadcast=False)",
                 "x.take_along_dim(i, 2)"):
        case("take_along_dim", call, x=x, i=idx, j=T("int64", [1, 4], values=[2, 0, 1, 2]))


def search_cases():
    for call, x in (("x.argwhere()", T("float32", [3, 4], values=[0, 1, 0, 2, 0, 0, 3, 0, 1, 1,
                                                                   0, 0])),
                    ("paddle.argwhere(x)", INT("int64", [5], -1, 2)),
                    ("x.argwhere()", B([2, 2, 2]))):
        case("argwhere", call, x=x)
    case("argwhere", "x.argwhere()", tag="empty result", x=T("float32", [3], values=[0, 0, 0]))
    case("argwhere", "x.argwhere()", tag="0-d", x=T("float32", [], values=[1.0]))
    x = T("float32", [4, 3])
    for call in ("x.msort()", "paddle.msort(x)", "(paddle.msort(x, out=o), o)"):
        case("msort", call, x=x, o=T("float32", [4, 3]), nograd=("o",))
    case("msort", "x.msort()", tag="1-D int64", x=INT("int64", [6]))
    case("msort", "x.msort()", tag="0-d", x=T("float32", []))
    case("msort", "x.msort()", tag="float64 3-D", x=T("float64", [3, 2, 2]))


def scatter_cases():
    x = T("float32", [3, 4])
    src = T("float32", [2, 4])
    idx = T("int64", [2, 4], values=[0, 1, 2, 0, 2, 2, 1, 0])
    for call in ("x.scatter_add(0, i, s)", "paddle.scatter_add(x, 0, i, s)",
                 "x.scatter_add(1, j, s)", "x.scatter_add(dim=0, index=i, src=s)",
                 "x.scatter_add(0, k, s)"):
        case("scatter_add", call, x=x, i=idx, s=src, j=T("int64", [2, 2], values=[3, 0, 1, 1]),
             k=T("int64", [1, 2], values=[1, 2]))
    case("scatter_add", "x.scatter_add(0, i, s)", tag="int64",
         x=INT("int64", [3]), i=T("int64", [2], values=[2, 2]), s=INT("int64", [2]))
    case("scatter_add_", "(x.scatter_add_(0, i, s) is x, x)", x=x, i=idx, s=src, grad=False)
    case("scatter_add_", "(paddle.scatter_add_(x, 1, j, s) is x, x)", tag="function", x=x,
         j=T("int64", [2, 2], values=[3, 0, 1, 1]), s=src, grad=False)
    for red in ("sum", "prod", "mean", "amin", "amax"):
        for inc in (True, False):
            case("scatter_reduce",
                 f"x.scatter_reduce(0, i, s, '{red}', include_self={inc})", x=x, i=idx, s=src)
    case("scatter_reduce", "paddle.scatter_reduce(x, 0, i, s, reduce='sum')", tag="function",
         x=x, i=idx, s=src)
    case("scatter_reduce", "x.scatter_reduce(0, i, s, 'max')", tag="bad reduce",
         x=x, i=idx, s=src)
    case("scatter_reduce", "x.scatter_reduce(0, i, s, 'amax')", tag="int32",
         x=INT("int32", [3]), i=T("int64", [2], values=[0, 0]), s=INT("int32", [2]))


def complex_cases():
    case("view_as_complex", "x.view_as_complex()", x=T("float32", [3, 2]))
    case("view_as_complex", "paddle.view_as_complex(x)", tag="function f64",
         x=T("float64", [2, 2, 2]))
    case("view_as_complex", "x.view_as_complex()", tag="bad last dim", x=T("float32", [3, 3]))
    case("view_as_real", "x.cfloat().view_as_real()", x=T("float32", [3]))
    case("view_as_real", "paddle.view_as_real(x.cdouble())", tag="function",
         x=T("float64", [2, 2]))
    case("view_as_real", "paddle.view_as_real(paddle.view_as_complex(x))", tag="round trip",
         x=T("float32", [2, 2]))
    case("view_as_real", "x.view_as_real()", tag="real input", x=T("float32", [3]))


def misc_cases():
    a, b = T("float32", [2, 2]), T("float32", [1, 3])
    case("block_diag", "paddle.block_diag([a, b])", a=a, b=b)
    case("block_diag", "paddle.block_diag([a, b, c])", tag="1-D and 0-d", a=a,
         b=T("float32", [2]), c=T("float32", []))
    case("block_diag", "paddle.block_diag([a, b])", tag="int64", a=INT("int64", [2, 1]),
         b=INT("int64", [1, 2]))
    case("block_diag", "paddle.block_diag([a, b])", tag="mixed dtypes", a=a,
         b=INT("int64", [1, 2]))
    case("block_diag", "paddle.block_diag((a,))", tag="one", a=a)
    case("block_diag", "paddle.block_diag([a, b])", tag="3-D", a=a, b=T("float32", [1, 2, 2]))

    x, y = T("float32", [2, 1]), T("float32", [1, 3])
    case("broadcast_tensors", "paddle.broadcast_tensors([x, y])", x=x, y=y)
    case("broadcast_tensors", "x.broadcast_tensors()", tag="method on a list",
         pre="x = [paddle.ones([2, 1]), paddle.zeros([3])]")
    case("broadcast_shape", "paddle.broadcast_shape([2, 1], [3])")
    case("broadcast_shape", "paddle.broadcast_shape([2, 1], [3, 3])", tag="bad")
    for call in ("paddle.broadcast_shapes([2, 1], [1, 3], [4, 1, 1])", "paddle.broadcast_shapes()",
                 "paddle.broadcast_shapes([2, 3])", "paddle.broadcast_shapes((1,), [])",
                 "paddle.broadcast_shapes([2], [3])", "paddle.broadcast_shapes([0, 1], [1, 5])"):
        case("broadcast_shapes", call)
    case("is_tensor", "x.is_tensor()", x=x)
    case("is_tensor", "paddle.is_tensor(x)", tag="function", x=x)
    case("is_tensor", "paddle.is_tensor([1.0])", tag="list")

    p = T("float32", [2, 4], values=[0, 0, 1, 0, 0.5, 0.5, 0, 0])
    case("multinomial", "x.multinomial()", x=p, grad=False, pre="paddle.seed(7)")
    case("multinomial", "list(x.multinomial(1).shape)", tag="shape", x=p, grad=False)
    case("multinomial", "x.multinomial(2).sort(-1)", tag="two without replacement", x=p,
         grad=False)
    case("multinomial", "x.multinomial(4, replacement=True)", tag="replacement", x=p,
         grad=False, pre="paddle.seed(8)")
    case("multinomial", "x.multinomial(3)", tag="too many", x=p, grad=False)

    inp = T("float32", [2, 3, 4])
    case("baddbmm_", "(i.baddbmm_(x, y) is i, i)", i=inp, x=T("float32", [2, 3, 5]),
         y=T("float32", [2, 5, 4]), grad=False)
    case("baddbmm_", "(i.baddbmm_(x, y, beta=0.5, alpha=2.0) is i, i)", tag="beta alpha",
         i=inp, x=T("float32", [2, 3, 5]), y=T("float32", [2, 5, 4]), grad=False)
    case("baddbmm_", "(paddle.baddbmm_(i, x, y) is i, i)", tag="function",
         i=inp, x=T("float64", [2, 3, 5]), y=T("float64", [2, 5, 4]), grad=False)
    case("baddbmm_", "i.baddbmm_(x, y)", tag="leaf requires grad",
         i=inp, x=T("float32", [2, 3, 5]), y=T("float32", [2, 5, 4]))
    case("baddbmm_", "i.baddbmm_(x, y)", tag="broadcast input", i=T("float32", [3, 4]),
         x=T("float32", [2, 3, 5]), y=T("float32", [2, 5, 4]), grad=False)


def inplace_cases():
    x = T("float32", [2, 3])
    case("copy_", "(x.copy_(y), x)", x=x, y=T("float32", [2, 3]), grad=False)
    case("copy_", "(x.copy_(y, False), x)", tag="blocking False", x=x, y=T("float32", [2, 3]),
         grad=False)
    case("copy_", "(x.copy_(y), x)", tag="other shape", x=x, y=T("float32", [4]), grad=False)
    case("copy_", "(x.copy_(y), x)", tag="0-d", x=x, y=T("float32", []), grad=False)
    case("copy_", "(x.copy_(y), x)", tag="int64", x=INT("int64", [3]), y=INT("int64", [3]))
    case("copy_", "x.copy_(y)", tag="dtype mismatch", x=x, y=T("float64", [2, 3]), grad=False)
    case("copy_", "(x.copy_(y), x.stop_gradient)", tag="leaf requires grad", x=x,
         y=T("float32", [2, 3]), pre=SG, grad=False)

    for call in ("x.resize_([2, 3])", "x.resize_([3])", "x.resize_((2, 2))",
                 "x.resize_([2, 5], fill_zero=True)", "x.resize_([])", "x.resize_([0])",
                 "x.resize_([3, 3], True)", "x.resize_(4)"):
        case("resize_", f"(({call}) is x, x)" if "(4)" not in call else call, x=x, grad=False)
    case("resize_", "(x.resize_([2, 2]) is x, x)", tag="int64", x=INT("int64", [5]))

    f = "(x.random_({}) is x, x.dtype == d, bool(((x >= lo) & (x < hi)).all()), x.shape)"
    for dt, args, lo, hi in (("int64", "0, 5", 0, 5), ("int32", "3", 0, 3), ("int64", "-4, 4", -4, 4),
                             ("float32", "0, 10", 0, 10), ("float64", "", 0, 2 ** 53),
                             ("float32", "", 0, 2 ** 24), ("int32", "", 0, 2 ** 31 - 1),
                             ("float32", "from_=2, to=6", 2, 6)):
        case("random_", f.format(args), tag=f"{dt} ({args})", x=spec(dt, [50]),
             pre=f"d = paddle.{dt}\nlo, hi = {lo}, {hi}", grad=False)
    case("random_", "x.random_(5, 5)", tag="empty range", x=INT("int64", [3]))
    case("random_", "x.random_(0, 1)", tag="one value", x=INT("int64", [4]))
    case("random_", "x.random_(0, 4)", tag="seeded", x=INT("int64", [8]), pre="paddle.seed(11)")

    case("gradient", "x.gradient()", x=x, grad=False)
    case("gradient", "grad_of(x)", tag="after backward", x=T("float32", [3]),
         pre=SG + "\ndef grad_of(t):\n    (t * t).sum().backward()\n    g = t.gradient()\n"
             "    return type(g).__name__ == 'ndarray', paddle.to_tensor(g)")


def toplevel_dtype_cases():
    """paddle.float ... paddle.cdouble: the dtypes the conversions name (recorded under the
    conversion methods)."""
    for n, dt in (("float", "float32"), ("double", "float64"), ("half", "float16"),
                  ("cfloat", "complex64"), ("cdouble", "complex128")):
        case(n, f"paddle.{n} == paddle.{dt}", tag=f"paddle.{n}")
        case(n, f"paddle.ones([2], paddle.{n})", tag=f"paddle.{n} as a dtype")


def main():
    cast_cases()
    attribute_cases()
    compare_cases()
    arith_cases()
    manip_cases()
    search_cases()
    scatter_cases()
    complex_cases()
    misc_cases()
    inplace_cases()
    toplevel_dtype_cases()
    base.save()


if __name__ == "__main__":
    main()
