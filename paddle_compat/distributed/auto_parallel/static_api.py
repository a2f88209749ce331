"""The rest of Paddle's auto-parallel API: ``Strategy``, ``to_static``/``DistModel``,
``LocalLayer``, ``local_map``, ``shard_op``, ``DistAttr``, the sharded-weight records
(``ShardedWeight``, ``shard_weight``, ``build_sharded_state_dict``), ``load_merged_state_dict``,
``to_distributed``, ``enable_auto_dp`` and the plans that need kernels we lack
(``ContextParallel``, ``PrepareContextParallel``, ``ConvParallel``).

Paddle's ``to_static`` turns the model into a static program that its planner partitions; here
the distributed tensors already carry the partitioning, so ``DistModel`` runs the same layer
(through ``paddle.jit.to_static``'s graph is not needed: every op is a DTensor op) and keeps
Paddle's modes: ``train()`` (forward, loss, backward, optimizer step), ``eval()`` (forward and
loss), ``predict()`` (forward).
"""
import os

import torch.distributed as tdist
from torch.distributed.tensor import DTensor
from torch.distributed.tensor._utils import compute_local_shape_and_global_offset

from ...framework import dtype as _dt
from ...framework.tensor import Tensor, wrap
from ...nn.layer.layers import Layer
from ...ops.creation import zeros
from . import placement as _pl
from .api import reshard, shard_tensor
from .checkpoint import _SafeReader, load_state_dict
from .parallelize import _Plan
from .process_mesh import ProcessMesh
from .sharding import shard_dataloader, shard_layer, shard_optimizer

__all__ = ["Strategy", "DistModel", "to_static", "LocalLayer", "local_map", "shard_op",
           "DistAttr", "ShardedWeight", "ShardedStateDict", "shard_weight",
           "build_sharded_state_dict", "load_merged_state_dict", "to_distributed",
           "enable_auto_dp", "ContextParallel", "PrepareContextParallel", "ConvParallel"]


# ---------------------------------------------------------------------- Strategy
class _Config:
    """One section of a Strategy: attributes with Paddle's defaults."""

    _defaults = {}

    def __init__(self, values=None):
        for k, v in self._defaults.items():
            setattr(self, k, list(v) if isinstance(v, list) else v)
        for k, v in (values or {}).items():
            if k in self._defaults:
                setattr(self, k, v)

    def to_dict(self):
        return {k: getattr(self, k) for k in self._defaults}

    def get(self, key, default=None):
        return getattr(self, key, default)

    def from_dict(self, values):
        for k, v in values.items():
            if k in self._defaults:
                setattr(self, k, v)

    def __repr__(self):
        return "{" + "".join(f'"{k}":"{v}",' for k, v in self.to_dict().items()) + "}"


class _AmpConfig(_Config):
    _defaults = {"enable": False, "dtype": "float16", "level": "o1",
                 "init_loss_scaling": 32768.0, "incr_every_n_steps": 1000,
                 "decr_every_n_nan_or_inf": 2, "incr_ratio": 2.0, "decr_ratio": 0.8,
                 "use_dynamic_loss_scaling": True, "custom_white_list": [],
                 "custom_black_list": [], "custom_black_varnames": [], "use_fp16_guard": False,
                 "use_bf16_guard": False, "use_master_grad": False, "use_promote": True}


class _ShardingConfig(_Config):
    _defaults = {"enable": False, "stage": 1, "degree": 8, "enable_overlap": False,
                 "param_comm_stream_num": 1, "grad_comm_stream_num": 1,
                 "param_bucket_size_numel": 1, "grad_bucket_size_numel": 1,
                 "enable_hierarchical_comm": False, "partition_algor": "greedy_even",
                 "enable_tuning": False, "tuning_range": [], "release_gradients": False,
                 "comm_buffer_size_MB": 256, "enable_tensor_fusion": False,
                 "save_unbalanced_param": True}


class _GradientMergeConfig(_Config):
    _defaults = {"enable": False, "k_steps": 1, "avg": True}


class _PipelineConfig(_Config):
    _defaults = {"enable": False, "schedule_mode": "1F1B", "pp_degree": 1, "vpp_degree": 1,
                 "vpp_seg_method": "", "micro_batch_size": 1, "accumulate_steps": 1,
                 "generation_batch_size": 1, "enable_send_recv_overlap": False,
                 "job_schedule_profiler_start": -1, "job_schedule_profiler_stop": -1,
                 "memory_limit_times": -1, "split_backward": False,
                 "auto_parallel_sync_shared_params": False}


