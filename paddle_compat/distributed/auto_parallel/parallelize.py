"""``parallelize``: data, tensor, sharding and pipeline parallelism of a whole model from one
config, and the tensor-parallel plans it takes (``ColWiseParallel``, ``RowWiseParallel``, the
sequence parallel markers, ``PrepareLayerInput``/``Output``).

The mesh's dimensions are found by Paddle's names: ``dp`` (data / sharding), ``mp`` (tensor),
``pp`` (pipeline). With ``pp_config`` each layer belongs to a stage, whose parameters live on
the stage's mesh (``mesh`` indexed along ``pp``: the other dimensions' plans apply there); at
each split point the activation is resharded to the next stage's mesh, point to point, and its
gradient comes back the same way. Every rank runs the whole forward and backward pass, the ops
of other stages doing nothing there (their tensors hold empty local values), so the usual
``loss = model(x); loss.backward(); opt.step()`` trains as one process would. That is Paddle's
dygraph form, unscheduled: one stage computes at a time. (Paddle's micro-batch schedules,
FThenB/1F1B/VPP, are elsewhere: its ``auto_parallel.pipelining`` module, not in its public
names, the ``to_static`` pipeline passes and fleet's PipelineLayer; none is built here.)
A plan lays a layer's parameters out on the ``mp`` dimension and installs the forward hooks that
reshard its input or output; the rest of the model is replicated, the batch is split on ``dp``
by ``shard_dataloader`` (or by the caller), and ``dp_config``'s ``sharding_level`` wraps the
optimizer in the matching ``ShardingStage``. Every op then runs through DTensor, so the numbers
are a single process's. Sharding levels 2 and 3 of a model on a 1-d mesh without a
tensor-parallel plan run on FSDP2 instead (``sharding.fully_shard_layer``: level 3 gathers
each block's parameters around its forward and again for its backward, level 2 keeps them
gathered from the forward to the end of the backward); with a plan, or on a mesh of more
dimensions, they stay the DTensor stages of ``shard_optimizer``.
"""
import enum
import re

from torch.distributed.tensor import Replicate as TorchReplicate

from ...framework.tensor import Tensor
from . import placement as _pl
from .api import relayout, reshard, reshard_as, shard_tensor
from .process_mesh import ProcessMesh, get_mesh
from .sharding import (ShardingStage1, ShardingStage2, ShardingStage3, fully_shard_layer,
                       shard_layer, shard_optimizer)

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


def _apply_plan(model, plan, mesh, mesh_of_layer=None):
    """Apply ``{layer or param name (a regex): plan or [plans]}`` to ``model`` (on
    ``mesh_of_layer(layer)``, a pipeline stage's mesh, where given)."""
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
                p.apply(layer, mesh_of_layer(layer) if mesh_of_layer else mesh, params)


# ------------------------------------------------------------------ pipeline stages
def _nested(out, fn):
    """``fn`` on each Tensor of a layer's output (a Tensor, or a list/tuple/dict of them)."""
    if isinstance(out, Tensor):
        return fn(out)
    if isinstance(out, dict):
        return type(out)((k, _nested(v, fn)) for k, v in out.items())
    if isinstance(out, (list, tuple)):
        return type(out)(_nested(o, fn) for o in out)
    return out


def _onto(mesh, like=None):
    """A function moving a distributed Tensor onto ``mesh`` (the others pass: a dense Tensor
    is the same on every rank already) as ``like`` (placements) says, or keeping the
    placements of the mesh dimensions both meshes name (all of them between two stages)."""
    tlike = _pl.to_torch(like) if like is not None else None

    def move(t):
        if not t.is_dist() or t.process_mesh == mesh:
            return t
        names = t.process_mesh.dim_names

        def target(src):              # the source's placements, known on its ranks only
            if tlike is not None:
                return tlike
            if len(src) == mesh.ndim:
                return src
            by_name = dict(zip(names, src))
            return [by_name.get(n, TorchReplicate()) for n in mesh.dim_names]
        return reshard_as(t, mesh, target)
    return move


