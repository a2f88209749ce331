"""Layers, optimizers, scalers and data loaders on a mesh: ``shard_layer``, ``shard_optimizer``
with ``ShardingStage1/2/3``, ``shard_scaler``, ``shard_dataloader``; and ``fully_shard_layer``,
torch's FSDP2 ``fully_shard`` applied to a paddle Layer.

Two engines, chosen by what the caller gives:

- Where the model is known and only sharded -- ``group_sharded_parallel(model, opt,
  "p_g_os")``, ``parallelize(model, opt, config={"dp_config": {"sharding_level": 2 or 3}})``
  on a 1-d mesh without a tensor-parallel plan -- the Layer is sharded with FSDP2
  (``fully_shard_layer``): each parameter is a ``Shard(0)`` DTensor between steps, gathered
  block by block around the forward (and again for the backward at stage 3; kept gathered
  from the forward to the end of the backward at stage 2, FSDP2's
  ``reshard_after_forward=False``), its gradient reduce-scattered into the shard, and the
  paddle optimizer steps the shards (its states are laid out like them). FSDP2 works on a
  ``torch.nn.Module``: the Layer gets a tree of module faces (``nn.torch_module.module_tree``)
  whose parameters are the paddle Parameters' payloads; FSDP's swaps of a module parameter
  rebind the paddle Parameter, so the Layer's own forward computes with what FSDP put there.
- ``shard_optimizer(opt, ShardingStage1/2/3(...))`` has no model: the stages are FSDP's design
  expressed with the same DTensors as everything else. Stage 3 lays every parameter out as
  ``Shard(0)`` along the sharding mesh dimension (ops all-gather it where they need it, and its
  gradient is reduce-scattered back to the shard by the leaf's gradient hook); stages 1 and 2
  keep parameters whole and shard the optimizer's states (and, for stage 2, the gradients) the
  same way. This is also what ``parallelize`` does with a tensor-parallel plan or a mesh of more
  dimensions, and at level 1 (FSDP2 has no "whole parameters, sharded states" mode).

Either way the numbers are a single process's.
"""
import torch
import torch.distributed as tdist
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard, distribute_tensor

from ...framework import hooks
from ...framework.tensor import Tensor, wrap
from ...nn.layer.container import LayerDict, LayerList, Sequential
from ...nn.torch_module import module_tree, to_paddle_tree, to_torch_tree
from . import placement as _pl
from .api import relayout, shard_tensor
from .process_mesh import ProcessMesh, get_mesh, mesh_of

__all__ = ["shard_layer", "shard_optimizer", "shard_scaler", "shard_dataloader",
           "ShardingStage1", "ShardingStage2", "ShardingStage3", "ShardDataloader"]


# ------------------------------------------------------------------ FSDP2 on a Layer
# The containers whose items are the blocks of a model (a LayerList's items are called by its
# owner one by one, a Sequential calls its own): each item is gathered around its own call.
_BLOCK_CONTAINERS = (LayerList, LayerDict, Sequential)


def _subtree(layer):
    return [layer] + [sub for _, sub in layer.named_sublayers()]


def _fsdp_units(root):
    """The sublayers of ``root`` that become FSDP units of their own, children before
    parents (as ``fully_shard`` needs): the items of its ``LayerList``s, ``LayerDict``s and
    ``Sequential``s (the root's too) that hold parameters, at any depth, as FSDP is applied
    to a transformer's blocks -- except an item sharing a parameter with a layer outside it
    (tied weights stay with the enclosing unit). Everything else belongs to the root's unit:
    a layer whose parameters its owner reads directly (a tied head reading
    ``self.embedding.weight``) must not be gathered only around its own call."""
    holders = {}
    for layer in _subtree(root):
        for p in layer._parameters.values():
            if p is not None:
                holders.setdefault(id(p), set()).add(id(layer))
    units = []

    def visit(layer):
        for sub in layer._sub_layers.values():
            if sub is None:
                continue
            visit(sub)
            if not isinstance(layer, _BLOCK_CONTAINERS):
                continue
            tree = _subtree(sub)
            ids = {id(t) for t in tree}
            params = [p for t in tree for p in t._parameters.values() if p is not None]
            if params and all(holders[id(p)] <= ids for p in params):
                units.append(sub)
    visit(root)
    return units


def _route(layer, module):
    """Calls of ``layer`` go through its torch ``module`` (so FSDP's hooks run around them);
    the module runs the layer's own forward."""
    object.__setattr__(module, "run", layer.forward)

    def forward(*args, **kwargs):
        return to_paddle_tree(module(*to_torch_tree(args), **to_torch_tree(kwargs)))
    layer.__dict__["forward"] = forward


