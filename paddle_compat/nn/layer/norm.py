"""Normalisation layers: ``LayerNorm``, ``RMSNorm``, ``BatchNorm1D/2D/3D``, ``GroupNorm``,
``InstanceNorm1D/2D/3D``, ``LocalResponseNorm``.

Batch norm keeps its running statistics as *parameters* ``_mean`` and ``_variance`` (not
trainable, ``stop_gradient=True``), named ``<layer>.w_1`` / ``.w_2``, as Paddle does; so they are
in ``parameters()`` and ``state_dict`` but the optimizers skip them. Paddle's momentum
convention: ``running = momentum * running + (1 - momentum) * batch_stat`` (default 0.9).
"""
import numbers
import warnings

import numpy as np
import torch

from ...framework import dtype as _dt
from ...framework.param_attr import ParamAttr
from ...framework.tensor import wrap
from .. import functional as F
from ..initializer import Constant, Normal
from .layers import Layer

__all__ = ["LayerNorm", "RMSNorm", "BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D",
           "SyncBatchNorm", "GroupNorm", "InstanceNorm1D", "InstanceNorm2D", "InstanceNorm3D",
           "LocalResponseNorm", "SpectralNorm"]


def _frozen(attr):
    """Paddle freezes an affine parameter whose ParamAttr has learning_rate 0."""
    return attr is not None and getattr(attr, "learning_rate", None) == 0.0


class _AffineNorm(Layer):
    """Shared set-up: a ``weight`` of ones and a ``bias`` of zeros over ``shape`` (either left
    out with ``False`` attrs)."""

    def _affine(self, shape, weight_attr, bias_attr, dtype, device=None, weight_name="weight"):
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        w = None if weight_attr is False else self.create_parameter(
            shape, weight_attr, dtype, default_initializer=Constant(1.0), device=device)
        setattr(self, weight_name, w)
        self.bias = None if bias_attr is False else self.create_parameter(
            shape, bias_attr, dtype, is_bias=True, default_initializer=Constant(0.0),
            device=device)


