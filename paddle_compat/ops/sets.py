"""Set-like and combinatorial ops: unique, unique_consecutive (with Paddle's index, inverse
and count outputs in ``dtype``), combinations, cartesian_prod and meshgrid ('ij' indexing).
"""
import torch

from ..framework import dtype as _dt
from ..framework.data_feeder import check_variable_and_dtype
from ..framework.tensor import wrap
from .manip_common import _at_run_time, _tensor, _tensors
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names


@op(method=True)
def unique(x, return_index=False, return_inverse=False, return_counts=False, axis=None,
           dtype="int64", sorted=True, name=None):
    """Sorted unique values (of the flattened x, or slices along ``axis``), optionally with the
    first index of each, the inverse map and the counts, in ``dtype``."""
    # Paddle's argument checks (its op binding's TypeErrors, in both modes)
    for pos, flag in ((2, return_index), (3, return_inverse), (4, return_counts)):
        if not isinstance(flag, bool):
            raise TypeError(f"(InvalidType) unique(): argument (position {pos}) must be bool, "
                            f"but got {type(flag).__name__}")
    if axis is not None and not isinstance(axis, int):
        raise TypeError(f"(InvalidType) unique(): argument (position 5) must be list of int, "
                        f"but got {type(axis).__name__} at pos 0")
    # and, while a program is built, x's dtype (TypeError; nothing in dynamic mode)
    check_variable_and_dtype(x, "input", ["float16", "uint16", "float32", "float64", "int32",
                                          "int64"], "unique")
    t = _tensor(x, "unique")
    idt = _dt.convert_dtype(dtype).torch
    if axis is not None and not -t.dim() <= axis < max(t.dim(), 1):
        raise ValueError(f"(InvalidArgument) The axis({axis}) should be less than the dimension "
                         f"size({t.dim()}) of x.")
    if isinstance(t, torch.fx.Proxy):
        # a static Variable: the sizes depend on its values, so the op runs with the program
        # (Paddle's static shapes: -1 along the unique axis)
        flags = dict(return_index=return_index, return_inverse=return_inverse,
                     return_counts=return_counts, axis=axis, dtype=dtype)
        dims = [-1] if axis is None else [-1 if i == axis % t.dim() else d
                                          for i, d in enumerate(x.shape)]
        shape = list(x.shape)
        n_in = (shape[axis] if axis is not None else
                -1 if -1 in shape else int(torch.tensor(shape).prod()))
        # the inverse has one entry per element (slice) of x, the others one per unique value
        kinds = ["out"] + ["index"] * return_index + ["inverse"] * return_inverse + \
            ["counts"] * return_counts
        res = [_at_run_time(unique, (x,), flags,
                            dims if k == "out" else [n_in] if k == "inverse" else [-1],
                            t.dtype if k == "out" else idt, part=i if len(kinds) > 1 else None)
               for i, k in enumerate(kinds)]
        return res[0] if len(res) == 1 else tuple(res)
    if axis is None:
        t = t.reshape(-1)
        axis = 0
    out, inverse, counts = torch.unique(t, sorted=True, return_inverse=True,
                                        return_counts=True, dim=axis)
    res = [wrap(out)]
    if return_index:
        n = t.shape[axis]
        first = torch.full((out.shape[axis],), n, dtype=torch.int64, device=t.device)
        first = first.scatter_reduce(0, inverse, torch.arange(n, device=t.device), "amin")
        res.append(wrap(first.to(idt)))
    if return_inverse:
        res.append(wrap(inverse.to(idt)))
    if return_counts:
        res.append(wrap(counts.to(idt)))
    return res[0] if len(res) == 1 else tuple(res)


@op(method=True)
def unique_consecutive(x, return_inverse=False, return_counts=False, axis=None, dtype="int64",
                       name=None):
    """x with runs of equal consecutive values (or slices along ``axis``) collapsed, with the
    inverse map (over the flattened x when axis is None) and run lengths in ``dtype``."""
    t = _tensor(x, "unique_consecutive")
    idt = _dt.convert_dtype(dtype).torch
    src = t.reshape(-1) if axis is None else t
    out, inverse, counts = torch.unique_consecutive(src, return_inverse=True, return_counts=True,
                                                    dim=0 if axis is None else axis)
    res = [wrap(out)]
    if return_inverse:
        res.append(wrap(inverse.to(idt)))
    if return_counts:
        res.append(wrap(counts.to(idt)))
    return res[0] if len(res) == 1 else tuple(res)


@op(method=True)
def combinations(x, r=2, with_replacement=False, name=None):
    """All length-r combinations of the elements of a 1-d x, as rows."""
    t = _tensor(x, "combinations")
    if t.dim() != 1:
        raise TypeError(f"Expect a 1-D vector, but got x shape paddle.Size({list(t.shape)})")
    if r == 0:
        return wrap(t.new_empty(0))
    return wrap(torch.combinations(t, r, with_replacement).reshape(-1, r))


@op
def cartesian_prod(x, name=None):
    return wrap(torch.cartesian_prod(*_tensors(x, "cartesian_prod")))


@op
def meshgrid(*args, **kwargs):
    """Coordinate grids; takes tensors or one list of tensors. ``indexing='ij'`` (the default)
    or ``'xy'`` (the first two grids transposed, as numpy's and torch's)."""
    indexing = kwargs.get("indexing")
    if indexing is None:
        indexing = "ij"
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = args[0]
    if indexing not in ("ij", "xy"):
        raise ValueError(f"meshgrid: indexing must be 'ij' or 'xy', but got {indexing}")
    if not args:
        raise ValueError("(InvalidArgument) meshgrid(): argument 'inputs' (position 0) must be "
                         "list of Tensors, but got empty list")
    ts = [_tensor(a, "meshgrid") for a in args]
    if indexing == "xy" and len(ts) >= 2:          # the order Paddle's kernel sees them in
        ts[0], ts[1] = ts[1], ts[0]
    for i, t in enumerate(ts[1:], start=1):
        if t.dtype != ts[0].dtype:
            raise ValueError("(InvalidArgument) The data_type of input tensor in list isn't "
                             "consistent, the first tensor is "
                             f"{_dt.from_torch_dtype(ts[0].dtype).name}, but {i}th tensor is "
                             f"{_dt.from_torch_dtype(t.dtype).name}.")
    if indexing == "xy" and len(ts) >= 2:
        ts[0], ts[1] = ts[1], ts[0]
    return [wrap(g) for g in torch.meshgrid(*ts, indexing=indexing)]
