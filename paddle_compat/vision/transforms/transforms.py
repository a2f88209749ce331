"""The transforms of ``paddle.vision.transforms`` and their functional forms (the package
re-exports them; ``functional`` holds the functional forms under Paddle's module name).

Images are numpy arrays (or PIL images, read as arrays) or paddle Tensors, ``CHW`` unless
``data_format='HWC'``. Normalize gives float32 arrays for array input and Tensors for Tensor
input (float64 stays float64), as Paddle does.
"""
import math
import numbers
import random
from collections.abc import Iterable, Sequence

import numpy as np
import torch

from ...framework.tensor import Tensor, wrap

__all__ = [
    "BaseTransform", "Compose", "Resize", "RandomResizedCrop", "CenterCrop",
    "RandomHorizontalFlip", "RandomVerticalFlip", "Transpose", "Normalize",
    "BrightnessTransform", "SaturationTransform", "ContrastTransform", "HueTransform",
    "ColorJitter", "RandomCrop", "Pad", "RandomAffine", "RandomRotation", "RandomPerspective",
    "Grayscale", "ToTensor", "RandomErasing", "to_tensor", "hflip", "vflip", "resize", "pad",
    "affine", "rotate", "perspective", "to_grayscale", "crop", "center_crop",
    "adjust_brightness", "adjust_contrast", "adjust_hue", "normalize", "erase",
]


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


# ---------------------------------------------------------------------------------------------
# The rest of paddle.vision.transforms.  Three kinds of image, as in Paddle:
#   numpy arrays (HWC, usually uint8)  -> OpenCV (``opencv-python-headless``), imported lazily
#   PIL images                         -> Pillow, imported lazily
#   paddle Tensors (CHW, or NCHW)      -> torch (warps: float images, grid_sample as Paddle)
# Random parameters come from Python's ``random`` module or ``numpy.random``, the same calls in
# the same order as Paddle makes them, so that a seeded run gives Paddle's crops and flips.
# Notes on matching Paddle (all checked against Paddle 3.3.1 goldens):
#   * resize to an int: the short side becomes ``size``, the long one ``int(size * long / short)``.
#   * center_crop's offset is ``int(round((h - th) / 2))`` (Python's round: halves go to even).
#   * cv2 brightness/contrast go through a 256-entry table truncated to uint8 (contrast pivots on
#     74, not on the mean); cv2 saturation ignores the factor itself and blends with a weight drawn
#     from ``np.random.uniform(max(0, 1 - f), 1 + f)``.
#   * cv2 affine without ``center`` puts the center at ``(h/2, w/2)`` (height first), as Paddle;
#     Tensor affine with ``center`` swaps height and width in its offset the same way.
#   * cv2 hflip of an HxWx1 image returns HxW (vflip keeps the channel axis).
#   * Tensor brightness/contrast/saturation clip float images to [0, 1] (255 for integers).
#   * Tensor warps (rotate/affine/perspective) are grid_sample with align_corners=False, zeros
#     outside, then ``fill`` painted through a warped mask channel.
# ---------------------------------------------------------------------------------------------
def _cv2():
    try:
        import cv2
    except ImportError as e:
        raise ImportError("paddle.vision.transforms needs OpenCV for numpy images: "
                          "pip install opencv-python-headless") from e
    return cv2


def _pil():
    try:
        from PIL import Image, ImageEnhance, ImageOps
    except ImportError as e:
        raise ImportError("paddle.vision.transforms needs Pillow for PIL images: "
                          "pip install pillow") from e
    return Image, ImageEnhance, ImageOps


def _is_pil(img):
    mod = type(img).__module__
    if not mod.startswith("PIL."):
        return False
    Image = _pil()[0]
    return isinstance(img, Image.Image)


def _is_numpy(img):
    return isinstance(img, np.ndarray) and img.ndim in (2, 3)


def _is_tensor(img):
    return isinstance(img, Tensor)


def _kind(img, name):
    if _is_tensor(img):
        return "tensor"
    if _is_numpy(img):
        return "numpy"
    if _is_pil(img):
        return "pil"
    raise TypeError(f"{name}: img should be a PIL Image, a numpy array (2 or 3 dims) or a "
                    f"paddle Tensor, got {type(img)}")


def _cv2_interp(cv2, name):
    table = {"nearest": cv2.INTER_NEAREST, "bilinear": cv2.INTER_LINEAR,
             "area": cv2.INTER_AREA, "bicubic": cv2.INTER_CUBIC,
             "lanczos": cv2.INTER_LANCZOS4}
    if name not in table:
        raise ValueError(f"interpolation should be one of {sorted(table)}, got {name!r}")
    return table[name]


def _pil_interp(Image, name):
    R = Image.Resampling
    table = {"nearest": R.NEAREST, "bilinear": R.BILINEAR, "bicubic": R.BICUBIC,
             "box": R.BOX, "lanczos": R.LANCZOS, "hamming": R.HAMMING}
    if name not in table:
        raise ValueError(f"interpolation should be one of {sorted(table)}, got {name!r}")
    return table[name]


def _keep_channel(img, out):
    """OpenCV drops a trailing channel of size 1; put it back as Paddle does."""
    if img.ndim == 3 and img.shape[2] == 1 and out.ndim == 2:
        return out[:, :, None]
    return out


def _image_size(img):
    """(width, height)."""
    k = _kind(img, "image size")
    if k == "pil":
        return img.size
    if k == "numpy":
        return img.shape[1], img.shape[0]
    if img.ndim not in (3, 4):
        raise ValueError(f"The dim for input Tensor should be 3-D or 4-D, but received {img.ndim}")
    return img.shape[-1], img.shape[-2]


def to_tensor(pic, data_format="CHW"):
    """HWC array / PIL image -> Tensor (CHW by default); uint8 is scaled to float32 in [0, 1]."""
    if data_format not in ("CHW", "HWC"):
        raise ValueError(f"data_format should be CHW or HWC. Got {data_format}")
    k = _kind(pic, "to_tensor")
    if k == "tensor":
        return pic if data_format == "CHW" else wrap(pic._t.permute(1, 2, 0))
    if k == "pil":
        mode = pic.mode
        if mode in ("I", "I;16"):
            a = np.asarray(pic, np.int32)
        elif mode == "F":
            a = np.asarray(pic, np.float32)
        elif mode == "1":
            a = np.asarray(pic, np.uint8) * np.uint8(255)
        else:
            a = np.asarray(pic)
        c = 3 if mode == "YCbCr" else 1 if mode == "I;16" else len(mode)
        a = a.reshape(pic.size[1], pic.size[0], c)
    else:
        a = pic[:, :, None] if pic.ndim == 2 else pic
    t = torch.from_numpy(np.array(a, copy=True, order="C"))
    if data_format == "CHW":
        t = t.permute(2, 0, 1).contiguous()
    if t.dtype == torch.uint8:
        t = t.to(torch.float32) / 255.0
    return wrap(t)


