"""``Imikolov``: the Penn Treebank language-model set of ``simple-examples.tgz``
(``./simple-examples/data/ptb.{train,valid,test}.txt``), as n-grams or sequences of word ids."""
import collections
import tarfile

import numpy as np

from ...io import Dataset
from ._common import check_exists_and_download

__all__ = ["Imikolov"]

URL = "https://dataset.bj.bcebos.com/imikolov%2Fsimple-examples.tgz"
MD5 = "30177ea32e27c525793142b6bf2c8e2d"


class Imikolov(Dataset):
    """Word ids of the PTB sentences.

    The vocabulary (``word_idx``) counts the words of ``ptb.train.txt`` and ``ptb.valid.txt``
    plus one ``'<s>'`` and one ``'<e>'`` per line, drops ``'<unk>'``, keeps the words seen
    more than ``min_word_freq`` times by falling count then word, and gives ``'<unk>'`` the
    last id. Words are bytes, the marks ``'<s>'``/``'<e>'``/``'<unk>'`` str (as in Paddle).

    ``data_type='NGRAM'``: every window of ``window_size`` ids of ``<s> line <e>``;
    ``dataset[i]`` is a tuple of ``window_size`` 0-d arrays. ``'SEQ'``: ``dataset[i]`` is
    ``(ids of <s> line, ids of line <e>)``, lines longer than ``window_size`` (when > 0)
    skipped.

    Args:
        data_file (str, optional): ``simple-examples.tgz``; None (and ``download``) takes it
            from ``~/.cache/paddle/dataset/imikolov`` (nothing is downloaded: a missing file
            raises RuntimeError saying where to put it).
        data_type (str): 'NGRAM' or 'SEQ'.
        window_size (int): the n of the n-grams (required for 'NGRAM'); the longest source
            sequence for 'SEQ' (-1: no limit).
        mode (str): 'train' or 'test' (``ptb.test.txt``).
        min_word_freq (int): minimum count (exclusive) for a word to get its own id.
        download (bool): allow the cache look-up when ``data_file`` is None.
    """

    def __init__(self, data_file=None, data_type="NGRAM", window_size=-1, mode="train",
                 min_word_freq=50, download=True):
        assert data_type.upper() in ["NGRAM", "SEQ"], \
            f"data type should be 'NGRAM', 'SEQ', but got {data_type}"
        self.data_type = data_type.upper()
        assert mode.lower() in ["train", "test"], \
            f"mode should be 'train', 'test', but got {mode}"
        self.mode = mode.lower()
        self.window_size = window_size
        self.min_word_freq = min_word_freq
        self.data_file = data_file
        if self.data_file is None:
            assert download, "data_file is not set and downloading automatically disabled"
            self.data_file = check_exists_and_download(data_file, URL, MD5, "imikolov",
                                                       download)
        self.word_idx = self._build_work_dict(min_word_freq)
        self._load_anno()

    def word_count(self, f, word_freq=None):
        """Add the words of the lines of ``f`` (and one '<s>', '<e>' per line) to the
        counts."""
        if word_freq is None:
            word_freq = collections.defaultdict(int)
        for line in f:
            for w in line.strip().split():
                word_freq[w] += 1
            word_freq["<s>"] += 1
            word_freq["<e>"] += 1
        return word_freq

    def _build_work_dict(self, cutoff):
        with tarfile.open(self.data_file) as tar:
            freq = self.word_count(tar.extractfile("./simple-examples/data/ptb.valid.txt"),
                                   self.word_count(
                                       tar.extractfile("./simple-examples/data/ptb.train.txt")))
        freq.pop("<unk>", None)
        kept = sorted((kv for kv in freq.items() if kv[1] > self.min_word_freq),
                      key=lambda kv: (-kv[1], kv[0]))
        word_idx = {w: i for i, (w, _) in enumerate(kept)}
        word_idx["<unk>"] = len(kept)
        return word_idx

    def _load_anno(self):
        self.data = []
        unk = self.word_idx["<unk>"]
        with tarfile.open(self.data_file) as tar:
            f = tar.extractfile(f"./simple-examples/data/ptb.{self.mode}.txt")
            for line in f:
                if self.data_type == "NGRAM":
                    assert self.window_size > -1, "Invalid gram length"
                    words = ["<s>", *line.strip().split(), "<e>"]
                    if len(words) >= self.window_size:
                        ids = [self.word_idx.get(w, unk) for w in words]
                        n = self.window_size
                        self.data.extend(tuple(ids[i - n:i]) for i in range(n, len(ids) + 1))
                else:
                    ids = [self.word_idx.get(w, unk) for w in line.strip().split()]
                    src = [self.word_idx["<s>"], *ids]
                    trg = [*ids, self.word_idx["<e>"]]
                    if self.window_size > 0 and len(src) > self.window_size:
                        continue
                    self.data.append((src, trg))

    def __getitem__(self, idx):
        return tuple(np.array(d) for d in self.data[idx])

    def __len__(self):
        return len(self.data)
