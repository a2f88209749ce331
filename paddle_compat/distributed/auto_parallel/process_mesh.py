"""``ProcessMesh``: an n-d grid of ranks with named dimensions, over torch's ``DeviceMesh``.

Paddle's mesh is a value (two meshes with the same shape, ranks and names are equal); the
torch ``DeviceMesh`` behind it -- which creates one communication group per mesh dimension, a
collective call every rank of the job makes -- is built on first use and shared by all equal
meshes. ``get_mesh``/``set_mesh`` hold the job's global mesh (what ``parallelize`` and
``shard_dataloader`` use by default).
"""
import numpy as np
import torch
import torch.distributed as tdist
from torch.distributed.device_mesh import DeviceMesh
from torch.distributed.tensor.experimental import implicit_replication

from .. import env as _env
from ..collective import Group

__all__ = ["ProcessMesh", "get_mesh", "set_mesh", "mesh_of"]

_device_meshes = {}          # mesh key -> DeviceMesh (one per distinct mesh)
_meshes_by_device_mesh = {}  # id(DeviceMesh) -> ProcessMesh (to read a DTensor's mesh back)
_global_mesh = None


class ProcessMesh:
    """An n-d array of process ids with one name per dimension (``d0``, ``d1`` ... when not
    given). ``ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"])``."""

    def __init__(self, mesh=None, dim_names=None, shape=None, process_ids=None):
        if mesh is None:
            if shape is None or process_ids is None:
                raise ValueError("ProcessMesh needs a mesh, or a shape with process_ids")
            mesh = np.asarray(list(process_ids)).reshape(shape)
        if isinstance(mesh, ProcessMesh):
            mesh, dim_names = mesh.mesh, dim_names or mesh.dim_names
        arr = np.asarray(mesh)
        if arr.dtype.kind not in "iu" or arr.size == 0:
            raise ValueError("ProcessMesh: the mesh must be a non-empty nested list of ints, "
                             f"got {mesh!r}")
        if dim_names is None:
            dim_names = [f"d{i}" for i in range(arr.ndim)]
        dim_names = list(dim_names)
        if len(dim_names) != arr.ndim:
            raise AssertionError("The length of dims_names must be same as the shape of the mesh.")
        if len(set(dim_names)) != len(dim_names):
            raise ValueError(f"ProcessMesh: the dim_names must be unique, got {dim_names}")
        if len(set(arr.reshape(-1).tolist())) != arr.size:
            raise ValueError(f"ProcessMesh: a process id appears twice in {arr.tolist()}")
        self._mesh = arr.astype(np.int64)
        self._dim_names = dim_names

    # ------------------------------------------------------------------ what it is
    @property
    def mesh(self):
        return self._mesh

    @property
    def shape(self):
        return list(self._mesh.shape)

    @property
    def process_ids(self):
        return self._mesh.reshape(-1).tolist()

    @property
    def dim_names(self):
        return list(self._dim_names)

    @property
    def ndim(self):
        return self._mesh.ndim

    @property
    def size(self):
        return int(self._mesh.size)

    @property
    def unique_id(self):
        return hash(self._key()) & 0x7FFFFFFF

    def empty(self):
        return self._mesh.size == 0

    def contains(self, process_id):
        return int(process_id) in self.process_ids

    def _axis(self, dim):
        if isinstance(dim, str):
            if dim not in self._dim_names:
                raise ValueError(f"ProcessMesh has no dimension {dim!r}; its dim_names are "
                                 f"{self._dim_names}")
            return self._dim_names.index(dim)
        if not -self.ndim <= dim < self.ndim:
            raise IndexError(f"ProcessMesh of {self.ndim} dims has no dimension {dim}")
        return dim % self.ndim

    def get_dim_size(self, dim):
        return self.shape[self._axis(dim)]

    dim_size = get_dim_size

    def get_mesh_with_dim(self, dim_name, index=None):
        """The mesh with ``dim_name`` moved first (and, with ``index``, indexed on it)."""
        axis = self._axis(dim_name)
        order = [axis] + [i for i in range(self.ndim) if i != axis]
        moved = ProcessMesh(self._mesh.transpose(order),
                            [self._dim_names[i] for i in order])
        if index is not None and self.ndim == 1:     # Paddle keeps the name: [id], [dim_name]
            return ProcessMesh([int(self._mesh[index])], [self._dim_names[axis]])
        return moved if index is None else moved[index]

    def get_submesh_with_dim(self, dim_name):
        """The 1-d mesh along ``dim_name`` that holds this rank (None when it is not in it)."""
        axis = self._axis(dim_name)
        rank = _current_rank()
        where = np.argwhere(self._mesh == rank)
        if not len(where):
            return None
        index = list(where[0])
        index[axis] = slice(None)
        return ProcessMesh(self._mesh[tuple(index)], [self._dim_names[axis]])

    def get_rank_by_dim_and_process_id(self, dim, process_id):
        where = np.argwhere(self._mesh == process_id)
        return -1 if not len(where) else int(where[0][self._axis(dim)])

    def __getitem__(self, index):
        if isinstance(index, str):
            return self.get_submesh_with_dim(index)
        index = index if isinstance(index, tuple) else (index,)
        sub = self._mesh[index]
        kept, i = [], 0
        for ix in index:                      # names of the dims a slice keeps
            if isinstance(ix, slice):
                kept.append(self._dim_names[i])
            i += 1
        kept += self._dim_names[i:]
        return ProcessMesh(np.atleast_1d(sub), kept if np.ndim(sub) else kept[:1] or ["d0"])

    def get_group(self, dim_name=None):
        """The communication Group of this rank's ranks along ``dim_name`` (a 1-d mesh may
        leave it out)."""
        if dim_name is None:
            if self.ndim != 1:
                raise ValueError("ProcessMesh.get_group: name the dimension of a mesh of "
                                 f"{self.ndim} dims")
            dim_name = self._dim_names[0]
        dm = self.device_mesh()
        axis = self._axis(dim_name)
        pg = dm.get_group(axis)
        ranks = tdist.get_process_group_ranks(pg)
        me = tdist.get_rank()
        return Group(ranks.index(me) if me in ranks else -1, 1000 + axis, ranks, pg=pg,
                     name=f"mesh_{dim_name}", backend=tdist.get_backend(pg))

    # ------------------------------------------------------------------ value semantics
    def _key(self):
        return (tuple(self._mesh.shape), tuple(self.process_ids), tuple(self._dim_names))

    def __eq__(self, other):
        return isinstance(other, ProcessMesh) and self._key() == other._key()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self._key())

    def __str__(self):
        return (f"shape {self.shape}, process_ids {self.process_ids}, "
                f"dim_names {self._dim_names}")

    def _c_repr(self):
        """How a distributed Tensor's repr writes its mesh."""
        ids = ",".join(str(i) for i in self.process_ids)
        return (f"{{shape: [{','.join(str(s) for s in self.shape)}], process_ids: [{ids}], "
                f"dim_names: [{','.join(self._dim_names)}]}}")

    # ------------------------------------------------------------------ torch
    def device_mesh(self):
        """The torch DeviceMesh of this mesh (built once per distinct mesh; every rank of the
        job must reach the first use, as it creates the groups)."""
        key = self._key()
        dm = _device_meshes.get(key)
        if dm is None:
            if not tdist.is_initialized():
                _env.init_parallel_env()
            if not tdist.is_initialized():
                raise RuntimeError("auto-parallel needs a parallel job: start the script with "
                                   "python -m paddle.distributed.launch (paddle_compat's "
                                   "launcher) or paddle.distributed.spawn")
            world = tdist.get_world_size()
            bad = [i for i in self.process_ids if not 0 <= i < world]
            if bad:
                raise ValueError(f"ProcessMesh {self}: process ids {bad} are not ranks of this "
                                 f"job of {world}")
            _replicate_dense_operands()
            device = "cuda" if tdist.get_backend() == "nccl" else "cpu"
            dm = DeviceMesh(device, torch.as_tensor(self._mesh),
                            mesh_dim_names=tuple(self._dim_names))
            _device_meshes[key] = dm
            _meshes_by_device_mesh[id(dm)] = self
        return dm


