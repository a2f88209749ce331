"""The layer functions of ``paddle.static.nn`` that create their own parameters (``conv2d``,
``batch_norm``, ``embedding`` ...), the control flow ``switch_case`` / ``while_loop``, and the
LoD sequence ops.

Each layer function creates its parameters as Paddle's legacy static graph did: named
``<layer>_<n>.w_<k>`` / ``<layer>_<n>.b_<k>`` (``conv2d_0.w_0``, ``batch_norm_0.w_1``), with
Paddle's default initialisers, initialised by the startup program; the computation is recorded
in the main program with torch ops on the Variables' proxies.

Paddle 3.3.1 runs these functions only in its legacy static graph (``FLAGS_enable_pir_api=0``):
in its default PIR mode they fail while the program is built (an AssertionError for
``conv2d``, TypeErrors for the others, that reject PIR values). Ours work in our one static
mode, with the legacy behaviour (the goldens are recorded in the legacy mode). The LoD sequence
ops need LoD tensors, which paddle_compat does not model: they raise Paddle's PIR-mode
AssertionError.

``while_loop`` records one node (``_run_while``) holding the traced ``cond`` and ``body``
sub-graphs, which loops at run time; in dynamic mode it is a Python loop, as Paddle's.
``deform_conv2d`` reaches ``paddle.vision.ops.deform_conv2d`` (a floor up) through
``framework.hooks.deform_conv2d``.
"""
import functools
import math
import operator

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils._pytree import tree_flatten, tree_unflatten

from ..framework import dtype as _dt
from ..framework import hooks as _hooks
from ..framework.data_feeder import check_variable_and_dtype
from ..framework.tensor import Tensor, wrap
from ..ops.random import normal as _normal
from . import mode as _mode
from .nn import _as_proxy, _current_tracer, _merge_pv, cond, trace_subgraph
from .misc import WeightNormParamAttr
from .program import (_Constant, _persistable, _XavierUniform, create_parameter,
                      default_main_program, default_startup_program)
from .proxy import StaticProxy, _active, shape_of

__all__ = ["conv2d", "conv3d", "conv2d_transpose", "conv3d_transpose", "batch_norm",
           "layer_norm", "group_norm", "instance_norm", "prelu", "embedding",
           "sparse_embedding", "bilinear_tensor_product", "spectral_norm", "row_conv",
           "continuous_value_model", "deform_conv2d", "nce", "switch_case", "while_loop",
           "sequence_conv", "sequence_expand", "sequence_first_step", "sequence_last_step",
           "sequence_pool", "sequence_softmax"]


# ---------------------------------------------------------------------- helpers
def _static_only(fn):
    """Paddle's ``static_only``: the layer functions create parameters of a Program, so in
    dynamic mode they raise AssertionError (Paddle 3.3.1 runs ``batch_norm`` and ``row_conv``
    eagerly there; ours ask for the nn layers instead)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if _mode.in_dynamic_mode():
            raise AssertionError(
                "In PaddlePaddle 2.x, we turn on dynamic graph mode by default, and "
                f"'{fn.__name__}()' is only supported in static graph mode. So if you want to "
                "use this api, please call 'paddle.enable_static()' before this api to enter "
                "static graph mode.")
        return fn(*args, **kwargs)
    return wrapper


class _Normal:
    """``Normal(mean, std)``, drawn with ``paddle.normal`` (so ``paddle.seed`` governs it)."""

    def __init__(self, mean, std):
        self.mean = mean
        self.std = std

    def _static_init(self, shape, tdtype, device):
        with _mode.mode_guard(False):
            t = _normal(self.mean, self.std, list(shape))._t
        return t.to(dtype=tdtype, device=device)


class _Layer:
    """Names of one layer call: ``prefix`` (``conv2d_0``), its ``w_k``/``b_k`` parameters and
    ``tmp_k`` outputs, numbered as Paddle's LayerHelper numbers them."""

    def __init__(self, kind, name=None):
        self.prefix = name or default_main_program().tracer.unique_var_name(kind)
        self.counts = {"w": 0, "b": 0, "tmp": 0}

    def _next(self, kind):
        k = self.counts[kind]
        self.counts[kind] = k + 1
        return f"{self.prefix}.{kind}_{k}"

    def param(self, shape, dtype, attr=None, default=None, is_bias=False, trainable=None,
              pname=None):
        """A parameter ``prefix.w_k`` (``.b_k`` for a bias); ``attr`` is a ParamAttr, a name,
        or None."""
        name = self._next("b" if is_bias else "w")
        if isinstance(attr, str):
            name, attr = attr, None
        if pname is not None:
            name = pname
        if isinstance(attr, WeightNormParamAttr):
            return _weight_norm(attr.name or name, list(shape), dtype, attr, default)
        p = create_parameter(list(shape), dtype, name=name, attr=attr, is_bias=is_bias,
                             default_initializer=default)
        if trainable is False:
            n = p._t.node
            n.meta["rg"] = False
            n.meta["trainable"] = False
            for m in _startup_nodes(p.name):
                m.meta["trainable"] = False
        return p

    def out(self, t, skip=0):
        """Name the value ``t`` (a torch proxy) ``prefix.tmp_k`` (after ``skip`` unnamed
        intermediate outputs Paddle numbers too) and wrap it."""
        for _ in range(skip):
            self._next("tmp")
        v = wrap(t)
        if isinstance(t, StaticProxy) and t.node.op in ("call_function", "call_method"):
            t.node.meta["var_name"] = self._next("tmp")
            t.tracer.version += 1
        return v


def _norm_except_dim(v, dim):
    if dim is None:
        return v.norm().reshape([1] * v.dim())
    dims = [i for i in range(v.dim()) if i != dim]
    return v.pow(2).sum(dims, keepdim=True).sqrt()


