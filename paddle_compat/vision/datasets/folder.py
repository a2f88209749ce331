"""``DatasetFolder`` (``root/<class>/<file>``: a sample per image, the class folder's index as
its target) and ``ImageFolder`` (every image under ``root``, no targets), as Paddle has them.

Images load with ``default_loader``: through PIL (an RGB ``PIL.Image``) when the image
backend is ``'pil'`` (the default), through OpenCV (an RGB uint8 ``HxWx3`` array) when it is
``'cv2'`` -- see ``paddle.vision.set_image_backend``.

One deliberate difference: Paddle ignores ``is_valid_file`` (its default ``extensions`` always
replaces it); here, as Paddle's documentation says, ``is_valid_file`` decides which files are
samples when ``extensions`` is not given.
"""
import os

from ...framework.dtype import get_default_dtype
from ...io import Dataset
from .. import image as _image

__all__ = ["DatasetFolder", "ImageFolder", "IMG_EXTENSIONS", "default_loader", "pil_loader",
           "cv2_loader", "has_valid_extension", "make_dataset"]

IMG_EXTENSIONS = ('.jpg', '.jpeg', '.png', '.ppm', '.bmp', '.pgm', '.tif', '.tiff', '.webp')


def has_valid_extension(filename, extensions):
    """Whether ``filename`` ends with one of ``extensions`` (a list or tuple; any case)."""
    assert isinstance(extensions, (list, tuple)), "`extensions` must be list or tuple."
    return filename.lower().endswith(tuple(e.lower() for e in extensions))


def _validator(extensions, is_valid_file):
    if extensions is not None or is_valid_file is None:
        exts = IMG_EXTENSIONS if extensions is None else extensions
        return lambda path: has_valid_extension(path, exts)
    return is_valid_file


def _files_under(top, valid):
    """The valid files under ``top``, walking folders (links followed) and names sorted."""
    found = []
    for folder, _, names in sorted(os.walk(top, followlinks=True)):
        for name in sorted(names):
            path = os.path.join(folder, name)
            if valid(path):
                found.append(path)
    return found


def make_dataset(dir, class_to_idx, extensions, is_valid_file=None):
    """[(path, class index)] of the valid files in each class folder, classes in sorted
    order."""
    dir = os.path.expanduser(dir)
    valid = _validator(extensions, is_valid_file)
    samples = []
    for cls in sorted(class_to_idx):
        folder = os.path.join(dir, cls)
        if os.path.isdir(folder):
            samples.extend((p, class_to_idx[cls]) for p in _files_under(folder, valid))
    return samples


def pil_loader(path):
    """The image at ``path`` as an RGB PIL image."""
    Image = _image._module("PIL.Image", "pillow")
    with open(path, "rb") as f:
        return Image.open(f).convert("RGB")


def cv2_loader(path):
    """The image at ``path`` as an RGB uint8 array (OpenCV reads BGR; converted)."""
    cv2 = _image._module("cv2", "opencv-python-headless")
    return cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB)


def default_loader(path):
    """``cv2_loader`` when the image backend is 'cv2', else ``pil_loader``."""
    if _image.get_image_backend() == "cv2":
        return cv2_loader(path)
    return pil_loader(path)


class DatasetFolder(Dataset):
    """Samples from class folders::

        root/cat/a.png      -> (loader('root/cat/a.png'), 0)
        root/dog/x/b.jpg    -> (loader('root/dog/x/b.jpg'), 1)

    ``classes`` are the sub-folder names of ``root`` sorted, ``class_to_idx`` maps them to
    0, 1, ...; ``samples`` is [(path, class index)] (files sorted within each class, nested
    folders included), ``targets`` the class indices. ``dataset[i]`` is
    ``(transform(loader(path)), class index)``. A ``root`` without any valid file raises
    RuntimeError.

    Args:
        root (str): the folder of class folders.
        loader (callable, optional): path -> sample; ``default_loader`` if None.
        extensions (list|tuple, optional): file endings that make a sample; Paddle's image
            extensions (``IMG_EXTENSIONS``) if None and ``is_valid_file`` is None.
        transform (callable, optional): applied to each loaded sample.
        is_valid_file (callable, optional): path -> bool, used when ``extensions`` is None.
    """

    def __init__(self, root, loader=None, extensions=None, transform=None, is_valid_file=None):
        self.root = root
        self.transform = transform
        if extensions is None and is_valid_file is None:
            extensions = IMG_EXTENSIONS
        classes, class_to_idx = self._find_classes(self.root)
        samples = make_dataset(self.root, class_to_idx, extensions, is_valid_file)
        if not samples:
            shown = ",".join(extensions) if extensions is not None else "(is_valid_file)"
            raise RuntimeError(f"Found 0 directories in subfolders of: {self.root}\n"
                               f"Supported extensions are: {shown}")
        self.loader = default_loader if loader is None else loader
        self.extensions = extensions
        self.classes = classes
        self.class_to_idx = class_to_idx
        self.samples = samples
        self.targets = [s[1] for s in samples]
        self.dtype = get_default_dtype()

    def _find_classes(self, dir):
        """(sorted sub-folder names of ``dir``, {name: index})."""
        classes = sorted(e.name for e in os.scandir(dir) if e.is_dir())
        return classes, {c: i for i, c in enumerate(classes)}

    def __getitem__(self, index):
        path, target = self.samples[index]
        sample = self.loader(path)
        if self.transform is not None:
            sample = self.transform(sample)
        return sample, target

    def __len__(self):
        return len(self.samples)


class ImageFolder(Dataset):
    """Every valid image under ``root`` (walked recursively, sorted), without labels:
    ``dataset[i]`` is ``[transform(loader(path))]`` (a one-element list, as in Paddle).
    Arguments as ``DatasetFolder``'s; a ``root`` without any valid file raises RuntimeError.
    """

    def __init__(self, root, loader=None, extensions=None, transform=None, is_valid_file=None):
        self.root = root
        valid = _validator(extensions, is_valid_file)
        if extensions is None and is_valid_file is None:
            extensions = IMG_EXTENSIONS
        samples = _files_under(os.path.expanduser(root), valid)
        if not samples:
            shown = ",".join(extensions) if extensions is not None else "(is_valid_file)"
            raise RuntimeError(f"Found 0 files in subfolders of: {self.root}\n"
                               f"Supported extensions are: {shown}")
        self.loader = default_loader if loader is None else loader
        self.extensions = extensions
        self.samples = samples
        self.transform = transform

    def __getitem__(self, index):
        sample = self.loader(self.samples[index])
        if self.transform is not None:
            sample = self.transform(sample)
        return [sample]

    def __len__(self):
        return len(self.samples)
