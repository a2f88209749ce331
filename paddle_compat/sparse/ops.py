"""The ops of ``paddle.sparse``: elementwise, binary, matmul family, sum, reshape, transpose,
slice, mask_as, pca_lowrank.

Every op computes on the values with torch's dense kernels (the structure is fixed or computed
from the indices, vectorised), then builds the result with ``tensor.coo`` / ``tensor.like``, so
gradients reach the values of the inputs (and dense operands) as in Paddle. Results keep
Paddle's layout and entry order: an elementwise op keeps its input's indices; add, subtract and
multiply of two sparse tensors hold the union of their entries (row-major, as Paddle's kernels
merge them); divide of two sparse tensors holds every position (Paddle's kernel divides the
dense forms, 0 / 0 included). Real Paddle 3.3.1 has no CPU kernel for matmul, masked_matmul,
mv, addmm (nor pca_lowrank, which uses matmul): ours run on any device and are tested against
numpy.
"""
import math
import warnings

import torch

from ..framework import dtype as _dt
from ..framework.tensor import Tensor, wrap
from ..ops.registry import OpSet
from .tensor import (_linear_keys, coalesce_t, coo, coo_indices, coo_to_csr, csr_to_coo,
                     is_coo, is_csr, is_sparse_t, like, to_dense_t, values_of)

op = OpSet(__name__)
__all__ = op.names


def _sparse_arg(x, api, arg="x"):
    t = x._t if isinstance(x, Tensor) else None
    if t is None or not is_sparse_t(t):
        raise NotImplementedError(f"(Unimplemented) The kernel of ({api}) for input tensors is "
                                  "unimplemented, please check the type of input tensors.")
    return t


def _flat_values(t):
    """Values in Paddle's flat order (a 3-D CSR tensor's batches one after another)."""
    v = values_of(t)
    if t.layout is torch.sparse_csr and t.dim() == 3:
        v = v.reshape((-1,) + tuple(v.shape[2:]))
    return v


def _back_to(layout_of, t):
    """A COO result ``t`` in the layout of ``layout_of``."""
    return coo_to_csr(t) if is_csr(layout_of) else t


# ------------------------------------------------------------------ elementwise
def _float_values(v):
    # Paddle casts an integer input of a math op to float32 ("run type autocast")
    return v if v.is_floating_point() or v.is_complex() else v.to(torch.float32)


def _no_int_kernel(t, v, kernel, types):
    """Paddle registers some sparse kernels for float types only: its RuntimeError."""
    if v.is_floating_point() or v.is_complex():
        return v
    name = _dt.from_torch_dtype(v.dtype).name
    kernel = f"{kernel}_{'coo' if is_coo(t) else 'csr'}"
    raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {name}) of "
                       f"kernel `{kernel}` is not registered. Selected wrong DataType `{name}`. "
                       f"Paddle support following DataTypes: {types}.")


_INT_KERNELS = {"abs": ("abs", "float64, complex128, float32, complex64"),
                "neg": ("scale", "float64, float32")}


def _unary(fn, name, autocast=True, doc=None):
    def f(x, name=None):
        t = _sparse_arg(x, "scale" if name_ == "neg" else name_)     # Paddle's kernel names
        v = values_of(t)
        if name_ in _INT_KERNELS:
            v = _no_int_kernel(t, v, *_INT_KERNELS[name_])
        return wrap(like(t, fn(_float_values(v) if autocast else v)))
    name_ = name
    f.__name__ = name
    f.__doc__ = doc or f"{name} of the stored values of a sparse tensor (same structure)."
    return f


for _name, _fn, _cast in (
        ("abs", torch.abs, False), ("asin", torch.asin, True), ("asinh", torch.asinh, True),
        ("atan", torch.atan, True), ("atanh", torch.atanh, True), ("sin", torch.sin, True),
        ("sinh", torch.sinh, True), ("tan", torch.tan, True), ("tanh", torch.tanh, True),
        ("sqrt", torch.sqrt, True), ("square", torch.square, False),
        ("log1p", torch.log1p, True), ("expm1", torch.expm1, True), ("neg", torch.neg, False),
        ("isnan", torch.isnan, False)):
    op(_unary(_fn, _name, _cast))


@op
def deg2rad(x, name=None):
    """Degrees to radians, elementwise on the values."""
    t = _sparse_arg(x, "scale")
    v = _no_int_kernel(t, values_of(t), "scale", "float64, float32")
    return wrap(like(t, v * (math.pi / 180.0)))


