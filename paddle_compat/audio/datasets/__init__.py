"""``paddle.audio.datasets``: ESC-50 and TESS, read from Paddle's local data folder.

paddle_compat downloads nothing. Each dataset looks where Paddle keeps it,
``~/.cache/paddle/dataset`` (``DATA_HOME``): ESC-50 as ``ESC-50-master/meta/esc50.csv`` and
``ESC-50-master/audio/*.wav``, TESS as ``TESS_Toronto_emotional_speech_set/**/*.wav``. Where
the folder is missing but the archive Paddle would download is there
(``DATA_HOME/ESC-50-master.zip``, ``DATA_HOME/TESS_Toronto_emotional_speech_set.zip``), it is
checked against Paddle's md5 and unpacked; otherwise the error names the URL and the folder.
"""
from .dataset import AudioClassificationDataset
from .esc50 import ESC50
from .tess import TESS

__all__ = ["ESC50", "TESS"]
