"""Inception v3 with Paddle's names (``inception_stem``, ``inception_block_list.0`` .. ``.10``
of types A A A B C C C C D E E, ``fc``); every conv is a conv-BN-ReLU block."""
import math

from ... import nn
from ...framework.param_attr import ParamAttr
from ...nn.initializer import Uniform
from ...ops.joining import concat
from ...ops.reshaping import reshape
from ._utils import ConvNormActivation, load_pretrained

__all__ = ["InceptionV3", "inception_v3"]

model_urls = {"inception_v3": ("https://paddle-hapi.bj.bcebos.com/models/inception_v3.pdparams",
                               "649a4547c3243e8b59c656f41fe330b8")}


def _cbr(cin, cout, kernel, stride=1, padding=0):
    return ConvNormActivation(in_channels=cin, out_channels=cout, kernel_size=kernel,
                              stride=stride, padding=padding, activation_layer=nn.ReLU)


def _avg3():
    return nn.AvgPool2D(kernel_size=3, stride=1, padding=1, exclusive=False)


class InceptionStem(nn.Layer):
    """Five conv blocks and two 3x3/2 max pools: 3 -> 192 channels."""

    def __init__(self):
        super().__init__()
        self.conv_1a_3x3 = _cbr(3, 32, 3, stride=2)
        self.conv_2a_3x3 = _cbr(32, 32, 3)
        self.conv_2b_3x3 = _cbr(32, 64, 3, padding=1)
        self.max_pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)
        self.conv_3b_1x1 = _cbr(64, 80, 1)
        self.conv_4a_3x3 = _cbr(80, 192, 3)

    def forward(self, x):
        x = self.conv_2b_3x3(self.conv_2a_3x3(self.conv_1a_3x3(x)))
        x = self.max_pool(x)
        return self.max_pool(self.conv_4a_3x3(self.conv_3b_1x1(x)))


class InceptionA(nn.Layer):
    """1x1, 5x5, double 3x3 and pool branches (64 + 64 + 96 + ``pool_features`` channels)."""

    def __init__(self, num_channels, pool_features):
        super().__init__()
        self.branch1x1 = _cbr(num_channels, 64, 1)
        self.branch5x5_1 = _cbr(num_channels, 48, 1)
        self.branch5x5_2 = _cbr(48, 64, 5, padding=2)
        self.branch3x3dbl_1 = _cbr(num_channels, 64, 1)
        self.branch3x3dbl_2 = _cbr(64, 96, 3, padding=1)
        self.branch3x3dbl_3 = _cbr(96, 96, 3, padding=1)
        self.branch_pool = _avg3()
        self.branch_pool_conv = _cbr(num_channels, pool_features, 1)

    def forward(self, x):
        a = self.branch1x1(x)
        b = self.branch5x5_2(self.branch5x5_1(x))
        c = self.branch3x3dbl_3(self.branch3x3dbl_2(self.branch3x3dbl_1(x)))
        d = self.branch_pool_conv(self.branch_pool(x))
        return concat([a, b, c, d], axis=1)


class InceptionB(nn.Layer):
    """Grid reduction: strided 3x3, strided double 3x3 and max-pool branches."""

    def __init__(self, num_channels):
        super().__init__()
        self.branch3x3 = _cbr(num_channels, 384, 3, stride=2)
        self.branch3x3dbl_1 = _cbr(num_channels, 64, 1)
        self.branch3x3dbl_2 = _cbr(64, 96, 3, padding=1)
        self.branch3x3dbl_3 = _cbr(96, 96, 3, stride=2)
        self.branch_pool = nn.MaxPool2D(kernel_size=3, stride=2)

    def forward(self, x):
        a = self.branch3x3(x)
        b = self.branch3x3dbl_3(self.branch3x3dbl_2(self.branch3x3dbl_1(x)))
        return concat([a, b, self.branch_pool(x)], axis=1)


class InceptionC(nn.Layer):
    """Factorised 7x7 branches (1x7 / 7x1 pairs)."""

    def __init__(self, num_channels, channels_7x7):
        super().__init__()
        c7 = channels_7x7
        self.branch1x1 = _cbr(num_channels, 192, 1)
        self.branch7x7_1 = _cbr(num_channels, c7, 1)
        self.branch7x7_2 = _cbr(c7, c7, (1, 7), padding=(0, 3))
        self.branch7x7_3 = _cbr(c7, 192, (7, 1), padding=(3, 0))
        self.branch7x7dbl_1 = _cbr(num_channels, c7, 1)
        self.branch7x7dbl_2 = _cbr(c7, c7, (7, 1), padding=(3, 0))
        self.branch7x7dbl_3 = _cbr(c7, c7, (1, 7), padding=(0, 3))
        self.branch7x7dbl_4 = _cbr(c7, c7, (7, 1), padding=(3, 0))
        self.branch7x7dbl_5 = _cbr(c7, 192, (1, 7), padding=(0, 3))
        self.branch_pool = _avg3()
        self.branch_pool_conv = _cbr(num_channels, 192, 1)

    def forward(self, x):
        a = self.branch1x1(x)
        b = self.branch7x7_3(self.branch7x7_2(self.branch7x7_1(x)))
        c = self.branch7x7dbl_1(x)
        for layer in (self.branch7x7dbl_2, self.branch7x7dbl_3, self.branch7x7dbl_4,
                      self.branch7x7dbl_5):
            c = layer(c)
        d = self.branch_pool_conv(self.branch_pool(x))
        return concat([a, b, c, d], axis=1)


