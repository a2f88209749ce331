"""``paddle.incubate.nn.FusedDropout``: ``paddle.nn.Dropout`` (Paddle fuses it into one kernel
on GPU; the values are the same)."""
from ...nn.layer.common import Dropout

__all__ = ["FusedDropout"]


class FusedDropout(Dropout):
    """Dropout with Paddle's arguments ``(p, axis, mode)``; see ``paddle.nn.Dropout``."""

    def __init__(self, p=0.5, axis=None, mode="upscale_in_train", name=None):
        if not isinstance(p, (float, int)):
            raise TypeError("p argument should be a number")
        if not 0 <= p <= 1:
            raise ValueError("p argument should between 0 and 1")
        # Paddle 3.3.1 renames the documented 'downscale_in_infer' and then rejects it; the
        # documented spelling (and the renamed one) are taken here
        mode = "downscale_in_infer" if mode == "downgrade_in_infer" else mode
        if mode not in ("downscale_in_infer", "upscale_in_train"):
            raise ValueError("mode argument should be 'downscale_in_infer' or "
                             "'upscale_in_train'")
        super().__init__(p=p, axis=axis, mode=mode, name=name)