class _Pipeline:
    """pp_config's stages: each sublayer's stage (by where the split points cut the model's
    layers, in ``named_sublayers`` order), the stage meshes (``mesh`` indexed along ``pp``)
    and the forward hooks that move the activations from one stage's mesh to the next one's.

    ``split_spec``: ``{layer name: SplitPoint}`` (END: the next stage starts after that layer;
    BEGINNING: with it), or a name prefix / list of prefixes: the layers ``prefix.<number>``
    (or named exactly so) are cut into equal runs, the first stages taking one more where they
    do not divide evenly. ``global_spec``: layers whose outputs every stage uses (replicated on
    the whole mesh, and moved onto a stage's mesh where a layer of it takes them)."""

    def __init__(self, model, mesh, config):
        if "pp" not in mesh.dim_names:
            raise ValueError(f"parallelize: pp_config needs a mesh with a 'pp' dimension (its "
                             f"dim_names are {mesh.dim_names})")
        self.model = model
        self.n = mesh.get_dim_size("pp")
        self.meshes = [mesh.get_mesh_with_dim("pp", k) for k in range(self.n)]
        self.global_mesh = mesh.get_mesh_with_dim("pp")
        named = list(model.named_sublayers())
        self.names = [n for n, _ in named]
        self.layers = dict(named)
        points, matched = self._split_points(config["split_spec"])
        if len(points) != self.n - 1:
            raise ValueError(f"parallelize: {len(points)} split points for {self.n} pipeline "
                             f"stages; give {self.n - 1}")
        marks = [0] * len(self.names)
        for name, point in points.items():
            i = self.names.index(name)
            if point is SplitPoint.BEGINNING:
                marks[i] = 1
                continue
            nxt = [j for j in range(i + 1, len(self.names))
                   if not self.names[j].startswith(name + ".")]
            if not nxt:
                raise ValueError(f"parallelize: no layer follows {name!r}, so no stage can "
                                 f"start after it (SplitPoint.END)")
            marks[nxt[0]] = 1
        stage, self.stage = 0, {id(model): 0}
        for name, mark in zip(self.names, marks):
            stage += mark
            self.stage.setdefault(id(self.layers[name]), stage)
        if stage != self.n - 1:
            raise ValueError(f"parallelize: the split points {list(points)} make {stage + 1} "
                             f"pipeline stages, the mesh has {self.n}")
        spec = config.get("global_spec") or []
        spec = [spec] if isinstance(spec, str) else list(spec)
        for name in spec:
            if name not in self.layers:
                raise ValueError(f"parallelize: global_spec names {name!r}, which is not a "
                                 f"sublayer of the model")
        for name, point in points.items():
            if point is SplitPoint.END:
                nxt = self.meshes[self.stage[id(self.layers[name])] + 1]
                self.layers[name].register_forward_post_hook(
                    lambda layer, inputs, out, nxt=nxt: _nested(out, _onto(nxt)))
            else:
                self.layers[name].register_forward_pre_hook(
                    lambda layer, inputs: _nested(inputs, _onto(self.mesh_of_layer(layer))))
        if spec:
            self._global(spec, matched)

    def _split_points(self, spec):
        if isinstance(spec, dict):
            for name, point in spec.items():
                if name not in self.layers:
                    raise ValueError(f"parallelize: split_spec names {name!r}, which is not a "
                                     f"sublayer of the model")
                if not isinstance(point, SplitPoint):
                    raise TypeError(f"parallelize: split_spec[{name!r}] must be a "
                                    f"dist.SplitPoint, got {point!r}")
            return dict(spec), None
        prefixes = [spec] if isinstance(spec, str) else list(spec)
        hits = [n for n in self.names
                if n in prefixes or any(re.fullmatch(rf"{p}\.\d+", n) for p in prefixes)]
        hits = [n for n in hits if not any(re.fullmatch(rf"{re.escape(n)}\.\d+", m)
                                           for m in hits)]          # a LayerList: its items
        if len(hits) < self.n:
            raise ValueError(f"parallelize: split_spec {spec!r} matches {len(hits)} layers "
                             f"({hits}), fewer than the {self.n} pipeline stages")
        base, extra = divmod(len(hits), self.n)
        ends, end = [], 0
        for k in range(self.n - 1):
            end += base + (k < extra)
            ends.append(hits[end - 1])
        return {name: SplitPoint.END for name in ends}, hits

    def mesh_of_layer(self, layer):
        return self.meshes[self.stage.get(id(layer), 0)]

    def _global(self, spec, matched):
        rep = [_pl.Replicate()] * self.global_mesh.ndim
        for name in spec:
            self.layers[name].register_forward_post_hook(
                lambda layer, inputs, out: _nested(out, _onto(self.global_mesh, rep)))

        def to_stage(layer, args, kwargs):
            move = _onto(self.mesh_of_layer(layer), [_pl.Replicate()] * self.meshes[0].ndim)
            return _nested(tuple(args), move), _nested(dict(kwargs), move)
        for name in (matched if matched is not None else self.names):
            self.layers[name].register_forward_pre_hook(to_stage, with_kwargs=True)

    def place(self):
        """Each layer's parameters and buffers (those no plan placed) replicated on its stage's
        mesh; a parameter shared with a layer of a later stage is moved there for its forward
        (and its gradient back)."""
        owner = {}
        for name, layer in self.model.named_sublayers(include_self=True):
            mesh = self.mesh_of_layer(layer)
            rep = [_pl.Replicate()] * mesh.ndim
            for key, t in list(layer._parameters.items()) + list(layer._buffers.items()):
                if t is None:
                    continue
                if not t.is_dist():
                    relayout(t, mesh, rep)
                if id(t) not in owner:
                    owner[id(t)] = mesh
                elif owner[id(t)] != mesh and key in layer._parameters:
                    self._share(layer, key, t, mesh)

    @staticmethod
    def _share(layer, key, param, mesh):
        def pre(lay, inputs):                 # in its own placements, on this stage's mesh
            lay._parameters[key] = reshard_as(param, mesh, lambda src: src)

        def post(lay, inputs, out):
            lay._parameters[key] = param
        layer.register_forward_pre_hook(pre)
        layer.register_forward_post_hook(post)