def _resize_size(w, h, size):
    if isinstance(size, int):
        if (w <= h and w == size) or (h <= w and h == size):
            return None
        if w < h:
            return size, int(size * h / w)
        return int(size * w / h), size
    return size[1], size[0]


def resize(img, size, interpolation="bilinear"):
    """Resize to ``size`` ((h, w), or an int for the short side keeping the aspect ratio)."""
    if not (isinstance(size, int) or (isinstance(size, Iterable) and len(size) == 2)):
        raise TypeError(f"Got inappropriate size arg: {size}")
    k = _kind(img, "resize")
    w, h = _image_size(img)
    wh = _resize_size(w, h, size)
    if k == "numpy":
        if wh is None:
            return img
        cv2 = _cv2()
        return _keep_channel(img, cv2.resize(img, dsize=wh,
                                             interpolation=_cv2_interp(cv2, interpolation)))
    if k == "pil":
        if wh is None:
            return img
        Image = _pil()[0]
        return img.resize(wh, _pil_interp(Image, interpolation))
    if wh is None:
        return img
    # paddle.nn.functional.interpolate, align_corners=False: half-pixel centres, as torch's
    mode = interpolation.lower()
    if mode not in ("nearest", "bilinear", "bicubic", "area"):
        raise ValueError(f"interpolation {interpolation!r} is not supported for Tensors")
    t = img._t
    x = t.unsqueeze(0) if t.dim() == 3 else t
    kw = {} if mode in ("nearest", "area") else {"align_corners": False}
    xf = x if x.is_floating_point() else x.to(torch.float32)
    out = torch.nn.functional.interpolate(xf, size=(wh[1], wh[0]), mode=mode, **kw)
    out = out.to(x.dtype)       # integer images: computed in float32, truncated as Paddle's
    return wrap(out.squeeze(0) if t.dim() == 3 else out)


def _pad_sides(padding):
    if not isinstance(padding, (numbers.Number, list, tuple)):
        raise TypeError("Got inappropriate padding arg")
    if isinstance(padding, Sequence) and len(padding) not in (2, 4):
        raise ValueError("Padding must be an int or a 2, or 4 element tuple, not a "
                         f"{len(padding)} element tuple")
    if isinstance(padding, numbers.Number):
        p = int(padding)
        return p, p, p, p
    if len(padding) == 2:
        return padding[0], padding[1], padding[0], padding[1]
    return tuple(padding)          # left, top, right, bottom


def pad(img, padding, fill=0, padding_mode="constant"):
    """Pad the borders: ``padding`` is an int, (left/right, top/bottom) or (l, t, r, b)."""
    if not isinstance(fill, (numbers.Number, str, list, tuple)):
        raise TypeError("Got inappropriate fill arg")
    if padding_mode not in ("constant", "edge", "reflect", "symmetric"):
        raise ValueError("Padding mode should be either constant, edge, reflect or symmetric")
    left, top, right, bottom = _pad_sides(padding)
    k = _kind(img, "pad")
    if k == "numpy":
        cv2 = _cv2()
        border = {"constant": cv2.BORDER_CONSTANT, "edge": cv2.BORDER_REPLICATE,
                  "reflect": cv2.BORDER_REFLECT_101, "symmetric": cv2.BORDER_REFLECT}
        out = cv2.copyMakeBorder(img, top=top, bottom=bottom, left=left, right=right,
                                 borderType=border[padding_mode], value=fill)
        return _keep_channel(img, out)
    if k == "pil":
        Image, _, ImageOps = _pil()
        if padding_mode == "constant":
            palette = img.getpalette() if img.mode == "P" else None
            border = padding if isinstance(padding, numbers.Number) else tuple(padding)
            out = ImageOps.expand(img, border=border, fill=fill)
            if palette is not None:
                out.putpalette(palette)
            return out
        a = np.asarray(img)
        widths = [(top, bottom), (left, right)] + [(0, 0)] * (a.ndim - 2)
        out = Image.fromarray(np.pad(a, widths, padding_mode))
        if img.mode == "P":
            out.putpalette(img.getpalette())
        return out
    t = img._t
    mode = {"constant": "constant", "edge": "replicate", "reflect": "reflect",
            "symmetric": None}[padding_mode]
    if mode is None:
        raise ValueError("Do not support symmetric mode")
    squeeze = t.dim() == 3
    x = t.unsqueeze(0) if squeeze else t
    if mode == "constant":
        out = torch.nn.functional.pad(x, (left, right, top, bottom), value=float(fill))
    else:
        xf = x if x.is_floating_point() else x.to(torch.float32)
        out = torch.nn.functional.pad(xf, (left, right, top, bottom), mode=mode).to(x.dtype)
    return wrap(out.squeeze(0) if squeeze else out)


def crop(img, top, left, height, width):
    """The box of ``height`` x ``width`` at (``top``, ``left``)."""
    k = _kind(img, "crop")
    if k == "numpy":
        return img[top:top + height, left:left + width, :]
    if k == "pil":
        return img.crop((left, top, left + width, top + height))
    return wrap(img._t[..., top:top + height, left:left + width])


def center_crop(img, output_size):
    """Crop the center ``output_size`` (int or (h, w)); the offset rounds as Python's round."""
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))
    w, h = _image_size(img)
    th, tw = output_size
    return crop(img, int(round((h - th) / 2.0)), int(round((w - tw) / 2.0)), th, tw)


def hflip(img):
    """Mirror left-right."""
    k = _kind(img, "hflip")
    if k == "numpy":
        return _cv2().flip(img, 1)     # Paddle's hflip leaves an HxWx1 image 2-D (vflip does not)
    if k == "pil":
        return img.transpose(_pil()[0].Transpose.FLIP_LEFT_RIGHT)
    return wrap(img._t.flip(-1))


def vflip(img):
    """Mirror top-bottom."""
    k = _kind(img, "vflip")
    if k == "numpy":
        return _keep_channel(img, _cv2().flip(img, 0))
    if k == "pil":
        return img.transpose(_pil()[0].Transpose.FLIP_TOP_BOTTOM)
    return wrap(img._t.flip(-2))


def _lut(img, table):
    cv2 = _cv2()
    return _keep_channel(img, cv2.LUT(img, table.clip(0, 255).astype(np.uint8)))


