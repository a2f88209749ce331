"""The rest of ``paddle.static``: ``CompiledProgram``/``BuildStrategy``, ``Print``, the metric
ops ``accuracy``/``auc``/``ctr_metric_bundle``, ``ExponentialMovingAverage``, ``py_func``,
``setitem``, ``device_guard``, ``WeightNormParamAttr`` and the XPU/IPU names.

What each follows in Paddle 3.3.1:

* ``auc`` and ``accuracy``, ``Print``, ``setitem``: Paddle's default (PIR) static mode; ``auc``
  there returns ``(auc, batch_stat_pos, batch_stat_neg)``, the statistics of the run's batch
  only (PIR creates them as zeros at each run). ``Print`` prints as the legacy print op does
  (the variable's name; PIR prints ``Variable: var`` for every variable).
* ``ExponentialMovingAverage``, ``ctr_metric_bundle``, ``py_func``: they fail on PIR values
  in Paddle 3.3.1 (TypeErrors); ours follow the legacy static graph (``FLAGS_enable_pir_api=0``).
* IPU and XPU do not exist on torch: ``xpu_places`` raises AssertionError, ``IpuStrategy``
  RuntimeError, ``IpuCompiledProgram``/``ipu_shard_guard`` ValueError, ``set_ipu_shard``
  TypeError for a non-callable: the types Paddle's CPU build raises.
"""
import contextlib
import functools
import operator

import numpy as np
import torch

from ..framework import dtype as _dt
from ..framework.indexing import bad_value, setitem as _setitem
from ..framework.param_attr import ParamAttr
from ..framework.tensor import Tensor, wrap
from . import mode as _mode
from .executor import global_scope
from .program import Program, create_global_var, default_main_program
from .proxy import StaticProxy, rebind, shape_of

__all__ = ["BuildStrategy", "CompiledProgram", "ExponentialMovingAverage", "Print",
           "WeightNormParamAttr", "accuracy", "auc", "ctr_metric_bundle", "device_guard",
           "py_func", "setitem", "xpu_places", "IpuCompiledProgram", "IpuStrategy",
           "ipu_shard_guard", "set_ipu_shard", "register_op"]


# ---------------------------------------------------------------------- compiled programs
class BuildStrategy:
    """Graph-building options of Paddle's ParallelExecutor. They are recorded and have no
    effect: ``Executor`` compiles every program the same way (a ``torch.fx.GraphModule``)."""

    class ReduceStrategy:
        AllReduce = 0
        Reduce = 1
        _NoReduce = 2

    class GradientScaleStrategy:
        CoeffNumDevice = 0
        One = 1
        Customized = 2

    def __init__(self):
        self.reduce_strategy = BuildStrategy.ReduceStrategy.AllReduce
        self.gradient_scale_strategy = BuildStrategy.GradientScaleStrategy.CoeffNumDevice
        self.debug_graphviz_path = ""
        self.enable_sequential_execution = False
        self.remove_unnecessary_lock = True
        self.fuse_elewise_add_act_ops = False
        self.fuse_gemm_epilogue = False
        self.fuse_adamw = False
        self.fused_attention = False
        self.fused_feedforward = False
        self.fuse_bn_act_ops = False
        self.fuse_bn_add_act_ops = True
        self.fuse_relu_depthwise_conv = False
        self.fuse_broadcast_ops = None
        self.fuse_all_optimizer_ops = None
        self.fuse_all_reduce_ops = None
        self.fuse_dot_product_attention = False
        self.fuse_resunit = False
        self.enable_auto_fusion = False
        self.enable_addto = False
        self.enable_inplace = True
        self.memory_optimize = None
        self.sync_batch_norm = False
        self.sequential_run = False
        self.build_cinn_pass = False
        self.allow_cuda_graph_capture = False
        self.num_trainers = 1
        self.trainer_id = 0
        self.trainers_endpoints = []
        self.nccl_comm_num = 1
        self.use_hierarchical_allreduce = False
        self.hierarchical_allreduce_inter_nranks = 0
        self.mkldnn_enabled_op_types = set()
        self.async_mode = False
        self.is_distribution = False

    def __repr__(self):
        return f"BuildStrategy: {hex(id(self))}"


