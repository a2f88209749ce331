"""Finding a text dataset's file: the given path, or Paddle's cache folder (never the
network)."""
import os

from ...utils.download import get_path_from_url

#: Paddle's cache folder for dataset files (``paddle.dataset.common.DATA_HOME``); WMT16 also
#: writes its word dictionaries here, as Paddle does
DATA_HOME = os.path.join(os.path.expanduser("~"), ".cache", "paddle", "dataset")


def check_exists_and_download(path, url, md5, module_name, download=True):
    """``path`` when it exists; else the cached copy of ``url`` under
    ``DATA_HOME/module_name``, which must be there: paddle_compat does not download, and the
    RuntimeError says where to put the file."""
    if path and os.path.exists(path):
        return path
    if download:
        return get_path_from_url(url, os.path.join(DATA_HOME, module_name), md5,
                                 decompress=False)
    raise ValueError(f"{path} not exists and auto download disabled")
