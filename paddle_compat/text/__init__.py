"""``paddle.text``: the text datasets (read from local files in Paddle's formats) and Viterbi
decoding of linear-chain CRFs."""
from . import datasets
from .datasets import WMT14, WMT16, Conll05st, Imdb, Imikolov, Movielens, UCIHousing
from .viterbi_decode import ViterbiDecoder, viterbi_decode

__all__ = ["Conll05st", "Imdb", "Imikolov", "Movielens", "UCIHousing", "WMT14", "WMT16",
           "ViterbiDecoder", "viterbi_decode"]
