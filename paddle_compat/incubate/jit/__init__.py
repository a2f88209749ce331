"""``paddle.incubate.jit``: the ``inference`` decorator and ``is_inference_mode`` (kept in
``incubate.misc``, where ``paddle.incubate.inference`` is)."""
from ..misc import inference, is_inference_mode

__all__ = []
