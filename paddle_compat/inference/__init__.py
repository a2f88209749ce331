"""``paddle.inference`` and ``paddle.static.load_inference_model``: run model files saved by
Paddle 3.x (``paddle.jit.save`` or ``paddle.static.save_inference_model``; both write the PIR
program as ``NAME.json`` and the parameters as ``NAME.pdiparams``).

Both are thin fronts over ``paddle.jit.load`` (``jit/translated.py``), which reads the files
(as data: nothing in them is executed) and runs the program with our op functions:

* ``Config(model_file, params_file)``, or ``Config(model_dir)`` (Paddle 3.3.1 then looks for a
  2.x ``__model__`` file; here a folder holding ``inference.json`` + ``inference.pdiparams``,
  the names PaddleOCR/PaddleX export, or a single ``X.json`` with its ``X.pdiparams``, and a
  path prefix ``dir/model`` for ``dir/model.json``, are accepted too), ``create_predictor``,
  ``Predictor.get_input_names/get_output_names`` (the program's feed names and the names of
  its fetch ops, ``fetch_name_0``...), ``get_input_handle(name).reshape/copy_from_cpu``,
  ``run()`` or ``run([Tensor, ...])`` (which returns the outputs as Tensors, as in Paddle 3),
  ``get_output_handle(name).copy_to_cpu/shape/type``.
* The config switches keep Paddle's defaults and getters. What they mean here:
  ``enable_use_gpu(mb, device_id)`` runs the predictor on ``cuda:device_id`` when torch has
  CUDA (otherwise it warns and stays on the CPU, ``use_gpu()`` False, as Paddle's CPU build
  does); ``set_cpu_math_library_num_threads(n)`` calls ``torch.set_num_threads(n)`` when the
  predictor is created; ``enable_memory_optim()`` with ``switch_ir_optim`` on (its default)
  runs the model as an AOTInductor package compiled on the first ``run`` and cached by the
  files' hash (``jit/aot.py``, ``jit/COMPILED.md``); ``enable_mkldnn``,
  ``disable_glog_info``, ``switch_use_feed_fetch_ops``, ``switch_specify_input_names`` are
  recorded and read back but change nothing (torch picks oneDNN kernels itself, there is no
  glog output, and inputs are always named).
* ``load_inference_model(path_prefix, executor)`` returns ``[program, feed_target_names,
  fetch_targets]``; the program is an ``InferenceProgram``, which ``Executor.run`` runs through
  the same ``program.compiled(signature)`` call it makes for a ``Program`` (so its normal path
  gains no check); ``fetch_list`` takes the fetch targets or their names.

Errors follow Paddle 3.3.1's types: a missing model file raises an error that is both
RuntimeError (Paddle's) and FileNotFoundError; an unknown input/output name RuntimeError;
``copy_from_cpu`` of a non-array TypeError; a wrong number of inputs to ``run``, an input of the
wrong shape or dtype ValueError; a feed lacking an input KeyError (``Executor.run``).
"""
import enum
import os
import sys
import warnings

import numpy as np
import torch

from .. import version as _version
from ..framework.tensor import Tensor as _PTensor, wrap as _wrap
from ..static.mode import mode_guard as _mode_guard
from ..jit.translated import TranslatedLayer, load as _jit_load
from ..jit import StaticFunction as _StaticFunction
from ..jit import aot as _aot

aot = _aot      # the compiled predictor's module (it lives in jit/: jit.load uses it too)
sys.modules[__name__ + ".aot"] = _aot

__all__ = ["Config", "create_predictor", "Predictor", "Tensor", "DataType", "PlaceType",
           "PrecisionType", "get_version", "get_num_bytes_of_data_type", "InferenceProgram",
           "FetchTarget", "load_inference_model", "PredictorPool", "XpuConfig",
           "convert_to_mixed_precision", "get_trt_compile_version", "get_trt_runtime_version"]


class _Enum(enum.IntEnum):
    def __str__(self):
        return f"{type(self).__name__}.{self.name}"

    __repr__ = __str__


class DataType(_Enum):
    """``paddle.inference.DataType`` (Paddle's values)."""
    FLOAT32 = 0
    INT64 = 1
    INT32 = 2
    UINT8 = 3
    INT8 = 4
    FLOAT16 = 5
    BOOL = 6
    FLOAT64 = 7
    BFLOAT16 = 8


class PlaceType(_Enum):
    UNK = -1
    CPU = 0
    GPU = 1
    XPU = 2
    CUSTOM = 4


class PrecisionType(_Enum):
    Float32 = 0
    Int8 = 1
    Half = 2
    Bfloat16 = 3


