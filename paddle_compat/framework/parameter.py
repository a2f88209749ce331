"""Parameters: Tensors that a Layer owns and an optimizer updates.

``Parameter`` is a Tensor subclass (Paddle's ``EagerParamBase``) whose payload is a leaf torch
tensor; it defaults to ``stop_gradient=False``, ``persistable=True`` and carries the optimizer's
per-parameter settings (``trainable``, ``optimize_attr``, ``regularizer``, ``need_clip``).
Ops see it as any Tensor (``x._t``) and return plain Tensors.
"""
import itertools

import torch

from .tensor import Tensor

__all__ = ["Parameter", "make_parameter", "unique_name", "used_param_names", "LazyGuard",
           "lazy_init_enabled"]

_counters = {}
used_param_names = set()     # parameter names taken (a layer refuses to reuse one)


def unique_name(prefix):
    """Paddle-style unique names: ``linear_0``, ``linear_1`` ..."""
    c = _counters.setdefault(prefix, itertools.count())
    return f"{prefix}_{next(c)}"


class Parameter(Tensor):
    """A trainable Tensor; prints as ``Parameter containing:`` then the tensor."""

    __slots__ = ()

    @property
    def trainable(self):
        return not self.stop_gradient

    @trainable.setter
    def trainable(self, value):
        self.stop_gradient = not value

    def __repr__(self):
        if "_lazy_init" in self.__dict__:
            return "Parameter containing:\nTensor(Not initialized)"
        return "Parameter containing:\n" + Tensor.__repr__(self)

    def initialize(self):
        """Draw the values of a parameter created under ``LazyGuard`` (once)."""
        make = self.__dict__.pop("_lazy_init", None)
        if make is None:            # as Paddle: only a lazily created parameter initializes
            raise AssertionError("Required self._init_func is not None, but received None.")
        self._t = make().detach().requires_grad_(self._t.requires_grad)

    def _is_initialized(self):
        return "_lazy_init" not in self.__dict__

    __str__ = __repr__

    @classmethod
    def from_tensor(cls, tensor, **kwargs):
        """A Parameter over ``tensor``'s data (Paddle's ``EagerParamBase.from_tensor``, which
        PaddleClas builds layer scales with): ``name`` (default ``_eager_param_base_<n>``),
        ``trainable``, ``optimize_attr``, ``regularizer``, ``need_clip`` as a layer's."""
        name = kwargs.get("name") or unique_name("_eager_param_base")
        return make_parameter(tensor._t, name, trainable=kwargs.get("trainable", True),
                              optimize_attr=kwargs.get("optimize_attr"),
                              regularizer=kwargs.get("regularizer"),
                              need_clip=kwargs.get("need_clip", True),
                              do_model_average=kwargs.get("do_model_average"))

    def __deepcopy__(self, memo):
        p = make_parameter(self._t.detach().clone(), self.name, trainable=self.trainable,
                           optimize_attr=dict(self.optimize_attr), regularizer=self.regularizer,
                           need_clip=self.need_clip)
        memo[id(self)] = p
        return p


def make_parameter(data, name, trainable=True, optimize_attr=None, regularizer=None,
                   need_clip=True, do_model_average=None):
    """A Parameter around the torch tensor ``data`` (detached: a parameter is a leaf)."""
    t = data.detach() if isinstance(data, torch.Tensor) else data._t.detach()
    p = Tensor.__new__(Parameter)
    p._t = t.requires_grad_(bool(trainable) and (t.is_floating_point() or t.is_complex()))
    p._name = name
    p._persistable = True
    p.optimize_attr = optimize_attr if optimize_attr is not None else {"learning_rate": 1.0}
    p.regularizer = regularizer
    p.need_clip = need_clip
    p.do_model_average = do_model_average
    p.is_distributed = False
    return p


_lazy_depth = [0]


def lazy_init_enabled():
    """Whether parameters are being created under ``LazyGuard``."""
    return _lazy_depth[0] > 0


class LazyGuard:
    """``paddle.LazyGuard``: layers built inside create their parameters without values (torch's
    meta device, no memory); each parameter draws them when ``param.initialize()`` is called,
    from the random stream as it is then, as in Paddle."""

    def __enter__(self):
        _lazy_depth[0] += 1

    def __exit__(self, *exc):
        _lazy_depth[0] -= 1
