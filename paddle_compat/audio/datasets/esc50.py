"""ESC-50: 2000 five-second environmental recordings in 50 classes, five folds."""
import os
from typing import NamedTuple

from . import dataset as _ds

__all__ = []


class ESC50(_ds.AudioClassificationDataset):
    """The ESC-50 data set (Piczak 2015): ``mode='train'`` gives the four folds other than
    ``split``, ``mode='dev'`` fold ``split``. Read from ``DATA_HOME/ESC-50-master`` (see
    ``paddle.audio.datasets``); ``feat_type`` and ``**kwargs`` choose the feature."""

    archive = {"url": "https://paddleaudio.bj.bcebos.com/datasets/ESC-50-master.zip",
               "md5": "7771e4b9d86d0945acce719c7a59305a"}
    label_list = [
        "Dog", "Rooster", "Pig", "Cow", "Frog", "Cat", "Hen", "Insects (flying)", "Sheep",
        "Crow", "Rain", "Sea waves", "Crackling fire", "Crickets", "Chirping birds",
        "Water drops", "Wind", "Pouring water", "Toilet flush", "Thunderstorm", "Crying baby",
        "Sneezing", "Clapping", "Breathing", "Coughing", "Footsteps", "Laughing",
        "Brushing teeth", "Snoring", "Drinking, sipping", "Door knock", "Mouse click",
        "Keyboard typing", "Door, wood creaks", "Can opening", "Washing machine",
        "Vacuum cleaner", "Clock alarm", "Clock tick", "Glass breaking", "Helicopter",
        "Chainsaw", "Siren", "Car horn", "Engine", "Train", "Church bells", "Airplane",
        "Fireworks", "Hand saw",
    ]
    meta = os.path.join("ESC-50-master", "meta", "esc50.csv")
    audio_path = os.path.join("ESC-50-master", "audio")

    class meta_info(NamedTuple):
        filename: str
        fold: str
        target: str
        category: str
        esc10: str
        src_file: str
        take: str

    def __init__(self, mode="train", split=1, feat_type="raw", archive=None, **kwargs):
        assert split in range(1, 6), ("The selected split should be integer, and 1 <= split "
                                      f"<= 5, but got {split}")
        if archive is not None:
            self.archive = archive
        files, labels = self._get_data(mode, split)
        super().__init__(files=files, labels=labels, feat_type=feat_type, **kwargs)

    def _get_meta_info(self):
        with open(os.path.join(_ds.data_home(), self.meta)) as f:
            lines = f.readlines()[1:]
        return [self.meta_info(*line.strip().split(",")) for line in lines]

    def _get_data(self, mode, split):
        home = _ds.data_home()
        if not (os.path.isdir(os.path.join(home, self.audio_path))
                and os.path.isfile(os.path.join(home, self.meta))):
            _ds.ensure_local("ESC-50-master", self.archive, "The ESC-50 data set")
        files, labels = [], []
        for sample in self._get_meta_info():
            if (int(sample.fold) != split) == (mode == "train"):
                files.append(os.path.join(home, self.audio_path, sample.filename))
                labels.append(int(sample.target))
        return files, labels
