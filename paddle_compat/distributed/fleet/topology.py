"""The hybrid-parallel topology: ``CommunicateTopology`` (ranks laid out on the axes
``[data, pipe, sharding, sep, model]``, the last axis varying fastest, as Paddle lays them out)
and ``HybridCommunicateGroup`` (one communication group per axis for each rank)."""
import collections
import itertools

import torch.distributed as dist

from .. import collective
from ..env import get_rank, get_world_size
from ._state import get_hcg

__all__ = ["CommunicateTopology", "HybridCommunicateGroup", "ParallelMode"]


class ParallelMode:
    DATA_PARALLEL = 0
    TENSOR_PARALLEL = 1
    PIPELINE_PARALLEL = 2
    SHARDING_PARALLEL = 3
    SEGMENT_PARALLEL = 4


class CommunicateTopology:
    """Ranks as coordinates on named axes (row-major: the last name varies fastest)."""

    def __init__(self, hybrid_group_names=("data", "pipe", "sharding", "sep", "model"),
                 dims=(1, 1, 1, 1, 1)):
        self._parallel_names = list(hybrid_group_names)
        self._dims = list(dims)
        if len(self._parallel_names) != len(self._dims):
            raise ValueError("hybrid_group_names and dims must have the same length")
        self.coordinate = collections.namedtuple("Coordinate", self._parallel_names)
        self._world_size = 1
        for d in self._dims:
            self._world_size *= d
        ranges = [range(d) for d in self._dims]
        self._coord2rank = {self.coordinate(*c): r
                            for r, c in enumerate(itertools.product(*ranges))}
        self._rank2coord = {r: c for c, r in self._coord2rank.items()}

    def get_hybrid_group_names(self):
        return self._parallel_names

    def get_dim(self, axis_name):
        return self._dims[self._parallel_names.index(axis_name)]

    def world_size(self):
        return self._world_size

    def get_rank(self, **kwargs):
        if len(kwargs) != len(self._dims):
            raise ValueError("get_rank needs one coordinate per axis")
        return self._coord2rank[self.coordinate(**kwargs)]

    def get_coord(self, rank):
        if not 0 <= rank < self._world_size:
            raise ValueError(f"rank {rank} is out of [0, {self._world_size})")
        return self._rank2coord[rank]

    def get_axis_list(self, axis_name, index):
        axis = self._parallel_names.index(axis_name)
        return sorted(r for c, r in self._coord2rank.items() if c[axis] == index)

    def get_dim_size(self, axis_name):
        return self.get_dim(axis_name)

    def get_comm_list(self, axis_name):
        """The groups of ranks that differ only on ``axis_name``."""
        axis = self._parallel_names.index(axis_name)
        others = [range(d) for i, d in enumerate(self._dims) if i != axis]
        out = []
        for rest in itertools.product(*others):
            group = []
            for k in range(self._dims[axis]):
                c = list(rest)
                c.insert(axis, k)
                group.append(self._coord2rank[self.coordinate(*c)])
            out.append(group)
        return out

    def get_rank_from_stage(self, global_rank, **kwargs):
        c = self.get_coord(global_rank)._asdict()
        c.update(kwargs)
        return self._coord2rank[self.coordinate(**c)]

    def get_fused_ranks(self, fused_axis):
        rest = [i for i, n in enumerate(self._parallel_names) if n not in fused_axis]
        groups = collections.defaultdict(list)
        for c, r in sorted(self._coord2rank.items(), key=lambda kv: kv[1]):
            groups[tuple(c[i] for i in rest)].append(r)
        return list(groups.values())


