"""The common layers: ``Linear`` (weight ``[in, out]``), ``Bilinear``, ``Embedding``, the dropout
layers, ``Flatten``/``Unflatten``, ``Identity``, the ``Pad*`` layers, ``Upsample`` and friends,
``CosineSimilarity``, ``PairwiseDistance`` and the pixel-shuffle layers.
"""
import torch

from ...framework import dtype as _dt
from ...ops.reshaping import flatten, unflatten
from .. import functional as F
from ..functional import vision as _vision
from .layers import Layer

__all__ = ["Linear", "Bilinear", "Embedding", "Dropout", "Dropout1D", "Dropout2D", "Dropout3D",
           "AlphaDropout", "FeatureAlphaDropout", "Flatten", "Unflatten", "Identity", "Pad1D",
           "Pad2D", "Pad3D", "ZeroPad1D", "ZeroPad2D", "ZeroPad3D", "ConstantPad1D",
           "ConstantPad2D", "ConstantPad3D", "ReflectionPad1D", "ReflectionPad2D",
           "ReflectionPad3D", "ReplicationPad1D", "ReplicationPad2D", "ReplicationPad3D",
           "CircularPad1D", "CircularPad2D", "CircularPad3D", "Upsample",
           "UpsamplingNearest2D", "UpsamplingBilinear2D", "CosineSimilarity",
           "PairwiseDistance", "PixelShuffle", "PixelUnshuffle", "ChannelShuffle", "Unfold",
           "Fold"]


def _name_suffix(name, sep=", "):
    return f"{sep}name={name}" if name else ""


class Identity(Layer):
    """Returns its input (arguments are accepted and ignored)."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Layer):
    """``y = x @ weight + bias`` with ``weight`` of shape ``[in_features, out_features]``
    (XavierUniform) and ``bias`` of ``[out_features]`` (zeros; ``bias_attr=False``: none)."""

    def __init__(self, in_features, out_features, weight_attr=None, bias_attr=None, name=None):
        super().__init__()
        self._dtype = _dt.default_float().name
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        self.weight = self.create_parameter([in_features, out_features], weight_attr, self._dtype)
        self.bias = self.create_parameter([out_features], bias_attr, self._dtype, is_bias=True)
        self.name = name

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return (f"in_features={self.weight.shape[0]}, out_features={self.weight.shape[1]}, "
                f"dtype={self._dtype}{_name_suffix(self.name)}")


class Bilinear(Layer):
    """``out[k] = x1 @ weight[k] @ x2 + bias[k]``; weight ``[out, in1, in2]``, bias ``[1, out]``."""

    def __init__(self, in1_features, in2_features, out_features, weight_attr=None,
                 bias_attr=None, name=None):
        super().__init__()
        self._in1_features, self._in2_features = in1_features, in2_features
        self._out_features, self._name = out_features, name
        self._dtype = _dt.default_float().name
        self.weight = self.create_parameter([out_features, in1_features, in2_features],
                                            weight_attr, self._dtype)
        self.bias = self.create_parameter([1, out_features], bias_attr, self._dtype,
                                          is_bias=True)

    def forward(self, x1, x2):
        return F.bilinear(x1, x2, self.weight, self.bias)

    def extra_repr(self):
        return (f"in1_features={self._in1_features}, in2_features={self._in2_features}, "
                f"out_features={self._out_features}, dtype={self._dtype}"
                f"{_name_suffix(self._name)}")


class Embedding(Layer):
    """A lookup table ``[num_embeddings, embedding_dim]`` (XavierUniform); the row
    ``padding_idx`` starts at zero and gets no gradient."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, *, scale_grad_by_freq=False, sparse=False, _weight=None,
                 _freeze=False, device=None, dtype=None, weight_attr=None, name=None):
        super().__init__()
        if num_embeddings <= 0:
            raise ValueError("num_embeddings must be gather than 0")
        if embedding_dim <= 0:
            raise ValueError("embedding_dim must be gather than 0")
        self._num_embeddings, self._embedding_dim = num_embeddings, embedding_dim
        self._sparse, self._max_norm, self._norm_type = sparse, max_norm, norm_type
        self._padding_idx, self._scale_grad_by_freq = padding_idx, scale_grad_by_freq
        self._name = name
        pad = -1 if padding_idx is None else (
            padding_idx if padding_idx >= 0 else num_embeddings + padding_idx)
        if pad >= num_embeddings or pad < -num_embeddings:
            raise ValueError(f"padding_idx must be within [-{num_embeddings}, {num_embeddings})")
        self._dtype = _dt.default_float().name if dtype is None else dtype
        self._size = [num_embeddings, embedding_dim]
        self._weight_attr = weight_attr
        if _weight is not None:
            assert list(_weight.shape) == self._size, \
                "Shape of weight does not match num_embeddings and embedding_dim"
            self.weight = _weight
            self.weight.stop_gradient = _freeze
        else:
            self.weight = self.create_parameter(self._size, weight_attr, self._dtype,
                                                device=device)
            if weight_attr is None:
                self.weight.stop_gradient = _freeze
        if pad != -1:
            with torch.no_grad():
                self.weight._t[pad] = 0.0

    @property
    def padding_idx(self):
        return self._padding_idx

    @padding_idx.setter
    def padding_idx(self, value):
        self.__dict__["_padding_idx"] = value

    def forward(self, x):
        return F.embedding(x, self.weight, self._padding_idx, self._max_norm, self._norm_type,
                           self._sparse, self._scale_grad_by_freq)

    def extra_repr(self):
        s = f"{self._num_embeddings}, {self._embedding_dim}"
        if self._padding_idx is not None:
            s += f", padding_idx={self._padding_idx}"
        s += f", sparse={self._sparse}, scale_grad_by_freq={self._scale_grad_by_freq}"
        return s + (f", name={self._name}" if self._name is not None else "")


