"""``paddle.nn.Layer``: the base class of every layer.

A Layer keeps its Parameters, sublayers and buffers in three ordered dicts (``_parameters``,
``_sub_layers``, ``_buffers``); assigning a Parameter, a Layer or a plain Tensor to an attribute
files it in the right one, as Paddle does (a plain Tensor becomes a *non-persistable* buffer;
only ``register_buffer`` makes persistable ones). Names follow Paddle: a layer's ``full_name()``
is its snake-cased class name with a per-name counter (``linear_0``), its parameters are
``linear_0.w_0`` / ``linear_0.b_0``, and ``state_dict`` keys are the structured attribute paths
(``0.weight``, ``fc.bias``).

Calling a layer with no hooks goes straight to ``forward``: no per-call work beyond one check.
"""
import collections
import copy
import itertools
import re
import warnings
from collections import OrderedDict

import numpy as np
import torch

from ...framework import dtype as _dt
from ...framework import hooks
from ...framework import mode as _mode
from ...ops.registry import OpSet as _OpSet
from ...framework.parameter import (Parameter, lazy_init_enabled, make_parameter, unique_name,
                                    used_param_names)
from ...framework.mode import in_to_static_mode as in_declarative_mode  # noqa: F401 (Paddle's)
from ...framework.place import Place, to_torch_device
from ...framework.tensor import Tensor, copy_whole, wrap
from ...static.program import layer_parameter as _static_parameter
from .. import initializer as _init
from ..param_attr import to_param_attr

__all__ = ["Layer", "HookRemoveHelper", "assign_value", "new_parameter",
           "create_parameter"]

_FIRST_CAP = re.compile("(.)([A-Z][a-z]+)")
_ALL_CAP = re.compile("([a-z])([A-Z])")
_hook_ids = itertools.count()

_IncompatibleKeys = collections.namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])


def _snake(name):
    """``MultiHeadAttention`` -> ``multi_head_attention``, ``BatchNorm2D`` -> ``batch_norm2d``."""
    return _ALL_CAP.sub(r"\1_\2", _FIRST_CAP.sub(r"\1_\2", name)).lower()


def _addindent(text, n):
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * n + line for line in lines[1:])


def assign_value(target, value):
    """Overwrite ``target``'s data with ``value`` (Tensor, ndarray, list) of the same shape,
    keeping the target's dtype, device and identity (Paddle's ``set_value``)."""
    v = value._t if isinstance(value, Tensor) else (
        value if isinstance(value, torch.Tensor) else torch.as_tensor(np.asarray(value)))
    t = target._t
    if list(v.shape) != list(t.shape):
        raise ValueError(f"Variable Shape not match, Variable [ {target.name} ] need tensor with "
                         f"shape {list(t.shape)} but load set tensor with shape {list(v.shape)}")
    copy_whole(t, v)                  # a sharded parameter keeps its own part


def new_parameter(scope, shape, attr=None, dtype="float32", is_bias=False,
                  default_initializer=None, device=None):
    """A Parameter for a layer whose full name is ``scope`` (see ``Layer.create_parameter``)."""
    attr = to_param_attr(None if isinstance(attr, str) and attr == "" else copy.deepcopy(attr))
    if attr is False:
        return None
    shape = [int(s) for s in shape]
    for i, s in enumerate(shape):
        if s < 0:
            raise AssertionError("Expected every dim's size to be larger than or equal to 0, "
                                 f"but the size of the {i}-th dim is {s}")
    dtype = _dt.convert_dtype(dtype)
    init = attr.initializer or _init.global_initializer(is_bias) or default_initializer
    if init is None:
        if not dtype.is_floating_point and dtype.name != "int8":
            raise TypeError("Can not create parameter with default initializer when dtype is not "
                            "['float16', 'float32', 'float64', 'bfloat16', 'float'] type. Set "
                            "default_initializer to fit the parameter dtype!")
        init = _init.Constant(0.0) if is_bias else _init.XavierUniform()
    name = attr.name
    if name is None:
        name = unique_name(f"{scope}.{'b' if is_bias else 'w'}")
    if _mode.in_static_mode():
        # a parameter of the static Program being built, initialised by its startup program
        p = _parameter_of(_static_parameter(name, shape, dtype.torch, init, attr.trainable),
                          name, attr)
        if not (dtype.is_floating_point or dtype.is_complex):
            p.stop_gradient = True
        return p
    if name in used_param_names:
        raise ValueError(f"parameter name [{name}] have be been used. In dygraph mode, the name "
                         "of parameter can't be same.Please check the parameter attr value "
                         "passed to self.create_parameter or constructor of dygraph Layers")
    used_param_names.add(name)
    where = None if device is None else to_torch_device(device)
    lazy = lazy_init_enabled()
    data = torch.empty(shape, dtype=dtype.torch, device="meta") if lazy else \
        init.make(shape, dtype, where)
    p = _parameter_of(data, name, attr)
    if lazy:                    # LazyGuard: the values are drawn by p.initialize()
        p._lazy_init = lambda: init.make(shape, dtype, where)
    return p


