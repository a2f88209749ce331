"""``Conll05st``: the CoNLL-2005 semantic-role-labelling test set (``conll05st-tests.tar.gz``:
the gzip'd WSJ words and props columns) with its word, verb and label dictionaries."""
import gzip
import tarfile

import numpy as np

from ...io import Dataset
from ._common import check_exists_and_download

__all__ = ["Conll05st"]

DATA_URL = "http://paddlemodels.bj.bcebos.com/conll05st/conll05st-tests.tar.gz"
DATA_MD5 = "387719152ae52d60422c016e92a742fc"
WORDDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FwordDict.txt"
WORDDICT_MD5 = "ea7fb7d4c75cc6254716f0177a506baa"
VERBDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FverbDict.txt"
VERBDICT_MD5 = "0d2977293bbb6cbefab5b0f97db1e77c"
TRGDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FtargetDict.txt"
TRGDICT_MD5 = "d8c7f03ceb5fc2e5a0fa7503a4353751"
EMB_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2Femb"
EMB_MD5 = "bf436eb0faa1f6f9103017f8be57cdb7"
UNK_IDX = 0

_WORDS = "conll05st-release/test.wsj/words/test.wsj.words.gz"
_PROPS = "conll05st-release/test.wsj/props/test.wsj.props.gz"


def _bio(column):
    """The B-/I-/O tags of one predicate's bracketed props column."""
    tags, tag, inside = [], "O", False
    for cell in column:
        if cell == "*":
            tags.append("I-" + tag if inside else "O")
        elif cell == "*)":
            tags.append("I-" + tag)
            inside = False
        elif "(" in cell:
            tag = cell[1:cell.find("*")]
            tags.append("B-" + tag)
            inside = ")" not in cell
        else:
            raise RuntimeError(f"Unexpected label: {cell}")
    return tags


class Conll05st(Dataset):
    """One sample per (sentence, predicate): ``dataset[i]`` is nine int arrays of the
    sentence's length -- word ids, the ids of the words two and one before the predicate, of
    the predicate, one and two after it (each repeated; 'bos'/'eos' past the ends), the
    predicate's verb id, the 0/1 mark of that five-word window, and the label ids.

    Dictionaries: ``word_dict`` and ``predicate_dict`` number the lines of their files;
    ``label_dict`` gives each tag of the target file a B- and an I- id and 'O' the last id.
    (Paddle numbers the tags in Python set order, which changes from run to run; here they
    are numbered in sorted order.)

    Args:
        data_file, word_dict_file, verb_dict_file, target_dict_file, emb_file (str,
            optional): the files; None (and ``download``) takes each from
            ``~/.cache/paddle/dataset/conll05st`` (nothing is downloaded: a missing file
            raises RuntimeError saying where to put it).
        download (bool): allow the cache look-ups.
    """

    def __init__(self, data_file=None, word_dict_file=None, verb_dict_file=None,
                 target_dict_file=None, emb_file=None, download=True):
        files = {}
        for attr, given, url, md5 in (
                ("data_file", data_file, DATA_URL, DATA_MD5),
                ("word_dict_file", word_dict_file, WORDDICT_URL, WORDDICT_MD5),
                ("verb_dict_file", verb_dict_file, VERBDICT_URL, VERBDICT_MD5),
                ("target_dict_file", target_dict_file, TRGDICT_URL, TRGDICT_MD5),
                ("emb_file", emb_file, EMB_URL, EMB_MD5)):
            if given is None:
                assert download, \
                    f"{attr} is not set and downloading automatically is disabled"
                given = check_exists_and_download(given, url, md5, "conll05st", download)
            files[attr] = given
            setattr(self, attr, given)
        self.word_dict = self._load_dict(self.word_dict_file)
        self.predicate_dict = self._load_dict(self.verb_dict_file)
        self.label_dict = self._load_label_dict(self.target_dict_file)
        self._load_anno()

    def _load_label_dict(self, filename):
        tags = set()
        with open(filename) as f:
            for line in f:
                line = line.strip()
                if line.startswith(("B-", "I-")):
                    tags.add(line[2:])
        d = {}
        for tag in sorted(tags):
            d["B-" + tag] = len(d)
            d["I-" + tag] = len(d)
        d["O"] = len(d)
        return d

    def _load_dict(self, filename):
        with open(filename) as f:
            return {line.strip(): i for i, line in enumerate(f)}

    def _load_anno(self):
        self.sentences, self.predicates, self.labels = [], [], []
        with tarfile.open(self.data_file) as tar, \
                gzip.GzipFile(fileobj=tar.extractfile(_WORDS)) as words, \
                gzip.GzipFile(fileobj=tar.extractfile(_PROPS)) as props:
            sentence, rows = [], []
            for word, prop in zip(words, props):
                word = word.strip().decode()
                cells = prop.strip().decode().split()
                if cells:
                    sentence.append(word)
                    rows.append(cells)
                    continue
                # a blank line ends the sentence: column 0 holds the verbs, then one
                # bracketed column per verb
                columns = [[r[i] for r in rows] for i in range(len(rows[0]))]
                verbs = [v for v in columns[0] if v != "-"]
                for k, column in enumerate(columns[1:]):
                    self.sentences.append(sentence)
                    self.predicates.append(verbs[k])
                    self.labels.append(_bio(column))
                sentence, rows = [], []

    def __getitem__(self, idx):
        sentence, predicate, labels = self.sentences[idx], self.predicates[idx], self.labels[idx]
        n = len(sentence)
        v = labels.index("B-V")
        mark = [0] * len(labels)

        def around(offset, edge):
            k = v + offset
            if 0 <= k < len(labels):
                mark[k] = 1
                return sentence[k]
            return edge

        ctx_n1, ctx_n2 = around(-1, "bos"), around(-2, "bos")
        mark[v] = 1
        ctx_0 = sentence[v]
        ctx_p1, ctx_p2 = around(1, "eos"), around(2, "eos")
        wid = self.word_dict.get
        return (np.array([wid(w, UNK_IDX) for w in sentence]),
                np.array([wid(ctx_n2, UNK_IDX)] * n), np.array([wid(ctx_n1, UNK_IDX)] * n),
                np.array([wid(ctx_0, UNK_IDX)] * n), np.array([wid(ctx_p1, UNK_IDX)] * n),
                np.array([wid(ctx_p2, UNK_IDX)] * n),
                np.array([self.predicate_dict.get(predicate)] * n), np.array(mark),
                np.array([self.label_dict.get(t) for t in labels]))

    def __len__(self):
        return len(self.sentences)

    def get_dict(self):
        """(word_dict, predicate_dict, label_dict)."""
        return self.word_dict, self.predicate_dict, self.label_dict

    def get_embedding(self):
        """The path of the word-embedding file."""
        return self.emb_file