class CompiledProgram:
    """A Program with a ``BuildStrategy``: ``Executor.run`` runs it as the Program itself
    (compiled once per feed/fetch signature, as every program is). A program loaded by
    ``load_inference_model`` is accepted too; with ``build_strategy.build_cinn_pass`` on it
    runs as an AOTInductor package (``InferenceProgram.with_compiler``)."""

    def __init__(self, program_or_graph, build_strategy=None):
        with_compiler = getattr(program_or_graph, "with_compiler", None)   # a loaded program
        if not isinstance(program_or_graph, Program) and with_compiler is None:
            raise TypeError("The type of program_to_graph parameter is wrong, expected Graph "
                            f"or Program, but received {type(program_or_graph)}")
        if build_strategy is not None and not isinstance(build_strategy, BuildStrategy):
            raise TypeError("build_strategy must be a paddle.static.BuildStrategy, but got "
                            f"{type(build_strategy).__name__}")
        self._build_strategy = build_strategy or BuildStrategy()
        if with_compiler is not None and self._build_strategy.build_cinn_pass:
            program_or_graph = with_compiler()
        self._program = program_or_graph
        self._place = None
        self._executor = None
        self._compiled = False

    # the Executor's cache is the program's
    def compiled(self, signature):
        return self._program.compiled(signature)

    def remember_compiled(self, signature, entry):
        self._program.remember_compiled(signature, entry)

    def global_block(self):
        return self._program.global_block()

    def __getattr__(self, name):
        if name.startswith("__") or name == "_program":
            raise AttributeError(name)
        return getattr(self._program, name)


# ---------------------------------------------------------------------- devices
def xpu_places(device_ids=None):
    """XPU places: there are none on torch (Paddle's CPU build raises the same error)."""
    raise AssertionError("Not compiled with XPU")


@contextlib.contextmanager
def device_guard(device=None):
    """Place the ops built inside on ``device`` ("cpu", "gpu", "gpu:N"). paddle_compat runs a
    program on the Executor's place: the guard checks its argument and has no other effect."""
    index = None
    if device and ":" in device:
        device, index = device.split(":", 1)
        if device == "cpu":
            raise ValueError("Should not set device id for cpu.")
    if device not in ("cpu", "gpu", "npu", "xpu", "", None) and not (
            device and device.startswith("custom")):
        raise ValueError("The Attr(device) should be 'cpu', 'xpu', 'dcu', 'gpu' or custom "
                         "device, and it can also be empty string or None when there is no "
                         f"need to specify device. But received {device}")
    yield


class IpuStrategy:
    """Graphcore IPU options: there is no IPU on torch."""

    def __init__(self):
        raise RuntimeError("Can not use IpuStrategy in non IPU compiled environment, please "
                           "re-compile with WITH_IPU=ON.")


class IpuCompiledProgram:
    """A Program compiled for Graphcore IPUs: there is no IPU on torch."""

    def __init__(self, program=None, scope=None, ipu_strategy=None):
        raise ValueError("Can not use this function since PaddlePaddle is not compiled with "
                         "IPU")


@contextlib.contextmanager
def ipu_shard_guard(index=-1, stage=-1):
    """Shard ops over IPUs: there is no IPU on torch."""
    raise ValueError("Can not use this function since PaddlePaddle is not compiled with IPU")
    yield  # pragma: no cover


def set_ipu_shard(call_func, index=-1, stage=-1):
    """Run ``call_func`` (a function or Layer) in an ``ipu_shard_guard``: calling it raises, as
    there is no IPU on torch."""
    if not callable(call_func):
        raise TypeError("Unsupported type. Only accept paddle.nn.Layer or function.")

    def wrapped(*args, **kwargs):
        with ipu_shard_guard(index=index, stage=stage):
            return call_func(*args, **kwargs)
    return wrapped


