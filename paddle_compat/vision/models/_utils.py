"""Pieces the model-zoo files share: channel rounding, the conv-norm-activation block, the
pretrained-weight lookup and ``IntermediateLayerGetter``."""
from collections import OrderedDict

from ... import nn
from ...framework.io import load
from ...ops.reshaping import flatten
from ...utils.download import get_weights_path_from_url

__all__ = ["IntermediateLayerGetter"]


def _make_divisible(v, divisor=8, min_value=None):
    """``v`` rounded to the nearest multiple of ``divisor`` (at least ``min_value``), never more
    than 10% below ``v``."""
    floor = divisor if min_value is None else min_value
    out = max(floor, int(v + divisor / 2) // divisor * divisor)
    return out + divisor if out < 0.9 * v else out


class ConvNormActivation(nn.Sequential):
    """``Conv2D`` then (optionally) a norm layer then (optionally) an activation, as sublayers
    ``0``, ``1``, ``2``; the conv has a bias only when there is no norm layer (unless ``bias``
    says otherwise), and ``padding=None`` keeps the spatial size at stride 1."""

    def __init__(self, in_channels, out_channels, kernel_size=3, stride=1, padding=None, groups=1,
                 norm_layer=nn.BatchNorm2D, activation_layer=nn.ReLU, dilation=1, bias=None):
        if padding is None:
            padding = (kernel_size - 1) // 2 * dilation
        with_bias = (norm_layer is None) if bias is None else bias
        parts = [nn.Conv2D(in_channels, out_channels, kernel_size, stride, padding,
                           dilation=dilation, groups=groups, bias_attr=with_bias)]
        if norm_layer is not None:
            parts.append(norm_layer(out_channels))
        if activation_layer is not None:
            parts.append(activation_layer())
        super().__init__(*parts)


def load_pretrained(model, arch, urls, loader="set_dict"):
    """Fill ``model`` from Paddle's weights file for ``arch`` (``urls[arch] = (url, md5)``),
    found in Paddle's local cache (``~/.cache/paddle/hapi/weights``); nothing is downloaded, a
    missing file raises RuntimeError naming the path to put it at."""
    if arch not in urls:
        raise AssertionError(f"{arch} model do not have a pretrained model now, you should set "
                             f"pretrained=False")
    url, md5 = urls[arch]
    path = get_weights_path_from_url(url, md5)
    getattr(model, loader)(load(path))
    return model


class IntermediateLayerGetter(nn.LayerDict):
    """The direct children of ``model`` up to the last one named in ``return_layers``
    (``{child name: output name}``), run in order; ``forward`` returns an OrderedDict of the
    named children's outputs. Flattens a 4-D input before a ``Linear`` child."""

    def __init__(self, model, return_layers):
        names = [name for name, _ in model.named_children()]
        if not set(return_layers).issubset(names):
            raise ValueError("return_layers are not present in model")
        wanted = {str(k): str(v) for k, v in return_layers.items()}
        kept = OrderedDict()
        for name, child in model.named_children():
            kept[name] = child
            wanted.pop(name, None)
            if not wanted:
                break
        super().__init__(kept)
        self.return_layers = return_layers

    def forward(self, x):
        out = OrderedDict()
        for name, child in self.items():
            subs = child.sublayers()
            if x.ndim == 4 and (isinstance(child, nn.Linear)
                                or (subs and isinstance(subs[0], nn.Linear))):
                x = flatten(x, 1)
            x = child(x)
            if name in self.return_layers:
                out[self.return_layers[name]] = x
        return out
