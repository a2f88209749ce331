"""``parallelize``: data, tensor and sharding parallelism of a whole model from one config, and
the tensor-parallel plans it takes (``ColWiseParallel``, ``RowWiseParallel``, the sequence
parallel markers, ``PrepareLayerInput``/``Output``).

The mesh's dimensions are found by Paddle's names: ``dp`` (data / sharding), ``mp`` (tensor).
A plan lays a layer's parameters out on the ``mp`` dimension and installs the forward hooks that
reshard its input or output; the rest of the model is replicated, the batch is split on ``dp``
by ``shard_dataloader`` (or by the caller), and ``dp_config``'s ``sharding_level`` wraps the
optimizer in the matching ``ShardingStage``. Every op then runs through DTensor, so the numbers
are a single process's.
"""
import enum
import re

from ...framework.tensor import Tensor
from . import placement as _pl
from .api import relayout, reshard, shard_tensor
from .process_mesh import ProcessMesh, get_mesh
from .sharding import ShardingStage1, ShardingStage2, ShardingStage3, shard_layer, shard_optimizer

__all__ = ["parallelize", "ColWiseParallel", "RowWiseParallel", "SequenceParallelBegin",
           "SequenceParallelEnd", "SequenceParallelEnable", "SequenceParallelDisable",
           "PrepareLayerInput", "PrepareLayerOutput", "SplitPoint"]


class SplitPoint(enum.Enum):
    """Where a pipeline stage ends, relative to the named layer."""
    BEGINNING = 0
    END = 1


def _axis(mesh, name, plan):
    if name not in mesh.dim_names:
        raise ValueError(f"{plan}: the mesh has no {name!r} dimension (its dim_names are "
                         f"{mesh.dim_names}); name the tensor-parallel dimension 'mp'")
    return mesh.dim_names.index(name)


def _placements(mesh, axis, p):
    out = [_pl.Replicate()] * mesh.ndim
    out[axis] = p
    return out


def _place_param(layer, name, mesh, placements):
    p = getattr(layer, name, None)
    if p is not None:
        relayout(p, mesh, placements)


def _each(outputs, fn):
    if isinstance(outputs, (list, tuple)):
        return type(outputs)(fn(o) if isinstance(o, Tensor) else o for o in outputs)
    return fn(outputs) if isinstance(outputs, Tensor) else outputs


def _to(t, mesh, placements):
    """``t`` (dense or distributed) laid out as ``placements`` on ``mesh``."""
    return reshard(t, mesh, placements) if t.is_dist() else shard_tensor(t, mesh, placements)


class _Plan:
    """A tensor-parallel plan: ``apply(layer, mesh, param_names)``."""

    def apply(self, layer, mesh, params):
        raise NotImplementedError

    def __repr__(self):
        return f"{type(self).__name__}()"


class ColWiseParallel(_Plan):
    """Split a Linear's (or Embedding's) weight on its output dim (weight dim 1, bias dim 0)
    along ``mp``; the output stays split on its last dim unless ``gather_output``."""

    def __init__(self, gather_output=False):
        self.gather_output = gather_output

    def apply(self, layer, mesh, params):
        axis = _axis(mesh, "mp", "ColWiseParallel")
        for name in params:
            p = getattr(layer, name, None)
            if p is not None:
                dim = 1 if name == "weight" and p.ndim == 2 else 0
                _place_param(layer, name, mesh, _placements(mesh, axis, _pl.Shard(dim)))
        if self.gather_output:
            rep = [_pl.Replicate()] * mesh.ndim
            layer.register_forward_post_hook(
                lambda _, inputs, out: _each(out, lambda t: _to(t, mesh, rep)))


class RowWiseParallel(_Plan):
    """Split a Linear's weight on its input dim (an Embedding's on the vocabulary) along
    ``mp``; the input is split on its last dim first unless ``is_input_parallel`` says it
    already is, and the partial output is summed to a replicated one."""

    def __init__(self, is_input_parallel=True):
        self.is_input_parallel = is_input_parallel

    def apply(self, layer, mesh, params):
        axis = _axis(mesh, "mp", "RowWiseParallel")
        if "weight" in params and getattr(layer, "weight", None) is not None:
            _place_param(layer, "weight", mesh, _placements(mesh, axis, _pl.Shard(0)))
        if not self.is_input_parallel:
            def split(_, inputs):
                return _each(inputs, lambda t: _to(t, mesh, _placements(
                    mesh, axis, _pl.Shard(t.ndim - 1))) if t.is_floating_point() else t)
            layer.register_forward_pre_hook(split)
        rep = [_pl.Replicate()] * mesh.ndim
        layer.register_forward_post_hook(
            lambda _, inputs, out: _each(out, lambda t: _to(t, mesh, rep)))


class _SequenceParallel(_Plan):
    def __init__(self, need_transpose=True):
        self.need_transpose = need_transpose

    def _seq_sharded(self, t, mesh):
        return _to(t, mesh, _placements(mesh, _axis(mesh, "mp", type(self).__name__),
                                        _pl.Shard(0)))

    def _replicated(self, t, mesh):
        return _to(t, mesh, [_pl.Replicate()] * mesh.ndim)

    def _swap(self, t):
        return t.transpose([1, 0] + list(range(2, t.ndim))) if self.need_transpose else t