def _t_blend(t, target, ratio):
    """``target + ratio * (t - target)`` clipped to the image range (1.0 for floats, else 255)."""
    top = 1.0 if t.is_floating_point() else 255.0
    tf = t if t.is_floating_point() else t.to(torch.float32)
    out = target.to(tf.dtype) + float(ratio) * (tf - target.to(tf.dtype))
    return out.clamp(0, top).to(t.dtype)


def _t_gray(t):
    """ITU-R 601 luma with Paddle's weights (0.2989, 0.587, 0.114), keeping the channel axis."""
    w = torch.tensor([0.2989, 0.5870, 0.1140], dtype=torch.float64).to(t.dtype)
    return (t * w.reshape(3, 1, 1)).sum(dim=-3, keepdim=True)


def _t_channels(t):
    c = t.shape[-3]
    if c not in (1, 3):
        raise ValueError("channels of input should be either 1 or 3.")
    return c


def _t_rgb_to_hsv(img):
    maxc, minc = img.max(dim=-3).values, img.min(dim=-3).values
    same = maxc == minc
    delta = maxc - minc
    s = delta / torch.where(same, torch.ones_like(maxc), maxc)
    r, g, b = img.unbind(dim=-3)
    div = torch.where(same, torch.ones_like(delta), delta)
    rc, gc, bc = (maxc - r) / div, (maxc - g) / div, (maxc - b) / div
    h = ((maxc == r).to(img.dtype) * (bc - gc)
         + ((maxc == g) & (maxc != r)).to(img.dtype) * (rc - bc + 2.0)
         + ((maxc != r) & (maxc != g)).to(img.dtype) * (gc - rc + 4.0))
    h = h / 6.0 + 1.0
    return torch.stack([h - h.trunc(), s, maxc], dim=-3)


def _t_hsv_to_rgb(img):
    h, s, v = img.unbind(dim=-3)
    f6 = h * 6.0
    i = torch.floor(f6)
    f = f6 - i
    i = i.to(torch.int32) % 6
    p = (v * (1.0 - s)).clamp(0.0, 1.0)
    q = (v * (1.0 - s * f)).clamp(0.0, 1.0)
    u = (v * (1.0 - s * (1.0 - f))).clamp(0.0, 1.0)
    table = torch.stack([torch.stack([v, q, p, p, u, v], dim=-3),
                         torch.stack([u, v, v, q, p, p], dim=-3),
                         torch.stack([p, p, u, v, v, q], dim=-3)], dim=-4)
    idx = i.to(torch.int64).unsqueeze(-3).unsqueeze(-4).expand(*table.shape[:-3], 1,
                                                                  *table.shape[-2:])
    return torch.gather(table, -3, idx).squeeze(-3)


def adjust_brightness(img, brightness_factor):
    """Scale the intensities by ``brightness_factor``."""
    k = _kind(img, "adjust_brightness")
    if k == "numpy":
        return _lut(img.astype(np.uint8), np.arange(256, dtype=np.float64) * brightness_factor)
    if k == "pil":
        return _pil()[1].Brightness(img).enhance(brightness_factor)
    if brightness_factor < 0:
        raise ValueError("brightness_factor should be non-negative.")
    _t_channels(img._t)
    return wrap(_t_blend(img._t, torch.zeros_like(img._t), brightness_factor))


def adjust_contrast(img, contrast_factor):
    """Stretch the intensities around a gray level by ``contrast_factor``."""
    k = _kind(img, "adjust_contrast")
    if k == "numpy":
        return _lut(img, (np.arange(256, dtype=np.float64) - 74) * contrast_factor + 74)
    if k == "pil":
        return _pil()[1].Contrast(img).enhance(contrast_factor)
    if contrast_factor < 0:
        raise ValueError("contrast_factor should be non-negative.")
    t = img._t
    ft = t if t.is_floating_point() else t.to(torch.float32)
    base = ft if _t_channels(t) == 1 else _t_gray(t).to(ft.dtype)
    mean = base.mean(dim=(-3, -2, -1), keepdim=True)
    return wrap(_t_blend(t, mean, contrast_factor))


def adjust_saturation(img, saturation_factor):
    """Blend with the grayscale image (numpy images: a blend weight drawn from numpy.random)."""
    k = _kind(img, "adjust_saturation")
    if k == "numpy":
        cv2 = _cv2()
        dtype = img.dtype
        f = img.astype(np.float32)
        alpha = np.random.uniform(max(0, 1 - saturation_factor), 1 + saturation_factor)
        gray = cv2.cvtColor(f, cv2.COLOR_BGR2GRAY)[..., None]
        return (f * alpha + gray * (1 - alpha)).clip(0, 255).astype(dtype)
    if k == "pil":
        return _pil()[1].Color(img).enhance(saturation_factor)
    if saturation_factor < 0:
        raise ValueError("saturation_factor should be non-negative.")
    t = img._t
    if _t_channels(t) == 1:
        return img
    return wrap(_t_blend(t, _t_gray(t), saturation_factor))


def adjust_hue(img, hue_factor):
    """Rotate the hue by ``hue_factor`` (in [-0.5, 0.5]) of a turn."""
    if not -0.5 <= hue_factor <= 0.5:
        raise ValueError(f"hue_factor:{hue_factor} is not in [-0.5, 0.5].")
    k = _kind(img, "adjust_hue")
    shift = int(hue_factor * 255)
    if k == "numpy":
        cv2 = _cv2()
        dtype = img.dtype
        hsv = cv2.cvtColor(img.astype(np.uint8), cv2.COLOR_BGR2HSV_FULL)
        hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + shift) % 256).astype(np.uint8)
        return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR_FULL).astype(dtype)
    if k == "pil":
        Image = _pil()[0]
        mode = img.mode
        if mode in ("L", "1", "I", "F"):
            return img
        h, s, v = img.convert("HSV").split()
        hh = ((np.asarray(h, np.uint8).astype(np.int16) + shift) % 256).astype(np.uint8)
        return Image.merge("HSV", (Image.fromarray(hh, "L"), s, v)).convert(mode)
    t = img._t
    if _t_channels(t) == 1:
        return img
    ft = t.to(torch.float32) / 255.0 if t.dtype == torch.uint8 else t
    h, s_, v = _t_rgb_to_hsv(ft).unbind(dim=-3)
    h = h + hue_factor
    out = _t_hsv_to_rgb(torch.stack([h - h.floor(), s_, v], dim=-3))
    return wrap((out * 255.0).to(t.dtype) if t.dtype == torch.uint8 else out)


