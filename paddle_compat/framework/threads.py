"""Intra-op threads that hold up when other processes compete for the cores.

torch's CPU kernels split their work over a team of ``torch.get_num_threads()`` threads (one
per core by default) that meet at a barrier after every parallel region. When another process
keeps a core busy, each region waits for the thread the OS has descheduled: on the 2-core dev
machine with other work running, a ResNet-18 training step took 3.6 s with 2 threads against
0.18 s with 1 (bench/bench_zoo.py --contention measures it). Paddle's CPU kernels mostly run on
one thread, so it slows down gracefully under load.

So ``govern()`` -- called by ``Optimizer.step``, once per training step -- looks at the machine
at most every half second: the runnable tasks of the whole system (``procs_running`` in
/proc/stat), less this process's running threads, are the cores other work is using; torch
gets the cores left (at least 1, at most the count it started with). A change needs two
readings in a row that agree, so one busy instant does not flip it. A check costs about
0.1-0.4 ms, at most twice a second.

It stays out of the way when the user chose the count: ``OMP_NUM_THREADS`` or ``CPU_NUM`` set,
``PADDLE_COMPAT_ADAPTIVE_THREADS=0``, or a ``torch.set_num_threads`` since our last change (then
it stops for the rest of the process). On systems without /proc/stat it does nothing.
Compiled code stops it too (``hold()``): torch.compile guards on the thread count and inductor
bakes it into its kernels, so every change would recompile every graph.
"""
import os
import time

import torch

__all__ = ["govern", "enabled", "hold"]

_INTERVAL = 0.5
_state = {"start": None, "set": None, "last": 0.0, "pending": None, "off": None}


def enabled():
    """Whether the thread count is governed (see the module docstring)."""
    if _state["off"] is None:
        env = os.environ
        _state["off"] = (env.get("PADDLE_COMPAT_ADAPTIVE_THREADS", "1") == "0"
                         or "OMP_NUM_THREADS" in env or "CPU_NUM" in env
                         or not os.path.exists("/proc/stat"))
    return not _state["off"]


def _own_running():
    """This process's threads that are running now (its idle kernel threads may spin)."""
    n = 0
    try:
        for tid in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{tid}/stat", "rb") as f:
                state = f.read().rsplit(b")", 1)[1].split()[0]
            n += state == b"R"
    except (OSError, IndexError):
        return 1
    return max(n, 1)


def _busy_elsewhere():
    """Runnable tasks of other processes on the machine, or None if unknown."""
    try:
        with open("/proc/stat", "rb") as f:
            for line in f:
                if line.startswith(b"procs_running"):
                    return max(0, int(line.split()[1]) - _own_running())
    except (OSError, ValueError, IndexError):
        return None
    return None


def govern(now=None):
    """Match torch's intra-op thread count to the cores other work leaves free (cheap when
    called often: it looks at most every half second)."""
    if _state["off"]:
        return
    now = time.monotonic() if now is None else now
    if now - _state["last"] < _INTERVAL:
        return
    _state["last"] = now
    if not enabled():
        return
    current = torch.get_num_threads()
    if _state["start"] is None:
        _state["start"] = _state["set"] = current
    elif current != _state["set"]:          # the user set it: theirs from now on
        _state["off"] = True
        return
    busy = _busy_elsewhere()
    if busy is None:
        _state["off"] = True
        return
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        (os.cpu_count() or 1)
    want = max(1, min(_state["start"], cores - busy))
    if want == current:
        _state["pending"] = None
    elif _state["pending"] == want:
        torch.set_num_threads(want)
        _state["set"] = want
        _state["pending"] = None
    else:
        _state["pending"] = want


def hold():
    """Leave the thread count as it is from now on (compiled graphs are specialised on it:
    ``to_static(backend="CINN")`` and the compiled optimizer update call this)."""
    _state["off"] = True