def _weight_norm(name, shape, dtype, attr, default):
    """``w = g * v / ||v||`` (norm over every dimension but ``attr.dim``): parameters
    ``NAME_v`` (initialised as w would be) and ``NAME_g`` (initialised to ``||v||``), as
    Paddle's legacy LayerHelper makes them."""
    tdtype = _dt.convert_dtype(dtype).torch
    init = attr.initializer or default or _XavierUniform()
    v = _persistable(name + "_v", shape, tdtype, init, attr.trainable, parameter=True)
    g_shape = [1] * len(shape)
    if attr.dim is not None:
        g_shape[attr.dim] = shape[attr.dim]
    g = _persistable(name + "_g", g_shape, tdtype, None, attr.trainable, parameter=True)
    sp = default_startup_program().tracer
    v_init = default_startup_program().node_by_name(name + "_v")
    sp.record("call_function", _norm_except_dim, (StaticProxy(v_init, sp), attr.dim), {},
              var_name=name + "_g",
              meta={"persist_out": name + "_g", "trainable": bool(attr.trainable),
                    "side_effect": True, "op_type": "norm"})
    return wrap(v._t * (g._t / _norm_except_dim(v._t, attr.dim)))


def _startup_nodes(name):
    return [n for n in default_startup_program().graph.nodes
            if n.meta.get("persist_out") == name]


def _tdtype(v):
    return v._t.dtype


def _param_dtype(v):
    d = _tdtype(v)
    return _dt.from_torch_dtype(torch.float32 if d in (torch.float16, torch.bfloat16) else d).name


_ACTS = {"relu": torch.relu, "tanh": torch.tanh, "sigmoid": torch.sigmoid,
         "softmax": lambda t: torch.softmax(t, -1), "gelu": F.gelu, "elu": F.elu,
         "leaky_relu": lambda t: F.leaky_relu(t, 0.02), "relu6": F.relu6,
         "swish": F.silu, "softplus": F.softplus, "hard_swish": F.hardswish}


def _act(layer, t, act):
    if act is None:
        return wrap(t) if not isinstance(t, Tensor) else t
    fn = _ACTS.get(act)
    if fn is None:
        raise ValueError(f"unsupported activation '{act}' (known: {sorted(_ACTS)})")
    return layer.out(fn(t._t if isinstance(t, Tensor) else t))


def _to_list(v, n, what):
    if isinstance(v, int):
        return [v] * n
    v = list(v)
    if len(v) != n:
        raise ValueError(f"The {what}'s length must be {n}. Received: {v}")
    return [int(a) for a in v]


def _channel_last(fmt):
    if fmt in ("NCHW", "NCDHW", "NCL", "NC"):
        return False
    if fmt in ("NHWC", "NDHWC", "NLC"):
        return True
    raise ValueError(f"Attr(data_format) should be 'NCHW' or 'NHWC' (or 'NCDHW'/'NDHWC' in 3-D),"
                     f" but received {fmt}.")


def _to_cf(t, nd):
    return t.permute(0, nd + 1, *range(1, nd + 1))


def _to_cl(t, nd):
    return t.permute(0, *range(2, nd + 2), 1)


def _explicit_pads(padding, nd, channel_last):
    """Paddle's padding forms as ``[before_0, after_0, before_1, after_1, ...]``."""
    if isinstance(padding, (list, tuple)) and padding and isinstance(padding[0], (list, tuple)):
        pads = [list(p) for p in padding]
        keep = pads[1:nd + 1] if channel_last else pads[2:]
        drop = [pads[0], pads[-1]] if channel_last else pads[:2]
        if any(list(d) != [0, 0] for d in drop):
            raise ValueError(f"Non-zero padding({padding}) in the batch or channel dimensions "
                             "is not supported.")
        return [int(a) for p in keep for a in p]
    if isinstance(padding, int):
        return [padding] * (2 * nd)
    padding = [int(a) for a in padding]
    if len(padding) == nd:
        return [a for p in padding for a in (p, p)]
    if len(padding) == 2 * nd:
        return padding
    raise ValueError(f"padding should have {nd} or {2 * nd} elements, got {padding}")


