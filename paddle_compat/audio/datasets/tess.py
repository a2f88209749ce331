"""TESS: the Toronto emotional speech set, 2800 utterances in seven emotions."""
import os
from typing import NamedTuple

from . import dataset as _ds

__all__ = []


class TESS(_ds.AudioClassificationDataset):
    """The TESS data set: files ``<speaker>_<word>_<emotion>.wav`` under
    ``DATA_HOME/TESS_Toronto_emotional_speech_set``, dealt round-robin into ``n_folds`` folds
    in the order the folder is walked; ``mode='dev'`` is fold ``split``, ``'train'`` the rest."""

    archive = {"url": "https://bj.bcebos.com/paddleaudio/datasets/"
                      "TESS_Toronto_emotional_speech_set.zip",
               "md5": "1465311b24d1de704c4c63e4ccc470c7"}
    label_list = ["angry", "disgust", "fear", "happy", "neutral", "ps", "sad"]
    audio_path = "TESS_Toronto_emotional_speech_set"

    class meta_info(NamedTuple):
        speaker: str
        word: str
        emotion: str

    def __init__(self, mode="train", n_folds=5, split=1, feat_type="raw", archive=None,
                 **kwargs):
        assert isinstance(n_folds, int) and n_folds >= 1, \
            f"the n_folds should be integer and n_folds >= 1, but got {n_folds}"
        assert split in range(1, n_folds + 1), ("The selected split should be integer and "
                                                f"should be 1 <= split <= {n_folds}, but got "
                                                f"{split}")
        if archive is not None:
            self.archive = archive
        files, labels = self._get_data(mode, n_folds, split)
        super().__init__(files=files, labels=labels, feat_type=feat_type, **kwargs)

    def _get_meta_info(self, files):
        return [self.meta_info(*os.path.basename(f)[:-4].split("_")) for f in files]

    def _get_data(self, mode, n_folds, split):
        root = os.path.join(_ds.data_home(), self.audio_path)
        if not os.path.isdir(root):
            _ds.ensure_local(self.audio_path, self.archive, "The TESS data set")
        wavs = [os.path.join(d, f) for d, _, names in os.walk(root) for f in names
                if f.endswith(".wav")]
        files, labels = [], []
        for i, sample in enumerate(self._get_meta_info(wavs)):
            if (i % n_folds + 1 != split) == (mode == "train"):
                files.append(wavs[i])
                labels.append(self.label_list.index(sample.emotion))
        return files, labels
