"""ShuffleNetV2 at widths 0.25 .. 2.0 and the swish variant: ``_conv1``, blocks named
``2_1`` .. ``4_4``, ``_last_conv``, ``_fc``."""
from ... import nn
from ...ops.joining import concat, split
from ...ops.reshaping import flatten, reshape, transpose
from ._utils import ConvNormActivation, load_pretrained

__all__ = ["ShuffleNetV2", "shufflenet_v2_x0_25", "shufflenet_v2_x0_33", "shufflenet_v2_x0_5",
           "shufflenet_v2_x1_0", "shufflenet_v2_x1_5", "shufflenet_v2_x2_0",
           "shufflenet_v2_swish"]

model_urls = {name: (f"https://paddle-hapi.bj.bcebos.com/models/{name}.pdparams", md5)
              for name, md5 in [
                  ("shufflenet_v2_x0_25", "1e509b4c140eeb096bb16e214796d03b"),
                  ("shufflenet_v2_x0_33", "3d7b3ab0eaa5c0927ff1026d31b729bd"),
                  ("shufflenet_v2_x0_5", "5e5cee182a7793c4e4c73949b1a71bd4"),
                  ("shufflenet_v2_x1_0", "122d42478b9e81eb49f8a9ede327b1a4"),
                  ("shufflenet_v2_x1_5", "faced5827380d73531d0ee027c67826d"),
                  ("shufflenet_v2_x2_0", "cd3dddcd8305e7bcd8ad14d1c69a5784"),
                  ("shufflenet_v2_swish", "adde0aa3b023e5b0c94a68be1c394b84")]}

#: stage output widths per scale
_WIDTHS = {0.25: [-1, 24, 24, 48, 96, 512], 0.33: [-1, 24, 32, 64, 128, 512],
           0.5: [-1, 24, 48, 96, 192, 1024], 1.0: [-1, 24, 116, 232, 464, 1024],
           1.5: [-1, 24, 176, 352, 704, 1024], 2.0: [-1, 24, 224, 488, 976, 2048]}


def create_activation_layer(act):
    """The activation class for ``act`` ("relu", "swish" or None)."""
    table = {"swish": nn.Swish, "relu": nn.ReLU, None: None}
    if act not in table:
        raise RuntimeError(f"The activation function is not supported: {act}")
    return table[act]


