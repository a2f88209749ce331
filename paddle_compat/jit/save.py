"""``paddle.jit.save``: write a Layer (or a ``to_static`` function) as Paddle 3.x's model files.

``save(layer, "dir/model", input_spec=[InputSpec([None, 6], "float32", "x")])`` traces the
Layer's ``forward`` with the static machinery ``to_static`` uses (a ``Program`` whose inputs
keep the spec's unknown dimensions as ``-1``) and writes ``dir/model.json`` (the PIR program)
and ``dir/model.pdiparams`` (the parameters in sorted name order), as Paddle 3.3.1 does; Paddle
3.3.1's ``paddle.jit.load`` and ``paddle.inference`` load them (checked when the goldens are
recorded: tools/model_files/record_saved.py), and so do ours.

How a graph becomes Paddle's ops is ``static.io``'s table (fx node -> the ``pd_op`` ops Paddle
emits for it); every op name it can emit is one ``jit.load`` reads (checked below, at import:
one source of truth for the names is ``translated._OPS``). A computation without a mapping
raises NotImplementedError naming the torch op and the Layer.

The Layer is traced in its current mode (``eval()`` first for inference, as in Paddle).
Parameters keep their names (``linear_0.w_0``); a tensor made inside ``forward`` is saved as a
non-trainable parameter named ``constant_folding_N``.
"""
import logging
import os

from ..static import io as _sio
from ..utils.layer_trace import trace_to_pir
from .translated import _OPS as _READABLE

__all__ = ["save", "json_to_pdmodel", "set_code_level", "set_verbosity"]

_unreadable = sorted(n for n in _sio.EMITTED_OPS
                     if n not in _READABLE and n not in ("pd_op.data", "pd_op.fetch"))
assert not _unreadable, f"static.io can write ops jit.load cannot read: {_unreadable}"

_SAVE_CONFIGS = ("output_spec", "with_hook", "combine_params", "clip_extra", "skip_forward",
                 "input_names_after_prune", "skip_prune_program", "separate_parameters")


def save(layer, path, input_spec=None, **configs):
    """``paddle.jit.save``: write ``path.json`` and ``path.pdiparams`` for ``layer`` (a Layer,
    a ``to_static`` function or a Layer whose forward is one)."""
    unknown = sorted(set(configs) - set(_SAVE_CONFIGS))
    if unknown:
        raise ValueError(f"The additional config ({', '.join(unknown)}) of "
                         "`paddle.jit.save` is not supported.")
    if configs.get("output_spec") is not None:
        raise NotImplementedError("paddle.jit.save: output_spec (pruning outputs) is not "
                                  "supported yet")
    path = os.fspath(path)
    if not path or os.path.basename(path) == "":
        raise ValueError("The input path MUST be format of dirname/file_prefix [dirname\\"
                         "file_prefix in Windows system], but received file_prefix is "
                         "empty string.")
    doc, arrays = trace_to_pir(layer, input_spec)
    _sio.write_model_files(path, doc, arrays)


def json_to_pdmodel(net, input_spec, load_path, save_path):
    """Paddle 3.3.1 loads ``load_path`` (a PIR JSON model), copies its parameters into
    ``net`` and saves ``net`` again in the old program format (a protobuf ``.pdmodel``)
    under ``save_path``. paddle_compat does not write the protobuf ProgramDesc of Paddle
    2.x; this raises NotImplementedError saying so."""
    raise NotImplementedError("paddle.jit.json_to_pdmodel writes the protobuf ProgramDesc "
                              "(.pdmodel) of Paddle 2.x, which paddle_compat does not write; "
                              "use paddle.jit.save (PIR JSON, what Paddle 3.x loads)")


_LEVELS = {"code_level": 100, "verbosity": 0, "code_to_stdout": False,
           "verbosity_to_stdout": False}
_logger = logging.getLogger("paddle_compat.jit")


def set_code_level(level=100, also_to_stdout=False):
    """dy2static's knob for printing transformed code: the level is recorded (our traces
    have no transformed source to print; ``StaticFunction.graph_module.code`` shows the
    graph)."""
    if not isinstance(level, int):
        raise TypeError(f"Level is not an integer: {level}")
    _LEVELS["code_level"] = level
    _LEVELS["code_to_stdout"] = bool(also_to_stdout)


def set_verbosity(level=0, also_to_stdout=False):
    """dy2static's logging verbosity: recorded, and applied to the ``paddle_compat.jit``
    logger (level > 0: INFO)."""
    if not isinstance(level, int):
        raise TypeError(f"Level is not an integer: {level}")
    _LEVELS["verbosity"] = level
    _LEVELS["verbosity_to_stdout"] = bool(also_to_stdout)
    _logger.setLevel(logging.INFO if level > 0 else logging.WARNING)
