"""``paddle.dataset.common``: the file helpers of Paddle's 1.x datasets. paddle_compat never
downloads: ``download`` finds the file in the cache folder (``DATA_HOME/module_name``) or
raises RuntimeError saying where to put it (see ``paddle.utils.download``)."""
import errno
import glob
import hashlib
import os
import pickle
import re

from ....text.datasets._common import DATA_HOME, check_exists_and_download
from ....utils.download import get_path_from_url

__all__ = ["DATA_HOME", "md5file", "download", "must_mkdirs", "split", "cluster_files_reader"]

HOME = os.path.expanduser("~")
_check_exists_and_download = check_exists_and_download


def md5file(fname):
    """The md5 hex digest of the file ``fname``."""
    h = hashlib.md5()
    with open(fname, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def must_mkdirs(path):
    """Create ``path`` (and parents); an existing folder is fine."""
    try:
        os.makedirs(path)
    except OSError as exc:
        if exc.errno != errno.EEXIST:
            raise


def download(url, module_name, md5sum, save_name=None):
    """The path of ``url``'s file in ``DATA_HOME/module_name`` (named ``save_name`` if given),
    checked against ``md5sum``."""
    if not re.match(r"^[a-zA-Z0-9_/\-]+$", module_name):
        raise AttributeError(f"invalid module_name {module_name!r}")
    root = os.path.join(DATA_HOME, module_name)
    if save_name is None:
        return get_path_from_url(url, root, md5sum, decompress=False)
    if not re.match(r"^(?:(?!\.\.)[a-zA-Z0-9_/\.-])+$", save_name):
        raise AttributeError(f"invalid save_name {save_name!r}")
    path = os.path.join(root, save_name)
    if os.path.exists(path) and md5file(path) == md5sum:
        return path
    raise RuntimeError(f"paddle_compat does not download: put the file of {url} at {path} "
                       f"(md5 {md5sum})")


def split(reader, line_count, suffix="%05d.pickle", dumper=pickle.dump):
    """Write the samples of ``reader()`` to files of ``line_count`` samples each, named by
    ``suffix % index``, with ``dumper(samples, file)`` (Paddle's chunking: the first file
    takes ``line_count + 1`` samples)."""
    if not callable(dumper):
        raise TypeError("dumper should be callable.")
    lines = []
    index = 0
    for i, d in enumerate(reader()):
        lines.append(d)
        if i >= line_count and i % line_count == 0:
            with open(suffix % index, "w") as f:
                dumper(lines, f)
            lines = []
            index += 1
    if lines:
        with open(suffix % index, "w") as f:
            dumper(lines, f)


def cluster_files_reader(files_pattern, trainer_count, trainer_id, loader=pickle.load):
    """A reader over this trainer's share of the files matching ``files_pattern`` (every
    ``trainer_count``-th file from ``trainer_id``, sorted), each loaded with ``loader``."""
    def reader():
        if not callable(loader):
            raise TypeError("loader should be callable.")
        mine = [fn for i, fn in enumerate(sorted(glob.glob(files_pattern)))
                if i % trainer_count == trainer_id]
        for fn in mine:
            print(f"append file: {fn}")
        for fn in mine:
            with open(fn, "r") as f:
                yield from loader(f)
    return reader