def channel_shuffle(x, groups):
    """Interleave the channels of ``x`` ([N, C, H, W]) across ``groups``."""
    n, c, h, w = x.shape[0:4]
    x = reshape(x, shape=[n, groups, c // groups, h, w])
    x = transpose(x, perm=[0, 2, 1, 3, 4])
    return reshape(x, shape=[n, c, h, w])


class InvertedResidual(nn.Layer):
    """Stride-1 unit: half the channels pass, the other half go pw -> dw -> pw; then shuffle."""

    def __init__(self, in_channels, out_channels, stride, activation_layer=nn.ReLU):
        super().__init__()
        half = out_channels // 2
        self._conv_pw = ConvNormActivation(in_channels=in_channels // 2, out_channels=half,
                                           kernel_size=1, stride=1, padding=0, groups=1,
                                           activation_layer=activation_layer)
        self._conv_dw = ConvNormActivation(in_channels=half, out_channels=half, kernel_size=3,
                                           stride=stride, padding=1, groups=half,
                                           activation_layer=None)
        self._conv_linear = ConvNormActivation(in_channels=half, out_channels=half,
                                               kernel_size=1, stride=1, padding=0, groups=1,
                                               activation_layer=activation_layer)

    def forward(self, inputs):
        half = inputs.shape[1] // 2
        x1, x2 = split(inputs, num_or_sections=[half, half], axis=1)
        x2 = self._conv_linear(self._conv_dw(self._conv_pw(x2)))
        return channel_shuffle(concat([x1, x2], axis=1), 2)


class InvertedResidualDS(nn.Layer):
    """Downsampling unit: two strided branches over the whole input, concatenated, shuffled."""

    def __init__(self, in_channels, out_channels, stride, activation_layer=nn.ReLU):
        super().__init__()
        half = out_channels // 2
        self._conv_dw_1 = ConvNormActivation(in_channels=in_channels, out_channels=in_channels,
                                             kernel_size=3, stride=stride, padding=1,
                                             groups=in_channels, activation_layer=None)
        self._conv_linear_1 = ConvNormActivation(in_channels=in_channels, out_channels=half,
                                                 kernel_size=1, stride=1, padding=0, groups=1,
                                                 activation_layer=activation_layer)
        self._conv_pw_2 = ConvNormActivation(in_channels=in_channels, out_channels=half,
                                             kernel_size=1, stride=1, padding=0, groups=1,
                                             activation_layer=activation_layer)
        self._conv_dw_2 = ConvNormActivation(in_channels=half, out_channels=half, kernel_size=3,
                                             stride=stride, padding=1, groups=half,
                                             activation_layer=None)
        self._conv_linear_2 = ConvNormActivation(in_channels=half, out_channels=half,
                                                 kernel_size=1, stride=1, padding=0, groups=1,
                                                 activation_layer=activation_layer)

    def forward(self, inputs):
        x1 = self._conv_linear_1(self._conv_dw_1(inputs))
        x2 = self._conv_linear_2(self._conv_dw_2(self._conv_pw_2(inputs)))
        return channel_shuffle(concat([x1, x2], axis=1), 2)


class ShuffleNetV2(nn.Layer):
    """ShuffleNetV2 of width ``scale`` (0.25, 0.33, 0.5, 1.0, 1.5, 2.0) with activation
    ``act`` ("relu", "swish" or None)."""

    def __init__(self, scale=1.0, act="relu", num_classes=1000, with_pool=True):
        super().__init__()
        self.scale = scale
        self.num_classes = num_classes
        self.with_pool = with_pool
        activation = create_activation_layer(act)
        if scale not in _WIDTHS:
            raise NotImplementedError("This scale size:[" + str(scale) + "] is not implemented!")
        widths = _WIDTHS[scale]
        self._conv1 = ConvNormActivation(in_channels=3, out_channels=widths[1], kernel_size=3,
                                         stride=2, padding=1, activation_layer=activation)
        self._max_pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self._block_list = []
        for stage, repeats in enumerate([4, 8, 4]):
            for i in range(repeats):
                if i == 0:
                    block = InvertedResidualDS(widths[stage + 1], widths[stage + 2], 2,
                                               activation_layer=activation)
                else:
                    block = InvertedResidual(widths[stage + 2], widths[stage + 2], 1,
                                             activation_layer=activation)
                self._block_list.append(self.add_sublayer(f"{stage + 2}_{i + 1}", block))
        self._last_conv = ConvNormActivation(in_channels=widths[-2], out_channels=widths[-1],
                                             kernel_size=1, stride=1, padding=0,
                                             activation_layer=activation)
        if with_pool:
            self._pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self._out_c = widths[-1]
            self._fc = nn.Linear(widths[-1], num_classes)

    def forward(self, inputs):
        x = self._max_pool(self._conv1(inputs))
        for block in self._block_list:
            x = block(x)
        x = self._last_conv(x)
        if self.with_pool:
            x = self._pool2d_avg(x)
        if self.num_classes > 0:
            x = self._fc(flatten(x, start_axis=1, stop_axis=-1))
        return x


def _shufflenet_v2(arch, scale, pretrained, kwargs, act=None):
    if act is not None:
        kwargs["act"] = act
    model = ShuffleNetV2(scale=scale, **kwargs)
    if pretrained:
        load_pretrained(model, arch, model_urls, "set_dict")
    return model


def shufflenet_v2_x0_25(pretrained=False, **kwargs):
    """ShuffleNetV2 x0.25."""
    return _shufflenet_v2("shufflenet_v2_x0_25", 0.25, pretrained, kwargs)


def shufflenet_v2_x0_33(pretrained=False, **kwargs):
    """ShuffleNetV2 x0.33."""
    return _shufflenet_v2("shufflenet_v2_x0_33", 0.33, pretrained, kwargs)


def shufflenet_v2_x0_5(pretrained=False, **kwargs):
    """ShuffleNetV2 x0.5."""
    return _shufflenet_v2("shufflenet_v2_x0_5", 0.5, pretrained, kwargs)


def shufflenet_v2_x1_0(pretrained=False, **kwargs):
    """ShuffleNetV2 x1.0."""
    return _shufflenet_v2("shufflenet_v2_x1_0", 1.0, pretrained, kwargs)


def shufflenet_v2_x1_5(pretrained=False, **kwargs):
    """ShuffleNetV2 x1.5."""
    return _shufflenet_v2("shufflenet_v2_x1_5", 1.5, pretrained, kwargs)


def shufflenet_v2_x2_0(pretrained=False, **kwargs):
    """ShuffleNetV2 x2.0."""
    return _shufflenet_v2("shufflenet_v2_x2_0", 2.0, pretrained, kwargs)


def shufflenet_v2_swish(pretrained=False, **kwargs):
    """ShuffleNetV2 x1.0 with swish activations."""
    return _shufflenet_v2("shufflenet_v2_swish", 1.0, pretrained, kwargs, act="swish")
