"""Linear algebra, the matmul family: ``matmul``, ``mm``, ``bmm``, ``mv``, ``einsum``,
``addmm``/``baddbmm``, the products (``dot``, ``inner``, ``outer``, ``kron``, ``tensordot``,
``cross``, ``vecdot``, ``multi_dot``) and the transposes (``t``, ``matrix_transpose``). Norms,
decompositions and solvers are in ``ops.decomposition``, histograms in ``ops.histograms``.

``paddle.linalg`` (paddle_compat/linalg.py) holds ``LINALG``: the functions registered with
``linalg_op`` here and in ``ops.decomposition`` (a second ``OpSet``, which binds them in this
module too).

Paddle and torch agree on the values; they differ in argument names (``transpose_x``, ``axis``,
``p``), in a few results (``slogdet`` stacks sign and log-determinant; ``lu`` pivots and
``lstsq`` ranks are int32; ``dot`` also takes row batches) and in exception types: Paddle
raises ValueError for bad shapes and singular input where torch raises RuntimeError, and
RuntimeError where it has no kernel for a dtype. ``_paddle_error`` translates (for
``ops.decomposition`` too).

Mixed dtypes: Paddle's matmul kernels accept a float32 ``x`` with an integer ``y`` (cast to
float32) and a complex operand with a real one of the same precision; every other mix raises
ValueError. Where Paddle's CPU build lacks a kernel that its GPU build has (float16/bfloat16
matmul, integer bmm), we compute rather than raise.
"""
import torch

from ..framework import hooks
from ..framework.data_feeder import check_variable_and_dtype
from ..framework.tensor import Tensor, wrap, writable
from .common import F64, finish, float_attr, not_tensor, tensor_arg
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names

# ``paddle.linalg``'s functions (paddle_compat/linalg.py re-exports ``LINALG``): a second
# OpSet, registered here and in ops.decomposition, that only lists and binds names.
linalg_op = OpSet(__name__)
LINALG = linalg_op.names

_DTYPE_ERRORS = ("not implemented for", "Expected a floating point", "Low precision dtypes",
                 "floating point or complex", "must be floating point", "Got Long", "Got Int",
                 "Got Bool", "Got Half", "Got BFloat16")


def _paddle_error(e):
    """The exception Paddle raises where torch raised ``e`` (a RuntimeError): RuntimeError for
    a dtype without a kernel, ValueError (InvalidArgument) for anything about the input."""
    msg = str(e).split("\n")[0]
    if any(s in msg for s in _DTYPE_ERRORS):
        return RuntimeError(f"(NotFound) {msg}")
    return ValueError(f"(InvalidArgument) {msg}")


