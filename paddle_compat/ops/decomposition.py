"""Linear algebra beyond products: norms and distances (``norm``, ``vector_norm``,
``matrix_norm``, ``cond``, ``dist``, ``cdist``, ``pdist``), decompositions (``cholesky``,
``lu``, ``qr``, ``svd``, ``eig``/``eigh`` and their low-rank forms), solvers (``solve``,
``lstsq``, ``triangular_solve`` ...), inverses, ranks and ``cov``/``corrcoef``.

Most of them live in ``paddle.linalg`` only (registered with ``ops.linalg.linalg_op``); some
are also Tensor methods or top-level functions. Errors are Paddle's, as ``ops.linalg``
describes (``_call`` translates torch's).
"""
import math

import numpy as np
import torch

from ..framework import dtype as _dt
from ..framework import mode as _mode
from ..framework.data_feeder import check_variable_and_dtype
from ..framework.tensor import Tensor, wrap
from .common import F64, finish, float_attr, no_kernel_error, tensor_arg
from .linalg import _call, _exact_dtypes, _operands, _paddle_error, linalg_op
from .random import randn as _randn
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names


# ---------------------------------------------------------------------- norms and distances
def _axes(axis):
    if isinstance(axis, Tensor):
        axis = axis._t.tolist()
    if isinstance(axis, (list, tuple)):
        return axis[0] if len(axis) == 1 else tuple(axis)
    return axis


_TORCH_P = frozenset([0, 1, 2, math.inf, -math.inf])


def p_norm(t, p, dim=None, keepdim=False):
    """The vector p-norm of the torch tensor ``t`` as Paddle's p_norm kernel computes it. Its
    kernel holds p as a C++ float and takes the root with float(1 / p): for float64 t and a p
    other than 0, 1, 2 and +-inf that is (sum |t| ** float32(p)) ** float32(1 / float32(p)),
    not torch's double p (they differ by ~1e-8); everything else is torch's vector_norm."""
    if t.dtype is F64 and p not in _TORCH_P:
        pf = float_attr(float(p))
        return t.abs().pow(pf).sum(dim, keepdim).pow(float_attr(1.0 / pf))
    return torch.linalg.vector_norm(t, p, dim, keepdim)


@linalg_op
def vector_norm(x, p=2.0, axis=None, keepdim=False, name=None, *, dtype=None, out=None):
    """The p-norm of the vectors along ``axis`` (of all elements when None). p may be any
    float, including 0 (count of non-zeros) and +-inf."""
    a = tensor_arg(x, "vector_norm")
    if not isinstance(p, (int, float)):
        raise ValueError(f"only valid p type is int and float, found {type(p)}")
    if dtype is not None:
        a = x.astype(dtype)._t
    r = wrap(_call(p_norm, a, p, _axes(axis), keepdim))
    return finish(r, out)


