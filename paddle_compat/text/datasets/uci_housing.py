"""``UCIHousing``: the Boston housing table (``housing.data``, 14 numbers a row), normalised
per feature and split 80/20 into 'train' and 'test', as Paddle does."""
import numpy as np

from ...framework.dtype import get_default_dtype
from ...io import Dataset
from ._common import check_exists_and_download

__all__ = ["UCIHousing"]

URL = "http://paddlemodels.bj.bcebos.com/uci_housing/housing.data"
MD5 = "d4accdce7a25600298819f8e28e8d593"
feature_names = ["CRIM", "ZN", "INDUS", "CHAS", "NOX", "RM", "AGE", "DIS", "RAD", "TAX",
                 "PTRATIO", "B", "LSTAT"]


class UCIHousing(Dataset):
    """``dataset[i]`` is ``(features [13], price [1])``, arrays of the default float dtype.
    Each feature column is centred on its mean and divided by its range (over the whole
    file); the first 80% of the rows are 'train', the rest 'test'.

    Args:
        data_file (str, optional): ``housing.data`` (whitespace-separated numbers); None (and
            ``download``) takes it from ``~/.cache/paddle/dataset/uci_housing`` (nothing is
            downloaded: a missing file raises RuntimeError saying where to put it).
        mode (str): 'train' or 'test'.
        download (bool): allow the cache look-up when ``data_file`` is None.
    """

    def __init__(self, data_file=None, mode="train", download=True):
        assert mode.lower() in ["train", "test"], \
            f"mode should be 'train' or 'test', but got {mode}"
        self.mode = mode.lower()
        self.data_file = data_file
        if self.data_file is None:
            assert download, "data_file is not set and downloading automatically is disabled"
            self.data_file = check_exists_and_download(data_file, URL, MD5, "uci_housing",
                                                       download)
        self._load_data()
        self.dtype = get_default_dtype()

    def _load_data(self, feature_num=14, ratio=0.8):
        data = np.fromfile(self.data_file, sep=" ")
        data = data.reshape(data.shape[0] // feature_num, feature_num)
        mx, mn = data.max(axis=0), data.min(axis=0)
        avg = data.sum(axis=0) / data.shape[0]
        for i in range(feature_num - 1):
            data[:, i] = (data[:, i] - avg[i]) / (mx[i] - mn[i])
        offset = int(data.shape[0] * ratio)
        self.data = data[:offset] if self.mode == "train" else data[offset:]

    def __getitem__(self, idx):
        row = self.data[idx]
        return np.array(row[:-1]).astype(self.dtype), np.array(row[-1:]).astype(self.dtype)

    def __len__(self):
        return len(self.data)