_implicit = None


def _replicate_dense_operands():
    """Paddle's rule: a dense Tensor meeting a distributed one in an op is replicated on its
    mesh. torch refuses the mix unless ``implicit_replication`` is on: it is turned on for the
    rest of the process when the first mesh is used."""
    global _implicit
    if _implicit is None:
        _implicit = implicit_replication()
        _implicit.__enter__()


def mesh_of(device_mesh):
    """The ProcessMesh of a torch DeviceMesh (ours when we built it)."""
    pm = _meshes_by_device_mesh.get(id(device_mesh))
    if pm is None:
        names = device_mesh.mesh_dim_names or [f"d{i}" for i in range(device_mesh.ndim)]
        pm = ProcessMesh(device_mesh.mesh.tolist(), list(names))
        _meshes_by_device_mesh[id(device_mesh)] = pm
    return pm


def _current_rank():
    return tdist.get_rank() if tdist.is_initialized() else _env.get_rank()


def get_mesh():
    """The global mesh ``set_mesh`` gave (None before)."""
    return _global_mesh


def set_mesh(mesh):
    """Make ``mesh`` the job's global mesh."""
    global _global_mesh
    if not isinstance(mesh, ProcessMesh):
        raise TypeError(f"set_mesh expects a ProcessMesh, got {type(mesh).__name__}")
    _global_mesh = mesh