def _parameter_of(data, name, attr):
    """A Parameter named ``name`` around ``data`` (a torch tensor, or a static program's
    parameter node) with ``attr``'s optimizer settings."""
    return make_parameter(data, name, trainable=attr.trainable,
                          optimize_attr={"learning_rate": attr.learning_rate},
                          regularizer=attr.regularizer, need_clip=attr.need_clip,
                          do_model_average=attr.do_model_average)


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False,
                     default_initializer=None):
    """``paddle.create_parameter``: a standalone Parameter (named ``create_parameter_<n>.w_0``
    unless ``name`` or ``attr.name`` says otherwise). While a program is built the arguments
    are checked as Paddle checks them (TypeError)."""
    if not _mode.in_dynamic_mode():
        _check_create_parameter(shape, attr, default_initializer)
    attr = to_param_attr(copy.deepcopy(attr))
    if name is not None and attr is not False:
        attr.name = name
    return new_parameter(unique_name("create_parameter"), shape, attr, dtype, is_bias,
                         default_initializer)


_SHAPE_ITEM = (int, np.uint8, np.int8, np.int16, np.int32, np.int64)


def _check_create_parameter(shape, attr, default_initializer):
    from ...framework.data_feeder import check_type
    from ...framework.param_attr import ParamAttr
    check_type(shape, "shape", (list, tuple, np.ndarray), "create_parameter")
    for item in shape:
        check_type(item, "item of shape", _SHAPE_ITEM, "create_parameter")
    check_type(attr, "attr", (type(None), ParamAttr), "create_parameter")
    check_type(default_initializer, "default_initializer", (type(None), _init.Initializer),
               "create_parameter")


# ``Tensor.create_parameter`` is this function bound as a method, as in Paddle (the tensor
# then stands for the shape); paddle_compat/__init__.py lists it in _LAZY_METHODS
_OpSet(__name__)(create_parameter, method=True, export=False)


class HookRemoveHelper:
    """Returned by the ``register_*_hook`` methods; ``remove()`` takes the hook away."""

    def __init__(self, hooks, *extra):
        self._hooks = hooks
        self._extra = extra
        self._hook_id = next(_hook_ids)

    def remove(self):
        for d in (self._hooks,) + self._extra:
            d.pop(self._hook_id, None)