class _FusedPassesConfig(_Config):
    _defaults = {"enable": False, "gemm_epilogue": False, "dropout_add": False}


class Strategy:
    """The auto-parallel configuration: ``sharding``, ``gradient_merge``, ``pipeline``,
    ``amp``, ``fused_passes`` sections (from a dict of dicts) and the top-level switches."""

    _sections = {"amp": _AmpConfig, "sharding": _ShardingConfig,
                 "gradient_merge": _GradientMergeConfig, "pipeline": _PipelineConfig,
                 "fused_passes": _FusedPassesConfig}
    _top = {"all_ranks": False, "auto_mode": "semi", "full_graph": True, "gradient_scale": True,
            "gradient_scale_using_allreduce_avg": False, "return_numpy": True, "seed": None,
            "split_data": True, "use_cache": True}

    def __init__(self, config=None):
        if config is not None and not isinstance(config, dict):
            raise ValueError(f"Expected a dictionary. But received: {config}")
        config = dict(config or {})
        for k, v in self._top.items():
            setattr(self, k, config.get(k, v))
        for k, cls in self._sections.items():
            setattr(self, k, cls(config.get(k)))

    def to_dict(self):
        out = {k: getattr(self, k) for k in self._top}
        out.update({k: getattr(self, k).to_dict() for k in self._sections})
        return out

    def get(self, key, default=None):
        return getattr(self, key, default)


# ---------------------------------------------------------------------- DistModel
class DistModel:
    """A layer with its loss and optimizer, run in one of Paddle's modes: ``train()`` (a call
    returns the loss after forward, backward and the optimizer step), ``eval()`` (the loss),
    ``predict()`` (the outputs)."""

    def __init__(self, layer, loader=None, loss=None, optimizer=None, strategy=None,
                 metrics=None, input_spec=None):
        self._layer = layer
        self._loss = loss
        self._opt = optimizer
        self._strategy = strategy or Strategy()
        self._mode = None
        self._k = max(1, int(self._strategy.gradient_merge.k_steps)) \
            if self._strategy.gradient_merge.enable else 1
        self._steps = 0
        if optimizer is not None and loss is not None:
            self.train()
        elif loss is not None:
            self.eval()
        else:
            self.predict()

    def train(self):
        if self._opt is None or self._loss is None:
            raise RuntimeError("DistModel.train() needs the loss and the optimizer given to "
                               "dist.to_static")
        self._layer.train()
        self._mode = "train"

    def eval(self):
        if self._loss is None:
            raise RuntimeError("DistModel.eval() needs the loss given to dist.to_static")
        self._layer.eval()
        self._mode = "eval"

    def predict(self):
        self._layer.eval()
        self._mode = "predict"

    def __call__(self, *args):
        if self._mode == "predict":
            return self._layer(*args)
        *inputs, label = args
        out = self._layer(*inputs)
        loss = self._loss(out, label)
        if self._mode == "train":
            (loss / self._k if self._k > 1 else loss).backward()
            self._steps += 1
            if self._steps % self._k == 0:
                self._opt.step()
                self._opt.clear_grad()
        return float(loss) if self._strategy.return_numpy else loss

    def state_dict(self, mode="all"):
        sd = dict(self._layer.state_dict()) if mode in ("all", "param") else {}
        if self._opt is not None and mode in ("all", "opt"):
            sd.update(self._opt.state_dict())
        return sd

    def set_state_dict(self, state_dict):
        self._layer.set_state_dict(state_dict)

    @property
    def dist_main_program(self):
        raise NotImplementedError("DistModel has no static program in paddle_compat: the model "
                                  "runs on distributed tensors directly")


def to_static(layer, loader=None, loss=None, optimizer=None, strategy=None, input_spec=None):
    """``DistModel(layer, loader, loss, optimizer, strategy)`` (see DistModel)."""
    return DistModel(layer, loader, loss, optimizer, strategy, input_spec=input_spec)


# ---------------------------------------------------------------------- local computation
def _mesh_of(tensors, default):
    for t in tensors:
        if isinstance(t, Tensor) and t.is_dist():
            return t.process_mesh
    return default


def _to_local(x, placements=None, mesh=None):
    if isinstance(x, Tensor) and x.is_dist():
        if placements is not None:
            x = reshard(x, mesh or x.process_mesh, placements)
        return x._local_value()
    return x


def _to_dist(x, mesh, placements):
    if isinstance(x, Tensor) and not x.is_dist():
        return wrap(DTensor.from_local(x._t, mesh.device_mesh(), _pl.to_torch(placements),
                                       run_check=False))
    return x


