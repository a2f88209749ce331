"""``paddle.utils.run_check``, ``require_version`` and ``try_import``: checking the
installation and the environment, with Paddle's messages and exception types."""
import importlib
import re

import torch

from .. import version as _version
from ..framework.tensor import Tensor, wrap

__all__ = ["run_check", "require_version", "try_import"]


def _train_once(device):
    """A linear layer's forward, backward and SGD update on ``device``, checked against the
    closed form: the check that ops, autograd and in-place updates work there."""
    w = wrap(torch.full((3, 2), 0.5, dtype=torch.float32, device=device))
    w.stop_gradient = False
    x = wrap(torch.arange(6, dtype=torch.float32, device=device).reshape(2, 3))
    loss = (x @ w).sum()
    loss.backward()
    want_grad = x._t.sum(0, keepdim=True).T.expand(3, 2)
    if not isinstance(loss, Tensor) or not torch.allclose(w.grad._t, want_grad):
        raise RuntimeError(f"paddle_compat gives wrong gradients on {device}")
    if abs(float(loss) - 15.0 * 2 * 0.5) > 1e-5:
        raise RuntimeError(f"paddle_compat gives a wrong matmul result on {device}")


def run_check():
    """Run a tiny training step on the CPU or, when torch sees CUDA devices, on GPU 0, and
    print Paddle's messages."""
    print("Running verify PaddlePaddle program ... ")
    if torch.cuda.is_available():
        device_str, count, device = "GPU", torch.cuda.device_count(), "cuda:0"
    else:
        device_str, count, device = "CPU", 1, "cpu"
    _train_once(device)
    print(f"PaddlePaddle works well on 1 {device_str}.")
    if count > 1:
        for i in range(1, count):
            _train_once(f"cuda:{i}")
        print(f"PaddlePaddle works well on {count} {device_str}s.")
    print("PaddlePaddle is installed successfully! Let's start deep learning with PaddlePaddle "
          "now.")


_VERSION = re.compile(r"\d+(\.\d+){0,3}")


def _parts(v):
    p = v.split(".")
    return [int(x) for x in p + ["0"] * (4 - len(p))]


def require_version(min_version, max_version=None):
    """Raise ``Exception("VersionError: ...")`` unless the Paddle release we follow
    (``paddle.version.full_version``) lies in [min_version, max_version]."""
    if not isinstance(min_version, str):
        raise TypeError("The type of 'min_version' in require_version must be str, but received "
                        f"{type(min_version)}.")
    if not isinstance(max_version, (str, type(None))):
        raise TypeError("The type of 'max_version' in require_version must be str or "
                        f"type(None), but received {type(max_version)}.")
    for arg, v in (("min_version", min_version), ("max_version", max_version)):
        if v is not None and _VERSION.fullmatch(v) is None:
            raise ValueError(f"The value of '{arg}' in require_version must be in format "
                             "'\\d+(\\.\\d+){0,3}', like '1.5.2.0', but received " + v)
    have = [int(_version.major), int(_version.minor), int(_version.patch), int(_version.rc)]
    full = _version.full_version
    if max_version is not None:
        if have > _parts(max_version) or have < _parts(min_version):
            raise Exception(f"VersionError: PaddlePaddle version in [{min_version}, "
                            f"{max_version}] required, but {full} installed.")
    elif have < _parts(min_version):
        raise Exception(f"VersionError: PaddlePaddle version {min_version} or higher is "
                        f"required, but {full} installed, please upgrade your PaddlePaddle to "
                        f"{min_version} or other higher version.")


def try_import(module_name, err_msg=None):
    """``importlib.import_module(module_name)``, or an ImportError saying what to install."""
    package = "opencv-python" if module_name == "cv2" else module_name.split(".")[0]
    try:
        return importlib.import_module(module_name)
    except ImportError:
        if err_msg is None:
            err_msg = (f"Failed importing {module_name}. This likely means that some paddle "
                       "modules require additional dependencies that have to be manually "
                       f"installed (usually with `pip install {package}`). ")
        raise ImportError(err_msg) from None
