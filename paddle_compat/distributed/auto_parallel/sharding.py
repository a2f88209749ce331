"""Layers, optimizers, scalers and data loaders on a mesh: ``shard_layer``, ``shard_optimizer``
with ``ShardingStage1/2/3``, ``shard_scaler``, ``shard_dataloader``.

The sharding stages are FSDP2's design expressed with the same DTensors as everything else
(torch's ``fully_shard`` itself needs ``torch.nn.Module`` parameters, which a paddle Layer's are
not): stage 3 lays every parameter out as ``Shard(0)`` along the sharding mesh dimension (ops
all-gather it where they need it, and its gradient is reduce-scattered back to the shard by the
leaf's gradient hook); stages 1 and 2 keep parameters whole and shard the optimizer's states
(and, for stage 2, the gradients) the same way. The numbers are a single process's.
"""
from torch.distributed.tensor import DTensor, Replicate, Shard, distribute_tensor

from ...framework import hooks
from ...framework.tensor import Tensor, wrap
from . import placement as _pl
from .api import relayout, shard_tensor
from .process_mesh import ProcessMesh, get_mesh, mesh_of

__all__ = ["shard_layer", "shard_optimizer", "shard_scaler", "shard_dataloader",
           "ShardingStage1", "ShardingStage2", "ShardingStage3", "ShardDataloader"]


def shard_layer(layer, process_mesh, shard_fn=None, input_fn=None, output_fn=None):
    """Make every parameter and buffer of ``layer`` distributed on ``process_mesh``:
    ``shard_fn(name, sublayer, mesh)`` places what it wants (``shard_tensor``), the rest is
    replicated; ``input_fn(inputs, mesh)``/``output_fn(outputs, mesh)`` run around forward."""
    if not isinstance(process_mesh, ProcessMesh):
        raise ValueError("shard_layer: process_mesh must be a paddle.distributed.ProcessMesh, "
                         f"got {type(process_mesh).__name__}")
    for name, sub in layer.named_sublayers(include_self=True):
        if shard_fn is not None:
            shard_fn(name, sub, process_mesh)
        replicate = [_pl.Replicate()] * process_mesh.ndim
        for t in list(sub._parameters.values()) + list(sub._buffers.values()):
            if t is not None and not t.is_dist():
                relayout(t, process_mesh, replicate)
    if input_fn is not None:
        layer.register_forward_pre_hook(lambda _, inputs: input_fn(inputs, process_mesh))
    if output_fn is not None:
        layer.register_forward_post_hook(
            lambda _, inputs, outputs: output_fn(outputs, process_mesh))
    return layer


class _ShardingStage:
    """Shard parameters or optimizer states along one mesh dimension."""

    stage = 0

    def __init__(self, sharding_mesh_dim, mesh=None):
        self._dim = sharding_mesh_dim
        self._mesh = mesh

    def _axis_of(self, dt):
        names = list(dt.device_mesh.mesh_dim_names or ())
        if isinstance(self._dim, str):
            if self._dim not in names:
                raise ValueError(f"{type(self).__name__}: the mesh {names} has no dimension "
                                 f"{self._dim!r}")
            return names.index(self._dim)
        return self._dim

    def _sharded(self, dt):
        """``dt``'s placements with Shard(0) on the sharding dimension (where it is replicated
        and the tensor has a first dim)."""
        placements = list(dt.placements)
        axis = self._axis_of(dt)
        if dt.dim() >= 1 and placements[axis].is_replicate():
            placements[axis] = Shard(0)
        return placements

    def __repr__(self):
        return f"{type(self).__name__}(sharding_mesh_dim={self._dim!r})"


class ShardingStage1(_ShardingStage):
    """Optimizer states sharded along the mesh dimension; parameters and gradients whole."""
    stage = 1


class ShardingStage2(_ShardingStage):
    """Optimizer states and gradients sharded along the mesh dimension."""
    stage = 2


class ShardingStage3(_ShardingStage):
    """Parameters, gradients and optimizer states sharded along the mesh dimension."""
    stage = 3


