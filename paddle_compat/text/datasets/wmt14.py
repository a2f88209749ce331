"""``WMT14``: Paddle's English-French subset of WMT'14 (``wmt14.tgz``: ``src.dict``,
``trg.dict`` and ``train/train``, ``test/test``, ``gen/gen`` tab-separated pairs)."""
import tarfile

import numpy as np

from ...io import Dataset
from ._common import check_exists_and_download

__all__ = ["WMT14"]

URL_DEV_TEST = "http://www-lium.univ-lemans.fr/~schwenk/cslm_joint_paper/data/dev+test.tgz"
MD5_DEV_TEST = "7d7897317ddd8ba0ae5c5fa7248d3ff5"
URL_TRAIN = "http://paddlemodels.bj.bcebos.com/wmt/wmt14.tgz"
MD5_TRAIN = "0791583d57d5beb693b9414c5b36798c"
START = "<s>"
END = "<e>"
UNK = "<unk>"
UNK_IDX = 2


def _read_dict(f, size):
    out = {}
    for i, line in enumerate(f):
        if i >= size:
            break
        out[line.strip().decode()] = i
    return out


class WMT14(Dataset):
    """``dataset[i]`` is ``(source ids, target ids, next target ids)``: the source wrapped in
    ``<s> ... <e>``, the target after ``<s>``, and the target followed by ``<e>``; pairs with
    more than 80 source ids (marks included) or target words are skipped, as are lines
    without exactly one tab. Dictionaries: the first ``dict_size`` lines of ``src.dict`` /
    ``trg.dict`` (unknown words get id 2).

    Args:
        data_file (str, optional): ``wmt14.tgz``; None (and ``download``) takes it from
            ``~/.cache/paddle/dataset/wmt14`` (nothing is downloaded: a missing file raises
            RuntimeError saying where to put it).
        mode (str): 'train', 'test' or 'gen'.
        dict_size (int): how many dictionary lines to use (must be positive).
        download (bool): allow the cache look-up when ``data_file`` is None.
    """

    def __init__(self, data_file=None, mode="train", dict_size=-1, download=True):
        assert mode.lower() in ["train", "test", "gen"], \
            f"mode should be 'train', 'test' or 'gen', but got {mode}"
        self.mode = mode.lower()
        self.data_file = data_file
        if self.data_file is None:
            assert download, "data_file is not set and downloading automatically is disabled"
            self.data_file = check_exists_and_download(data_file, URL_TRAIN, MD5_TRAIN, "wmt14",
                                                       download)
        assert dict_size > 0, "dict_size should be set as positive number"
        self.dict_size = dict_size
        self._load_data()

    def _load_data(self):
        self.src_ids, self.trg_ids, self.trg_ids_next = [], [], []
        with tarfile.open(self.data_file, mode="r") as tar:
            names = [m.name for m in tar]
            for attr, suffix in (("src_dict", "src.dict"), ("trg_dict", "trg.dict")):
                found = [n for n in names if n.endswith(suffix)]
                assert len(found) == 1
                setattr(self, attr, _read_dict(tar.extractfile(found[0]), self.dict_size))
            wanted = f"{self.mode}/{self.mode}"
            for name in (n for n in names if n.endswith(wanted)):
                for line in tar.extractfile(name):
                    parts = line.decode().strip().split("\t")
                    if len(parts) != 2:
                        continue
                    src = [self.src_dict.get(w, UNK_IDX) for w in [START, *parts[0].split(), END]]
                    trg = [self.trg_dict.get(w, UNK_IDX) for w in parts[1].split()]
                    if len(src) > 80 or len(trg) > 80:
                        continue
                    self.src_ids.append(src)
                    self.trg_ids.append([self.trg_dict[START], *trg])
                    self.trg_ids_next.append([*trg, self.trg_dict[END]])

    def __getitem__(self, idx):
        return (np.array(self.src_ids[idx]), np.array(self.trg_ids[idx]),
                np.array(self.trg_ids_next[idx]))

    def __len__(self):
        return len(self.src_ids)

    def get_dict(self, reverse=False):
        """(source dict, target dict): word -> id, or id -> word when ``reverse``."""
        src, trg = self.src_dict, self.trg_dict
        if reverse:
            src = {v: k for k, v in src.items()}
            trg = {v: k for k, v in trg.items()}
        return src, trg
