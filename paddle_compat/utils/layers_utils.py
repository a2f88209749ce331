"""``paddle.utils`` helpers for nested structures and shape arguments.

Nested structures ("nests") are lists, tuples (named tuples included) and dicts holding other
nests or leaves; a string is a leaf. Dicts are walked in sorted key order (so their keys must
sort), and rebuilt with the keys in their original order::

    >>> flatten({"b": [1, (2, 3)], "a": 4})
    [4, 1, 2, 3]
    >>> pack_sequence_as({"b": [0, (0, 0)], "a": 0}, [4, 1, 2, 3])
    {'b': [1, (2, 3)], 'a': 4}
    >>> map_structure(lambda x, y: x + y, [1, (2,)], [10, (20,)])
    [11, (22,)]

The shape helpers (``convert_to_list``, ``convert_shape_to_list``, ``check_shape``,
``get_int_tensor_list``, ``get_shape_tensor_inputs``, ``is_same_shape``) take Paddle's shape
arguments: lists or tuples of ints and Tensors, or one int Tensor.
"""
import copy
from collections.abc import Sequence

import torch

from ..framework import mode as _mode
from ..framework.data_feeder import check_dtype
from ..framework.tensor import Tensor, wrap
from ..static.program import Block

__all__ = ["NotSupportedTensorArgumentError", "convert_to_list", "is_sequence", "to_sequence",
           "flatten", "pack_sequence_as", "map_structure", "hold_mutable_vars",
           "copy_mutable_vars", "assert_same_structure", "padding_to_same_structure",
           "get_int_tensor_list", "get_shape_tensor_inputs", "convert_shape_to_list",
           "check_shape", "try_get_constant_shape_from_tensor", "get_inputs_outputs_in_block",
           "is_same_shape", "strtobool", "OpLastCheckpointChecker"]


class NotSupportedTensorArgumentError(TypeError):
    """A Tensor was given where a Python number is required; ``name`` is the argument."""

    def __init__(self, msg, name):
        super().__init__(msg)
        self.name = name


# ---------------------------------------------------------------------- nests
def is_sequence(seq):
    """True for a dict or a non-string sequence (list, tuple): a nest, not a leaf."""
    return isinstance(seq, dict) or (isinstance(seq, Sequence) and not isinstance(seq, str))


def to_sequence(nest):
    """``nest`` itself when it is a sequence, else ``[nest]``."""
    return nest if is_sequence(nest) else [nest]


def _keys(d):
    try:
        return sorted(d)
    except TypeError:
        raise TypeError("nest only supports dicts with sortable keys.") from None


def _children(nest):
    """The direct members of a nest (a dict's values in sorted key order)."""
    if isinstance(nest, dict):
        return [nest[k] for k in _keys(nest)]
    return list(nest)


def _leaves(nest, out):
    for child in _children(nest):
        if is_sequence(child):
            _leaves(child, out)
        else:
            out.append(child)
    return out


def flatten(nest):
    """All leaves of ``nest`` in order, as a list (``[nest]`` for a leaf)."""
    return _leaves(nest, []) if is_sequence(nest) else [nest]


def _like(instance, members):
    """A container of ``instance``'s type holding ``members`` (given in ``_children`` order)."""
    if isinstance(instance, dict):
        by_key = dict(zip(_keys(instance), members))
        return type(instance)((k, by_key[k]) for k in instance)
    fields = getattr(instance, "_fields", None)
    if isinstance(instance, tuple) and isinstance(fields, Sequence) and all(
            isinstance(f, str) for f in fields):
        return type(instance)(*members)          # a namedtuple takes its fields positionally
    return type(instance)(members)


def _pack(structure, flat, pos):
    members = []
    for child in _children(structure):
        if is_sequence(child):
            pos, packed = _pack(child, flat, pos)
            members.append(_like(child, packed))
        else:
            members.append(flat[pos])
            pos += 1
    return pos, members


