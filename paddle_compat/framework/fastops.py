"""Paddle functions with a C fast path (framework/_fastops.c), for the calls that dominate small
tensors: ``paddle.reshape(x, [3, 2])``, ``paddle.concat([x, y])``, ``paddle.tanh(x)`` ...

A Paddle function marked ``@fast_path(forms, torch_fn)`` promises that for the call forms listed
(all arguments positional, every Tensor wrapping a plain torch.Tensor) it returns exactly
``wrap(torch_fn(...))`` of the torch tensors and the other arguments, and that everything else
(other forms, keywords, Paddle's errors) is its own business. The forms:

    "x"       f(x)                 -> torch_fn(t, *extra)
    "x_int"   f(x, int)            -> torch_fn(t, int)
    "x_ints"  f(x, list/tuple of ints) -> torch_fn(t, ints)
    "xy"      f(x, y), one dtype   -> torch_fn(tx, ty)
    "seq"     f([x, ...]) / f([x, ...], int), one dtype -> torch_fn([t, ...]) / (..., int)
    "where"   f(c, x, y), bool c, x and y of one dtype  -> torch_fn(tc, tx, ty)
    "nonzero" with "x_ints": no 0 among the ints
    "x_num"   f(x, int or float)   -> torch_fn(t, number)
    "real"    with "x"/"x_int"/"x_num": x is float16, bfloat16, float32 or float64
    "f32"     with "x_num": not a float64 x with a float that float32 cannot hold exactly
              (Paddle's kernel takes the number as a C++ float: the function rounds it)
    "x_dtype" f(x, dtype), dtype a str/DType/torch.dtype other than x's -> torch_fn(t, dtype=D)
    "shape"   f([ints])            -> torch_fn(*ints)
    "shape_value" f([ints], float) -> torch_fn([ints], float)
    "int"     f(int)               -> torch_fn(int)
              (these three only while Paddle's device is the CPU, torch's default dtype is
              Paddle's and torch has no default device: creation_defaults_changed() tells the
              C side)
    "index"   f(x, index) / f(x, index, int), index a 1-d Tensor -> torch_fn(t, 0 or int, ti)
    "dim_index" with "index": also f(x, int, index) -> torch_fn(t, int, ti) (torch's order)

The second argument may also come by its parameter's name (``paddle.sum(x, axis=1)``).

``ops.registry`` (``activate_fast_ops``, run last by paddle_compat/__init__.py, and
``publish`` for each user-facing namespace) puts a ``FastOp`` in place of each marked function in
the user-facing namespaces and among the Tensor methods (where it acts as an
unbound method: ``x.reshape(s)`` is ``op(x, s)``). A FastOp's Python ``__call__`` just calls the
function: that is what torch.compile traces and what runs without the C module. Its C call slot
runs the marked forms without a Python frame and calls the function for everything else, and
for any call torch refuses (so the error is the function's). ``tests/test_fastops.py`` checks
every marked function against its Python definition. The functions themselves stay as they are
in their modules.
"""
import functools
import os
import types

import torch

__all__ = ["fast_path", "FastOp", "c_module"]

_FORMS = ("x", "x_int", "x_ints", "xy", "seq", "where", "nonzero", "real", "x_dtype", "shape",
          "shape_value", "x_num", "int", "f32", "index", "dim_index")
_REAL = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


def fast_path(forms, torch_fn, extra=()):
    """Mark a Paddle function as ``wrap(torch_fn(...))`` for the call forms ``forms`` (a
    space-separated subset of the names above); ``extra`` follows the tensor in form "x"."""
    unknown = set(forms.split()) - set(_FORMS)
    if unknown:
        raise ValueError(f"fast_path: unknown forms {sorted(unknown)}")

    def mark(fn):
        fn._fast_path = (forms, torch_fn, tuple(extra))
        return fn
    return mark


def _load(fn):
    return fn


class FastOp:
    """A marked Paddle function as the public API object (see the module docstring)."""

    __slots__ = ("_impl", "_fn", "_flags", "_extra", "_kw", "_kwpos", "_varargs", "__dict__",
                 "__weakref__")

    def __init__(self, fn, flags):
        forms, torch_fn, extra = fn._fast_path
        self._impl = fn
        self._fn = torch_fn
        self._flags = flags
        self._extra = extra
        code = getattr(fn, "__wrapped__", fn).__code__     # (under a spelling wrapper)
        names = code.co_varnames
        self._kw = names[1] if code.co_argcount > 1 else None   # f(x, axis=1) is fast too
        # keyword -> position of the first parameters, and of their torch-style aliases
        # (ops/spelling.py): f(x, axis=1) and f(input=x, dim=1) take the C path as f(x, 1)
        kwpos = {n: i for i, n in enumerate(names[:min(code.co_argcount, 4)])}
        for alias, param in getattr(fn, "_fast_aliases", {}).items():
            if param in kwpos:
                kwpos[alias] = kwpos[param]
        self._kwpos = kwpos
        # where sizes given as varargs start (zeros(2, 3): 0), packed into one list in C
        self._varargs = getattr(fn, "_varargs_at", None)
        functools.update_wrapper(self, fn)

    def __call__(self, *args, **kwargs):
        return self._impl(*args, **kwargs)

    # A Python function to ``inspect`` and to code that tells functions from classes, as
    # Paddle's functions are: ``isinstance(op, types.FunctionType)`` reads ``__class__`` when
    # the type itself is not a function (so ``inspect.isfunction`` is True), and the function
    # attributes are those of the Python function it runs. ``type(op)`` stays FastOp.
    @property
    def __class__(self):
        return types.FunctionType

    __code__ = property(lambda self: self._impl.__code__)
    __defaults__ = property(lambda self: self._impl.__defaults__)
    __kwdefaults__ = property(lambda self: self._impl.__kwdefaults__)
    __globals__ = property(lambda self: self._impl.__globals__)
    __closure__ = property(lambda self: self._impl.__closure__)
    __builtins__ = property(lambda self: self._impl.__builtins__)

    def __get__(self, obj, objtype=None):
        # What torch.compile traces for ``x.reshape``; CPython uses the C slot instead (a bound
        # method of this FastOp, see _fastops.c).
        return self if obj is None else functools.partial(self._impl, obj)

    def __repr__(self):
        return repr(self._impl)

    def __reduce__(self):
        # pickles as the function itself (the op module's, under a spelling wrapper)
        return _load, (getattr(self._impl, "__wrapped__", self._impl),)


# torch.compile traces the Python function a FastOp runs (it would take a FastOp for a function
# and fail on its closure): the protocol of torch.jit.script_if_tracing's wrappers. Class
# attributes, set here to escape name mangling, so functools.wraps copies neither onto a
# wrapper of a FastOp.
setattr(FastOp, "__script_if_tracing_wrapper", True)
setattr(FastOp, "__original_fn", property(lambda self: self._impl))


def c_module():
    """The C module (framework/_fastops.c), or None where it is not built or
    PADDLE_COMPAT_PURE_PYTHON is set."""
    if os.environ.get("PADDLE_COMPAT_PURE_PYTHON"):
        return None
    try:
        from . import _fastops
    except ImportError:
        return None
    return _fastops