_DTYPES = {torch.float32: DataType.FLOAT32, torch.int64: DataType.INT64,
           torch.int32: DataType.INT32, torch.uint8: DataType.UINT8, torch.int8: DataType.INT8,
           torch.float16: DataType.FLOAT16, torch.bool: DataType.BOOL,
           torch.float64: DataType.FLOAT64, torch.bfloat16: DataType.BFLOAT16}
_NAMED = {"float32": DataType.FLOAT32, "int64": DataType.INT64, "int32": DataType.INT32,
          "uint8": DataType.UINT8, "int8": DataType.INT8, "float16": DataType.FLOAT16,
          "bool": DataType.BOOL, "float64": DataType.FLOAT64, "bfloat16": DataType.BFLOAT16}
_NBYTES = {DataType.FLOAT32: 4, DataType.INT64: 8, DataType.INT32: 4, DataType.UINT8: 1,
           DataType.INT8: 1, DataType.FLOAT16: 2, DataType.BOOL: 1, DataType.FLOAT64: 8,
           DataType.BFLOAT16: 2}


def get_num_bytes_of_data_type(dtype):
    """Bytes per element of a ``DataType`` (-1 where Paddle 3.3.1 gives -1: FLOAT64)."""
    return -1 if dtype == DataType.FLOAT64 else _NBYTES.get(DataType(dtype), -1)


def get_version():
    """The version text Paddle's ``paddle.inference.get_version()`` gives."""
    return f"version: {_version.full_version}\ncommit: {_version.commit[:7]}\nbranch: HEAD\n"


class ModelFileNotFound(FileNotFoundError, RuntimeError):
    """A model or parameters file that does not exist (Paddle raises RuntimeError)."""


# ---------------------------------------------------------------------------- files
def _prefix_of(path):
    for ext in (".json", ".pdmodel"):
        if path.endswith(ext):
            return path[:-len(ext)]
    return path


def _resolve_dir_or_prefix(path):
    """(model file, params file) for ``Config(model_dir)`` or a path prefix."""
    if os.path.isdir(path):
        for ext in (".json", ".pdmodel"):          # 3.x PIR JSON, else 2.x ProgramDesc
            if os.path.isfile(os.path.join(path, "inference" + ext)):
                return os.path.join(path, "inference" + ext), \
                    os.path.join(path, "inference.pdiparams")
        if os.path.isfile(os.path.join(path, "__model__")):
            raise NotImplementedError(f"{os.path.join(path, '__model__')}: the protobuf "
                                      "ProgramDesc of Paddle 2.x cannot be loaded yet; save the "
                                      "model again with Paddle 3.x")
        jsons = sorted(f for f in os.listdir(path) if f.endswith(".json") and os.path.isfile(
            os.path.join(path, f[:-5] + ".pdiparams")))
        if len(jsons) == 1:
            f = os.path.join(path, jsons[0])
            return f, f[:-5] + ".pdiparams"
        raise ModelFileNotFound(
            f"Cannot open a model in the folder {path}: it needs inference.json, or one X.json "
            f"with its X.pdiparams ({len(jsons)} found); or give Config(model_file, "
            "params_file)")
    prefix = _prefix_of(path)
    if os.path.isfile(prefix + ".json") or os.path.isfile(prefix + ".pdmodel"):
        return prefix + (".json" if os.path.isfile(prefix + ".json") else ".pdmodel"), \
            prefix + ".pdiparams"
    raise ModelFileNotFound(f"Cannot open file {path}: no such folder, and no {prefix}.json")


def _load(model_file, params_file):
    """The TranslatedLayer of the two files (errors: see the module docstring)."""
    for f in (model_file, params_file):
        if not os.path.isfile(f):
            raise ModelFileNotFound(f"Cannot open file {f}, please confirm whether the file "
                                    "exists")
    folder = os.path.dirname(os.path.abspath(model_file))
    return _jit_load(folder, model_filename=os.path.basename(model_file),
                     params_filename=os.path.abspath(params_file))