@op
def rad2deg(x, name=None):
    """Radians to degrees, elementwise on the values."""
    t = _sparse_arg(x, "scale")
    v = _no_int_kernel(t, values_of(t), "scale", "float64, float32")
    return wrap(like(t, v * (180.0 / math.pi)))


@op
def pow(x, factor, name=None):
    """``values ** factor`` (factor a number)."""
    t = _sparse_arg(x, "pow")
    return wrap(like(t, torch.pow(values_of(t), factor)))


@op
def cast(x, index_dtype=None, value_dtype=None, name=None):
    """x with its indices (COO) or crows/cols (CSR) cast to ``index_dtype`` and its values to
    ``value_dtype`` (None keeps a dtype). torch holds COO indices as int64 only."""
    t = _sparse_arg(x, "cast")
    v = values_of(t)
    if value_dtype is not None:
        v = v.to(_dt.to_torch_dtype(value_dtype))
    if index_dtype is not None and is_csr(t):
        it = _dt.to_torch_dtype(index_dtype)
        shape = t.shape
        out = torch.sparse_csr_tensor(t.crow_indices().to(it), t.col_indices().to(it),
                                      v.detach(), shape, check_invariants=False)
        return wrap(like(out, v))
    return wrap(like(t, v))


# ------------------------------------------------------------------ binary
def _union(a, b, how):
    """Two COO tensors of one shape combined entry by entry over the union of their (coalesced)
    entries: values ``how(va, vb)`` with zeros where one has no entry."""
    a, b = coalesce_t(a), coalesce_t(b)
    sd = a.sparse_dim()
    sizes = a.shape[:sd]
    ia, ib = a._indices(), b._indices()
    ka, kb = _linear_keys(ia, sizes), _linear_keys(ib, sizes)
    keys, inv = torch.unique(torch.cat([ka, kb]), return_inverse=True)
    na = ka.numel()
    va, vb = values_of(a), values_of(b)
    dt = torch.promote_types(va.dtype, vb.dtype)
    va, vb = va.to(dt), vb.to(dt)
    shape = (keys.numel(),) + tuple(va.shape[1:])
    fa = va.new_zeros(shape).index_add(0, inv[:na], va)
    fb = vb.new_zeros(shape).index_add(0, inv[na:], vb)
    idx = torch.stack(torch.unravel_index(keys, tuple(sizes))) if keys.numel() else \
        ia.new_zeros((sd, 0))
    return coo(idx, how(fa, fb), a.shape)


def _same_shape(x, y):
    if list(x.shape) != list(y.shape):
        raise ValueError(
            "(InvalidArgument) Broadcast dimension mismatch. Operands could not be broadcast "
            f"together with the shape of X = {list(x.shape)} and the shape of Y = "
            f"{list(y.shape)}.")


def _as_coo(t):
    return csr_to_coo(t) if is_csr(t) else t


def _binary(x, y, api, how):
    tx = _sparse_arg(x, api)
    ty = y._t if isinstance(y, Tensor) else None
    if ty is None or not is_sparse_t(ty) or tx.layout is not ty.layout:
        raise NotImplementedError(f"(Unimplemented) The kernel of ({api}) for input tensors is "
                                  "unimplemented, please check the type of input tensors.")
    _same_shape(tx, ty)
    return wrap(_back_to(tx, _union(_as_coo(tx), _as_coo(ty), how)))


@op
def add(x, y, name=None):
    """x + y: two sparse tensors of one layout and shape (the union of their entries), or a
    COO x and a dense 1-D y added to every row of the values (a bias)."""
    tx = x._t if isinstance(x, Tensor) else None
    ty = y._t if isinstance(y, Tensor) else None
    if tx is not None and is_coo(tx) and ty is not None and ty.layout is torch.strided:
        if ty.dim() != 1 or ty.shape[0] != tx.shape[-1]:
            raise NotImplementedError("(Unimplemented) Not support Sparse + Dense in GPU mode")
        v = values_of(tx)
        return wrap(like(tx, v + ty))
    return _binary(x, y, "add", torch.add)


@op
def subtract(x, y, name=None):
    """x - y of two sparse tensors of one layout and shape (the union of their entries)."""
    return _binary(x, y, "subtract", torch.sub)


@op
def multiply(x, y, name=None):
    """x * y of two sparse tensors of one layout and shape (the union of their entries, a
    product with a missing entry stored as 0), or x times a number."""
    if isinstance(y, (int, float)) and not isinstance(y, bool):
        t = _sparse_arg(x, "scale")
        return wrap(like(t, values_of(t) * float(y)))
    return _binary(x, y, "multiply", torch.mul)


