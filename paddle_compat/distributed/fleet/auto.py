"""``paddle.distributed.fleet.auto``: Paddle's older auto-parallel interface (the names of
``paddle.distributed.auto_parallel`` that PaddleNLP's ``modeling_auto*`` use):
``create_mesh`` / ``get_mesh`` / ``set_mesh`` (one global mesh), ``shard_tensor(x, mesh,
shard_spec)`` and ``shard_op`` (sharding annotations for the static auto-parallel engine:
checked, recorded on the tensor, the values unchanged), ``recompute(op)``, ``Strategy``,
``ProcessMesh``."""
import functools
import math

import numpy as np

from ..auto_parallel import ProcessMesh, Strategy, get_mesh, set_mesh

__all__ = []


def create_mesh(mesh_dims):
    """Make (and set) the global mesh of ``mesh_dims`` [(name, degree), ...] over the ranks
    0 .. prod(degrees) - 1 in row-major order."""
    names = [d[0] for d in mesh_dims]
    shape = [d[1] for d in mesh_dims]
    mesh = ProcessMesh(np.arange(math.prod(shape)).reshape(shape), names)
    set_mesh(mesh)
    return mesh


def _mesh_or_current(process_mesh):
    if process_mesh is None:
        process_mesh = get_mesh()
        assert process_mesh is not None, ("Specify the process mesh argument or use "
                                          "ProcessMesh context manager first.")
    assert isinstance(process_mesh, ProcessMesh), \
        f"Argument process_mesh {process_mesh} is not an instance of ProcessMesh"
    return process_mesh


def _dims_mapping(shard_spec, mesh, shape=None, what="tensor"):
    """Paddle's dims mapping (-1 replicated, else the mesh axis) of ``shard_spec``."""
    names = list(mesh.dim_names)
    for i, dim in enumerate(shard_spec):
        if dim is not None and (not isinstance(dim, str) or dim not in names):
            raise ValueError(f"Invalid shard_spec at index {i}: '{dim}' is not a valid "
                             f"dimension name in process_mesh {names}.")
    if shape is not None:
        assert len(shard_spec) == len(shape), (
            f"For {what}, shard_spec {shard_spec} is invalid with tensor_shape {list(shape)} "
            f"and process_mesh {mesh}.")
    return [-1 if d is None else names.index(d) for d in shard_spec]


def shard_tensor(x, process_mesh=None, shard_spec=None):
    """Annotate ``x`` with how the static auto-parallel engine is to shard it over
    ``process_mesh`` (``shard_spec``: a mesh dim name or None per tensor axis); returns ``x``
    itself (its values and placement are unchanged in dynamic mode, as in Paddle)."""
    mesh = _mesh_or_current(process_mesh)
    assert isinstance(shard_spec, list), f"Argument shard_spec {shard_spec} is not an " \
                                         "instance of list"
    mapping = _dims_mapping(shard_spec, mesh, getattr(x, "shape", None), "tensor")
    try:
        x._auto_dist_attr = {"process_mesh": mesh, "dims_mapping": mapping}
    except AttributeError:
        pass
    return x


def shard_op(op, process_mesh=None, in_shard_specs=None, out_shard_specs=None, **kwargs):
    """``op`` wrapped with sharding annotations for its inputs and outputs (checked against
    ``process_mesh``); calling the wrapper calls ``op``."""
    mesh = _mesh_or_current(process_mesh)
    for label, specs in (("in_shard_spec", in_shard_specs), ("out_shard_spec", out_shard_specs)):
        if specs is None:
            continue
        assert all(isinstance(s, list) or s is None for s in specs), \
            f"{label} {specs} is not a list of list or None"
        for s in specs:
            if s is not None:
                _dims_mapping(s, mesh)

    @functools.wraps(op)
    def run(*args, **kw):
        return op(*args, **kw)
    return run


def recompute(op):
    """``op`` marked for recomputation by the static auto-parallel engine; calling it calls
    ``op`` (dynamic mode recomputes nothing)."""
    @functools.wraps(op)
    def run(*args, **kw):
        return op(*args, **kw)
    return run