# ---------------------------------------------------------------------------- Config
class Config:
    """``paddle.inference.Config``: which model to load and how to run it (see the module
    docstring for what each switch means here)."""

    #: Paddle's alias of ``PrecisionType`` on the class (``Config.Precision.Half``)
    Precision = PrecisionType

    def __init__(self, model_dir_or_prog_file=None, params_file=None):
        self._model_dir = ""
        self._prog_file = ""
        self._params_file = ""
        if model_dir_or_prog_file is not None:
            self.set_model(model_dir_or_prog_file, params_file)
        self._use_gpu = False
        self._gpu_device_id = 0
        self._gpu_mem_mb = 100
        self._precision = PrecisionType.Float32
        self._ir_optim = True
        self._memory_optim = False
        self._num_threads = 1
        self._threads_set = False
        self._mkldnn = True
        self._glog_disabled = False
        self._feed_fetch_ops = False
        self._specify_input_names = False
        self._new_ir = False
        self._deleted_passes = []

    # model files
    def set_model(self, model_dir_or_prog_file, params_file=None):
        if params_file is None:
            self._model_dir = os.fspath(model_dir_or_prog_file)
            self._prog_file = self._params_file = ""
        else:
            self._model_dir = ""
            self._prog_file = os.fspath(model_dir_or_prog_file)
            self._params_file = os.fspath(params_file)

    def set_prog_file(self, path):
        self._prog_file = os.fspath(path)

    def set_params_file(self, path):
        self._params_file = os.fspath(path)

    def model_dir(self):
        return self._model_dir

    def prog_file(self):
        return self._prog_file

    def params_file(self):
        return self._params_file

    def _files(self):
        if self._prog_file:
            prog = self._prog_file
            params = self._params_file or _prefix_of(prog) + ".pdiparams"
            if prog.endswith(".pdmodel") and not os.path.isfile(prog) and \
                    os.path.isfile(_prefix_of(prog) + ".json"):
                # code written for both IRs asks for the legacy X.pdmodel where
                # framework.in_pir_mode() is False (always, here: see there), but
                # save_inference_model wrote the model as X.json, as Paddle 3.3.1 does
                prog = _prefix_of(prog) + ".json"
            return prog, params
        if self._model_dir:
            return _resolve_dir_or_prefix(self._model_dir)
        raise ModelFileNotFound("Config has no model: give Config(model_file, params_file) or "
                                "Config(model_dir)")

    # device
    def enable_use_gpu(self, memory_pool_init_size_mb=100, device_id=0,
                       precision_mode=PrecisionType.Float32):
        if PrecisionType(precision_mode) != PrecisionType.Float32:
            raise NotImplementedError("paddle_compat's predictor runs the program in its saved "
                                      "precision only (PrecisionType.Float32)")
        self._gpu_mem_mb = int(memory_pool_init_size_mb)
        self._gpu_device_id = int(device_id)
        if torch.cuda.is_available():
            self._use_gpu = True
        else:
            warnings.warn("Config.enable_use_gpu: torch has no CUDA device here; the predictor "
                          "runs on the CPU")

    def disable_gpu(self):
        self._use_gpu = False

    def use_gpu(self):
        return self._use_gpu

    def gpu_device_id(self):
        return self._gpu_device_id

    def memory_pool_init_size_mb(self):
        return self._gpu_mem_mb

    # switches that are recorded (see the module docstring)
    def switch_ir_optim(self, x=True):
        self._ir_optim = bool(x)

    def ir_optim(self):
        return self._ir_optim

    def enable_memory_optim(self, x=True):
        self._memory_optim = bool(x)

    def set_cpu_math_library_num_threads(self, n):
        n = int(n)
        if n < 1:
            raise ValueError(f"set_cpu_math_library_num_threads needs a positive count, got {n}")
        self._num_threads = n
        self._threads_set = True

    def cpu_math_library_num_threads(self):
        return self._num_threads

    def enable_mkldnn(self):
        self._mkldnn = True

    def disable_mkldnn(self):
        self._mkldnn = False

    def mkldnn_enabled(self):
        return self._mkldnn

    def set_mkldnn_cache_capacity(self, capacity=0):
        pass

    def disable_glog_info(self):
        self._glog_disabled = True

    def glog_info_disabled(self):
        return self._glog_disabled

    def switch_use_feed_fetch_ops(self, x=True):
        self._feed_fetch_ops = bool(x)

    def use_feed_fetch_ops_enabled(self):
        return self._feed_fetch_ops

    def switch_specify_input_names(self, x=True):
        self._specify_input_names = bool(x)

    def specify_input_name(self):
        return self._specify_input_names

    def enable_new_ir(self, x=True):
        self._new_ir = bool(x)

    def new_ir_enabled(self):
        return self._new_ir

    # XPU: as Paddle's CPU build, which has none
    def enable_xpu(self, *args, **kwargs):
        raise RuntimeError("(PreconditionNotMet) To use XPU inference, please compile with "
                           "option 'WITH_XPU' or 'LITE_WITH_XPU' first. (paddle_compat runs "
                           "on torch's CPU and CUDA devices, not on XPUs)")

    def use_xpu(self):
        return False

    def xpu_device_id(self):
        return 0

    def set_xpu_device_id(self, device_id=0):
        raise RuntimeError("(PreconditionNotMet) Should call EnableXpu before SetXpuDeviceId.")

    def set_xpu_config(self, config):
        raise RuntimeError("(PreconditionNotMet) Should call EnableXpu before SetXpuConfig.")

    def xpu_config(self):
        return XpuConfig()

    def enable_new_executor(self, x=True):
        pass

    def delete_pass(self, name):
        self._deleted_passes.append(name)

    def summary(self):
        rows = [("model_dir", self._model_dir), ("model_file", self._prog_file),
                ("params_file", self._params_file), ("use_gpu", self._use_gpu),
                ("gpu_device_id", self._gpu_device_id),
                ("cpu_math_thread", self._num_threads), ("ir_optim", self._ir_optim),
                ("memory_optim", self._memory_optim), ("enable_mkldnn", self._mkldnn)]
        return "\n".join(f"{k:<20}{v}" for k, v in rows)


