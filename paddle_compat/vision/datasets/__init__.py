"""``paddle.vision.datasets``: folder datasets and the classic image sets read from local files
in Paddle's formats (nothing is downloaded: a dataset built without its file looks in Paddle's
cache folder ``~/.cache/paddle/dataset`` and says where to put the file when it is missing)."""
from .cifar import Cifar10, Cifar100
from .flowers import Flowers
from .folder import DatasetFolder, ImageFolder
from .mnist import MNIST, FashionMNIST
from .voc2012 import VOC2012

__all__ = ["DatasetFolder", "ImageFolder", "MNIST", "FashionMNIST", "Flowers", "Cifar10",
           "Cifar100", "VOC2012"]
