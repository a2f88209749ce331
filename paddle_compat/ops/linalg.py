"""Linear algebra: the matmul family (``matmul``, ``bmm``, ``mm``, ``einsum``, ``addmm`` ...),
products (``dot``, ``outer``, ``kron``, ``tensordot``, ``cross``), norms and distances, and the
decompositions and solvers that ``paddle.linalg`` re-exports.

Paddle and torch agree on the values; they differ in argument names (``transpose_x``, ``axis``,
``p``), in a few results (``slogdet`` stacks sign and log-determinant; ``lu`` pivots and
``lstsq`` ranks are int32; ``dot`` also takes row batches) and in exception types: Paddle
raises ValueError for bad shapes and singular input where torch raises RuntimeError, and
RuntimeError where it has no kernel for a dtype. ``_paddle_error`` translates.

Mixed dtypes: Paddle's matmul kernels accept a float32 ``x`` with an integer ``y`` (cast to
float32) and a complex operand with a real one of the same precision; every other mix raises
ValueError. Where Paddle's CPU build lacks a kernel that its GPU build has (float16/bfloat16
matmul, integer bmm), we compute rather than raise.
"""
import math

import torch

from ..framework.fastops import fast_path
from ..framework.tensor import Tensor, wrap, writable
from .common import as_methods, finish, not_tensor, tensor_arg

__all__ = ["matmul", "bmm", "mm", "mv", "dot", "inner", "outer", "kron", "tensordot", "einsum",
           "addmm", "addmm_", "baddbmm", "cross", "vecdot", "t", "t_", "matrix_transpose",
           "norm", "dist", "cdist", "cholesky", "inverse", "eigvalsh"]

# Everything ``paddle.linalg`` holds (paddle_compat/linalg.py re-exports these).
LINALG = ["matmul", "cross", "vecdot", "matrix_transpose", "norm", "vector_norm", "matrix_norm",
          "cond", "det", "slogdet", "inv", "solve", "cholesky", "cholesky_solve",
          "cholesky_inverse", "triangular_solve", "lu", "lu_unpack", "lu_solve", "qr", "svd",
          "svdvals", "svd_lowrank", "pca_lowrank", "eig", "eigh", "eigvals", "eigvalsh",
          "matrix_rank", "pinv", "multi_dot", "matrix_power", "matrix_exp", "lstsq", "cov",
          "corrcoef", "householder_product", "ormqr"]

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
    from ..amp.auto_cast import is_autocast_enabled
    if is_autocast_enabled():
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


# ---------------------------------------------------------------------- the matmul family
@fast_path("xy", torch.matmul)
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


def _exact_dtypes(a, b):
    if a.dtype is not b.dtype:
        raise ValueError(f"(InvalidArgument) The type of data we are trying to retrieve "
                         f"({str(b.dtype)[6:]}) does not match the type of data "
                         f"({str(a.dtype)[6:]}) currently contained in the container.")


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


def mv(x, vec, name=None):
    """Matrix-vector product."""
    a, b = _operands(x, vec, "mv", "x", "vec")
    _exact_dtypes(a, b)
    return wrap(_call(torch.mv, a, b))


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


def inner(x, y, name=None):
    """Sum of products over the last axes (a 0-d operand scales the other)."""
    a, b = _operands(x, y, "inner")
    if a.dtype is not b.dtype:
        a, b = _mixed(a, b)
    return wrap(_call(torch.inner, a, b))


def outer(x, y, name=None, *, out=None):
    """Outer product of the flattened inputs (dtypes promote as for multiply)."""
    a, b = _operands(x, y, "outer")
    if a.dtype is b.dtype:
        r = wrap(torch.outer(a.reshape(-1), b.reshape(-1)))
    else:
        r = wrap(a.reshape(-1, 1)) * wrap(b.reshape(1, -1))
    return finish(r, out)


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
    if a.dtype is not b.dtype:
        a, b = _mixed(a, b, False)
    return wrap(torch.tensordot(a, b, dims=(ax, ay)))