# ---------------------------------------------------------------------------- Predictor
def _dtype_of_array(a):
    return _NAMED.get(str(a.dtype), DataType.FLOAT32)


class Tensor:
    """``paddle.inference.Tensor``: the handle of one input or output of a Predictor."""

    def __init__(self, predictor, name, is_input):
        self._predictor = predictor
        self._name = name
        self._is_input = is_input
        self._shape = None
        self._lod = []

    def _value(self):
        store = self._predictor._in if self._is_input else self._predictor._out
        return store.get(self._name)

    def reshape(self, shape):
        shape = [int(d) for d in shape]
        if any(d < 0 for d in shape):
            raise ValueError(f"Tensor.reshape needs non-negative sizes, got {shape}")
        self._shape = shape

    def copy_from_cpu(self, data):
        if not isinstance(data, np.ndarray):
            raise TypeError("In copy_from_cpu, we only support numpy ndarray data type, got "
                            f"{type(data).__name__}")
        if not self._is_input:
            raise RuntimeError(f"{self._name!r} is an output of the predictor; copy_from_cpu "
                               "fills inputs")
        p = self._predictor
        buf = p._bufs.get(self._name)
        if buf is not None and data.shape == buf[1].shape and data.dtype == buf[1].dtype:
            np.copyto(buf[1], data)         # into the compiled package's input buffer
            p._in[self._name] = buf[0]
            p._off.discard(self._name)
        else:
            p._in[self._name] = torch.from_numpy(np.array(data, copy=True))
            p._owned.add(self._name)
            p._off.add(self._name)
        self._shape = list(data.shape)

    def share_external_data(self, data):
        """Use ``data`` (a paddle Tensor or numpy array) as the input without copying it."""
        if not self._is_input:
            raise RuntimeError(f"{self._name!r} is an output of the predictor")
        t = data._t if isinstance(data, _PTensor) else torch.as_tensor(data)
        p = self._predictor
        p._in[self._name] = t
        p._owned.discard(self._name)
        p._off.add(self._name)
        self._shape = list(t.shape)

    def copy_to_cpu(self):
        v = (self._predictor._in if self._is_input else self._predictor._out).get(self._name)
        if v is None:
            raise RuntimeError(f"{self._name!r} holds no data yet: "
                               + ("call copy_from_cpu" if self._is_input else "call run() first"))
        try:
            return v.numpy().copy()             # a CPU tensor outside autograd
        except (RuntimeError, TypeError):
            return v.detach().cpu().numpy().copy()

    def shape(self):
        v = self._value()
        if v is not None:
            return list(v.shape)
        if self._shape is not None:
            return list(self._shape)
        return list(self._predictor._declared.get(self._name, (None, []))[1] or [])

    def type(self):
        v = self._value()
        if v is not None:
            return _DTYPES.get(v.dtype, DataType.FLOAT32)
        dt = self._predictor._declared.get(self._name, (None, None))[0]
        return _NAMED.get(dt, DataType.FLOAT32)

    def lod(self):
        return [list(level) for level in self._lod]

    def set_lod(self, lod):
        self._lod = [list(level) for level in lod]

    def name(self):
        return self._name


