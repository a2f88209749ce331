"""``paddle.vision``: the image transforms (``transforms``: numpy images through OpenCV, PIL
images through Pillow, and Tensors), the model zoo (``models``), the detection and region ops
(``ops``) and the datasets (``datasets``). As in Paddle, the zoo, most transforms and the
datasets are also reachable from here (``paddle.vision.resnet18``, ``paddle.vision.Compose``)."""
from . import datasets, models, ops, transforms
from .datasets import (MNIST, VOC2012, Cifar10, Cifar100, DatasetFolder,  # noqa: F401
                       FashionMNIST, Flowers, ImageFolder)
from .image import get_image_backend, image_load, set_image_backend
from .models import *  # noqa: F401,F403  (paddle.vision.resnet18 etc., as Paddle has them)
from .models import __all__ as _models_all
from .transforms import (BaseTransform, BrightnessTransform, CenterCrop, ColorJitter,  # noqa: F401
                         Compose, ContrastTransform, Grayscale, HueTransform, Normalize, Pad,
                         RandomCrop, RandomHorizontalFlip, RandomResizedCrop, RandomRotation,
                         RandomVerticalFlip, Resize, SaturationTransform, ToTensor, Transpose,
                         adjust_brightness, adjust_contrast, adjust_hue, center_crop, crop, hflip,
                         normalize, pad, resize, rotate, to_grayscale, to_tensor, vflip)

__all__ = ["datasets", "models", "ops", "transforms", "set_image_backend", "get_image_backend",
           "image_load"] + list(_models_all)