def parallelize(model, optimizer=None, mesh=None, config=None):
    """``(model, optimizer)`` parallelized on ``mesh`` (default: ``dist.get_mesh()``) as
    ``config`` says: ``{"dp_config": {"sharding_level": 0-3}, "mp_config":
    {"parallelize_plan": {...}}, "pp_config": {"split_spec": ..., "global_spec": ...}}``
    (see ``_Pipeline`` for the pipeline's stages). Context parallelism (``cp_config``) is not
    supported."""
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
    if config.get("cp_config"):
        raise NotImplementedError("parallelize: context parallelism (cp_config) is not "
                                  "supported by paddle_compat yet")
    pp = config.get("pp_config")
    pipeline = _Pipeline(model, mesh, pp) if pp and pp.get("split_spec") else None
    plan = (config.get("mp_config") or {}).get("parallelize_plan")
    if plan:
        _apply_plan(model, plan, mesh, pipeline.mesh_of_layer if pipeline else None)
    if pipeline is not None:
        pipeline.place()
    dp = config.get("dp_config")
    level = (dp or {}).get("sharding_level", 0) if optimizer is not None else 0
    dim = (dp or {}).get("sharding_mesh_dim", "dp")
    stage = {0: None, 1: ShardingStage1, 2: ShardingStage2, 3: ShardingStage3}.get(level, -1)
    if stage == -1:
        raise ValueError(f"parallelize: sharding_level must be 0, 1, 2 or 3, got {level}")
    if stage is not None:
        _axis(mesh, dim, "parallelize")
    if level >= 2 and not plan and mesh.ndim == 1 and pipeline is None:
        # the model is known and only sharded: FSDP2 (see auto_parallel.sharding)
        fully_shard_layer(model, mesh.device_mesh(), reshard_after_forward=level == 3)
        return model, shard_optimizer(optimizer)
    shard_layer(model, mesh)
    if optimizer is not None:
        optimizer = shard_optimizer(optimizer, stage(dim, mesh) if stage else None)
    return model, optimizer