class Dropout(Layer):
    """Zeroes elements with probability ``p`` in training (Paddle's RNG stream on CPU)."""

    def __init__(self, p=0.5, inplace=False, axis=None, mode="upscale_in_train", name=None):
        super().__init__()
        self.p, self.inplace, self.axis, self.mode, self.name = p, inplace, axis, mode, name

    def forward(self, input):
        return F.dropout(input, self.p, self.axis, self.training, self.inplace, self.mode)

    def extra_repr(self):
        return (f"p={self.p}, axis={self.axis}, mode={self.mode}{_name_suffix(self.name)}, "
                f"inplace={self.inplace}")


class _ChannelDropout(Layer):
    _fn = None
    _default_format = "NCHW"

    def __init__(self, p=0.5, data_format=None, name=None):
        super().__init__()
        self.p, self.name = p, name
        self.data_format = data_format or self._default_format

    def forward(self, input):
        return type(self)._fn(input, self.p, self.training, self.data_format)

    def extra_repr(self):
        return f"p={self.p}, data_format={self.data_format}{_name_suffix(self.name)}"


class Dropout1D(_ChannelDropout):
    _fn = staticmethod(F.dropout1d)
    _default_format = "NCL"


class Dropout2D(_ChannelDropout):
    _fn = staticmethod(F.dropout2d)


class Dropout3D(_ChannelDropout):
    _fn = staticmethod(F.dropout3d)
    _default_format = "NCDHW"


class AlphaDropout(Layer):
    """Dropout that keeps SELU's self-normalising mean and variance."""

    _fn = staticmethod(F.alpha_dropout)

    def __init__(self, p=0.5, name=None):
        super().__init__()
        self.p, self.name = p, name

    def forward(self, input):
        return type(self)._fn(input, self.p, self.training)

    def extra_repr(self):
        return f"p={self.p}{_name_suffix(self.name)}"


class FeatureAlphaDropout(AlphaDropout):
    _fn = staticmethod(F.feature_alpha_dropout)


class Flatten(Layer):
    """Flattens axes ``start_axis``..``stop_axis`` into one."""

    def __init__(self, start_axis=1, stop_axis=-1):
        super().__init__()
        self.start_axis, self.stop_axis = start_axis, stop_axis

    def forward(self, input):
        return flatten(input, self.start_axis, self.stop_axis)


class Unflatten(Layer):
    """Splits axis ``axis`` into ``shape``."""

    def __init__(self, axis, shape, name=None):
        super().__init__()
        self.axis, self.shape, self.name = axis, shape, name

    def forward(self, input):
        return unflatten(input, self.axis, self.shape)

    def extra_repr(self):
        return f"axis={self.axis}, shape={self.shape}{_name_suffix(self.name)}"


def _npairs(padding, n):
    if isinstance(padding, int):
        return [padding] * (2 * n)
    return padding


