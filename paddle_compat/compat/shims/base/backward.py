"""``paddle.base.backward``: the static graph's backward builders."""
from ....static.backward import append_backward, gradients

__all__ = ["append_backward", "gradients"]