class _ShardOptimizer:
    """What ``shard_optimizer`` returns: the optimizer, its states laid out by the sharding
    stage (or like the parameters); everything else is the wrapped optimizer's."""

    def __init__(self, optimizer, shard_fn=None, gradient_accumulation_steps=1):
        self.__dict__["_inner_opt"] = optimizer
        self.__dict__["_shard_fn"] = shard_fn
        self.__dict__["_accumulation"] = int(gradient_accumulation_steps)
        self.__dict__["_micro_steps"] = 0
        params = [p for g in optimizer._param_groups for p in g["params"]]
        if isinstance(shard_fn, _ShardingStage):
            for p in params:
                if not p.is_dist():
                    mesh = shard_fn._mesh or get_mesh()
                    if mesh is None:
                        raise ValueError("shard_optimizer: a parameter is not distributed and "
                                         "no mesh was given (ShardingStage(dim, mesh) or "
                                         "dist.set_mesh)")
                    relayout(p, mesh, [_pl.Replicate()] * mesh.ndim)
                if shard_fn.stage == 3:
                    relayout(p, mesh_of(p._t.device_mesh),
                             _pl.from_torch(shard_fn._sharded(p._t)))
        optimizer._place_state = self._place_state

    def _place_state(self, t, param):
        like = param._t
        fn = self._shard_fn
        if isinstance(fn, _ShardingStage) and fn.stage in (1, 2) and t.shape == like.shape:
            return distribute_tensor(t, like.device_mesh, fn._sharded(like), src_data_rank=None)
        if callable(fn) and not isinstance(fn, _ShardingStage):
            placed = fn(getattr(t, "name", ""), param, wrap(t))
            if isinstance(placed, Tensor) and placed.is_dist():
                return placed._t
        return hooks.dist_like(t, like)

    def step(self):
        self._micro_steps += 1
        if self._micro_steps % self._accumulation:
            return
        fn = self._shard_fn
        if isinstance(fn, ShardingStage2):              # gradients sharded before the update
            for g in self._inner_opt._param_groups:
                for p in g["params"]:
                    gr = p._t.grad
                    if isinstance(gr, DTensor):
                        p._t.grad = gr.redistribute(gr.device_mesh, fn._sharded(gr))
        self._inner_opt.step()

    def clear_grad(self, set_to_zero=True):
        if self._micro_steps % self._accumulation:
            return
        self._inner_opt.clear_grad(set_to_zero)

    def __getattr__(self, name):
        return getattr(self._inner_opt, name)

    def __setattr__(self, name, value):
        if name in self.__dict__:
            self.__dict__[name] = value
        else:
            setattr(self._inner_opt, name, value)


def shard_optimizer(optimizer, shard_fn=None, gradient_accumulation_steps=1):
    """``optimizer`` with its states (and, by the sharding stage ``shard_fn``, its parameters
    and gradients) distributed; the numbers are the undistributed optimizer's."""
    return _ShardOptimizer(optimizer, shard_fn, gradient_accumulation_steps)


def shard_scaler(scaler):
    """``scaler`` for distributed parameters: its found-inf check already sees every rank's
    gradients (a distributed gradient's ``isfinite`` reduces over the mesh)."""
    return scaler


class ShardDataloader:
    """Batches of ``dataloader`` (the same on every rank) as distributed Tensors: split on their
    first dim along the ``shard_dims`` mesh dimension, replicated on the others."""

    def __init__(self, dataloader, meshes, input_keys=None, shard_dims=None,
                 is_dataset_splitted=False, dense_tensor_idx=None):
        meshes = list(meshes) if isinstance(meshes, (list, tuple)) else [meshes]
        if not meshes or not all(isinstance(m, ProcessMesh) for m in meshes):
            raise ValueError("shard_dataloader: meshes must be a ProcessMesh or a list of them")
        self._loader = dataloader
        self._meshes = meshes
        self._input_keys = input_keys
        dims = shard_dims if isinstance(shard_dims, (list, tuple)) else [shard_dims] * len(meshes)
        self._dims = list(dims)
        self._splitted = is_dataset_splitted
        self._dense = dense_tensor_idx or []

    def _placements(self, i):
        mesh = self._meshes[min(i, len(self._meshes) - 1)]
        dim = self._dims[min(i, len(self._dims) - 1)]
        placements = [_pl.Replicate()] * mesh.ndim
        if dim is not None:
            axis = mesh.dim_names.index(dim) if isinstance(dim, str) else dim
            placements[axis] = _pl.Shard(0)
        return mesh, placements

    def _place(self, x, i):
        if isinstance(x, Tensor) and not x.is_dist() and x.ndim >= 1:
            mesh, placements = self._placements(i)
            if self._splitted:                     # each rank loaded its own part
                d = DTensor.from_local(x._t, mesh.device_mesh(), _pl.to_torch(placements),
                                       run_check=False)
                return wrap(d)
            return shard_tensor(x, mesh, placements)
        return x

    def __iter__(self):
        for batch in self._loader:
            if isinstance(batch, dict):
                yield {k: self._place(v, i) for i, (k, v) in enumerate(batch.items())}
            elif isinstance(batch, (list, tuple)):
                yield type(batch)(self._place(v, i) for i, v in enumerate(batch))
            else:
                yield self._place(batch, 0)

    def __len__(self):
        return len(self._loader)


def shard_dataloader(dataloader, meshes, input_keys=None, shard_dims=None,
                     is_dataset_splitted=False, dense_tensor_idx=None):
    """A ``ShardDataloader`` over ``dataloader``."""
    return ShardDataloader(dataloader, meshes, input_keys, shard_dims, is_dataset_splitted,
                           dense_tensor_idx)


@hooks.dist_like.set
def _dist_like(t, like):
    if t.shape != like.shape:                  # a per-parameter scalar (Adam's beta powers)
        placements = [Replicate()] * like.device_mesh.ndim
    else:
        placements = [Replicate() if p.is_partial() else p for p in like.placements]
    return distribute_tensor(t, like.device_mesh, placements, src_data_rank=None)