# ---------------------------------------------------------------------- attributes
class WeightNormParamAttr(ParamAttr):
    """A ParamAttr asking for weight normalisation ``w = g * v / ||v||`` over every dimension
    but ``dim``: the layer functions of ``static/legacy_nn.py`` (``conv2d``, ``prelu``,
    ``bilinear_tensor_product`` ...) create ``NAME_g``/``NAME_v`` for it; elsewhere (``fc``,
    ``nn`` layers) it acts as a plain ParamAttr."""

    params_with_weight_norm = []

    def __init__(self, dim=None, name=None, initializer=None, learning_rate=1.0,
                 regularizer=None, trainable=True, do_model_average=False, need_clip=True):
        super().__init__(name=name, initializer=initializer, learning_rate=learning_rate,
                         regularizer=regularizer, trainable=trainable,
                         do_model_average=do_model_average, need_clip=need_clip)
        self.dim = dim


# ---------------------------------------------------------------------- Print
class _Printer:
    """The state of one Print op: its settings and how often it has printed."""

    def __init__(self, name, first_n, message, summarize, flags):
        self.name = name
        self.first_n = first_n
        self.message = message
        self.summarize = summarize
        self.flags = flags
        self.count = 0

    def text(self, t):
        f = self.flags
        lines = []
        if f["name"]:
            lines.append(f"Variable: {self.name}")
        if self.message:
            lines.append(f"  - message: {self.message}")
        if f["lod"]:
            lines.append("  - lod: {}")
        lines.append(f"  - place: {_place_str(t)}")
        if f["shape"]:
            lines.append(f"  - shape: [{', '.join(str(d) for d in t.shape)}]")
        if f["layout"]:
            lines.append("  - layout: NCHW")
        if f["type"]:
            lines.append(f"  - dtype: {_dt.from_torch_dtype(t.dtype).name}")
        flat = t.detach().reshape(-1)
        if self.summarize != -1 and flat.numel() > self.summarize:
            flat = flat[:self.summarize]
        vals = flat.cpu().to(torch.float32).numpy()       # Paddle prints every dtype as float
        body = " ".join(f"{float(v):.6f}" for v in vals)
        lines.append(f"  - data: [{body}]")
        return "\n".join(lines)

    def __call__(self, t):
        if self.first_n < 0 or self.count < self.first_n:
            self.count += 1
            print(self.text(t), flush=True)


def _place_str(t):
    if t.device.type == "cuda":
        return f"Place(gpu:{t.device.index or 0})"
    return "Place(cpu)"


def _run_print(printer, t):
    printer(t)
    return t


def Print(input, first_n=-1, message=None, summarize=20, print_tensor_name=True,
          print_tensor_type=True, print_tensor_shape=True, print_tensor_layout=True,
          print_tensor_lod=True, print_phase="both"):
    """Print ``input`` (its name, shape, dtype and first ``summarize`` values) each time the
    program runs (the first ``first_n`` times when ``first_n >= 0``) and return it. Printing
    happens in the forward pass; the backward phase (gradients) is not printed."""
    if print_phase.upper() not in ("FORWARD", "BACKWARD", "BOTH"):
        raise ValueError(f"print_phase must be one of 'forward', 'backward', 'both', got "
                         f"{print_phase}")
    t = getattr(input, "_t", None)
    flags = {"name": print_tensor_name, "type": print_tensor_type,
             "shape": print_tensor_shape, "layout": print_tensor_layout,
             "lod": print_tensor_lod}
    if not isinstance(t, StaticProxy) and not _mode.in_dynamic_mode():
        t = default_main_program().tracer.constant(t)       # a constant of the program
    if not isinstance(t, StaticProxy):
        raise AssertionError(
            "In PaddlePaddle 2.x, we turn on dynamic graph mode by default, and 'Print()' is "
            "only supported in static graph mode. So if you want to use this api, please call "
            "'paddle.enable_static()' before this api to enter static graph mode.")
    tracer = t.tracer
    printer = _Printer(getattr(input, "name", None) or t.node.meta.get("var_name"), first_n,
                       message, summarize, flags)
    box = tracer.attr_node(f"_{tracer.unique_var_name('print_state')}", printer)
    if print_phase.upper() == "BACKWARD":
        return wrap(t)
    out = tracer.record("call_function", _run_print, (box, t), {},
                        pv=t.node.meta["pv"], rg=t.node.meta.get("rg", False),
                        var_name=tracer.unique_var_name("print") + ".tmp_0",
                        meta={"side_effect": True, "op_type": "print", "no_flatten": True})
    return wrap(out)


