"""The audio classification dataset both ESC50 and TESS build on."""
import os

import torch

from ...framework.tensor import wrap
from ...io import Dataset
from ...utils.download import get_path_from_url
from ..backends import load
from ..features import MFCC, LogMelSpectrogram, MelSpectrogram, Spectrogram

#: Paddle's folder for data sets (``paddle.dataset.common.DATA_HOME``)
DATA_HOME = os.path.expanduser(os.path.join("~", ".cache", "paddle", "dataset"))

_FEATURES = {"raw": None, "melspectrogram": MelSpectrogram, "mfcc": MFCC,
             "logmelspectrogram": LogMelSpectrogram, "spectrogram": Spectrogram}


def data_home():
    """Where the data sets are looked for (this module's ``DATA_HOME``, read at each call)."""
    return DATA_HOME


def ensure_local(folder, archive, what):
    """Make sure ``folder`` (under DATA_HOME) exists: unpack ``archive``'s file from DATA_HOME
    where it is there, or raise RuntimeError saying where to put what."""
    home = data_home()
    if os.path.isdir(os.path.join(home, folder)):
        return
    try:
        get_path_from_url(archive["url"], home, archive.get("md5"), decompress=True)
    except RuntimeError as e:
        raise RuntimeError(
            f"{what} is not on this machine and paddle_compat does not download data: put the "
            f"unpacked data set at {os.path.join(home, folder)}, or the archive "
            f"{archive['url']} into {home} (it is unpacked there). [{e}]") from None


class AudioClassificationDataset(Dataset):
    """Audio files and their labels; an item is ``(feature, label)``, the feature being the
    mono waveform (``feat_type='raw'``) or one of ``paddle.audio.features`` computed from it
    with ``**kwargs`` (and the file's sample rate as ``sr``)."""

    def __init__(self, files, labels, feat_type="raw", sample_rate=None, **kwargs):
        super().__init__()
        if feat_type not in _FEATURES:
            raise RuntimeError(f"Unknown feat_type: {feat_type}, it must be one in "
                               f"{list(_FEATURES)}")
        self.files = files
        self.labels = labels
        self.feat_type = feat_type
        self.sample_rate = sample_rate
        self.feat_config = kwargs

    def _convert_to_record(self, idx):
        waveform, self.sample_rate = load(self.files[idx])
        w = waveform._t
        if w.dim() == 2:
            w = w[0] if w.shape[0] == 1 else w
        w = w.to(torch.float32)
        make = _FEATURES[self.feat_type]
        if make is None:
            feat = wrap(w)
        else:
            extractor = (make(**self.feat_config) if self.feat_type == "spectrogram"
                         else make(sr=self.sample_rate, **self.feat_config))
            feat = wrap(extractor(wrap(w[None]))._t[0])
        return {"feat": feat, "label": self.labels[idx]}

    def __getitem__(self, idx):
        record = self._convert_to_record(idx)
        return record["feat"], record["label"]

    def __len__(self):
        return len(self.files)