def local_map(func, out_placements, in_placements=None, process_mesh=None,
              reshard_inputs=False):
    """``func`` run on the local shards of its distributed arguments (resharded first to
    ``in_placements`` when ``reshard_inputs``); its outputs become distributed Tensors with
    ``out_placements`` (one list per output) on ``process_mesh`` (default: the inputs')."""
    def wrapped(*args, **kwargs):
        mesh = process_mesh or _mesh_of(list(args) + list(kwargs.values()), None)
        if mesh is None:
            return func(*args, **kwargs)
        ins = in_placements or [None] * len(args)
        local = [_to_local(a, p if reshard_inputs else None, mesh) for a, p in zip(args, ins)]
        local += [_to_local(a) for a in args[len(local):]]
        out = func(*local, **{k: _to_local(v) for k, v in kwargs.items()})
        if isinstance(out, (list, tuple)):
            return type(out)(_to_dist(o, mesh, p) if p is not None else o
                             for o, p in zip(out, out_placements))
        return _to_dist(out, mesh, out_placements[0]) if out_placements[0] is not None else out
    return wrapped


class LocalLayer(Layer):
    """A Layer whose ``forward`` computes on local shards: its distributed inputs arrive as
    their local values and its outputs leave as distributed Tensors laid out by
    ``out_dist_attrs`` (a ``(mesh, placements)`` per output)."""

    def __init__(self, out_dist_attrs, grad_dist_attrs=None):
        super().__init__()
        self.out_dist_attrs = out_dist_attrs
        self.grad_dist_attrs = grad_dist_attrs

    def __call__(self, *inputs, **kwargs):
        out = super().__call__(*[_to_local(x) for x in inputs],
                               **{k: _to_local(v) for k, v in kwargs.items()})
        outs = out if isinstance(out, (list, tuple)) else [out]
        if len(outs) != len(self.out_dist_attrs):
            raise ValueError(f"LocalLayer: forward returned {len(outs)} outputs for "
                             f"{len(self.out_dist_attrs)} out_dist_attrs")
        placed = [_to_dist(o, m, p) for o, (m, p) in zip(outs, self.out_dist_attrs)]
        return type(out)(placed) if isinstance(out, (list, tuple)) else placed[0]


def _spec_placements(mesh, spec):
    """Placements of an old-style shard spec (a mesh dim name or None per tensor dim)."""
    placements = [_pl.Replicate()] * mesh.ndim
    for tdim, name in enumerate(spec or []):
        if name is not None:
            placements[mesh.dim_names.index(name)] = _pl.Shard(tdim)
    return placements


def shard_op(op, process_mesh=None, in_shard_specs=None, out_shard_specs=None, **kwargs):
    """``op`` with its Tensor inputs (and outputs) laid out by shard specs on the mesh."""
    def wrapped(*args, **kw):
        mesh = process_mesh or _mesh_of(args, None)
        if mesh is None:
            raise ValueError("shard_op: give a process_mesh (or distributed inputs)")
        specs = in_shard_specs or [None] * len(args)
        args = [(_place_as(a, mesh, _spec_placements(mesh, s)) if isinstance(a, Tensor)
                 and s is not None else a) for a, s in zip(args, specs)] + list(args[len(specs):])
        out = op(*args, **kw)
        if out_shard_specs is None:
            return out
        outs = out if isinstance(out, (list, tuple)) else [out]
        placed = [_place_as(o, mesh, _spec_placements(mesh, s)) if s is not None else o
                  for o, s in zip(outs, out_shard_specs)]
        return type(out)(placed) if isinstance(out, (list, tuple)) else placed[0]
    return wrapped


def _place_as(t, mesh, placements):
    return reshard(t, mesh, placements) if t.is_dist() else shard_tensor(t, mesh, placements)


class DistAttr:
    """The older way to say how a tensor is distributed: a mesh and a shard spec (a mesh dim
    name, or None, per tensor dim)."""

    def __init__(self, mesh, sharding_specs):
        if not isinstance(mesh, ProcessMesh):
            raise ValueError("DistAttr: mesh must be a ProcessMesh")
        for s in sharding_specs:
            if s is not None and s not in mesh.dim_names:
                raise ValueError(f"DistAttr: {s!r} is not a dimension of the mesh "
                                 f"{mesh.dim_names}")
        self.process_mesh = mesh
        self.sharding_specs = list(sharding_specs)

    @property
    def dims_mapping(self):
        return [-1 if s is None else self.process_mesh.dim_names.index(s)
                for s in self.sharding_specs]

    def placements(self):
        return _spec_placements(self.process_mesh, self.sharding_specs)


