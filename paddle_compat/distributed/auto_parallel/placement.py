"""Paddle's placements -- ``Shard(dim)``, ``Replicate()``, ``Partial(reduce_type)`` -- and
their torch DTensor counterparts.

A placement says, for one dimension of a ``ProcessMesh``, how a tensor lies on the ranks along
it: split on a tensor dim, a full copy on every rank, or a pending reduction (each rank holds a
part that sums -- or max/min/... -- to the value). They are value objects: equal when they say
the same, hashable, printed as Paddle prints them (``Shard(dim=0)``, ``Partial(reduce_type=SUM)``).
"""
import enum

from torch.distributed.tensor import Partial as _TPartial
from torch.distributed.tensor import Replicate as _TReplicate
from torch.distributed.tensor import Shard as _TShard

__all__ = ["ReduceType", "Placement", "Shard", "Replicate", "Partial", "to_torch", "from_torch"]


class ReduceType(enum.Enum):
    """How a ``Partial`` tensor's parts combine (Paddle's numbering)."""
    kRedSum = 0
    kRedMax = 1
    kRedMin = 2
    kRedProd = 3
    kRedAvg = 4
    kRedAny = 5
    kRedAll = 6

    def __int__(self):
        return self.value

    def __str__(self):
        return f"ReduceType.{self.name}"


# Paddle's reduce type <-> the c10d reduce op name a torch Partial carries; any/all are max/min
# of booleans (torch has no separate op for them)
_TORCH_OP = {ReduceType.kRedSum: "sum", ReduceType.kRedMax: "max", ReduceType.kRedMin: "min",
             ReduceType.kRedProd: "product", ReduceType.kRedAvg: "avg",
             ReduceType.kRedAny: "max", ReduceType.kRedAll: "min"}
_FROM_TORCH = {"sum": ReduceType.kRedSum, "max": ReduceType.kRedMax, "min": ReduceType.kRedMin,
               "product": ReduceType.kRedProd, "avg": ReduceType.kRedAvg}
_SHORT = {ReduceType.kRedSum: "SUM", ReduceType.kRedMax: "MAX", ReduceType.kRedMin: "MIN",
          ReduceType.kRedProd: "PRODUCT", ReduceType.kRedAvg: "AVG", ReduceType.kRedAny: "ANY",
          ReduceType.kRedAll: "ALL"}


class Placement:
    """Base of the placements (``isinstance(p, dist.Placement)``)."""

    __slots__ = ()

    def is_shard(self, dim=None):
        return False

    def is_replicated(self):
        return False

    def is_partial(self):
        return False

    def __ne__(self, other):
        return not self == other


class Shard(Placement):
    """Split along tensor dim ``dim`` over the mesh dimension (as ``torch.chunk``: the last
    ranks get the smaller pieces)."""

    __slots__ = ("_dim",)

    def __init__(self, dim):
        if isinstance(dim, bool) or not isinstance(dim, int):
            raise TypeError(f"Shard(dim): dim must be an int, got {type(dim).__name__}")
        self._dim = dim

    def get_dim(self):
        return self._dim

    def is_shard(self, dim=None):
        return dim is None or dim == self._dim

    def __eq__(self, other):
        return isinstance(other, Shard) and other._dim == self._dim

    def __hash__(self):
        return hash(("shard", self._dim))

    def __repr__(self):
        return f"Shard(dim={self._dim})"


class Replicate(Placement):
    """A full copy on every rank of the mesh dimension."""

    __slots__ = ()

    def is_replicated(self):
        return True

    def __eq__(self, other):
        return isinstance(other, Replicate)

    def __hash__(self):
        return hash("replicate")

    def __repr__(self):
        return "Replicate()"


class Partial(Placement):
    """Each rank of the mesh dimension holds a part; the value is their reduction
    (``reduce_type``, a ``ReduceType``: sum by default)."""

    __slots__ = ("_reduce_type",)

    def __init__(self, reduce_type=ReduceType.kRedSum):
        if not isinstance(reduce_type, ReduceType):
            raise TypeError("Partial(reduce_type): expected a paddle.distributed.ReduceType, "
                            f"got {reduce_type!r}")
        self._reduce_type = reduce_type

    def reduce_type(self):
        return self._reduce_type

    def is_partial(self):
        return True

    def __eq__(self, other):
        return isinstance(other, Partial) and other._reduce_type == self._reduce_type

    def __hash__(self):
        return hash(("partial", self._reduce_type))

    def __repr__(self):
        return f"Partial(reduce_type={_SHORT[self._reduce_type]})"


def to_torch(placements):
    """torch DTensor placements for a list of ours."""
    out = []
    for p in placements:
        if isinstance(p, Shard):
            out.append(_TShard(p.get_dim()))
        elif isinstance(p, Replicate):
            out.append(_TReplicate())
        elif isinstance(p, Partial):
            out.append(_TPartial(_TORCH_OP[p.reduce_type()]))
        else:
            raise TypeError("placements must be paddle.distributed.Shard/Replicate/Partial, "
                            f"got {p!r}")
    return out


def from_torch(placements):
    """Ours for torch DTensor placements (torch's norm/strided variants read as their kind)."""
    out = []
    for p in placements:
        if p.is_shard():
            out.append(Shard(p.dim))
        elif p.is_replicate():
            out.append(Replicate())
        else:
            out.append(Partial(_FROM_TORCH.get(getattr(p, "reduce_op", "sum"),
                                               ReduceType.kRedSum)))
    return out