def einsum(equation, *operands):
    """Einstein summation (torch's equation syntax, which Paddle shares)."""
    ts = []
    for i, o in enumerate(operands):
        if not isinstance(o, Tensor):
            raise AssertionError(f"Invalid equation: the number of operands is "
                                 f"{len(operands)}, but operand {i} is a {type(o).__name__}.")
        ts.append(o._t)
    if len({t.dtype for t in ts}) > 1:
        _exact_dtypes(ts[0], next(t for t in ts if t.dtype is not ts[0].dtype))
    try:
        return wrap(torch.einsum(equation, *ts))
    except (RuntimeError, ValueError) as e:
        if "operand" in str(e) and "size" not in str(e):     # Paddle asserts on the equation
            raise AssertionError(f"Invalid equation: {e}") from None
        raise _paddle_error(e) from None


def _addmm_input(inp, a, b):
    if inp.dim() not in (1, 2):
        raise ValueError("The dimension of input should be 2 or 1 but receive input's shape: "
                         f"paddle.Size({list(inp.shape)})")
    if a.dim() != 2 or b.dim() != 2:
        raise ValueError("The dimension of x and y should be 2 but receive x's shape: "
                         f"{list(a.shape)}, y's shape: {list(b.shape)}")


def addmm(input, x, y, beta=1.0, alpha=1.0, name=None):
    """``beta * input + alpha * (x @ y)``; input (1-d or 2-d) broadcasts to the product."""
    inp = tensor_arg(input, "addmm", "input")
    a, b = _operands(x, y, "addmm")
    _addmm_input(inp, a, b)
    return wrap(_call(torch.addmm, inp, a, b, beta=beta, alpha=alpha))


def _check_inplace(x):
    t = x._t
    if t.requires_grad and t.is_leaf:
        raise ValueError(f"(InvalidArgument) Leaf Tensor ({x.name}) that doesn't stop gradient "
                         "can't use inplace strategy.")
    return t


def addmm_(input, x, y, beta=1.0, alpha=1.0, name=None):
    """In-place ``addmm``: writes into ``input`` (which must have the product's shape)."""
    inp = _check_inplace(input) if isinstance(input, Tensor) else tensor_arg(input, "addmm_")
    a, b = _operands(x, y, "addmm_")
    _addmm_input(inp, a, b)
    _call(inp.addmm_, a, b, beta=beta, alpha=alpha)
    return input


def baddbmm(input, x, y, beta=1.0, alpha=1.0, name=None):
    """``beta * input + alpha * bmm(x, y)``."""
    inp = tensor_arg(input, "baddbmm", "input")
    a, b = _operands(x, y, "baddbmm")
    return wrap(_call(torch.baddbmm, inp, a, b, beta=beta, alpha=alpha))


def cross(x, y, axis=9, name=None):
    """Cross product along ``axis``; the default (9) means the first axis of size 3."""
    a, b = _operands(x, y, "cross")
    if axis == 9:
        axis = next((i for i, s in enumerate(a.shape) if s == 3), None)
        if axis is None:
            raise ValueError("(InvalidArgument) Input(X) has no axis of size 3 for cross.")
    return wrap(_call(torch.linalg.cross, a, b, dim=axis))


def vecdot(x, y, axis=-1, name=None):
    """Dot product along ``axis`` (x conjugated), broadcasting the other axes."""
    a, b = _operands(x, y, "vecdot")
    return wrap(_call(torch.linalg.vecdot, a, b, dim=axis))


def t(input, name=None):
    """Transpose of a tensor of at most 2 dims (0-d and 1-d come back unchanged)."""
    a = tensor_arg(input, "t", "input")
    if a.dim() > 2:
        raise ValueError("Input(input) only support N-D (N<=2) tensor, but received length of "
                         f"Input(input) is {a.dim()}. Perhaps you can use "
                         "paddle.tensor.transpose() instead.")
    return wrap(a.t())


def t_(input, name=None):
    """In-place ``t``."""
    a = _check_inplace(input) if isinstance(input, Tensor) else tensor_arg(input, "t_", "input")
    if a.dim() > 2:
        raise ValueError("Input(input) only support N-D (N<=2) tensor, but received length of "
                         f"Input(input) is {a.dim()}.")
    a.t_()
    return input