# ---------------------------------------------------------------------- metrics
def accuracy(input, label, k=1, correct=None, total=None):
    """The fraction of rows whose ``label`` is among the ``k`` largest entries of ``input``
    (a float32 0-d Variable); ``correct``/``total``, when given, receive the counts."""
    x, lab = input._t, label._t
    idx = torch.topk(x, k, dim=-1).indices
    hit = (idx == lab.reshape(-1, 1).to(idx.dtype)).any(dim=-1)
    n_correct = hit.sum().to(torch.int32)
    n_total = torch.ones_like(hit, dtype=torch.int32).sum()
    acc = n_correct.to(torch.float32) / n_total.to(torch.float32)
    for target, value in ((correct, n_correct), (total, n_total)):
        if target is not None:
            tt = target._t
            v = value.to(tt.dtype).reshape(shape_of(tt.node) if isinstance(tt, StaticProxy)
                                           else tt.shape)
            if isinstance(tt, StaticProxy):
                rebind(target, v)
            else:
                target._t = v
    return wrap(acc)


def _auc_value(pos, neg):
    """Area under the ROC curve from per-bucket positive/negative counts (highest bucket
    first, trapezoids), as Paddle's auc kernel computes it."""
    p = pos.flip(-1).to(torch.float64)
    n = neg.flip(-1).to(torch.float64)
    tp = torch.cumsum(p, -1)
    fp = torch.cumsum(n, -1)
    tp_prev = tp - p
    fp_prev = fp - n
    area = ((fp - fp_prev) * (tp + tp_prev) / 2.0).sum(-1)
    tot_p, tot_n = tp[..., -1], fp[..., -1]
    ok = (tot_p > 0) & (tot_n > 0)
    return torch.where(ok, area / torch.where(ok, tot_p * tot_n, torch.ones_like(tot_p)),
                       torch.zeros_like(area)).reshape([])


def auc(input, label, curve="ROC", num_thresholds=4095, topk=1, slide_steps=1,
        ins_tag_weight=None):
    """Area under the ROC curve of the batch: ``input[:, 1]`` (the positive class's
    probability) bucketed into ``num_thresholds + 1`` buckets. Returns ``(auc,
    batch_stat_pos, batch_stat_neg)`` as Paddle 3.3.1's default static mode does: auc a
    float64 0-d Variable, the counts ``[1, num_thresholds + 1]`` int64."""
    if curve != "ROC":
        raise NotImplementedError("paddle.static.auc: only curve='ROC' is supported")
    x, lab = input._t, label._t
    pred = x[:, -1] if x.dim() == 2 else x.reshape(-1)
    bins = (pred * num_thresholds).to(torch.int64).clamp(0, num_thresholds)
    is_pos = lab.reshape(-1) != 0
    if ins_tag_weight is not None:
        w = ins_tag_weight._t.reshape(-1)
        keep = (w != 0).to(torch.int64) if w.numel() == pred.shape[0] else None
    else:
        keep = None
    ones = torch.ones_like(bins) if keep is None else keep
    dev = "cpu" if isinstance(bins, StaticProxy) else bins.device
    zeros = torch.zeros([num_thresholds + 1], dtype=torch.int64, device=dev)
    pos = zeros.scatter_add(0, bins, ones * is_pos.to(torch.int64))
    neg = zeros.scatter_add(0, bins, ones * (~is_pos).to(torch.int64))
    value = _auc_value(pos, neg)
    return wrap(value), wrap(pos.reshape(1, -1)), wrap(neg.reshape(1, -1))