class _PadNd(Layer):
    """The padding layers: ``padding`` is an int (every side) or ``2 * n`` ints, last axis
    first (``[left, right]``, then ``[top, bottom]``, then ``[front, back]``), as F.pad."""

    _n = 1
    _default_format = "NCL"

    def __init__(self, padding, mode="constant", value=0.0, data_format=None, name=None):
        super().__init__()
        self.padding = _npairs(padding, self._n)
        self._mode, self.value, self._name = mode, value, name
        self._data_format = data_format or self._default_format

    def forward(self, x):
        return F.pad(x, self.padding, self._mode, self.value, self._data_format)

    def extra_repr(self):
        return (f"padding={self.padding}, mode={self._mode}, value={self.value}, "
                f"data_format={self._data_format}{_name_suffix(self._name)}")


class Pad1D(_PadNd):
    pass


class Pad2D(_PadNd):
    _n = 2
    _default_format = "NCHW"


class Pad3D(_PadNd):
    _n = 3
    _default_format = "NCDHW"


def _fixed_mode(cls_name, base, mode):
    """A subclass of ``base`` (Pad1D/2D/3D) with its mode fixed, as Paddle defines
    ``ConstantPad2D``, ``ReflectionPad1D``, ``ZeroPad3D``...: the constant pads take
    ``(padding, value, data_format, name)`` (``value`` required), the others
    ``(padding, data_format, name)``; ``mode="zero"`` is constant with value 0."""
    fmt = base._default_format
    if mode == "constant":
        def __init__(self, padding, value, data_format=fmt, name=None):
            base.__init__(self, padding, "constant", value, data_format, name)
    else:
        real = "constant" if mode == "zero" else mode

        def __init__(self, padding, data_format=fmt, name=None):
            base.__init__(self, padding, real, 0.0, data_format, name)
    __init__.__qualname__ = f"{cls_name}.__init__"
    return type(cls_name, (base,), {
        "__init__": __init__, "__module__": __name__, "__qualname__": cls_name,
        "__doc__": f"``{base.__name__}`` with mode '{mode}'."})


ZeroPad1D = _fixed_mode("ZeroPad1D", Pad1D, "zero")
ZeroPad2D = _fixed_mode("ZeroPad2D", Pad2D, "zero")
ZeroPad3D = _fixed_mode("ZeroPad3D", Pad3D, "zero")
ConstantPad1D = _fixed_mode("ConstantPad1D", Pad1D, "constant")
ConstantPad2D = _fixed_mode("ConstantPad2D", Pad2D, "constant")
ConstantPad3D = _fixed_mode("ConstantPad3D", Pad3D, "constant")
ReflectionPad1D = _fixed_mode("ReflectionPad1D", Pad1D, "reflect")
ReflectionPad2D = _fixed_mode("ReflectionPad2D", Pad2D, "reflect")
ReflectionPad3D = _fixed_mode("ReflectionPad3D", Pad3D, "reflect")
ReplicationPad1D = _fixed_mode("ReplicationPad1D", Pad1D, "replicate")
ReplicationPad2D = _fixed_mode("ReplicationPad2D", Pad2D, "replicate")
ReplicationPad3D = _fixed_mode("ReplicationPad3D", Pad3D, "replicate")
CircularPad1D = _fixed_mode("CircularPad1D", Pad1D, "circular")
CircularPad2D = _fixed_mode("CircularPad2D", Pad2D, "circular")
CircularPad3D = _fixed_mode("CircularPad3D", Pad3D, "circular")