def _inverse_affine(center, angle, translate, scale, shear):
    """The 6 coefficients mapping output pixels back to input pixels (PIL's AFFINE data)."""
    rot, sx, sy = math.radians(angle), math.radians(shear[0]), math.radians(shear[1])
    cos_sy = math.cos(sy)
    a = math.cos(rot - sy) / cos_sy
    b = -math.cos(rot - sy) * math.tan(sx) / cos_sy - math.sin(rot)
    c = math.sin(rot - sy) / cos_sy
    d = -math.sin(rot - sy) * math.tan(sx) / cos_sy + math.cos(rot)
    m = [v / scale for v in (d, -b, 0.0, -c, a, 0.0)]
    cx, cy = center
    tx, ty = translate
    m[2] += m[0] * (-cx - tx) + m[1] * (-cy - ty) + cx
    m[5] += m[3] * (-cx - tx) + m[4] * (-cy - ty) + cy
    return m


def _fill3(fill):
    return (fill,) * 3 if isinstance(fill, int) else fill


def _t_affine_grid(theta, w, h, ow, oh):
    """Sampling grid (1, oh, ow, 2) in [-1, 1] for the 2x3 ``theta`` acting on pixel coordinates
    centred on the image middle (as Paddle builds it)."""
    xs = torch.linspace(-ow * 0.5 + 0.5, ow * 0.5 - 0.5, ow, dtype=theta.dtype)
    ys = torch.linspace(-oh * 0.5 + 0.5, oh * 0.5 - 0.5, oh, dtype=theta.dtype)
    base = torch.ones(oh, ow, 3, dtype=theta.dtype)
    base[..., 0] = xs
    base[..., 1] = ys.unsqueeze(-1)
    scaled = theta.t() / torch.tensor([0.5 * w, 0.5 * h], dtype=theta.dtype)
    return (base.reshape(1, oh * ow, 3) @ scaled).reshape(1, oh, ow, 2)


def _t_grid_sample(x, grid, mode, fill):
    """grid_sample (zeros outside, align_corners=False) of NCHW ``x``; where ``fill`` is given,
    the outside is painted with it through a sampled mask channel, as Paddle does."""
    if mode not in ("nearest", "bilinear"):
        raise ValueError("interpolation should be 'nearest' or 'bilinear' for Tensors, "
                         f"got {mode!r}")
    if not x.is_floating_point():
        raise TypeError("paddle_compat: geometric warps of Tensors need a floating-point image")
    grid = grid.to(x.dtype).expand(x.shape[0], *grid.shape[1:])
    if fill is not None:
        x = torch.cat([x, torch.ones_like(x[:, :1])], dim=1)
    out = torch.nn.functional.grid_sample(x, grid, mode=mode, padding_mode="zeros",
                                          align_corners=False)
    if fill is None:
        return out
    mask, out = out[:, -1:], out[:, :-1]
    fv = torch.as_tensor(np.asarray(fill, np.float64).reshape(-1)).to(out.dtype)
    fill_img = fv.reshape(1, -1, 1, 1).expand_as(out)
    if mode == "nearest":
        m = (mask < 0.5).to(out.dtype)
        return out * (1.0 - m) + m * fill_img
    return out * mask + (1.0 - mask) * fill_img


def _t_nchw(img):
    t = img._t
    return (t.unsqueeze(0), True) if t.dim() == 3 else (t, False)


def _t_affine(img, matrix, interpolation, fill):
    x, squeeze = _t_nchw(img)
    theta = torch.tensor(matrix, dtype=torch.float32).reshape(2, 3)
    h, w = x.shape[-2], x.shape[-1]
    grid = _t_affine_grid(theta, w, h, w, h)
    out = _t_grid_sample(x, grid, interpolation, _fill3(fill))
    return wrap(out.squeeze(0) if squeeze else out)


def _t_rotate(img, angle, interpolation, expand, center, fill):
    x, squeeze = _t_nchw(img)
    h, w = x.shape[-2], x.shape[-1]
    rad = math.radians(-angle % 360)
    c = [0.0, 0.0] if center is None else [p - s * 0.5 for p, s in zip(center, (w, h))]
    m = torch.tensor([math.cos(rad), math.sin(rad), 0.0, -math.sin(rad), math.cos(rad), 0.0],
                     dtype=torch.float32)
    m[2] += m[0] * -c[0] + m[1] * -c[1] + c[0]
    m[5] += m[3] * -c[0] + m[4] * -c[1] + c[1]
    theta = m.reshape(2, 3)
    ow, oh = w, h
    if expand:
        corners = torch.tensor([[-0.5 * w, -0.5 * h, 1.0], [-0.5 * w, 0.5 * h, 1.0],
                                [0.5 * w, 0.5 * h, 1.0], [0.5 * w, -0.5 * h, 1.0]])
        pos = corners @ theta.t()
        size = pos.max(dim=0).values.ceil() - pos.min(dim=0).values.floor()
        ow, oh = int(size[0]), int(size[1])
    grid = _t_affine_grid(theta, w, h, ow, oh)
    out = _t_grid_sample(x, grid, interpolation, fill)
    return wrap(out.squeeze(0) if squeeze else out)


def _t_perspective(img, coeffs, interpolation, fill):
    x, squeeze = _t_nchw(img)
    oh, ow = x.shape[-2], x.shape[-1]
    cf = torch.tensor([float(v) for v in coeffs], dtype=torch.float64)
    theta1 = cf[:6].reshape(2, 3)
    theta2 = torch.cat([cf[6:].reshape(1, 2).repeat(2, 1), torch.ones(2, 1, dtype=cf.dtype)], 1)
    base = torch.ones(oh, ow, 3, dtype=torch.float64)
    base[..., 0] = torch.linspace(0.5, ow - 0.5, ow, dtype=torch.float64)
    base[..., 1] = torch.linspace(0.5, oh - 0.5, oh, dtype=torch.float64).unsqueeze(-1)
    flat = base.reshape(oh * ow, 3)
    g1 = flat @ (theta1.t() / torch.tensor([0.5 * ow, 0.5 * oh], dtype=torch.float64))
    g2 = flat @ theta2.t()
    grid = (g1 / g2 - 1.0).reshape(1, oh, ow, 2)
    out = _t_grid_sample(x, grid, interpolation, fill)
    return wrap(out.squeeze(0) if squeeze else out)


