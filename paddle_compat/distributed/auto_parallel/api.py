"""Distributed tensors: ``shard_tensor``, ``dtensor_from_fn``, ``reshard``, ``unshard_dtensor``.

A distributed Tensor is a paddle_compat Tensor whose payload is a torch ``DTensor``: every op
of the op library then runs on it through DTensor's sharding propagation (the local shards
compute, and torch inserts the collectives an op needs), autograd included; gradients come out
distributed with the placements torch's rules give. What Paddle defines beyond torch is done
here:

* shard_tensor slices locally (every rank holds the same full value, as in Paddle; nothing is
  sent) and returns a new leaf (``stop_gradient`` taken from the input);
* ``Partial`` placed from a full value keeps the value on the rank at coordinate 0 of that mesh
  dimension and zeros on the others (Paddle's rule; torch's would divide by the group size);
* ``numpy()``, ``item()``, printing and ``float()`` see the whole value (a gather);
* ``reshard`` to a mesh of other ranks (a pipeline stage's) moves the value point to point
  (``cross_mesh``); a rank outside a tensor's mesh holds an empty local value, and the ops on
  that tensor skip their computation there.
"""
from torch.distributed.tensor import DTensor, Replicate, Shard, distribute_tensor

from ...framework import hooks
from ...framework.parameter import Parameter, make_parameter
from ...framework.tensor import Tensor, wrap
from ...ops.creation import to_tensor
from . import placement as _pl
from .cross_mesh import move_to_mesh
from .process_mesh import ProcessMesh, mesh_of

__all__ = ["shard_tensor", "dtensor_from_fn", "reshard", "reshard_as", "unshard_dtensor",
           "dist_payload", "grad_like_leaf", "relayout"]


def _check(mesh, placements, ndim, api):
    if not isinstance(mesh, ProcessMesh):
        raise TypeError(f"{api}: mesh must be a paddle.distributed.ProcessMesh, got "
                        f"{type(mesh).__name__}")
    placements = list(placements)
    if len(placements) != mesh.ndim:
        raise ValueError(f"{api}: {len(placements)} placements for a mesh of {mesh.ndim} "
                         f"dims ({mesh}); give one per mesh dimension")
    for p in placements:
        if not isinstance(p, _pl.Placement):
            raise TypeError(f"{api}: placements must be Shard/Replicate/Partial, got {p!r}")
        if p.is_shard() and not -ndim <= p.get_dim() < max(ndim, 1):
            raise ValueError(f"{api}: {p!r} of a tensor of {ndim} dims")
    return placements


def _place(t, mesh, placements):
    """DTensor of the full value ``t`` (the same on every rank) laid out as ``placements``."""
    dm = mesh.device_mesh()
    placements = [_pl.Shard(p.get_dim() % t.dim()) if p.is_shard() else p for p in placements]
    tp = _pl.to_torch(placements)
    partial = [i for i, p in enumerate(placements) if p.is_partial()]
    dense = [Replicate() if i in partial else p for i, p in enumerate(tp)]
    d = distribute_tensor(t.to(dm.device_type), dm, dense, src_data_rank=None)
    return _as_partial(d, dm, tp, partial)


def _as_partial(d, dm, tp, dims):
    """``d`` (replicated on mesh dims ``dims``) as Partial there: the value stays on the rank at
    coordinate 0 of each such dim, the others hold zeros (differentiably)."""
    if not dims:
        return d
    coord = dm.get_coordinate()
    local = d.to_local()
    if coord is None or any(coord[i] != 0 for i in dims):
        local = local * 0
    return DTensor.from_local(local, dm, tp, run_check=False, shape=d.shape, stride=d.stride())


def grad_like_leaf(d):
    """As Paddle: a distributed leaf's gradient has the leaf's placements (torch's rules may
    leave it otherwise, e.g. replicated when the output's gradient was dense)."""
    mesh, placements = d.device_mesh, tuple(d.placements)

    def hook(g):
        if isinstance(g, DTensor) and tuple(g.placements) != placements:
            return g.redistribute(mesh, placements)
        return g
    d.register_hook(hook)
    return d


def dist_payload(x, mesh, placements, stop_gradient):
    """The leaf Tensor (a Parameter for a Parameter) holding ``x`` laid out on ``mesh``."""
    d = _place(x._t.detach(), mesh, placements)
    if isinstance(x, Parameter):
        out = make_parameter(d, x.name, trainable=not stop_gradient,
                             optimize_attr=x.optimize_attr, regularizer=x.regularizer,
                             need_clip=x.need_clip)
        out.is_distributed = True
    else:
        out = wrap(d.requires_grad_(not stop_gradient
                                    and (d.is_floating_point() or d.is_complex())))
    if out._t.requires_grad:
        grad_like_leaf(out._t)
    return out