def pack_sequence_as(structure, flat_sequence):
    """The leaves ``flat_sequence`` arranged as ``structure`` (the inverse of ``flatten``)."""
    if not is_sequence(flat_sequence):
        raise TypeError("flat_sequence must be a sequence")
    if isinstance(flat_sequence, dict):
        flat_sequence = list(flat_sequence.values())
    if not is_sequence(structure):
        if len(flat_sequence) != 1:
            raise ValueError(f"Structure is a scalar but len(flat_sequence) == "
                             f"{len(flat_sequence)} > 1")
        return flat_sequence[0]
    n = len(flatten(structure))
    if n != len(flat_sequence):
        raise ValueError(f"Could not pack sequence. Structure had {n} elements, but "
                         f"flat_sequence had {len(flat_sequence)} elements. Structure: "
                         f"{structure}, flat_sequence: {flat_sequence}.")
    return _like(structure, _pack(structure, flat_sequence, 0)[1])


def map_structure(func, *structure):
    """``func`` applied leaf by leaf across the structures, arranged as the first one. The
    structures are zipped leaf-wise: a structure with more leaves contributes only its first
    ones, and the result's leaf count must match the first structure's."""
    results = [func(*leaves) for leaves in zip(*(flatten(s) for s in structure))]
    return pack_sequence_as(structure[0], results)


def hold_mutable_vars(structure):
    """Whether any direct member of ``structure`` is itself a nest (a dict is iterated over
    its keys, as Python iterates it)."""
    return any(is_sequence(s) for s in structure)


def copy_mutable_vars(structure):
    """A copy of the nest's containers (new lists, dicts, tuples) holding the same leaves."""
    return pack_sequence_as(structure, copy.copy(flatten(structure)))


def _same_structure(a, b, check_types, skip_if):
    if skip_if is not None and (skip_if(a) or skip_if(b)):
        return
    seq = is_sequence(a)
    if seq != is_sequence(b):
        raise ValueError("The two structures don't have the same nested structure.\n\n"
                         f"First structure: {a}\n\nSecond structure: {b}.")
    if not seq:
        return
    if check_types:
        if type(a) is not type(b):
            raise TypeError("The two structures don't have the same sequence type. First "
                            f"structure has type {type(a)}, while second structure has type "
                            f"{type(b)}.")
        if isinstance(a, dict) and set(a) != set(b):
            raise ValueError("The two dictionaries don't have the same set of keys. First "
                             f"structure has keys {set(a)}, while second structure has keys "
                             f"{set(b)}.")
    ca, cb = _children(a), _children(b)
    if len(ca) != len(cb):
        raise ValueError("The two structures don't have the same number of elements.\n\n"
                         f"First structure ({len(ca)} elements): {a}\n\n"
                         f"Second structure ({len(cb)} elements): {b}")
    for x, y in zip(ca, cb):
        _same_structure(x, y, check_types, skip_if)


def assert_same_structure(nest1, nest2, check_types=True, skip_if=None):
    """Raise unless the two nests have the same shape: ``ValueError`` for a different leaf
    count, nesting or dict keys, ``TypeError`` for different container types (only with
    ``check_types``). ``skip_if(sub_nest)`` true skips that part (and the leaf-count check)."""
    if skip_if is not None and (skip_if(nest1) or skip_if(nest2)):
        return
    n1 = len(flatten(nest1)) if is_sequence(nest1) else 1
    n2 = len(flatten(nest2)) if is_sequence(nest2) else 1
    if n1 != n2 and skip_if is None:
        raise ValueError("The two structures don't have the same number of elements.\n\n"
                         f"First structure ({n1} elements): {nest1}\n\n"
                         f"Second structure ({n2} elements): {nest2}")
    _same_structure(nest1, nest2, check_types, skip_if)


def padding_to_same_structure(nest1, nest2, obj=None):
    """Both nests with every ``None`` leaf replaced by ``obj`` (the structures themselves are
    not changed). Returns ``(nest1, nest2)``."""
    def fill(nest):
        if not is_sequence(nest):
            return obj if nest is None else nest
        return pack_sequence_as(nest, [obj if v is None else v for v in flatten(nest)])
    return fill(nest1), fill(nest2)


