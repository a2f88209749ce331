"""Building and editing matrices: triangles (triu/tril), diagonals (diag, diag_embed,
diagflat, diagonal_scatter, fill_diagonal_*), vander and block_diag.

Batched inputs work on their last two dims where torch's do; Paddle's argument checks and
exception types are kept (``_invalid``/``_out_of_range``).
"""
import numpy as np
import torch

from ..framework.tensor import wrap, writable
from .common import F64, finish, float_attr, not_tensor
from .manip_common import _invalid, _out_of_range, _tensor, _tensors
from .reduction import diagonal
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names


# ---------------------------------------------------------------------- triangles
@op(method=True)
def triu(x, diagonal=0, name=None):
    try:
        return wrap(torch.triu(x._t, diagonal))
    except AttributeError:
        raise not_tensor("triu", "x", 0, x) from None
    except RuntimeError as e:
        raise _invalid(e) from None


@op(method=True)
def triu_(x, diagonal=0, name=None):
    writable(x)
    x._t.triu_(diagonal)
    return x


@op(method=True)
def tril(x, diagonal=0, name=None, *, out=None):
    try:
        r = torch.tril(x._t, diagonal)
    except AttributeError:
        raise not_tensor("tril", "x", 0, x) from None
    except RuntimeError as e:
        raise _invalid(e) from None
    return finish(wrap(r), out)


@op(method=True)
def tril_(x, diagonal=0, name=None):
    writable(x)
    x._t.tril_(diagonal)
    return x


# ---------------------------------------------------------------------- diagonals
@op(method=True)
def diag(x, offset=0, padding_value=0, name=None):
    """A 1-d x becomes a square matrix with x on diagonal ``offset`` (the rest
    ``padding_value``); a 2-d x gives that diagonal."""
    t = _tensor(x, "diag")
    # Paddle's argument parser: offset an int, padding_value a number
    if not isinstance(offset, (int, np.integer)):
        raise TypeError(f"(InvalidType) diag(): argument (position 2) must be int, but got "
                        f"{type(offset).__name__}")
    if not isinstance(padding_value, (int, float, np.number)):
        raise TypeError(f"(InvalidType) diag(): argument (position 3) must be double, but got "
                        f"{type(padding_value).__name__}")
    if t.dim() == 1:
        out = torch.diag(t, offset)
        if padding_value != 0:
            if t.dtype is F64:                        # Paddle's float attribute
                padding_value = float_attr(padding_value)
            on = torch.diag(torch.ones_like(t, dtype=torch.bool), offset)
            out = out.masked_fill(~on, padding_value)
        return wrap(out)
    if t.dim() == 2:
        return wrap(torch.diagonal(t, offset).clone())
    raise ValueError(f"(InvalidArgument) diag(): the input must be 1-D or 2-D, but got "
                     f"{t.dim()}-D.")


@op(method=True)
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    t = _tensor(input, "diag_embed", "input")
    try:
        return wrap(torch.diag_embed(t, offset, dim1, dim2))
    except IndexError as e:
        raise _out_of_range(e) from None
    except RuntimeError as e:
        raise _invalid(e) from None


@op(method=True)
def diagflat(x, offset=0, name=None):
    """A 2-d tensor with the flattened x on its ``offset`` diagonal."""
    return wrap(torch.diagflat(_tensor(x, "diagflat"), offset))


@op(method=True)
def diagonal_scatter(x, y, offset=0, axis1=0, axis2=1, name=None):
    """A copy of x with its diagonal (as ``diagonal(x, offset, axis1, axis2)``) set to y."""
    t = _tensor(x, "diagonal_scatter")
    v = _tensor(y, "diagonal_scatter", "y", 1)
    d = diagonal(x, offset, axis1, axis2)._t
    if d.shape != v.shape:
        raise AssertionError(f"the y shape should be {list(d.shape)}")
    return wrap(torch.diagonal_scatter(t, v.to(t.dtype), offset, axis1, axis2))


@op(method=True, export=False)
def fill_diagonal_(x, value, offset=0, wrap=False, name=None):
    """Fill the diagonal of x in place; Paddle walks the flat data with the stride of one step
    along every axis (so N-d x must have equal dims) and, without ``wrap``, stops after the first
    ``ncols`` rows."""
    writable(x)
    t = x._t
    shape = t.shape
    cols = shape[1]
    step = sum(t.new_empty(shape).stride()) if t.dim() else 1
    size = t.numel() if (wrap or t.dim() != 2) else min(t.numel(), cols * cols)
    pos = torch.arange(0, size, step, device=t.device)
    pos = pos[((pos % cols) + offset >= 0) & ((pos % cols) + offset < cols)] + offset
    flat = t.view(-1) if t.is_contiguous() else None
    if t.dtype is F64:                                # Paddle's float attribute
        value = float_attr(value)
    if flat is None:
        tmp = t.contiguous()
        tmp.view(-1)[pos] = value
        t.copy_(tmp)
    else:
        flat[pos] = value
    return x


def _fill_diagonal_tensor(x, y, offset, dim1, dim2, api):
    t = _tensor(x, api)
    v = _tensor(y, api, "y", 1).to(t.dtype)
    try:
        return t, v, torch.diagonal(t, offset, dim1, dim2)
    except (RuntimeError, IndexError) as e:
        raise _invalid(e) from None


@op(method=True, export=False)
def fill_diagonal_tensor(x, y, offset=0, dim1=0, dim2=1, name=None):
    """A copy of x with ``y`` written on the diagonal (dim1, dim2, offset); y's shape is the
    diagonal's: the other dims, then the diagonal length."""
    t, v, d = _fill_diagonal_tensor(x, y, offset, dim1, dim2, "fill_diagonal_tensor")
    try:
        return wrap(torch.diagonal_scatter(t, v.expand(d.shape), offset, dim1, dim2))
    except RuntimeError as e:
        raise _invalid(e) from None


@op(method=True, export=False)
def fill_diagonal_tensor_(x, y, offset=0, dim1=0, dim2=1, name=None):
    writable(x)
    t, v, d = _fill_diagonal_tensor(x, y, offset, dim1, dim2, "fill_diagonal_tensor_")
    d.copy_(v)
    return x


# ---------------------------------------------------------------------- other matrices
@op(method=True)
def vander(x, n=None, increasing=False, name=None):
    """Columns of powers of the 1-d x (decreasing unless ``increasing``), as a running product
    (torch.vander's own backward breaks on its in-place steps)."""
    t = _tensor(x, "vander")
    if t.dim() != 1:
        raise ValueError("(InvalidArgument) vander(): the input x must be a 1-D Tensor.")
    n = t.shape[0] if n is None else n
    if n < 0:
        raise ValueError("(InvalidArgument) vander(): n must be non-negative.")
    if n == 0:
        return wrap(t.new_empty((t.shape[0], 0)))
    cols = torch.cat([torch.ones_like(t).unsqueeze(1), t.unsqueeze(1).expand(-1, n - 1)], 1)
    out = cols.cumprod(1, dtype=t.dtype)
    return wrap(out if increasing else out.flip(1))


@op(method=True)
def block_diag(inputs, name=None):
    """The block-diagonal matrix of the (at most 2-D) tensors ``inputs``."""
    try:
        return wrap(torch.block_diag(*_tensors(inputs, "block_diag")))
    except RuntimeError as e:
        raise _invalid(e) from None