def matrix_transpose(x, name=None):
    """Swap the last two axes."""
    a = tensor_arg(x, "matrix_transpose")
    if a.dim() < 2:
        raise ValueError(f"Tensor.ndim({a.dim()}) is required to be greater than or equal to 2.")
    return wrap(a.transpose(-1, -2))


# ---------------------------------------------------------------------- norms and distances
def _axes(axis):
    if isinstance(axis, Tensor):
        axis = axis._t.tolist()
    if isinstance(axis, (list, tuple)):
        return axis[0] if len(axis) == 1 else tuple(axis)
    return axis


def vector_norm(x, p=2.0, axis=None, keepdim=False, name=None, *, dtype=None, out=None):
    """The p-norm of the vectors along ``axis`` (of all elements when None). p may be any
    float, including 0 (count of non-zeros) and +-inf."""
    a = tensor_arg(x, "vector_norm")
    if not isinstance(p, (int, float)):
        raise ValueError(f"only valid p type is int and float, found {type(p)}")
    if dtype is not None:
        a = x.astype(dtype)._t
    r = wrap(_call(torch.linalg.vector_norm, a, p, _axes(axis), keepdim))
    return finish(r, out)


_MATRIX_P = ("fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf)


def matrix_norm(x, p="fro", axis=[-2, -1], keepdim=False, name=None):
    """The matrix norm over the two ``axis``: 'fro', 'nuc', +-1, +-2 or +-inf."""
    a = tensor_arg(x, "matrix_norm")
    axis = _axes(axis)
    if not isinstance(axis, tuple) or len(axis) != 2:
        raise ValueError(f"except axis type int or list (length of list == 2), found {axis}")
    if p not in _MATRIX_P:
        raise ValueError("just support p value 'fro','nuc',1,-1,inf,-inf,2,-2 if axis is 2D, "
                         f"found {p}")
    return wrap(_call(torch.linalg.matrix_norm, a, p, axis, keepdim))


def norm(x, p=None, axis=None, keepdim=False, out=None, dtype=None, name=None):
    """Paddle's norm: a vector norm unless ``axis`` names two axes or ``p`` is 'nuc' (then a
    matrix norm). With axis None, 'fro' and numbers (default 2) take the norm of all
    elements as one vector, unlike torch's matrix norm of a 2-d input."""
    a = tensor_arg(x, "norm")
    if axis is None and (p is None or p == "fro") and dtype is None and out is None:
        try:                          # the common case: 2-norm of all elements
            return wrap(torch.linalg.vector_norm(a, keepdim=keepdim))
        except RuntimeError as e:
            raise _paddle_error(e) from None
    if dtype is not None:
        x = x.astype(dtype)
    ax = _axes(axis)
    if isinstance(p, str):
        if p == "fro" and (ax is None or isinstance(ax, int)):
            r = vector_norm(x, 2.0, ax, keepdim)
        else:
            r = matrix_norm(x, p, tuple(range(a.dim())) if ax is None else ax, keepdim)
    elif isinstance(ax, tuple) and len(ax) == 2:
        r = matrix_norm(x, 2.0 if p is None else p, ax, keepdim)
    else:
        r = vector_norm(x, 2.0 if p is None else p, ax, keepdim)
    return finish(r, out)


def dist(x, y, p=2, name=None):
    """The p-norm of ``x - y`` (broadcast), as a 0-d tensor."""
    a, b = _operands(x, y, "dist")
    return wrap(_call(torch.dist, a, b, p))


def cdist(x, y, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary", name=None):
    """Pairwise p-norm distances between the rows of ``x`` and of ``y``."""
    a, b = _operands(x, y, "cdist")
    return wrap(_call(torch.cdist, a, b, p, compute_mode=compute_mode))


def cond(x, p=None, name=None):
    """Condition number in the norm ``p`` (2 by default; only 2/-2/None take non-square)."""
    a = tensor_arg(x, "cond")
    if p not in _MATRIX_P and p is not None:
        raise ValueError(f"only support p is {p} when input is a square matrix or batches "
                         "of square matrices")
    if p not in (None, 2, -2) and a.shape[-1] != a.shape[-2]:
        raise ValueError(f"only support p is {p} when input is a square matrix or batches of "
                         "square matrices")
    return wrap(_call(torch.linalg.cond, a, p))


# ---------------------------------------------------------------------- decompositions, solvers
def _unary(fn, api, doc):
    def op(x, name=None):
        return wrap(_call(fn, tensor_arg(x, api)))
    op.__name__ = api
    op.__doc__ = doc
    return op


det = _unary(torch.linalg.det, "det", "Determinant of each square matrix.")
inv = _unary(torch.linalg.inv, "inv", "Inverse of each square matrix (ValueError if singular).")
inverse = _unary(torch.linalg.inv, "inverse", "Inverse of each square matrix (``linalg.inv``).")
svdvals = _unary(torch.linalg.svdvals, "svdvals", "Singular values, descending.")
eigvals = _unary(torch.linalg.eigvals, "eigvals", "Eigenvalues (complex) of square matrices.")
matrix_exp = _unary(torch.linalg.matrix_exp, "matrix_exp", "Matrix exponential.")


def slogdet(x, name=None):
    """Sign and log of the absolute determinant, stacked in one tensor of shape [2, *batch]."""
    sign, logabs = _call(torch.linalg.slogdet, tensor_arg(x, "slogdet"))
    return wrap(torch.stack([sign, logabs.to(sign.dtype)]))


def solve(x, y, left=True, name=None, *, out=None):
    """Solve ``x @ out = y`` (``out @ x = y`` with left=False); y may be a vector."""
    a, b = _operands(x, y, "solve")
    _exact_dtypes(a, b)
    r = wrap(_call(torch.linalg.solve, a, b, left=left))
    return finish(r, out)


def cholesky(x, upper=False, name=None):
    """Cholesky factor (lower, or upper with upper=True) of symmetric positive-definite x."""
    return wrap(_call(torch.linalg.cholesky, tensor_arg(x, "cholesky"), upper=upper))


def cholesky_solve(x, y, upper=False, name=None):
    """Solve ``A @ out = x`` given the Cholesky factor ``y`` of A."""
    b, f = _operands(x, y, "cholesky_solve")
    f = f.triu() if upper else f.tril()      # only that triangle is read (and gets gradient)
    return wrap(_call(torch.cholesky_solve, b, f, upper))


def cholesky_inverse(x, upper=False, name=None):
    """Inverse of A given its Cholesky factor ``x``."""
    return wrap(_call(torch.cholesky_inverse, tensor_arg(x, "cholesky_inverse"), upper))


def triangular_solve(x, y, upper=True, transpose=False, unitriangular=False, name=None):
    """Solve ``x @ out = y`` (or ``x^T @ out = y``) for triangular x; y at least 2-d."""
    a, b = _operands(x, y, "triangular_solve")
    if b.dim() < 2:
        raise ValueError("(InvalidArgument) The input tensor Y's dimensions of "
                         f"TriangularSolveOp should be >=2. But received Y's dimensions = "
                         f"{b.dim()}")
    if transpose:
        a, upper = a.transpose(-1, -2), not upper
    return wrap(_call(torch.linalg.solve_triangular, a, b, upper=upper,
                      unitriangular=unitriangular))


def lu(x, pivot=True, get_infos=False, name=None):
    """LU factorisation: (LU, pivots[, infos]), pivots and infos int32."""
    lu_, piv, info = _call(torch.linalg.lu_factor_ex, tensor_arg(x, "lu"), pivot=pivot)
    if get_infos:
        return wrap(lu_), wrap(piv), wrap(info)
    return wrap(lu_), wrap(piv)


def lu_unpack(x, y, unpack_ludata=True, unpack_pivots=True, name=None):
    """P, L, U from ``lu``'s output; the parts not asked for come back as empty tensors."""
    a, piv = _operands(x, y, "lu_unpack")
    p, l_, u = _call(torch.lu_unpack, a, piv, unpack_ludata, unpack_pivots)
    return wrap(p), wrap(l_), wrap(u)


_TRANS = {"N": False, "C": True}


def lu_solve(b, lu, pivots, trans="N", name=None):
    """Solve with ``lu``'s factorisation: op(A) @ out = b, op by ``trans`` ('N', 'T', 'C')."""
    tb = tensor_arg(b, "lu_solve", "b")
    tl = tensor_arg(lu, "lu_solve", "lu", 1)
    adjoint = _TRANS.get(trans, trans == "T" and not tl.is_complex())
    if trans not in ("N", "T", "C") or (trans == "T" and tl.is_complex()):
        raise ValueError(f"lu_solve: trans must be 'N', 'T' or 'C' (and 'T' only for real "
                         f"input), but got {trans!r}")
    return wrap(_call(torch.linalg.lu_solve, tl, tensor_arg(pivots, "lu_solve", "pivots", 2),
                      tb, adjoint=adjoint))


def qr(x, mode="reduced", name=None):
    """QR factorisation: (Q, R), or R alone with mode='r'."""
    a = tensor_arg(x, "qr")
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"(InvalidArgument) QR received unrecognized mode '{mode}' but "
                         "expected one of 'reduced' (default), 'r', or 'complete'")
    q, r = _call(torch.linalg.qr, a, mode)
    return wrap(r) if mode == "r" else (wrap(q), wrap(r))


def svd(x, full_matrices=False, name=None, *, out=None):
    """Singular value decomposition: (U, S, VH) with ``x = U @ diag(S) @ VH``."""
    u, s, vh = _call(torch.linalg.svd, tensor_arg(x, "svd"), full_matrices)
    return wrap(u), wrap(s), wrap(vh)


def eig(x, name=None):
    """Eigenvalues and eigenvectors (complex) of square matrices."""
    w, v = _call(torch.linalg.eig, tensor_arg(x, "eig"))
    return wrap(w), wrap(v)


def _check_uplo(uplo):
    if uplo not in ("L", "U"):
        raise ValueError(f"UPLO must be L or U. But received UPLO is: {uplo}")


def eigh(x, UPLO="L", name=None):
    """Eigenvalues (ascending, real) and eigenvectors of Hermitian matrices."""
    _check_uplo(UPLO)
    w, v = _call(torch.linalg.eigh, tensor_arg(x, "eigh"), UPLO)
    return wrap(w), wrap(v)


def eigvalsh(x, UPLO="L", name=None):
    """Eigenvalues (ascending, real) of Hermitian matrices."""
    _check_uplo(UPLO)
    return wrap(_call(torch.linalg.eigvalsh, tensor_arg(x, "eigvalsh"), UPLO))


def _tol(v):
    return v._t if isinstance(v, Tensor) else v


def matrix_rank(x, tol=None, hermitian=False, atol=None, rtol=None, name=None):
    """Number of singular values above the tolerance: ``tol`` alone is absolute; otherwise
    max(atol, rtol * largest); by default eps * max(m, n) * largest. int64 result."""
    a = tensor_arg(x, "matrix_rank")
    if a.dim() < 2:
        raise ValueError("(InvalidArgument) The dims of input must be greater than 2.")
    if tol is not None:
        if atol is not None or rtol is not None:
            raise ValueError("Only support to use tol alone or use atol and rtol without tol.")
        atol, rtol = tol, 0.0
    atol, rtol = _tol(atol), _tol(rtol)
    if isinstance(atol, torch.Tensor) or isinstance(rtol, torch.Tensor):   # both or neither
        real = a.real.dtype if a.is_complex() else a.dtype
        atol, rtol = (torch.as_tensor(0.0 if v is None else v, dtype=real, device=a.device)
                      for v in (atol, rtol))
    return wrap(_call(torch.linalg.matrix_rank, a, atol=atol, rtol=rtol, hermitian=hermitian))


def pinv(x, rcond=1e-15, hermitian=False, name=None):
    """Pseudo-inverse; singular values below rcond * largest count as zero."""
    return wrap(_call(torch.linalg.pinv, tensor_arg(x, "pinv"), rtol=_tol(rcond),
                      hermitian=hermitian))


def multi_dot(x, name=None):
    """Chained matrix product in the cheapest order; the first and last may be 1-d."""
    if not isinstance(x, (list, tuple)) or len(x) < 2:
        raise ValueError("(InvalidArgument) The number of input tensors in multi_dot op "
                         "should > 1.")
    ts = [tensor_arg(v, "multi_dot", "x", i) for i, v in enumerate(x)]
    return wrap(_call(torch.linalg.multi_dot, ts))


def matrix_power(x, n, name=None):
    """``x`` multiplied by itself n times (n < 0: of the inverse; n = 0: identity)."""
    return wrap(_call(torch.linalg.matrix_power, tensor_arg(x, "matrix_power"), n))


def lstsq(x, y, rcond=None, driver=None, name=None):
    """Least squares ``x @ solution ~ y``: (solution, residuals, rank, singular_values); rank
    is int32, and what the driver does not compute comes back empty ('gelsy' on CPU by
    default)."""
    a, b = _operands(x, y, "lstsq")
    if driver is not None and driver not in ("gels", "gelsy", "gelsd", "gelss"):
        raise ValueError(f"Only support valid driver is 'gels', 'gelsy', 'gelsd', 'gelss' or "
                         f"None for CPU inputs. But got {driver}")
    sol, res, rank, sv = _call(torch.linalg.lstsq, a, b, rcond, driver=driver)
    if driver != "gels":             # 'gels' computes no rank: an empty int64 tensor
        rank = rank.to(torch.int32)
    return wrap(sol), wrap(res), wrap(rank), wrap(sv)


def householder_product(x, tau, name=None):
    """The Q of a QR factorisation from Householder reflectors (LAPACK's orgqr)."""
    a, b = _operands(x, tau, "householder_product", "x", "tau")
    return wrap(_call(torch.linalg.householder_product, a, b))


def ormqr(x, tau, y, left=True, transpose=False, name=None):
    """``Q @ y`` (``y @ Q`` with left=False; Q transposed with transpose=True) where Q is the
    reduced (m x n) ``householder_product(x, tau)``, as Paddle computes it (not LAPACK's
    square Q)."""
    a, b = _operands(x, tau, "ormqr", "x", "tau")
    c = tensor_arg(y, "ormqr", "y", 2)
    assert a.dtype == b.dtype == c.dtype, \
        "The input tau and y must have the same dtype with the x.\n"
    assert a.dim() >= 2 and c.dim() == a.dim() == b.dim() + 1, \
        "x and y must have the same number (>= 2) of dimensions, tau one less"
    assert a.shape[-1] == b.shape[-1], "The innermost dimension of x and tau should be the same"
    assert a.shape[-2 if transpose else -1] == c.shape[-2 if left else -1], \
        "The dimensions of x and y do not match for ormqr"
    q = _call(torch.linalg.householder_product, a, b)
    if transpose:
        q = q.transpose(-1, -2)
    return wrap(_call(torch.matmul, q, c) if left else _call(torch.matmul, c, q))


def cov(x, rowvar=True, ddof=True, fweights=None, aweights=None, name=None):
    """Covariance of the variables in the rows (columns with rowvar=False) of ``x``."""
    a = tensor_arg(x, "cov")
    if not (a.is_floating_point() or a.is_complex()):
        raise TypeError("(InvalidType) Type promotion only support calculations between "
                        "floating-point numbers and between complex and real numbers. But got "
                        f"different data type x: {str(a.dtype)[6:]}, y: float32.")
    if not rowvar and a.dim() == 2:
        a = a.t()
    fw = None if fweights is None else fweights._t
    aw = None if aweights is None else aweights._t
    return wrap(_call(torch.cov, a, correction=int(ddof), fweights=fw, aweights=aw))


def corrcoef(x, rowvar=True, name=None):
    """Pearson correlation coefficients of the rows (columns with rowvar=False)."""
    a = tensor_arg(x, "corrcoef")
    return wrap(_call(torch.corrcoef, a if rowvar or a.dim() < 2 else a.t()))


def svd_lowrank(x, q=None, niter=2, M=None, name=None):
    """Randomised truncated SVD (Halko et al.): (U, S, V) with ``x - M ~ U diag(S) V^H``.
    The random start matrix comes from torch's generator, so the factors differ from
    Paddle's run to run; the singular values and products agree."""
    a = tensor_arg(x, "svd_lowrank")
    m, n = a.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif min(m, n) != 0 and not 0 <= q <= min(m, n):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than "
                         f"min(m, n)={min(m, n)}")
    if not niter >= 0:
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    mt = None if M is None else M._t.broadcast_to(a.shape)
    return tuple(wrap(v) for v in _call(torch.svd_lowrank, a, q, niter, mt))


