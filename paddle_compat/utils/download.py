"""``paddle.utils.download``: pretrained-weight and data files by URL, from the local cache.

paddle_compat never downloads anything: model files import this module at the top and call
``get_weights_path_from_url(url, md5)`` when ``pretrained=True``; here that finds the file in
Paddle's own cache folder (``~/.cache/paddle/hapi/weights``, ``WEIGHTS_HOME``), where a
Paddle install (or you) put it, checks its md5 when one is given and returns its path. A file
that is not there raises ``RuntimeError`` at once, naming the URL and the exact path to put
the file at -- no network access is tried, so nothing hangs on a machine without network.

    >>> from paddle_compat.utils.download import get_weights_path_from_url
    >>> get_weights_path_from_url("https://paddle-hapi.bj.bcebos.com/models/resnet18.pdparams")
    ...                                                                # doctest: +SKIP
    '/root/.cache/paddle/hapi/weights/resnet18.pdparams'

Archives (.tar, .tar.gz, .tgz, .zip) found in the cache are unpacked next to themselves, as
Paddle does, and the unpacked path is returned.
"""
import hashlib
import logging
import os.path as osp
import tarfile
import zipfile

__all__ = ["get_weights_path_from_url", "get_path_from_url", "is_url", "WEIGHTS_HOME"]

#: Paddle's cache folder for pretrained weights
WEIGHTS_HOME = osp.expanduser("~/.cache/paddle/hapi/weights")

DOWNLOAD_RETRY_LIMIT = 3

#: the module's logger, as Paddle's (``logging.getLogger("paddle.utils.download")``)
logger = logging.getLogger("paddle.utils.download")


def _get_unique_endpoints(trainer_endpoints):
    """One endpoint per IP address of ``trainer_endpoints`` ("ip:port" strings, sorted in
    place first, as Paddle does): the trainers that fetch files for their machine."""
    trainer_endpoints.sort()
    ips = set()
    unique = set()
    for endpoint in trainer_endpoints:
        ip = endpoint.split(":")[0]
        if ip not in ips:
            ips.add(ip)
            unique.add(endpoint)
    logger.info(f"unique_endpoints {unique}")
    return unique


def is_url(path):
    """Whether ``path`` is an http(s) URL."""
    return path.startswith("http://") or path.startswith("https://")


def get_weights_path_from_url(url, md5sum=None):
    """The local path of the weights at ``url``: ``WEIGHTS_HOME/<file name>``, which must be
    there already (see the module docstring)."""
    return get_path_from_url(url, WEIGHTS_HOME, md5sum)


def _map_path(url, root_dir):
    fname = osp.split(url.split("?")[0])[-1]
    return osp.join(root_dir, fname)


def _md5check(fullname, md5sum=None):
    if md5sum is None:
        return True
    md5 = hashlib.md5()
    with open(fullname, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            md5.update(chunk)
    return md5.hexdigest() == md5sum


def get_path_from_url(url, root_dir, md5sum=None, check_exist=True, decompress=True,
                      method="get"):
    """The local path of the file at ``url`` under ``root_dir`` (unpacked when it is an
    archive and ``decompress``). Raises RuntimeError, saying where to put the file, when it
    is missing or its md5 differs from ``md5sum``: paddle_compat does not download."""
    if not is_url(url):
        raise AssertionError(f"downloading from {url} not a url")
    fullpath = _map_path(url, root_dir)
    if not osp.exists(fullpath):
        raise RuntimeError(
            f"paddle_compat does not download files: {url} is not in the local cache. "
            f"Download it yourself and put it at {fullpath} (the folder Paddle caches it in), "
            "then run again.")
    if not _md5check(fullpath, md5sum):
        raise RuntimeError(
            f"{fullpath} does not match the md5 sum {md5sum} expected for {url}: the file is "
            f"incomplete or a different version. Download it again to {fullpath} "
            "(paddle_compat does not download files).")
    if decompress and (fullpath.endswith((".tar", ".tar.gz", ".tgz", ".zip"))) and \
            (tarfile.is_tarfile(fullpath) or zipfile.is_zipfile(fullpath)):
        fullpath = _decompress(fullpath)
    return fullpath


def _inside(root, path):
    root = osp.realpath(root)
    return osp.commonpath([root, osp.realpath(path)]) == root


def _decompress(fname):
    """Unpack an archive next to itself; the path of its single top-level entry, or of a
    folder named after the archive holding several."""
    root = osp.dirname(fname)
    if tarfile.is_tarfile(fname):
        with tarfile.open(fname) as tf:
            names = tf.getnames()
            members = tf.getmembers()
            for m in members:
                if not _inside(root, osp.join(root, m.name)) or m.issym() or m.islnk():
                    raise RuntimeError(f"{fname}: unsafe member {m.name!r}")
            top = {n.split("/")[0] for n in names if n}
            dest = root if len(top) == 1 else osp.join(root, _stem(fname))
            tf.extractall(dest, members=members)
    else:
        with zipfile.ZipFile(fname) as zf:
            names = zf.namelist()
            for n in names:
                if not _inside(root, osp.join(root, n)):
                    raise RuntimeError(f"{fname}: unsafe member {n!r}")
            top = {n.split("/")[0] for n in names if n}
            dest = root if len(top) == 1 else osp.join(root, _stem(fname))
            zf.extractall(dest)
    if len(top) == 1:
        return osp.join(root, top.pop())
    return dest


def _stem(fname):
    base = osp.basename(fname)
    for ext in (".tar.gz", ".tgz", ".tar", ".zip"):
        if base.endswith(ext):
            return base[: -len(ext)]
    return base