_MATRIX_P = ("fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf)


@linalg_op
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


@linalg_op
@op(method=True)
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
    for v in (ax if isinstance(ax, tuple) else (ax,)):
        if isinstance(v, int) and not -a.dim() <= v < max(a.dim(), 1):
            raise ValueError("(InvalidArgument) Attr(axis) value should be in range [-R, R-1], "
                             f"R is the rank of Input(X). But received axis: {v}, R: {a.dim()}.")
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


@op(method=True)
def dist(x, y, p=2, name=None):
    """The p-norm of ``x - y`` (broadcast), as a 0-d tensor."""
    a, b = _operands(x, y, "dist")
    if p == 0:
        # the count of nonzero differences; its gradient is zeros, as Paddle's (torch's dist
        # has no backward for p=0): a term that is 0 and passes a zero gradient
        d = a - b
        return wrap(torch.count_nonzero(d).to(d.dtype) + (d.clamp(-1, 1) * 0).sum())
    if a.dtype is F64 and p not in _TORCH_P:
        # the value of Paddle's kernel (p_norm); the gradient of the float64 norm, as Paddle's
        # dist_grad computes it (norm^(1-p) * |d|^(p-1) * sign(d))
        d = a - b
        exact = torch.linalg.vector_norm(d, p)
        return wrap(exact + (_call(p_norm, d, p) - exact).detach())
    return wrap(_call(torch.dist, a, b, p))


@op(method=True)
def cdist(x, y, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary", name=None):
    """Pairwise p-norm distances between the rows of ``x`` and of ``y``."""
    a, b = _operands(x, y, "cdist")
    if a.dtype is F64 and p not in _TORCH_P and a.dim() >= 2 and b.dim() >= 2:
        return wrap(_call(p_norm, a.unsqueeze(-2) - b.unsqueeze(-3), p, -1))
    return wrap(_call(torch.cdist, a, b, p, compute_mode=compute_mode))


@op
def pdist(x, p=2.0, name=None):
    """The p-norm distances between all pairs of rows of the 2-d x (upper triangle, row by
    row)."""
    t = tensor_arg(x, "pdist")
    if t.dim() != 2:
        raise AssertionError("The x must be 2-dimensional")
    if t.dtype is F64 and p not in _TORCH_P:
        i, j = torch.triu_indices(t.shape[0], t.shape[0], 1, device=t.device)
        return wrap(p_norm(t[i] - t[j], p, -1))
    return wrap(torch.pdist(t, p))


@linalg_op
@op(method=True, export=False)
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
    """``api(x)``: ``fn`` of x's torch tensor, with Paddle's errors."""
    def unary(x, name=None):
        return wrap(_call(fn, tensor_arg(x, api)))
    unary.__name__ = api
    unary.__doc__ = doc
    return unary


det = linalg_op(_unary(torch.linalg.det, "det", "Determinant of each square matrix."))
inv = linalg_op(_unary(torch.linalg.inv, "inv",
                       "Inverse of each square matrix (ValueError if singular)."))
inverse = op(_unary(torch.linalg.inv, "inverse",
                    "Inverse of each square matrix (``linalg.inv``)."), method=True)
svdvals = linalg_op(_unary(torch.linalg.svdvals, "svdvals", "Singular values, descending."))
def _eigvals_of_transpose(a):
    # Paddle hands its row-major matrix to LAPACK's column-major geev as it is, i.e. the
    # transpose: same eigenvalues, in the order LAPACK finds them for the transpose (measured:
    # 60/60 random real and complex matrices; plain eigvals orders them differently in ~2/3)
    return torch.linalg.eigvals(a.mT)


eigvals = linalg_op(op(_unary(_eigvals_of_transpose, "eigvals",
                              "Eigenvalues (complex) of square matrices, in Paddle's order."),
                       method=True, export=False))
matrix_exp = linalg_op(_unary(torch.linalg.matrix_exp, "matrix_exp", "Matrix exponential."))


@linalg_op
@op(method=True, export=False)
def slogdet(x, name=None):
    """Sign and log of the absolute determinant, stacked in one tensor of shape [2, *batch]."""
    sign, logabs = _call(torch.linalg.slogdet, tensor_arg(x, "slogdet"))
    return wrap(torch.stack([sign, logabs.to(sign.dtype)]))


@linalg_op
@op(method=True, export=False)
def solve(x, y, left=True, name=None, *, out=None):
    """Solve ``x @ out = y`` (``out @ x = y`` with left=False); y may be a vector."""
    a, b = _operands(x, y, "solve")
    if a.dtype not in (torch.float32, torch.float64, torch.complex64, torch.complex128):
        no_kernel_error("solve", a.dtype, "float32, float64", arg="x")
    if a.dim() < 2:
        raise ValueError("(InvalidArgument) The input tensor X's dimensions of SolveOp should be "
                         f"larger than 1. But received X's dimensions = {a.dim()}, X's shape = "
                         f"{list(x.shape)}")
    _exact_dtypes(a, b)
    r = wrap(_call(torch.linalg.solve, a, b, left=left))
    return finish(r, out)


@linalg_op
@op(method=True)
def cholesky(x, upper=False, name=None):
    """Cholesky factor (lower, or upper with upper=True) of symmetric positive-definite x."""
    return wrap(_call(torch.linalg.cholesky, tensor_arg(x, "cholesky"), upper=upper))


@linalg_op
@op(method=True, export=False)
def cholesky_solve(x, y, upper=False, name=None):
    """Solve ``A @ out = x`` given the Cholesky factor ``y`` of A."""
    b, f = _operands(x, y, "cholesky_solve")
    f = f.triu() if upper else f.tril()      # only that triangle is read (and gets gradient)
    return wrap(_call(torch.cholesky_solve, b, f, upper))


@linalg_op
@op(method=True, export=False)
def cholesky_inverse(x, upper=False, name=None):
    """Inverse of A given its Cholesky factor ``x``."""
    return wrap(_call(torch.cholesky_inverse, tensor_arg(x, "cholesky_inverse"), upper))


@linalg_op
def triangular_solve(x, y, upper=True, transpose=False, unitriangular=False, name=None):
    """Solve ``x @ out = y`` (or ``x^T @ out = y``) for triangular x; y at least 2-d."""
    a, b = _operands(x, y, "triangular_solve")
    if a.dtype not in (torch.float32, torch.float64, torch.complex64, torch.complex128):
        no_kernel_error("triangular_solve", a.dtype, "complex128, complex64, float32, float64",
                        arg="x")
    if a.dim() < 2:
        raise ValueError("(InvalidArgument) The input tensor X's dimensions of TriangularSolveOp "
                         f"should be >= 2. But received X's dimensions = {a.dim()}, X's shape = "
                         f"{list(x.shape)}")
    if b.dim() < 2:
        raise ValueError("(InvalidArgument) The input tensor Y's dimensions of "
                         f"TriangularSolveOp should be >=2. But received Y's dimensions = "
                         f"{b.dim()}")
    if transpose:
        a, upper = a.transpose(-1, -2), not upper
    return wrap(_call(torch.linalg.solve_triangular, a, b, upper=upper,
                      unitriangular=unitriangular))


@linalg_op
@op(method=True, export=False)
def lu(x, pivot=True, get_infos=False, name=None):
    """LU factorisation: (LU, pivots[, infos]), pivots and infos int32."""
    lu_, piv, info = _call(torch.linalg.lu_factor_ex, tensor_arg(x, "lu"), pivot=pivot)
    if get_infos:
        return wrap(lu_), wrap(piv), wrap(info)
    return wrap(lu_), wrap(piv)


@linalg_op
@op(method=True, export=False)
def lu_unpack(x, y, unpack_ludata=True, unpack_pivots=True, name=None):
    """P, L, U from ``lu``'s output; the parts not asked for come back as empty tensors."""
    a, piv = _operands(x, y, "lu_unpack")
    p, l_, u = _call(torch.lu_unpack, a, piv, unpack_ludata, unpack_pivots)
    return wrap(p), wrap(l_), wrap(u)


_TRANS = {"N": False, "C": True}


@linalg_op
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


@linalg_op
@op(method=True, export=False)
def qr(x, mode="reduced", name=None):
    """QR factorisation: (Q, R), or R alone with mode='r'."""
    a = tensor_arg(x, "qr")
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"(InvalidArgument) QR received unrecognized mode '{mode}' but "
                         "expected one of 'reduced' (default), 'r', or 'complete'")
    q, r = _call(torch.linalg.qr, a, mode)
    return wrap(r) if mode == "r" else (wrap(q), wrap(r))


_LAPACK_DTYPES = frozenset([torch.float32, torch.float64, torch.complex64, torch.complex128])


def _lapack(fn, t, *args):
    """Paddle's CPU kernels for svd and eigh call LAPACK's reference drivers (gesdd, syevd)
    and return their singular/eigenvectors as they come, signs included; torch's CPU build
    calls MKL's, whose signs differ for ~25% (svd) to ~65% (eigh) of random matrices. numpy's
    LAPACK is the reference one, so its vectors are Paddle's (measured on 180 matrices of
    each kind: svd 160/160, eigh float64/complex128 120/120, float32 47/60, where float32
    rounding decides). The numpy result of a CPU tensor with data, or None (static-mode
    proxies, other devices and dtypes, empty or non-finite input)."""
    if not (isinstance(t, torch.Tensor) and t.device.type == "cpu" and t.dtype in _LAPACK_DTYPES
            and t.numel() and t.dim() >= 2):
        return None
    try:
        with np.errstate(all="ignore"):
            return fn(t.detach().resolve_conj().numpy(), *args)
    except (np.linalg.LinAlgError, ValueError):
        return None


def _phases(vec, ref):
    """Unit factors (one per column of ``vec``) that turn torch's singular/eigenvectors into
    the reference ones: +-1 for real input, e^{i theta} for complex."""
    dot = (vec.conj() * ref).sum(-2)
    mag = dot.abs()
    one = torch.ones((), dtype=dot.dtype)
    return torch.where(mag > 0, dot / torch.where(mag > 0, mag, 1).to(dot.dtype), one)


@linalg_op
def svd(x, full_matrices=False, name=None, *, out=None):
    """Singular value decomposition: (U, S, VH) with ``x = U @ diag(S) @ VH``, with Paddle's
    (LAPACK gesdd's) signs of the singular vectors on CPU, see ``_lapack``."""
    a = tensor_arg(x, "svd")
    ref = _lapack(np.linalg.svd, a, full_matrices)
    if ref is not None and not (a.requires_grad and torch.is_grad_enabled()):
        return tuple(wrap(torch.from_numpy(np.ascontiguousarray(r))) for r in ref)
    u, s, vh = _call(torch.linalg.svd, a, full_matrices)
    if ref is not None:
        k = s.shape[-1]
        ru = torch.from_numpy(ref[0][..., :k])
        ph = _phases(u[..., :k], ru)
        u = torch.cat([u[..., :k] * ph.unsqueeze(-2), torch.from_numpy(ref[0][..., k:])], -1)
        vh = torch.cat([vh[..., :k, :] * ph.conj().unsqueeze(-1),
                        torch.from_numpy(ref[2][..., k:, :])], -2)
    return wrap(u), wrap(s), wrap(vh)


_EIG_DTYPES = (torch.float32, torch.float64, torch.complex64, torch.complex128)


@linalg_op
@op(method=True, export=False)
def eig(x, name=None):
    """Eigenvalues and eigenvectors (complex) of square matrices."""
    t = tensor_arg(x, "eig")
    if t.dtype not in _EIG_DTYPES:
        name = _dt.from_torch_dtype(t.dtype).name
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {name}) "
                           f"of kernel `eig` is not registered. Selected wrong DataType `{name}`. "
                           f"Paddle support following DataTypes: float64, complex128, float32, "
                           f"complex64.")
    if isinstance(t, torch.Tensor) and t.requires_grad:
        w, v = _call(_Eig.apply, t)
    else:
        w, v = _call(torch.linalg.eig, t)
    return wrap(w), wrap(v)