@op
def divide(x, y, name=None):
    """x / y: of two sparse tensors of one layout and shape, every position (Paddle divides the
    dense forms, so a missing entry gives 0 / 0 = nan); or x divided by a number."""
    if isinstance(y, (int, float)) and not isinstance(y, bool):
        t = _sparse_arg(x, "divide")
        return wrap(like(t, values_of(t) / float(y)))
    tx = _sparse_arg(x, "divide")
    ty = y._t if isinstance(y, Tensor) else None
    if ty is None or not is_sparse_t(ty) or tx.layout is not ty.layout:
        raise NotImplementedError("(Unimplemented) The kernel of (divide) for input tensors is "
                                  "unimplemented, please check the type of input tensors.")
    _same_shape(tx, ty)
    q = to_dense_t(tx) / to_dense_t(ty)
    sd = tx.sparse_dim() if is_coo(tx) else tx.dim()
    sizes = tuple(tx.shape[:sd])
    idx = torch.stack(torch.unravel_index(torch.arange(math.prod(sizes), device=q.device), sizes))
    out = coo(idx, q.reshape((-1,) + tuple(q.shape[sd:])), tx.shape)
    return wrap(_back_to(tx, out))


# ------------------------------------------------------------------ matmul family
class _SpMM(torch.autograd.Function):
    """2-D sparse (COO/CSR) times dense with torch.sparse.mm; gradients to the sparse values
    and the dense operand."""

    @staticmethod
    def forward(ctx, values, y, a):
        ctx.save_for_backward(values, y)
        ctx.a = a
        return torch.sparse.mm(a, y)

    @staticmethod
    def backward(ctx, g):
        values, y = ctx.saved_tensors
        a = ctx.a
        gv = gy = None
        if a.layout is torch.sparse_csr:        # torch's CSR kernels: sampled product, CSC mm
            if ctx.needs_input_grad[0]:
                gv = torch.sparse.sampled_addmm(a, g, y.T, beta=0.0).values()
                gv = gv.to(values.dtype).reshape(values.shape)
            if ctx.needs_input_grad[1]:
                gy = torch.sparse.mm(a.t(), g)
            return gv, gy, None
        idx = coo_indices(a)
        if ctx.needs_input_grad[0]:
            if a.shape[0] * a.shape[1] <= 32 * idx.shape[1]:    # dense enough: one BLAS mm
                gv = (g @ y.T)[idx[0], idx[1]]
            else:                                               # else one dot per entry
                gv = (g[idx[0]] * y[idx[1]]).sum(-1)
            gv = gv.to(values.dtype)
        if ctx.needs_input_grad[1]:
            at = torch.sparse_coo_tensor(idx.flip(0), a._values() if is_coo(a) else a.values(),
                                         (a.shape[1], a.shape[0]), check_invariants=False)
            gy = torch.sparse.mm(at, g)
        return gv, gy, None


def _sparse_dense(t, y):
    """Sparse t (2-D or batched 3-D, no dense dims) @ dense y."""
    if t.dim() == 2 and y.dim() == 2:
        v = values_of(t)
        if v.requires_grad or y.requires_grad:
            return _SpMM.apply(v, y, t.detach())
        return torch.sparse.mm(t, y)
    idx = coo_indices(t)
    v = _flat_values(t)
    if t.dim() == 3:
        prod = v.unsqueeze(-1) * y[idx[0], idx[2]]
        out = prod.new_zeros((t.shape[0], t.shape[1], y.shape[-1]))
        return out.index_put((idx[0], idx[1]), prod, accumulate=True)
    raise ValueError(f"(InvalidArgument) sparse matmul needs 2-D or 3-D tensors, got "
                     f"{t.dim()}-D and {y.dim()}-D")