# ---------------------------------------------------------------------- argument helpers
def convert_to_list(value, n, name, dtype=int):
    """``[value] * n`` for a number of ``dtype``, else ``list(value)`` checked to have ``n``
    members convertible by ``dtype``. Tensors raise ``NotSupportedTensorArgumentError``."""
    if isinstance(value, dtype):
        return [value] * n
    tensor_msg = f"`{name}` required numerical type with `{dtype}`, but received Tensor."
    if isinstance(value, Tensor):
        raise NotSupportedTensorArgumentError(tensor_msg, name)
    try:
        values = list(value)
    except TypeError:
        raise ValueError(f"The {name}'s type must be list or tuple. Received: {value}") from None
    if len(values) != n:
        raise ValueError(f"The {name}'s length must be {n}. Received: {value}")
    for v in values:
        if isinstance(v, Tensor):
            raise NotSupportedTensorArgumentError(tensor_msg, name)
        try:
            dtype(v)
        except (ValueError, TypeError):
            raise ValueError(f"The {name}'s type must be a list or tuple of {n} {dtype}. "
                             f"Received: {value} including element {v} of type "
                             f"{type(v)}") from None
    return values


def _int_dtype_check(t, what, api, extra=""):
    """TypeError unless the Tensor is int32/int64 (static mode only, as Paddle checks)."""
    check_dtype(t.dtype, what, ["int32", "int64"], api, extra)


def _scalar(t, dtype):
    """A 0-D Tensor of ``dtype`` from a Tensor (first value) or a number (truncated)."""
    if isinstance(t, Tensor):
        return wrap(t._t.detach().reshape(-1)[0].to(dtype))
    return wrap(torch.tensor(t, dtype=torch.float64).to(dtype))


def _int32(t):
    """A shape Tensor as Paddle passes it on: int64 cast to int32, others as they are; never
    differentiated."""
    if t._t.dtype == torch.int64:
        return wrap(t._t.detach().to(torch.int32))
    t.stop_gradient = True
    return t


def get_int_tensor_list(ele_list, default_dtype="int64"):
    """Each member of ``ele_list`` (ints or one-element Tensors) as a 0-D Tensor of
    ``default_dtype`` ("int64" or "int32")."""
    dtype = getattr(torch, str(default_dtype).replace("paddle.", ""))
    return [_scalar(e, dtype) for e in ele_list]


def get_shape_tensor_inputs(inputs, attrs, shape, op_type):
    """Fill an op's shape inputs the way Paddle's ops take them: a Tensor ``shape`` becomes
    ``inputs["ShapeTensor"]``; a list or tuple becomes ``attrs["shape"]`` (-1 for its Tensor
    members) plus, when it holds Tensors, ``inputs["ShapeTensorList"]`` (one Tensor per
    dimension, the ints as 0-D int32 Tensors). int64 Tensors are cast to int32."""
    if isinstance(shape, Tensor):
        _int_dtype_check(shape, "shape", "fill_constant",
                         f"(When type of shape in {op_type} is Variable.)")
        inputs["ShapeTensor"] = _int32(shape)
    elif isinstance(shape, (list, tuple)):
        attrs["shape"] = [-1 if isinstance(d, Tensor) else d for d in shape]
        if any(isinstance(d, Tensor) for d in shape):
            dims = []
            for i, d in enumerate(shape):
                if isinstance(d, Tensor):
                    _int_dtype_check(d, f"shape[{i}]", op_type,
                                     f"(When type of shape in {op_type} is list or tuple.)")
                    dims.append(_int32(d))
                else:
                    dims.append(_scalar(d, torch.int32))
            inputs["ShapeTensorList"] = dims
    else:
        raise TypeError("Shape only supports Variable, or list, or tuple.")