class _Eig(torch.autograd.Function):
    """eig with Paddle's gradient: torch's formula without its check that the loss does not
    depend on the eigenvectors' phases (Paddle's eig_grad computes it for any loss)."""

    @staticmethod
    def forward(ctx, a):
        w, v = torch.linalg.eig(a)
        ctx.save_for_backward(w, v)
        ctx.real_input = not a.is_complex()
        return w, v

    @staticmethod
    def backward(ctx, gw, gv):
        w, v = ctx.saved_tensors
        vh = v.mH
        ga = torch.zeros_like(v) if gv is None else vh @ gv
        if gv is not None:
            ga = ga - vh @ (v * ga.diagonal(0, -2, -1).real.unsqueeze(-2))
        wc = w.conj()
        e = wc.unsqueeze(-2) - wc.unsqueeze(-1)
        e.diagonal(0, -2, -1).fill_(1)
        ga = ga / e
        ga.diagonal(0, -2, -1).copy_(torch.zeros_like(w) if gw is None else gw)
        ga = torch.linalg.solve(vh, ga @ vh)
        return ga.real if ctx.real_input else ga


def _check_hermitian_input(x, uplo, op_name):
    """Paddle's checks of eigh/eigvalsh's input, in its order: batches of square matrices, then
    UPLO (ValueError); while a program is built, a float or complex dtype (TypeError)."""
    shape = list(x.shape)
    if len(shape) < 2:
        raise ValueError("Input(input) only support >=2 tensor, but received length of "
                         f"Input(input) is {len(shape)}.")
    if shape[-1] != shape[-2]:
        raise ValueError("The input matrix must be batches of square matrices. But received "
                         f"x's dimension: {shape}")
    _check_uplo(uplo)
    check_variable_and_dtype(x, "dtype", ["float32", "float64", "complex64", "complex128"],
                             op_name)