def ctr_metric_bundle(input, label, ins_tag_weight=None):
    """CTR metrics accumulated over runs in six persistable float32 ``[1]`` Variables:
    squared error, absolute error, sum of predictions, sum of their sigmoids (q), positives
    and instances (the latter two weighted by ``ins_tag_weight[0]``)."""
    if list(input.shape) != list(label.shape):
        raise AssertionError
    main = default_main_program()
    names = ["sqrerr", "abserr", "prob", "q", "pos_num", "ins_num"]
    # q and ins_num come out [1, 1] in Paddle (weighted by the [1, 1] ins_tag_weight)
    accs = [create_global_var([1, 1] if n in ("q", "ins_num") else [1], 0.0, "float32",
                              persistable=True,
                              name=main.tracer.unique_var_name("ctr_metric_bundle") + ".tmp_0")
            for n in names]
    x, y = input._t.to(torch.float32), label._t.to(torch.float32)
    w = torch.ones([1, 1], dtype=torch.float32) if ins_tag_weight is None else \
        ins_tag_weight._t.reshape(-1)[:1].reshape(1, 1).to(torch.float32)
    d = x - y
    batch = [(d * d).sum().reshape(1), d.abs().sum().reshape(1), x.sum().reshape(1),
             torch.sigmoid(x).sum().reshape(1) * w, y.sum().reshape(1),
             torch.ones_like(y[:, :1] if y.dim() > 1 else y).sum().reshape(1) * w]
    for acc, b in zip(accs, batch):
        main.assign_persistable(acc, acc._t + b)
    return tuple(accs)


# ---------------------------------------------------------------------- EMA
class ExponentialMovingAverage:
    """Moving averages of the parameters of the default main program (all of them, as
    Paddle's ``do_model_average``): ``update()`` appends
    ``ema = ema * decay + param * (1 - decay)`` to the program (call it after the
    optimizer's ``minimize``); ``apply(executor)`` swaps the parameters for the averages with
    Paddle's bias correction ``ema / (1 - decay ** step)``, ``restore(executor)`` swaps back.
    With ``thres_steps`` (a Variable, the step), the decay is
    ``min(decay, (thres_steps + 1) / (thres_steps + 10))``."""

    def __init__(self, decay=0.999, thres_steps=None, name=None):
        if _mode.in_dynamic_mode():
            raise Exception("In dygraph, don't support ExponentialMovingAverage.")
        self._decay = decay
        self._thres_steps = thres_steps
        self._name = name if name is not None else ""
        main = default_main_program()
        self._program = main
        self._decay_var = create_global_var([1], decay, "float32", persistable=True,
                                            name="scheduled_ema_decay_rate")
        if thres_steps is not None:
            ts = thres_steps._t.to(torch.float32).reshape([1])
            decay_t = (ts + 1.0) / (ts + 10.0)
            d = torch.minimum(decay_t, torch.full([1], decay, dtype=torch.float32))
            main.assign_persistable(self._decay_var, d)
        self._step_counter_name = "@EMA_STEP_COUNTER@"
        self._params = [p for p in reversed(main.all_parameters())]
        self._ema_vars = {}
        for p in self._params:
            self._ema_vars[p.name] = create_global_var(
                list(p.shape), 0.0, _dt.from_torch_dtype(p._t.dtype).name, persistable=True,
                name=main.tracer.unique_var_name(self._name + p.name + "_ema"))
        self._backup = {}
        self._step = None

    def update(self):
        """Append the averages' update to the default main program (and a step counter)."""
        main = default_main_program()
        if main.node_by_name(self._step_counter_name) is None:
            self._step = create_global_var([1], 0, "int64", persistable=True,
                                           name=self._step_counter_name)
            main.assign_persistable(self._step, self._step._t + 1)
        decay = self._decay_var._t
        for p in self._params:
            ema = self._ema_vars[p.name]
            main.assign_persistable(ema, ema._t * decay + p._t * (1 - decay))

    def _scope_value(self, scope, name):
        t = scope._vars.get(name)
        if t is None:
            raise RuntimeError(f"ExponentialMovingAverage: '{name}' is not in the scope: run "
                               "the startup program (and the training program) first")
        return t

    @contextlib.contextmanager
    def apply(self, executor, need_restore=True):
        """Inside the block the parameters hold their (bias-corrected) averages."""
        scope = global_scope()
        step_t = scope._vars.get(self._step_counter_name)
        step = float(step_t.reshape(-1)[0]) if step_t is not None else 0.0
        decay = self._scope_value(scope, self._decay_var.name).detach().to(torch.float32)
        decay_pow = torch.pow(decay, torch.tensor(step, dtype=torch.float32))
        with torch.no_grad():
            for p in self._params:
                cur = self._scope_value(scope, p.name)
                self._backup[p.name] = cur.detach().clone()
                ema = self._scope_value(scope, self._ema_vars[p.name].name)
                val = ema / (1.0 - decay_pow) if step > 0 else ema
                cur.copy_(val.reshape(cur.shape).to(cur.dtype))
        try:
            yield
        finally:
            if need_restore:
                self.restore(executor)

    def restore(self, executor):
        """Give the parameters back the values they had before ``apply``."""
        scope = global_scope()
        with torch.no_grad():
            for name, val in self._backup.items():
                scope._vars[name].copy_(val)
        self._backup = {}