class Predictor:
    """``paddle.inference.Predictor`` (made by ``create_predictor``)."""

    def __init__(self, config, layer=None, aot=None):
        self._config = config
        if layer is None:
            layer = _load(*config._files())
        if not isinstance(layer, TranslatedLayer):
            raise TypeError("Predictor needs a loaded program (TranslatedLayer)")
        self._layer = layer
        self._device = torch.device(f"cuda:{config._gpu_device_id}") if config._use_gpu \
            else torch.device("cpu")
        if self._device.type != "cpu":
            _move(layer, self._device)
        self._input_names = [f[1] for f in layer._feeds]
        self._output_names = [layer._fetch_names.get(col, f"fetch_name_{col}")
                              for col, _ in layer._fetches]
        self._declared = {f[1]: (f[2], f[3]) for f in layer._feeds}
        # enable_memory_optim() with ir_optim on: the AOTInductor package (jit/aot.py)
        if aot is None and _aot.wanted(config) and self._device.type == "cpu":
            aot = _aot.AotRunner(layer, config._files(), _StaticFunction,
                                 mkldnn=config._mkldnn)
        self._aot = aot
        self._in = {}                   # input name -> torch tensor
        self._out = {}                  # output name -> torch tensor
        # the compiled fast path: input name -> (buffer tensor, its numpy view) of the
        # package's signature; _off: inputs whose value is not (yet) their buffer;
        # _owned: inputs whose value is a private copy (copy_from_cpu), which may become
        # their buffer
        self._bufs = {}
        self._off = set(self._input_names)
        self._owned = set()
        self._fast_in = None            # the buffers in input order, once armed

    def get_input_names(self):
        return list(self._input_names)

    def get_output_names(self):
        return list(self._output_names)

    def get_input_handle(self, name):
        if name not in self._input_names:
            raise RuntimeError(f"The variable named {name} is not found in the scope of the "
                               f"executor: the inputs are {self._input_names}")
        return Tensor(self, name, True)

    def get_output_handle(self, name):
        if name not in self._output_names:
            raise RuntimeError(f"The variable named {name} is not found in the scope of the "
                               f"executor: the outputs are {self._output_names}")
        return Tensor(self, name, False)

    def _forward(self, tensors):
        """The outputs (torch tensors, fetch order) of the model on ``tensors``, also kept
        for the output handles."""
        outs = None
        if self._aot is not None:
            outs = self._aot(tensors)
            if outs is not None and self._fast_in is None:
                self._arm()
        if outs is None:
            with torch.no_grad(), _mode_guard(False):
                out = self._layer(*[_PTensor(t.to(self._device)) if t.device != self._device
                                    else _PTensor(t) for t in tensors])
            outs = [o._t for o in (out if isinstance(out, list) else [out])]
        self._out = dict(zip(self._output_names, outs))
        return outs

    def _arm(self):
        """Give every input a buffer of the compiled signature, so that ``copy_from_cpu``
        writes where the package reads and ``run()`` calls it with no Python in between. An
        input holding a private copy of that signature keeps it as its buffer."""
        aot = self._aot
        if aot.aliases_inputs:          # an output would share the buffer: keep copying
            return
        for name, (shape, dtype) in zip(self._input_names, aot.sig):
            t = self._in.get(name)
            if name in self._owned and t is not None and t.shape == shape and \
                    t.dtype == dtype and t.is_contiguous():
                self._off.discard(name)
            else:
                t = torch.empty(shape, dtype=dtype)
            self._bufs[name] = (t, t.numpy())
        self._fast_in = [self._bufs[n][0] for n in self._input_names]

    def run(self, inputs=None):
        """Run on the data copied into the input handles (returns None), or on ``inputs``
        (a list of Tensors in ``get_input_names()`` order; returns the outputs as Tensors)."""
        if inputs is None:
            if not self._off:           # every input is in the compiled package's buffer
                self._out = dict(zip(self._output_names, self._aot.run_flat(self._fast_in)))
                return None
            missing = [n for n in self._input_names if n not in self._in]
            if missing:
                raise RuntimeError(f"input(s) {missing} hold no data: fill them with "
                                   "get_input_handle(name).copy_from_cpu(array) first")
            self._forward([self._in[n] for n in self._input_names])
            return None
        if not isinstance(inputs, (list, tuple)):
            raise TypeError(f"Predictor.run takes a list of Tensors, got {type(inputs).__name__}")
        if len(inputs) != len(self._input_names):
            raise ValueError(f"wrong feed input size, need {len(self._input_names)} but get "
                             f"{len(inputs)}")
        ts = [x._t if isinstance(x, _PTensor) else torch.as_tensor(np.asarray(x))
              for x in inputs]
        return [_wrap(t) for t in self._forward(ts)]

    def clone(self, stream=None):
        """A predictor sharing this one's loaded program and parameters, with its own
        input and output handles."""
        return Predictor(self._config, self._layer, self._aot)

    def clear_intermediate_tensor(self):
        pass

    def try_shrink_memory(self):
        return 0