class HybridCommunicateGroup:
    """This rank's groups on each axis of ``topology``: every group of every axis is created
    on every rank (``new_group`` is collective), in the axes' order."""

    def __init__(self, topology):
        self._topo = topology
        self.global_rank = get_rank()
        self.nranks = get_world_size()
        if topology.world_size() != self.nranks:
            raise ValueError(f"the hybrid degrees multiply to {topology.world_size()}, but the "
                             f"job has {self.nranks} ranks")
        names = topology.get_hybrid_group_names()
        self._dp_degree = topology.get_dim("data")
        self._mp_degree = topology.get_dim("model")
        self._pp_degree = topology.get_dim("pipe")
        self._sharding_degree = topology.get_dim("sharding")
        self._sep_degree = topology.get_dim("sep") if "sep" in names else 1
        self._groups = {}
        for axis in names:
            self._groups[axis] = self._make(topology.get_comm_list(axis))
        self._check_group = self._make([list(range(self.nranks))])      # the whole job
        coord = topology.get_coord(self.global_rank)
        self._coord = coord
        self.stage_id = coord.pipe
        self.is_first_stage = self.stage_id == 0
        self.is_last_stage = self.stage_id == self._pp_degree - 1
        pp = self._groups["pipe"]
        self.prev_rank = pp.ranks[(self.stage_id - 1) % self._pp_degree]
        self.next_rank = pp.ranks[(self.stage_id + 1) % self._pp_degree]

    def _make(self, comm_list):
        mine = None
        for ranks in comm_list:
            if dist.is_initialized() and self.nranks > 1:
                g = collective.new_group(ranks)        # collective: every rank makes each
            else:
                g = _LocalGroup(ranks, self.global_rank)
            if self.global_rank in ranks:
                mine = g
        return mine

    def get_parallel_mode(self):
        if self._mp_degree == 1 and self._pp_degree == 1 and self._sharding_degree == 1:
            return ParallelMode.DATA_PARALLEL
        if self._pp_degree > 1:
            return ParallelMode.PIPELINE_PARALLEL
        if self._mp_degree > 1:
            return ParallelMode.TENSOR_PARALLEL
        return ParallelMode.SHARDING_PARALLEL

    def topology(self):
        return self._topo

    def get_global_rank(self):
        return self.global_rank

    def _axis_rank(self, axis):
        return getattr(self._coord, axis)

    # data parallel
    def get_data_parallel_rank(self):
        return self._axis_rank("data")

    def get_data_parallel_world_size(self):
        return self._dp_degree

    def get_data_parallel_group(self):
        return self._groups["data"]

    def get_data_parallel_group_src_rank(self):
        return self._groups["data"].ranks[0]

    # model (tensor) parallel
    def get_model_parallel_rank(self):
        return self._axis_rank("model")

    def get_model_parallel_world_size(self):
        return self._mp_degree

    def get_model_parallel_group(self):
        return self._groups["model"]

    def get_model_parallel_group_src_rank(self):
        return self._groups["model"].ranks[0]

    # pipeline
    def get_stage_id(self):
        return self.stage_id

    def get_pipe_parallel_rank(self):
        return self.stage_id

    def get_pipe_parallel_world_size(self):
        return self._pp_degree

    def get_pipe_parallel_group(self):
        return self._groups["pipe"]

    # sharding
    def get_sharding_parallel_rank(self):
        return self._axis_rank("sharding")

    def get_sharding_parallel_world_size(self):
        return self._sharding_degree

    def get_sharding_parallel_group(self):
        return self._groups["sharding"]

    def get_sharding_parallel_group_src_rank(self):
        return self._groups["sharding"].ranks[0]

    # sep
    def get_sep_parallel_rank(self):
        return self._axis_rank("sep")

    def get_sep_parallel_world_size(self):
        return self._sep_degree

    def get_sep_parallel_group(self):
        return self._groups["sep"]

    def get_check_parallel_group(self, sharding=False):
        return self._check_group

    def get_rank_from_stage(self, stage_id, **kwargs):
        return self._topo.get_rank_from_stage(self.global_rank, pipe=stage_id, **kwargs)


class _LocalGroup:
    """A group of one process outside a job (no torch process group)."""

    def __init__(self, ranks, me):
        self.ranks = list(ranks)
        self.nranks = len(self.ranks)
        self.rank = self.ranks.index(me)
        self.id = 0
        self.process_group = None
        self.world_size = self.nranks

    def is_member(self):
        return True

    def get_group_rank(self, rank):
        return self.ranks.index(rank) if rank in self.ranks else -1


def __getattr__(name):
    # Paddle keeps the job's HybridCommunicateGroup in this module's global (set by
    # fleet.init); ours lives in fleet._state
    if name == "_HYBRID_PARALLEL_GROUP":
        return get_hcg()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