def pca_lowrank(x, q=None, center=True, niter=2, name=None):
    """``svd_lowrank`` of x with its column means removed (center=True)."""
    a = tensor_arg(x, "pca_lowrank")
    m, n = a.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not 0 <= q <= min(m, n):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than "
                         f"min(m, n)={min(m, n)}")
    if center:
        a = a - a.mean(-2, keepdim=True)
    return svd_lowrank(wrap(a), q, niter)


as_methods(globals(), [
    "matmul", "bmm", "mm", "mv", "dot", "inner", "outer", "kron", "tensordot", "addmm",
    "addmm_", "baddbmm", "cross", "t", "t_", "matrix_transpose", "norm", "dist", "cdist",
    "cholesky", "inverse", "eigvalsh", "slogdet", "solve", "qr", "eig", "eigvals", "lu",
    "lu_unpack", "matrix_power", "pinv", "multi_dot", "cov", "corrcoef", "cholesky_solve",
    "lstsq", "cond", "svd_lowrank", "pca_lowrank", "cholesky_inverse", "householder_product",
    "ormqr"])


# ---------------------------------------------------------------------- histograms, distances
def _data_range(t, lo, hi, widen):
    """(lo, hi) as 0-d float64 tensors: the data's range when both are 0; an empty range is
    widened by ``widen`` on each side."""
    if lo == 0 and hi == 0:
        if t.numel() == 0:
            lo_t = hi_t = torch.zeros((), dtype=torch.float64, device=t.device)
        else:
            lo_t, hi_t = t.min().to(torch.float64), t.max().to(torch.float64)
    else:
        if hi < lo:
            raise ValueError("(InvalidArgument) max must be larger or equal to min.But received "
                             f"max is {float(hi):f}, min is {float(lo):f}")
        lo_t = torch.tensor(float(lo), dtype=torch.float64, device=t.device)
        hi_t = torch.tensor(float(hi), dtype=torch.float64, device=t.device)
    same = lo_t == hi_t
    return torch.where(same, lo_t - widen, lo_t), torch.where(same, hi_t + widen, hi_t)