def _sparse_sparse(a, b):
    """COO a @ COO b (2-D or 3-D), the symbolic product structure, coalesced."""
    a, b = coalesce_t(a), coalesce_t(b)
    ia, ib = a._indices(), b._indices()
    va, vb = values_of(a), values_of(b)
    batched = a.dim() == 3
    ka = ia[0] * a.shape[2] + ia[2] if batched else ia[1]        # the contracted index
    kb = ib[0] * b.shape[1] + ib[1] if batched else ib[0]        # b is sorted by it
    nk = (a.shape[0] * a.shape[2]) if batched else a.shape[1]
    counts = torch.bincount(kb, minlength=nk)
    starts = torch.cumsum(counts, 0) - counts
    reps = counts[ka]
    ai = torch.repeat_interleave(torch.arange(ka.numel(), device=ka.device), reps)
    offs = torch.arange(ai.numel(), device=ka.device) - torch.repeat_interleave(
        torch.cumsum(reps, 0) - reps, reps)
    bi = starts[ka][ai] + offs
    prod = va[ai] * vb[bi]
    if batched:
        bat, rows, colsb = ia[0][ai], ia[1][ai], ib[2][bi]
        sizes = (a.shape[0], a.shape[1], b.shape[2])
        key = (bat * sizes[1] + rows) * sizes[2] + colsb
    else:
        rows, colsb = ia[0][ai], ib[1][bi]
        sizes = (a.shape[0], b.shape[1])
        key = rows * sizes[1] + colsb
    keys, inv = torch.unique(key, return_inverse=True)
    vals = prod.new_zeros(keys.numel()).index_add(0, inv, prod)
    idx = torch.stack(torch.unravel_index(keys, sizes)) if keys.numel() else \
        ia.new_zeros((len(sizes), 0))
    return coo(idx, vals, sizes, coalesced=True)


def _check_mm(tx, ty):
    if tx.dim() != ty.dim() or tx.dim() not in (2, 3) or tx.shape[-1] != ty.shape[-2] or \
            (tx.dim() == 3 and tx.shape[0] != ty.shape[0]):
        raise ValueError(f"(InvalidArgument) The shapes of x {list(tx.shape)} and y "
                         f"{list(ty.shape)} cannot be multiplied")


@op
def matmul(x, y, name=None):
    """x @ y for a sparse x (COO or CSR, 2-D or 3-D): with a dense y the result is dense; with a
    sparse y of x's layout it is sparse of that layout."""
    tx = _sparse_arg(x, "matmul")
    ty = y._t
    _check_mm(tx, ty)
    if ty.layout is torch.strided:
        return wrap(_sparse_dense(tx, ty))
    if ty.layout is not tx.layout:
        raise NotImplementedError("(Unimplemented) The kernel of (matmul) for input tensors is "
                                  "unimplemented, please check the type of input tensors.")
    out = _sparse_sparse(_as_coo(tx), _as_coo(ty))
    return wrap(_back_to(tx, out))


@op
def masked_matmul(x, y, mask, name=None):
    """(x @ y) of dense x, y computed only at the entries of the sparse ``mask`` (its layout)."""
    tm = _sparse_arg(mask, "masked_matmul")
    tx, ty = x._t, y._t
    _check_mm(tx, ty)
    idx = coo_indices(tm)
    if tm.dim() == 2:
        v = (tx[idx[0]] * ty[:, idx[1]].T).sum(-1)
    else:
        v = (tx[idx[0], idx[1]] * ty[idx[0], :, idx[2]]).sum(-1)
    if is_csr(tm) and tm.dim() == 3:
        v = v.reshape(tm.values().shape)
    return wrap(like(tm, v))


@op
def mv(x, vec, name=None):
    """Sparse 2-D x (COO or CSR) times a dense vector: a dense vector."""
    tx = _sparse_arg(x, "mv")
    tv = vec._t
    if tx.dim() != 2 or tv.dim() != 1 or tx.shape[1] != tv.shape[0]:
        raise ValueError(f"(InvalidArgument) mv needs a 2-D x and a 1-D vec of x's columns, got "
                         f"{list(tx.shape)} and {list(tv.shape)}")
    return wrap(_sparse_dense(tx, tv.unsqueeze(1)).squeeze(1))


@op
def addmm(input, x, y, beta=1.0, alpha=1.0, name=None):
    """``beta * input + alpha * (x @ y)``: dense input with sparse x and dense y (dense result),
    or sparse input, x and y of one layout (sparse result)."""
    ti = input._t
    if not is_sparse_t(getattr(x, "_t", None)):
        _sparse_arg(x, "addmm")
    prod = matmul(x, y)
    if ti.layout is torch.strided:
        return wrap(beta * ti + alpha * prod._t)
    tp = prod._t
    scaled_i = like(ti, values_of(ti) * beta)
    scaled_p = like(tp, values_of(tp) * alpha)
    return add(wrap(scaled_i), wrap(scaled_p))