# ---------------------------------------------------------------------- sharded weights
class ShardedWeight:
    """One rank's piece of a weight: its local tensor and where it lies in the global one."""

    def __init__(self, key, local_tensor, local_shape, global_shape, global_offset,
                 is_flattened=False, flattened_range=None):
        self.key = key
        self.local_tensor = local_tensor
        self.local_shape = tuple(local_shape)
        self.global_shape = tuple(global_shape)
        self.global_offset = tuple(global_offset)
        self.is_flattened = is_flattened
        self.flattened_range = flattened_range

    def __repr__(self):
        return (f"ShardedWeight(key={self.key!r}, local_shape={self.local_shape}, "
                f"global_shape={self.global_shape}, global_offset={self.global_offset})")


ShardedStateDict = dict       # key -> ShardedWeight


def shard_weight(key, weight, axis, group):
    """The ``ShardedWeight`` of ``weight``, this rank's part of a weight split evenly on
    ``axis`` over ``group``'s ranks."""
    n, rank = group.nranks, group.rank
    shape = list(weight.shape)
    global_shape = list(shape)
    global_shape[axis] = shape[axis] * n
    offset = [0] * len(shape)
    offset[axis] = shape[axis] * rank
    return ShardedWeight(key, weight, shape, global_shape, offset)


def build_sharded_state_dict(state_dict, shard_rules=None, prefix=""):
    """``{prefix + key: ShardedWeight}`` of a state dict: a distributed Tensor gives its local
    shard's place; a dense one (or one named in ``shard_rules``... with an axis) is whole."""
    out = {}
    for k, v in state_dict.items():
        key = prefix + k
        if isinstance(v, Tensor) and v.is_dist():
            local = v._t.to_local()
            shape, offset = _local_box(v._t)
            out[key] = ShardedWeight(key, wrap(local), shape, list(v.shape), offset)
        else:
            out[key] = ShardedWeight(key, v, list(v.shape), list(v.shape), [0] * v.ndim)
    return out


def _local_box(dt):
    shape, offset = compute_local_shape_and_global_offset(dt.shape, dt.device_mesh,
                                                          dt.placements)
    return list(shape), list(offset)


def load_merged_state_dict(path, prefix=None, unique_id=None, offload=False, aoa_config=None,
                           safetensors=False):
    """Every tensor of the checkpoint at ``path``, whole, as dense Tensors (one process)."""
    if not os.path.isdir(path):
        raise FileNotFoundError(f"load_merged_state_dict: no checkpoint directory at {path!r}")
    meta = _SafeReader(path).read_metadata()
    targets = {}
    for k, m in meta.state_dict_metadata.items():
        if prefix and not k.startswith(prefix):
            continue
        size = getattr(m, "size", None)
        if size is None:
            continue
        targets[k] = zeros(list(size), dtype=_dt.from_torch_dtype(m.properties.dtype).name)
    load_state_dict(targets, path)
    return targets


def to_distributed(model, optimizer, dataloader, device_num, node_num=1, config=None):
    """Data parallelism over every rank of the job: the model replicated on a 1-d ``dp`` mesh,
    its optimizer wrapped, its batches split. Returns ``(model, optimizer, dataloader)``."""
    world = tdist.get_world_size() if tdist.is_initialized() else device_num * (node_num or 1)
    mesh = ProcessMesh(list(range(world)), dim_names=["dp"])
    model = shard_layer(model, mesh)
    optimizer = shard_optimizer(optimizer)
    dataloader = shard_dataloader(dataloader, mesh, shard_dims="dp")
    return model, optimizer, dataloader


_auto_dp = False


def enable_auto_dp():
    """Let ``to_static`` treat dense models as data parallel over all ranks."""
    global _auto_dp
    _auto_dp = True


class _Unsupported(_Plan):
    _what = ""

    def __init__(self, *args, **kwargs):
        self.args = args

    def apply(self, layer, mesh, params):
        raise NotImplementedError(f"{type(self).__name__}: {self._what} is not supported by "
                                  "paddle_compat yet")


class ContextParallel(_Unsupported):
    """Context (sequence) parallel attention -- ring or all-to-all over ``mp``."""
    _what = "context parallel attention"

    def __init__(self, backend="p2p"):
        self.backend = backend


class PrepareContextParallel(_Unsupported):
    """Split the inputs on the sequence for ``ContextParallel``."""
    _what = "context parallel input preparation"

    def __init__(self, backend="p2p"):
        self.backend = backend


class ConvParallel(_Unsupported):
    """Spatially parallel convolution."""
    _what = "spatially parallel convolution"