def affine(img, angle, translate, scale, shear, interpolation="nearest", fill=0, center=None):
    """Rotate by ``angle`` degrees, scale, shear (degrees) and translate (pixels)."""
    k = _kind(img, "affine")
    if not isinstance(angle, (int, float)):
        raise TypeError("Argument angle should be int or float")
    if not isinstance(translate, (list, tuple)) or len(translate) != 2:
        raise ValueError("Argument translate should be a sequence of length 2")
    if scale <= 0.0:
        raise ValueError("Argument scale should be positive")
    if isinstance(shear, numbers.Number):
        shear = [shear, 0.0]
    shear = list(shear)
    if len(shear) == 1:
        shear = [shear[0], shear[0]]
    if len(shear) != 2:
        raise ValueError(f"Shear should be a sequence containing two values. Got {shear}")
    angle = float(angle)
    if k == "pil":
        width, height = img.size
        if center is None:
            center = [width * 0.5, height * 0.5]
        m = _inverse_affine(center, angle, list(translate), scale, shear)
        Image = _pil()[0]
        return img.transform(img.size, Image.Transform.AFFINE, m,
                             _pil_interp(Image, interpolation), _fill3(fill))
    if k == "tensor":
        # Paddle reads the Tensor's center offset with height and width swapped; so do we
        height, width = img.shape[-1], img.shape[-2]
        cf = [0.0, 0.0] if center is None else [
            1.0 * (c - sz * 0.5) for c, sz in zip(center, (width, height))]
        m = _inverse_affine(cf, angle, [1.0 * t for t in translate], scale, shear)
        return _t_affine(img, m, interpolation, fill)
    cv2 = _cv2()
    h, w = img.shape[:2]
    if center is None:
        center = (h * 0.5, w * 0.5)        # Paddle's numpy path: height first
    r = cv2.getRotationMatrix2D(angle=angle, center=tuple(center), scale=scale)
    tsx = math.tan(shear[0] * math.pi / 180)
    tsy = math.tan(shear[1] * math.pi / 180)
    m = np.empty((2, 3))
    m[0] = r[0] + tsy * r[1]
    m[1] = r[1] + tsx * r[0]
    m[0, 2], m[1, 2] = translate
    out = cv2.warpAffine(img, m, dsize=(w, h), flags=_cv2_interp(cv2, interpolation),
                         borderValue=_fill3(fill))
    return _keep_channel(img, out)


def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=0):
    """Rotate counter-clockwise by ``angle`` degrees about ``center`` (default the middle)."""
    if isinstance(center, list):
        center = tuple(center)
    if isinstance(fill, list):
        fill = tuple(fill)
    k = _kind(img, "rotate")
    if k == "pil":
        Image = _pil()[0]
        return img.rotate(angle, _pil_interp(Image, interpolation), expand, center,
                          fillcolor=_fill3(fill))
    if k == "tensor":
        return _t_rotate(img, angle, interpolation, expand, center, fill)
    cv2 = _cv2()
    h, w = img.shape[:2]
    if center is None:
        center = (w / 2.0, h / 2.0)
    m = cv2.getRotationMatrix2D(center, angle, 1)
    if expand:
        rad = -math.radians(angle)
        cs, sn = round(math.cos(rad), 15), round(math.sin(rad), 15)
        ox = cs * -center[0] + sn * -center[1] + center[0]
        oy = -sn * -center[0] + cs * -center[1] + center[1]
        xs, ys = [], []
        for x, y in ((0, 0), (w, 0), (w, h), (0, h)):
            xs.append(cs * x + sn * y + ox)
            ys.append(-sn * x + cs * y + oy)
        nw = math.ceil(max(xs)) - math.floor(min(xs))
        nh = math.ceil(max(ys)) - math.floor(min(ys))
        m[0, 2] += (nw - w) * 0.5
        m[1, 2] += (nh - h) * 0.5
        w, h = int(nw), int(nh)
    out = cv2.warpAffine(img, m, (w, h), flags=_cv2_interp(cv2, interpolation),
                         borderValue=fill)
    return _keep_channel(img, out)


def _perspective_coeffs(startpoints, endpoints):
    a = np.zeros((8, 8))
    for i, ((ex, ey), (sx, sy)) in enumerate(zip(endpoints, startpoints)):
        a[2 * i] = [ex, ey, 1, 0, 0, 0, -sx * ex, -sx * ey]
        a[2 * i + 1] = [0, 0, 0, ex, ey, 1, -sy * ex, -sy * ey]
    b = np.asarray(startpoints, np.float64).reshape(8)
    return list(np.linalg.lstsq(a, b, rcond=None)[0])


def perspective(img, startpoints, endpoints, interpolation="nearest", fill=0):
    """Warp so that the 4 ``startpoints`` land on the 4 ``endpoints`` ([x, y] each)."""
    k = _kind(img, "perspective")
    if k == "pil":
        Image = _pil()[0]
        return img.transform(img.size, Image.Transform.PERSPECTIVE,
                             _perspective_coeffs(startpoints, endpoints),
                             _pil_interp(Image, interpolation), _fill3(fill))
    if k == "tensor":
        return _t_perspective(img, _perspective_coeffs(startpoints, endpoints), interpolation,
                              fill)
    cv2 = _cv2()
    h, w = img.shape[:2]
    m = cv2.getPerspectiveTransform(np.asarray(startpoints, np.float32),
                                    np.asarray(endpoints, np.float32))
    out = cv2.warpPerspective(img, m, dsize=(w, h), flags=_cv2_interp(cv2, interpolation),
                              borderValue=fill)
    return _keep_channel(img, out)


def to_grayscale(img, num_output_channels=1):
    """RGB -> gray with 1 or 3 (repeated) channels."""
    if num_output_channels not in (1, 3):
        raise ValueError("num_output_channels should be either 1 or 3")
    k = _kind(img, "to_grayscale")
    if k == "numpy":
        cv2 = _cv2()
        g = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)[:, :, None]
        return g if num_output_channels == 1 else np.broadcast_to(g, img.shape)
    if k == "pil":
        Image = _pil()[0]
        g = img.convert("L")
        if num_output_channels == 1:
            return g
        a = np.asarray(g, np.uint8)
        return Image.fromarray(np.dstack([a, a, a]), "RGB")
    g = _t_gray(img._t)
    return wrap(g.expand(*g.shape[:-3], num_output_channels, *g.shape[-2:]))


def erase(img, i, j, h, w, v, inplace=False):
    """Set the box (``i``, ``j``, ``h``, ``w``) to ``v`` (a value, or an array/Tensor)."""
    k = _kind(img, "erase")
    if k == "tensor":
        t = img._t if inplace else img._t.clone()
        val = v._t if isinstance(v, Tensor) else torch.as_tensor(np.asarray(v))
        t[..., i:i + h, j:j + w] = val.to(t.dtype)
        return img if inplace else wrap(t)
    if k == "pil":
        Image = _pil()[0]
        a = np.array(img, dtype=np.uint8)
        a[i:i + h, j:j + w, ...] = v
        return Image.fromarray(a, "RGB")
    a = img if inplace else img.copy()
    a[i:i + h, j:j + w, ...] = v
    return a


