"""``paddle.distributed.fleet.utils.timer_helper``: the named wall-clock timers of pipeline
training (``set_timers()`` once, then ``get_timers()("name").start()`` / ``.stop()``)."""
import time

import torch

from ....framework.place import current_device

__all__ = []

_GLOBAL_TIMERS = None


def is_timer_initialized():
    return _GLOBAL_TIMERS is not None


def get_timers():
    """The global ``Timers`` (AssertionError before ``set_timers``, as in Paddle)."""
    assert _GLOBAL_TIMERS is not None, "timers is not initialized."
    return _GLOBAL_TIMERS


def set_timers():
    """Create the global ``Timers`` (AssertionError when they exist)."""
    global _GLOBAL_TIMERS
    assert _GLOBAL_TIMERS is None, "timers has been already initialized."
    _GLOBAL_TIMERS = Timers()


def _sync():
    if current_device().type == "cuda":
        torch.cuda.synchronize()


class _Timer:
    """One named timer: ``start``/``stop`` add up elapsed seconds."""

    def __init__(self, name):
        self.name = name
        self.elapsed_ = 0.0
        self.started_ = False
        self.start_time = time.time()

    def start(self):
        assert not self.started_, "timer has already started"
        _sync()
        self.start_time = time.time()
        self.started_ = True

    def stop(self):
        assert self.started_, "timer is not started."
        _sync()
        self.elapsed_ += time.time() - self.start_time
        self.started_ = False

    def reset(self):
        self.elapsed_ = 0.0
        self.started_ = False

    def elapsed(self, reset=True):
        """Seconds accumulated (a running timer counts up to now); ``reset`` zeroes them."""
        started = self.started_
        if started:
            self.stop()
        elapsed = self.elapsed_
        if reset:
            self.reset()
        if started:
            self.start()
        return elapsed


class Timers:
    """Named timers created on first use; ``log(names)`` prints their times in ms."""

    def __init__(self):
        self.timers = {}

    def __call__(self, name, use_event=False):
        if name not in self.timers:
            self.timers[name] = _Timer(name)
        return self.timers[name]

    def log(self, names, normalizer=1.0, reset=True):
        assert normalizer > 0.0
        string = "time (ms)"
        for name in names:
            elapsed = self.timers[name].elapsed(reset=reset) * 1000.0 / normalizer
            string += f" | {name}: {elapsed:.2f}"
        print(string, flush=True)