# ------------------------------------------------------------------ reductions and shape
@op
def sum(x, axis=None, dtype=None, keepdim=False, name=None):
    """Sum of the stored values, over all (a sparse tensor of one entry) or along ``axis``
    (the entries that remain: the coalesced union of the others). A CSR result keeps its
    rank (Paddle's CSR sum reduces the last axis only)."""
    t = _sparse_arg(x, "sum")
    csr_in = is_csr(t)
    c = _as_coo(t)
    v = _flat_values(t) if csr_in else values_of(c)
    if dtype is not None:
        v = v.to(_dt.to_torch_dtype(dtype))
    nd = t.dim()
    if axis is None:
        shape = [1] * nd if (keepdim or csr_in) else [1]
        s = v.sum().reshape(1)
        idx = torch.zeros((len(shape), 1), dtype=torch.int64, device=v.device)
        out = coo(idx, s, shape, coalesced=True)
        return wrap(coo_to_csr(out) if csr_in else out)
    if isinstance(axis, (list, tuple)):
        if len(axis) != 1:
            raise ValueError("(InvalidArgument) sparse sum reduces one axis or all")
        axis = axis[0]
    ax = axis + nd if axis < 0 else axis
    if csr_in and ax != nd - 1:
        raise ValueError("(InvalidArgument) sum of a SparseCsrTensor reduces only the last axis "
                         "(axis=-1) or all of it")
    keepdim = keepdim or csr_in
    sd = c.sparse_dim()
    if ax >= sd:                                   # a dense dim: the values reduce
        out_v = v.sum(ax - sd + 1, keepdim=keepdim)
        shape = list(t.shape)
        if keepdim:
            shape[ax] = 1
        else:
            del shape[ax]
        return wrap(coo(c._indices(), out_v, shape))
    idx = c._indices()
    keep = [d for d in range(sd) if d != ax]
    if not keep:               # the only sparse dim: Paddle keeps it, of size 1
        shape = list(t.shape)
        shape[ax] = 1
        n = 1 if v.shape[0] else 0
        return wrap(coo(idx.new_zeros((1, n)), v.sum(0, keepdim=True)[:n], shape))
    sizes = [t.shape[d] for d in keep]
    key = _linear_keys(idx[keep], sizes)
    keys, inv = torch.unique(key, return_inverse=True)
    out_v = v.new_zeros((keys.numel(),) + tuple(v.shape[1:])).index_add(0, inv, v)
    new_idx = torch.stack(torch.unravel_index(keys, tuple(sizes))) if keys.numel() else \
        idx.new_zeros((len(keep), 0))
    shape = [t.shape[d] for d in range(nd) if d != ax]
    if keepdim:
        new_idx = torch.cat([new_idx[:ax], new_idx.new_zeros((1, new_idx.shape[1])),
                             new_idx[ax:]])
        shape.insert(ax, 1)
    out = coo(new_idx, out_v, shape, coalesced=c.is_coalesced())
    return wrap(coo_to_csr(out) if csr_in else out)


def _all_sparse(t, api):
    c = _as_coo(t)
    if c.dense_dim():
        raise ValueError(f"(InvalidArgument) sparse {api} needs a tensor without dense dims")
    return c


@op
def reshape(x, shape, name=None):
    """x with a new shape (one -1 allowed); entries keep their order."""
    t = _sparse_arg(x, "reshape")
    c = _all_sparse(t, "reshape")
    shape = [int(s) for s in (shape.tolist() if isinstance(shape, Tensor) else shape)]
    n = math.prod(t.shape)
    if shape.count(-1) == 1:
        known = math.prod(s for s in shape if s != -1)
        shape[shape.index(-1)] = n // known if known else 0
    shape = [t.shape[i] if s == 0 else s for i, s in enumerate(shape)]
    if math.prod(shape) != n:
        raise ValueError(f"(InvalidArgument) The 'shape' in ReshapeOp is invalid. The input "
                         f"tensor X'size must be equal to the capacity of 'shape'. But received "
                         f"X's shape = {list(t.shape)}, X's size = {n}, 'shape' is {shape}, the "
                         f"capacity of 'shape' is {math.prod(shape)}.")
    key = _linear_keys(c._indices(), c.shape)
    idx = torch.stack(torch.unravel_index(key, tuple(shape))) if key.numel() else \
        key.new_zeros((len(shape), 0))
    out = coo(idx, _flat_values(t) if is_csr(t) else values_of(c), shape,
              coalesced=c.is_coalesced())          # Paddle passes the flag on
    return wrap(coo_to_csr(out) if is_csr(t) else out)


