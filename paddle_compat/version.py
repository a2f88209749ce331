"""``paddle.version``: the Paddle release whose behaviour we follow, and the CUDA stack of the
torch build we run on, in the forms Paddle's generated version module gives them.

Paddle fills these from its build; here the CUDA, cuDNN, NCCL and HIP versions are torch's
(``'False'`` / ``None`` on a CPU build, as Paddle's CPU wheel says), so code that branches on
``paddle.version.cuda()`` sees the stack it will really run on.
"""
import torch

__all__ = ["cuda", "cudnn", "nccl", "show", "xpu", "xpu_xre", "xpu_xccl", "xpu_xhpc",
           "tensorrt", "cuda_archs", "hip"]

full_version = "3.3.1"
major, minor, patch, rc = "3", "3", "1", "0"
is_tagged = True
commit = "7688495538f4d6c1893f084dd238a402e8f68ab6"     # Paddle 3.3.1's, as its wheel reports
with_mkl = "ON"
with_hml = ""
with_pip_cuda_libraries = "ON"
with_pip_tensorrt = "OFF"


def _cudnn_version():
    if not torch.version.cuda or not torch.backends.cudnn.is_available():
        return "False"
    v = torch.backends.cudnn.version() or 0
    major_ = v // 10000 if v >= 90000 else v // 1000      # cuDNN 9 changed the encoding
    rest = v % 10000 if v >= 90000 else v % 1000
    return f"{major_}.{rest // 100}.{rest % 100}"


def _nccl_version():
    try:
        v = torch.cuda.nccl.version() if torch.version.cuda else None
    except (AttributeError, RuntimeError):
        v = None
    if not v:
        return "0"
    if isinstance(v, int):
        return str(v)
    return str(v[0] * 10000 + v[1] * 100 + v[2]) if v[:2] >= (2, 9) else \
        str(v[0] * 1000 + v[1] * 100 + v[2])


nccl_version = _nccl_version()
cuda_version = torch.version.cuda or "False"
cudnn_version = _cudnn_version()
hip_version = torch.version.hip
xpu_xre_version = xpu_xccl_version = xpu_xhpc_version = "False"
cinn_version = "False"
tensorrt_version = "None"
compiled_cuda_archs = sorted({int(a.split("_")[1]) for a in torch.cuda.get_arch_list()
                              if a.startswith("sm_") and a.split("_")[1].isdigit()}) \
    if torch.version.cuda else []


class CudaVersion(str):
    """The CUDA version as a string that can also be called (``paddle.version.cuda()``), as in
    Paddle."""

    def __call__(self):
        return str(self)

    def __repr__(self):
        return f"CudaVersion('{self}')"


cuda = CudaVersion(cuda_version)
hip = hip_version


def cudnn():
    """The cuDNN version (``'False'`` without CUDA)."""
    return cudnn_version


def nccl():
    """The NCCL version as Paddle encodes it (``'0'`` without CUDA)."""
    return nccl_version


def xpu():
    """The XPU version (``'False'``: no XPU build)."""
    return xpu_xhpc_version


def xpu_xre():
    return xpu_xre_version


def xpu_xccl():
    return xpu_xccl_version


def xpu_xhpc():
    return xpu_xhpc_version


def cinn():
    return cinn_version


def tensorrt():
    return tensorrt_version


def cuda_archs():
    """The compute capabilities the torch build was compiled for (``[]`` without CUDA)."""
    return compiled_cuda_archs


def mkl():
    return with_mkl


def hml():
    return with_hml


def show():
    """Print the version and the CUDA stack, in Paddle's format."""
    if is_tagged:
        print("full_version:", full_version)
        print("major:", major)
        print("minor:", minor)
        print("patch:", patch)
        print("rc:", rc)
    else:
        print("commit:", commit)
    for name, value in (("cuda", cuda_version), ("cudnn", cudnn_version), ("hip", hip_version),
                        ("nccl", nccl_version), ("xpu_xre", xpu_xre_version),
                        ("xpu_xccl", xpu_xccl_version), ("xpu_xhpc", xpu_xhpc_version),
                        ("cinn", cinn_version), ("tensorrt_version", tensorrt_version),
                        ("cuda_archs", compiled_cuda_archs)):
        print(f"{name}:", value)
