"""Deterministic inputs for a parsed config: one numpy array per TensorSpec.

The seed of a config is the CRC32 of its line, so a config always gets the same values on
real Paddle and on paddle_compat. Values are drawn from ranges that make each API's call
meaningful: floats in [-1, 1), integers in a range wide enough to avoid ties, and per-API
rules where the API needs it (positive inputs for log/sqrt, valid indices for gather-like
ops, well-conditioned matrices for solvers, sorted sequences for searchsorted, labels within
the class count, probabilities in (0, 1)). numpy only.
"""
import zlib

import numpy as np

from .parse import TensorSpec

_INT_RANGE = {"int8": (-100, 100), "uint8": (0, 255), "int16": (-1000, 1000),
              "int32": (-1000, 1000), "int64": (-1000, 1000)}
_NP = {"float16": np.float16, "bfloat16": np.float32, "float32": np.float32,
       "float64": np.float64, "complex64": np.complex64, "complex128": np.complex128,
       "bool": np.bool_, "int8": np.int8, "uint8": np.uint8, "int16": np.int16,
       "int32": np.int32, "int64": np.int64}


def short(api):
    """The API's last name with the Tensor/sparse prefixes dropped: 'paddle.Tensor.log' -> 'log'."""
    return api.rsplit(".", 1)[-1]


def _is_int(dt):
    return dt.startswith("int") or dt == "uint8"


def _is_float(dt):
    return dt in ("float16", "bfloat16", "float32", "float64")


POSITIVE = {"log", "log2", "log10", "sqrt", "rsqrt", "gammaln", "gammainc", "gammaincc",
            "polygamma", "standard_gamma", "poisson", "multinomial", "lgamma", "digamma",
            "i0", "i0e", "i1", "i1e", "multigammaln", "pow", "__pow__", "stanh_pos",
            "log_normal"}
UNIT = {"logit", "bernoulli", "binary_cross_entropy", "log_loss", "bernoulli_"}
DIVIDE = {"divide", "__truediv__", "__rtruediv__", "__div__", "floor_divide", "__floordiv__",
          "mod", "remainder", "floor_mod", "__mod__", "__rmod__", "__rfloordiv__"}
SHIFTS = {"bitwise_left_shift", "bitwise_right_shift", "__lshift__", "__rshift__",
          "__rlshift__", "__rrshift__"}
SOLVERS = {"inv", "inverse", "solve", "det", "slogdet", "matrix_power", "cond", "lu",
           "triangular_solve", "lstsq", "cholesky_solve", "pinv", "matrix_rank", "eig",
           "eigvals", "lu_unpack"}
SYMMETRIC = {"eigh", "eigvalsh", "cholesky"}
LABEL_POS = {  # api -> (label argument (position, keyword), how the class count is found)
    "cross_entropy": ((1, "label"), ("dim", 0, -1)),
    "softmax_with_cross_entropy": ((1, "label"), ("dim", 0, -1)),
    "nll_loss": ((1, "label"), ("dim", 0, 1)),
    "margin_cross_entropy": ((1, "label"), ("dim", 0, 1)),
    "multi_margin_loss": ((1, "label"), ("dim", 0, 1)),
    "dice_loss": ((1, "label"), ("dim", 0, -1)),
    "one_hot": ((0, "x"), ("arg", 1, "num_classes")),
    "class_center_sample": ((0, "label"), ("arg", 1, "num_classes")),
    "hsigmoid_loss": ((1, "label"), ("arg", 2, "num_classes")),
    "embedding": ((0, "x"), ("dim", 1, 0)),
    "shard_index": ((0, "input"), ("arg", 1, "index_num")),
    "sequence_mask": ((0, "x"), ("arg", 1, "maxlen")),
}
SIGNS = {"hinge_embedding_loss", "margin_ranking_loss", "cosine_embedding_loss",
         "soft_margin_loss"}


def config_seed(line):
    return zlib.crc32(line.encode())


def _arg(call, pos, kw, default=None):
    if kw in call.kwargs:
        return call.kwargs[kw]
    if pos is not None and pos < len(call.args):
        return call.args[pos]
    return default


def _tensor_at(call, pos, kw):
    v = _arg(call, pos, kw)
    return v if isinstance(v, TensorSpec) else None