def _call(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` with torch's RuntimeErrors raised as Paddle's."""
    try:
        return fn(*args, **kwargs)
    except RuntimeError as e:
        raise _paddle_error(e) from None


def _operands(x, y, api, xname="x", yname="y"):
    try:
        return x._t, y._t
    except AttributeError:
        bad, arg, pos = (x, xname, 0) if not isinstance(x, Tensor) else (y, yname, 1)
        raise not_tensor(api, arg, pos, bad) from None


_INTS = frozenset([torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8])


def _mixed(a, b, int_to_float=True):
    """Operands of different dtypes, as Paddle's matmul kernels take them (see module doc);
    under ``paddle.amp.auto_cast`` the AMP cast rule decides instead."""
    if hooks.autocast_enabled():
        return a, b
    da, db = a.dtype, b.dtype
    if int_to_float and da is torch.float32 and db in _INTS:
        return a, b.to(da)
    if da.is_complex != db.is_complex:
        c, r = (da, db) if da.is_complex else (db, da)
        if r.is_floating_point and c.to_real() is not r:
            raise NotImplementedError(f"Paddle has no kernel for {da} with {db}")
        if r.is_floating_point:
            return a.to(c), b.to(c)
    raise ValueError(f"(InvalidArgument) The type of data we are trying to retrieve "
                     f"({str(db)[6:]}) does not match the type of data ({str(da)[6:]}) "
                     "currently contained in the container.")


def _exact_dtypes(a, b):
    if a.dtype is not b.dtype:
        raise ValueError(f"(InvalidArgument) The type of data we are trying to retrieve "
                         f"({str(b.dtype)[6:]}) does not match the type of data "
                         f"({str(a.dtype)[6:]}) currently contained in the container.")


# ---------------------------------------------------------------------- the matmul family
@linalg_op
@op(method=True, fast=("xy", torch.matmul))
def matmul(x, y, transpose_x=False, transpose_y=False, name=None):
    """Matrix product with numpy broadcasting; ``transpose_x/y`` swap the last two axes (a
    1-d operand is left as it is)."""
    try:
        a = x._t
        b = y._t
    except AttributeError:
        a, b = _operands(x, y, "matmul")
    if transpose_x and a.dim() > 1:
        a = a.transpose(-1, -2)
    if transpose_y and b.dim() > 1:
        b = b.transpose(-1, -2)
    if a.dtype is not b.dtype:
        a, b = _mixed(a, b)
    try:
        return wrap(torch.matmul(a, b))
    except RuntimeError as e:
        raise _paddle_error(e) from None


@op(method=True)
def mm(input, mat2, name=None):
    """``matmul`` without the transpose flags (Paddle's mm also broadcasts)."""
    try:
        a = input._t
        b = mat2._t
    except AttributeError:
        a, b = _operands(input, mat2, "mm", "input", "mat2")
    if a.dtype is not b.dtype:
        a, b = _mixed(a, b)
    try:
        return wrap(torch.matmul(a, b))
    except RuntimeError as e:
        raise _paddle_error(e) from None


@op(method=True)
def bmm(x, y, name=None, *, out=None):
    """Batched matrix product of two 3-d tensors with equal batch sizes (no broadcasting)."""
    try:
        a = x._t
        b = y._t
    except AttributeError:
        a, b = _operands(x, y, "bmm")
    if a.dtype is not b.dtype:
        _exact_dtypes(a, b)
    try:                    # torch.bmm also insists on 3-d operands with equal batch sizes
        r = wrap(torch.bmm(a, b))
    except RuntimeError as e:
        raise _paddle_error(e) from None
    return finish(r, out)


@op(method=True)
def mv(x, vec, name=None):
    """Matrix-vector product."""
    a, b = _operands(x, vec, "mv", "x", "vec")
    _exact_dtypes(a, b)
    return wrap(_call(torch.mv, a, b))


@op
def einsum(equation, *operands):
    """Einstein summation (torch's equation syntax, which Paddle shares)."""
    ts = []
    for i, o in enumerate(operands):
        if not isinstance(o, Tensor):
            raise AssertionError(f"Invalid equation: the number of operands is "
                                 f"{len(operands)}, but operand {i} is a {type(o).__name__}.")
        ts.append(o._t)
    _einsum_check(equation, ts)
    if len({t.dtype for t in ts}) > 1:
        _exact_dtypes(ts[0], next(t for t in ts if t.dtype is not ts[0].dtype))
    lhs, arrow, rhs = equation.replace(" ", "").partition("->")
    if arrow and "." not in rhs and len(set(rhs)) < len(rhs):
        return wrap(_undiagonal(lhs, rhs, ts))
    try:
        return wrap(torch.einsum(equation, *ts))
    except (RuntimeError, ValueError) as e:
        if "operand" in str(e) and "size" not in str(e):     # Paddle asserts on the equation
            raise AssertionError(f"Invalid equation: {e}") from None
        raise _paddle_error(e) from None


def _einsum_check(equation, ts):
    """Paddle's AssertionErrors for an equation that does not fit the operands ``ts``, and its
    ValueError for a label on dimensions of different sizes (neither 1; sizes are checked on
    values, a static Variable's when the program runs)."""
    if not ts:
        raise AssertionError("Required at least one operand in Einsum API, but received 0")
    lhs, *rhs = equation.replace(" ", "").split("->")
    if len(rhs) > 1:
        raise AssertionError("Invalid equation: multiple `->` were found.")
    labels = lhs.split(",")
    if len(labels) != len(ts):
        raise AssertionError(f"Invalid equation: the number of operands is {len(ts)}, but found "
                             f"{len(labels)} segments in the label equation.")
    sizes = {}
    for lab, t in zip(labels, ts):
        for c in lab.replace(".", ""):
            if not c.isalpha():
                raise AssertionError(f"Invalid equation: {c} is not a valid label, which should "
                                     "be letters.")
        if "." in lab.replace("...", "", 1):
            raise AssertionError("Invalid equation: `.` is found outside of an ellipsis.")
        full = lab.replace("...", "." * (t.dim() - len(lab) + 3))
        if len(full) != t.dim():
            raise AssertionError(f"Invalid equation: the label string '{lab}' misses "
                                 "dimensions.")
        for c, n in zip(full, t.shape if isinstance(t, torch.Tensor) else ()):
            seen = sizes.setdefault(c, n)
            if c != "." and seen != n and 1 not in (seen, n):
                raise ValueError("(InvalidArgument) Same label have different shapes for label: "
                                 f"`{c}`")
    if rhs and "..." in lhs and "..." not in rhs[0]:
        raise AssertionError("Invalid equation: missing ellipsis in output labels.")


def _undiagonal(lhs, rhs, ts):
    """An output label repeated (Paddle's undiagonalize, ``'i->ii'``): the einsum over the
    labels once each, placed on the diagonal of the repeated dimensions (zeros elsewhere)."""
    once = "".join(dict.fromkeys(rhs))
    r = torch.einsum(f"{lhs}->{once}", *ts)
    idx = []
    for label in rhs:
        k = once.index(label)
        shape = [1] * len(once)
        shape[k] = r.shape[k]
        idx.append(torch.arange(r.shape[k], device=r.device).reshape(shape))
    out = r.new_zeros([r.shape[once.index(label)] for label in rhs])
    return out.index_put(tuple(idx), r)


@linalg_op
@op(method=True, export=False)
def multi_dot(x, name=None):
    """Chained matrix product in the cheapest order; the first and last may be 1-d."""
    if not isinstance(x, (list, tuple)) or len(x) < 2:
        raise ValueError("(InvalidArgument) The number of input tensors in multi_dot op "
                         "should > 1.")
    ts = [tensor_arg(v, "multi_dot", "x", i) for i, v in enumerate(x)]
    for i, v in enumerate(x):       # while a program is built: Paddle's TypeError
        check_variable_and_dtype(v, f"x[{i}]", ["float16", "float32", "float64", "uint16"],
                                 "multi_dot")
    return wrap(_call(torch.linalg.multi_dot, ts))


def _addmm_input(inp, a, b):
    if inp.dim() not in (1, 2):
        raise ValueError("The dimension of input should be 2 or 1 but receive input's shape: "
                         f"paddle.Size({list(inp.shape)})")
    if a.dim() != 2 or b.dim() != 2:
        raise ValueError("The dimension of x and y should be 2 but receive x's shape: "
                         f"{list(a.shape)}, y's shape: {list(b.shape)}")


def _check_inplace(x):
    t = x._t
    if t.requires_grad and t.is_leaf:
        raise ValueError(f"(InvalidArgument) Leaf Tensor ({x.name}) that doesn't stop gradient "
                         "can't use inplace strategy.")
    return t


@op(method=True)
def addmm(input, x, y, beta=1.0, alpha=1.0, name=None):
    """``beta * input + alpha * (x @ y)``; input (1-d or 2-d) broadcasts to the product.
    alpha and beta are Paddle's float attributes: float64 sees them rounded to float32."""
    inp = tensor_arg(input, "addmm", "input")
    a, b = _operands(x, y, "addmm")
    _addmm_input(inp, a, b)
    if inp.dtype is F64:
        beta, alpha = float_attr(beta), float_attr(alpha)
    return wrap(_call(torch.addmm, inp, a, b, beta=beta, alpha=alpha))


@op(method=True)
def addmm_(input, x, y, beta=1.0, alpha=1.0, name=None):
    """In-place ``addmm``: writes into ``input`` (which must have the product's shape)."""
    inp = _check_inplace(input) if isinstance(input, Tensor) else tensor_arg(input, "addmm_")
    a, b = _operands(x, y, "addmm_")
    _addmm_input(inp, a, b)
    if inp.dtype is F64:
        beta, alpha = float_attr(beta), float_attr(alpha)
    _call(inp.addmm_, a, b, beta=beta, alpha=alpha)
    return input


@op(method=True)
def baddbmm(input, x, y, beta=1.0, alpha=1.0, name=None):
    """``beta * input + alpha * bmm(x, y)``."""
    inp = tensor_arg(input, "baddbmm", "input")
    a, b = _operands(x, y, "baddbmm")
    if inp.dtype is F64:                              # Paddle's float attributes
        beta, alpha = float_attr(beta), float_attr(alpha)
    return wrap(_call(torch.baddbmm, inp, a, b, beta=beta, alpha=alpha))


@op(method=True)
def baddbmm_(input, x, y, beta=1.0, alpha=1.0, name=None):
    """In-place ``baddbmm``: ``input = beta * input + alpha * bmm(x, y)``; returns input."""
    out = baddbmm(input, x, y, beta, alpha)
    t = writable(input)
    if tuple(out._t.shape) != tuple(t.shape):
        raise ValueError(f"(InvalidArgument) The shape of the result {list(out._t.shape)} must "
                         f"be the same as the shape of input {list(t.shape)}")
    t.copy_(out._t)
    return input


# ---------------------------------------------------------------------- products
@op(method=True)
def dot(x, y, name=None, *, out=None):
    """Inner product of two 1-d tensors (0-d result), or row by row of two 2-d tensors."""
    try:
        a = x._t
        b = y._t
    except AttributeError:
        a, b = _operands(x, y, "dot")
    if a.dtype is not b.dtype:
        if not (a.dtype.is_complex and b.dtype.is_floating_point):
            _exact_dtypes(a, b)
        a, b = _mixed(a, b, False)
    if a.dim() == 1 and b.dim() == 1:
        try:
            r = wrap(torch.dot(a, b))
        except RuntimeError as e:    # Paddle's dot raises RuntimeError for shapes too
            raise RuntimeError(f"(InvalidArgument) {e}") from None
    elif a.dim() != 2 or a.shape != b.shape or a.dtype is torch.bool:
        raise RuntimeError("(InvalidArgument) dot takes two 1-d or 2-d tensors of the same "
                           f"shape (not bool), but received {list(a.shape)} and "
                           f"{list(b.shape)}.")
    else:
        r = wrap((a * b).sum(-1, dtype=a.dtype))
    return finish(r, out)


@op(method=True)
def inner(x, y, name=None):
    """Sum of products over the last axes (a 0-d operand scales the other)."""
    for v, what in ((x, "x"), (y, "y")):     # while a program is built: Paddle's TypeError
        check_variable_and_dtype(v, what, ["float16", "float32", "float64"], "inner")
    a, b = _operands(x, y, "inner")
    if a.dtype is not b.dtype:
        a, b = _mixed(a, b)
    return wrap(_call(torch.inner, a, b))


@op(method=True)
def outer(x, y, name=None, *, out=None):
    """Outer product of the flattened inputs (dtypes promote as for multiply)."""
    a, b = _operands(x, y, "outer")
    if a.dtype is b.dtype:
        r = wrap(torch.outer(a.reshape(-1), b.reshape(-1)))
    else:
        r = wrap(a.reshape(-1, 1)) * wrap(b.reshape(1, -1))
    return finish(r, out)


@op(method=True)
def kron(x, y, name=None):
    """Kronecker product."""
    a, b = _operands(x, y, "kron")
    if a.dtype is not b.dtype:
        a, b = _mixed(a, b, False)
    return wrap(_call(torch.kron, a, b))


def _int_list(v):
    if isinstance(v, Tensor):
        return [int(i) for i in v._t.reshape(-1).tolist()]
    return [int(i) for i in v]


@op(method=True)
def tensordot(x, y, axes=2, name=None):
    """Contract ``x`` and ``y`` over ``axes``: an int n (last n of x with first n of y), one
    list used for both, or a pair of lists (the shorter one is completed from the longer).
    A contracted axis of size 1 broadcasts against the other side."""
    a, b = _operands(x, y, "tensordot")
    if isinstance(axes, Tensor):
        axes = axes._t.tolist()
    if isinstance(axes, int):
        if axes < 0:
            raise AssertionError(f"The 'axes' in tensordot should not be negative, but "
                                 f"received axes={axes}.")
        ax, ay = list(range(a.dim() - axes, a.dim())), list(range(axes))
    elif not isinstance(axes, (list, tuple)):
        raise TypeError(f"The type of 'axes' in tensordot must be int, list, tuple or Tensor, "
                        f"but received {type(axes).__name__}.")
    elif len(axes) == 0 or isinstance(axes[0], int):
        ax, ay = _int_list(axes), []
    else:
        ax = _int_list(axes[0])
        ay = _int_list(axes[1]) if len(axes) > 1 else []
    if len(ax) < len(ay):
        ax += ay[len(ax):]
    else:
        ay += ax[len(ay):]
    for i, j in zip(ax, ay):
        sx, sy = a.shape[i], b.shape[j]
        if sx == 1 and sy != 1:
            b = b.sum(j, keepdim=True, dtype=b.dtype)
        elif sy == 1 and sx != 1:
            a = a.sum(i, keepdim=True, dtype=a.dtype)
        elif sx != sy:
            raise AssertionError(f"The dimensional size for 'x' and 'y' in tensordot should "
                                 f"match each other, but 'x' has size {sx} in dim {i} while "
                                 f"'y' has size {sy} in dim {j}.")
    for side, dims, n in (("x", ax, a.dim()), ("y", ay, b.dim())):
        if len({d % n for d in dims}) != len(dims):
            raise ValueError(f"The axes of '{side}' in tensordot name a dimension more than "
                             f"once: {dims}")
    if a.dtype is not b.dtype:
        a, b = _mixed(a, b, False)
    return wrap(torch.tensordot(a, b, dims=(ax, ay)))


@linalg_op
@op(method=True)
def cross(x, y, axis=9, name=None):
    """Cross product along ``axis``; the default (9) means the first axis of size 3."""
    a, b = _operands(x, y, "cross")
    if axis == 9:
        axis = next((i for i, s in enumerate(a.shape) if s == 3), None)
        if axis is None:
            raise ValueError("(InvalidArgument) Input(X) has no axis of size 3 for cross.")
    return wrap(_call(torch.linalg.cross, a, b, dim=axis))


@linalg_op
@op
def vecdot(x, y, axis=-1, name=None):
    """Dot product along ``axis`` (x conjugated), broadcasting the other axes."""
    a, b = _operands(x, y, "vecdot")
    if a.dtype != b.dtype:                      # Paddle promotes (float32 . float64: float64)
        common = torch.promote_types(a.dtype, b.dtype)
        a, b = a.to(common), b.to(common)
    return wrap(_call(torch.linalg.vecdot, a, b, dim=axis))


# ---------------------------------------------------------------------- transposes
@op(method=True)
def t(input, name=None):
    """Transpose of a tensor of at most 2 dims (0-d and 1-d come back unchanged)."""
    a = tensor_arg(input, "t", "input")
    if a.dim() > 2:
        raise ValueError("Input(input) only support N-D (N<=2) tensor, but received length of "
                         f"Input(input) is {a.dim()}. Perhaps you can use "
                         "paddle.tensor.transpose() instead.")
    return wrap(a.t())


@op(method=True)
def t_(input, name=None):
    """In-place ``t``."""
    a = _check_inplace(input) if isinstance(input, Tensor) else tensor_arg(input, "t_", "input")
    if a.dim() > 2:
        raise ValueError("Input(input) only support N-D (N<=2) tensor, but received length of "
                         f"Input(input) is {a.dim()}.")
    a.t_()
    return input


@linalg_op
@op(method=True)
def matrix_transpose(x, name=None):
    """Swap the last two axes."""
    a = tensor_arg(x, "matrix_transpose")
    if a.dim() < 2:
        raise ValueError(f"Tensor.ndim({a.dim()}) is required to be greater than or equal to 2.")
    return wrap(a.transpose(-1, -2))
