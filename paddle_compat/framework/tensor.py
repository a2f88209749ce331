"""The Paddle Tensor: a thin wrapper over one ``torch.Tensor``.

``Tensor`` holds its torch tensor in ``_t`` and nothing else on the hot path; every op unwraps,
calls torch and wraps (``wrap``). Paddle's mutable autograd identity is modelled by rebinding
``_t``: setting ``stop_gradient=True`` on an intermediate swaps in a detached view, and a PyLayer
that returns its input hands back the same Python object with a new ``_t``. Data is never copied
for either.

Operator methods (``+``, ``<``, ``&`` ...) follow Paddle's dtype promotion (see ``promotion``);
the common cases (same dtypes, a float tensor with a Python number) go straight to torch.
"""
import copy
import hashlib
import inspect
import itertools
import operator
import re

import numpy as np
import torch

from . import dtype as _dt
from . import hooks
from . import mode as _mode
from .autograd_engine import backward_with_ones, run_backward, written_leaves
from .fastops import c_module, fast_path
from .int_grad import IntGradPayload, cast_payload
from .place import Place, place_of, to_torch_device
from .printing import format_tensor
from .promotion import binary_operands

__all__ = ["Tensor", "wrap", "unwrap", "Size", "writable", "shape_arg", "is_dtensor",
           "copy_whole"]

if torch.__version__ >= "2.13":
    _new = object.__new__           # a bare Tensor object: wrap()'s first step
else:
    def _new(cls):
        """A bare ``cls`` object: torch < 2.13's dynamo traces ``object.__new__`` only when
        it is spelled out (not held in a variable), so torch.compile of paddle code needs
        this one call more there."""
        return object.__new__(cls)
_TORCH_OF = _dt.TORCH_OF
_FLOATING = frozenset([torch.float16, torch.bfloat16, torch.float32, torch.float64,
                       torch.complex64, torch.complex128])
_names = itertools.count()


def wrap(t):
    """A Tensor around the torch tensor ``t`` (no copy)."""
    o = _new(Tensor)
    o._t = t
    return o


def is_dtensor(t):
    """Whether the payload ``t`` is a torch DTensor (a distributed tensor's)."""
    return type(t).__name__ == "DTensor"


_QUIET_WRITES = [0]


def quiet_writes():
    """How many ``copy_whole`` writes there have been: they keep the tensor's inplace version
    (Paddle's ``set_value``), so code that holds a tensor's value while its version stays
    (jit.compiled's frozen graphs) checks this count as well."""
    return _QUIET_WRITES[0]


def copy_whole(t, src):
    """Write the whole value ``src`` into the payload ``t`` in place (no autograd); a
    distributed payload keeps its own part of it. Like Paddle's ``set_value``, the write does
    not move the inplace version: a graph that saved ``t`` (or a view of it) backpropagates
    with the new value instead of raising."""
    _QUIET_WRITES[0] += 1
    if is_dtensor(t):
        if not is_dtensor(src):
            src = hooks.dist_like(src.to(t.device), t)
        with torch.no_grad():
            t.copy_(src)
        return
    t.data.copy_(src)         # .data: the same storage under its own version counter


def _global(t):
    """The whole value of a payload: a DTensor's gathered from every rank (a collective, as
    Paddle's ``numpy()``/printing of a distributed tensor), any other tensor itself."""
    return t.full_tensor() if is_dtensor(t) else t


def unwrap(x):
    """The torch tensor inside ``x`` if it is a Tensor, else ``x`` unchanged."""
    return x._t if type(x) is Tensor else x


class Size(list):
    """A tensor's shape: a list of ints that prints as ``paddle.Size([2, 3])``."""

    __slots__ = ()

    def __repr__(self):
        return f"paddle.Size({list.__repr__(self)})"

    __str__ = __repr__

    # As in Paddle 3.3.1 a shape also equals the tuple of the same ints (``x.shape == (2, 3)``).
    def __eq__(self, other):
        return list.__eq__(self, list(other) if isinstance(other, tuple) else other)

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None

    def numel(self):
        n = 1
        for d in self:
            n *= d
        return n


class TensorSize(int):
    """``Tensor.size``: the element count (an int, as in Paddle). As in Paddle 3.3.1 it can
    also be called as torch code does: ``x.size()`` is the shape, ``x.size(d)`` one dimension."""

    def __call__(self, dim=None):
        shape = self._t.shape           # read when called: an int read costs nothing more
        return Size(shape) if dim is None else shape[dim]


def writable(x):
    """``x._t`` for an in-place op. Paddle refuses in-place changes to a leaf that does not stop
    gradient while grad mode is on (under ``no_grad``, as in optimizer updates, they are fine)."""
    t = x._t
    if t.is_leaf and torch.is_grad_enabled():
        if t.requires_grad:
            raise ValueError(f"(InvalidArgument) Leaf Var ({x.name}) that doesn't stop gradient "
                             "can't use inplace strategy.")
        written_leaves[id(x)] = x   # Paddle gives it a .grad if the write puts it in a graph
    return t


def shape_arg(shape, api="full", pos=1):
    """A shape given as an int, a list/tuple of ints or 0-d Tensors, or a 1-d Tensor, as a
    tuple of ints; TypeError naming the position for anything else."""
    if isinstance(shape, Tensor):
        return tuple(int(v) for v in shape._t.reshape(-1).tolist())
    if isinstance(shape, int) and not isinstance(shape, bool):
        return (shape,)
    if isinstance(shape, (list, tuple, torch.Size)):
        out = []
        for i, d in enumerate(shape):
            if isinstance(d, Tensor):
                d = d._t.item()
            if not isinstance(d, int) or isinstance(d, bool):
                raise TypeError(f"(InvalidType) {api}(): argument (position {pos}) must be list "
                                f"of int, but got {type(d).__name__} at pos {i}")
            out.append(d)
        return tuple(out)
    raise TypeError(f"(InvalidType) {api}(): argument (position {pos}) must be list, tuple, int, "
                    f"or Tensor, but got {type(shape).__name__}")



_PADDLE_INIT_ARGS = ("place", "persistable", "zero_copy", "name", "stop_gradient")
_OWN_INIT_ARGS = ("dtype", "place", "stop_gradient", "name")


class TensorHookRemoveHelper:
    """What ``Tensor.register_hook`` returns: ``remove()`` takes the hook away and says whether
    it did (True the first time, then False), as Paddle's handle does."""

    __slots__ = ("_handle",)

    def __init__(self, handle):
        self._handle = handle

    def remove(self):
        h, self._handle = self._handle, None
        if h is None:
            return False
        h.remove()
        return True


