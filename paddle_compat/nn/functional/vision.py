"""Vision ops of ``paddle.nn.functional``: ``pixel_shuffle``/``pixel_unshuffle``,
``channel_shuffle``, ``grid_sample`` and ``affine_grid`` (torch's kernels; channel-last
layouts as permuted views; Paddle's ``align_corners`` defaults to True)."""
import torch

from ...framework.tensor import Tensor, wrap
from ...ops.common import at_run_time, not_tensor, static_payload
from .conv import channel_first, channel_last_of

__all__ = ["pixel_shuffle", "pixel_unshuffle", "channel_shuffle", "grid_sample", "affine_grid"]


def _layout(x, data_format, api):
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError("Attr(data_format) should be 'NCHW' or 'NHWC'.But receive "
                         f"Attr(data_format): {data_format} ")
    t = x._t
    if t.dim() != 4:
        raise ValueError(f"Input x should be 4D tensor, but received x with the shape of "
                         f"{list(t.shape)}")
    return channel_first(t, data_format == "NHWC"), data_format == "NHWC"


def check_factor(value, what, positive=True):
    """Paddle's checks of a shuffle's factor: an int (TypeError ``{what} must be int type``),
    and positive (ValueError), unless ``positive`` is False (pixel_shuffle checks 0 only)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{what} must be int type")
    if positive and value <= 0:
        raise ValueError(f"{what} must be positive")


def pixel_shuffle(x, upscale_factor, data_format="NCHW", name=None):
    """[N, C*r*r, H, W] -> [N, C, H*r, W*r]."""
    check_factor(upscale_factor, "upscale factor", positive=False)
    if upscale_factor == 0:
        raise ValueError("(InvalidArgument) upscale_factor should not be 0.")
    t, cl = _layout(x, data_format, "pixel_shuffle")
    if t.shape[1] % (upscale_factor * upscale_factor):
        raise ValueError(f"(InvalidArgument) The square of upscale_factor[{upscale_factor}] "
                         f"should divide the number of channel[{t.shape[1]}]")
    return wrap(channel_last_of(torch.pixel_shuffle(t, upscale_factor), cl))


def pixel_unshuffle(x, downscale_factor, data_format="NCHW", name=None):
    """[N, C, H*r, W*r] -> [N, C*r*r, H, W]."""
    check_factor(downscale_factor, "Downscale factor")
    t, cl = _layout(x, data_format, "pixel_unshuffle")
    return wrap(channel_last_of(torch.pixel_unshuffle(t, downscale_factor), cl))


def channel_shuffle(x, groups, data_format="NCHW", name=None):
    """Interleave the channels of ``groups`` groups: [g, c/g] -> [c/g, g]."""
    check_factor(groups, "groups")
    t, cl = _layout(x, data_format, "channel_shuffle")
    n, c, h, w = t.shape
    out = t.reshape(n, groups, c // groups, h, w).transpose(1, 2).reshape(n, c, h, w)
    return wrap(channel_last_of(out, cl))


_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_PADS = {"zeros": 0, "border": 1, "reflection": 2}


def grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=True,
                name=None):
    """Sample x [N, C, H, W] (or 5-D) at the normalised positions ``grid`` [N, Ho, Wo, 2]."""
    if mode not in _MODES:
        raise ValueError(f"The mode of grid sample function should be in {list(_MODES)}, but "
                         f"got: {mode}")
    if padding_mode not in _PADS:
        raise ValueError(f"The padding mode of grid sample function should be in "
                         f"{list(_PADS)}, but got: {padding_mode}")
    for pos, (what, v) in enumerate((("x", x), ("grid", grid))):
        if not isinstance(v, Tensor):
            raise not_tensor("grid_sample", what, pos, v)
    return wrap(torch.grid_sampler(x._t, grid._t, _MODES[mode], _PADS[padding_mode],
                                   align_corners))


def affine_grid(theta, out_shape, align_corners=True, name=None):
    """The sampling grid [N, H, W, 2] (or 3-D) of the affine maps ``theta`` [N, 2, 3]. In a
    static program ``out_shape`` may be a Variable (or hold 0-d ones), read when it runs."""
    if static_payload(out_shape) is not None:
        spatial = theta.shape[-2]           # 2 rows: a 2-D grid; 3: a 3-D grid
        return at_run_time(_affine_grid, (theta, out_shape, align_corners),
                           [theta.shape[0]] + [-1] * spatial + [spatial], theta._t.dtype)
    return wrap(_affine_grid(theta._t, out_shape, align_corners))


def _affine_grid(theta, out_shape, align_corners):
    if isinstance(out_shape, Tensor):
        out_shape = out_shape._t
    if isinstance(out_shape, torch.Tensor):
        out_shape = out_shape.tolist()
    dims = [int(v.reshape(-1)[0]) if isinstance(v, (torch.Tensor, Tensor)) else int(v)
            for v in out_shape]
    return torch.affine_grid_generator(theta, dims, align_corners)