# ---------------------------------------------------------------------- py_func / setitem
class _PyFunc:
    """A Python function run on the values of Variables at run time (``py_func``)."""

    def __init__(self, func, backward_func, out_metas):
        self.func = func
        self.backward_func = backward_func
        self.out_metas = out_metas

    def __call__(self, *tensors):
        with _mode.mode_guard(False):
            res = self.func(*[wrap(t.detach()) for t in tensors])
        if res is None:
            return ()
        if not isinstance(res, (list, tuple)):
            res = [res]
        outs = []
        for r, (dtype, _) in zip(res, self.out_metas):
            t = r._t if isinstance(r, Tensor) else torch.as_tensor(np.asarray(r))
            outs.append(t.to(dtype))
        return tuple(outs)


def _run_py_func(call, *tensors):
    return call(*tensors)


def py_func(func, x, out, backward_func=None, skip_vars_in_backward_input=None):
    """Run ``func`` (given the values of ``x`` as Tensors; ``np.array(t)`` reads them) when
    the program runs, its results becoming the Variables ``out`` (made beforehand with
    ``block.create_var(name=, dtype=, shape=)`` or ``paddle.static.data``). The outputs stop
    gradient (``backward_func`` is accepted and not run)."""
    if not callable(func):
        raise TypeError("func must be a Python function")
    xs = [] if x is None else (list(x) if isinstance(x, (list, tuple)) else [x])
    outs = [] if out is None else (list(out) if isinstance(out, (list, tuple)) else [out])
    for v in xs + outs:
        if not isinstance(v, Tensor):
            raise TypeError("The type of 'X' in py_func must be (<class 'list'>, <class "
                            "'tuple'>, <class 'paddle.base.framework.Variable'>, <class "
                            f"'NoneType'>), but received {type(v)}.")
    tracer = default_main_program().tracer
    proxies = [v._t if isinstance(v._t, StaticProxy) else tracer.constant(v._t) for v in xs]
    metas = [(o._t.dtype, o._t.node.meta["pv"]) for o in outs]
    call = _PyFunc(func, backward_func, metas)
    box = tracer.attr_node(f"_{tracer.unique_var_name('py_func')}", call)
    node = tracer.record("call_function", _run_py_func, (box, *proxies), {},
                         pv=(tuple(m[1][0] for m in metas), tuple(m[1][1] for m in metas)),
                         rg=False, var_name=None,
                         meta={"side_effect": True, "op_type": "py_func", "no_flatten": True})
    for k, o in enumerate(outs):
        res = tracer.record("call_function", operator.getitem, (node, k), {}, pv=metas[k][1],
                            rg=False,
                            var_name=o.name)
        rebind(o, res)
    return out


