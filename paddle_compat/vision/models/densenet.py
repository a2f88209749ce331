"""DenseNet 121/161/169/201/264 with Paddle's sublayer names (``conv1_func``,
``db_conv_2`` .. ``db_conv_5`` holding ``conv<i>_<j>`` layers, ``tr_conv<i>_blk``,
``batch_norm``, ``out``); norms are the legacy ``nn.BatchNorm`` with a fused ReLU."""
import math

from ... import nn
from ...framework.param_attr import ParamAttr
from ...nn.initializer import Uniform
from ...ops.joining import concat
from ...ops.reshaping import flatten
from ._utils import load_pretrained

__all__ = ["DenseNet", "densenet121", "densenet161", "densenet169", "densenet201",
           "densenet264"]

_BASE = "https://paddle-imagenet-models-name.bj.bcebos.com/dygraph/"
model_urls = {f"densenet{n}": (f"{_BASE}DenseNet{n}_pretrained.pdparams", md5) for n, md5 in [
    (121, "db1b239ed80a905290fd8b01d3af08e4"), (161, "62158869cb315098bd25ddbfd308a853"),
    (169, "82cc7c635c3f19098c748850efb2d796"), (201, "16ca29565a7712329cf9e36e02caaf58"),
    (264, "3270ce516b85370bba88cfdd9f60bff4")]}

#: layers -> (stem width, growth rate, dense layers per block)
_SPECS = {121: (64, 32, [6, 12, 24, 16]), 161: (96, 48, [6, 12, 36, 24]),
          169: (64, 32, [6, 12, 32, 32]), 201: (64, 32, [6, 12, 48, 32]),
          264: (64, 32, [6, 12, 64, 48])}


class BNACConvLayer(nn.Layer):
    """BatchNorm + activation, then a bias-free conv (pre-activation)."""

    def __init__(self, num_channels, num_filters, filter_size, stride=1, pad=0, groups=1,
                 act="relu"):
        super().__init__()
        self._batch_norm = nn.BatchNorm(num_channels, act=act)
        self._conv = nn.Conv2D(in_channels=num_channels, out_channels=num_filters,
                               kernel_size=filter_size, stride=stride, padding=pad,
                               groups=groups, weight_attr=ParamAttr(), bias_attr=False)

    def forward(self, input):
        return self._conv(self._batch_norm(input))


class DenseLayer(nn.Layer):
    """Bottleneck 1x1 then 3x3 producing ``growth_rate`` channels appended to the input."""

    def __init__(self, num_channels, growth_rate, bn_size, dropout):
        super().__init__()
        self.dropout = dropout
        self.bn_ac_func1 = BNACConvLayer(num_channels=num_channels,
                                         num_filters=bn_size * growth_rate, filter_size=1,
                                         pad=0, stride=1)
        self.bn_ac_func2 = BNACConvLayer(num_channels=bn_size * growth_rate,
                                         num_filters=growth_rate, filter_size=3, pad=1, stride=1)
        if dropout:
            self.dropout_func = nn.Dropout(p=dropout, mode="downscale_in_infer")

    def forward(self, input):
        y = self.bn_ac_func2(self.bn_ac_func1(input))
        if self.dropout:
            y = self.dropout_func(y)
        return concat([input, y], axis=1)


class DenseBlock(nn.Layer):
    """``num_layers`` dense layers named ``<name>_1`` .. ``<name>_<num_layers>``."""

    def __init__(self, num_channels, num_layers, bn_size, growth_rate, dropout, name=None):
        super().__init__()
        self.dropout = dropout
        self.dense_layer_func = []
        channels = num_channels
        for i in range(num_layers):
            layer = DenseLayer(num_channels=channels, growth_rate=growth_rate, bn_size=bn_size,
                               dropout=dropout)
            self.dense_layer_func.append(self.add_sublayer(f"{name}_{i + 1}", layer))
            channels += growth_rate

    def forward(self, input):
        y = input
        for layer in self.dense_layer_func:
            y = layer(y)
        return y