class SequenceParallelBegin(_SequenceParallel):
    """The layer's output ([b, s, h]) becomes sequence-split: transposed to [s, b, h] (with
    ``need_transpose``) and split on dim 0 along ``mp``."""

    def apply(self, layer, mesh, params):
        layer.register_forward_post_hook(lambda _, i, out: _each(
            out, lambda t: self._seq_sharded(self._swap(t), mesh)))


class SequenceParallelEnd(_SequenceParallel):
    """The layer's sequence-split input is gathered and transposed back to [b, s, h]."""

    def apply(self, layer, mesh, params):
        layer.register_forward_pre_hook(lambda _, inputs: _each(
            inputs, lambda t: self._swap(self._replicated(t, mesh))))


class SequenceParallelEnable(_SequenceParallel):
    """The layer runs on the sequence-split input (its parameters replicated)."""

    def __init__(self):
        super().__init__(False)

    def apply(self, layer, mesh, params):
        layer.register_forward_pre_hook(lambda _, inputs: _each(
            inputs, lambda t: self._seq_sharded(t, mesh)))


class SequenceParallelDisable(_SequenceParallel):
    """The layer runs on the whole sequence: its input is gathered (and transposed back with
    ``need_transpose``), its output split again."""

    def apply(self, layer, mesh, params):
        layer.register_forward_pre_hook(lambda _, inputs: _each(
            inputs, lambda t: self._swap(self._replicated(t, mesh))))
        layer.register_forward_post_hook(lambda _, i, out: _each(
            out, lambda t: self._seq_sharded(self._swap(t), mesh)))


class PrepareLayerInput(_Plan):
    """``fn(mesh)`` gives a forward pre-hook ``(layer, inputs) -> inputs``."""

    def __init__(self, fn=None):
        if fn is None or not callable(fn):
            raise ValueError("PrepareLayerInput needs fn(process_mesh) returning a hook")
        self.fn = fn

    def apply(self, layer, mesh, params):
        layer.register_forward_pre_hook(self.fn(process_mesh=mesh))


class PrepareLayerOutput(_Plan):
    """``fn(mesh)`` gives a forward post-hook ``(layer, inputs, outputs) -> outputs``."""

    def __init__(self, fn=None):
        if fn is None or not callable(fn):
            raise ValueError("PrepareLayerOutput needs fn(process_mesh) returning a hook")
        self.fn = fn

    def apply(self, layer, mesh, params):
        layer.register_forward_post_hook(self.fn(process_mesh=mesh))


def _apply_plan(model, plan, mesh):
    """Apply ``{layer or param name (a regex): plan or [plans]}`` to ``model``."""
    layers = dict(model.named_sublayers(include_self=False))
    for key, plans in plan.items():
        plans = plans if isinstance(plans, (list, tuple)) else [plans]
        for p in plans:
            if not isinstance(p, _Plan):
                raise TypeError(f"parallelize: the plan of {key!r} must be one of the parallel "
                                f"plans (ColWiseParallel, ...), got {p!r}")
        hits = []
        for name, layer in layers.items():
            if re.fullmatch(key, name):
                hits.append((layer, None))
            else:
                head, _, param = key.rpartition(".")
                if param in ("weight", "bias") and re.fullmatch(head, name):
                    hits.append((layer, param))
        if not hits:
            raise ValueError(f"parallelize: no layer or parameter of the model matches {key!r}")
        for layer, param in hits:
            params = [param] if param else [n for n in ("weight", "bias")
                                             if getattr(layer, n, None) is not None]
            for p in plans:
                p.apply(layer, mesh, params)


def parallelize(model, optimizer=None, mesh=None, config=None):
    """``(model, optimizer)`` parallelized on ``mesh`` (default: ``dist.get_mesh()``) as
    ``config`` says: ``{"dp_config": {"sharding_level": 0-3}, "mp_config":
    {"parallelize_plan": {...}}}``. Pipeline parallelism (``pp_config``) is not supported."""
    mesh = mesh if mesh is not None else get_mesh()
    if config is None or mesh is None:
        return model, optimizer
    if not isinstance(mesh, ProcessMesh):
        raise TypeError(f"parallelize: mesh must be a ProcessMesh, got {type(mesh).__name__}")
    if not isinstance(config, dict):
        raise TypeError(f"parallelize: config must be a dict, got {type(config).__name__}")
    unknown = set(config) - {"dp_config", "mp_config", "pp_config", "cp_config"}
    if unknown:
        raise ValueError(f"parallelize: unknown config keys {sorted(unknown)}")
    if config.get("pp_config") or config.get("cp_config"):
        raise NotImplementedError("parallelize: pipeline (pp_config) and context (cp_config) "
                                  "parallelism are not supported by paddle_compat yet; use "
                                  "fleet's PipelineLayer for pipelines")
    plan = (config.get("mp_config") or {}).get("parallelize_plan")
    if plan:
        _apply_plan(model, plan, mesh)
    shard_layer(model, mesh)
    dp = config.get("dp_config")
    if optimizer is not None:
        level = (dp or {}).get("sharding_level", 0)
        dim = (dp or {}).get("sharding_mesh_dim", "dp")
        stage = {0: None, 1: ShardingStage1, 2: ShardingStage2, 3: ShardingStage3}.get(level, -1)
        if stage == -1:
            raise ValueError(f"parallelize: sharding_level must be 0, 1, 2 or 3, got {level}")
        if stage is not None:
            _axis(mesh, dim, "parallelize")
        optimizer = shard_optimizer(optimizer, stage(dim, mesh) if stage else None)
    return model, optimizer
