"""Model-parallel random states: ``RNGStatesTracker`` keeps named generator states (one seed
each); ``with tracker.rng_state(name):`` runs the block on that state (dropout inside a
tensor-parallel region gets different masks per model-parallel rank) and leaves the global
generator as it was."""
import contextlib

import numpy as np

from .._state import get_hcg
from ....nn import functional as _F
from ....ops import random as _grandom

__all__ = ["RNGStatesTracker", "get_rng_state_tracker", "model_parallel_random_seed",
           "MODEL_PARALLEL_RNG", "dropout"]

MODEL_PARALLEL_RNG = "model_parallel_rng"


def _get():
    return _grandom.get_rng_state()


def _set(state):
    _grandom.set_rng_state(state)


class RNGStatesTracker:
    """Named random states, each started from its own seed."""

    def __init__(self):
        self.states_ = {}
        self.seeds_ = set()

    def reset(self):
        self.states_ = {}
        self.seeds_ = set()

    def add(self, name, seed):
        if seed in self.seeds_:
            raise ValueError(f"seed {seed} already exists")
        if name in self.states_:
            raise ValueError(f"state {name} already exists")
        self.seeds_.add(seed)
        orig = _get()
        _grandom.seed(seed)
        self.states_[name] = _get()
        _set(orig)

    def get_states_tracker(self):
        return dict(self.states_)

    def set_states_tracker(self, states):
        self.states_ = dict(states)

    @contextlib.contextmanager
    def rng_state(self, name=MODEL_PARALLEL_RNG):
        if name not in self.states_:
            raise ValueError(f"state {name} does not exist")
        orig = _get()
        _set(self.states_[name])
        try:
            yield
        finally:
            self.states_[name] = _get()
            _set(orig)


RNG_STATE_TRACKER = RNGStatesTracker()


def get_rng_state_tracker():
    return RNG_STATE_TRACKER


def model_parallel_random_seed(seed=None):
    """Seed the global generator alike on all model-parallel ranks and the tracker's
    ``model_parallel_rng`` differently on each (``seed * 1024 + mp_rank * 100``)."""
    hcg = get_hcg()
    rank = hcg.get_model_parallel_rank() if hcg is not None else 0
    if seed:
        global_seed, local_seed = seed, seed * 1024 + rank * 100
    else:
        global_seed = int(np.random.randint(0, 655350))
        local_seed = int(np.random.randint(rank * 10000, (rank + 1) * 10000 - 1))
    RNG_STATE_TRACKER.reset()
    RNG_STATE_TRACKER.add(MODEL_PARALLEL_RNG, local_seed)
    _grandom.seed(global_seed)


def dropout(x, p=0.5, axis=None, rng_name=None, training=True, mode="upscale_in_train",
            name=None):
    """``paddle.nn.functional.dropout`` with Paddle's checks for a named generator: with
    ``rng_name`` the probability must be a number in [0, 1] (0 returns ``x``), ``axis`` None
    and ``mode`` one of the two; in dygraph the mask comes from the current generator (enter
    ``tracker.rng_state(rng_name)`` around the call for the named one), as in Paddle."""
    if rng_name is None:
        return _F.dropout(x, p=p, axis=axis, training=training, mode=mode, name=name)
    if not isinstance(p, (float, int)):
        raise TypeError("p argument should be a number(int|float) or Variable")
    if p == 0:
        return x
    assert 0 <= p <= 1, ValueError("p argument should between 0 and 1")
    assert mode in ("downscale_in_infer", "upscale_in_train"), ValueError(
        "mode argument should be 'downscale_in_infer' or 'upscale_in_train'")
    assert axis is None, TypeError("unsupported axis when using random seed generator")
    return _F.dropout(x, p=p, training=training, mode=mode, name=name)