def relayout(p, mesh, placements):
    """Lay the leaf ``p`` (a Parameter, a buffer) out as ``placements`` on ``mesh``, in place
    (the same object): a dense one is distributed, a distributed one resharded."""
    if not p.is_dist():
        p._t = dist_payload(p, mesh, placements, p.stop_gradient)._t
        return
    d = reshard(p, mesh, placements)._t.detach()
    p._t = grad_like_leaf(d.requires_grad_(True)) if p._t.requires_grad else d


def shard_tensor(data, mesh, placements, dtype=None, place=None, stop_gradient=None):
    """A distributed Tensor of ``data`` (a Tensor, array or nested list, the same on every
    rank) on ``mesh`` with one placement per mesh dimension: a new leaf."""
    x = data if isinstance(data, Tensor) else to_tensor(data, dtype=dtype, place=place)
    if dtype is not None and isinstance(data, Tensor):
        x = x.astype(dtype)
    if x.is_dist():
        return reshard(x, mesh, placements)
    placements = _check(mesh, placements, x.ndim, "shard_tensor")
    if stop_gradient is None:
        stop_gradient = x.stop_gradient
    return dist_payload(x, mesh, placements, stop_gradient)


def dtensor_from_fn(fn, mesh, placements, *args, **kwargs):
    """``shard_tensor(fn(*args, **kwargs), mesh, placements)``."""
    return shard_tensor(fn(*args, **kwargs), mesh, placements)


def reshard(dist_tensor, mesh, placements):
    """``dist_tensor`` laid out as ``placements`` on ``mesh`` (differentiable)."""
    if not isinstance(dist_tensor, Tensor) or not dist_tensor.is_dist():
        raise ValueError("reshard expects a distributed Tensor (made by shard_tensor); for a "
                         "dense Tensor use shard_tensor")
    placements = _check(mesh, placements, dist_tensor.ndim, "reshard")
    tp = _pl.to_torch([_pl.Shard(p.get_dim() % dist_tensor.ndim) if p.is_shard() else p
                       for p in placements])
    return reshard_as(dist_tensor, mesh, lambda _: tp)


def reshard_as(dist_tensor, mesh, target):
    """``reshard`` to the torch placements ``target(torch placements of dist_tensor)``, which
    is evaluated where that layout is known: moving to a mesh of other ranks, on the source
    mesh's ranks only (DTensor's propagation may pick other placements on the ranks that skip
    an op), which tell the destination ranks."""
    t = dist_tensor._t
    dm = mesh.device_mesh()

    def normal(tp):
        return tuple(Shard(p.dim % t.dim()) if p.is_shard() else p for p in tp)

    if mesh_of(t.device_mesh) != mesh and \
            set(mesh.process_ids) != set(mesh_of(t.device_mesh).process_ids):
        t, tp = move_to_mesh(t, dm, lambda src: normal(target(src)))   # point to point
        if tp is None:                       # a rank of neither mesh: nothing to lay out
            return _wrap_like(dist_tensor, t)
    else:
        tp = normal(target(tuple(t.placements)))
        if mesh_of(t.device_mesh) != mesh:   # the same ranks in another layout
            t = DTensor.from_local(t.redistribute(t.device_mesh,
                                                  [Replicate()] * t.device_mesh.ndim)
                                   .to_local(), dm, [Replicate()] * dm.ndim, run_check=False)
    new_partial = [i for i, p in enumerate(tp)
                   if p.is_partial() and not t.placements[i].is_partial()]
    inter = [Replicate() if i in new_partial else p for i, p in enumerate(tp)]
    out = t.redistribute(dm, inter)
    return _wrap_like(dist_tensor, _as_partial(out, dm, tp, new_partial))


def _wrap_like(x, out):
    r = wrap(out)
    if x.stop_gradient and out.requires_grad:
        r.stop_gradient = True
    return r


def unshard_dtensor(dist_tensor):
    """The whole value of a distributed Tensor, as a dense Tensor (differentiable)."""
    if not isinstance(dist_tensor, Tensor):
        raise TypeError(f"unshard_dtensor expects a Tensor, got {type(dist_tensor).__name__}")
    if not dist_tensor.is_dist():
        return dist_tensor
    if isinstance(dist_tensor, Parameter):
        p = make_parameter(dist_tensor._t.full_tensor(), dist_tensor.name,
                           trainable=dist_tensor.trainable)
        return p
    return wrap(dist_tensor._t.full_tensor())


@hooks.dist_attrs.set
def _dist_attrs(t):
    return mesh_of(t.device_mesh), _pl.from_torch(t.placements)