class Layer:
    """Base class of layers: subclass it, create parameters and sublayers in ``__init__`` and
    write ``forward``. ``name_scope`` overrides the prefix of ``full_name()``; ``dtype`` is the
    default dtype of the parameters it creates."""

    def __init__(self, name_scope=None, dtype="float32"):
        d = self.__dict__
        d["training"] = True
        d["_full_name"] = unique_name(name_scope or _snake(type(self).__name__))
        d["_built"] = False
        d["_dtype"] = dtype
        d["_parameters"] = OrderedDict()
        d["_buffers"] = OrderedDict()
        d["_non_persistable_buffer_names_set"] = set()
        d["_sub_layers"] = OrderedDict()
        d["_loaddict_holder"] = OrderedDict()
        d["_forward_pre_hooks"] = OrderedDict()
        d["_forward_post_hooks"] = OrderedDict()
        d["_forward_pre_hooks_with_kwargs_flag"] = OrderedDict()
        d["_forward_post_hooks_with_kwargs_flag"] = OrderedDict()
        d["_forward_post_hooks_always_called"] = OrderedDict()
        d["_state_dict_hooks"] = OrderedDict()
        d["_casted_by_pure_fp16"] = False

    # ------------------------------------------------------------------ calling
    def forward(self, *inputs, **kwargs):
        raise NotImplementedError

    def backward(self, *inputs):
        raise ValueError("Layer shouldn't implement backward")

    def _build_once(self, *args, **kwargs):
        pass

    def __call__(self, *inputs, **kwargs):
        d = self.__dict__
        if not (d["_forward_pre_hooks"] or d["_forward_post_hooks"]) and (
                d["_built"] or type(self)._build_once is Layer._build_once):
            return self.forward(*inputs, **kwargs)
        return self._call_with_hooks(inputs, kwargs)

    def _call_with_hooks(self, inputs, kwargs):
        outputs = None
        called = set()
        try:
            for hid, hook in list(self._forward_pre_hooks.items()):
                if hid in self._forward_pre_hooks_with_kwargs_flag:
                    res = hook(self, inputs, kwargs)
                    if res is not None:
                        if not (isinstance(res, tuple) and len(res) == 2):
                            raise RuntimeError("forward pre-hook must return None or a tuple of "
                                               f"(new_args, new_kwargs), but got {res}.")
                        inputs, kwargs = res
                else:
                    res = hook(self, inputs)
                    if res is not None:
                        inputs = res if isinstance(res, tuple) else (res,)
            if not self._built:
                self._build_once(*inputs, **kwargs)
                self.__dict__["_built"] = True
            outputs = self.forward(*inputs, **kwargs)
            for hid, hook in list(self._forward_post_hooks.items()):
                if hid in self._forward_post_hooks_always_called:
                    called.add(hid)
                if hid in self._forward_post_hooks_with_kwargs_flag:
                    res = hook(self, inputs, kwargs, outputs)
                else:
                    res = hook(self, inputs, outputs)
                if res is not None:
                    outputs = res
            return outputs
        except Exception:
            for hid, hook in list(self._forward_post_hooks.items()):
                if hid in self._forward_post_hooks_always_called and hid not in called:
                    try:
                        if hid in self._forward_post_hooks_with_kwargs_flag:
                            res = hook(self, inputs, kwargs, outputs)
                        else:
                            res = hook(self, inputs, outputs)
                        if res is not None:
                            outputs = res
                    except Exception as e:  # noqa: BLE001  Paddle only warns here
                        warnings.warn("forward hook with ``always_call=True`` raised an exception "
                                      f"that was silenced as another error was raised in "
                                      f"forward: {e!s}")
            raise

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """``hook(layer, inputs)`` (or ``hook(layer, args, kwargs)`` with ``with_kwargs``) runs
        before ``forward``; a non-None result replaces the inputs."""
        h = HookRemoveHelper(self._forward_pre_hooks, self._forward_pre_hooks_with_kwargs_flag)
        self._forward_pre_hooks[h._hook_id] = hook
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs_flag[h._hook_id] = True
        if prepend:
            self._forward_pre_hooks.move_to_end(h._hook_id, last=False)
        return h

    def register_forward_post_hook(self, hook, *, prepend=False, with_kwargs=False,
                                   always_call=False):
        """``hook(layer, inputs, output)`` runs after ``forward``; a non-None result replaces
        the output."""
        h = HookRemoveHelper(self._forward_post_hooks, self._forward_post_hooks_with_kwargs_flag,
                             self._forward_post_hooks_always_called)
        self._forward_post_hooks[h._hook_id] = hook
        if with_kwargs:
            self._forward_post_hooks_with_kwargs_flag[h._hook_id] = True
        if always_call:
            self._forward_post_hooks_always_called[h._hook_id] = True
        if prepend:
            self._forward_post_hooks.move_to_end(h._hook_id, last=False)
        return h

    register_forward_hook = register_forward_post_hook

    def register_state_dict_hook(self, hook):
        """``hook(state_dict)`` runs at the end of ``state_dict``; a result replaces it."""
        h = HookRemoveHelper(self._state_dict_hooks)
        self._state_dict_hooks[h._hook_id] = hook
        return h

    # ------------------------------------------------------------------ modes and names
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for layer in self.sublayers():
            layer.training = mode
        return self

    def eval(self):
        # as Paddle: the flags are set directly, never through an overridden train()
        self.training = False
        for layer in self.sublayers():
            layer.training = False
        return self

    def apply(self, fn):
        """Call ``fn`` on every sublayer (children first) and then on this layer."""
        for layer in self.children():
            layer.apply(fn)
        fn(self)
        return self

    def full_name(self):
        return self._full_name

    def _get_name(self):
        return type(self).__name__

    # ------------------------------------------------------------------ creating members
    def create_parameter(self, shape, attr=None, dtype=None, is_bias=False,
                         default_initializer=None, device=None):
        """A new Parameter named ``<full_name>.w_<n>`` (``.b_<n>`` for a bias). Its values come
        from ``attr.initializer``, else the global initializer, else ``default_initializer``,
        else XavierUniform (weights) / Constant(0) (biases). ``attr=False`` gives None. With no
        ``dtype`` it is Paddle's default dtype (``paddle.set_default_dtype``), as in Paddle, not
        the layer's ``_dtype``."""
        if dtype is None or (isinstance(dtype, str) and dtype == ""):
            dtype = _dt.default_float().name
        return new_parameter(self._full_name, shape, attr, dtype, is_bias,
                             default_initializer, device)

    def create_variable(self, name=None, persistable=None, dtype=None):
        return self.create_tensor(name, persistable, dtype)

    def create_tensor(self, name=None, persistable=None, dtype=None):
        """An empty Tensor of ``dtype`` named ``name`` (or ``<full_name>.tmp_<n>``)."""
        dtype = dtype or self._dtype or _dt.default_float().name
        t = Tensor(torch.empty(0, dtype=_dt.convert_dtype(dtype).torch))
        t.name = name or unique_name(f"{self._full_name}.tmp")
        t.persistable = bool(persistable)
        return t

    def add_parameter(self, name, parameter):
        if "_parameters" not in self.__dict__:
            raise RuntimeError("super().__init__() should be called firstly.")
        self._check_member_name(name, "parameter")
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"The parameter '{name}' already exists.")
        if parameter is not None and not isinstance(parameter, Parameter):
            raise TypeError("The parameter to be added should be a Parameter, but received "
                            f"{type(parameter).__name__}.")
        self._parameters[name] = parameter
        return parameter

    def register_parameter(self, name, param):
        self.add_parameter(name, param)

    def add_sublayer(self, name, sublayer):
        assert isinstance(sublayer, Layer) or sublayer is None
        self._sub_layers[str(name)] = sublayer
        return sublayer

    def add_module(self, name, module):
        self.add_sublayer(name, module)

    register_module = add_module

    def register_buffer(self, name, tensor, persistable=True):
        """Keep ``tensor`` as a buffer: moved by ``to``, saved in ``state_dict`` if
        ``persistable``, never trained."""
        if "_buffers" not in self.__dict__:
            raise ValueError("super().__init__() should be called first")
        self._check_member_name(name, "buffer")
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists.")
        if tensor is not None and type(tensor) is not Tensor:
            raise TypeError("The registered buffer should be a Paddle.Tensor, but received "
                            f"{type(tensor).__name__}.")
        self._buffers[name] = tensor
        if persistable:
            self._non_persistable_buffer_names_set.discard(name)
        else:
            self._non_persistable_buffer_names_set.add(name)

    @staticmethod
    def _check_member_name(name, what):
        if not isinstance(name, str):
            raise TypeError(f"The name of {what} should be a string, but received "
                            f"{type(name).__name__}.")
        if "." in name:
            raise KeyError(f"The name of {what} can not contain `.`, because when you access the "
                           f"newly added {what} in the form of `self.**.**`, it will cause "
                           "AttributeError.")
        if name == "":
            raise KeyError(f"The name of {what} can not be empty.")

    # ------------------------------------------------------------------ attribute protocol
    def __getattr__(self, name):
        d = self.__dict__
        for store in ("_parameters", "_sub_layers", "_buffers"):
            s = d.get(store)
            if s is not None and name in s:
                return s[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        d = self.__dict__
        if isinstance(getattr(type(self), name, None), property):
            object.__setattr__(self, name, value)
            return
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise ValueError("super().__init__() should be called first")
            self._pc_forget(name, d, d["_buffers"], d["_sub_layers"])
            params[name] = value
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(f"assignment to parameter '{name}' should be of type Parameter "
                                f"or None, but got '{type(value).__name__}'")
            params[name] = None
            return
        layers = d.get("_sub_layers")
        if isinstance(value, Layer):
            if layers is None:
                raise ValueError("super().__init__() should be called first")
            self._pc_forget(name, d, params, d["_buffers"])
            layers[name] = value
            return
        if layers is not None and name in layers:
            if value is not None:
                raise TypeError(f"assignment to sublayer '{name}' should be of type Layer or "
                                f"None, but got '{type(value).__name__}'")
            layers[name] = None
            return
        buffers = d.get("_buffers")
        if isinstance(value, Tensor):
            if buffers is None:
                raise ValueError("super().__init__() should be called first")
            self._pc_forget(name, d, params, layers)
            if name not in buffers:
                d["_non_persistable_buffer_names_set"].add(name)
            buffers[name] = value
            return
        if buffers is not None and name in buffers:
            if value is not None:
                raise TypeError(f"assignment to buffers '{name}' should be of type "
                                f"core.DenseTensor or None, but got '{type(value).__name__}'")
            buffers[name] = None
            return
        object.__setattr__(self, name, value)

    @staticmethod
    def _pc_forget(name, *stores):
        for s in stores:
            if name in s:
                del s[name]

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._sub_layers:
            del self._sub_layers[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistable_buffer_names_set.discard(name)
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        return (dir(type(self)) + list(self.__dict__) + list(self._parameters)
                + list(self._sub_layers) + list(self._buffers))

    def __getstate__(self):
        return self.__dict__

    def __setstate__(self, state):
        self.__dict__.update(state)

    # ------------------------------------------------------------------ walking the tree
    def named_sublayers(self, prefix="", include_self=False, layers_set=None,
                        remove_duplicate=True):
        """(structured name, layer) for every sublayer, depth first, each layer once."""
        if layers_set is None:
            layers_set = set()
        if include_self and self not in layers_set:
            if remove_duplicate:
                layers_set.add(self)
            yield prefix, self
        for key, layer in self._sub_layers.items():
            if layer is None:
                continue
            yield from layer.named_sublayers(prefix + ("." if prefix else "") + key, True,
                                             layers_set, remove_duplicate)

    def sublayers(self, include_self=False):
        return [layer for _, layer in self.named_sublayers(include_self=include_self)]

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        return self.named_sublayers(prefix, True, memo, remove_duplicate)

    def modules(self):
        for _, m in self.named_modules():
            yield m

    def named_children(self):
        seen = set()
        for name, layer in self._sub_layers.items():
            if layer is not None and layer not in seen:
                seen.add(layer)
                yield name, layer

    def children(self):
        for _, layer in self.named_children():
            yield layer

    def _named_members(self, store, prefix, include_sublayers, remove_duplicate):
        seen = set()
        layers = (self.named_sublayers(prefix, True, None, remove_duplicate)
                  if include_sublayers else [(prefix, self)])
        for layer_prefix, layer in layers:
            for key, v in getattr(layer, store).items():
                if v is None or v in seen:
                    continue
                if remove_duplicate:
                    seen.add(v)
                yield layer_prefix + ("." if layer_prefix else "") + key, v

    def named_parameters(self, prefix="", include_sublayers=True, remove_duplicate=True):
        return self._named_members("_parameters", prefix, include_sublayers, remove_duplicate)

    def parameters(self, include_sublayers=True):
        return [p for _, p in self.named_parameters(include_sublayers=include_sublayers)]

    def named_buffers(self, prefix="", include_sublayers=True, remove_duplicate=True):
        return self._named_members("_buffers", prefix, include_sublayers, remove_duplicate)

    def buffers(self, include_sublayers=True):
        return [b for _, b in self.named_buffers(include_sublayers=include_sublayers)]

    def get_sublayer(self, target):
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Layer):
                raise AttributeError("`" + item + "` is not an nn.Layer")
        return mod

    get_submodule = get_sublayer

    def set_sublayer(self, target, layer, strict=False):
        if target == "":
            raise ValueError("Cannot set the sublayer without a target name!")
        if not isinstance(layer, Layer):
            raise ValueError(f"`module` is not an nn.Layer, found {type(layer)}")
        parent_path, _, last = target.rpartition(".")
        parent = self.get_sublayer(parent_path)
        if strict and not hasattr(parent, last):
            raise AttributeError(parent._get_name() + " has no attribute `" + last + "`")
        if hasattr(parent, last) and not isinstance(getattr(parent, last), Layer):
            raise AttributeError("`" + last + "` is not an nn.Layer")
        setattr(parent, last, layer)

    set_submodule = set_sublayer

    def _get_member(self, target, store, what):
        path, _, name = target.rpartition(".")
        mod = self.get_sublayer(path)
        if not hasattr(mod, name):
            raise AttributeError(mod._get_name() + " has no attribute `" + name + "`")
        if name not in getattr(mod, store):
            raise AttributeError("`" + name + "` is not a " + what)
        return getattr(mod, name)

    def get_parameter(self, target):
        return self._get_member(target, "_parameters", "nn.Parameter")

    def get_buffer(self, target):
        return self._get_member(target, "_buffers", "buffer")

    # ------------------------------------------------------------------ gradients
    def clear_gradients(self, set_to_zero=True):
        for p in self.parameters():
            if p.trainable:
                p.clear_grad(set_to_zero)

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if p.grad is not None:
                p.clear_grad(not set_to_none)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.stop_gradient = not requires_grad
        return self

    # ------------------------------------------------------------------ state dicts
    def _state_dict_impl(self, destination=None, include_sublayers=True,
                         structured_name_prefix="", include_non_persistable_buffer=False,
                         use_hook=True, keep_vars=True):
        if destination is None:
            destination = OrderedDict()
        for name, p in self._parameters.items():
            if p is not None:
                destination[structured_name_prefix + name] = p if keep_vars else p.detach()
        skip = () if include_non_persistable_buffer else self._non_persistable_buffer_names_set
        for name, b in self._buffers.items():
            if b is not None and name not in skip:
                destination[structured_name_prefix + name] = b if keep_vars else b.detach()
        if include_sublayers:
            for lname, layer in self._sub_layers.items():
                if layer is not None:
                    layer._state_dict_impl(destination, True,
                                           structured_name_prefix + lname + ".",
                                           include_non_persistable_buffer, use_hook, keep_vars)
        if use_hook:
            for hook in self._state_dict_hooks.values():
                res = hook(destination)
                if res is not None:
                    destination = res
        return destination

    def state_dict(self, destination=None, include_sublayers=True, structured_name_prefix="",
                   use_hook=True, keep_vars=True, prefix=None):
        """Parameters and persistable buffers by structured name (``fc.weight``), the objects
        themselves (``keep_vars=False`` detaches). The torch spelling
        ``state_dict(destination, prefix, keep_vars)`` also works."""
        if prefix is not None or isinstance(include_sublayers, str):
            if isinstance(include_sublayers, str):
                prefix, keep_vars = include_sublayers, bool(structured_name_prefix or False)
            return self._state_dict_impl(destination, True, prefix, False, True, keep_vars)
        return self._state_dict_impl(destination, include_sublayers, structured_name_prefix,
                                     False, use_hook, keep_vars)

    def to_static_state_dict(self, destination=None, include_sublayers=True,
                             structured_name_prefix="", use_hook=True, keep_vars=True):
        return self._state_dict_impl(destination, include_sublayers, structured_name_prefix,
                                     True, use_hook, keep_vars)

    def set_state_dict(self, state_dict, use_structured_name=True):
        """Copy values from ``state_dict`` (keys: structured names, or parameter names with
        ``use_structured_name=False``) into the parameters and persistable buffers; entries
        that are missing or have the wrong shape are skipped with a warning. Returns
        ``(missing_keys, unexpected_keys)``."""
        missing, matched, pairs = [], set(), []
        for key, target in self._state_dict_impl(use_hook=False).items():
            k = key if use_structured_name else target.name
            state = state_dict.get(k, None)
            try:
                if state is None:
                    missing.append(k)
                    raise ValueError(f"{k} is not found in the provided dict.")
                shape = state.shape() if callable(getattr(state, "shape", None)) else \
                    np.shape(state) if not isinstance(state, Tensor) else state.shape
                if list(shape) != list(target.shape):
                    missing.append(k)
                    raise ValueError(f"{k} receives a shape {list(shape)}, but the expected "
                                     f"shape is {list(target.shape)}.")
                matched.add(k)
                pairs.append((target, state))
            except ValueError as err:
                warnings.warn(f"Skip loading for {key}. " + str(err))
        unexpected = [k for k in state_dict.keys() if k not in matched]
        for target, state in pairs:
            assign_value(target, state)
        return missing, unexpected

    set_dict = set_state_dict
    load_dict = set_state_dict

    def load_state_dict(self, state_dict, strict=True, assign=False):
        missing, unexpected = self.set_state_dict(state_dict)
        msgs = []
        if strict:
            if unexpected:
                msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing)))
        if msgs:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(msgs)))
        return _IncompatibleKeys(missing, unexpected)

    # ------------------------------------------------------------------ devices and dtypes
    def _apply_tensors(self, fn, dtype, include_sublayers=True):
        """Rebind every parameter's and buffer's data to ``fn(torch_tensor)`` (None: keep),
        keeping the Parameter/Tensor objects (Paddle shares the new data into them), and set
        the layers' ``_dtype`` (shown by their repr) to ``dtype``."""
        layers = self.sublayers(include_self=True) if include_sublayers else [self]
        with torch.no_grad():
            for layer in layers:
                layer._dtype = dtype          # as Paddle, even when only the device changes
                for p in layer._parameters.values():
                    if p is None:
                        continue
                    new = fn(p._t)
                    if new is None or new is p._t:
                        continue
                    g = p._t.grad
                    trainable = not p.stop_gradient
                    new = new.detach()
                    if trainable and (new.is_floating_point() or new.is_complex()):
                        new.requires_grad_(True)
                    if g is not None:
                        new_g = fn(g)
                        new.grad = new_g if new_g is not None and new.requires_grad else None
                    p._t = new
                for b in layer._buffers.values():
                    if b is not None:
                        new = fn(b._t)
                        if new is not None:
                            b._t = new

    def to(self, device=None, dtype=None, blocking=None, non_blocking=None):
        """Move/cast all parameters and buffers (floating or not) in place; returns self."""
        if device is None and dtype is None and blocking is None and non_blocking is None:
            return self
        if device is not None and not isinstance(device, (str, Place, torch.device)):
            raise ValueError("device should be type of str, paddle.CPUPlace, paddle.CUDAPlace, "
                             "paddle.CUDAPinnedPlace, paddle.XPUPlace, or "
                             f"paddle.base.libpaddle.Place, but got {type(device).__name__}")
        return self._to_impl(device, dtype)

    def _to_impl(self, device=None, dtype=None, floating_only=False, include_sublayers=True):
        dev = None if device is None else to_torch_device(device)
        tdt = None if dtype is None else _dt.convert_dtype(dtype).torch

        def fn(t):
            if floating_only and not t.is_floating_point():
                return None
            return t.to(device=dev, dtype=tdt)

        self._apply_tensors(fn, dtype, include_sublayers)
        return self

    def astype(self, dtype=None):
        """Cast all parameters and buffers to ``dtype``; returns self."""
        try:
            d = _dt.convert_dtype(dtype)
        except TypeError:
            raise ValueError("dtype value error, must be 'bfloat16', 'float16', 'float32', "
                             "'float64', 'int8', 'int16', 'int32', 'int64', 'uint8', 'complex64',"
                             " 'complex128', 'bool', or paddle.dtype, numpy.dtype, but receive "
                             + str(dtype)) from None
        self._apply_tensors(lambda t: t.to(d.torch), d)
        return self

    def _cast_floating(self, dtype, excluded_layers):
        excluded = [] if excluded_layers is None else excluded_layers
        if isinstance(excluded, type):
            excluded = [excluded]
        elif not isinstance(excluded, (list, tuple)):
            raise TypeError("excluded_layers should be type nn.Layer or list, but got "
                            f"{type(excluded).__name__}.")

        def cast(layer):
            if type(layer) not in excluded:
                layer._to_impl(dtype=_dt.convert_dtype(dtype), floating_only=True,
                               include_sublayers=False)

        return self.apply(cast)

    def float(self, excluded_layers=None):
        return self._cast_floating("float32", excluded_layers)

    def float16(self, excluded_layers=None):
        return self._cast_floating("float16", excluded_layers)

    def bfloat16(self, excluded_layers=None):
        return self._cast_floating("bfloat16", excluded_layers)

    def type(self, dst_type):
        d = _dt.convert_dtype(dst_type)
        return self.apply(lambda layer: layer._to_impl(dtype=d, include_sublayers=False))

    def double(self):
        return self.type("float64")

    def half(self):
        return self.type("float16")

    def cuda(self, device=None):
        if device is None:
            device = "gpu"
        elif isinstance(device, int):
            device = f"gpu:{device}"
        elif not (isinstance(device, Place) and device.is_gpu_place()):
            raise TypeError(f"device must be int, paddle.CUDAPlace or None, got {type(device)}")
        return self._to_impl(device=device)

    def cpu(self):
        return self._to_impl(device="cpu")

    def xpu(self, device=None):
        """Paddle's move to a Kunlun XPU: paddle_compat runs on torch's CPU and CUDA devices
        only, so every XPU device raises what a Paddle build without XPU raises."""
        if device is None or isinstance(device, int) or type(device).__name__ == "XPUPlace" \
                or getattr(device, "_kind", None) == "xpu":
            raise ValueError("(InvalidArgument) use wrong place, Please check.")
        raise TypeError(f"device must be int, paddle.XPUPlace or None, got {type(device)}")

    # ------------------------------------------------------------------ sharded checkpoints
    def get_extra_state(self):
        """Paddle's placeholder: a layer that keeps extra state overrides it."""
        raise RuntimeError("Reached a code path in Module.get_extra_state() that should never "
                           "be called. ")

    def sharded_state_dict(self, structured_name_prefix=""):
        """``{structured name: ShardedWeight}`` for this layer and its sublayers; on one
        process every entry is the whole tensor (offset 0, local shape = global shape)."""
        out = {}
        for key, t in self.state_dict(include_sublayers=False).items():
            full = f"{structured_name_prefix}{key}"
            out[full] = ShardedWeight(full, t, tuple(t.shape), tuple(t.shape),
                                      (0,) * len(t.shape))
        for name, sub in self._sub_layers.items():
            if sub is not None:
                out.update(sub.sharded_state_dict(f"{structured_name_prefix}{name}."))
        return out

    def full(self, aoa_config=None, **kwargs):
        """The full (unsharded) parameters and persistable buffers as ``(name, tensor)`` pairs
        sorted by name: copies, keeping ``stop_gradient``. On one process there is nothing to
        gather; ``aoa_config`` rewriting and the communication-group keywords are not
        supported."""
        if aoa_config or kwargs.get("h_group") or kwargs.get("v_group") \
                or kwargs.get("process_group"):
            raise NotImplementedError("Layer.full: aoa_config and communication groups are not "
                                      "supported (one process only)")
        items = sorted(self.sharded_state_dict().items())

        def gen():
            for key, sw in items:
                src = sw.local_tensor
                with torch.no_grad():
                    t = wrap(src._t.detach().clone())
                t.stop_gradient = src.stop_gradient
                yield key, t
        return gen()

    # ------------------------------------------------------------------ printing
    def extra_repr(self):
        """The text inside the parentheses of this layer's repr; override in subclasses."""
        return ""

    def __repr__(self):
        extra = self.extra_repr().split("\n")
        sub = ["(" + name + "): " + _addindent(repr(layer), 2)
               for name, layer in self._sub_layers.items()]
        s = type(self).__name__ + "("
        if len(extra) > 1:
            s += "\n  " + "\n  ".join(extra) + "\n"
        else:
            s += extra[0]
        if sub:
            s += "\n  " + "\n  ".join(sub) + "\n"
        return s + ")"


class ShardedWeight:
    """One entry of ``Layer.sharded_state_dict``: the local piece of a (possibly sharded)
    tensor and where it sits in the global one (Paddle's flex-checkpoint record)."""

    def __init__(self, key, local_tensor, local_shape, global_shape, global_offset,
                 is_flattened=False, flattened_range=None):
        self.key, self.local_tensor = key, local_tensor
        self.local_shape, self.global_shape = tuple(local_shape), tuple(global_shape)
        self.global_offset = tuple(global_offset)
        self.is_flattened, self.flattened_range = is_flattened, flattened_range

    def __repr__(self):
        return (f"ShardedWeight(key={self.key}, local_shape={self.local_shape}, "
                f"global_shape={self.global_shape}, global_offset={self.global_offset})")


hooks.is_layer.set(lambda obj: isinstance(obj, Layer))
