"""``paddle.incubate.autograd``: ``Jacobian`` / ``Hessian`` (matrices evaluated lazily, a row at
a time, when indexed), ``vjp`` / ``jvp``, and the static-graph ``grad`` / ``forward_grad`` with
the "prim" switches.

Shapes, as Paddle's: the outputs and the inputs are each flattened and concatenated, so
``Jacobian(f, xs)`` is ``[n_out, n_in]``; with ``is_batched=True`` the first dimension of every
input and output is a batch, and the Jacobian is ``[B, n_out, n_in]`` (the per-sample
matrices). ``Hessian(f, xs)`` is the Jacobian of the gradient of a one-element ``f``.
Results stay differentiable (``stop_gradient=False``).

    J = paddle.incubate.autograd.Jacobian(lambda x: paddle.sin(x) * x, x)   # x: [2, 2]
    J.shape        # [4, 4]
    J[1]           # only row 1 is computed
    J[:]           # all of it

``grad`` / ``forward_grad`` / ``enable_prim`` / ``disable_prim`` / ``prim_enabled`` /
``prim2orig`` work in static mode only, as in Paddle (AssertionError in dynamic mode).
Paddle's "prim" mode lowers ops into primitive ones before differentiating; here programs are
differentiated by torch's autograd either way, so the switch only records the setting and
``prim2orig`` has no primitive ops to turn back.
"""
import torch

from ..framework import mode as _mode
from ..framework.tensor import Tensor, wrap
from ..static.backward import gradients as _static_gradients

__all__ = ["vjp", "jvp", "Jacobian", "Hessian", "enable_prim", "disable_prim",
           "forward_grad", "grad", "prim_enabled", "prim2orig"]


def _as_list(xs):
    return list(xs) if isinstance(xs, (list, tuple)) else [xs]


def _leaves(xs):
    """Torch tensors for the inputs that the function's graph will start from."""
    out = []
    for x in _as_list(xs):
        if not isinstance(x, Tensor):
            raise TypeError(f"The inputs should be Tensors, but got {type(x).__name__}.")
        t = x._t
        out.append(t if t.requires_grad else t.detach().requires_grad_(True))
    return out


def _call(func, leaves, xs):
    args = [wrap(t) for t in leaves]
    return func(*args) if isinstance(xs, (list, tuple)) else func(args[0])


def _grads(ys, xs, vs, create_graph=True):
    """d(sum v*y)/dx for each x; zeros where no y depends on x (Paddle's answer, also when
    no output has a graph at all: a constant gradient, a zero Hessian)."""
    if vs is None:
        vs = [None] * len(ys)
    pairs = [(y, v) for y, v in zip(ys, vs) if y.requires_grad]
    gs = [None] * len(xs)
    if pairs:
        gs = torch.autograd.grad([y for y, _ in pairs], xs, grad_outputs=[v for _, v in pairs],
                                 create_graph=create_graph, retain_graph=True,
                                 allow_unused=True)
    return [torch.zeros_like(x) if g is None else g for x, g in zip(xs, gs)]


def _check_v(v, ys, name="v"):
    if v is None:
        return [torch.ones_like(y) for y in ys]
    vs = [t._t for t in _as_list(v)]
    if len(vs) != len(ys):
        raise RuntimeError(f"The argument {name} is a tuple of invalid length:should be "
                           f"{len(ys)} but got {len(vs)}.")
    for i, (a, y) in enumerate(zip(vs, ys)):
        if tuple(a.shape) != tuple(y.shape):
            raise RuntimeError(f"The {name}[{i}] has invalid shape: should be "
                               f"paddle.Size({list(y.shape)}) but got "
                               f"paddle.Size({list(a.shape)}).")
    return vs


def _differentiable(t):
    """``t`` with ``stop_gradient=False`` where it is floating (Paddle's results of vjp, jvp,
    Jacobian and Hessian always are, zeros of an output with no graph too)."""
    if not t.requires_grad and t.is_floating_point():
        t = t.detach().requires_grad_(True)
    return t


def _like(structure, ts):
    ts = [_differentiable(t) for t in ts]
    return [wrap(t) for t in ts] if isinstance(structure, (list, tuple)) else wrap(ts[0])


def vjp(func, xs, v=None):
    """``(func(*xs), v^T J)``: the outputs and the vector-Jacobian product (``v`` defaults to
    ones), the product shaped as ``xs``."""
    leaves = _leaves(xs)
    ys = _call(func, leaves, xs)
    yt = [y._t for y in _as_list(ys)]
    vs = _check_v(v, yt)
    return ys, _like(xs, _grads(yt, leaves, vs))


def jvp(func, xs, v=None):
    """``(func(*xs), J v)``: the outputs and the Jacobian-vector product (``v`` shaped as
    ``xs``, default ones), the product shaped as the outputs. Computed as the derivative of
    a vector-Jacobian product (two reverse passes)."""
    leaves = _leaves(xs)
    ys = _call(func, leaves, xs)
    yt = [y._t for y in _as_list(ys)]
    vs = _check_v(v, leaves)
    us = [torch.zeros_like(y, requires_grad=True) for y in yt]
    g = _grads(yt, leaves, us)
    jv = _grads(g, us, vs)
    return ys, _like(ys, jv)