def histogram(input, bins=100, min=0.0, max=0.0, weight=None, density=False, name=None):
    """Counts of ``input`` in ``bins`` equal bins over [min, max] (the data's range when both
    are 0); int64, or the weights' sums (float32 for a density without weights)."""
    t = tensor_arg(input, "histogram", "input")
    w = None if weight is None else tensor_arg(weight, "histogram", "weight", 1)
    if t.numel() == 0:
        return wrap(torch.zeros(bins, dtype=torch.float32, device=t.device))
    lo, hi = _data_range(t, min, max, 1.0)
    v = t.reshape(-1).to(t.dtype if t.dtype in (torch.float32, torch.float64) else torch.float64)
    lo_v, hi_v = lo.to(v.dtype), hi.to(v.dtype)
    idx = ((v - lo_v) * bins / (hi_v - lo_v)).floor().to(torch.int64)
    idx = torch.where(v == hi_v, bins - 1, idx)
    keep = (v >= lo_v) & (v <= hi_v)
    idx = torch.where(keep, idx, bins)               # out-of-range values go to a spare bin
    if w is None:
        dt = torch.float32 if density else torch.int64
        vals = torch.ones_like(idx, dtype=dt)
    else:
        dt = w.dtype
        vals = w.reshape(-1)
    hist = torch.zeros(bins + 1, dtype=dt, device=t.device).index_add(0, idx, vals)[:bins]
    if density:
        width = ((hi - lo) / bins).to(hist.dtype)
        hist = hist / (hist.sum() * width)
    return wrap(hist)