def _check_range(value, name, center=1, bound=(0, float("inf")), clip_first_on_zero=True):
    if isinstance(value, numbers.Number):
        if value < 0:
            raise ValueError(f"If {name} is a single number, it must be non negative.")
        value = [center - value, center + value]
        if clip_first_on_zero:
            value[0] = max(value[0], 0)
    elif isinstance(value, (tuple, list)) and len(value) == 2:
        if not bound[0] <= value[0] <= value[1] <= bound[1]:
            raise ValueError(f"{name} values should be between {bound}")
    else:
        raise TypeError(f"{name} should be a single number or a list/tuple with length 2.")
    if value[0] == value[1] == center:
        return None
    return value


class BaseTransform:
    """Base of the transforms: ``__call__`` takes one input or a tuple matched against ``keys``
    (``'image'``, ``'coords'``, ``'boxes'``, ``'mask'``) and calls ``_apply_<key>`` on each;
    ``_get_params(inputs)`` runs first and its result is kept in ``self.params``."""

    def __init__(self, keys=None):
        if keys is None:
            keys = ("image",)
        elif not isinstance(keys, Sequence):
            raise ValueError(f"keys should be a sequence, but got keys={keys}")
        for k in keys:
            if self._get_apply(k) is None:
                raise NotImplementedError(f"{k} is unsupported data structure")
        self.keys = keys
        self.params = None

    def _get_params(self, inputs):
        return None

    def __call__(self, inputs):
        if not isinstance(inputs, tuple):
            inputs = (inputs,)
        self.params = self._get_params(inputs)
        n = min(len(inputs), len(self.keys))
        out = [self._get_apply(self.keys[i])(inputs[i]) for i in range(n)]
        out.extend(inputs[n:])
        return out[0] if len(out) == 1 else tuple(out)

    def _get_apply(self, key):
        return getattr(self, f"_apply_{key}", None)

    def _apply_image(self, image):
        raise NotImplementedError

    def _apply_boxes(self, boxes):
        raise NotImplementedError

    def _apply_mask(self, mask):
        raise NotImplementedError

    def _apply_coords(self, coords):
        raise NotImplementedError


class Normalize(BaseTransform):
    """Normalize an image per channel: ``Normalize(mean=[127.5] * 3, std=[127.5] * 3)``.

    A number for ``mean``/``std`` stands for the same value in three channels.
    """

    def __init__(self, mean=0.0, std=1.0, data_format="CHW", to_rgb=False, keys=None):
        super().__init__(keys)
        if isinstance(mean, numbers.Number):
            mean = [mean] * 3
        if isinstance(std, numbers.Number):
            std = [std] * 3
        self.mean, self.std = mean, std
        self.data_format, self.to_rgb = data_format, to_rgb

    def _apply_image(self, img):
        return normalize(img, self.mean, self.std, self.data_format, self.to_rgb)

    def __repr__(self):
        return f"Normalize(mean={self.mean}, std={self.std}, data_format={self.data_format!r})"


class ToTensor(BaseTransform):
    """``to_tensor`` as a transform."""

    def __init__(self, data_format="CHW", keys=None):
        super().__init__(keys)
        self.data_format = data_format

    def _apply_image(self, img):
        return to_tensor(img, self.data_format)


class Resize(BaseTransform):
    """``resize`` as a transform."""

    def __init__(self, size, interpolation="bilinear", keys=None):
        super().__init__(keys)
        if not (isinstance(size, int) or (isinstance(size, Iterable) and len(size) == 2)):
            raise TypeError(f"Got inappropriate size arg: {size}")
        self.size, self.interpolation = size, interpolation

    def _apply_image(self, img):
        return resize(img, self.size, self.interpolation)


class RandomResizedCrop(BaseTransform):
    """Crop a random area (``scale`` of the image, aspect ``ratio``), then resize to ``size``."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4, 4.0 / 3),
                 interpolation="bilinear", keys=None):
        super().__init__(keys)
        self.size = (size, size) if isinstance(size, int) else size
        if scale[0] > scale[1]:
            raise ValueError("scale should be of kind (min, max)")
        if ratio[0] > ratio[1]:
            raise ValueError("ratio should be of kind (min, max)")
        self.scale, self.ratio, self.interpolation = scale, ratio, interpolation

    def _dynamic_get_param(self, image, attempts=10):
        width, height = _image_size(image)
        area = height * width
        log_ratio = (math.log(self.ratio[0]), math.log(self.ratio[1]))
        for _ in range(attempts):
            target = np.random.uniform(*self.scale) * area
            aspect = math.exp(np.random.uniform(*log_ratio))
            w = int(round(math.sqrt(target * aspect)))
            h = int(round(math.sqrt(target / aspect)))
            if 0 < w <= width and 0 < h <= height:
                return random.randint(0, height - h), random.randint(0, width - w), h, w
        in_ratio = width / height
        if in_ratio < min(self.ratio):
            w, h = width, int(round(width / min(self.ratio)))
        elif in_ratio > max(self.ratio):
            w, h = int(round(height * max(self.ratio))), height
        else:
            w, h = width, height
        return (height - h) // 2, (width - w) // 2, h, w

    def _apply_image(self, img):
        i, j, h, w = self._dynamic_get_param(img)
        return resize(crop(img, i, j, h, w), self.size, self.interpolation)


class CenterCrop(BaseTransform):
    """``center_crop`` as a transform."""

    def __init__(self, size, keys=None):
        super().__init__(keys)
        self.size = (int(size), int(size)) if isinstance(size, numbers.Number) else size

    def _apply_image(self, img):
        return center_crop(img, self.size)


class RandomHorizontalFlip(BaseTransform):
    """``hflip`` when ``random.random() < prob``."""

    def __init__(self, prob=0.5, keys=None):
        super().__init__(keys)
        if not 0 <= prob <= 1:
            raise ValueError("probability must be between 0 and 1")
        self.prob = prob

    def _apply_image(self, img):
        return hflip(img) if random.random() < self.prob else img


class RandomVerticalFlip(BaseTransform):
    """``vflip`` when ``random.random() < prob``."""

    def __init__(self, prob=0.5, keys=None):
        super().__init__(keys)
        if not 0 <= prob <= 1:
            raise ValueError("probability must be between 0 and 1")
        self.prob = prob

    def _apply_image(self, img):
        return vflip(img) if random.random() < self.prob else img


class Transpose(BaseTransform):
    """Permute the axes (default HWC -> CHW); a 2-D array gets a channel axis first."""

    def __init__(self, order=(2, 0, 1), keys=None):
        super().__init__(keys)
        self.order = order

    def _apply_image(self, img):
        if _is_tensor(img):
            return wrap(img._t.permute(*self.order))
        if _is_pil(img):
            img = np.asarray(img)
        if img.ndim == 2:
            img = img[..., None]
        return img.transpose(self.order)


class _RandomAdjust(BaseTransform):
    """A colour transform: ``_adjust(img, factor)`` with the factor drawn by ``random.uniform``
    from ``self.value``'s range (``None``: the image unchanged)."""

    def _apply_image(self, img):
        if self.value is None:
            return img
        return self._adjust(img, random.uniform(self.value[0], self.value[1]))


