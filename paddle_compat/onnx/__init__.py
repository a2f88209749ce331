"""``paddle.onnx.export`` on ``torch.onnx``.

Paddle exports through paddle2onnx; here the Layer is traced by torch's TorchScript-based
ONNX exporter (``torch.onnx.export(..., dynamo=False)``), which needs the ``onnx`` package:
install the extra, ``pip install 'paddle_compat[onnx]'``. The file is ``path + '.onnx'``, as
Paddle writes it.

    >>> import paddle_compat as paddle
    >>> net = paddle.nn.Linear(128, 10)
    >>> spec = paddle.static.InputSpec(shape=[None, 128], dtype="float32", name="x")
    >>> paddle.onnx.export(net, "linear_net", input_spec=[spec])     # doctest: +SKIP
    >>> # writes linear_net.onnx, input "x" with a dynamic first axis

``input_spec`` lists the forward's inputs: an ``InputSpec`` (``None`` / -1 dimensions become
dynamic axes of the ONNX model), an example Tensor (its shape fixed), or any other value
(passed to forward as a constant). The parameters and buffers become initializers named
after the Layer's own names (dots replaced by underscores). The Layer is exported in eval
mode. Of paddle2onnx's extra options, ``enable_onnx_checker`` and ``verbose`` are accepted;
others (``output_spec`` pruning ...) raise NotImplementedError.
"""
import inspect
import os
import warnings

import torch

from ..framework.dtype import convert_dtype
from ..framework.tensor import Tensor, wrap
from ..static.input_spec import InputSpec

__all__ = ["export"]

_EXTRA = ("paddle.onnx.export needs the onnx package, which is not installed: "
          "pip install 'paddle_compat[onnx]' (or pip install onnx)")


def _onnx():
    try:
        import onnx
    except ImportError:
        raise ImportError(_EXTRA) from None
    return onnx


class _Traced(torch.nn.Module):
    """The Layer as a torch Module: torch tensors in and out, its parameters and buffers
    registered (by identity) so the trace makes them named initializers."""

    def __init__(self, layer, slots):
        super().__init__()
        self.layer_fn = layer
        self.slots = slots          # per forward argument: None (a traced input) or a constant
        for name, t in list(layer.named_parameters()) + list(layer.named_buffers()):
            self.register_buffer(name.replace(".", "_"), t._t)

    def forward(self, *tensors):
        it = iter(tensors)
        args = [wrap(next(it)) if s is None else s[0] for s in self.slots]
        out = self.layer_fn(*args)
        return _unwrap(out)


def _unwrap(out):
    if isinstance(out, Tensor):
        return out._t
    if isinstance(out, (list, tuple)):
        return tuple(_unwrap(o) for o in out)
    if isinstance(out, dict):
        return tuple(_unwrap(v) for v in out.values())
    return out


def _forward_names(layer, n):
    try:
        params = [p.name for p in inspect.signature(layer.forward).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    return [params[i] if i < len(params) else f"x{i}" for i in range(n)]


def export(layer, path, input_spec=None, opset_version=9, **configs):
    """Export ``layer`` to ONNX at ``path + '.onnx'`` (see the module doc)."""
    file_prefix = os.path.basename(path)
    if file_prefix == "":
        raise ValueError("The input path MUST be format of dirname/file_prefix "
                         "[dirname\\file_prefix in Windows system], but the file_prefix is "
                         f"empty in received path: {path}")
    onnx = _onnx()
    unknown = set(configs) - {"enable_onnx_checker", "verbose"}
    if unknown:
        raise NotImplementedError(f"paddle.onnx.export: the options {sorted(unknown)} are not "
                                  "supported by paddle_compat")
    if input_spec is None:
        raise ValueError("paddle.onnx.export in paddle_compat needs input_spec (InputSpecs or "
                         "example Tensors for the forward's inputs) to trace the Layer")
    slots, examples, names, dynamic = [], [], [], {}
    default_names = _forward_names(layer, len(input_spec))
    for i, spec in enumerate(input_spec):
        if isinstance(spec, InputSpec):
            shape = [2 if d in (-1, None) else d for d in spec.shape]
            examples.append(torch.ones(shape, dtype=convert_dtype(spec.dtype).torch))
            name = spec.name or default_names[i]
            axes = {k: f"{name}_dim{k}" for k, d in enumerate(spec.shape) if d in (-1, None)}
            if axes:
                dynamic[name] = axes
        elif isinstance(spec, Tensor):
            examples.append(spec._t.detach())
            name = getattr(spec, "name", None) or default_names[i]
        else:
            slots.append((spec,))
            continue
        slots.append(None)
        names.append(name)
    was_training = getattr(layer, "training", False)
    layer.eval()
    save_file = path + ".onnx"
    dirname = os.path.dirname(save_file)
    if dirname:
        os.makedirs(dirname, exist_ok=True)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            torch.onnx.export(_Traced(layer, slots), tuple(examples), save_file, dynamo=False,
                              opset_version=opset_version, input_names=names,
                              dynamic_axes=dynamic or None,
                              verbose=bool(configs.get("verbose", False)))
    finally:
        if was_training:
            layer.train()
    if configs.get("enable_onnx_checker", False):
        onnx.checker.check_model(save_file)