@op
def transpose(x, perm, name=None):
    """x with its axes permuted; COO entries keep their order, CSR is rebuilt row by row."""
    t = _sparse_arg(x, "transpose")
    c = _all_sparse(t, "transpose")
    perm = [p + t.dim() if p < 0 else p for p in perm]
    if sorted(perm) != list(range(t.dim())):
        raise ValueError(f"(InvalidArgument) perm {perm} is not a permutation of the "
                         f"{t.dim()} axes")
    idx = c._indices()[perm]
    # Paddle passes the coalesced flag on though the entries are no longer sorted; torch's
    # kernels trust the flag, so ours reports False
    out = coo(idx, _flat_values(t) if is_csr(t) else values_of(c),
              [t.shape[p] for p in perm])
    return wrap(coo_to_csr(out) if is_csr(t) else out)


@op
def slice(x, axes, starts, ends, name=None):
    """The entries of x with ``starts[i] <= index < ends[i]`` along ``axes[i]``, shifted."""
    t = _sparse_arg(x, "slice")
    c = _all_sparse(t, "slice")

    def ints(a):
        return [int(s) for s in (a.tolist() if isinstance(a, Tensor) else a)]
    axes, starts, ends = ints(axes), ints(starts), ints(ends)
    if not (len(axes) == len(starts) == len(ends)):
        raise ValueError("(InvalidArgument) The length of axes, starts and ends must be equal")
    idx = c._indices()
    shape = list(t.shape)
    keep = torch.ones(idx.shape[1], dtype=torch.bool, device=idx.device)
    shift = [0] * len(shape)
    for a, s, e in zip(axes, starts, ends):
        a = a + len(shape) if a < 0 else a
        n = shape[a]
        s = max(0, min(n, s + n if s < 0 else s))
        e = max(s, min(n, e + n if e < 0 else e))
        keep &= (idx[a] >= s) & (idx[a] < e)
        shift[a] = s
        shape[a] = e - s
    sel = keep.nonzero().squeeze(1)
    new_idx = idx[:, sel] - torch.tensor(shift, device=idx.device).unsqueeze(1)
    v = _flat_values(t) if is_csr(t) else values_of(c)
    out = coo(new_idx, v[sel], shape, coalesced=c.is_coalesced())
    return wrap(coo_to_csr(out) if is_csr(t) else out)


@op
def is_same_shape(x, y):
    """Whether x and y (sparse or dense) have the same shape."""
    return list(x.shape) == list(y.shape)


@op
def mask_as(x, mask, name=None):
    """The entries of dense x at the positions of the sparse ``mask`` (mask's layout; a COO
    result reports itself coalesced)."""
    tm = _sparse_arg(mask, "mask_as")
    tx = x._t
    if list(tx.shape) != list(tm.shape):
        raise ValueError(f"(InvalidArgument) mask_as needs x and mask of one shape, got "
                         f"{list(tx.shape)} and {list(tm.shape)}")
    idx = coo_indices(tm)
    v = tx[tuple(idx)]
    if is_coo(tm):
        return wrap(coo(tm._indices(), v, tm.shape, coalesced=True))
    if tm.dim() == 3:
        v = v.reshape(tm.values().shape)
    return wrap(like(tm, v))


@op
def pca_lowrank(x, q=None, center=True, niter=2, name=None):
    """Randomized PCA of a sparse 2-D (or batched) matrix: ``(U, S, V)`` dense, with
    ``q = min(6, m, n)`` by default. Random draws come from torch's generator (Paddle's
    sequence is not reproduced); the results are exact up to the sketch's accuracy."""
    t = _sparse_arg(x, "pca_lowrank")
    c = coalesce_t(_as_coo(t))
    m, n = c.shape[-2], c.shape[-1]
    if q is None:
        q = min(6, m, n)
    if not (0 <= q <= min(m, n)):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than "
                         f"min(m, n)={min(m, n)}")
    if c.dim() == 2:                         # torch centres a sparse matrix without densifying
        with warnings.catch_warnings():      # torch's own helper tensor trips the invariant note
            warnings.filterwarnings("ignore", "Sparse invariant checks")
            u, s, v = torch.pca_lowrank(c, q=q, center=center, niter=niter)
    else:
        a = to_dense_t(c)
        u, s, v = torch.pca_lowrank(a, q=q, center=center, niter=niter)
    return wrap(u), wrap(s), wrap(v)
