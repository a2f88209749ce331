"""AlexNet as Paddle builds it: ``_conv1`` .. ``_conv5`` and ``_fc6`` .. ``_fc8``, every
weight and bias drawn from U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
import math

from ... import nn
from ...framework.param_attr import ParamAttr
from ...nn import functional as F
from ...nn.initializer import Uniform
from ...ops.reshaping import flatten
from ._utils import load_pretrained

__all__ = ["AlexNet", "alexnet"]

model_urls = {"alexnet": (
    "https://paddle-imagenet-models-name.bj.bcebos.com/dygraph/AlexNet_pretrained.pdparams",
    "7f0f9f737132e02732d75a1459d98a43")}


def _uniform(stdv):
    return ParamAttr(initializer=Uniform(-stdv, stdv))


class ConvPoolLayer(nn.Layer):
    """Conv (uniform init), optional ReLU, 3x3/2 max pool."""

    def __init__(self, input_channels, output_channels, filter_size, stride, padding, stdv,
                 groups=1, act=None):
        super().__init__()
        self.relu = nn.ReLU() if act == "relu" else None
        self._conv = nn.Conv2D(in_channels=input_channels, out_channels=output_channels,
                               kernel_size=filter_size, stride=stride, padding=padding,
                               groups=groups, weight_attr=_uniform(stdv),
                               bias_attr=_uniform(stdv))
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)

    def forward(self, inputs):
        x = self._conv(inputs)
        if self.relu is not None:
            x = self.relu(x)
        return self._pool(x)


class AlexNet(nn.Layer):
    """AlexNet; the classifier wants 256x6x6 features (224x224 input)."""

    def __init__(self, num_classes=1000):
        super().__init__()
        self.num_classes = num_classes
        self._conv1 = ConvPoolLayer(3, 64, 11, 4, 2, 1.0 / math.sqrt(3 * 11 * 11), act="relu")
        self._conv2 = ConvPoolLayer(64, 192, 5, 1, 2, 1.0 / math.sqrt(64 * 5 * 5), act="relu")
        stdv = 1.0 / math.sqrt(192 * 3 * 3)
        self._conv3 = nn.Conv2D(192, 384, 3, stride=1, padding=1, weight_attr=_uniform(stdv),
                                bias_attr=_uniform(stdv))
        stdv = 1.0 / math.sqrt(384 * 3 * 3)
        self._conv4 = nn.Conv2D(384, 256, 3, stride=1, padding=1, weight_attr=_uniform(stdv),
                                bias_attr=_uniform(stdv))
        self._conv5 = ConvPoolLayer(256, 256, 3, 1, 1, 1.0 / math.sqrt(256 * 3 * 3), act="relu")
        if num_classes > 0:
            stdv = 1.0 / math.sqrt(256 * 6 * 6)
            self._drop1 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc6 = nn.Linear(in_features=256 * 6 * 6, out_features=4096,
                                  weight_attr=_uniform(stdv), bias_attr=_uniform(stdv))
            self._drop2 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc7 = nn.Linear(in_features=4096, out_features=4096,
                                  weight_attr=_uniform(stdv), bias_attr=_uniform(stdv))
            self._fc8 = nn.Linear(in_features=4096, out_features=num_classes,
                                  weight_attr=_uniform(stdv), bias_attr=_uniform(stdv))

    def forward(self, inputs):
        x = self._conv2(self._conv1(inputs))
        x = F.relu(self._conv3(x))
        x = F.relu(self._conv4(x))
        x = self._conv5(x)
        if self.num_classes > 0:
            x = self._drop1(flatten(x, start_axis=1, stop_axis=-1))
            x = self._drop2(F.relu(self._fc6(x)))
            x = self._fc8(F.relu(self._fc7(x)))
        return x


def alexnet(pretrained=False, **kwargs):
    """AlexNet (``kwargs`` go to ``AlexNet``)."""
    model = AlexNet(**kwargs)
    if pretrained:
        load_pretrained(model, "alexnet", model_urls, "load_dict")
    return model