class _Matrix:
    """The lazily evaluated matrix behind Jacobian and Hessian."""

    def __init__(self, func, xs, is_batched):
        self._batched = is_batched
        self._leaves = _leaves(xs)
        ys = _call(func, self._leaves, xs)
        self._ys = [y._t for y in _as_list(ys)]
        self._flat = self._flatten(self._ys)
        self._xflat = self._flatten(self._leaves)
        self._rows = {}
        n_out, n_in = self._flat.shape[-1], self._xflat.shape[-1]
        self._shape = [self._flat.shape[0], n_out, n_in] if is_batched else [n_out, n_in]

    def _flatten(self, ts):
        if self._batched:
            return torch.cat([t.reshape(t.shape[0], -1) for t in ts], 1)
        return torch.cat([t.reshape(-1) for t in ts])

    @property
    def shape(self):
        return tuple(self._shape)

    def _row(self, i):
        if i not in self._rows:
            y = self._flat[:, i].sum() if self._batched else self._flat[i]
            gs = _grads([y], self._leaves, None)
            self._rows[i] = self._flatten(gs)
        return self._rows[i]

    def _evaluate(self, index):
        n_rows = self._shape[-2]
        rows = range(n_rows)
        idx = index if isinstance(index, tuple) else (index,)
        pos = 1 if self._batched else 0
        if len(idx) > pos and not any(i is Ellipsis or i is None for i in idx[:pos + 1]):
            sel = torch.arange(n_rows)[idx[pos]]
            rows = sel.reshape(-1).tolist()
        full = torch.zeros(self._shape, dtype=self._flat.dtype, device=self._flat.device)
        parts = {r: self._row(r) for r in rows}
        if parts:
            which = torch.tensor(list(parts), dtype=torch.int64)
            stacked = torch.stack(list(parts.values()), -2)
            full = full.index_put((torch.arange(self._shape[0])[:, None], which[None, :])
                                  if self._batched else (which,), stacked)
        return full[index]

    def __getitem__(self, index):
        if isinstance(index, Tensor):
            index = index._t
        return wrap(_differentiable(self._evaluate(index)))


class Jacobian(_Matrix):
    """The Jacobian of ``func`` at ``xs`` (see the module docstring for its shape), computed
    row by row as it is indexed."""

    def __init__(self, func, xs, is_batched=False):
        super().__init__(func, xs, is_batched)


class Hessian(_Matrix):
    """The Hessian of a one-element (per sample, when batched) ``func`` at ``xs``: the Jacobian
    of its gradient, ``[n_in, n_in]`` or ``[B, n_in, n_in]``."""

    def __init__(self, func, xs, is_batched=False):
        def gradient(*args):
            y = func(*args)
            yt = y._t if isinstance(y, Tensor) else None
            per = 1 if yt is None else (yt[0].numel() if is_batched and yt.dim() else
                                        yt.numel())
            if yt is None or per != 1:
                raise RuntimeError("The function given to Hessian should return as single "
                                   "element Tensor or batched single element Tensor.")
            leaves = [a._t for a in args]
            gs = _grads([yt.sum()], leaves, None)
            return [wrap(g) for g in gs]
        super().__init__(gradient, xs if isinstance(xs, (list, tuple)) else [xs], is_batched)


# ---------------------------------------------------------------------- static graph, prim
_PRIM = [False]


def _static_only(api):
    assert not _mode.in_dynamic_mode(), (
        f"In PaddlePaddle 2.x, we turn on dynamic graph mode by default, and '{api}()' is "
        f"only supported in static graph mode. So if you want to use this api, please call "
        f"'paddle.enable_static()' before this api to enter static graph mode.")


def enable_prim():
    """Record that "prim" (primitive-op) differentiation is on (static mode only)."""
    _static_only("enable_prim")
    _PRIM[0] = True


def disable_prim():
    """Record that "prim" differentiation is off (static mode only)."""
    _static_only("disable_prim")
    _PRIM[0] = False


def prim_enabled():
    """Whether ``enable_prim`` is in effect (static mode only)."""
    _static_only("prim_enabled")
    return _PRIM[0]


def prim2orig(block=None, blacklist=None):
    """Turn primitive ops back into original ops (static mode only). Programs here hold only
    original ops, so there is nothing to turn back."""
    _static_only("prim2orig")


def _single(xs, gs):
    return gs[0] if not isinstance(xs, (list, tuple)) else gs


def grad(outputs, inputs, grad_outputs=None):
    """Static mode: the gradients of ``outputs`` w.r.t. ``inputs`` (``grad_outputs`` weight
    the outputs; default ones), added to the program; one Variable per input."""
    _static_only("grad")
    gs = _static_gradients(_as_list(outputs), _as_list(inputs),
                           None if grad_outputs is None else _as_list(grad_outputs))
    return _single(inputs, gs)


def forward_grad(outputs, inputs, grad_inputs=None):
    """Static mode: the forward-mode derivative ``J v`` of ``outputs`` w.r.t. ``inputs`` along
    ``grad_inputs`` (default ones), added to the program; shaped as ``outputs``. Computed as
    the derivative of a vector-Jacobian product."""
    _static_only("forward_grad")
    outs, ins = _as_list(outputs), _as_list(inputs)
    # the dummy cotangents and the default tangents are computed in the program (constants
    # would not be variables the backward can differentiate by)
    us = [o * 0.0 for o in outs]
    for u in us:
        u.stop_gradient = False
    g = _static_gradients(outs, ins, us)
    vs = [x * 0.0 + 1.0 for x in ins] if grad_inputs is None else _as_list(grad_inputs)
    jv = _static_gradients([a for a in g if a is not None], us,
                           [v for a, v in zip(g, vs) if a is not None])
    return _single(outputs, jv)