def _same_pads(in_sizes, ks, strides, dils):
    pads = []
    for n, k, s, d in zip(in_sizes, ks, strides, dils):
        if n < 0:
            raise ValueError("padding='SAME' needs the spatial dimensions of the input known")
        out = (n + s - 1) // s
        total = max((out - 1) * s + (k - 1) * d + 1 - n, 0)
        pads += [total // 2, total - total // 2]
    return pads


def _pad_input(x, pads):
    """Pad the spatial dims (channel-first layout) by ``[b0, a0, b1, a1, ...]``."""
    if not any(pads):
        return x
    fpad = []
    for i in reversed(range(len(pads) // 2)):
        fpad += [pads[2 * i], pads[2 * i + 1]]
    return F.pad(x, fpad)


_CONV = {2: F.conv2d, 3: F.conv3d}
_CONVT = {2: F.conv_transpose2d, 3: F.conv_transpose3d}


def _conv(kind, nd, input, num_filters, filter_size, stride, padding, dilation, groups,
          param_attr, bias_attr, act, name, data_format, use_cudnn):
    cl = _channel_last(data_format)
    shape = list(input.shape)
    channels = shape[-1] if cl else shape[1]
    if channels < 0:
        raise ValueError(f"The channel dimension of the input ({shape}) should be defined.")
    groups = 1 if groups is None else groups
    if channels % groups != 0:
        raise ValueError(f"the channel of input must be divisible by groups,received: the "
                         f"channel of input is {channels}, the shape of input is {shape}, the "
                         f"groups is {groups}")
    if nd == 2 and channels == groups and num_filters % channels == 0 and not use_cudnn:
        kind = "depthwise_conv2d"
    layer = _Layer(kind, name)
    ks = _to_list(filter_size, nd, "filter_size")
    strides = _to_list(stride, nd, "stride")
    dils = _to_list(dilation, nd, "dilation")
    x = _to_cf(input._t, nd) if cl else input._t
    spatial = list(x.shape[2:]) if not isinstance(x, StaticProxy) else shape_of(x.node)[2:]
    if isinstance(padding, str):
        p = padding.upper()
        if p not in ("SAME", "VALID"):
            raise ValueError(f"Unknown padding: '{padding}'. It can only be 'SAME' or 'VALID'.")
        pads = _same_pads(spatial, ks, strides, dils) if p == "SAME" else [0] * (2 * nd)
    else:
        pads = _explicit_pads(padding, nd, cl)
    elems = math.prod(ks) * channels
    w = layer.param([num_filters, channels // groups, *ks], _param_dtype(input), param_attr,
                    default=_Normal(0.0, (2.0 / elems) ** 0.5))
    sym = all(pads[2 * i] == pads[2 * i + 1] for i in range(nd))
    if sym:
        y = _CONV[nd](x, w._t, None, strides, [pads[2 * i] for i in range(nd)], dils, groups)
    else:
        y = _CONV[nd](_pad_input(x, pads), w._t, None, strides, 0, dils, groups)
    return _finish_conv(layer, y, num_filters, nd, cl, bias_attr, act, input)


def _finish_conv(layer, y, num_filters, nd, cl, bias_attr, act, input):
    if cl:
        y = _to_cl(y, nd)
    out = layer.out(y)
    if bias_attr is not False:
        b = layer.param([num_filters], _param_dtype(input), bias_attr, is_bias=True)
        bshape = [1] * (nd + 1) + [num_filters] if cl else [1, num_filters] + [1] * nd
        out = layer.out(out._t + b._t.reshape(bshape))
    return _act(layer, out, act)


def _conv_transpose(kind, nd, input, num_filters, output_size, filter_size, padding, stride,
                    dilation, groups, param_attr, bias_attr, act, name, data_format):
    cl = _channel_last(data_format)
    shape = list(input.shape)
    channels = shape[-1] if cl else shape[1]
    groups = 1 if groups is None else groups
    if groups <= 0:
        raise ValueError("the groups of input must be greater than 0, but received the groups "
                         f"of input is {groups}")
    layer = _Layer(kind, name)
    strides = _to_list(stride, nd, "stride")
    dils = _to_list(dilation, nd, "dilation")
    x = _to_cf(input._t, nd) if cl else input._t
    spatial = shape_of(x.node)[2:] if isinstance(x, StaticProxy) else list(x.shape[2:])
    same = False
    if isinstance(padding, str):
        p = padding.upper()
        if p not in ("SAME", "VALID"):
            raise ValueError(f"Unknown padding: '{padding}'. It can only be 'SAME' or 'VALID'.")
        same = p == "SAME"
        pads = [0] * (2 * nd)
    else:
        pads = _explicit_pads(padding, nd, cl)
    if output_size is not None:
        output_size = _to_list(output_size, nd, "output_size")
    if filter_size is None:
        if output_size is None:
            raise ValueError("output_size must be set when filter_size is None")
        ks = [(o - (n - 1) * s + pads[2 * i] + pads[2 * i + 1] - 1) // d + 1
              for i, (o, n, s, d) in enumerate(zip(output_size, spatial, strides, dils))]
    else:
        ks = _to_list(filter_size, nd, f"{kind}.filter_size")
    w = layer.param([channels, num_filters // groups, *ks], _param_dtype(input), param_attr)
    y = _CONVT[nd](x, w._t, None, strides, 0, 0, groups, dils)
    full = [(n - 1) * s + (k - 1) * d + 1 for n, s, k, d in zip(spatial, strides, ks, dils)]
    if same:
        pads = []
        for n, s, f in zip(spatial, strides, full):
            total = max(f - n * s, 0)
            pads += [total // 2, total - total // 2]
    crop = []
    for i in range(nd):
        start = pads[2 * i]
        stop = full[i] - pads[2 * i + 1]
        if output_size is not None:
            stop = start + output_size[i]
            if stop > full[i]:
                y = F.pad(y, [0, 0] * (nd - 1 - i) + [0, stop - full[i]])
        crop.append(slice(start, stop))
    if any(c.start or c.stop != f for c, f in zip(crop, full)):
        y = y[(slice(None), slice(None), *crop)]
    return _finish_conv(layer, y, num_filters, nd, cl, bias_attr, act, input)


# ---------------------------------------------------------------------- convolutions
@_static_only
def conv2d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None,
           param_attr=None, bias_attr=None, use_cudnn=True, act=None, name=None,
           data_format="NCHW"):
    """2-D convolution layer: weight ``conv2d_N.w_0`` ``[num_filters, C/groups, kh, kw]``
    (Normal(0, sqrt(2 / (kh*kw*C)))), bias ``conv2d_N.b_0`` (zeros) unless
    ``bias_attr=False``, then ``act``. ``padding``: int, list, ``"SAME"``/``"VALID"``."""
    return _conv("conv2d", 2, input, num_filters, filter_size, stride, padding, dilation,
                 groups, param_attr, bias_attr, act, name, data_format, use_cudnn)


@_static_only
def conv3d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None,
           param_attr=None, bias_attr=None, use_cudnn=True, act=None, name=None,
           data_format="NCDHW"):
    """3-D convolution layer (``conv3d_N.w_0``/``.b_0``); see ``conv2d``."""
    return _conv("conv3d", 3, input, num_filters, filter_size, stride, padding, dilation,
                 groups, param_attr, bias_attr, act, name, data_format, True)


@_static_only
def conv2d_transpose(input, num_filters, output_size=None, filter_size=None, padding=0,
                     stride=1, dilation=1, groups=None, param_attr=None, bias_attr=None,
                     use_cudnn=True, act=None, name=None, data_format="NCHW"):
    """2-D transposed convolution: weight ``conv2d_transpose_N.w_0`` ``[C, num_filters/groups,
    kh, kw]`` (Xavier uniform); the filter size may be derived from ``output_size``."""
    return _conv_transpose("conv2d_transpose", 2, input, num_filters, output_size, filter_size,
                           padding, stride, dilation, groups, param_attr, bias_attr, act, name,
                           data_format)


@_static_only
def conv3d_transpose(input, num_filters, output_size=None, filter_size=None, padding=0,
                     stride=1, dilation=1, groups=None, param_attr=None, bias_attr=None,
                     use_cudnn=True, act=None, name=None, data_format="NCDHW"):
    """3-D transposed convolution (``conv3d_transpose_N.w_0``); see ``conv2d_transpose``."""
    return _conv_transpose("conv3d_transpose", 3, input, num_filters, output_size, filter_size,
                           padding, stride, dilation, groups, param_attr, bias_attr, act, name,
                           data_format)


@_static_only
def deform_conv2d(x, offset, mask, num_filters, filter_size, stride=1, padding=0, dilation=1,
                  groups=1, deformable_groups=1, im2col_step=1, weight_attr=None,
                  bias_attr=None, name=None):
    """Deformable convolution v2 (v1 when ``mask`` is None): parameters
    ``deformable_conv_N.w_0`` (Normal(0, sqrt(2 / (kh*kw*C)))) and ``.b_0``; the computation is
    ``paddle.vision.ops.deform_conv2d``'s."""
    channels = x.shape[1]
    groups = 1 if groups is None else groups
    layer = _Layer("deformable_conv", name)
    ks = _to_list(filter_size, 2, "filter_size")
    elems = ks[0] * ks[1] * channels
    w = layer.param([num_filters, channels // groups, *ks], _param_dtype(x), weight_attr,
                    default=_Normal(0.0, (2.0 / elems) ** 0.5))
    b = None
    if bias_attr is not False:
        b = layer.param([num_filters], _param_dtype(x), bias_attr, is_bias=True)
    out = _hooks.deform_conv2d(x, offset, w, bias=b, stride=stride, padding=padding,
                               dilation=dilation, deformable_groups=deformable_groups,
                               groups=groups, mask=mask)
    return layer.out(out._t, skip=1)


# ---------------------------------------------------------------------- normalisation
@_static_only
def batch_norm(input, act=None, is_test=False, momentum=0.9, epsilon=1e-05, param_attr=None,
               bias_attr=None, data_layout="NCHW", in_place=False, name=None,
               moving_mean_name=None, moving_variance_name=None,
               do_model_average_for_mean_and_var=True, use_global_stats=False):
    """Batch normalisation: scale ``batch_norm_N.w_0`` (ones), bias ``.b_0`` (zeros), moving
    mean ``.w_1`` (zeros) and variance ``.w_2`` (ones), the last two not trainable. Training
    (``is_test=False`` and not ``use_global_stats``) normalises with the batch statistics and
    updates ``moving = moving * momentum + batch * (1 - momentum)`` at each run."""
    shape = list(input.shape)
    if len(shape) < 2 or len(shape) > 5:
        raise ValueError(f"expected 2D or 3D or 4D or 5D input (got {len(shape)}D input, input "
                         f"shape is: {shape})")
    if data_layout == "NCHW":
        cl = False
    elif data_layout == "NHWC":
        cl = True
    else:
        raise ValueError("unsupported data layout:" + data_layout)
    c = shape[-1] if cl else shape[1]
    layer = _Layer("batch_norm", name)
    pd = _param_dtype(input)
    scale = layer.param([c], pd, param_attr, default=_Constant(1.0))
    bias = layer.param([c], pd, bias_attr, is_bias=True)
    mean = layer.param([c], pd, None, default=_Constant(0.0), trainable=False,
                       pname=moving_mean_name)
    var = layer.param([c], pd, None, default=_Constant(1.0), trainable=False,
                      pname=moving_variance_name)
    nd = len(shape) - 2
    x = _to_cf(input._t, nd) if cl and nd > 0 else input._t
    if is_test or use_global_stats:
        y = F.batch_norm(x, mean._t, var._t, scale._t, bias._t, False, 0.0, epsilon)
    else:
        dims = [0] + list(range(2, len(shape)))
        bm = x.detach().mean(dims)
        bv = x.detach().var(dims, unbiased=False)
        y = F.batch_norm(x, None, None, scale._t, bias._t, True, 0.0, epsilon)
        prog = default_main_program()       # (clone(for_test=True) drops these updates)
        prog.assign_persistable(mean, mean._t * momentum + bm * (1.0 - momentum))
        prog.assign_persistable(var, var._t * momentum + bv * (1.0 - momentum))
    if cl and nd > 0:
        y = _to_cl(y, nd)
    return _act(layer, layer.out(y, skip=3 if not is_test else 2), act)


@_static_only
def layer_norm(input, scale=True, shift=True, begin_norm_axis=1, epsilon=1e-05,
               param_attr=None, bias_attr=None, act=None, name=None):
    """Layer normalisation over the dimensions from ``begin_norm_axis`` on: scale
    ``layer_norm_N.w_0`` (ones) and shift ``.b_0`` (zeros) of their flattened size."""
    shape = list(input.shape)
    norm = shape[begin_norm_axis:]
    if any(d < 0 for d in norm):
        raise ValueError(f"layer_norm: the normalised dimensions must be known, got {shape}")
    n = math.prod(norm)
    layer = _Layer("layer_norm", name)
    pd = _param_dtype(input)
    w = layer.param([n], pd, param_attr, default=_Constant(1.0)) if scale else None
    b = layer.param([n], pd, bias_attr, is_bias=True) if shift else None
    y = F.layer_norm(input._t, norm, None if w is None else w._t.reshape(norm),
                     None if b is None else b._t.reshape(norm), epsilon)
    return _act(layer, layer.out(y, skip=2), act)


@_static_only
def group_norm(input, groups, epsilon=1e-05, param_attr=None, bias_attr=None, act=None,
               data_layout="NCHW", name=None):
    """Group normalisation. As in Paddle, the scale (``group_norm_N.w_0``, ones) exists only
    when ``param_attr`` is given, the bias (``.b_0``) only when ``bias_attr`` is."""
    check_variable_and_dtype(input, "input", ["float16", "uint16", "float32", "float64"],
                             "group_norm")
    shape = list(input.shape)
    if len(shape) < 2:
        raise ValueError("The dimensions of Op(static.nn.group_norm)'s input should be more "
                         f"than 1. But received {len(shape)}")
    if data_layout not in ("NCHW", "NHWC"):
        raise ValueError("Param(data_layout) of Op(static.nn.group_norm) got wrong value: "
                         f"received {data_layout} but only NCHW or NHWC supported.")
    cl = data_layout == "NHWC"
    c = shape[-1] if cl else shape[1]
    layer = _Layer("group_norm", name)
    pd = _param_dtype(input)
    w = layer.param([c], pd, param_attr, default=_Constant(1.0)) if param_attr else None
    b = layer.param([c], pd, bias_attr, is_bias=True) if bias_attr else None
    nd = len(shape) - 2
    x = _to_cf(input._t, nd) if cl and nd > 0 else input._t
    y = F.group_norm(x, groups, None if w is None else w._t, None if b is None else b._t,
                     epsilon)
    if cl and nd > 0:
        y = _to_cl(y, nd)
    return _act(layer, layer.out(y, skip=2), act)


@_static_only
def instance_norm(input, epsilon=1e-05, param_attr=None, bias_attr=None, name=None):
    """Instance normalisation; scale ``instance_norm_N.w_0`` (ones) and bias ``.b_0`` (zeros)
    exist only when both ``param_attr`` and ``bias_attr`` are given (Paddle's rule)."""
    shape = list(input.shape)
    if len(shape) < 2 or len(shape) > 5:
        raise ValueError(f"expected 2D or 3D or 4D or 5D input (got {len(shape)}D input, input "
                         f"shape is: {shape})")
    layer = _Layer("instance_norm", name)
    pd = _param_dtype(input)
    w = b = None
    if param_attr and bias_attr:
        w = layer.param([shape[1]], pd, param_attr, default=_Constant(1.0))
        b = layer.param([shape[1]], pd, bias_attr, is_bias=True, default=_Constant(0.0))
    x = input._t
    if len(shape) == 2:
        x = x.unsqueeze(-1)
    y = F.instance_norm(x, weight=None if w is None else w._t,
                        bias=None if b is None else b._t, eps=epsilon)
    if len(shape) == 2:
        y = y.squeeze(-1)
    return layer.out(y, skip=2)


@_static_only
def prelu(x, mode, param_attr=None, data_format="NCHW", name=None):
    """PReLU with a learnt slope ``prelu_N.w_0`` (0.25): one (``mode='all'``), one per channel
    (``'channel'``, shape ``[1, C, 1, 1]``) or one per element (``'element'``)."""
    if mode not in ("all", "channel", "element"):
        raise ValueError("mode should be one of all, channel, element.")
    shape = list(x.shape)
    alpha_shape = [1]
    cl = False
    if mode == "channel":
        if data_format not in ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
            raise ValueError("data_format must be one of 'NC', 'NCL', 'NCHW', 'NCDHW', 'NLC', "
                             f"'NHWC', 'NDHWC' but receive {data_format}")
        cl = data_format[1] != "C"
        alpha_shape = [1, 1, 1, shape[-1]] if cl else [1, shape[1], 1, 1]
    elif mode == "element":
        alpha_shape = [1, *shape[1:]]
    layer = _Layer("prelu", name)
    a = layer.param(alpha_shape, _param_dtype(x), param_attr, default=_Constant(0.25))
    at = a._t
    if mode == "channel":
        c = alpha_shape[-1] if cl else alpha_shape[1]
        bshape = [1] * len(shape)
        bshape[-1 if cl else 1] = c
        at = at.reshape(bshape)
    t = x._t
    return layer.out(torch.where(t > 0, t, at * t))


# ---------------------------------------------------------------------- lookups
def _lookup(layer, input, size, padding_idx, param_attr, dtype):
    w = layer.param(list(size), dtype, param_attr)
    ids = input._t
    out = F.embedding(ids, w._t)
    if padding_idx is not None:
        pad = padding_idx if padding_idx >= 0 else size[0] + padding_idx
        out = torch.where((ids == pad).unsqueeze(-1), torch.zeros_like(out), out)
    return out


@_static_only
def embedding(input, size, is_sparse=False, is_distributed=False, padding_idx=None,
              param_attr=None, dtype="float32"):
    """Rows of the table ``embedding_N.w_0`` ``size = [vocab, dim]`` (Xavier uniform) for the
    ids in ``input`` (output shape ``input.shape + [dim]``); rows of ``padding_idx`` are 0."""
    layer = _Layer("embedding")
    return layer.out(_lookup(layer, input, size, padding_idx, param_attr, dtype))


@_static_only
def sparse_embedding(input, size, padding_idx=None, is_test=False, entry=None,
                     table_class="MemorySparseTable", param_attr=None, dtype="float32",
                     slot=None):
    """The parameter-server embedding, here a dense table (there is no parameter server):
    ids of shape ``[..., 1]``, output ``[..., dim]``."""
    shape = list(input.shape)
    if shape[-1] != 1:
        raise ValueError("(InvalidArgument) ShapeError: The last dimensions of the 'Ids' tensor "
                         f"must be 1. But received Ids's last dimensions = {shape[-1]}, Ids's "
                         f"shape = {shape}.")
    if table_class not in ("MemorySparseTable", "MemorySparseGeoTable"):
        raise ValueError("table_class must be in [MemorySparseTable, MemorySparseGeoTable]")
    layer = _Layer("embedding")
    ids = wrap(input._t.squeeze(-1))
    return layer.out(_lookup(layer, ids, size, padding_idx, param_attr, dtype))


# ---------------------------------------------------------------------- other layers
@_static_only
def bilinear_tensor_product(x, y, size, act=None, name=None, param_attr=None, bias_attr=None):
    """``out[:, k] = x W_k y^T + b_k`` with ``bilinear_tensor_product_N.w_0`` ``[size, Dx, Dy]``
    (Xavier uniform) and ``.b_0`` ``[1, size]`` (zeros)."""
    layer = _Layer("bilinear_tensor_product", name)
    pd = _param_dtype(x)
    w = layer.param([size, x.shape[1], y.shape[1]], pd, param_attr)
    out = torch.einsum("bi,kij,bj->bk", x._t, w._t, y._t)
    if bias_attr is not False:
        b = layer.param([1, size], pd, bias_attr, is_bias=True)
        out = out + b._t
    return _act(layer, layer.out(out), act)


@_static_only
def spectral_norm(weight, dim=0, power_iters=1, eps=1e-12, name=None):
    """``weight / sigma``, sigma the largest singular value of ``weight`` seen as a matrix of
    ``weight.shape[dim]`` rows, estimated by ``power_iters`` power iterations from the vectors
    ``spectral_norm_N.w_0`` (u) and ``.w_1`` (v) (Normal(0, 1), not trainable, not updated)."""
    shape = list(weight.shape)
    h = shape[dim]
    w_ = math.prod(shape) // h
    layer = _Layer("spectral_norm", name)
    pd = _param_dtype(weight)
    u = layer.param([h], pd, None, default=_Normal(0.0, 1.0), trainable=False)
    v = layer.param([w_], pd, None, default=_Normal(0.0, 1.0), trainable=False)
    t = weight._t
    perm = [dim] + [i for i in range(len(shape)) if i != dim]
    mat = t.permute(perm).reshape(h, w_) if dim != 0 else t.reshape(h, w_)
    ut, vt = u._t, v._t
    m = mat.detach()
    for _ in range(power_iters):
        vt = m.t().matmul(ut)
        vt = vt / (vt.norm() + eps)
        ut = m.matmul(vt)
        ut = ut / (ut.norm() + eps)
    sigma = ut.detach().matmul(mat.matmul(vt.detach()))
    return layer.out(t / sigma)


@_static_only
def row_conv(input, future_context_size, param_attr=None, act=None):
    """Lookahead convolution over time: ``out[b, t] = sum_j x[b, t + j] * w[j]`` for
    ``j = 0 .. future_context_size`` (``row_conv_N.w_0`` ``[k + 1, D]``, Xavier uniform);
    ``input`` is dense ``[batch, time, D]``."""
    layer = _Layer("row_conv")
    d = input.shape[-1]
    w = layer.param([future_context_size + 1, d], _param_dtype(input), param_attr)
    x = input._t
    steps = x.shape[1] if not isinstance(x, StaticProxy) else shape_of(x.node)[1]
    if steps < 0:
        raise ValueError("row_conv: the time dimension must be known in paddle_compat")
    xp = F.pad(x, [0, 0, 0, future_context_size])
    out = None
    for j in range(future_context_size + 1):
        term = xp[:, j:j + steps] * w._t[j]
        out = term if out is None else out + term
    return _act(layer, layer.out(out), act)


def continuous_value_model(input, cvm, use_cvm=True):
    """Paddle's CVM op on ``input`` whose first two columns are show and click counts: with
    ``use_cvm``, they become ``log(show + 1)`` and ``log(click + 1) - log(show + 1)``; without,
    they are dropped."""
    x = input._t
    if use_cvm:
        show = torch.log(x[:, :1] + 1)
        click = torch.log(x[:, 1:2] + 1) - show
        y = torch.cat([show, click, x[:, 2:]], dim=1)
    else:
        y = x[:, 2:]
    return wrap(y)


class _Assign:
    """Initialise a parameter to a fixed array."""

    def __init__(self, array):
        self.array = array

    def _static_init(self, shape, tdtype, device):
        return torch.as_tensor(self.array).to(dtype=tdtype, device=device).reshape(shape)


def _nce_samples(label, num_neg, kind, n_classes, probs):
    """Each row's labels followed by ``num_neg`` classes drawn from the sampler."""
    rows = label.shape[0]
    if kind == 0:
        neg = torch.randint(0, n_classes, (rows, num_neg), device=label.device)
    elif kind == 1:
        u = torch.rand(rows, num_neg, dtype=torch.float64, device=label.device)
        neg = (torch.exp(u * math.log(n_classes + 1)).floor() - 1).to(torch.int64)
        neg = neg.clamp(0, n_classes - 1)
    else:
        neg = torch.multinomial(probs.to(torch.float64), rows * num_neg, replacement=True)
        neg = neg.reshape(rows, num_neg)
    return torch.cat([label.to(torch.int64), neg.to(torch.int64)], dim=1)


def _nce_probability(samples, kind, n_classes, probs):
    if kind == 0:
        return torch.full(samples.shape, 1.0 / n_classes, dtype=torch.float64,
                          device=samples.device)
    if kind == 1:
        k = samples.to(torch.float64)
        return (torch.log(k + 2) - torch.log(k + 1)) / math.log(n_classes + 1)
    return probs.to(torch.float64)[samples]


@_static_only
def nce(input, label, num_total_classes, sample_weight=None, param_attr=None, bias_attr=None,
        num_neg_samples=None, name=None, sampler="uniform", custom_dist=None, seed=0,
        is_sparse=False):
    """Noise-contrastive estimation cost ``[batch, 1]``: for each row, the true classes and
    ``num_neg_samples`` (10) classes drawn by ``sampler`` ("uniform", "log_uniform" or
    "custom_dist" with ``custom_dist`` probabilities), scored by
    ``o = sigmoid(x . w_c + b_c)`` against ``q = num_neg_samples * P(c)``: the cost is the mean
    over a row's classes of ``-log(o / (o + q))`` (true) and ``-log(q / (o + q))`` (sampled).
    Parameters ``nce_N.w_0`` ``[classes, dim]`` (Xavier uniform), ``nce_N.b_0``
    ``[classes, 1]``; the draws are torch's (``paddle.seed`` does not reproduce Paddle's)."""
    if len(input.shape) != 2:
        raise ValueError(f"The rank of `input` must be 2, but received {len(input.shape)}.")
    if _tdtype(label) != torch.int64:
        raise TypeError("The data type of 'label' in nce must be int64")
    layer = _Layer("nce", name)
    pd = _param_dtype(input)
    w = layer.param([num_total_classes, input.shape[1]], pd, param_attr)
    b = layer.param([num_total_classes, 1], pd, bias_attr, is_bias=True) \
        if bias_attr is not False else None
    kinds = {"uniform": 0, "log_uniform": 1, "custom_dist": 2}
    if sampler not in kinds:
        raise Exception("Unsupported sampler type.")
    kind = kinds[sampler]
    probs = None
    if kind == 2:
        assert custom_dist is not None
        arr = np.asarray(custom_dist, dtype=np.float32)
        probs = layer.param(list(arr.shape), "float32", None, default=_Assign(arr),
                            trainable=False)._t
        layer.param(list(arr.shape), "int32", None, default=_Constant(0), trainable=False)
        layer.param(list(arr.shape), "float32", None, default=_Constant(0.0), trainable=False)
    num_neg = 10 if num_neg_samples is None else int(num_neg_samples)
    print("With sparse mode, if your models has only small parameter prefetch may cause speed "
          "down")
    n_true = label.shape[1]
    samples = _nce_samples_node(label._t, num_neg, kind, num_total_classes, probs)
    x, wt = input._t, w._t
    logits = (x.unsqueeze(1) * F.embedding(samples, wt)).sum(-1)
    if b is not None:
        logits = logits + F.embedding(samples, b._t).squeeze(-1)
    o = torch.sigmoid(logits).to(torch.float64)
    q = _nce_probability(samples, kind, num_total_classes, probs) * num_neg
    true_part = -torch.log(o[:, :n_true] / (o[:, :n_true] + q[:, :n_true]))
    neg_part = -torch.log(q[:, n_true:] / (o[:, n_true:] + q[:, n_true:]))
    cost = (true_part.sum(1, keepdim=True) + neg_part.sum(1, keepdim=True)) / (n_true + num_neg)
    if sample_weight is not None:
        cost = cost * sample_weight._t.reshape(-1, 1).to(torch.float64)
    return layer.out(cost.to(x.dtype))


def _nce_samples_node(label, num_neg, kind, n_classes, probs):
    """The draws as one node of the program (new draws at each run)."""
    if isinstance(label, StaticProxy):
        return label.tracer.record("call_function", _nce_samples,
                                   (label, num_neg, kind, n_classes, probs), {},
                                   meta={"op_type": "nce_sampler", "no_flatten": True})
    return _nce_samples(label, num_neg, kind, n_classes, probs)


# ---------------------------------------------------------------------- control flow
def _error_message(what, arg_name, op_name, right_value, error_value):
    return (f"{what} of '{arg_name}' in {op_name} must be {right_value}, but received: "
            f"{error_value}.")


def switch_case(branch_index, branch_fns, default=None, name=None):
    """Run the function of ``branch_fns`` whose index equals ``branch_index`` (a dict
    ``{index: fn}``, a list of ``(index, fn)`` or of functions), else ``default`` (else the
    function with the largest index)."""
    if not isinstance(branch_fns, (list, tuple, dict)):
        raise TypeError(_error_message("The type", "branch_fns", "switch_case",
                                       "dict, tuple or list", type(branch_fns)))
    fns = list(branch_fns.items()) if isinstance(branch_fns, dict) else list(branch_fns)
    if fns and all(callable(f) for f in fns):
        fns = list(enumerate(fns))
    keys = []
    for pair in fns:
        if not isinstance(pair, tuple):
            raise TypeError(_error_message("The elements' type", "branch_fns", "switch_case",
                                           tuple, type(branch_fns)))
        if len(pair) != 2:
            raise TypeError(_error_message("The tuple's size", "branch_fns", "switch_case",
                                           "2", str(len(pair)) + "-tuple"))
        key, fn = pair
        if not isinstance(key, int):
            raise TypeError(_error_message("The key's type", "branch_fns", "switch_case", int,
                                           type(key)))
        if key in keys:
            raise ValueError(f"The key in 'branch_fns' must be unique, but '{key}' appears "
                             "more than once.")
        keys.append(key)
        if not callable(fn):
            raise TypeError(_error_message(f"The type of function for key {key}", "branch_fns",
                                           "switch_case", "callable", type(fn)))
    if default is None:
        fns = sorted(fns, key=lambda p: p[0])
        default = fns[-1][1]
        fns = fns[:-1]
    elif not callable(default):
        raise TypeError("The default in Op(case) must be callable.")
    bt = getattr(branch_index, "_t", None)
    if not isinstance(bt, StaticProxy) and not _active:
        idx = int(branch_index.item() if isinstance(branch_index, Tensor) else branch_index)
        for key, fn in fns:
            if key == idx:
                return fn()
        return default()
    false_fn = default
    for key, fn in fns:
        pred = wrap(bt.reshape([-1])[0] == key)
        false_fn = _bind_cond(pred, fn, false_fn)
    return false_fn()


def _bind_cond(pred, true_fn, false_fn):
    return lambda: cond(pred, true_fn, false_fn)


def _run_while(cond_gm, body_gm, n_vars, n_cond, *vals):
    loop = tuple(vals[:n_vars])
    ccaps = vals[n_vars:n_vars + n_cond]
    bcaps = vals[n_vars + n_cond:]
    while bool(cond_gm.forward(*loop, *ccaps)[0]):
        loop = tuple(body_gm.forward(*loop, *bcaps))
    return loop


def _check_cond_out(out):
    t = getattr(out, "_t", None)
    if t is None:
        raise TypeError("cond in while_loop should return a variable, but received "
                        f"{type(out)}")
    if t.dtype != torch.bool:
        raise TypeError("cond in while_loop should return a boolean variable, but received "
                        f"{_dt.from_torch_dtype(t.dtype).name}")
    numel = math.prod(shape_of(t.node)) if isinstance(t, StaticProxy) else t.numel()
    if numel != 1:
        raise TypeError("the shape of the variable returned by cond should be [1], but "
                        f"received {list(out.shape)}")


def while_loop(cond, body, loop_vars, is_test=False, name=None):
    """Repeat ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)`` is True; returns the
    final loop variables (a list). In a program both functions are traced once and the loop
    runs at run time (one node); in dynamic mode it is a Python loop."""
    if not callable(cond):
        raise TypeError("cond in while_loop should be callable")
    if not callable(body):
        raise TypeError("body in while_loop should be callable")
    if not isinstance(loop_vars, (list, tuple)):
        raise TypeError("loop_vars in while_loop should be a list or tuple")
    if len(loop_vars) == 0:
        raise ValueError("loop_vars in while_loop should not be empty")
    leaves, spec = tree_flatten(list(loop_vars))
    pos = [i for i, v in enumerate(leaves) if isinstance(v, Tensor)]
    static = any(isinstance(leaves[i]._t, StaticProxy) for i in pos) or bool(_active) or \
        not _mode.in_dynamic_mode()
    if not static:
        pre = cond(*loop_vars)
        _check_cond_out(pre)
        while bool(pre):
            out = body(*loop_vars)
            if not isinstance(out, (list, tuple)):
                out = [out]
            if len(out) != len(loop_vars):
                raise ValueError("body in while_loop should return the same arity (length "
                                 "and structure) as loop_vars: The two structures don't have "
                                 "the same number of elements.")
            loop_vars = list(out)
            pre = cond(*loop_vars)
        return list(loop_vars)
    first = next((leaves[i]._t for i in pos if isinstance(leaves[i]._t, StaticProxy)), None)
    parent = _current_tracer(first.tracer if first is not None else None)
    proxies = [_as_proxy(parent, leaves[i]) for i in pos]
    specs = [(p.node.meta["pv"], p.node.meta.get("rg", False), p.node.meta.get("var_name"))
             for p in proxies]

    def rebuild(vars_):
        ls = list(leaves)
        for i, v in zip(pos, vars_):
            ls[i] = v
        return tree_unflatten(ls, spec)

    csub, cout = trace_subgraph(parent, cond, specs, rebuild)
    _check_cond_out(cout)

    def body_flat(*vs):
        out = body(*vs)
        if not isinstance(out, (list, tuple)):
            out = [out]
        return list(out)

    bsub, bout = trace_subgraph(parent, body_flat, specs, rebuild)
    bleaves, bspec = tree_flatten(bout)
    if bspec != spec:
        detail = ("The two structures don't have the same number of elements."
                  if len(bleaves) != len(leaves) else
                  f"loop_vars are {spec}, body returns {bspec}")
        raise ValueError("body in while_loop should return the same arity (length and "
                         f"structure) as loop_vars: {detail}")
    if [i for i, v in enumerate(bleaves) if isinstance(v, Tensor)] != pos:
        raise ValueError("The loop var in the while op is variable, but the corresponding "
                         "yielded var is not variable")
    pvs = []
    for p, b in zip(proxies, bsub.pvs):
        a = p.node.meta["pv"]
        if a[0].dtype != b[0].dtype:
            raise TypeError(f"while_loop: body changes a loop variable's dtype from "
                            f"{a[0].dtype} to {b[0].dtype}")
        pvs.append(_merge_pv(a, b))
    prefix = parent.unique_var_name(name or "while")
    cn = parent.attr_node(f"_{prefix}_cond", csub.gm)
    bn = parent.attr_node(f"_{prefix}_body", bsub.gm)
    rgs = [p.node.meta.get("rg", False) or r for p, r in zip(proxies, bsub.rgs)]
    pv = (tuple(p[0] for p in pvs), tuple(p[1] for p in pvs))
    node = parent.record("call_function", _run_while,
                         (cn, bn, len(proxies), len(csub.captures), *proxies, *csub.captures,
                          *bsub.captures), {}, pv=pv, rg=any(rgs), var_name=None,
                         meta={"op_type": "while"})
    outs = list(leaves)
    for k, (i, p) in enumerate(zip(pos, pvs)):
        o = parent.record("call_function", operator.getitem, (node, k), {}, pv=p, rg=rgs[k],
                          var_name=f"{prefix}.tmp_{k}")
        outs[i] = wrap(o)
    return tree_unflatten(outs, spec)


# ---------------------------------------------------------------------- LoD sequence ops
def _no_lod(api):
    def fn(*args, **kwargs):
        raise AssertionError(
            f"paddle.static.nn.{api} works on LoD tensors (sequences packed with their "
            "lengths), which paddle_compat does not model; Paddle 3.3.1 refuses it too in its "
            "default (PIR) static mode: 'sequence layer is not supported in pir mode'. Pad the "
            "sequences to a dense [batch, time, ...] tensor and use dense ops instead.")
    fn.__name__ = fn.__qualname__ = api
    fn.__doc__ = f"``paddle.static.nn.{api}``: needs LoD tensors; raises AssertionError."
    return fn


sequence_conv = _no_lod("sequence_conv")
sequence_expand = _no_lod("sequence_expand")
sequence_first_step = _no_lod("sequence_first_step")
sequence_last_step = _no_lod("sequence_last_step")
sequence_pool = _no_lod("sequence_pool")
sequence_softmax = _no_lod("sequence_softmax")