def _move(layer, device):
    layer.to(device)
    for k, v in list(layer._const.items()):
        if isinstance(v, _PTensor) and v._t.device != device:
            layer._const[k] = _PTensor(v._t.to(device))


def create_predictor(config):
    """A Predictor for ``config``; applies its thread count (``torch.set_num_threads``)."""
    if not isinstance(config, Config):
        raise TypeError(f"create_predictor needs a paddle.inference.Config, got "
                        f"{type(config).__name__}")
    if config._threads_set:
        torch.set_num_threads(config._num_threads)
    return Predictor(config)


class PredictorPool:
    """``size`` predictors of one config: ``retrieve(i)`` gives the i-th (the first is made
    from the config, the others are its clones sharing the weights)."""

    def __init__(self, config, size, /):
        if not isinstance(config, Config) or not isinstance(size, int):
            raise TypeError("__init__(): incompatible constructor arguments. The following "
                            "argument types are supported:\n    1. PredictorPool(arg0: "
                            "paddle.inference.Config, arg1: int)")
        if size < 1:
            raise ValueError("(InvalidArgument) The predictor pool size should be greater "
                             f"than 1, but it's ({size})")
        main = create_predictor(config)
        self._preds = [main] + [main.clone() for _ in range(size - 1)]

    def retrieve(self, idx, /):
        if not isinstance(idx, int) or idx < 0:
            raise TypeError("retrieve(): incompatible function arguments: retrieve(self, "
                            "arg0: int)")
        if idx >= len(self._preds):
            raise ValueError(f"(InvalidArgument) There are ({len(self._preds)}) predictors in "
                             f"the pool, but the idx is ({idx})")
        return self._preds[idx]


class XpuConfig:
    """``paddle.inference.XpuConfig``: the XPU settings, with Paddle's defaults. paddle_compat
    has no XPU backend: the settings are kept, ``Config.enable_xpu`` raises as Paddle's CPU
    build does."""

    __slots__ = ("context", "context_gm_size", "conv_autotune_file",
                 "conv_autotune_file_writeback", "conv_autotune_level", "device_id",
                 "fc_autotune_file", "fc_autotune_file_writeback", "fc_autotune_level",
                 "gemm_compute_precision", "l3_autotune_size", "l3_ptr", "l3_size",
                 "quant_post_dynamic_activation_method", "quant_post_dynamic_op_types",
                 "quant_post_dynamic_weight_precision",
                 "quant_post_static_gelu_out_threshold", "stream",
                 "transformer_encoder_adaptive_seqlen", "transformer_softmax_optimize_level")

    def __init__(self):
        self.context = None
        self.context_gm_size = -1
        self.conv_autotune_file = ""
        self.conv_autotune_file_writeback = False
        self.conv_autotune_level = 0
        self.device_id = 0
        self.fc_autotune_file = ""
        self.fc_autotune_file_writeback = False
        self.fc_autotune_level = 0
        self.gemm_compute_precision = 1
        self.l3_autotune_size = 0
        self.l3_ptr = None
        self.l3_size = 0
        self.quant_post_dynamic_activation_method = 0
        self.quant_post_dynamic_op_types = []
        self.quant_post_dynamic_weight_precision = 1
        self.quant_post_static_gelu_out_threshold = 10.0
        self.stream = None
        self.transformer_encoder_adaptive_seqlen = True
        self.transformer_softmax_optimize_level = 0


def convert_to_mixed_precision(model_file, params_file, mixed_model_file, mixed_params_file,
                               mixed_precision, backend, keep_io_types=True,
                               black_list=frozenset(), **kwargs):
    """Paddle rewrites a float32 model file into a mixed-precision one (cast ops inserted,
    weights stored in half precision) for a GPU / XPU backend; its CPU build refuses the CPU
    backend, and reads only the 2.x ProgramDesc format. paddle_compat reads model files but
    does not write Paddle programs: this raises (ValueError for the CPU backend, as
    Paddle's, NotImplementedError otherwise). Convert the loaded model instead
    (``paddle.jit.load(...)`` then ``.astype`` / ``paddle.amp``)."""
    if PlaceType(int(backend)) == PlaceType.CPU:
        raise ValueError("(InvalidArgument) mixed_precision currently not supported place "
                         "GPU or XPU or CUSTOM, not support CPU.")
    raise NotImplementedError(
        "paddle.inference.convert_to_mixed_precision writes a Paddle program file, which "
        "paddle_compat does not do; load the model with paddle.jit.load and run it under "
        "paddle.amp.auto_cast (or cast its parameters) instead")


