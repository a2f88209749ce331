"""``paddle.vision.image``: which library loads images (``set_image_backend`` /
``get_image_backend``) and ``image_load``.

The backend is one process-wide name: ``'pil'`` (the default: PIL images), ``'cv2'`` (numpy
arrays as OpenCV reads them, BGR) or ``'tensor'`` (accepted, as in Paddle, but ``image_load``
then loads nothing and returns None). The folder datasets and the image-set datasets read it
when they are built without an explicit ``backend``.

    >>> import paddle_compat as paddle
    >>> paddle.vision.get_image_backend()
    'pil'
    >>> paddle.vision.set_image_backend('cv2')
    >>> paddle.vision.get_image_backend()
    'cv2'
    >>> paddle.vision.set_image_backend('pil')
"""
import importlib

__all__ = ["set_image_backend", "get_image_backend", "image_load"]

_BACKENDS = ("pil", "cv2", "tensor")
_image_backend = "pil"


def _check(backend):
    if backend not in _BACKENDS:
        raise ValueError(f"Expected backend are one of {list(_BACKENDS)}, but got {backend}")


def _module(name, package):
    try:
        return importlib.import_module(name)
    except ImportError:
        raise ImportError(f"paddle.vision needs {name} for this image backend: "
                          f"pip install {package}") from None


def set_image_backend(backend):
    """Make ``backend`` ('pil', 'cv2' or 'tensor') the default image backend."""
    global _image_backend
    _check(backend)
    _image_backend = backend


def get_image_backend():
    """The default image backend's name."""
    return _image_backend


def image_load(path, backend=None):
    """Open the image file at ``path``: a PIL image (backend 'pil', opened lazily as
    ``PIL.Image.open`` does), a BGR uint8 numpy array (backend 'cv2', ``cv2.imread``: None
    for a file OpenCV cannot read), or None (backend 'tensor'). ``backend`` defaults to
    ``get_image_backend()``."""
    if backend is None:
        backend = _image_backend
    _check(backend)
    if backend == "pil":
        return _module("PIL.Image", "pillow").open(path)
    if backend == "cv2":
        return _module("cv2", "opencv-python-headless").imread(path)
    return None
