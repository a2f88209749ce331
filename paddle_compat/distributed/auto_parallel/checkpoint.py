"""``save_state_dict`` / ``load_state_dict``: sharded checkpoints on
``torch.distributed.checkpoint`` (DCP).

Every rank writes its own shards of the distributed tensors (one file per rank) and the
coordinator the metadata; loading reads, for each target tensor, the pieces that overlap its
local shard, so a checkpoint written by N ranks loads on M ranks (or in one process) under any
placements. Dense tensors are saved once.

A checkpoint is untrusted input: DCP's own reader unpickles the metadata file, which could run
code. Ours reads it with an unpickler that builds only DCP's metadata records, torch sizes and
dtypes, and plain containers.
"""
import io
import os
import pickle
import warnings

import torch
import torch.distributed as tdist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.metadata import StorageMeta

from ...framework.tensor import Tensor, wrap

__all__ = ["save_state_dict", "load_state_dict", "CheckpointError"]


class CheckpointError(ValueError):
    """A checkpoint file that is not what a checkpoint holds."""


_ALLOWED = {
    "builtins": {"dict", "list", "tuple", "set", "frozenset", "slice", "int", "float", "str",
                 "bytes", "bool", "complex"},
    "collections": {"OrderedDict"},
    "torch": {"Size", "device", "strided", "float16", "float32", "float64", "bfloat16", "int8",
              "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool",
              "complex64", "complex128", "float8_e4m3fn", "float8_e5m2"},
    "torch.serialization": {"_get_layout"},            # a layout by its name
    "pathlib": {"PosixPath", "PurePosixPath", "WindowsPath", "PureWindowsPath"},
    "torch.distributed.checkpoint.filesystem": {"_StorageInfo", "_StoragePrefix"},
}
_METADATA = "torch.distributed.checkpoint.metadata"      # DCP's record dataclasses


class _MetadataUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if module == "builtins" and name == "getattr":
            return _safe_getattr
        if module == _METADATA or name in _ALLOWED.get(module, ()):
            return super().find_class(module, name)
        raise CheckpointError(f"checkpoint metadata refers to {module}.{name}, which a "
                              "checkpoint does not hold; refusing to load it")


def _safe_getattr(obj, name):
    """``getattr`` as pickles of torch dtypes use it (``getattr(torch, 'float32')``) only."""
    if obj is torch and isinstance(getattr(torch, name, None), torch.dtype):
        return getattr(torch, name)
    raise CheckpointError(f"checkpoint metadata asks for the attribute {name!r} of {obj!r}")


class _SafeReader(dcp.FileSystemReader):
    """DCP's file reader with the metadata read by ``_MetadataUnpickler``."""

    def read_metadata(self, *args, **kwargs):
        path = self._get_metadata_path(kwargs.get("rank"))
        with self.fs.create_stream(path, "rb") as f:
            data = f.read()
        try:
            metadata = _MetadataUnpickler(io.BytesIO(data)).load()
        except CheckpointError:
            raise
        except Exception as e:
            raise CheckpointError(f"{path}: not a checkpoint's metadata ({e})") from None
        if getattr(metadata, "storage_meta", None) is None:
            metadata.storage_meta = StorageMeta()
        metadata.storage_meta.load_id = self.load_id
        return metadata


def _torch_state(state_dict, api):
    if not isinstance(state_dict, dict):
        raise TypeError(f"{api}: state_dict must be a dict of Tensors, got "
                        f"{type(state_dict).__name__}")
    out = {}
    for k, v in state_dict.items():
        if isinstance(v, Tensor):
            out[k] = v._t.detach()
        elif isinstance(v, dict):
            out[k] = _torch_state(v, api)
        elif isinstance(v, (int, float, str, bool)) or v is None:
            out[k] = v
        else:
            raise TypeError(f"{api}: the value of {k!r} is a {type(v).__name__}; a state_dict "
                            "holds Tensors (and nested dicts of them)")
    return out


def _no_dist():
    return not (tdist.is_available() and tdist.is_initialized())


def save_state_dict(state_dict, path, process_group=None, coordinator_rank=0, unique_id=None,
                    async_save=False, safetensors=False, **kwargs):
    """Write ``state_dict`` (Tensors, distributed or not) to the directory ``path``: each rank
    its own shards, the coordinator the metadata."""
    if safetensors:
        raise NotImplementedError("save_state_dict(safetensors=True) is not supported by "
                                  "paddle_compat; the checkpoint is written in DCP's format")
    os.makedirs(path, exist_ok=True)
    pg = process_group._pg if process_group is not None else None
    dcp.save(_torch_state(state_dict, "save_state_dict"),
             storage_writer=dcp.FileSystemWriter(path), process_group=pg,
             no_dist=_no_dist())


def load_state_dict(state_dict, path, process_group=None, coordinator_rank=0, unique_id=None,
                    offload=False, **kwargs):
    """Fill ``state_dict``'s Tensors in place from the checkpoint at ``path`` (written by any
    number of ranks, with any placements): each gets the values of its own shard."""
    if not os.path.isdir(path):
        raise FileNotFoundError(f"load_state_dict: no checkpoint directory at {path!r}")
    targets = _torch_state(state_dict, "load_state_dict")
    reader = _SafeReader(path)
    if not os.path.exists(os.path.join(path, ".metadata")):
        raise CheckpointError(f"load_state_dict: {path!r} holds no checkpoint metadata "
                              "(.metadata, written by save_state_dict)")
    reader.read_metadata()                       # a bad file fails here, clearly
    pg = process_group._pg if process_group is not None else None
    with warnings.catch_warnings():              # DCP warns when it loads in one process
        warnings.filterwarnings("ignore", message="torch.distributed is disabled")
        dcp.load(targets, storage_reader=reader, process_group=pg, no_dist=_no_dist())
    _write_back(state_dict, targets)


def _write_back(state_dict, targets):
    """DCP fills the target tensors in place; a value that was not a tensor it replaced."""
    for k, v in targets.items():
        cur = state_dict[k]
        if isinstance(cur, dict):
            _write_back(cur, v)
        elif not isinstance(cur, Tensor):
            state_dict[k] = v if not isinstance(v, torch.Tensor) else wrap(v)