def get_trt_compile_version():
    """The TensorRT version Paddle was built with: (0, 0, 0), no TensorRT (as Paddle's CPU
    build)."""
    return (0, 0, 0)


def get_trt_runtime_version():
    """The TensorRT version found at run time: (0, 0, 0), no TensorRT."""
    return (0, 0, 0)


# Paddle's 2.x operator names whose phi kernel has another name (the others keep theirs)
_PHI_KERNEL_NAMES = {
    "elementwise_add": "add", "elementwise_sub": "subtract", "elementwise_mul": "multiply",
    "elementwise_div": "divide", "elementwise_max": "maximum", "elementwise_min": "minimum",
    "elementwise_mod": "remainder", "elementwise_floordiv": "floor_divide",
    "elementwise_fmax": "fmax", "elementwise_fmin": "fmin",
    "elementwise_heaviside": "heaviside",
    "reduce_sum": "sum", "reduce_mean": "mean", "reduce_max": "max", "reduce_min": "min",
    "reduce_prod": "prod", "reduce_all": "all", "reduce_any": "any", "reduce_amax": "amax",
    "reduce_amin": "amin",
    "matmul": "legacy_matmul", "matmul_v2": "matmul", "mul": "matmul_with_flatten",
    "fill_constant": "full", "fill_any_like": "full_like",
    "fill_constant_batch_size_like": "full_batch_size_like",
    "lookup_table_v2": "embedding", "top_k": "topk_v1", "top_k_v2": "topk",
    "arg_max": "argmax", "arg_min": "argmin", "transpose2": "transpose",
    "reshape2": "reshape_with_xshape", "squeeze2": "squeeze", "unsqueeze2": "unsqueeze",
    "flatten_contiguous_range": "flatten", "expand": "legacy_expand", "expand_v2": "expand",
    "expand_as_v2": "expand_as",
    "softmax_with_cross_entropy": "cross_entropy_with_softmax", "hard_swish": "hardswish",
    "hard_sigmoid": "hardsigmoid", "hard_shrink": "hardshrink", "brelu": "hardtanh",
    "size": "numel", "range": "arange", "gaussian_random": "gaussian",
    "uniform_random": "uniform", "one_hot_v2": "one_hot", "where_index": "nonzero",
    "bilinear_interp_v2": "bilinear_interp", "nearest_interp_v2": "nearest_interp",
    "linear_interp_v2": "linear_interp", "bicubic_interp_v2": "bicubic_interp",
    "trilinear_interp_v2": "trilinear_interp", "sum": "add_n", "mean": "mean_all",
    "crop_tensor": "crop", "grid_sampler": "grid_sample", "diag_v2": "diag",
    "bilinear_tensor_product": "bilinear", "generate_proposals_v2": "generate_proposals",
    "yolov3_loss": "yolo_loss", "graph_send_recv": "send_u_recv",
    "graph_send_ue_recv": "send_ue_recv", "graph_reindex": "reindex_graph",
    "hierarchical_sigmoid": "hsigmoid_loss",
}


def _get_phi_kernel_name(op_name, /):
    """The phi kernel name of a 2.x operator name (``elementwise_add`` -> ``add``); other
    names come back as they are."""
    if not isinstance(op_name, str):
        raise TypeError("_get_phi_kernel_name(): incompatible function arguments: "
                        "_get_phi_kernel_name(arg0: str) -> str")
    return _PHI_KERNEL_NAMES.get(op_name, op_name)


# ---------------------------------------------------------------------------- static
class FetchTarget:
    """One fetch target of a loaded inference program (``fetch_list`` entry)."""

    def __init__(self, index, name):
        self.index, self.name = index, name

    def __repr__(self):
        return f"FetchTarget({self.name})"


class _RunLoaded:
    __slots__ = ("program", "idx", "device")

    def __call__(self, feed, scope, return_numpy):
        return self.program._run(feed, self.idx, self.device, return_numpy)


