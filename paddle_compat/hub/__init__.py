"""``paddle.hub``: models from a ``hubconf.py``, and state dicts by URL from the local cache.

A hub repository is a folder with a ``hubconf.py``: its public callables are the entry
points, and its optional ``dependencies`` list names the modules ``load`` requires. Importing
that file runs it -- it is your own (or a trusted) repository's code, as in Paddle.

    >>> import paddle_compat as paddle
    >>> paddle.hub.list("path/to/repo", source="local")               # doctest: +SKIP
    ['resnet18', 'resnet50']
    >>> model = paddle.hub.load("path/to/repo", "resnet18", source="local")  # doctest: +SKIP

paddle_compat never downloads. ``source='github'`` / ``'gitee'`` use the copy Paddle keeps in
``~/.cache/paddle/hub/<owner>_<repo>_<branch>`` when it is there (as Paddle does without
``force_reload``) and otherwise fail at once, saying where to unpack the repository;
``load_state_dict_from_url`` reads ``<model_dir>/<file name>`` (by default
``$PADDLE_HOME/hub/checkpoints``, ``PADDLE_HOME`` being ``~/.cache/paddle``) and fails at once,
naming the path, when the file is not there.
"""
import contextlib
import errno
import hashlib
import importlib.util
import os
import re
import sys
import warnings
import zipfile
from urllib.parse import urlparse

from ..device import get_device, set_device
from ..framework.io import load as _load

__all__ = ["list", "help", "load", "load_state_dict_from_url"]

VAR_DEPENDENCY = "dependencies"
MODULE_HUBCONF = "hubconf.py"
HUB_DIR = os.path.expanduser(os.path.join("~", ".cache", "paddle", "hub"))
_SOURCES = ("github", "gitee", "local")


def _check_source(source):
    if source not in _SOURCES:
        raise ValueError(f'Unknown source: "{source}". Allowed values: "github" | "gitee" | '
                         '"local".')


def _parse_repo_info(repo, source):
    branch = "main" if source == "github" else "master"
    info = repo
    if ":" in repo:
        info, branch = repo.split(":")
    owner, name = info.split("/")
    return owner, name, branch


def _archive_url(owner, name, branch, source):
    if source == "github":
        return f"https://github.com/{owner}/{name}/archive/{branch}.zip"
    return f"https://gitee.com/{owner}/{name}/repository/archive/{branch}.zip"


def _cached_repo(repo, force_reload, source):
    """The local copy of a github / gitee repository (see the module doc)."""
    owner, name, branch = _parse_repo_info(repo, source)
    repo_dir = os.path.join(HUB_DIR, "_".join([owner, name, branch.replace("/", "_")]))
    if not force_reload and os.path.isdir(repo_dir):
        sys.stderr.write(f"Using cache found in {repo_dir}\n")
        return repo_dir
    why = "force_reload=True needs a download" if force_reload else "it is not in the cache"
    raise RuntimeError(
        f"paddle_compat does not download hub repositories ({why}): get "
        f"{_archive_url(owner, name, branch, source)} yourself and unpack it so that "
        f"{os.path.join(repo_dir, MODULE_HUBCONF)} exists, or pass the folder with "
        "source='local'.")


def _repo_dir(repo_dir, source, force_reload):
    _check_source(source)
    if source in ("github", "gitee"):
        return _cached_repo(repo_dir, force_reload, source)
    return repo_dir