def _check_uplo(uplo):
    if uplo not in ("L", "U"):
        raise ValueError(f"UPLO must be L or U. But received UPLO is: {uplo}")


@linalg_op
def eigh(x, UPLO="L", name=None):
    """Eigenvalues (ascending, real) and eigenvectors of Hermitian matrices, with Paddle's
    (LAPACK syevd's) signs of the eigenvectors on CPU, see ``_lapack``."""
    a = tensor_arg(x, "eigh")
    _check_hermitian_input(x, UPLO, "eigh")
    ref = _lapack(np.linalg.eigh, a, UPLO)
    if ref is not None and not (a.requires_grad and torch.is_grad_enabled()):
        return tuple(wrap(torch.from_numpy(np.ascontiguousarray(r))) for r in ref)
    w, v = _call(torch.linalg.eigh, a, UPLO)
    if ref is not None:
        v = v * _phases(v, torch.from_numpy(ref[1])).unsqueeze(-2)
    return wrap(w), wrap(v)


@linalg_op
@op(method=True)
def eigvalsh(x, UPLO="L", name=None):
    """Eigenvalues (ascending, real) of Hermitian matrices."""
    a = tensor_arg(x, "eigvalsh")
    if not _mode.in_dynamic_mode():
        _check_hermitian_input(x, UPLO, "eigvalsh")
    elif a.dim() < 2:              # eager Paddle: its kernel's checks, and any UPLO but "L" is upper
        raise ValueError("(InvalidArgument) The Input(X) should have at least 2 dimensions.But "
                         f"received a {a.dim()} dimension tensor.")
    elif a.shape[-1] != a.shape[-2]:
        raise ValueError("(InvalidArgument) Eigvalsh op is designed for square matrix, "
                         "consequently inner-most 2 dimensions of Input(X) should be symmetric. "
                         f"But received X's shape[-2] = {a.shape[-2]} and shape[-1] = "
                         f"{a.shape[-1]}.")
    return wrap(_call(torch.linalg.eigvalsh, a, "L" if UPLO == "L" else "U"))