def histogram_bin_edges(input, bins=100, min=0.0, max=0.0, name=None):
    """The bins + 1 edges that ``histogram`` uses (default float dtype)."""
    from ..framework.dtype import default_float
    t = tensor_arg(input, "histogram_bin_edges", "input")
    lo, hi = _data_range(t, min, max, 0.5)
    steps = torch.linspace(0, 1, bins + 1, dtype=torch.float64, device=t.device)
    return wrap((lo + (hi - lo) * steps).to(default_float().torch))


def histogramdd(x, bins=10, ranges=None, density=False, weights=None, name=None):
    """(hist, edges): the D-dimensional histogram of the points in x's last dim; ``bins`` is an
    int, a list of ints (per dim) or a list of edge Tensors; ``ranges`` is [lo0, hi0, lo1, ...]
    (default the data's range)."""
    t = tensor_arg(x, "histogramdd")
    pts = t.reshape(-1, t.shape[-1])
    w = None if weights is None else tensor_arg(weights, "histogramdd", "weights", 4)
    if isinstance(bins, (list, tuple)) and bins and isinstance(bins[0], Tensor):
        bins = [b._t.to(t.dtype) for b in bins]
    elif isinstance(bins, Tensor):
        bins = [b.to(t.dtype) for b in bins._t.unbind(0)]
    rng = None if ranges is None else [float(r) for r in ranges]
    hist, edges = torch.histogramdd(pts, bins, range=rng, density=density,
                                    weight=None if w is None else w.reshape(-1).to(t.dtype))
    return wrap(hist), [wrap(e) for e in edges]