class LayerNorm(_AffineNorm):
    """Normalises over the trailing ``normalized_shape`` axes."""

    def __init__(self, normalized_shape, epsilon=1e-05, *, elementwise_affine=True, bias=True,
                 device=None, dtype=None, weight_attr=None, bias_attr=None, name=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = [normalized_shape]
        self._normalized_shape = list(normalized_shape)
        self._epsilon = epsilon
        self._dtype = _dt.default_float().name if dtype is None else dtype
        if not elementwise_affine:
            weight_attr = bias_attr = False
        elif not bias:
            bias_attr = False
        self._affine([int(np.prod(self._normalized_shape))], weight_attr, bias_attr,
                     self._dtype, device)

    def forward(self, input):
        return F.layer_norm(input, self._normalized_shape, self.weight, self.bias,
                            self._epsilon)

    def extra_repr(self):
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


class RMSNorm(Layer):
    """``x / sqrt(mean(x**2) + epsilon) * weight`` over the trailing ``normalized_shape`` axes.
    (Not in Paddle 3.3.1's ``paddle.nn``; follows ``F.rms_norm`` and LayerNorm's conventions.)"""

    def __init__(self, normalized_shape, epsilon=1e-05, weight_attr=None, name=None, *,
                 elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = [normalized_shape]
        self._normalized_shape = list(normalized_shape)
        self._epsilon = epsilon
        self._dtype = _dt.default_float().name if dtype is None else dtype
        self.weight = None if (weight_attr is False or not elementwise_affine) else \
            self.create_parameter(self._normalized_shape, weight_attr, self._dtype,
                                  default_initializer=Constant(1.0), device=device)

    def forward(self, input):
        return F.rms_norm(input, self._normalized_shape, self.weight, self._epsilon)[0]

    def extra_repr(self):
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


class _BatchNormBase(_AffineNorm):
    _ndims = ()
    _formats = {}

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCHW", use_global_stats=None, name=None):
        super().__init__()
        self._num_features = num_features
        self._use_global_stats = use_global_stats
        d = _dt.default_float().name
        self._dtype = "float32" if d == "float16" else d
        shape = [num_features]
        self._affine(shape, weight_attr, bias_attr, self._dtype)
        stat_names = (None, None) if name is None else (name + "_mean", name + "_variance")
        self._mean = self.create_parameter(
            shape, ParamAttr(stat_names[0], Constant(0.0), trainable=False), self._dtype)
        self._variance = self.create_parameter(
            shape, ParamAttr(stat_names[1], Constant(1.0), trainable=False), self._dtype)
        self._data_format = data_format
        self._in_place = False
        self._momentum, self._epsilon = momentum, epsilon
        self._fuse_with_relu = False
        self._name = name

    def _check_data_format(self, input):
        """Normalise data format ``input`` into ``_data_format`` ('NCHW'/'NHWC'); ValueError
        for a layout this layer does not take (Paddle's hook: subclasses such as PaddleSlim's
        ``SuperBatchNorm2D`` call it)."""
        fmt = self._formats.get(input)
        if fmt is None:
            raise ValueError(self._format_error)
        self._data_format = fmt

    def _check_input_dim(self, input):
        """ValueError when ``input``'s rank is not one this layer normalises."""
        if input.ndim not in self._ndims:
            raise ValueError(self._dim_error.format(input.ndim))

    def forward(self, input):
        self._check_data_format(self._data_format)
        self._check_input_dim(input)
        if self.training:
            warnings.warn("When training, we now always track global mean and variance.")
        return F.batch_norm(input, self._mean, self._variance, self.weight, self.bias,
                            self.training, self._momentum, self._epsilon, self._data_format,
                            self._use_global_stats)

    def extra_repr(self):
        s = (f"num_features={self._num_features}, momentum={self._momentum}, "
             f"epsilon={self._epsilon}")
        if self._data_format != "NCHW":
            s += f", data_format={self._data_format}"
        if self._name is not None:
            s += f", name={self._name}"
        return s


class BatchNorm1D(_BatchNormBase):
    """Batch norm over ``[N, C]`` or ``[N, C, L]`` (``data_format`` 'NCL' or 'NLC')."""

    _ndims = (2, 3)
    _formats = {"NCHW": "NCHW", "NC": "NCHW", "NCL": "NCHW", "NHWC": "NHWC", "NLC": "NHWC"}
    _format_error = "expected NC , NCL, NLC or None for data_format input"
    _dim_error = "expected 2D or 3D input (got {}D input)"

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCL", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats, name)


class BatchNorm2D(_BatchNormBase):
    """Batch norm over ``[N, C, H, W]`` ('NCHW') or ``[N, H, W, C]`` ('NHWC')."""

    _ndims = (4,)
    _formats = {"NCHW": "NCHW", "NHWC": "NHWC"}
    _format_error = "expected NCHW or NHWC for data_format input"
    _dim_error = "expected 4D input (got {}D input)"


class BatchNorm3D(_BatchNormBase):
    """Batch norm over ``[N, C, D, H, W]`` ('NCDHW') or channel-last ('NDHWC')."""

    _ndims = (5,)
    _formats = {"NCHW": "NCHW", "NCDHW": "NCHW", "NHWC": "NHWC", "NDHWC": "NHWC"}
    _format_error = "expected NCDHW, NDHWC or None for data_format input"
    _dim_error = "expected 5D input (got {}D input)"

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCDHW", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats, name)


class BatchNorm(_AffineNorm):
    """The fluid-era batch norm layer (``paddle.nn.BatchNorm``): any input rank, the layout in
    ``data_layout`` ('NCHW' or 'NHWC'), the activation ``act`` (a name in
    ``paddle.nn.functional``) applied to the result. Its parameters are ``weight``, ``bias``,
    ``_mean`` and ``_variance`` as in the 2.x layers (``moving_mean_name`` /
    ``moving_variance_name`` name the statistics). Statistics as Paddle's kernel picks them:
    the running ones in eval mode (unless ``trainable_statistics``) or with
    ``use_global_stats``, else the batch's, updating the running ones. ``is_test``,
    ``in_place`` and ``do_model_average_for_mean_and_var`` are kept but, as in Paddle's dynamic
    mode, change nothing (``eval()`` is what selects test mode)."""

    def __init__(self, num_channels, act=None, is_test=False, momentum=0.9, epsilon=1e-05,
                 param_attr=None, bias_attr=None, dtype="float32", data_layout="NCHW",
                 in_place=False, moving_mean_name=None, moving_variance_name=None,
                 do_model_average_for_mean_and_var=True, use_global_stats=False,
                 trainable_statistics=False):
        super().__init__()
        self._param_attr = param_attr
        self._act, self._in_place, self._data_layout = act, in_place, data_layout
        self._momentum, self._epsilon, self._is_test = momentum, epsilon, is_test
        self._fuse_with_relu = False
        self._use_global_stats, self._trainable_statistics = (use_global_stats,
                                                              trainable_statistics)
        dtype = _dt.convert_dtype(dtype).name
        self._dtype = "float32" if dtype == "float16" else dtype
        shape = [num_channels]
        self._affine(shape, param_attr, bias_attr, self._dtype)
        self._param_attr = param_attr
        if self.weight is not None and use_global_stats and _frozen(param_attr):
            self.weight.stop_gradient = True
        if self.bias is not None and use_global_stats and _frozen(bias_attr):
            self.bias.stop_gradient = True
        self._mean = self.create_parameter(
            shape, ParamAttr(moving_mean_name, Constant(0.0), trainable=False), self._dtype)
        self._variance = self.create_parameter(
            shape, ParamAttr(moving_variance_name, Constant(1.0), trainable=False),
            self._dtype)

    def forward(self, input):
        global_stats = (not self.training and not self._trainable_statistics) \
            or self._use_global_stats
        out = F.batch_norm(input, self._mean, self._variance, self.weight, self.bias,
                           not global_stats, self._momentum, self._epsilon, self._data_layout,
                           global_stats)
        if not self.training and not global_stats:
            # eval with trainable_statistics: Paddle's backward (in test mode) treats the
            # just-updated running statistics as constants; forward values stay the batch's
            ref = F.batch_norm(input, self._mean, self._variance, self.weight, self.bias,
                               False, self._momentum, self._epsilon, self._data_layout, True)
            out = wrap(ref._t + (out._t - ref._t).detach())
        if self._act is None:
            return out
        act = _LEGACY_ACTS.get(self._act) or getattr(F, self._act, None)
        if act is None:
            raise ValueError(f"Unsupported act '{self._act}' in BatchNorm")
        return act(out)


#: ``BatchNorm(act=...)`` names Paddle's legacy activation operators, with their default
#: attributes (``hard_sigmoid``: slope 0.2, offset 0.5; ``brelu``: clip to [0, 24]), where they
#: differ from ``paddle.nn.functional``'s names; any other name is looked up there.
_LEGACY_ACTS = {
    "hard_swish": lambda x: F.hardswish(x),
    "hard_sigmoid": lambda x: F.hardsigmoid(x, slope=0.2, offset=0.5),
    "swish": lambda x: F.swish(x),
    "brelu": lambda x: wrap(torch.clamp(x._t, 0.0, 24.0)),
    "logsigmoid": lambda x: F.log_sigmoid(x),
    "abs": lambda x: wrap(torch.abs(x._t)),
    "exp": lambda x: wrap(torch.exp(x._t)),
    "square": lambda x: wrap(torch.square(x._t)),
    "sqrt": lambda x: wrap(torch.sqrt(x._t)),
}


class SyncBatchNorm(_BatchNormBase):
    """Batch norm whose statistics would be reduced over all processes of the data-parallel
    group. On one process (what paddle_compat runs here) that is ``BatchNorm*D`` over any
    input rank >= 2: batch statistics in training, the running ones in eval mode."""

    _formats = {"NC": "NCHW", "NCL": "NCHW", "NCHW": "NCHW", "NCDHW": "NCHW", "NLC": "NHWC",
                "NHWC": "NHWC", "NDHWC": "NHWC"}

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCHW", name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         None, name)

    def forward(self, x):
        fmt = self._formats.get(self._data_format)
        if fmt is None:
            raise ValueError("expected 'NCL', 'NLC', 'NCHW', 'NHWC', 'NCDHW', 'NDHWC' for "
                             f"data_format input, but got {self._data_format}")
        self._data_format = fmt
        return F.batch_norm(x, self._mean, self._variance, self.weight, self.bias,
                            self.training, self._momentum, self._epsilon, fmt, None)

    @classmethod
    def convert_sync_batchnorm(cls, layer):
        """``layer`` with every ``BatchNorm1D/2D/3D`` (at any depth) replaced by a
        SyncBatchNorm sharing its parameters and statistics (named ParamAttrs get '_sync')."""
        out = layer
        if isinstance(layer, _BatchNormBase):
            for attr in (layer._weight_attr, layer._bias_attr):
                if isinstance(attr, ParamAttr) and attr.name is not None:
                    attr.name = attr.name + "_sync"
            out = cls(layer._num_features, layer._momentum, layer._epsilon, layer._weight_attr,
                      layer._bias_attr, layer._data_format, layer._name)
            if layer._weight_attr is not False and layer._bias_attr is not False:
                out.weight, out.bias = layer.weight, layer.bias
            out._mean, out._variance = layer._mean, layer._variance
        for name, sub in layer.named_children():
            out.add_sublayer(name, cls.convert_sync_batchnorm(sub))
        return out


def _spectral_sigma(mat, u, v, power_iters, eps):
    """Power iteration as Paddle's spectral_norm kernel runs it on the [h, w] matrix:
    ``v = W^T u / (||W^T u|| + eps)``, ``u = W v / (||W v|| + eps)``, ``power_iters`` times,
    then ``sigma = u . W v``; u and v are constants for the gradient."""
    with torch.no_grad():
        m = mat.detach()
        for _ in range(power_iters):
            v = m.t() @ u
            v = v / (torch.linalg.vector_norm(v) + eps)
            u = m @ v
            u = u / (torch.linalg.vector_norm(u) + eps)
    return torch.dot(u, mat @ v), u, v


class SpectralNorm(Layer):
    """``forward(weight)`` returns ``weight / sigma``, sigma the largest singular value of
    ``weight`` seen as a matrix with axis ``dim`` first, estimated by ``power_iters`` power
    iterations from the parameters ``weight_u`` [h] and ``weight_v`` [w] (Normal(0, 1), not
    trainable). As in Paddle's kernel the iteration starts from the stored u and v each call
    and does not write them back."""

    def __init__(self, weight_shape, dim=0, power_iters=1, eps=1e-12, dtype="float32"):
        super().__init__()
        self._power_iters, self._eps, self._dim, self._dtype = power_iters, eps, dim, dtype
        self._weight_shape = list(weight_shape)
        assert np.prod(self._weight_shape) > 0, \
            "Any dimension of `weight_shape` cannot be equal to 0."
        assert dim < len(self._weight_shape), (
            "The input `dim` should be less than the length of `weight_shape`, but received "
            f"dim={dim}")
        h = self._weight_shape[dim]
        w = int(np.prod(self._weight_shape)) // h
        self.weight_u = self.create_parameter([h], ParamAttr(), dtype,
                                              default_initializer=Normal(0.0, 1.0))
        self.weight_u.stop_gradient = True
        self.weight_v = self.create_parameter([w], ParamAttr(), dtype,
                                              default_initializer=Normal(0.0, 1.0))
        self.weight_v.stop_gradient = True

    def forward(self, x):
        t = x._t
        mat = t.movedim(self._dim, 0) if self._dim else t
        mat = mat.reshape(mat.shape[0], -1)
        sigma = _spectral_sigma(mat, self.weight_u._t, self.weight_v._t, self._power_iters,
                                self._eps)[0]
        return wrap(t / sigma)


class GroupNorm(_AffineNorm):
    """Normalises each of ``num_groups`` channel groups."""

    def __init__(self, num_groups, num_channels, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCHW", name=None, *, affine=True, device=None,
                 dtype=None):
        super().__init__()
        self._epsilon, self._num_channels, self._num_groups = epsilon, num_channels, num_groups
        self._dtype = _dt.default_float().name if dtype is None else dtype
        if data_format not in ("NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
            raise ValueError("unsupported data layout:" + data_format)
        self._data_format = "NCHW" if data_format[1] == "C" else "NHWC"
        if not affine:
            weight_attr = bias_attr = False
        self._affine([num_channels], weight_attr, bias_attr, self._dtype, device)
        if self.weight is not None:
            self.weight.stop_gradient = _frozen(weight_attr)
        if self.bias is not None:
            self.bias.stop_gradient = _frozen(bias_attr)

    def forward(self, input):
        return F.group_norm(input, self._num_groups, self._epsilon, self.weight, self.bias,
                            self._data_format)

    def extra_repr(self):
        return (f"num_groups={self._num_groups}, num_channels={self._num_channels}, "
                f"epsilon={self._epsilon}")


class _InstanceNormBase(_AffineNorm):
    _ndims = ()

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCHW", name=None):
        super().__init__()
        if weight_attr is False or bias_attr is False:
            assert weight_attr == bias_attr, ("weight_attr and bias_attr must be set to False at "
                                              "the same time in InstanceNorm")
        self._momentum, self._epsilon = momentum, epsilon
        self._num_features, self._data_format = num_features, data_format
        self._affine([num_features], weight_attr, bias_attr, None, weight_name="scale")

    def forward(self, input):
        if input.ndim not in self._ndims:
            raise ValueError(f"expected {' or '.join(f'{n}D' for n in self._ndims)} input "
                             f"(got {input.ndim}D input)")
        return F.instance_norm(input, weight=self.scale, bias=self.bias,
                               momentum=self._momentum, eps=self._epsilon,
                               data_format=self._data_format)

    def extra_repr(self):
        return f"num_features={self._num_features}, epsilon={self._epsilon}"


class InstanceNorm1D(_InstanceNormBase):
    _ndims = (2, 3)

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCL", name=None):
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format,
                         name)


class InstanceNorm2D(_InstanceNormBase):
    _ndims = (4,)


class InstanceNorm3D(_InstanceNormBase):
    _ndims = (5,)

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCDHW", name=None):
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format,
                         name)


class LocalResponseNorm(Layer):
    """Normalises each element by the squares of ``size`` neighbouring channels."""

    def __init__(self, size, alpha=0.0001, beta=0.75, k=1.0, data_format="NCHW", name=None):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k
        self.data_format, self.name = data_format, name

    def forward(self, input):
        t = input._t
        last = self.data_format[-1] == "C"
        if last:
            t = t.movedim(-1, 1)
        out = torch.nn.functional.local_response_norm(t, self.size, self.alpha, self.beta,
                                                      self.k)
        return wrap(out.movedim(1, -1) if last else out)

    def extra_repr(self):
        s = f"size={self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
        if self.data_format != "NCHW":
            s += f", data_format={self.data_format}"
        return s + (f", name={self.name}" if self.name is not None else "")