def _tol(v):
    return v._t if isinstance(v, Tensor) else v


@linalg_op
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
    # a tensor tolerance (also a static Variable's payload) makes both tensors (torch takes
    # both or neither), in x's real dtype
    tensorish = [v is not None and not isinstance(v, (int, float)) for v in (atol, rtol)]
    if any(tensorish):
        real = a.real.dtype if a.is_complex() else a.dtype
        atol, rtol = (v.to(real) if is_t else
                      torch.as_tensor(0.0 if v is None else v, dtype=real, device=a.device)
                      for v, is_t in zip((atol, rtol), tensorish))
    return wrap(_call(torch.linalg.matrix_rank, a, atol=atol, rtol=rtol, hermitian=hermitian))


@linalg_op
@op(method=True, export=False)
def pinv(x, rcond=1e-15, hermitian=False, name=None):
    """Pseudo-inverse; singular values below rcond * largest count as zero."""
    return wrap(_call(torch.linalg.pinv, tensor_arg(x, "pinv"), rtol=_tol(rcond),
                      hermitian=hermitian))


@linalg_op
@op(method=True, export=False)
def matrix_power(x, n, name=None):
    """``x`` multiplied by itself n times (n < 0: of the inverse; n = 0: identity)."""
    return wrap(_call(torch.linalg.matrix_power, tensor_arg(x, "matrix_power"), n))


@linalg_op
@op(method=True, export=False)
def lstsq(x, y, rcond=None, driver=None, name=None):
    """Least squares ``x @ solution ~ y``: (solution, residuals, rank, singular_values); rank
    is int32, and what the driver does not compute comes back empty ('gelsy' on CPU by
    default)."""
    a, b = _operands(x, y, "lstsq")
    if a.dim() < 2:
        raise ValueError("The shape of x should be (*, M, N), but received ndim is "
                         f"[{a.dim()} < 2]")
    if b.dim() < 2:
        raise ValueError("The shape of y should be (*, M, K), but received ndim is "
                         f"[{b.dim()} < 2]")
    if a.shape[-2] != b.shape[-2]:
        raise ValueError(f"x with shape (*, M = {a.shape[-2]}, N) and y with shape "
                         f"(*, M = {b.shape[-2]}, K) should have same M.")
    if driver is not None and driver not in ("gels", "gelsy", "gelsd", "gelss"):
        raise ValueError(f"Only support valid driver is 'gels', 'gelsy', 'gelsd', 'gelss' or "
                         f"None for CPU inputs. But got {driver}")
    sol, res, rank, sv = _call(torch.linalg.lstsq, a, b, rcond, driver=driver)
    if driver != "gels":             # 'gels' computes no rank: an empty int64 tensor
        rank = rank.to(torch.int32)
    return wrap(sol), wrap(res), wrap(rank), wrap(sv)


