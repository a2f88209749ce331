"""GoogLeNet (Inception v1) as Paddle builds it, with its two auxiliary heads; ``forward``
returns ``(out, out1, out2)``. The heads want 224x224 input."""
from ... import nn
from ...framework.param_attr import ParamAttr
from ...nn import functional as F
from ...nn.initializer import Uniform
from ...ops.joining import concat
from ...ops.reshaping import flatten, squeeze
from ._utils import load_pretrained

__all__ = ["GoogLeNet", "googlenet"]

model_urls = {"googlenet": (
    "https://paddle-imagenet-models-name.bj.bcebos.com/dygraph/GoogLeNet_pretrained.pdparams",
    "80c06f038e905c53ab32c40eca6e26ae")}


def xavier(channels, filter_size):
    """A ParamAttr drawing from U(-s, s), s = sqrt(3 / (filter_size^2 * channels))."""
    stdv = (3.0 / (filter_size ** 2 * channels)) ** 0.5
    return ParamAttr(initializer=Uniform(-stdv, stdv))


class ConvLayer(nn.Layer):
    """A bias-free "same" conv."""

    def __init__(self, num_channels, num_filters, filter_size, stride=1, groups=1):
        super().__init__()
        self._conv = nn.Conv2D(in_channels=num_channels, out_channels=num_filters,
                               kernel_size=filter_size, stride=stride,
                               padding=(filter_size - 1) // 2, groups=groups, bias_attr=False)

    def forward(self, inputs):
        return self._conv(inputs)


class Inception(nn.Layer):
    """1x1, 1x1->3x3, 1x1->5x5 and pool->1x1 branches, concatenated, then ReLU."""

    def __init__(self, input_channels, output_channels, filter1, filter3R, filter3, filter5R,
                 filter5, proj):
        super().__init__()
        self._conv1 = ConvLayer(input_channels, filter1, 1)
        self._conv3r = ConvLayer(input_channels, filter3R, 1)
        self._conv3 = ConvLayer(filter3R, filter3, 3)
        self._conv5r = ConvLayer(input_channels, filter5R, 1)
        self._conv5 = ConvLayer(filter5R, filter5, 5)
        self._pool = nn.MaxPool2D(kernel_size=3, stride=1, padding=1)
        self._convprj = ConvLayer(input_channels, proj, 1)

    def forward(self, inputs):
        branches = [self._conv1(inputs), self._conv3(self._conv3r(inputs)),
                    self._conv5(self._conv5r(inputs)), self._convprj(self._pool(inputs))]
        return F.relu(concat(branches, axis=1))


# name -> Inception arguments
_INCEPTIONS = [("_ince3a", (192, 192, 64, 96, 128, 16, 32, 32)),
               ("_ince3b", (256, 256, 128, 128, 192, 32, 96, 64)),
               ("_ince4a", (480, 480, 192, 96, 208, 16, 48, 64)),
               ("_ince4b", (512, 512, 160, 112, 224, 24, 64, 64)),
               ("_ince4c", (512, 512, 128, 128, 256, 24, 64, 64)),
               ("_ince4d", (512, 512, 112, 144, 288, 32, 64, 64)),
               ("_ince4e", (528, 528, 256, 160, 320, 32, 128, 128)),
               ("_ince5a", (832, 832, 256, 160, 320, 32, 128, 128)),
               ("_ince5b", (832, 832, 384, 192, 384, 48, 128, 128))]


class GoogLeNet(nn.Layer):
    """GoogLeNet; ``forward`` gives the main logits and the two auxiliary heads' logits."""

    def __init__(self, num_classes=1000, with_pool=True):
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        self._conv = ConvLayer(3, 64, 7, 2)
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2)
        self._conv_1 = ConvLayer(64, 64, 1)
        self._conv_2 = ConvLayer(64, 192, 3)
        for name, args in _INCEPTIONS:
            setattr(self, name, Inception(*args))
        if with_pool:
            self._pool_5 = nn.AdaptiveAvgPool2D(1)
            self._pool_o1 = nn.AvgPool2D(kernel_size=5, stride=3)
            self._pool_o2 = nn.AvgPool2D(kernel_size=5, stride=3)
        if num_classes > 0:
            self._drop = nn.Dropout(p=0.4, mode="downscale_in_infer")
            self._fc_out = nn.Linear(1024, num_classes, weight_attr=xavier(1024, 1))
            self._conv_o1 = ConvLayer(512, 128, 1)
            self._fc_o1 = nn.Linear(1152, 1024, weight_attr=xavier(2048, 1))
            self._drop_o1 = nn.Dropout(p=0.7, mode="downscale_in_infer")
            self._out1 = nn.Linear(1024, num_classes, weight_attr=xavier(1024, 1))
            self._conv_o2 = ConvLayer(528, 128, 1)
            self._fc_o2 = nn.Linear(1152, 1024, weight_attr=xavier(2048, 1))
            self._drop_o2 = nn.Dropout(p=0.7, mode="downscale_in_infer")
            self._out2 = nn.Linear(1024, num_classes, weight_attr=xavier(1024, 1))

    def forward(self, inputs):
        x = self._pool(self._conv(inputs))
        x = self._pool(self._conv_2(self._conv_1(x)))
        x = self._pool(self._ince3b(self._ince3a(x)))
        aux1 = self._ince4a(x)
        aux2 = self._ince4d(self._ince4c(self._ince4b(aux1)))
        x = self._pool(self._ince4e(aux2))
        out = self._ince5b(self._ince5a(x))
        if self.with_pool:
            out = self._pool_5(out)
            aux1 = self._pool_o1(aux1)
            aux2 = self._pool_o2(aux2)
        if self.num_classes > 0:
            out = self._fc_out(squeeze(self._drop(out), axis=[2, 3]))
            aux1 = flatten(self._conv_o1(aux1), start_axis=1, stop_axis=-1)
            aux1 = self._out1(self._drop_o1(F.relu(self._fc_o1(aux1))))
            aux2 = flatten(self._conv_o2(aux2), start_axis=1, stop_axis=-1)
            # Paddle's second head has no ReLU after its hidden layer
            aux2 = self._out2(self._drop_o2(self._fc_o2(aux2)))
        return out, aux1, aux2


def googlenet(pretrained=False, **kwargs):
    """GoogLeNet (``kwargs`` go to ``GoogLeNet``)."""
    model = GoogLeNet(**kwargs)
    if pretrained:
        load_pretrained(model, "googlenet", model_urls, "set_dict")
    return model
