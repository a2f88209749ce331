"""Parameters: Tensors that a Layer owns and an optimizer updates.

``Parameter`` is a Tensor subclass (Paddle's ``EagerParamBase``) whose payload is a leaf torch
tensor; it defaults to ``stop_gradient=False``, ``persistable=True`` and carries the optimizer's
per-parameter settings (``trainable``, ``optimize_attr``, ``regularizer``, ``need_clip``).
Ops see it as any Tensor (``x._t``) and return plain Tensors.
"""
import itertools

import torch

from . import dtype as _dt
from .tensor import Tensor

__all__ = ["Parameter", "make_parameter", "unique_name", "used_param_names", "LazyGuard",
           "lazy_init_enabled", "mark_compiled", "is_marked_compiled"]

_counters = {}
used_param_names = set()     # parameter names taken (a layer refuses to reuse one)


def unique_name(prefix):
    """Paddle-style unique names: ``linear_0``, ``linear_1`` ..."""
    c = _counters.setdefault(prefix, itertools.count())
    return f"{prefix}_{next(c)}"


_COMPILED = "_compiled_step"


def mark_compiled(params):
    """Mark parameters of a network that ``to_static(backend="CINN")`` compiles: their
    optimizer update runs compiled as well (``optimizer/compiled_step.py``)."""
    for p in params:
        p.__dict__[_COMPILED] = True


def is_marked_compiled(p):
    """Whether ``mark_compiled`` marked ``p``."""
    return _COMPILED in p.__dict__


class Parameter(Tensor):
    """A trainable Tensor; prints as ``Parameter containing:`` then the tensor."""

    __slots__ = ()

    def __init__(self, *args, **kwargs):
        """``paddle.nn.Parameter`` (Paddle 3.3's ``EagerParamBase``) made by hand: torch's form
        ``Parameter(data=None, requires_grad=True, **attrs)`` (sharing ``data``'s memory,
        ``stop_gradient = not requires_grad``) or Paddle's ``Parameter(shape, dtype,
        **attrs)`` (a list first, or ``shape=``; ``trainable`` in the attributes); ``attrs``
        are ``name``, ``optimize_attr``, ``regularizer``, ``do_model_average``,
        ``need_clip``, ``is_distributed``."""
        if (args and isinstance(args[0], list)) or "shape" in kwargs:
            self._init_by_shape(*args, **kwargs)
        else:
            self._init_by_tensor(*args, **kwargs)

    def _init_by_shape(self, shape, dtype, **attrs):
        if shape is None:
            raise ValueError("The shape of Parameter should not be None")
        if dtype is None:
            raise ValueError("The dtype of Parameter should not be None")
        if isinstance(shape, Tensor):
            shape = shape.numpy().tolist()
        if any(d < 0 for d in shape):
            raise ValueError("Each dimension of shape for Parameter must be greater than 0, "
                             f"but received {list(shape)}")
        data = torch.empty(list(shape), dtype=_dt.to_torch_dtype(dtype))
        self._fill(data, attrs.get("trainable", True), attrs)

    def _init_by_tensor(self, data=None, requires_grad=True, **attrs):
        if data is None:
            data = torch.empty(0, dtype=_dt.default_float().torch)
        elif isinstance(data, Tensor):
            data = data._t
        elif not isinstance(data, torch.Tensor):
            raise TypeError("Parameter(data) takes a Tensor, but got "
                            f"{type(data).__name__}")
        self._fill(data, requires_grad, attrs)

    def _fill(self, data, trainable, attrs):
        self._t = data.detach()
        self._name = attrs.get("name") or unique_name("_eager_param_base")
        self._persistable = True
        self.optimize_attr = attrs.get("optimize_attr", {"learning_rate": 1.0})
        self.regularizer = attrs.get("regularizer")
        self.do_model_average = attrs.get("do_model_average")
        self.need_clip = attrs.get("need_clip", True)
        self.is_distributed = attrs.get("is_distributed", False)
        self.stop_gradient = not trainable

    @property
    def trainable(self):
        return not self.stop_gradient

    @trainable.setter
    def trainable(self, value):
        if not isinstance(value, bool):
            raise ValueError(f"The type of trainable MUST be bool, but the type is {type(value)}")
        self.stop_gradient = not value

    def __repr__(self):
        if "_lazy_init" in self.__dict__:
            return "Parameter containing:\nTensor(Not initialized)"
        if not isinstance(self._t, torch.Tensor):     # a static program's parameter
            return Tensor.__repr__(self)
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
    """A Parameter around the torch tensor ``data`` (detached: a parameter is a leaf), or
    around a static program's parameter (its payload, a leaf of the program, is kept)."""
    if isinstance(data, torch.Tensor):
        t = data.detach()
    elif isinstance(data, Tensor):
        t = data._t.detach()
    else:
        t = data
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