@linalg_op
@op(method=True, export=False)
def householder_product(x, tau, name=None):
    """The Q of a QR factorisation from Householder reflectors (LAPACK's orgqr)."""
    a, b = _operands(x, tau, "householder_product", "x", "tau")
    return wrap(_call(torch.linalg.householder_product, a, b))


@linalg_op
@op(method=True, export=False)
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


@linalg_op
@op(method=True, export=False)
def svd_lowrank(x, q=None, niter=2, M=None, name=None):
    """Randomised truncated SVD (Halko et al.): (U, S, V) with ``x - M ~ U diag(S) V^H``.
    The random start matrix is drawn as Paddle draws it (``paddle.randn`` on the shared
    generator), so under ``paddle.seed`` the factors are Paddle's on CPU."""
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
    # Paddle's algorithm step by step, so that its one random draw (a standard normal [n, q]
    # matrix from the shared generator) and its QR/SVD signs give Paddle's factors
    if (m < n or n > q) and m and n:
        qb = _lowrank_basis(a.mT, q, niter, None if mt is None else mt.mT)
        qc = qb.conj()
        bt = a @ qc if mt is None else a @ qc - mt @ qc
        u, s, vh = (v._t for v in svd(wrap(bt)))
        return wrap(u), wrap(s), wrap(qb @ vh.mT.conj())
    if m and n:
        qb = _lowrank_basis(a, q, niter, mt)
        qc = qb.conj()
        b = a.mT @ qc if mt is None else a.mT @ qc - mt.mT @ qc
        u, s, vh = (v._t for v in svd(wrap(b.mT)))
        return wrap(qb @ u), wrap(s), wrap(vh.mT.conj())
    return tuple(wrap(v) for v in _call(torch.svd_lowrank, a, q, niter, mt))


def _lowrank_basis(a, q, niter, mt):
    """An orthonormal basis (Q of QR) of the range of ``a`` (minus ``mt``): a random [n, q]
    start, refined by ``niter`` power iterations."""
    start = _randn([a.shape[-1], q], _dt.from_torch_dtype(a.dtype).name)._t
    ah = a.mT.conj()
    mh = None if mt is None else mt.mT.conj()

    def prod(x, y, by):
        return x @ y if mt is None else x @ y - by @ y
    basis = torch.linalg.qr(prod(a, start, mt))[0]
    for _ in range(niter):
        basis = torch.linalg.qr(prod(ah, basis, mh))[0]
        basis = torch.linalg.qr(prod(a, basis, mt))[0]
    return basis


@linalg_op
@op(method=True, export=False)
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


# ---------------------------------------------------------------------- covariance
@linalg_op
@op(method=True, export=False)
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
    if aw is not None and not aw.is_floating_point():
        # Paddle casts the weights to x's dtype: integer aweights are accepted
        aw = aw.to(a.real.dtype if a.is_complex() else a.dtype)
    return wrap(_call(torch.cov, a, correction=int(ddof), fweights=fw, aweights=aw))


@linalg_op
@op(method=True, export=False)
def corrcoef(x, rowvar=True, name=None):
    """Pearson correlation coefficients of the rows (columns with rowvar=False). While a program
    is built ``x`` must be float32/float64 (Paddle's TypeError)."""
    check_variable_and_dtype(x, "dtype", ["float32", "float64"], "corrcoef")
    a = tensor_arg(x, "corrcoef")
    if not 1 <= a.dim() <= 2:
        raise ValueError("Input(x) only support N-D (1<=N<=2) tensor in corrcoef, but received "
                         f"length of Input(input) is {a.dim()}.")
    return wrap(_call(_corrcoef, a if rowvar or a.dim() < 2 else a.t()))


def _corrcoef(a):
    """torch.corrcoef's steps (the covariance, scaled by the standard deviations, real values clipped to
    [-1, 1]) in ops a static graph can record (torch.corrcoef itself checks values eagerly)."""
    rows = a if a.dim() == 2 else a.reshape(1, -1)
    xm = rows - rows.mean(dim=1, keepdim=True)
    c = xm @ xm.conj().transpose(0, 1) / (rows.shape[1] - 1)
    if a.dim() < 2:
        c = c.reshape(())
        return c / c
    std = torch.diagonal(c).sqrt()
    c = c / std[:, None]
    c = c / std[None, :]
    return c if c.is_complex() else c.clamp(-1, 1)