def convert_shape_to_list(shape):
    """A shape as a list of ints: a list/tuple has its Tensor members replaced by their first
    value (empty Tensors are dropped); an int Tensor becomes its values."""
    if isinstance(shape, (list, tuple)):
        out = []
        for d in shape:
            if isinstance(d, Tensor):
                if d._t.numel() > 0:
                    out.append(d._t.reshape(-1)[0].item())
            else:
                out.append(d)
        return out
    if _mode.in_dynamic_mode():
        return shape._t.to(torch.int64).tolist()
    return shape


def check_shape(shape):
    """Raise for a shape ``fill_constant`` cannot take: a negative (``ValueError``) or
    non-int (``TypeError``) list member; in static mode also a non-int Tensor."""
    if isinstance(shape, Tensor):
        _int_dtype_check(shape, "shape", "fill_constant")
    elif isinstance(shape, (list, tuple)):
        for d in shape:
            if isinstance(d, Tensor):
                _int_dtype_check(d, "element of shape", "fill_constant")
                continue
            if d < 0:
                raise ValueError("All elements in ``shape`` must be positive when it's a list "
                                 "or tuple")
            if not isinstance(d, int):
                raise TypeError("All elements in ``shape`` must be integers when it's a list "
                                "or tuple")


def try_get_constant_shape_from_tensor(shape_tensor):
    """The static shape a shape Tensor holds when it is known before running (in static mode
    ``paddle.shape(var)`` carries ``var.shape``, -1 for unknown dimensions, beside the value
    the program computes); None for any other shape computed by the program, and always None
    in dynamic mode (the values are there to read)."""
    if _mode.in_dynamic_mode():
        return None
    t = getattr(shape_tensor, "_t", None)
    if isinstance(t, torch.Tensor) and t.dim() == 1 and not t.is_floating_point():
        return t.tolist()
    known = getattr(t, "__dict__", {}).get("_constant_shape")     # paddle.shape of a Variable
    return list(known) if known is not None else None


def get_inputs_outputs_in_block(block):
    """The names of the variables a sub-block reads and writes but does not own. Programs
    here have only their global block (control flow is traced inline), so every Block given
    is refused as Paddle refuses the main block."""
    assert isinstance(block, Block), "input non-Block argument for get_inputs_outputs_in_block."
    assert block.parent_idx != -1, "input block should be a sub-block, not main block."
    return set(), set()


def is_same_shape(shape1, shape2):
    """Whether two shapes match; in static mode a -1 or Tensor dimension matches anything
    (and a Tensor shape matches any shape)."""
    if _mode.in_dynamic_mode():
        return shape1 == shape2
    if isinstance(shape1, Tensor) or isinstance(shape2, Tensor):
        return True
    if len(shape1) != len(shape2):
        return False
    return all(isinstance(a, Tensor) or isinstance(b, Tensor) or a == -1 or b == -1 or a == b
               for a, b in zip(shape1, shape2))


# ---------------------------------------------------------------------- environment, versions
def strtobool(val):
    """True for "y", "yes", "t", "true", "on", "1"; False for "n", "no", "f", "false", "off",
    "0" (any case); ``ValueError`` otherwise."""
    val = val.lower()
    if val in ("y", "yes", "t", "true", "on", "1"):
        return True
    if val in ("n", "no", "f", "false", "off", "0"):
        return False
    raise ValueError(f"Invalid truth value {val!r}")


class OpLastCheckpointChecker:
    """The last version checkpoint of each op of Paddle's C++ op registry, for code that
    adapts old saved programs: ``checkpoints_map`` maps an op name to its updates and
    ``filter_updates(op_name, type, key)`` lists them. The ops here are Python functions with
    no version registry, so the map is empty and ``filter_updates`` returns ``[]``."""

    def __init__(self):
        self.raw_version_map = {}
        self.checkpoints_map = {}

    def filter_updates(self, op_name, type=None, key=""):
        return list(self.checkpoints_map.get(op_name, []))
