"""``paddle.vision.transforms``: ``Compose`` and ``Normalize``.

Images are numpy arrays (or PIL images, read as arrays) or paddle Tensors, ``CHW`` unless
``data_format='HWC'``. Normalize gives float32 arrays for array input and Tensors for Tensor
input (float64 stays float64), as Paddle does.
"""
import numbers

import numpy as np
import torch

from ..framework.tensor import Tensor, wrap

__all__ = ["Compose", "Normalize", "normalize"]


class Compose:
    """Apply ``transforms`` one after the other: ``Compose([Normalize(0.5, 0.5), f])(img)``."""

    def __init__(self, transforms):
        self.transforms = list(transforms)

    def __call__(self, data):
        for t in self.transforms:
            data = t(data)
        return data

    def __repr__(self):
        inner = "".join(f"\n    {t}" for t in self.transforms)
        return f"{type(self).__name__}({inner}\n)"


def _channel_shape(data_format, ndim):
    if data_format not in ("CHW", "HWC"):
        raise ValueError(f"data_format should be 'CHW' or 'HWC', but got {data_format!r}")
    shape = [1] * max(ndim, 3)
    shape[-3 if data_format == "CHW" else -1] = -1
    return shape


def normalize(img, mean, std, data_format="CHW", to_rgb=False):
    """``(img - mean) / std`` per channel; ``to_rgb`` reverses the channel order first."""
    if isinstance(img, Tensor):
        t = img._t
        if not t.is_floating_point():
            t = t.to(torch.float32)
        shape = _channel_shape(data_format, t.dim())
        m = torch.as_tensor(np.asarray(mean, np.float32), device=t.device).reshape(shape)
        s = torch.as_tensor(np.asarray(std, np.float32), device=t.device).reshape(shape)
        if to_rgb:
            t = t.flip(-3 if data_format == "CHW" else -1)
        return wrap((t - m.to(t.dtype)) / s.to(t.dtype))
    a = np.asarray(img)
    shape = _channel_shape(data_format, a.ndim)
    m = np.asarray(mean, np.float32).reshape(shape)
    s = np.asarray(std, np.float32).reshape(shape)
    if to_rgb:
        a = np.flip(a, -3 if data_format == "CHW" else -1)
    return (a - m) / s          # float32, or float64 for a float64 image (numpy's promotion)


class Normalize:
    """Normalize an image per channel: ``Normalize(mean=[127.5] * 3, std=[127.5] * 3)``.

    A number for ``mean``/``std`` stands for the same value in three channels.
    """

    def __init__(self, mean=0.0, std=1.0, data_format="CHW", to_rgb=False, keys=None):
        if isinstance(mean, numbers.Number):
            mean = [mean] * 3
        if isinstance(std, numbers.Number):
            std = [std] * 3
        self.mean, self.std = mean, std
        self.data_format, self.to_rgb = data_format, to_rgb
        self.keys = keys

    def __call__(self, img):
        if isinstance(img, (tuple, list)) and self.keys is not None:
            return type(img)(self._one(x) if k == "image" else x
                             for k, x in zip(self.keys, img))
        return self._one(img)

    def _one(self, img):
        return normalize(img, self.mean, self.std, self.data_format, self.to_rgb)

    def __repr__(self):
        return f"Normalize(mean={self.mean}, std={self.std}, data_format={self.data_format!r})"
