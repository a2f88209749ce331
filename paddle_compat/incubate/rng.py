"""``paddle.incubate``'s random-state functions: ``get_rng_state`` / ``set_rng_state`` (as
``paddle.get_rng_state``, plus ``use_index``) and ``register_rng_state_as_index``.

Indexed states: the CPU generator can hold several states, one of them current; each draws
on from where it stopped. ``register_rng_state_as_index()`` adds a copy of the current state
(or the given one) and makes it current, returning its index; ``set_rng_state([i],
use_index=True)`` switches to state ``i``; ``get_rng_state(use_index=True)`` says which is
current. Index 0 is the state the process started with. ``paddle.seed`` reseeds the current
state. Here only the current state lives in the generator; the others wait as snapshots.

    paddle.seed(3)
    paddle.rand([1])                                # 0.3029
    paddle.incubate.register_rng_state_as_index()   # [1], a copy of state 0
    paddle.rand([1])                                # 0.6506 (state 1)
    paddle.incubate.set_rng_state([0], use_index=True)
    paddle.rand([1])                                # 0.6506 again (state 0 waited)
"""
import torch

from ..random import default_generator as _gen
from ..random.engine import GeneratorState

__all__ = ["get_rng_state", "set_rng_state", "register_rng_state_as_index"]

_saved = [None]      # index -> the state of an index that is not current (None: the current)
_current = [0]


def _is_gpu(device):
    return device is not None and ("gpu" in str(device).lower() or "cuda" in str(device).lower())


def _check_gpu():
    if not torch.cuda.is_available():
        raise ValueError("The device should not be 'gpu', since PaddlePaddle is not compiled "
                         "with CUDA")


def _switch(index):
    if not 0 <= index < len(_saved):
        raise RuntimeError("(NotFound) Generator index is not found")
    if index == _current[0]:
        return
    _saved[_current[0]] = _gen.get_state()
    _gen.set_state(_saved[index])
    _saved[index] = None
    _current[0] = index


def get_rng_state(device=None, use_index=False):
    """``[state]`` of the CPU generator (a list of CUDA generator states for a GPU device); with
    ``use_index``, ``[index]`` of the current indexed state."""
    if _is_gpu(device):
        _check_gpu()
        if use_index:
            raise NotImplementedError("get_rng_state(use_index=True) is supported for the CPU "
                                      "generator only")
        return [torch.cuda.get_rng_state(i) for i in range(torch.cuda.device_count())]
    if use_index:
        return [_current[0]]
    return [_gen.get_state()]


def set_rng_state(state_list, device=None, use_index=False):
    """Restore a state from ``get_rng_state`` (the list holds one for the CPU); with
    ``use_index``, make the indexed state ``state_list[0]`` current."""
    if _is_gpu(device):
        _check_gpu()
        if use_index:
            raise NotImplementedError("set_rng_state(use_index=True) is supported for the CPU "
                                      "generator only")
        for i, s in enumerate(state_list):
            torch.cuda.set_rng_state(s, i)
        return
    if len(state_list) != 1:
        raise ValueError("Length of cpu state list should be equal to 1")
    if use_index:
        _switch(int(state_list[0]))
    else:
        if not isinstance(state_list[0], GeneratorState):
            raise TypeError(f"set_rng_state expects a state from get_rng_state, got "
                            f"{type(state_list[0]).__name__}")
        _gen.set_state(state_list[0])


def register_rng_state_as_index(state_list=None, device=None):
    """Add a state (a copy of the current one, or ``state_list[0]``) as a new indexed state,
    make it current and return ``[its index]``."""
    if _is_gpu(device):
        _check_gpu()
        raise NotImplementedError("register_rng_state_as_index is supported for the CPU "
                                  "generator only")
    if state_list is not None and len(state_list) != 1:
        raise ValueError("Length of cpu state list should be equal to 1")
    state = _gen.get_state() if state_list is None else state_list[0].clone()
    _saved[_current[0]] = _gen.get_state()
    _saved.append(None)
    _current[0] = len(_saved) - 1
    _gen.set_state(state)
    return [_current[0]]