class InceptionD(nn.Layer):
    """Grid reduction with a factorised 7x7 branch."""

    def __init__(self, num_channels):
        super().__init__()
        self.branch3x3_1 = _cbr(num_channels, 192, 1)
        self.branch3x3_2 = _cbr(192, 320, 3, stride=2)
        self.branch7x7x3_1 = _cbr(num_channels, 192, 1)
        self.branch7x7x3_2 = _cbr(192, 192, (1, 7), padding=(0, 3))
        self.branch7x7x3_3 = _cbr(192, 192, (7, 1), padding=(3, 0))
        self.branch7x7x3_4 = _cbr(192, 192, 3, stride=2)
        self.branch_pool = nn.MaxPool2D(kernel_size=3, stride=2)

    def forward(self, x):
        a = self.branch3x3_2(self.branch3x3_1(x))
        b = self.branch7x7x3_1(x)
        for layer in (self.branch7x7x3_2, self.branch7x7x3_3, self.branch7x7x3_4):
            b = layer(b)
        return concat([a, b, self.branch_pool(x)], axis=1)


class InceptionE(nn.Layer):
    """Expanded-filter-bank block: 1x3 and 3x1 outputs side by side."""

    def __init__(self, num_channels):
        super().__init__()
        self.branch1x1 = _cbr(num_channels, 320, 1)
        self.branch3x3_1 = _cbr(num_channels, 384, 1)
        self.branch3x3_2a = _cbr(384, 384, (1, 3), padding=(0, 1))
        self.branch3x3_2b = _cbr(384, 384, (3, 1), padding=(1, 0))
        self.branch3x3dbl_1 = _cbr(num_channels, 448, 1)
        self.branch3x3dbl_2 = _cbr(448, 384, 3, padding=1)
        self.branch3x3dbl_3a = _cbr(384, 384, (1, 3), padding=(0, 1))
        self.branch3x3dbl_3b = _cbr(384, 384, (3, 1), padding=(1, 0))
        self.branch_pool = _avg3()
        self.branch_pool_conv = _cbr(num_channels, 192, 1)

    def forward(self, x):
        a = self.branch1x1(x)
        b = self.branch3x3_1(x)
        b = concat([self.branch3x3_2a(b), self.branch3x3_2b(b)], axis=1)
        c = self.branch3x3dbl_2(self.branch3x3dbl_1(x))
        c = concat([self.branch3x3dbl_3a(c), self.branch3x3dbl_3b(c)], axis=1)
        d = self.branch_pool_conv(self.branch_pool(x))
        return concat([a, b, c, d], axis=1)


class InceptionV3(nn.Layer):
    """Inception v3 (ImageNet size 299x299; 75x75 is the smallest input it takes)."""

    def __init__(self, num_classes=1000, with_pool=True):
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.layers_config = {"inception_a": [[192, 256, 288], [32, 64, 64]],
                              "inception_b": [288],
                              "inception_c": [[768, 768, 768, 768], [128, 160, 160, 192]],
                              "inception_d": [768], "inception_e": [1280, 2048]}
        cfg = self.layers_config
        self.inception_stem = InceptionStem()
        self.inception_block_list = nn.LayerList()
        for cin, pool_features in zip(*cfg["inception_a"]):
            self.inception_block_list.append(InceptionA(cin, pool_features))
        for cin in cfg["inception_b"]:
            self.inception_block_list.append(InceptionB(cin))
        for cin, c7 in zip(*cfg["inception_c"]):
            self.inception_block_list.append(InceptionC(cin, c7))
        for cin in cfg["inception_d"]:
            self.inception_block_list.append(InceptionD(cin))
        for cin in cfg["inception_e"]:
            self.inception_block_list.append(InceptionE(cin))
        if with_pool:
            self.avg_pool = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.dropout = nn.Dropout(p=0.2, mode="downscale_in_infer")
            stdv = 1.0 / math.sqrt(2048 * 1.0)
            self.fc = nn.Linear(2048, num_classes,
                                weight_attr=ParamAttr(initializer=Uniform(-stdv, stdv)),
                                bias_attr=ParamAttr())

    def forward(self, x):
        x = self.inception_stem(x)
        for block in self.inception_block_list:
            x = block(x)
        if self.with_pool:
            x = self.avg_pool(x)
        if self.num_classes > 0:
            x = self.fc(self.dropout(reshape(x, shape=[-1, 2048])))
        return x


def inception_v3(pretrained=False, **kwargs):
    """Inception v3 (``kwargs`` go to ``InceptionV3``)."""
    model = InceptionV3(**kwargs)
    if pretrained:
        load_pretrained(model, "inception_v3", model_urls, "set_dict")
    return model
