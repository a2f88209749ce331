"""VGG 11/13/16/19, with or without batch norm: ``features`` (``make_layers``), ``avgpool``
(7x7) and ``classifier``, Paddle's names."""
from ... import nn
from ...ops.reshaping import flatten
from ._utils import load_pretrained

__all__ = ["VGG", "make_layers", "vgg11", "vgg13", "vgg16", "vgg19"]

model_urls = {
    "vgg16": ("https://paddle-hapi.bj.bcebos.com/models/vgg16.pdparams",
              "89bbffc0f87d260be9b8cdc169c991c4"),
    "vgg19": ("https://paddle-hapi.bj.bcebos.com/models/vgg19.pdparams",
              "23b18bb13d8894f60f54e642be79a0dd"),
}

#: conv widths per configuration, "M" a 2x2 max pool
cfgs = {
    "A": [64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "B": [64, 64, "M", 128, 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "D": [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512,
          "M"],
    "E": [64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M", 512,
          512, 512, 512, "M"],
}


class VGG(nn.Layer):
    """VGG over a ``features`` Sequential; the classifier wants 512x7x7 features."""

    def __init__(self, features, num_classes=1000, with_pool=True):
        super().__init__()
        self.features = features
        self.num_classes = num_classes
        self.with_pool = with_pool
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D((7, 7))
        if num_classes > 0:
            self.classifier = nn.Sequential(
                nn.Linear(512 * 7 * 7, 4096), nn.ReLU(), nn.Dropout(),
                nn.Linear(4096, 4096), nn.ReLU(), nn.Dropout(),
                nn.Linear(4096, num_classes))

    def forward(self, x):
        x = self.features(x)
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = self.classifier(flatten(x, 1))
        return x


def make_layers(cfg, batch_norm=False):
    """The conv stack of configuration list ``cfg`` (3 input channels)."""
    stack = []
    channels = 3
    for v in cfg:
        if v == "M":
            stack.append(nn.MaxPool2D(kernel_size=2, stride=2))
            continue
        stack.append(nn.Conv2D(channels, v, kernel_size=3, padding=1))
        if batch_norm:
            stack.append(nn.BatchNorm2D(v))
        stack.append(nn.ReLU())
        channels = v
    return nn.Sequential(*stack)


def _vgg(arch, cfg, batch_norm, pretrained, **kwargs):
    model = VGG(make_layers(cfgs[cfg], batch_norm=batch_norm), **kwargs)
    if pretrained:
        load_pretrained(model, arch + ("_bn" if batch_norm else ""), model_urls, "load_dict")
    return model


def vgg11(pretrained=False, batch_norm=False, **kwargs):
    """VGG-11 (configuration A)."""
    return _vgg("vgg11", "A", batch_norm, pretrained, **kwargs)


def vgg13(pretrained=False, batch_norm=False, **kwargs):
    """VGG-13 (configuration B)."""
    return _vgg("vgg13", "B", batch_norm, pretrained, **kwargs)


def vgg16(pretrained=False, batch_norm=False, **kwargs):
    """VGG-16 (configuration D)."""
    return _vgg("vgg16", "D", batch_norm, pretrained, **kwargs)


def vgg19(pretrained=False, batch_norm=False, **kwargs):
    """VGG-19 (configuration E)."""
    return _vgg("vgg19", "E", batch_norm, pretrained, **kwargs)
