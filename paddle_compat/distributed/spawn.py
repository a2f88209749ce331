"""``paddle.distributed.spawn``: run ``func(*args)`` in ``nprocs`` new processes.

Each process gets Paddle's job environment (``PADDLE_TRAINER_ID``, ``PADDLE_TRAINERS_NUM``,
``PADDLE_TRAINER_ENDPOINTS``, ``PADDLE_CURRENT_ENDPOINT``, ``FLAGS_selected_gpus`` on GPU,
``PADDLE_DISTRI_BACKEND``) and torch's (``MASTER_ADDR``, ``MASTER_PORT``, ``RANK``,
``WORLD_SIZE``, ``LOCAL_RANK``) on 127.0.0.1, so ``func`` calls ``init_parallel_env()`` as under
Paddle. Processes start with multiprocessing's ``spawn`` method (Paddle's default); when the
parent runs with the ``paddle`` import hook, the children get it too (they re-import the
parent's ``__main__``, which says ``import paddle``).
"""
import multiprocessing
import multiprocessing.connection
import os
import signal
import socket
import sys
import traceback

from ..framework import hooks
from .env import _on_gpu

__all__ = ["spawn", "MultiprocessContext", "free_ports"]

_OPTIONS = {"start_method", "ips", "gpus", "xpus", "print_config", "backend"}


def free_ports(n, host="127.0.0.1"):
    """``n`` distinct TCP ports free on ``host`` right now."""
    socks, ports = [], []
    try:
        while len(ports) < n:
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, 0))
            socks.append(s)
            ports.append(s.getsockname()[1])
    finally:
        for s in socks:
            s.close()
    return ports


def job_env(rank, nprocs, endpoints, master_port, backend, device_ids=None):
    """The environment Paddle's launchers give trainer ``rank`` (strings only)."""
    host, _, _ = endpoints[0].rpartition(":")
    env = {
        "PADDLE_TRAINER_ID": str(rank),
        "PADDLE_TRAINERS_NUM": str(nprocs),
        "PADDLE_TRAINER_ENDPOINTS": ",".join(endpoints),
        "PADDLE_CURRENT_ENDPOINT": endpoints[rank],
        "PADDLE_RANK_IN_NODE": str(rank),
        "PADDLE_LOCAL_RANK": str(rank),
        "PADDLE_GLOBAL_RANK": str(rank),
        "PADDLE_LOCAL_SIZE": str(nprocs),
        "PADDLE_GLOBAL_SIZE": str(nprocs),
        "PADDLE_NNODES": "1",
        "PADDLE_MASTER": f"{host}:{master_port}",
        "PADDLE_DISTRI_BACKEND": backend,
        "MASTER_ADDR": host,
        "MASTER_PORT": str(master_port),
        "RANK": str(rank),
        "WORLD_SIZE": str(nprocs),
        "LOCAL_RANK": str(rank),
        "LOCAL_WORLD_SIZE": str(nprocs),
    }
    if device_ids is not None:
        env["FLAGS_selected_gpus"] = str(device_ids[rank])
    return env


def _default_backend_and_devices(nprocs, options):
    import torch

    backend = options.get("backend")
    if backend in (None, "auto"):
        backend = "nccl" if _on_gpu() else "gloo"
    devices = None
    if backend == "nccl":
        gpus = options.get("gpus") or os.getenv("CUDA_VISIBLE_DEVICES")
        ids = [int(g) for g in gpus.split(",")] if gpus else list(range(torch.cuda.device_count()))
        if len(ids) < nprocs:
            raise ValueError(f"paddle.distributed.spawn: nprocs={nprocs} is more than the "
                             f"{len(ids)} visible GPUs")
        devices = ids[:nprocs]
    return backend, devices


def _default_nprocs():
    import torch

    if _on_gpu():
        return torch.cuda.device_count()
    return multiprocessing.cpu_count()


def _func_wrapper(func, args, error_queue, return_queue, env):
    try:
        os.environ.update(env)
        result = func(*args)
        return_queue.put(result)
    except KeyboardInterrupt:
        pass
    except Exception:  # noqa: BLE001  the parent re-raises it with this traceback
        error_queue.put(traceback.format_exc())
        sys.exit(1)


class MultiprocessContext:
    """The spawned processes; ``join()`` waits and re-raises a child's error as Paddle does."""

    def __init__(self, processes, error_queues, return_queues):
        self.processes = processes
        self.error_queues = error_queues
        self.return_queues = return_queues
        self.sentinels = {p.sentinel: i for i, p in enumerate(processes)}

    def join(self, timeout=None):
        """True when all processes ended well; raises if one failed (after stopping the rest)."""
        if not self.sentinels:
            return True
        ready = multiprocessing.connection.wait(list(self.sentinels), timeout=timeout)
        error_index = None
        for s in ready:
            i = self.sentinels.pop(s)
            p = self.processes[i]
            p.join()
            if p.exitcode != 0:
                error_index = i
                break
        if error_index is None:
            return not self.sentinels
        for p in self.processes:
            if p.is_alive():
                p.terminate()
            p.join()
        self._throw(error_index)

    def _throw(self, i):
        if self.error_queues[i].empty():
            code = self.processes[i].exitcode
            if code < 0:
                raise Exception(f"Process {i} terminated with signal "
                                f"{signal.Signals(-code).name}.")
            raise Exception(f"Process {i} terminated with exit code {code}.")
        msg = ("\n\n----------------------------------------------\n"
               f"Process {i} terminated with the following error:\n"
               "----------------------------------------------\n\n")
        raise Exception(msg + self.error_queues[i].get())


def spawn(func, args=(), nprocs=-1, join=True, daemon=False, **options):
    """Start ``nprocs`` processes running ``func(*args)`` as one data-parallel job.

    ``nprocs=-1``: one per visible GPU on GPU, one per CPU core on CPU (as Paddle). Returns the
    ``MultiprocessContext`` (after joining when ``join``). Options: ``start_method`` (default
    ``spawn``), ``backend`` (``gloo``/``nccl``), ``gpus`` ("0,1").
    """
    bad = set(options) - _OPTIONS
    if bad:
        raise ValueError(f"The config option ({sorted(bad)[0]}) of "
                         "`paddle.distributed.spawn` is not supported.")
    if nprocs == -1:
        nprocs = _default_nprocs()
    if nprocs < 1:
        raise ValueError(f"paddle.distributed.spawn: nprocs must be positive, got {nprocs}")
    backend, devices = _default_backend_and_devices(nprocs, options)
    ports = free_ports(nprocs + 1)
    endpoints = [f"127.0.0.1:{p}" for p in ports[:nprocs]]
    hooks.starting_children()
    mp = multiprocessing.get_context(options.get("start_method") or "spawn")
    processes, error_queues, return_queues = [], [], []
    for rank in range(nprocs):
        eq, rq = mp.SimpleQueue(), mp.SimpleQueue()
        env = job_env(rank, nprocs, endpoints, ports[-1], backend, devices)
        p = mp.Process(target=_func_wrapper, args=(func, tuple(args), eq, rq, env))
        p.daemon = daemon
        p.start()
        processes.append(p)
        error_queues.append(eq)
        return_queues.append(rq)
    ctx = MultiprocessContext(processes, error_queues, return_queues)
    if not join:
        return ctx
    while not ctx.join():
        pass
    return ctx
