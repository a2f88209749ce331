"""``paddle.static``: Paddle's static graph mode on ``torch.fx``.

A ``Program`` owns a ``torch.fx.Graph``; ``static.data`` gives Variables (Tensors whose payload
is a ``StaticProxy``) and every op of the op library records nodes through the same code as in
dynamic mode. ``Executor.run`` compiles a GraphModule once per program and feed/fetch signature
and then only runs it. See ``proxy``, ``program``, ``executor``, ``backward``, ``nn``,
``export`` for the parts; ``optimizer`` for the hook optimizers' ``minimize`` uses;
``legacy_nn`` for static.nn's layer functions (``conv2d``, ``batch_norm`` ...), ``while_loop``
and ``switch_case`` (bound into ``nn`` below); ``misc`` for ``Print``, the metric ops, EMA,
``CompiledProgram`` and the IPU/XPU names.

The modules import one another only downwards: ``mode``, ``proxy`` -> ``variable`` ->
``program`` -> ``nn`` -> ``backward`` -> ``executor`` -> ``export`` (``optimizer`` on
``backward``; ``executor`` -> ``misc`` -> ``legacy_nn``). Importing ``static`` fills two hooks of ``framework.hooks`` that lower layers
call: ``static_repr`` (``variable.variable_repr``: how a Variable prints) and
``record_pylayer`` (``nn.record_pylayer``: ``PyLayer.apply`` given Variables).
"""
from . import mode
from .mode import disable_static, enable_static, in_dynamic_mode, in_static_mode
from .proxy import StaticGraphError, StaticProxy
from .program import (Block, Operator, Program, Variable, create_global_var, create_parameter,
                      data, default_main_program, default_startup_program, name_scope,
                      program_guard)
from .executor import Executor, Scope, cpu_places, cuda_places, global_scope, scope_guard
from .backward import append_backward, gradients
from . import nn
from . import optimizer
from . import amp
from .export import export, to_graph_module
from .input_spec import InputSpec
from . import legacy_nn as _legacy_nn
from .misc import (BuildStrategy, CompiledProgram, ExponentialMovingAverage,
                   IpuCompiledProgram, IpuStrategy, Print, WeightNormParamAttr, accuracy, auc,
                   ctr_metric_bundle, device_guard, ipu_shard_guard, py_func, register_op,
                   set_ipu_shard, setitem, xpu_places)
from .io import (deserialize_persistables, deserialize_program, load, load_from_file,
                 load_program_state, load_vars, normalize_program, save, save_inference_model,
                 save_to_file, save_vars, serialize_persistables, serialize_program,
                 set_program_state)
from ..framework import hooks as _hooks


def load_inference_model(path_prefix, executor, **kwargs):
    """``[program, feed_target_names, fetch_targets]`` of the model Paddle 3.x saved at
    ``path_prefix`` (``save_inference_model`` / ``jit.save``: NAME.json + NAME.pdiparams);
    ``executor.run(program, feed={name: array}, fetch_list=fetch_targets)`` runs it. The work
    is ``paddle.inference.load_inference_model``'s (reached through a hook: it is a floor up)."""
    return _hooks.load_inference_model(path_prefix, executor, **kwargs)


for _n in _legacy_nn.__all__:         # static.nn's layer functions (see nn.__all__)
    setattr(nn, _n, getattr(_legacy_nn, _n))
nn.py_func = py_func
del _n

__all__ = ["Program", "Block", "Operator", "Variable", "program_guard", "default_main_program",
           "default_startup_program", "data", "create_parameter", "create_global_var",
           "Executor", "Scope", "global_scope", "scope_guard", "gradients", "append_backward",
           "nn", "InputSpec", "to_graph_module", "export", "StaticGraphError", "name_scope",
           "enable_static", "disable_static", "in_dynamic_mode", "cpu_places", "cuda_places",
           "load_inference_model",
           "BuildStrategy", "CompiledProgram", "ExponentialMovingAverage", "IpuCompiledProgram",
           "IpuStrategy", "Print", "WeightNormParamAttr", "accuracy", "auc",
           "ctr_metric_bundle", "device_guard", "ipu_shard_guard", "py_func", "set_ipu_shard",
           "setitem", "xpu_places", "register_op"]
__all__ += ["save_inference_model", "serialize_program", "serialize_persistables",
            "deserialize_program", "deserialize_persistables", "save_to_file", "load_from_file",
            "save", "load", "load_program_state", "set_program_state", "save_vars", "load_vars",
            "normalize_program"]
