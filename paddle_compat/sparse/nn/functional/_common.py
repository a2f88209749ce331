"""What the sparse functional ops share: reading a sparse argument and normalising the
convolution geometry as Paddle does."""
import torch

from ....framework.tensor import Tensor
from ...tensor import is_coo, is_csr

_KERNEL_NAMES = {"conv3d": "conv3d", "subm_conv3d": "conv3d", "conv2d": "conv3d",
                 "subm_conv2d": "conv3d", "max_pool3d": "maxpool"}


def sparse_arg(x, api, kernel=None, arg="x", csr=True):
    """The torch sparse tensor inside ``x``; Paddle's errors for anything else."""
    if not isinstance(x, Tensor):
        raise ValueError(f"(InvalidArgument) {api}(): argument '{arg}' (position 0) must be "
                         f"Tensor, but got {type(x).__name__}")
    t = x._t
    if is_coo(t) or (csr and is_csr(t)):
        return t
    raise NotImplementedError(
        f"(Unimplemented) The kernel of ({kernel or api}) for input tensors is unimplemented, "
        f"please check the type of input tensors: argument '{arg}' of {api} must be a sparse "
        f"{'COO or CSR' if csr else 'COO'} tensor, got a "
        f"{'dense' if t.layout is torch.strided else str(t.layout)} one.")


def ntuple(v, n, name):
    """``v`` (an int or a sequence of ``n`` ints) as a list of ``n`` ints."""
    if isinstance(v, int):
        return [v] * n
    try:
        out = [int(a) for a in v]
    except TypeError:
        raise ValueError(f"The {name} should be an int or a list of {n} ints, got {v!r}")
    if len(out) != n:
        raise ValueError(f"The {name}'s length must be {n}, but got {len(out)}: {v!r}")
    return out


def conv_padding(padding, n):
    """The padding before each of the ``n`` spatial axes that Paddle's sparse kernels use.

    As in Paddle 3.3.1: 'SAME' and 'VALID' both mean no padding (the sparse kernels take no
    padding algorithm); a list of ``2n`` (or ``n + 2`` pairs, the batch and channel pairs 0)
    whose pairs are symmetric gives one value per axis; an asymmetric one is read as its first
    ``n`` numbers."""
    if isinstance(padding, str):
        p = padding.upper()
        if p not in ("SAME", "VALID"):
            raise ValueError(
                f"Unknown padding: '{padding}'. It can only be 'SAME' or 'VALID'.")
        return [0] * n
    if isinstance(padding, int):
        return [padding] * n
    pad = list(padding)
    if pad and isinstance(pad[0], (list, tuple)):
        if len(pad) != n + 2:
            raise ValueError(f"padding as pairs must have {n + 2} pairs, got {padding!r}")
        if list(pad[0]) != [0, 0] or list(pad[-1]) != [0, 0]:
            raise ValueError(
                f"Non-zero padding({padding}) in the batch or channel dimensions is not "
                "supported.")
        pad = [int(a) for pr in pad[1:-1] for a in pr]
    pad = [int(a) for a in pad]
    if len(pad) == 2 * n:
        if all(pad[2 * i] == pad[2 * i + 1] for i in range(n)):
            return pad[0::2]
        return pad[:n]
    if len(pad) == n:
        return pad
    raise ValueError(f"padding must be an int, a string or a list of {n} or {2 * n} ints, "
                     f"got {padding!r}")
