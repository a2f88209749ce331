"""``paddle.text.datasets``: Paddle's text datasets, read from local files in Paddle's formats
(nothing is downloaded: built without its file, a dataset looks in Paddle's cache folder
``~/.cache/paddle/dataset`` and says where to put the file when it is missing)."""
from .conll05 import Conll05st
from .imdb import Imdb
from .imikolov import Imikolov
from .movielens import Movielens
from .uci_housing import UCIHousing
from .wmt14 import WMT14
from .wmt16 import WMT16

__all__ = ["Conll05st", "Imdb", "Imikolov", "Movielens", "UCIHousing", "WMT14", "WMT16"]