class TransitionLayer(nn.Layer):
    """BN-ReLU-1x1 conv then a 2x2 average pool."""

    def __init__(self, num_channels, num_output_features):
        super().__init__()
        self.conv_ac_func = BNACConvLayer(num_channels=num_channels,
                                          num_filters=num_output_features, filter_size=1, pad=0,
                                          stride=1)
        self.pool2d_avg = nn.AvgPool2D(kernel_size=2, stride=2, padding=0)

    def forward(self, input):
        return self.pool2d_avg(self.conv_ac_func(input))


class ConvBNLayer(nn.Layer):
    """A bias-free conv then BatchNorm + activation."""

    def __init__(self, num_channels, num_filters, filter_size, stride=1, pad=0, groups=1,
                 act="relu"):
        super().__init__()
        self._conv = nn.Conv2D(in_channels=num_channels, out_channels=num_filters,
                               kernel_size=filter_size, stride=stride, padding=pad,
                               groups=groups, weight_attr=ParamAttr(), bias_attr=False)
        self._batch_norm = nn.BatchNorm(num_filters, act=act)

    def forward(self, input):
        return self._batch_norm(self._conv(input))


class DenseNet(nn.Layer):
    """DenseNet of ``layers`` 121/161/169/201/264."""

    def __init__(self, layers=121, bn_size=4, dropout=0.0, num_classes=1000, with_pool=True):
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        supported = [121, 161, 169, 201, 264]
        assert layers in supported, (f"supported layers are {supported} but input layer is "
                                     f"{layers}")
        stem, growth, block_config = _SPECS[layers]
        self.conv1_func = ConvBNLayer(num_channels=3, num_filters=stem, filter_size=7, stride=2,
                                      pad=3, act="relu")
        self.pool2d_max = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self.block_config = block_config
        self.dense_block_func_list = []
        self.transition_func_list = []
        channels = stem
        for i, n in enumerate(block_config):
            block = DenseBlock(num_channels=channels, num_layers=n, bn_size=bn_size,
                               growth_rate=growth, dropout=dropout, name=f"conv{i + 2}")
            self.dense_block_func_list.append(self.add_sublayer(f"db_conv_{i + 2}", block))
            channels += n * growth
            if i != len(block_config) - 1:
                trans = TransitionLayer(num_channels=channels, num_output_features=channels // 2)
                self.transition_func_list.append(self.add_sublayer(f"tr_conv{i + 2}_blk", trans))
                channels //= 2
        self.batch_norm = nn.BatchNorm(channels, act="relu")
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            stdv = 1.0 / math.sqrt(channels * 1.0)
            self.out = nn.Linear(channels, num_classes,
                                 weight_attr=ParamAttr(initializer=Uniform(-stdv, stdv)),
                                 bias_attr=ParamAttr())

    def forward(self, input):
        y = self.pool2d_max(self.conv1_func(input))
        last = len(self.block_config) - 1
        for i in range(len(self.block_config)):
            y = self.dense_block_func_list[i](y)
            if i != last:
                y = self.transition_func_list[i](y)
        y = self.batch_norm(y)
        if self.with_pool:
            y = self.pool2d_avg(y)
        if self.num_classes > 0:
            y = self.out(flatten(y, start_axis=1, stop_axis=-1))
        return y


def _densenet(arch, layers, pretrained, kwargs):
    model = DenseNet(layers=layers, **kwargs)
    if pretrained:
        load_pretrained(model, arch, model_urls, "set_dict")
    return model


def densenet121(pretrained=False, **kwargs):
    """DenseNet-121."""
    return _densenet("densenet121", 121, pretrained, kwargs)


def densenet161(pretrained=False, **kwargs):
    """DenseNet-161."""
    return _densenet("densenet161", 161, pretrained, kwargs)


def densenet169(pretrained=False, **kwargs):
    """DenseNet-169."""
    return _densenet("densenet169", 169, pretrained, kwargs)


def densenet201(pretrained=False, **kwargs):
    """DenseNet-201."""
    return _densenet("densenet201", 201, pretrained, kwargs)


def densenet264(pretrained=False, **kwargs):
    """DenseNet-264."""
    return _densenet("densenet264", 264, pretrained, kwargs)