class Upsample(Layer):
    """Resizes by ``size`` or ``scale_factor`` with F.interpolate's modes."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=False,
                 align_mode=0, data_format=None, recompute_scale_factor=None, name=None):
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode.lower()
        self.align_corners, self.align_mode = align_corners, align_mode
        self.data_format, self.recompute_scale_factor, self.name = (
            data_format, recompute_scale_factor, name)

    def forward(self, x):
        if self.data_format is None:
            fmt = {3: "NCW", 4: "NCHW", 5: "NCDHW"}.get(len(x.shape))
            if fmt is None:
                raise ValueError("The dimension of the input tensor should only be 3-D, 4-D or "
                                 f"5-D, but the received dimension is {len(x.shape)}.")
            self.data_format = fmt
        return F.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners,
                             self.align_mode, self.data_format, self.recompute_scale_factor)

    def _main(self):
        return (f"scale_factor={self.scale_factor}" if self.scale_factor is not None
                else f"size={self.size}")

    def extra_repr(self):
        return (f"{self._main()}, mode={self.mode}, align_corners={self.align_corners}, "
                f"align_mode={self.align_mode}, data_format={self.data_format}"
                f"{_name_suffix(self.name)}")


class UpsamplingNearest2D(Upsample):
    """Nearest resize of an image batch; an int ``size`` is the height and the width."""

    def __init__(self, size=None, scale_factor=None, data_format="NCHW", name=None):
        super().__init__(_square(size), scale_factor, "nearest", False, 0, data_format, None,
                         name)

    def extra_repr(self):
        return f"{self._main()}, data_format={self.data_format}{_name_suffix(self.name)}"


class UpsamplingBilinear2D(UpsamplingNearest2D):
    """Bilinear (corner-aligned) resize of an image batch; an int ``size`` is both sides."""

    def __init__(self, size=None, scale_factor=None, data_format="NCHW", name=None):
        Upsample.__init__(self, _square(size), scale_factor, "bilinear", True, 0, data_format,
                          None, name)


def _square(size):
    """An int output size of the 2-D upsampling layers is [size, size]."""
    return [size, size] if type(size) is int else size


class CosineSimilarity(Layer):
    def __init__(self, axis=1, eps=1e-8):
        super().__init__()
        self._axis, self._eps = axis, eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self._axis, self._eps)

    def extra_repr(self):
        return f"axis={self._axis}, eps={self._eps}"


class PairwiseDistance(Layer):
    def __init__(self, p=2.0, epsilon=1e-6, keepdim=False, name=None):
        super().__init__()
        self.p, self.epsilon, self.keepdim, self.name = p, epsilon, keepdim, name

    def forward(self, x, y):
        return F.pairwise_distance(x, y, self.p, self.epsilon, self.keepdim)

    def extra_repr(self):
        s = f"p={self.p}"
        if self.epsilon != 1e-6:
            s += f", epsilon={self.epsilon}"
        if self.keepdim is not False:
            s += f", keepdim={self.keepdim}"
        return s + (f", name={self.name}" if self.name is not None else "")


class _Shuffle(Layer):
    _arg = "upscale_factor"
    _fn = staticmethod(F.pixel_shuffle)

    def __init__(self, factor, data_format="NCHW", name=None):
        super().__init__()
        self._factor, self._data_format, self._name = factor, data_format, name

    def forward(self, x):
        return type(self)._fn(x, self._factor, self._data_format)

    def extra_repr(self):
        s = f"{self._arg}={self._factor}"
        if self._data_format != "NCHW":
            s += f", data_format={self._data_format}"
        return s + (f", name={self._name}" if self._name is not None else "")


class PixelShuffle(_Shuffle):
    pass


class PixelUnshuffle(_Shuffle):
    _arg = "downscale_factor"
    _fn = staticmethod(F.pixel_unshuffle)

    def __init__(self, downscale_factor, data_format="NCHW", name=None):
        _vision.check_downscale_factor(downscale_factor)
        super().__init__(downscale_factor, data_format, name)


class ChannelShuffle(_Shuffle):
    _arg = "groups"
    _fn = staticmethod(F.channel_shuffle)


class Unfold(Layer):
    """Sliding blocks as columns (``F.unfold``)."""

    def __init__(self, kernel_sizes, dilations=1, paddings=0, strides=1, name=None):
        super().__init__()
        self.kernel_sizes, self.dilations = kernel_sizes, dilations
        self.paddings, self.strides, self.name = paddings, strides, name

    def forward(self, input):
        return F.unfold(input, self.kernel_sizes, self.strides, self.paddings, self.dilations)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, "
                f"padding={self.paddings}, stride={self.strides}{_name_suffix(self.name)}")


class Fold(Layer):
    """Columns summed back into an image (``F.fold``)."""

    def __init__(self, output_sizes, kernel_sizes, dilations=1, paddings=0, strides=1,
                 name=None):
        super().__init__()
        self.output_sizes, self.kernel_sizes = output_sizes, kernel_sizes
        self.dilations, self.paddings, self.strides, self.name = dilations, paddings, strides, name

    def forward(self, input):
        return F.fold(input, self.output_sizes, self.kernel_sizes, self.strides, self.paddings,
                      self.dilations)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, "
                f"padding={self.paddings}, stride={self.strides}{_name_suffix(self.name)}")