class BrightnessTransform(_RandomAdjust):
    """``adjust_brightness`` by a factor drawn from ``random.uniform`` in [1-value, 1+value]."""

    def __init__(self, value, keys=None):
        super().__init__(keys)
        self.value = _check_range(value, "brightness")

    _adjust = staticmethod(adjust_brightness)


class ContrastTransform(_RandomAdjust):
    """``adjust_contrast`` by a factor drawn from ``random.uniform`` in [1-value, 1+value]."""

    def __init__(self, value, keys=None):
        super().__init__(keys)
        if value < 0:
            raise ValueError("contrast value should be non-negative")
        self.value = _check_range(value, "contrast")

    _adjust = staticmethod(adjust_contrast)


class SaturationTransform(_RandomAdjust):
    """``adjust_saturation`` by a factor drawn from ``random.uniform`` in [1-value, 1+value]."""

    def __init__(self, value, keys=None):
        super().__init__(keys)
        self.value = _check_range(value, "saturation")

    _adjust = staticmethod(adjust_saturation)


class HueTransform(_RandomAdjust):
    """``adjust_hue`` by a factor drawn from ``random.uniform`` in [-value, value]."""

    def __init__(self, value, keys=None):
        super().__init__(keys)
        self.value = _check_range(value, "hue", center=0, bound=(-0.5, 0.5),
                                  clip_first_on_zero=False)

    _adjust = staticmethod(adjust_hue)


class ColorJitter(BaseTransform):
    """Brightness, contrast, saturation and hue jitter, in an order shuffled by ``random``."""

    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0, keys=None):
        super().__init__(keys)
        self.brightness, self.contrast = brightness, contrast
        self.saturation, self.hue = saturation, hue

    def _get_param(self, brightness, contrast, saturation, hue):
        ts = []
        if brightness is not None:
            ts.append(BrightnessTransform(brightness, self.keys))
        if contrast is not None:
            ts.append(ContrastTransform(contrast, self.keys))
        if saturation is not None:
            ts.append(SaturationTransform(saturation, self.keys))
        if hue is not None:
            ts.append(HueTransform(hue, self.keys))
        random.shuffle(ts)
        return Compose(ts)

    def _apply_image(self, img):
        return self._get_param(self.brightness, self.contrast, self.saturation, self.hue)(img)


class RandomCrop(BaseTransform):
    """Crop ``size`` at a place drawn by ``random.randint``, after optional padding."""

    def __init__(self, size, padding=None, pad_if_needed=False, fill=0,
                 padding_mode="constant", keys=None):
        super().__init__(keys)
        self.size = (int(size), int(size)) if isinstance(size, numbers.Number) else size
        self.padding, self.pad_if_needed = padding, pad_if_needed
        self.fill, self.padding_mode = fill, padding_mode

    def _get_param(self, img, output_size):
        w, h = _image_size(img)
        th, tw = output_size
        if w == tw and h == th:
            return 0, 0, h, w
        return random.randint(0, h - th), random.randint(0, w - tw), th, tw

    def _apply_image(self, img):
        if self.padding is not None:
            img = pad(img, self.padding, self.fill, self.padding_mode)
        w, h = _image_size(img)
        if self.pad_if_needed and w < self.size[1]:
            img = pad(img, (self.size[1] - w, 0), self.fill, self.padding_mode)
        if self.pad_if_needed and h < self.size[0]:
            img = pad(img, (0, self.size[0] - h), self.fill, self.padding_mode)
        i, j, h, w = self._get_param(img, self.size)
        return crop(img, i, j, h, w)


class Pad(BaseTransform):
    """``pad`` as a transform."""

    def __init__(self, padding, fill=0, padding_mode="constant", keys=None):
        if not isinstance(padding, (numbers.Number, list, tuple)):
            raise TypeError("Got inappropriate padding arg")
        if padding_mode not in ("constant", "edge", "reflect", "symmetric"):
            raise ValueError("Padding mode should be either constant, edge, reflect or symmetric")
        padding = tuple(padding) if isinstance(padding, list) else padding
        fill = tuple(fill) if isinstance(fill, list) else fill
        if isinstance(padding, Sequence) and len(padding) not in (2, 4):
            raise ValueError("Padding must be an int or a 2, or 4 element tuple, not a "
                             f"{len(padding)} element tuple")
        super().__init__(keys)
        self.padding, self.fill, self.padding_mode = padding, fill, padding_mode

    def _apply_image(self, img):
        return pad(img, self.padding, self.fill, self.padding_mode)


def _angle_range(x, name, sizes=(2,)):
    if isinstance(x, numbers.Number):
        if x < 0:
            raise ValueError(f"If {name} is a single number, it must be positive.")
        x = [-x, x]
    elif not isinstance(x, Sequence) or len(x) not in sizes:
        raise ValueError(f"{name} should be a sequence of length {' or '.join(map(str, sizes))}.")
    return [float(d) for d in x]


class RandomAffine(BaseTransform):
    """``affine`` with angle, translation, scale and shear drawn from ``random.uniform``."""

    def __init__(self, degrees, translate=None, scale=None, shear=None,
                 interpolation="nearest", fill=0, center=None, keys=None):
        self.degrees = _angle_range(degrees, "degrees")
        super().__init__(keys)
        if interpolation not in ("nearest", "bilinear", "bicubic"):
            raise ValueError("interpolation should be nearest, bilinear or bicubic")
        self.interpolation = interpolation
        if translate is not None:
            if len(translate) != 2 or not all(0.0 <= t <= 1.0 for t in translate):
                raise ValueError("translation values should be between 0 and 1")
        self.translate = translate
        if scale is not None:
            if len(scale) != 2 or not all(s > 0 for s in scale):
                raise ValueError("scale values should be positive")
        self.scale = scale
        self.shear = None if shear is None else _angle_range(shear, "shear", (2, 4))
        self.fill = 0 if fill is None else fill
        self.center = center

    def _get_param(self, img_size, degrees, translate=None, scale_ranges=None, shears=None):
        angle = random.uniform(degrees[0], degrees[1])
        if translate is not None:
            max_dx = float(translate[0] * img_size[0])
            max_dy = float(translate[1] * img_size[1])
            tr = (int(random.uniform(-max_dx, max_dx)), int(random.uniform(-max_dy, max_dy)))
        else:
            tr = (0, 0)
        sc = 1.0 if scale_ranges is None else random.uniform(scale_ranges[0], scale_ranges[1])
        sh_x = sh_y = 0.0
        if shears is not None:
            sh_x = random.uniform(shears[0], shears[1])
            if len(shears) == 4:
                sh_y = random.uniform(shears[2], shears[3])
        return angle, tr, sc, (sh_x, sh_y)

    def _apply_image(self, img):
        w, h = _image_size(img)
        angle, tr, sc, sh = self._get_param([w, h], self.degrees, self.translate,
                                            self.scale, self.shear)
        return affine(img, angle, list(tr), sc, list(sh), interpolation=self.interpolation,
                      fill=self.fill, center=self.center)