class Tensor:
    """A Paddle tensor. Create one with ``paddle_compat.to_tensor``; ops return Tensors."""

    __slots__ = ("_t", "_name", "__weakref__", "__dict__")
    __array_priority__ = 100
    # Rarely set fields live in the instance __dict__ with these class defaults, so reading
    # them never misses (and never reaches __getattr__).
    _persistable = False
    _sgf = False            # "does not stop gradient" for dtypes torch cannot differentiate

    def __getattr__(self, name):
        """Reached only when normal lookup failed (free on the hot path): a missing public
        name is a Paddle API paddle_compat does not have yet, and the error says so."""
        return hooks.missing_tensor_attr(self, name)

    def __init__(self, *args, **kwargs):
        """``paddle.Tensor(...)``, as Paddle 3.3 reads it: torch's forms make float32 tensors
        (``Tensor()`` empty, ``Tensor(2, 3)`` uninitialised of that shape, ``Tensor([1.5, 2])``
        or ``Tensor(data=...)`` from Python data; ``device=`` places them); anything else is
        ``Tensor(data, dtype=None, place=None, stop_gradient=True, name=None)`` around an array
        or a tensor, keeping its dtype."""
        device = kwargs.pop("device", None)
        if not kwargs and (not args or all(type(a) is int for a in args)):
            t = torch.empty(args or (0,), dtype=torch.float32)
        elif "data" in kwargs or (len(args) == 1 and isinstance(args[0], (list, tuple))):
            data = kwargs.pop("data") if "data" in kwargs else args[0]
            t = torch.as_tensor(np.asarray(data).astype(np.float32))
            t._paddle_from_data = True
        else:
            return self._init_value(*args, **kwargs)
        self._t = t if device is None else t.to(to_torch_device(device))

    def _init_value(self, data=None, *args, dtype=None, place=None, stop_gradient=True, name=None,
                    persistable=None, zero_copy=False):
        # Paddle's positional form is Tensor(value, place, persistable, zero_copy, name,
        # stop_gradient) (told apart by a place second); Tensor(data, dtype, place,
        # stop_gradient, name) stays ours. A numpy value is copied unless zero_copy (then the
        # tensor shares the array's memory, as Paddle's CPU tensor does).
        if args:
            names = _PADDLE_INIT_ARGS if isinstance(args[0], Place) else _OWN_INIT_ARGS
            if len(args) > len(names):
                raise TypeError(f"Tensor() takes at most {len(names) + 1} positional arguments "
                                f"({len(args) + 1} given)")
            given = dict(dtype=dtype, place=place, stop_gradient=stop_gradient, name=name,
                         persistable=persistable, zero_copy=zero_copy)
            given.update(zip(names, args))
            dtype, place, stop_gradient, name, persistable, zero_copy = given.values()
        if isinstance(data, Tensor):
            data = data._t
        if data is None:
            t = torch.empty(0, dtype=_dt.default_float().torch)
        elif isinstance(data, torch.Tensor):
            t = data
        else:
            t = torch.as_tensor(np.asarray(data))
            if not zero_copy and isinstance(data, np.ndarray):
                t = t.clone()
        if dtype is not None:
            t = t.to(_dt.to_torch_dtype(dtype))
        if place is not None:
            t = t.to(to_torch_device(place))
        if not isinstance(data, torch.Tensor) and data is not None:
            t._paddle_from_data = True      # see to_tensor
        self._t = t
        if name is not None:
            self._name = name
        if not stop_gradient:
            self.stop_gradient = False
        if persistable is not None:
            self._persistable = bool(persistable)

    # ------------------------------------------------------------------ identity and metadata
    @property
    def name(self):
        try:
            return self._name
        except AttributeError:
            # a static Variable's payload (a StaticProxy) knows its Paddle name (exp_0.tmp_0)
            n = getattr(self._t, "_static_name", None) or f"generated_tensor_{next(_names)}"
            self._name = n
            return n

    @name.setter
    def name(self, value):
        self._name = value
        if not isinstance(self._t, torch.Tensor):      # a static Variable: rename in its program
            self._t._static_name = value

    @property
    def grad_name(self):
        return self.name + "@GRAD"

    @property
    def persistable(self):
        return self._persistable

    @persistable.setter
    def persistable(self, value):
        self._persistable = bool(value)
        hook = getattr(type(self._t), "_set_persistable", None)     # a static Variable's
        if hook is not None:
            hook(self._t, value)

    # distributed attributes (None for a dense tensor, as in Paddle); a distributed tensor's
    # payload is a torch DTensor, read back as Paddle's ProcessMesh and placements
    @property
    def placements(self):
        return hooks.dist_attrs(self._t)[1] if is_dtensor(self._t) else None

    @property
    def process_mesh(self):
        return hooks.dist_attrs(self._t)[0] if is_dtensor(self._t) else None

    @property
    def num_shard(self):
        """How many pieces a distributed tensor is cut into (the product of the mesh
        dimensions it is sharded along); None for a dense tensor, as in Paddle."""
        if not is_dtensor(self._t):
            return None
        mesh, placements = hooks.dist_attrs(self._t)
        n = 1
        for size, p in zip(mesh.shape, placements):
            if p.is_shard():
                n *= size
        return n

    def _local_value(self):
        """This rank's shard of a distributed tensor (None for a dense one, as in Paddle)."""
        return wrap(self._t.to_local()) if is_dtensor(self._t) else None

    @property
    def block(self):
        """The fluid-era ``Variable.block``: in dynamic mode the global block of the default
        main program, as in Paddle (initialisers are called as ``init(param, param.block)``)."""
        return hooks.default_block(self)

    @property
    def shape(self):
        return Size(self._t.shape)

    @property
    def ndim(self):
        return self._t.dim()

    def dim(self):
        return self._t.dim()

    ndimension = dim

    @property
    def size(self):
        s = TensorSize(self._t.numel())
        s._t = self._t
        return s

    def numel(self):
        return wrap(torch.tensor(self._t.numel(), dtype=torch.int64))

    @property
    def dtype(self):
        return _dt.from_torch_dtype(self._t.dtype)

    @property
    def place(self):
        return place_of(self._t)

    @property
    def layout(self):
        """The data layout Paddle 3 reports for a dense tensor: "NCHW"."""
        return "NCHW"

    @property
    def type(self):
        return "VarType.DENSE_TENSOR"

    def is_dense(self):
        t = self._t        # a sparse tensor wraps a torch sparse COO/CSR tensor (sparse/tensor.py)
        if not isinstance(t, torch.Tensor):
            return True
        return t.layout is torch.strided and not is_dtensor(t)

    def is_floating_point(self):
        return self._t.is_floating_point()

    def is_complex(self):
        return self._t.is_complex()

    def is_integer(self):
        return _dt.from_torch_dtype(self._t.dtype).is_integer

    def element_size(self):
        return self._t.element_size()

    @property
    def T(self):
        t = self._t
        return wrap(t.permute(list(range(t.dim() - 1, -1, -1))))   # a list: torch.compile reads *range wrongly

    @property
    def mT(self):
        return wrap(self._t.transpose(-2, -1))

    def __len__(self):
        if self._t.dim() == 0:
            raise AssertionError("len() of a 0-D tensor is wrong")
        return self._t.shape[0]

    def __hash__(self):
        return id(self)

    # ------------------------------------------------------------------ autograd state
    @property
    def stop_gradient(self):
        if self._t.requires_grad:
            return False
        return not self._sgf

    @stop_gradient.setter
    def stop_gradient(self, value):
        t = self._t
        if value:
            self._sgf = False
            if t.requires_grad:
                self._t = t.requires_grad_(False) if t.is_leaf else t.detach()
        elif not t.requires_grad:
            if t.dtype in _FLOATING:
                t.requires_grad_(True)
            else:
                # Paddle lets integer tensors "not stop gradient"; torch cannot, so remember it.
                self._sgf = True

    @property
    def is_leaf(self):
        return self._t.is_leaf

    @property
    def grad(self):
        t = self._t
        if t.is_leaf or t.retains_grad:
            g = t.grad
        else:
            # Paddle keeps no gradient on intermediates, unless retain_grads() asked (below)
            g = getattr(t, "_paddle_retained", None)
        if g is None:
            # a PyLayer's gradient of another shape/dtype than torch allows, stored as Paddle
            # does (autograd/py_layer_grads.py)
            g = getattr(t, "_paddle_grad", None)
            if g is None:
                return None
        w = _new(Tensor)
        w._t = g
        # Paddle reports a gradient accumulated by ordinary ops as not stopping gradient; one
        # that only a PyLayer's backward (run without grad) produced reports stop_gradient=True.
        w._sgf = not getattr(g, "_paddle_stop_gradient", False)
        return w

    @grad.setter
    def grad(self, value):
        """As Paddle: the values are copied into the gradient buffer there is (also one set to
        None before), which keeps what it says of ``stop_gradient``; a gradient that only
        assignment made stops gradient, one that a backward made does not. While a program is
        built there is none to set (AttributeError, as on Paddle's ``pir.Value``)."""
        if not _mode.in_dynamic_mode():
            raise AttributeError("'paddle.base.libpaddle.pir.Value' object has no attribute "
                                 "'grad'")
        t = self._t
        if not t.is_leaf:
            raise SystemError("(Fatal) Only leaf Tensor can be set grad.")
        old = t.grad
        if old is None:
            old = getattr(t, "_paddle_grad_buffer", None)
        if value is None:
            if t.grad is not None:
                t._paddle_grad_buffer = t.grad
            t.grad = None
        else:
            v = unwrap(value)
            if old is not None and isinstance(v, torch.Tensor) and old.shape == v.shape \
                    and old.dtype == v.dtype and old.device == v.device:
                with torch.no_grad():
                    old.copy_(v)
                t.grad = old
            else:
                t.grad = v = v.detach().clone() if isinstance(v, torch.Tensor) else v
                v._paddle_stop_gradient = True
            if getattr(t, "_paddle_grad_buffer", None) is not None:
                t._paddle_grad_buffer = None
        if getattr(t, "_paddle_grad", None) is not None:
            t._paddle_grad = None

    def _grad_ivar(self):
        return self.grad

    # Paddle 3's raw-gradient property: the same tensor as ``grad``, settable the same way
    grad_ = grad

    @property
    def grad_fn(self):
        """The autograd node that made this tensor (a :class:`GradNode`: Paddle's ``name()``,
        ``next_functions``; torch's Node for the rest), or for a leaf that needs a gradient the
        node that accumulates it (Paddle's GradNodeAccumulation); None where torch has no node
        (a leaf with stop_gradient=True, for which Paddle still shows an accumulation node)."""
        t = self._t
        if t.grad_fn is not None or not t.requires_grad:
            return GradNode.of(t.grad_fn)
        with torch.enable_grad():
            return GradNode.of(t.view_as(t).grad_fn.next_functions[0][0])

    def reconstruct_from_(self, other):
        """Make this Tensor the same tensor as ``other`` (Paddle shares the implementation:
        data, shape, dtype and the gradient flag follow ``other``; the name stays)."""
        if not isinstance(other, Tensor):
            raise ValueError("(InvalidArgument) argument (position 1) must be Tensor, but got "
                             f"{type(other).__name__}")
        self._t = other._t
        self._sgf = other._sgf

    def is_dist(self):
        """Whether this is a distributed tensor (a torch DTensor underneath)."""
        return is_dtensor(self._t)

    def is_selected_rows(self):
        return False                    # no SelectedRows in paddle_compat: always dense

    def get_selected_rows(self):
        return None

    def get_map_tensor(self):
        raise SystemError("(Fatal) this method is only effective for VariableCompatTensor")

    def rows(self):
        """The row indices of a SelectedRows tensor; every Tensor here is dense, and Paddle
        raises this for a dense one."""
        raise SystemError("(Fatal) this method is only effective for SelectedRows")

    def set_tensor(self, value):
        """Replace this tensor's data by a copy of ``value``'s (its shape and dtype too); the
        gradient flag stays this tensor's."""
        if not isinstance(value, Tensor):
            raise ValueError("(InvalidArgument) set_tensor(): argument 'value' (position 0) must "
                             f"be Tensor, but got {type(value).__name__}")
        keep = self.stop_gradient
        self._t = value._t.detach().clone()
        self._sgf = False
        if not keep:
            self.stop_gradient = False

    def set_string_list(self, value):
        """Paddle turns the tensor into a string list (a static-graph feed); paddle_compat has
        no string tensors."""
        if not isinstance(value, list):
            raise TypeError("(InvalidType) argument (position 1) must be list, but got "
                            f"{type(value).__name__}")
        raise NotImplementedError("Tensor.set_string_list: paddle_compat has no string tensors")

    def set_vocab(self, value):
        """Paddle turns the tensor into a vocabulary (a dict, for string ops); paddle_compat
        has no vocabulary tensors."""
        if not isinstance(value, dict):
            raise TypeError("(InvalidType) argument (position 1) must be dict, but got "
                            f"{type(value).__name__}")
        raise NotImplementedError("Tensor.set_vocab: paddle_compat has no vocabulary tensors")

    def backward(self, grad_tensor=None, retain_graph=False, *, dump_backward_graph_path=None):
        """Accumulate gradients of this tensor into the leaves (Paddle: ones for any shape)."""
        if dump_backward_graph_path is not None:
            raise NotImplementedError("Tensor.backward(): dump_backward_graph_path (Paddle's "
                                      "dump of its backward graph) is not supported by "
                                      "paddle_compat")
        t = self._t
        if isinstance(t, torch.fx.Proxy):
            hooks.traced_backward(self)
        if not t.requires_grad:
            return
        if grad_tensor is None:
            backward_with_ones(t, retain_graph)
            return
        g = unwrap(grad_tensor)
        if not isinstance(g, torch.Tensor):
            raise TypeError("grad_tensor must be a Tensor or None, but received "
                            f"{type(grad_tensor).__name__}")
        run_backward((t,), (g,), retain_graph)

    def clear_grad(self, set_to_zero=True):
        """Zero the accumulated gradient (or drop it with ``set_to_zero=False``)."""
        if getattr(self._t, "_paddle_retains", False):       # an intermediate's (retain_grads)
            g = self._t._paddle_retained
            self._t._paddle_retained = None if g is None or not set_to_zero else \
                torch.zeros_like(g)
            return
        g = self._t.grad
        if g is not None:
            if set_to_zero:
                g.detach_().zero_()
            else:
                self._t.grad = None
        elif getattr(self._t, "_paddle_grad", None) is not None:    # see the grad property
            g = self._t._paddle_grad
            self._t._paddle_grad = None
            if set_to_zero:
                z = torch.zeros_like(g)
                if getattr(g, "_paddle_stop_gradient", False):
                    z._paddle_stop_gradient = True
                self._t._paddle_grad = z

    clear_gradient = clear_grad

    def _reset_grad_inplace_version(self, set_to_zero=True):
        """With ``set_to_zero`` (Paddle's default), set the in-place version counter of this
        tensor's gradient (if any) back to 0: a hook that changed the gradient in place then
        leaves it as if unchanged; False leaves the counter as it is. Returns None."""
        g = self.grad if set_to_zero else None
        if g is not None:
            torch._C._autograd._unsafe_set_version_counter((g._t,), (0,))

    def _inplace_version(self):
        """How many in-place changes this tensor has had (``inplace_version``)."""
        return self._t._version

    def _bump_inplace_version(self):
        """Count one more in-place change (what an in-place op does to the counter)."""
        torch._C._autograd._unsafe_set_version_counter((self._t,), (self._t._version + 1,))

    def _numel(self):
        return self._t.numel()

    def _slice(self, begin_idx, end_idx):
        """Rows ``begin_idx:end_idx`` of dimension 0 as a tensor sharing this one's memory
        (outside autograd, as Paddle's ``_slice``)."""
        rows = self._t.shape[0] if self._t.dim() else 0
        if not 0 <= begin_idx <= end_idx <= rows:
            raise IndexError(f"(OutOfRange) _slice({begin_idx}, {end_idx}): the row range must "
                             f"lie in [0, {rows}] with begin <= end")
        rows_ = self._t.detach()[begin_idx:end_idx]
        # a fresh tensor over the same memory: its own in-place version counter, as in Paddle
        t = torch.empty(0, dtype=rows_.dtype, device=rows_.device).set_(
            rows_.untyped_storage(), rows_.storage_offset(), rows_.shape, rows_.stride())
        torch._C._autograd._unsafe_set_version_counter((t,), (0,))
        return wrap(t)

    def _offset(self):
        """Byte offset of this tensor's data in its memory block."""
        return self._t.storage_offset() * self._t.element_size()

    def _share_buffer_to(self, dst):
        """Make ``dst`` hold this tensor's data (the same memory, not a copy)."""
        dst._t = self._t.detach()

    def _is_shared_buffer_with(self, other):
        return self._t.untyped_storage().data_ptr() == other._t.untyped_storage().data_ptr()

    def _clear(self):
        """Release the data (Paddle's ``_clear``): the tensor then prints as
        ``Tensor(Not initialized)`` and ``_is_initialized()`` is False until it holds a value
        again."""
        t = self._t
        self._t = torch.empty(0, dtype=t.dtype, device=t.device)
        self.__dict__["_cleared"] = self._t

    def _is_initialized(self):
        return self.__dict__.get("_cleared") is not self._t

    def _grad_value(self):
        """The gradient's value (None before a backward pass reached this tensor)."""
        return self.grad

    def _copy_gradient_from(self, other):
        """Make this tensor's gradient a copy of ``other``'s value (Paddle's
        ``_copy_gradient_from``; the shapes must agree)."""
        src = other._t.detach()
        t = self._t
        if tuple(src.shape) != tuple(t.shape):
            raise ValueError(f"(InvalidArgument) _copy_gradient_from: the shape {list(src.shape)}"
                             f" differs from the tensor's {list(t.shape)}")
        with torch.no_grad():
            if t.grad is None:
                t.grad = src.to(dtype=t.dtype, device=t.device).clone()
            else:
                t.grad.copy_(src)

    def _zero_grads(self):
        """Paddle's private form of ``clear_grad()``: the gradient, if any, becomes zeros in
        place (the same tensor object); returns None."""
        self.clear_grad(True)

    @fast_path("x", torch.Tensor.detach)
    def detach(self):
        return wrap(self._t.detach())

    def detach_(self):
        self._t = self._t.detach()
        return self

    @fast_path("x", torch.clone)
    def clone(self):
        return wrap(self._t.clone())

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed; it may return a new one,
        which flows on to the tensor's inputs. Returns a handle whose ``remove()`` says whether
        it removed the hook."""
        if self.stop_gradient:
            raise RuntimeError("Cannot register hook on a tensor that stop gradient.")

        def torch_hook(g):
            out = hook(wrap(g))
            return None if out is None else unwrap(out)

        t = self._t
        if not isinstance(t, torch.Tensor):     # a static Variable: the hook is a graph node
            self._t, handle = hooks.record_grad_hook(t, torch_hook)
            return TensorHookRemoveHelper(handle)
        return TensorHookRemoveHelper(t.register_hook(torch_hook))

    def _register_backward_hook(self, hook):
        """Call ``hook()`` (no arguments) each time a backward has accumulated this leaf's
        gradient (Paddle's void hook on a leaf)."""
        t = self._t
        if not t.is_leaf:
            raise ValueError("(InvalidArgument) Only can register backward hook for leaf Tensor.")
        if not t.requires_grad:
            raise ValueError("(InvalidArgument) Cannot register backward hook on a Tensor that "
                             "stop gradient.")
        if not callable(hook):
            raise TypeError(f"_register_backward_hook(): hook must be callable, but got "
                            f"{type(hook).__name__}")
        t.register_post_accumulate_grad_hook(lambda _: hook())

    def retain_grads(self):
        """Keep this intermediate tensor's gradient in ``.grad``, as it is at this point of the
        tensor's hooks: a hook registered later changes what flows on, not ``.grad`` (Paddle
        keeps the gradient of the latest backward)."""
        t = self._t
        if t.is_leaf or getattr(t, "_paddle_retains", False):
            return
        t._paddle_retains = True
        t._paddle_retained = None

        def keep(g):
            if g is None:
                # the node that made this tensor ran, but no gradient reached this output of
                # it (a split part nothing used): Paddle's grad node fills zeros, a gradient
                # that stops gradient
                g = torch.zeros_like(t.detach())
                g._paddle_stop_gradient = True
            elif not torch.is_grad_enabled():
                g = g.detach()
            t._paddle_retained = g
        t.register_hook(keep)

    # ------------------------------------------------------------------ conversion
    def numpy(self):
        t = _global(self._t).detach()
        if t.device.type != "cpu":
            t = t.cpu()
        # a copy, as in Paddle: later in-place updates (a second backward into .grad, an
        # optimizer step) must not change an array already handed out
        if t.dtype is torch.bfloat16:
            return t.view(torch.int16).numpy().view(np.uint16).copy()
        if t.dtype is torch.float8_e4m3fn or t.dtype is torch.float8_e5m2:
            return t.view(torch.int8).numpy().copy()      # the bits, as Paddle gives them
        return t.resolve_conj().numpy().copy()

    def __array__(self, dtype=None, copy=None):
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    def item(self, *args):
        t = _global(self._t)
        if args:
            t = t.reshape(-1)[args[0]] if len(args) == 1 else t[args]
        elif t.numel() != 1:
            raise ValueError("(InvalidArgument) only one element tensors can be converted to "
                             "Python scalars when no input coordinates")
        return t.item()

    def tolist(self):
        return _global(self._t).tolist()

    def __float__(self):
        return float(self._scalar())

    def __int__(self):
        return int(self._scalar())

    def __complex__(self):
        return complex(self._scalar())

    def __index__(self):
        if self._t.dtype in _FLOATING or self._t.dtype is torch.bool:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._scalar())

    def _scalar(self):
        if self._t.dim() != 0:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars, but "
                            f"this tensor has shape {list(self._t.shape)}")
        return _global(self._t).item()

    def __bool__(self):
        if self._t.numel() != 1:
            raise AssertionError("When Variable is used as the condition of if/while , Variable "
                                 "can only contain one element.")
        # Paddle's truth value is ``value > 0``: bool(paddle.to_tensor(-1)) is False
        return bool(self._t.item() > 0)

    __nonzero__ = __bool__

    @fast_path("x_dtype", torch.Tensor.to)
    def astype(self, dtype):
        try:
            d = _TORCH_OF[dtype]
        except (KeyError, TypeError):            # numpy dtypes, bad input: the full check
            d = _dt.cast_dtype(dtype)
            if d in _dt.SATURATING:             # float8, uint16: Paddle's conversion
                return wrap(_dt.saturating_cast(self._t, d))
        o = _new(Tensor)
        t = self._t
        if type(t) is IntGradPayload:   # an integer tensor taking part in autograd
            o._t, o._sgf = cast_payload(t, d)
            return o
        o._t = t.to(dtype=d)            # torch parses the keyword form ~0.7 us faster
        return o

    cast = astype

    def cpu(self):
        return wrap(self._t.cpu())

    def cuda(self, device_id=None, blocking=True):
        dev = to_torch_device("gpu" if device_id is None else f"gpu:{int(device_id)}")
        return wrap(self._t.to(dev, non_blocking=not blocking))

    def pin_memory(self, blocking=True):
        """A copy in page-locked memory (``blocking`` has no effect: the copy is made at
        once)."""
        return wrap(self._t.pin_memory())

    def _copy_to(self, place, blocking):
        """A copy on ``place`` (a Place) under the same name: Paddle's internal copy, which
        the safetensors loaders of PaddleNLP and PaddleX call. The copy never shares memory; a
        Parameter's copy is a Parameter with the same attributes, any other copy stops
        gradients (as Paddle's)."""
        if not isinstance(place, Place):
            raise TypeError("(InvalidType) argument (position 1) must be one of(Place,CUDAPlace,"
                            "CPUPlace,XPUPlace,CUDAPinnedPlace,XPUPinnedPlace, CustomPlace), "
                            f"but got {type(place).__name__}")
        src = self._t.detach()
        if place.is_cuda_pinned_place():
            t = src.cpu().pin_memory() if src.is_cuda else src.pin_memory()
        else:
            t = src.to(place.torch_device, copy=True, non_blocking=not blocking)
        o = _new(type(self))
        o._name = self.name
        if type(self) is not Tensor:            # a Parameter: its attributes come along
            o.__dict__.update(copy.deepcopy(self.__dict__))
            t.requires_grad_(self._t.requires_grad)
        o._t = t
        return o

    def _to(self, device=None, dtype=None, blocking=None, copy_tensor=None):
        """Paddle's internal ``to``: this tensor cast to ``dtype`` and moved to ``device`` (a
        string or a Place), itself when nothing changes (a deep copy with ``copy_tensor``);
        the result keeps ``stop_gradient``."""
        if device is None and dtype is None and blocking is None:
            return self
        if device is not None and not isinstance(device, (str, Place)):
            raise ValueError("device value error, must be str, paddle.CPUPlace(), "
                             "paddle.CUDAPlace(), paddle.CUDAPinnedPlace(), paddle.XPUPlace() "
                             "or paddle.CustomPlace(), but the type of device is "
                             + type(device).__name__)
        assert blocking is None or isinstance(blocking, bool), \
            "blocking value error, must be the True, False or None"
        t = self._t
        if dtype is not None:
            t = t.to(_dt.to_torch_dtype(dtype))
        if device is not None:
            t = t.to(to_torch_device(device), non_blocking=blocking is False)
        if t is self._t:
            return copy.deepcopy(self) if copy_tensor else self
        out = wrap(t)
        out.stop_gradient = self.stop_gradient
        return out

    def _md5sum(self):
        """The MD5 hex digest of the tensor's bytes in row-major order (Paddle's checksum)."""
        raw = self._t.detach().cpu().contiguous().reshape(-1).view(torch.uint8)
        return hashlib.md5(raw.numpy().tobytes()).hexdigest()

    def to(self, *args, **kwargs):
        """``to(device)``, ``to(dtype)``, ``to(device, dtype)``, ``to(other_tensor)``, with
        Paddle's device and dtype spellings."""
        device = kwargs.pop("device", None)
        dtype = kwargs.pop("dtype", None)
        blocking = kwargs.pop("blocking", None)
        for a in args:
            if isinstance(a, Tensor):
                device, dtype = a._t.device, a._t.dtype
            elif isinstance(a, bool):
                blocking = a
            elif isinstance(a, (_dt.DType, torch.dtype, np.dtype)) or (
                    isinstance(a, str) and a.replace("paddle.", "") in _dt._STRINGS):
                dtype = a
            elif a is not None:
                device = a
        t = self._t
        if device is not None:
            t = t.to(to_torch_device(device), non_blocking=blocking is False)
        if dtype is not None:
            t = t.to(_dt.to_torch_dtype(dtype))
        return self if t is self._t else wrap(t)

    def set_value(self, value):
        """Overwrite this tensor's data in place (a Tensor, numpy array or nested list of the
        same shape), keeping its dtype, device and autograd identity."""
        src = value._t if isinstance(value, Tensor) else torch.as_tensor(np.asarray(value))
        t = self._t
        if tuple(src.shape) != tuple(t.shape):
            raise ValueError(f"(InvalidArgument) The shape of the new value {list(src.shape)} "
                             f"must be the same as the shape of the tensor {list(t.shape)}")
        copy_whole(t, src)
        return self

    def value(self):
        return self

    def get_tensor(self):
        return self

    def set(self, array, place=None):
        """Paddle's ``DenseTensor.set`` (reached as ``x.value().get_tensor().set(...)``): the
        tensor's data becomes a copy of ``array`` (numpy or Tensor), whose shape and dtype it
        takes, on ``place`` (default: where it is); the Tensor object and its gradient flag
        stay. Returns None."""
        src = array._t.detach() if isinstance(array, Tensor) else torch.as_tensor(
            np.array(array, copy=True))
        dev = self._t.device if place is None else to_torch_device(place)
        self._t.data = src.to(dev).clone()

    # ------------------------------------------------------------------ torch-style (Paddle 3)
    # x.float(), x.long() ... (made from _CASTS below): astype to a fixed dtype (Paddle's casts);
    # the same dtype gives x itself, and the result of x that does not stop gradient doesn't
    # either (even an integer one)
    def _convert(self, d):
        t = self._t
        if t.dtype is d:
            return self
        o = wrap(t.to(d))
        if t.requires_grad or self._sgf:
            o.stop_gradient = False
        return o

    def type_as(self, other):
        return self.astype(other._t.dtype)

    @property
    def requires_grad(self):
        return not self.stop_gradient

    @requires_grad.setter
    def requires_grad(self, value):
        self.stop_gradient = not value

    def requires_grad_(self, requires_grad=True):
        if not isinstance(requires_grad, bool):
            raise TypeError(f"requires_grad must be bool, but got {type(requires_grad)}")
        self.stop_gradient = not requires_grad
        return self

    @property
    def device(self):
        """The device as Paddle 3 spells it: 'cpu' or 'gpu:N' (a str)."""
        d = self._t.device
        return f"gpu:{d.index or 0}" if d.type == "cuda" else "cpu"

    @property
    def is_cuda(self):
        return self._t.is_cuda

    def get_device(self):
        """The GPU index, or -1 on the CPU."""
        d = self._t.device
        return (d.index or 0) if d.type == "cuda" else -1

    @property
    def data(self):
        """The same data, detached (stop_gradient=True)."""
        return wrap(self._t.detach())

    @data.setter
    def data(self, value):
        t = value._t if isinstance(value, Tensor) else torch.as_tensor(np.asarray(value))
        keep = not self.stop_gradient           # the tensor keeps its stop_gradient
        self._sgf = False
        self._t = t.detach()
        if keep:
            self.stop_gradient = False

    def data_ptr(self):
        return self._t.data_ptr()

    @property
    def itemsize(self):
        return self._t.element_size()

    def stride(self, dim=None):
        t = self._t
        if dim is None:
            return list(t.stride())
        n = t.dim()
        if not -n <= dim < n:
            raise ValueError(f"(InvalidArgument) Dimension out of range (expected to be in range "
                             f"of [{-n}, {n - 1}], but got {dim})")
        return t.stride(dim)

    def get_strides(self):
        return list(self._t.stride())

    strides = property(get_strides)

    @property
    def offset(self):
        """The byte offset of the first element in the storage."""
        t = self._t
        return t.storage_offset() * t.element_size()

    def is_contiguous(self):
        return self._t.is_contiguous()

    def contiguous(self):
        t = self._t
        return self if t.is_contiguous() else wrap(t.contiguous())

    def is_same_shape(self, y):
        return self._t.shape == y._t.shape

    @property
    def inplace_version(self):
        return self._t._version

    def _new(self, fill, size, dtype, device, requires_grad):
        t = self._t
        d = t.dtype if dtype is None else _dt.to_torch_dtype(dtype)
        dev = t.device if device is None else to_torch_device(device)
        shape = shape_arg(size, "new_full" if fill is not None else "new_empty", 0)
        r = torch.empty(shape, dtype=d, device=dev) if fill is None else \
            torch.full(shape, fill, dtype=d, device=dev)
        w = wrap(r)
        if requires_grad:
            w.stop_gradient = False
        return w

    def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False,
                 pin_memory=False):
        if isinstance(fill_value, Tensor):
            fill_value = fill_value._t.item()
        return self._new(fill_value, size, dtype, device, requires_grad)

    def new_zeros(self, size, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
        return self._new(0, size, dtype, device, requires_grad)

    def new_ones(self, size, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
        return self._new(1, size, dtype, device, requires_grad)

    def new_empty(self, size, *, dtype=None, device=None, requires_grad=False,
                  pin_memory=False):
        return self._new(None, size, dtype, device, requires_grad)

    def copy_(self, src, blocking=True):
        """Overwrite this tensor with ``src`` (of the same dtype; it takes src's shape too)."""
        t, u = self._t, src._t
        if u.dtype is not t.dtype:
            raise RuntimeError(f"(PreconditionNotMet) Tensor {self.name} has different data type "
                               "with Tensor , Tensor Copy cannot be performed!")
        with torch.no_grad():
            if u.shape == t.shape:
                t.copy_(u.to(t.device))
            else:
                t.set_(u.detach().to(t.device).clone())
        return self

    def resize_(self, shape, fill_zero=False, name=None):
        """Give this tensor ``shape`` in place, keeping its leading elements in order; new
        elements are zeros."""
        if not isinstance(shape, (list, tuple)):
            raise ValueError(f"Input (shape) should be list or tuple but received {type(shape)}")
        shape = [int(d) for d in shape]
        n = 1
        for d in shape:
            n *= d
        t = self._t
        flat = t.detach().reshape(-1)
        if n > flat.numel():
            flat = torch.cat([flat, flat.new_zeros(n - flat.numel())])
        with torch.no_grad():
            t.set_(flat[:n].clone().reshape(shape))
        return self

    def gradient(self):
        """The gradient as a numpy array (None without one); Paddle's older spelling of
        ``x.grad.numpy()``."""
        g = self.grad
        return None if g is None else g.numpy()

    def apply(self, func):
        """``func(self)``; refused on a tensor that requires gradient."""
        if not self.stop_gradient:
            raise RuntimeError("Cannot apply function on a tensor that required gradient.")
        return func(self)

    def apply_(self, func):
        """Replace this tensor's data with ``func(self)``; returns self."""
        if not self.stop_gradient:
            raise RuntimeError("Cannot apply function on a tensor that required gradient.")
        r = func(self)
        self._t = r._t if isinstance(r, Tensor) else torch.as_tensor(np.asarray(r))
        return self

    # ------------------------------------------------------------------ printing
    def __repr__(self):
        t = self._t
        if not isinstance(t, torch.Tensor):               # a static Variable
            return hooks.static_repr(self)
        if self.__dict__.get("_cleared") is t:            # after _clear()
            return "Tensor(Not initialized)"
        if is_dtensor(t):
            mesh, placements = hooks.dist_attrs(t)
            return format_tensor(t.full_tensor(), _dt.from_torch_dtype(t.dtype).name,
                                 repr(place_of(t)), self.stop_gradient,
                                 f"process_mesh={mesh._c_repr()}, placements={placements!r}, "
                                 "GlobalDenseTensor=")
        return format_tensor(t, _dt.from_torch_dtype(t.dtype).name, repr(place_of(t)),
                             self.stop_gradient)

    __str__ = __repr__

    def __format__(self, spec):
        if spec and self._t.numel() == 1:
            return format(self._t.item(), spec)
        return repr(self)

    # ------------------------------------------------------------------ interop
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        """torch functions accept Tensors: they see the wrapped torch tensors (zero-copy, same
        autograd graph) and return torch results."""
        return func(*_unwrap_tree(args), **_unwrap_tree(kwargs or {}))

    def __dlpack__(self, stream=None, **kwargs):
        return self._t.detach().__dlpack__(stream=stream) if stream is not None \
            else self._t.detach().__dlpack__()

    def __dlpack_device__(self):
        return self._t.__dlpack_device__()

    def __deepcopy__(self, memo):
        w = wrap(self._t.detach().clone().requires_grad_(self._t.requires_grad)
                 if self._t.is_leaf else self._t.clone())
        memo[id(self)] = w
        return w

    def __reduce__(self):
        return (_rebuild, (self._t.detach().cpu().numpy() if self._t.dtype is not torch.bfloat16
                           else self._t.detach().float().cpu().numpy(),
                           _dt.from_torch_dtype(self._t.dtype).name, self.stop_gradient))


def _rebuild(array, dtype_name, stop_gradient):
    t = Tensor(torch.from_numpy(array).to(_dt.convert_dtype(dtype_name).torch))
    t.stop_gradient = stop_gradient
    return t


def _unwrap_tree(x):
    tx = type(x)
    if tx is Tensor:
        return x._t
    if tx is tuple or tx is list:
        return tx(_unwrap_tree(v) for v in x)
    if tx is dict:
        return {k: _unwrap_tree(v) for k, v in x.items()}
    return x


# ---------------------------------------------------------------------- operators
def _eq_other(op, t, other):
    """Paddle's ``x == other`` / ``x != other`` for None, a list or a str: a Python bool for
    None and lists, an all-False (all-True for !=) bool tensor for a str."""
    if type(other) is str:
        return wrap(torch.full(t.shape, op == "ne", dtype=torch.bool, device=t.device))
    return op == "ne"


def _shape_error(e, a, b):
    """Paddle's ValueError where torch's RuntimeError says the operands do not broadcast."""
    if "must match the size" not in str(e):
        return e
    return ValueError("(InvalidArgument) Broadcast dimension mismatch. Operands could not be "
                      f"broadcast together with the shape of X = {list(a.shape)} and the shape "
                      f"of Y = {list(b.shape)}.")


def _swapped(fn):
    return lambda a, other: fn(other, a)


def _rremainder(a, other):
    """``other % a``: a Python number becomes a 0-d tensor of a's dtype first, as torch's
    remainder(Scalar, Tensor) has no gradient for a."""
    if (type(other) is float or type(other) is int) and a.dtype in _FLOATING:
        other = a.new_full((), other)
    return torch.remainder(other, a)


def _pow(a, b):
    """``a ** b`` of the torch operands: Paddle's pow holds a Python-number exponent as a C++
    float, so float64 ``a`` sees a float ``b`` rounded to float32 (``_dt.float_attr``)."""
    if type(b) is float and a.dtype is torch.float64:
        b = _dt.float_attr(b)
    return a ** b


# Python's operators on torch tensors (their C slots) for ``Tensor OP other``; torch
# functions taking the tensor first for ``other OP Tensor``. Rows: (op, forward, reflected,
# name, reflected name); install_operators makes the methods, install_fast_slots the C slots.
# x.float(), x.long(), x.float32() ...: Tensor._convert to a fixed dtype
_CASTS = {"float": torch.float32, "double": torch.float64, "half": torch.float16,
          "bfloat16": torch.bfloat16, "int": torch.int32, "long": torch.int64,
          "short": torch.int16, "char": torch.int8, "byte": torch.uint8, "bool": torch.bool,
          "cfloat": torch.complex64, "cdouble": torch.complex128, "float16": torch.float16,
          "float32": torch.float32, "float64": torch.float64, "int8": torch.int8,
          "int16": torch.int16, "int32": torch.int32, "int64": torch.int64,
          "uint8": torch.uint8, "complex64": torch.complex64, "complex128": torch.complex128}


def _cast_method(name, d):
    def cast(self):
        return self._convert(d)
    cast.__name__ = cast.__qualname__ = name
    return cast


for _name, _d in _CASTS.items():
    setattr(Tensor, _name, _cast_method(_name, _d))
del _name, _d


_OPERATORS = [
    ("add", operator.add, torch.add, "__add__", "__radd__"),
    ("sub", operator.sub, torch.rsub, "__sub__", "__rsub__"),
    ("mul", operator.mul, torch.mul, "__mul__", "__rmul__"),
    ("div", operator.truediv, _swapped(torch.div), "__truediv__", "__rtruediv__"),
    ("floordiv", operator.floordiv, _swapped(torch.floor_divide), "__floordiv__",
     "__rfloordiv__"),
    ("mod", operator.mod, _rremainder, "__mod__", "__rmod__"),
    ("pow", _pow, _swapped(torch.pow), "__pow__", "__rpow__"),
    ("matmul", operator.matmul, _swapped(torch.matmul), "__matmul__", "__rmatmul__"),
    ("and", operator.and_, torch.bitwise_and, "__and__", "__rand__"),
    ("or", operator.or_, torch.bitwise_or, "__or__", "__ror__"),
    ("xor", operator.xor, torch.bitwise_xor, "__xor__", "__rxor__"),
    ("lshift", operator.lshift, _swapped(torch.bitwise_left_shift), "__lshift__",
     "__rlshift__"),
    ("rshift", operator.rshift, _swapped(torch.bitwise_right_shift), "__rshift__",
     "__rrshift__"),
    ("eq", operator.eq, None, "__eq__", None),
    ("ne", operator.ne, None, "__ne__", None),
    ("lt", operator.lt, None, "__lt__", None),
    ("le", operator.le, None, "__le__", None),
    ("gt", operator.gt, None, "__gt__", None),
    ("ge", operator.ge, None, "__ge__", None),
]


_BITWISE = {"and": "&", "or": "|", "xor": "^"}


def _shift_method(shift, right):
    """Paddle's ``x.__lshift__(y, is_arithmetic=True)`` / ``__rshift__``: a logical right
    shift (``is_arithmetic=False``) fills the high bits of signed integers with zeros."""
    def method(self, other, is_arithmetic=True):
        out = shift(self, other)
        t = out._t
        if is_arithmetic or not right or t.dtype is torch.uint8 or t.is_floating_point():
            return out
        b = torch.as_tensor(other._t if isinstance(other, Tensor) else other, device=t.device)
        low = (torch.ones_like(t) << (torch.iinfo(t.dtype).bits - b)) - 1   # the low bits
        out._t = torch.where(b == 0, t, t & low)
        return out
    return method


def install_operators():

    def binary(torch_fn, rfn, op):
        # The wrap is inlined: these run for every arithmetic expression.
        def method(self, other):
            a = self._t
            if type(other) is Tensor:
                b = other._t
                if b.dtype is not a.dtype:
                    a, b = binary_operands(op, a, b)
            elif (type(other) is float or type(other) is int) and a.dtype in _FLOATING:
                b = other
            elif isinstance(other, Tensor):               # a Parameter
                b = other._t
                if b.dtype is not a.dtype:
                    a, b = binary_operands(op, a, b)
            elif (op == "eq" or op == "ne") and (other is None or type(other) in (list, str)):
                return _eq_other(op, a, other)
            else:
                a, b = binary_operands(op, a, other)
            o = _new(Tensor)
            try:
                o._t = torch_fn(a, b)
            except RuntimeError as e:
                raise _shape_error(e, a, b) from None
            return o

        def reflected(self, other):
            # ``other OP self`` for a non-Tensor ``other``, as rfn(self, other) in torch's C
            # code (Python's reflected dunders on torch tensors go through slower wrappers).
            a = self._t
            if (type(other) is float or type(other) is int) and a.dtype in _FLOATING:
                b = other
            else:
                b, a = binary_operands(op, other._t if isinstance(other, Tensor) else other, a)
            o = _new(Tensor)
            o._t = rfn(a, b)
            return o

        if op in _BITWISE:
            # Paddle's __rand__/__ror__/__rxor__ take a Python int or bool only
            number, sym = reflected, _BITWISE[op]

            def reflected(self, other):
                if not isinstance(other, int):
                    raise TypeError(f"unsupported operand type(s) for {sym}: "
                                    f"'{type(other).__name__}' and 'Tensor'")
                return number(self, other)
        return method, reflected

    for op, fn, rfn, name, rname in _OPERATORS:
        method, reflected = binary(fn, rfn, op)
        if op in ("lshift", "rshift"):
            method = _shift_method(method, op == "rshift")
        method.__name__ = name
        setattr(Tensor, name, method)
        if rname:
            reflected.__name__ = rname
            setattr(Tensor, rname, reflected)

    Tensor.__neg__ = lambda self: wrap(-self._t)
    Tensor.__pos__ = lambda self: self
    Tensor.__abs__ = lambda self: wrap(self._t.abs())
    Tensor.__invert__ = lambda self: wrap(~self._t)
    Tensor.__div__ = Tensor.__truediv__          # Python 2's name, which Paddle keeps


install_operators()

# the dunders whose slots framework/_fastops.c takes over
_FAST_SLOT_NAMES = [n for row in _OPERATORS for n in row[3:] if n] + ["__getitem__", "__neg__"]


def install_fast_slots(*classes):
    """Give Tensor (and the given subclasses, which must override no operator) the C slots of
    framework/_fastops.c: the same-dtype and Python-number cases of the operators and basic
    indexing run without a Python frame; every other case calls the Python methods above.
    Returns False, changing nothing, where the module is not built or PADDLE_COMPAT_PURE_PYTHON
    is set."""
    _fastops = c_module()
    if _fastops is None:
        return False
    for cls in classes:
        own = [n for n in _FAST_SLOT_NAMES if n in cls.__dict__]
        if own:
            raise TypeError(f"{cls.__name__} overrides {own}: it keeps the Python slots")
    dtype_descr = inspect.getattr_static(torch.Tensor, "dtype")
    for cls in (Tensor,) + classes:
        _fastops.install(cls, tuple(_FLOATING), torch.rsub, torch.Tensor, dtype_descr)
    return True


# torch's autograd node names whose Paddle GradNode is not the op's name + "GradNode"
_NODE_NAMES = {"AccumulateGrad": "GradNodeAccumulation", "Mul": "MultiplyGradNode",
               "Sub": "SubtractGradNode", "Rsub": "SubtractGradNode", "Div": "DivideGradNode",
               "Mm": "MatmulGradNode", "Bmm": "MatmulGradNode", "Mv": "MatmulGradNode",
               "Dot": "MatmulGradNode", "View": "ReshapeGradNode",
               "UnsafeView": "ReshapeGradNode", "Neg": "ScaleGradNode",
               "Permute": "TransposeGradNode", "T": "TransposeGradNode",
               "Cat": "ConcatGradNode", "Index": "SliceGradNode", "Slice": "SliceGradNode",
               "Select": "SliceGradNode"}


class GradNode:
    """Paddle's view of a torch autograd node (``x.grad_fn``): ``name()`` in Paddle's spelling
    (``AddGradNode``, ``GradNodeAccumulation``), ``next_functions`` the list of the nodes it
    feeds, None for an input without gradient (Paddle's list, not torch's (node, index)
    pairs); anything else is the torch node's
    (``register_hook``, ``metadata``). One GradNode per torch node, so ``is`` compares nodes."""

    __slots__ = ("_node",)

    def __init__(self, node):
        self._node = node

    @staticmethod
    def of(node):
        if node is None:
            return None
        hit = node.metadata.get("_paddle_grad_node")
        if hit is None:
            hit = node.metadata["_paddle_grad_node"] = GradNode(node)
        return hit

    def name(self):
        n = type(self._node).__name__
        base = re.sub(r"Backward\d*$", "", n)
        hit = _NODE_NAMES.get(base) or _NODE_NAMES.get(n)
        return hit if hit is not None else base + "GradNode"

    @property
    def next_functions(self):
        # None for an input that needs no gradient; an accumulation node has [None]
        return [GradNode.of(f) for f, _ in self._node.next_functions] or [None]

    def __getattr__(self, attr):
        return getattr(self._node, attr)

    def __call__(self, *args, **kwargs):
        return self._node(*args, **kwargs)

    def __repr__(self):
        return f"<{self.name()} of {self._node!r}>"
