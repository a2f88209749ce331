"""``paddle.distributed.launch``: start one process per trainer of a collective job.

    python -m paddle_compat.distributed.launch --nproc_per_node 2 train.py [ARGS ...]
    python -m paddle_compat.distributed.launch --devices 0,1 train.py [ARGS ...]

Each trainer runs ``python -m paddle_compat train.py ARGS`` (so ``import paddle`` is
paddle_compat) with Paddle's environment (``PADDLE_TRAINER_ID``, ``PADDLE_TRAINERS_NUM``,
``PADDLE_TRAINER_ENDPOINTS``, ``PADDLE_CURRENT_ENDPOINT``, ``PADDLE_MASTER``, ``PADDLE_LOCAL_RANK``
..., ``FLAGS_selected_gpus`` on GPU) and torch's (``MASTER_ADDR``, ``MASTER_PORT``, ``RANK``,
``WORLD_SIZE``, ``LOCAL_RANK``). As Paddle's launcher does, trainer i's output goes to
``LOG_DIR/workerlog.i`` and trainer 0's is also shown here. When a trainer fails the others are
stopped and the launcher exits with that trainer's status. One node only (``--nnodes 1``);
``--master``'s host is used for the rendezvous when given.
"""
import argparse
import os
import signal
import subprocess
import sys
import threading
import time

from ..spawn import free_ports, job_env

__all__ = ["launch"]


def _parser():
    p = argparse.ArgumentParser(prog="python -m paddle_compat.distributed.launch",
                                description="start a collective job, one process per trainer")
    p.add_argument("--master", default=None, help="rendezvous ip:port (default: a free port "
                                                  "on 127.0.0.1)")
    p.add_argument("--rank", type=int, default=-1, help="the node rank (one node only)")
    p.add_argument("--nnodes", default="1", help="number of nodes (only 1 is supported)")
    p.add_argument("--nproc_per_node", type=int, default=None,
                   help="processes per node (default: one per device in --devices, else 1)")
    p.add_argument("--log_dir", default="log", help="where workerlog.N go (default ./log)")
    p.add_argument("--job_id", default="default")
    p.add_argument("--devices", "--gpus", "--npus", "--xpus", default=None,
                   help="GPU ids, e.g. 0,1: one trainer per id, NCCL backend")
    p.add_argument("--run_mode", default=None, help="only 'collective' is supported")
    p.add_argument("--log_level", default="INFO")
    p.add_argument("--host", default=None)
    p.add_argument("--ips", default=None, help="only the local node is supported")
    p.add_argument("--start_port", type=int, default=None)
    p.add_argument("training_script", help="the script (or -m module) to run")
    p.add_argument("training_script_args", nargs=argparse.REMAINDER)
    return p


def _pump(src, log_path, echo):
    """Copy a trainer's output to its log file (and to our stdout for trainer 0)."""
    with open(log_path, "wb") as log:
        for line in iter(src.readline, b""):
            log.write(line)
            log.flush()
            if echo is not None:
                echo.write(line)
                echo.flush()
    src.close()


def launch(argv=None):
    """Run the job described by ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    if str(args.nnodes) not in ("1", "1:1"):
        raise NotImplementedError("paddle.distributed.launch with --nnodes > 1 is not "
                                  "supported by paddle_compat yet")
    if args.run_mode not in (None, "collective"):
        raise NotImplementedError(f"paddle.distributed.launch --run_mode {args.run_mode} is not "
                                  "supported by paddle_compat yet")
    devices = [d for d in (args.devices or "").split(",") if d]
    n = args.nproc_per_node or (len(devices) if devices else 1)
    backend = "nccl" if devices else "gloo"
    if devices and len(devices) < n:
        raise ValueError(f"--nproc_per_node {n} needs as many --devices, got {args.devices}")
    host = "127.0.0.1"
    if args.master:
        host, _, port = args.master.rpartition(":")
        ports = free_ports(n)
        master_port = int(port)
    else:
        if args.start_port:
            ports = list(range(args.start_port, args.start_port + n + 1))
        else:
            ports = free_ports(n + 1)
        master_port = ports.pop()
    endpoints = [f"{host}:{p}" for p in ports[:n]]
    os.makedirs(args.log_dir, exist_ok=True)
    script = [args.training_script, *args.training_script_args]
    if args.training_script == "-m":
        script = ["-m", *args.training_script_args]
    procs, pumps = [], []
    base = dict(os.environ)
    for rank in range(n):
        env = dict(base)
        env.update(job_env(rank, n, endpoints, master_port, backend,
                           [int(d) for d in devices] if devices else None))
        env["PADDLE_JOB_ID"] = args.job_id
        env["PADDLE_LOG_DIR"] = args.log_dir
        p = subprocess.Popen([sys.executable, "-m", "paddle_compat", *script], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        t = threading.Thread(target=_pump, daemon=True,
                             args=(p.stdout, os.path.join(args.log_dir, f"workerlog.{rank}"),
                                   sys.stdout.buffer if rank == 0 else None))
        t.start()
        procs.append(p)
        pumps.append(t)
    status = 0
    try:
        alive = set(range(n))
        while alive:
            for i in sorted(alive):
                rc = procs[i].poll()
                if rc is None:
                    continue
                alive.discard(i)
                if rc != 0 and status == 0:
                    status = rc if rc > 0 else 128 - rc
                    print(f"paddle_compat launch: trainer {i} exited with status {rc}; see "
                          f"{os.path.join(args.log_dir, f'workerlog.{i}')}", file=sys.stderr)
                    for j in alive:
                        procs[j].send_signal(signal.SIGTERM)
            time.sleep(0.05)
    except KeyboardInterrupt:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
        for p in procs:
            p.wait()
        status = 130
    for t in pumps:
        t.join(timeout=5)
    return status