class _FSDPRoot:
    """What ``fully_shard_layer`` keeps on the Layer (``layer._fsdp``): the torch modules of
    the units, the mesh; the root's forward converts distributed inputs (see
    ``fully_shard_layer``)."""

    def __init__(self, layer, modules, units, mesh):
        self.layer, self.modules, self.units, self.mesh = layer, modules, units, mesh

    def fsdp_modules(self):
        return [self.modules[id(u)] for u in self.units] + [self.modules[id(self.layer)]]

    def forward(self, *args, **kwargs):
        root = self.modules[id(self.layer)]
        targs, tkwargs = to_torch_tree(args), to_torch_tree(kwargs)
        layouts = []

        def local(t):
            if isinstance(t, DTensor):
                layouts.append((t.device_mesh, t.placements))
                return t.to_local()
            return t
        targs, tkwargs = _map_tensors(local, targs), _map_tensors(local, tkwargs)
        # a batch split over the ranks makes each rank's gradient a part of the whole one:
        # they are summed, not averaged (a replicated or dense batch: averaged, as FSDP does)
        split = any(pl.is_shard() for _, pls in layouts for pl in pls)
        for m in self.fsdp_modules():
            m.set_gradient_divide_factor(1.0 if split else None)
        out = root(*targs, **tkwargs)
        if layouts:
            mesh, placements = layouts[0]

            def distributed(t):
                pls = [Partial("avg") if p.is_shard() and t.dim() <= p.dim else p
                       for p in placements]
                return DTensor.from_local(t, mesh, pls, run_check=False)
            out = _map_tensors(distributed, out)
        if not torch.is_grad_enabled():     # no backward will reshard: do it now
            for m in self.fsdp_modules():
                m.reshard()
        return to_paddle_tree(out)


def _map_tensors(fn, x):
    if isinstance(x, torch.Tensor):
        return fn(x)
    if isinstance(x, (list, tuple)):
        return type(x)(_map_tensors(fn, v) for v in x)
    if isinstance(x, dict):
        return {k: _map_tensors(fn, v) for k, v in x.items()}
    return x


def fully_shard_layer(layer, device_mesh, reshard_after_forward=True):
    """Shard ``layer``'s parameters over the 1-d torch ``device_mesh`` with FSDP2's
    ``fully_shard``, in place; returns ``layer``.

    The Layer is mirrored by a tree of torch modules (``nn.torch_module.module_tree``) whose
    parameters are the paddle Parameters' payloads; ``fully_shard`` is applied to the module
    of each unit (``_fsdp_units``: blocks, bottom-up) and of the root, and each unit's calls
    are routed through its module. FSDP swaps a module's parameter between the sharded DTensor
    and the gathered tensor around forward and backward by assigning it, which rebinds the
    paddle Parameter (``p._t``), so the Layer computes with the gathered values and the
    optimizer steps the shards (``p._t`` a ``Shard(0)`` DTensor between steps, its gradient
    reduce-scattered). The values start as rank 0's (broadcast first, as ``DataParallel``).

    Inputs may be dense (each rank its own batch: gradients averaged over the ranks, as
    ``DataParallel``) or distributed Tensors (``shard_tensor(x, mesh, [Shard(0)])``: each
    rank computes on its local part; outputs come back distributed like the first
    distributed input, a 0-d output as the mean over the ranks, and gradients are summed,
    so the loss of the whole batch trains as in one process)."""
    from torch.distributed.fsdp import fully_shard        # lazy: only a sharded model needs it
    if device_mesh.ndim != 1:
        raise NotImplementedError("fully_shard_layer: only a 1-d mesh is supported")
    params = layer.parameters()
    if any(p.is_dist() for p in params):
        raise NotImplementedError("sharding stage 3 of a Layer whose parameters are already "
                                  "distributed (tensor parallel) is not supported; shard the "
                                  "optimizer instead (shard_optimizer(opt, ShardingStage3))")
    group = device_mesh.get_group()
    src = tdist.get_global_rank(group, 0)
    with torch.no_grad():
        for t in [p._t for p in params] + [b._t for b in layer.buffers() if b is not None]:
            tdist.broadcast(t.detach(), src, group=group)
    modules = module_tree(layer)
    # parameters that take no gradient (batch norm's running statistics, which its forward
    # updates in place; frozen weights) stay whole on every rank, as with DataParallel
    ignored = {p._t for p in params if p.stop_gradient}
    units = _fsdp_units(layer)
    for u in units:
        fully_shard(modules[id(u)], mesh=device_mesh, ignored_params=ignored,
                    reshard_after_forward=reshard_after_forward)
        _route(u, modules[id(u)])
    root = modules[id(layer)]
    fully_shard(root, mesh=device_mesh, ignored_params=ignored,
                reshard_after_forward=reshard_after_forward)
    object.__setattr__(root, "run", layer.forward)
    state = _FSDPRoot(layer, modules, units, device_mesh)
    if tdist.get_backend(group) == "gloo":       # gloo has no AVG / PREMUL_SUM reduction
        for m in state.fsdp_modules():
            m.set_force_sum_reduction_for_comms(True)
    layer.__dict__["_fsdp"] = state
    layer.__dict__["forward"] = state.forward
    return layer


def full_state_dict(layer):
    """``layer.state_dict()`` with every distributed value gathered whole (a collective: every
    rank calls it), as dense Tensors."""
    out = {}
    for k, v in layer.state_dict().items():
        if isinstance(v, Tensor) and v.is_dist():
            full = wrap(v._t.full_tensor().detach())
            full.name = v.name
            v = full
        out[k] = v
    return out


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
def _dist_like(t, like, whole=False):
    if whole or t.shape != like.shape:
        # a per-parameter scalar (Adam's beta powers; ``whole`` where it is shaped [1] like
        # a one-element bias, whose shard may be empty on a rank): replicated
        placements = [Replicate()] * like.device_mesh.ndim
    else:
        placements = [Replicate() if p.is_partial() else p for p in like.placements]
    return distribute_tensor(t, like.device_mesh, placements, src_data_rank=None)
