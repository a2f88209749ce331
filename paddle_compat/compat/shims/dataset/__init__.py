"""``paddle.dataset``: Paddle 1.x's dataset package. Only its ``common`` helpers are here (the
md5 of a file, the cache folder, the cached-file lookup), which PaddleNLP and PaddleSpeech
import at module top; the 1.x readers (``paddle.dataset.mnist`` ...) are replaced by
``paddle.vision.datasets`` / ``paddle.text.datasets``."""
from . import common

__all__ = ["common"]