def base_array(spec, rng, lo=-1.0, hi=1.0):
    """Default values for a spec."""
    dt, shape = spec.dtype, spec.shape
    if dt == "bool":
        return rng.random(shape) < 0.5
    if _is_int(dt):
        a, b = _INT_RANGE[dt]
        return rng.integers(a, b, size=shape, endpoint=True).astype(_NP[dt])
    if dt.startswith("complex"):
        z = rng.uniform(lo, hi, shape) + 1j * rng.uniform(lo, hi, shape)
        return z.astype(_NP[dt])
    return rng.uniform(lo, hi, shape).astype(_NP.get(dt, np.float32))


def _cast(arr, dt):
    return np.asarray(arr).astype(_NP.get(dt, np.float32))


def _axis_bound(call, x, axis_pos, axis_kw, default_axis=0):
    if x is None or not x.shape:
        return 1
    axis = _arg(call, axis_pos, axis_kw, default_axis)
    if not isinstance(axis, int):
        axis = default_axis
    return x.shape[axis] if -len(x.shape) <= axis < len(x.shape) else min(x.shape)


def _indices(rng, shape, bound, dt="int64"):
    bound = max(int(bound), 1)
    return rng.integers(0, bound, size=shape).astype(_NP.get(dt, np.int64))


def make_array(call, path, spec, rng):
    """The input array of the tensor at ``path`` in ``call``."""
    name = short(call.api)
    dt = spec.dtype
    arr = base_array(spec, rng)
    first = next((s for p, s in call.tensors()), None)
    is_first = path in (("a", 0), ("k", "x"), ("k", "input")) or spec is first and path[-1] == 0
    shape = spec.shape

    if name in POSITIVE and (_is_float(dt) or dt.startswith("complex")):
        if name in ("pow", "__pow__") and not is_first:
            return arr
        arr = base_array(spec, rng, 0.1, 2.0)
        if name == "multigammaln":
            arr = arr + 3.0
        return _cast(arr, dt)
    if name in ("pow", "__pow__", "__rpow__") and _is_int(dt):
        return _cast(rng.integers(0, 5, size=shape), dt)
    if name == "acosh" and _is_float(dt):
        return _cast(1.0 + rng.uniform(0, 2, shape), dt)
    if name in UNIT and _is_float(dt):
        return _cast(rng.uniform(0.05, 0.95, shape), dt)
    if name == "binomial":
        if is_first:
            return _cast(rng.integers(0, 20, size=shape), dt)
        return _cast(rng.uniform(0.05, 0.95, shape), dt)
    if name in DIVIDE and _is_int(dt):
        v = rng.integers(1, 10, size=shape) * rng.choice([-1, 1], size=shape)
        return _cast(v, dt)
    if name in SHIFTS and _is_int(dt):
        return _cast(rng.integers(0, 7, size=shape), dt)
    if name in ("gcd", "lcm") and _is_int(dt):
        return _cast(rng.integers(-30, 30, size=shape), dt)
    if name in ("kl_div",) and _is_float(dt):
        p = rng.uniform(0.05, 1.0, shape)
        return _cast(np.log(p) if is_first else p, dt)
    if name in ("gaussian_nll_loss",) and _is_float(dt) and path in (("a", 2), ("k", "variance")):
        return _cast(rng.uniform(0.1, 2.0, shape), dt)
    if name in SIGNS and _is_float(dt) and not is_first and path[-1] != 1 or (
            name in SIGNS and path in (("a", 2), ("k", "label"))):
        if name == "soft_margin_loss" or path in (("a", 2), ("k", "label")):
            return _cast(rng.choice([-1.0, 1.0], size=shape), dt)
    if name in ("sigmoid_focal_loss", "multi_label_soft_margin_loss",
                "binary_cross_entropy_with_logits") and path in (("a", 1), ("k", "label")):
        return _cast(rng.integers(0, 2, size=shape), dt)
    if name in SYMMETRIC and len(shape) >= 2 and shape[-1] == shape[-2] and not _is_int(dt):
        a = arr.astype(np.complex128 if dt.startswith("complex") else np.float64)
        a = a @ np.conj(np.swapaxes(a, -1, -2)) + shape[-1] * np.eye(shape[-1])
        return _cast(a, dt)
    if name in SOLVERS and len(shape) >= 2 and shape[-1] == shape[-2] and not _is_int(dt):
        if name == "cholesky_solve" and path in (("a", 1), ("k", "y")):
            a = np.tril(arr) + 2 * np.eye(shape[-1])
            return _cast(a, dt)
        if name == "lu_unpack":
            return arr
        return _cast(arr + 2 * np.eye(shape[-1]), dt)
    if name == "lu_unpack" and _is_int(dt):
        m = shape[-1] if shape else 1
        piv = np.stack([rng.integers(i + 1, m + 1, size=shape[:-1]) for i in range(m)], -1)
        return _cast(piv, dt)

    if name in ("interpolate", "upsample") and not is_first and not dt == "bool":
        if path[:2] in (("k", "size"), ("a", 1)):
            return _cast(rng.integers(2, 9, size=shape), dt)
        return _cast(rng.uniform(1.5, 2.5, shape), dt)
    if name == "affine_grid" and path in (("a", 1), ("k", "out_shape")):
        theta = first
        n = theta.shape[0] if theta is not None and theta.shape else 1
        size = int(np.prod(shape)) if shape else 1
        vals = [n] + list(rng.integers(1, 4, size=1)) + list(rng.integers(2, 7, size=size))
        return _cast(np.array(vals[:size]).reshape(shape), dt)
    if "dropout" in name and not is_first and _is_float(dt) and int(np.prod(shape)) <= 1:
        return _cast(rng.uniform(0.1, 0.9, shape), dt)
    if not _is_int(dt):
        if name in ("searchsorted",) and is_first:
            return np.sort(arr, axis=-1)
        if name == "bucketize" and path in (("a", 1), ("k", "sorted_sequence")):
            return np.sort(arr, axis=-1)
        return arr

    # integer tensors that are indices or labels
    x = first
    if name in LABEL_POS:
        (lpos, lkw), how = LABEL_POS[name]
        if path in (("a", lpos), ("k", lkw)):
            if how[0] == "dim":
                t = _tensor_at(call, how[1], ("weight" if name == "embedding" else "input"))
                t = t or next((s for p, s in call.tensors() if p[1] == how[1]), None)
                bound = t.shape[how[2]] if t is not None and t.shape else 2
            else:
                bound = _arg(call, how[1], how[2], 10)
                bound = bound if isinstance(bound, int) and bound > 0 else 10
            return _indices(rng, shape, bound, dt)
    if name == "hsigmoid_loss" and path[:2] in (("a", 5), ("k", "path_table")):
        w = _tensor_at(call, 3, "weight")
        return _indices(rng, shape, w.shape[0] if w is not None else 1, dt)
    if name == "hsigmoid_loss" and path[:2] in (("a", 6), ("k", "path_code")):
        return _cast(rng.integers(0, 2, size=shape), dt)
    if name == "sample_neighbors":
        colptr = _tensor_at(call, 1, "colptr")
        row = _tensor_at(call, 0, "row")
        nodes = colptr.shape[0] - 1 if colptr is not None else 1
        edges = row.shape[0] if row is not None else 1
        if path in (("a", 0), ("k", "row")):
            return _indices(rng, shape, nodes, dt)
        if path in (("a", 1), ("k", "colptr")):
            cuts = np.sort(rng.integers(0, edges + 1, size=max(nodes - 1, 0)))
            return _cast(np.concatenate([[0], cuts, [edges]])[:shape[0]], dt)
        if path in (("k", "perm_buffer"),):
            return _cast(np.arange(shape[0]), dt)
        return _indices(rng, shape, nodes, dt)
    if name == "adaptive_log_softmax_with_loss" and path in (("a", 1), ("k", "label")):
        cut = _arg(call, 4, "cutoffs", [2])
        return _indices(rng, shape, cut[0] if isinstance(cut, list) and cut else 2, dt)
    if name in ("gather", "index_select", "index_add", "index_fill") and not is_first:
        return _indices(rng, shape, _axis_bound(call, x, 2, "axis"), dt)
    if name in ("take_along_axis", "put_along_axis") and not is_first:
        ax = _arg(call, 2 if name == "take_along_axis" else 3, "axis", 0)
        b = x.shape[ax] if x is not None and x.shape and isinstance(ax, int) else 1
        return _indices(rng, shape, b, dt)
    if name in ("gather_nd", "scatter_nd_add") and not is_first and shape:
        cols = [_indices(rng, shape[:-1] + (1,), x.shape[j] if j < len(x.shape) else 1, dt)
                for j in range(shape[-1])]
        return np.concatenate(cols, -1) if cols else arr
    if name == "scatter_nd" and is_first and shape:
        out = _arg(call, 2, "shape", [1])
        out = list(out) if isinstance(out, (list, tuple)) else [1]
        cols = [_indices(rng, shape[:-1] + (1,), out[j] if j < len(out) else 1, dt)
                for j in range(shape[-1])]
        return np.concatenate(cols, -1) if cols else arr
    if name == "scatter" and not is_first:
        b = x.shape[0] if x is not None and x.shape else 1
        n = int(np.prod(shape)) if shape else 1
        if n <= b:
            return _cast(rng.permutation(b)[:n].reshape(shape), dt)
        return _indices(rng, shape, b, dt)
    if name == "take" and not is_first:
        return _indices(rng, shape, x.numel() if x is not None else 1, dt)
    if name == "index_sample" and not is_first:
        return _indices(rng, shape, x.shape[1] if x is not None and len(x.shape) > 1 else 1, dt)
    if name == "index_put" and not is_first and path[0] in ("a", "k") and len(path) == 3:
        j = path[2]
        return _indices(rng, shape, x.shape[j] if x is not None and j < len(x.shape) else 1, dt)
    if name in ("__getitem__", "__setitem__") and not is_first:
        return _indices(rng, shape, min(x.shape) if x is not None and x.shape else 1, dt)
    if name == "multiplex" and not is_first:
        ins = _arg(call, 0, "inputs", [])
        return _indices(rng, shape, len(ins) if isinstance(ins, list) else 1, dt)
    if name == "bincount":
        return _indices(rng, shape, 10, dt)
    if name == "repeat_interleave" and not is_first:
        return _indices(rng, shape, 4, dt)
    if name.startswith("segment_") and not is_first:
        n = x.shape[0] if x is not None and x.shape else 1
        return _cast(np.sort(_indices(rng, shape, max(n // 2, 1), dt)), dt)
    if name in ("send_u_recv", "send_ue_recv", "send_uv") and not is_first:
        n = x.shape[0] if x is not None and x.shape else 1
        return _indices(rng, shape, n, dt)
    if name == "gather_tree" and not is_first:
        return _indices(rng, shape, shape[-1] if shape else 1, dt)
    if name in ("max_unpool1d", "max_unpool2d", "max_unpool3d") and not is_first:
        nd = int(name[-2])
        sp = int(np.prod(shape[-nd:])) if shape else 1
        return _cast(np.broadcast_to(np.arange(sp).reshape(shape[-nd:]), shape).copy(), dt)
    if name in ("ctc_loss", "rnnt_loss"):
        lp = _tensor_at(call, 0, "log_probs" if name == "ctc_loss" else "input")
        blank = _arg(call, 4, "blank", 0)
        if path in (("a", 1), ("k", "labels"), ("k", "label")):
            c = lp.shape[-1] if lp is not None else 2
            choices = [v for v in range(c) if v != blank] or [0]
            return _cast(rng.choice(choices, size=shape), dt)
        if name == "rnnt_loss":
            if path in (("a", 2), ("k", "input_lengths")):
                return _cast(np.full(shape, lp.shape[1] if lp is not None else 1), dt)
            if path in (("a", 3), ("k", "label_lengths")):
                return _cast(np.full(shape, lp.shape[2] - 1 if lp is not None else 1), dt)
        if path in (("a", 2), ("k", "input_lengths")):
            return _cast(np.full(shape, lp.shape[0] if lp is not None else 1), dt)
        if path in (("a", 3), ("k", "label_lengths")):
            lab = _tensor_at(call, 1, "labels")
            return _cast(np.full(shape, lab.shape[-1] if lab is not None else 1), dt)
    if not is_first and int(np.prod(shape)) <= 8 and not name.startswith("__") and \
            name not in ("bitwise_and", "bitwise_or", "bitwise_xor", "add", "subtract",
                         "multiply", "maximum", "minimum", "equal", "not_equal", "where"):
        return _cast(rng.integers(1, 4, size=shape), dt)  # sizes, counts, axes, offsets
    if name in ("reshape", "view", "expand", "broadcast_to", "tile", "full", "ones", "zeros",
                "empty", "crop", "slice", "strided_slice", "roll", "topk", "kthvalue",
                "split", "tensor_split", "unflatten", "set_", "increment", "arange",
                "linspace", "logspace", "full_like", "scale", "diagonal_scatter") and not is_first:
        return _cast(rng.integers(1, 4, size=shape), dt)  # sizes, counts, offsets
    return arr