class InferenceProgram:
    """The program ``load_inference_model`` returns. ``Executor.run(program, feed,
    fetch_list)`` runs it: feed maps every name of ``feed_target_names`` to an array,
    fetch_list holds fetch targets (or their names)."""

    def __init__(self, layer, path, params_file=None):
        self._layer = layer
        self._path = path
        self._params_file = params_file or _prefix_of(path) + ".pdiparams"
        self._aot = None            # the AOTInductor runner of with_compiler()'s program
        self.feed_target_names = [f[1] for f in layer._feeds]
        self.fetch_targets = []
        for k, (col, vid) in enumerate(layer._fetches):
            self.fetch_targets.append(FetchTarget(
                k, layer._fetch_names.get(col, f"fetch_name_{col}")))
        self._ids = {id(t): t.index for t in self.fetch_targets}
        self._ids.update({t.name: t.index for t in self.fetch_targets})
        self._compiled = {}
        self._device = torch.device("cpu")

    def compiled(self, signature):
        """What ``Executor.run`` calls: the runner for (feed names, fetch keys, device)."""
        c = self._compiled.get(signature)
        if c is None:
            _, fkeys, device = signature
            idx = []
            for f in fkeys:
                if f not in self._ids:
                    raise ValueError(f"fetch_list entry {f!r} is not a fetch target of the "
                                     f"inference program {self._path}; use the fetch_targets "
                                     "load_inference_model returned (or their names "
                                     f"{[t.name for t in self.fetch_targets]})")
                idx.append(self._ids[f])
            c = _RunLoaded()
            c.program, c.idx, c.device = self, tuple(idx), torch.device(device)
            self._compiled[signature] = c
        return c

    def remember_compiled(self, signature, c):
        self._compiled[signature] = c

    def with_compiler(self):
        """This program run as an AOTInductor package (jit/aot.py, as the predictor's
        ``enable_memory_optim()``): what ``CompiledProgram(program, build_strategy)`` with
        ``build_strategy.build_cinn_pass = True`` gives. It shares the loaded weights."""
        other = InferenceProgram(self._layer, self._path, self._params_file)
        other.fetch_targets, other._ids = self.fetch_targets, self._ids   # the same targets
        other._aot = _aot.AotRunner(self._layer, (self._path, self._params_file),
                                    _StaticFunction)
        return other

    def _run(self, feed, idx, device, return_numpy):
        if device != self._device:
            _move(self._layer, device)
            self._device = device
        for name in feed:
            if name not in self.feed_target_names:
                warnings.warn(f"The value {name} is not found in program. It is not declared "
                              "or is pruned.")
        xs = []
        for name in self.feed_target_names:
            v = feed[name]           # KeyError for a missing feed, as Paddle's executor
            t = v._t if isinstance(v, _PTensor) else torch.as_tensor(np.asarray(v))
            xs.append(_PTensor(t.to(device)))
        outs = self._aot([x._t for x in xs]) \
            if self._aot is not None and device.type == "cpu" else None
        if outs is not None:
            outs = [_wrap(t) for t in outs]
        else:
            with torch.no_grad(), _mode_guard(False):   # also under paddle.enable_static()
                out = self._layer(*xs)
            outs = out if isinstance(out, list) else [out]
        res = [outs[i] for i in idx]
        return [o.numpy() for o in res] if return_numpy else res

    def clone(self, for_test=False):
        return self

    def __repr__(self):
        return (f"InferenceProgram({self._path}: feeds {self.feed_target_names}, fetches "
                f"{[t.name for t in self.fetch_targets]}, {len(self._layer.program())} ops)")


def load_inference_model(path_prefix, executor, **kwargs):
    """``paddle.static.load_inference_model``: ``[program, feed_target_names,
    fetch_targets]`` of the model saved at ``path_prefix`` (``model_filename`` /
    ``params_filename``: the files' names inside the folder ``path_prefix`` instead)."""
    unknown = sorted(set(kwargs) - {"model_filename", "params_filename"})
    if unknown:
        raise ValueError(f"load_inference_model takes no argument {', '.join(unknown)}")
    path_prefix = os.fspath(path_prefix)
    if kwargs.get("model_filename"):
        model_file = os.path.join(path_prefix, kwargs["model_filename"])
        params_file = os.path.join(path_prefix, kwargs["params_filename"]) \
            if kwargs.get("params_filename") else _prefix_of(model_file) + ".pdiparams"
    else:
        prefix = _prefix_of(path_prefix)
        if not os.path.isfile(prefix + ".json") and os.path.isfile(prefix + ".pdmodel"):
            model_file = prefix + ".pdmodel"
        else:
            model_file = prefix + ".json"
        params_file = prefix + ".pdiparams"
    if not os.path.isfile(model_file) and not model_file.endswith(".pdmodel"):
        raise ModelFileNotFound(f"Cannot open file {model_file}, please confirm whether the "
                                "file exists")
    layer = _load(model_file, params_file)
    program = InferenceProgram(layer, model_file, params_file)
    return [program, list(program.feed_target_names), list(program.fetch_targets)]