def setitem(x, index, value):
    """``x[index] = value`` in place (Paddle 3.3.1's ``set_value_``): in a program ``x`` then
    holds (and fetches) the new value and the returned Variable is that value; a constant
    ``x`` (``paddle.ones`` in a program) becomes one of the program, so a value that does not
    fit it fails when the program runs, as in Paddle."""
    t = getattr(x, "_t", None)
    if not isinstance(t, StaticProxy):
        if _mode.in_dynamic_mode() or not isinstance(t, torch.Tensor):
            x[index] = value
            return x
        if not _holds_variable((index, value)):
            try:                    # its index errors now (meta tensors miss some)
                _set_copy(t, index, value)
            except ValueError:
                pass                # a value that does not fit: when the program runs
        t = default_main_program().tracer.constant(t)
    if not isinstance(value, (Tensor, np.ndarray, np.generic, int, float, bool, complex)):
        raise bad_value(value)
    v = getattr(value, "_t", value)
    if isinstance(v, np.ndarray):
        v = torch.from_numpy(v)
    if isinstance(v, torch.Tensor) and not isinstance(v, StaticProxy) or \
            isinstance(v, (int, float, bool)):
        v = torch.as_tensor(v, dtype=t.dtype)
    out = t.tracer.record("call_function", _set_copy, (t, index, v), {},
                          var_name=t.tracer.unique_var_name("set_value") + ".tmp_0",
                          meta={"op_type": "set_value_", "side_effect": True})
    rebind(x, out)              # Paddle's set_value_ writes x in place: x now fetches this
    return wrap(out)


def _holds_variable(v):
    if isinstance(v, (tuple, list)):
        return any(_holds_variable(a) for a in v)
    return isinstance(getattr(v, "_t", v), StaticProxy)


def _set_copy(t, index, value):
    out = t.clone()
    try:                            # Paddle's indexing (negative steps, bool lists, ...)
        _setitem(wrap(out), index, wrap(value) if isinstance(value, torch.Tensor) else value)
    except ValueError:              # a value of a shape that does not broadcast to x[index]
        if out.device.type == "meta":
            return out              # as Paddle, found when the program runs, not when built
        raise
    return out


def register_op(fn=None, /, *, name=None, infer_meta=None, input_names=None, output_names=None,
                inplace_map=None):
    """Make the Python function ``fn`` an op (a decorator when ``fn`` is left out). In dynamic
    mode it is called as it is; in static mode its body is recorded into the program like any
    other code of ours (Paddle instead runs it as one opaque op, dynamic inside, with
    ``infer_meta`` giving the output's meta: the same values for a function written with
    paddle ops). Paddle's argument checks are kept: ``input_names``, ``output_names`` and
    ``infer_meta`` are required."""
    if input_names is None:
        raise ValueError("Currently, input_names must be provided.")
    if output_names is None:
        raise ValueError("Currently, output_names must be provided.")
    if infer_meta is None:
        raise ValueError("Currently, infer_meta must be provided.")

    def decorate(real_fn):
        @functools.wraps(real_fn)
        def op(*args, **kwargs):
            return real_fn(*args, **kwargs)
        op.op_name = name or real_fn.__name__
        op.input_names, op.output_names = list(input_names), list(output_names)
        op.inplace_map = dict(inplace_map or {})
        return op
    return decorate if fn is None else decorate(fn)