def bincount(x, weights=None, minlength=0, name=None):
    """Occurrences of each value 0..max(x) in the 1-d non-negative integer x (int64), or the
    sums of ``weights`` there (float32 for float32 weights, else float64)."""
    t = tensor_arg(x, "bincount")
    if t.is_floating_point() or t.dtype is torch.bool or t.is_complex():
        raise TypeError("Elements in Input(x) should all be integers")
    if t.dim() != 1:
        raise ValueError("(InvalidArgument) The 'shape' of Input(X) must be 1-D tensor.But the "
                         f"dimension of Input(X) is [{t.dim()}]")
    if t.numel() and bool((t < 0).any()):         # Paddle checks the values too
        raise ValueError("(InvalidArgument) The elements in input tensor must be non-negative "
                         "ints")
    if weights is None:
        return wrap(torch.bincount(t, minlength=minlength))
    w = tensor_arg(weights, "bincount", "weights", 1)
    dt = torch.float32 if w.dtype is torch.float32 else torch.float64
    return wrap(torch.bincount(t, w.to(dt), minlength=minlength).to(dt))


def pdist(x, p=2.0, name=None):
    """The p-norm distances between all pairs of rows of the 2-d x (upper triangle, row by
    row)."""
    t = tensor_arg(x, "pdist")
    if t.dim() != 2:
        raise AssertionError("The x must be 2-dimensional")
    return wrap(torch.pdist(t, p))


__all__ += ["histogram", "histogram_bin_edges", "histogramdd", "bincount", "pdist"]
as_methods(globals(), ["histogram", "histogram_bin_edges", "histogramdd", "bincount"])


def baddbmm_(input, x, y, beta=1.0, alpha=1.0, name=None):
    """In-place ``baddbmm``: ``input = beta * input + alpha * bmm(x, y)``; returns input."""
    out = baddbmm(input, x, y, beta, alpha)
    t = writable(input)
    if tuple(out._t.shape) != tuple(t.shape):
        raise ValueError(f"(InvalidArgument) The shape of the result {list(out._t.shape)} must "
                         f"be the same as the shape of input {list(t.shape)}")
    t.copy_(out._t)
    return input


__all__ += ["baddbmm_"]
as_methods(globals(), ["baddbmm_"])