class RandomRotation(BaseTransform):
    """``rotate`` by an angle drawn from ``random.uniform(*degrees)``."""

    def __init__(self, degrees, interpolation="nearest", expand=False, center=None, fill=0,
                 keys=None):
        if isinstance(degrees, numbers.Number):
            if degrees < 0:
                raise ValueError("If degrees is a single number, it must be positive.")
            self.degrees = (-degrees, degrees)
        else:
            if len(degrees) != 2:
                raise ValueError("If degrees is a sequence, it must be of len 2.")
            self.degrees = degrees
        super().__init__(keys)
        self.interpolation, self.expand = interpolation, expand
        self.center, self.fill = center, fill

    def _get_param(self, degrees):
        return random.uniform(degrees[0], degrees[1])

    def _apply_image(self, img):
        return rotate(img, self._get_param(self.degrees), self.interpolation, self.expand,
                      self.center, self.fill)


class RandomPerspective(BaseTransform):
    """``perspective`` with corners moved at random, when ``random.random() < prob``."""

    def __init__(self, prob=0.5, distortion_scale=0.5, interpolation="nearest", fill=0,
                 keys=None):
        super().__init__(keys)
        if not 0 <= prob <= 1:
            raise ValueError("probability must be between 0 and 1")
        if not 0 <= distortion_scale <= 1:
            raise ValueError("distortion_scale must be between 0 and 1")
        if interpolation not in ("nearest", "bilinear", "bicubic"):
            raise ValueError("interpolation should be nearest, bilinear or bicubic")
        self.prob, self.distortion_scale = prob, distortion_scale
        self.interpolation, self.fill = interpolation, fill

    def get_params(self, width, height, distortion_scale):
        dw = int(distortion_scale * (width // 2))
        dh = int(distortion_scale * (height // 2))

        def lo(d):
            return int(random.uniform(0, d + 1))

        def hi(size, d):
            return int(random.uniform(size - d - 1, size))

        # the draw order is Paddle's: x then y for each corner, clockwise from top-left
        tl = [lo(dw), lo(dh)]
        tr = [hi(width, dw), lo(dh)]
        br = [hi(width, dw), hi(height, dh)]
        bl = [lo(dw), hi(height, dh)]
        start = [[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]]
        return start, [tl, tr, br, bl]

    def _apply_image(self, img):
        width, height = _image_size(img)
        if random.random() < self.prob:
            s, e = self.get_params(width, height, self.distortion_scale)
            return perspective(img, s, e, self.interpolation, self.fill)
        return img


class Grayscale(BaseTransform):
    """``to_grayscale`` as a transform."""

    def __init__(self, num_output_channels=1, keys=None):
        super().__init__(keys)
        self.num_output_channels = num_output_channels

    def _apply_image(self, img):
        return to_grayscale(img, self.num_output_channels)


class RandomErasing(BaseTransform):
    """Erase a random box (area ``scale``, aspect ``ratio``, from numpy.random) with ``value``
    (a number, a per-channel sequence, or ``'random'`` for normal noise)."""

    def __init__(self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False,
                 keys=None):
        super().__init__(keys)
        if not isinstance(scale, (tuple, list)) or not (0 <= scale[0] <= scale[1] <= 1):
            raise ValueError("scale should be of kind (min, max) and in range [0, 1]")
        if not isinstance(ratio, (tuple, list)) or not (0 <= ratio[0] <= ratio[1]):
            raise ValueError("ratio should be of kind (min, max)")
        if not 0 <= prob <= 1:
            raise ValueError("The probability should be in range [0, 1]")
        if not isinstance(value, (numbers.Number, str, tuple, list)):
            raise TypeError("value should be a number, tuple, list or str")
        if isinstance(value, str) and value != "random":
            raise ValueError("value must be 'random' when type is str")
        self.prob, self.scale, self.ratio = prob, scale, ratio
        self.value, self.inplace = value, inplace

    def _get_param(self, img, scale, ratio, value):
        if _is_tensor(img):
            c, h, w = img.shape[-3], img.shape[-2], img.shape[-1]
        else:
            shape = np.asarray(img).shape
            h, w, c = shape[-3], shape[-2], shape[-1]
        area = h * w
        log_ratio = np.log(ratio)
        for _ in range(10):
            erase_area = np.random.uniform(*scale) * area
            aspect = np.exp(np.random.uniform(*log_ratio))
            eh = int(round(np.sqrt(erase_area * aspect)))
            ew = int(round(np.sqrt(erase_area / aspect)))
            if eh >= h or ew >= w:
                continue
            if _is_tensor(img):
                if value is None:
                    v = wrap(torch.randn(c, eh, ew).to(img._t.dtype))
                else:
                    v = wrap(torch.as_tensor(np.asarray(value)).to(img._t.dtype)[:, None, None])
            elif value is None:
                v = np.random.normal(size=[eh, ew, c]) * 255
            else:
                v = np.array(value)[None, None, :]
            top = np.random.randint(0, h - eh + 1)
            left = np.random.randint(0, w - ew + 1)
            return top, left, eh, ew, v
        return 0, 0, h, w, img

    def _apply_image(self, img):
        if random.random() >= self.prob:
            return img
        if isinstance(self.value, numbers.Number):
            value = [self.value]
        elif isinstance(self.value, str):
            value = None
        else:
            value = self.value
        if value is not None and len(value) not in (1, 3):
            raise ValueError("Value should be a single number or a sequence with length equals "
                             "to image's channel.")
        top, left, eh, ew, v = self._get_param(img, self.scale, self.ratio, value)
        return erase(img, top, left, eh, ew, v, self.inplace)