def _import_hubconf(repo_dir):
    """Run ``repo_dir/hubconf.py`` as a fresh module (its folder first on sys.path while it
    imports, so it can import its neighbours)."""
    path = os.path.join(repo_dir, MODULE_HUBCONF)
    if not os.path.isfile(path):
        raise RuntimeError(f"Please make sure config exists or repo error messages above fixed "
                           f"when importing: there is no {path}")
    sys.path.insert(0, repo_dir)
    try:
        spec = importlib.util.spec_from_file_location("hubconf", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except ImportError as e:
        raise RuntimeError("Please make sure config exists or repo error messages above fixed "
                           f"when importing: {e}") from e
    finally:
        sys.path.remove(repo_dir)
    return module


def _entry(module, name):
    if not isinstance(name, str):
        raise ValueError("Invalid input: model should be a str of function name")
    fn = getattr(module, name, None)
    if fn is None or not callable(fn):
        raise RuntimeError(f"Cannot find callable {name} in hubconf")
    return fn


def _importable(name):
    try:
        importlib.import_module(name)
        return True
    except ImportError:
        return False


def _check_dependencies(module):
    deps = getattr(module, VAR_DEPENDENCY, None)
    if deps is not None:
        missing = [d for d in deps if not _importable(d)]
        if missing:
            raise RuntimeError("Missing dependencies: {}".format(", ".join(missing)))


def list(repo_dir, source="github", force_reload=False):
    """The entry points (public callables) of the repository's ``hubconf.py``."""
    module = _import_hubconf(_repo_dir(repo_dir, source, force_reload))
    return [n for n in dir(module) if callable(getattr(module, n)) and not n.startswith("_")]


def help(repo_dir, model, source="github", force_reload=False):
    """The docstring of entry point ``model``."""
    module = _import_hubconf(_repo_dir(repo_dir, source, force_reload))
    return _entry(module, model).__doc__


def load(repo_dir, model, source="github", force_reload=False, **kwargs):
    """Call entry point ``model`` with ``**kwargs`` (after checking ``dependencies``)."""
    module = _import_hubconf(_repo_dir(repo_dir, source, force_reload))
    _check_dependencies(module)
    return _entry(module, model)(**kwargs)


# ------------------------------------------------------------------------ state dicts by URL
def _paddle_home():
    return os.path.expanduser(os.getenv("PADDLE_HOME", os.path.join(
        os.getenv("XDG_CACHE_HOME", "~/.cache"), "paddle")))


def get_dir():
    """Paddle's hub folder: ``$PADDLE_HOME/hub``."""
    if os.getenv("PADDLE_HUB"):
        warnings.warn("PADDLE_HUB is deprecated, please use env PADDLE_HOME instead")
    return os.path.join(_paddle_home(), "hub")


_HASH_IN_NAME = re.compile(r"-([a-f0-9]+)\.")


def _check_sha256(path, filename):
    m = _HASH_IN_NAME.search(filename)
    if m is None:
        raise RuntimeError(f"check_hash=True: the file name {filename!r} carries no SHA256 "
                           "prefix (expected filename-<sha256>.ext)")
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    if not h.hexdigest().startswith(m.group(1)):
        raise RuntimeError(f'invalid hash value (expected "{m.group(1)}", got '
                           f'"{h.hexdigest()}") for {path}')


@contextlib.contextmanager
def _device_guard(device):
    before = get_device()
    if device == "cpu":
        set_device("cpu")
    elif device in ("gpu", "xpu", "npu"):
        set_device(f"{device}:0")
    try:
        yield
    finally:
        set_device(before)


def _single_file_zip(path):
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            members = z.infolist()
        return len(members) == 1 and not members[0].is_dir()
    return False


def _load_file(path, map_location):
    if map_location in ("numpy", "np"):
        return _load(path, return_numpy=True)
    if map_location:
        with _device_guard(map_location):
            return _load(path)
    return _load(path)


def load_state_dict_from_url(url, model_dir=None, check_hash=False, file_name=None,
                             map_location=None):
    """Load the object (a state dict) saved at ``url`` from the local cache,
    ``model_dir/<file name>`` (see the module doc); a zip archive holding one file is
    unpacked into ``model_dir`` first. ``map_location``: 'cpu', 'gpu', 'xpu', 'npu' (the
    device to load onto) or 'numpy' / 'np' (numpy arrays)."""
    if model_dir is None:
        model_dir = os.path.join(get_dir(), "checkpoints")
    try:
        os.makedirs(model_dir)
    except OSError as e:
        if e.errno != errno.EEXIST:
            raise
    filename = file_name if file_name is not None else os.path.basename(urlparse(url).path)
    cached = os.path.join(model_dir, filename)
    if not os.path.exists(cached):
        raise RuntimeError(
            f"paddle_compat does not download files: {url} is not in the local cache. Download "
            f"it yourself and put it at {cached}, then run again.")
    if check_hash:
        _check_sha256(cached, filename)
    if map_location:
        assert map_location in ["cpu", "gpu", "xpu", "npu", "numpy", "np"]
    if _single_file_zip(cached):
        with zipfile.ZipFile(cached) as z:
            member = z.infolist()[0]
            z.extract(member, model_dir)
        cached = os.path.join(model_dir, member.filename)
    return _load_file(cached, map_location)

