"""``paddle.distributed.launch``: start one process per trainer of a collective job, on one node
or many, with torch's elastic agent (torchrun's machinery) underneath.

    python -m paddle_compat.distributed.launch --nproc_per_node 2 train.py [ARGS ...]
    python -m paddle_compat.distributed.launch --devices 0,1 train.py [ARGS ...]
    # two nodes: run on each (node rank 0 hosts the rendezvous at --master)
    python -m paddle_compat.distributed.launch --nnodes 2 --rank 0 --master 10.0.0.1:8090 \\
        --nproc_per_node 8 train.py

How it maps:

* ``--nnodes N`` (or ``N:M``, elastic) and ``--master host:port`` are the rendezvous of
  ``torch.distributed.elastic``. With ``--rank R`` the node ranks are fixed (torch's static
  rendezvous: node 0 hosts the store at ``--master``); without it nodes join a c10d rendezvous
  at ``--master`` in arrival order. One node without ``--master`` rendezvous on a free local
  port.
* Each trainer runs ``python -m paddle_compat train.py ARGS`` (so ``import paddle`` is
  paddle_compat) with Paddle's environment: ``PADDLE_TRAINER_ID``, ``PADDLE_TRAINERS_NUM``,
  ``PADDLE_TRAINER_ENDPOINTS`` (every trainer's ip:port, exchanged between the nodes' agents
  through the rendezvous store), ``PADDLE_CURRENT_ENDPOINT``, ``PADDLE_MASTER``,
  ``PADDLE_LOCAL_RANK``, ``PADDLE_RANK_IN_NODE``, ``PADDLE_LOCAL_SIZE``, ``PADDLE_NNODES``,
  ``PADDLE_GLOBAL_SIZE``, ``PADDLE_LOG_DIR``, ``PADDLE_JOB_ID``, ``FLAGS_selected_gpus`` with
  ``--devices``; and torch's (``RANK``, ``WORLD_SIZE``, ``LOCAL_RANK``, ``MASTER_ADDR``,
  ``MASTER_PORT`` ...), which ``init_parallel_env`` uses for the process group.
* As Paddle's launcher does, local trainer i writes ``LOG_DIR/workerlog.i`` (stdout and
  stderr) and local trainer 0's output is also shown here.
* When a trainer fails (an exception, ``os._exit``, a signal) the agent stops the others on its
  node, the launcher names the trainer, prints the end of its log and exits with its status
  (128 + signal for a signal). Trainers on other nodes see their peer vanish in their next
  collective (gloo/NCCL report the closed connection) and fail too; one waiting on a peer that
  hangs gives up after ``PADDLE_PG_TIMEOUT`` ms.
* ``--elastic_level 1`` restarts the job up to ``--max_restart`` times (torch's restarts);
  by default, as Paddle's collective mode, a failure ends the job.

Parameter-server flags (``--servers``, ``--trainers``, ``--server_num`` ...) and
``--run_mode ps`` are not supported and say so.
"""
import argparse
import json
import logging
import os
import re
import shutil
import signal
import socket
import sys
import tempfile

from ..spawn import free_ports

__all__ = ["launch"]

_TAIL_LINES = 30
_ERROR_LINE = re.compile(r"^(?:\[rank\d+\]: )?[A-Za-z_.]*(?:Error|Exception)\b.*$", re.M)
_WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_worker.py")
# what gloo / NCCL / the store say in a trainer whose peer died first
_PEER_GONE = ("Connection reset by peer", "Connection closed by peer", "pair closure",
              "Broken pipe", "NCCL communicator was aborted", "failed to recv, got 0 bytes",
              "/gloo/transport/", "DistNetworkError")


def _parser():
    p = argparse.ArgumentParser(prog="python -m paddle_compat.distributed.launch",
                                description="start a collective job, one process per trainer")
    base = p.add_argument_group("Base Parameters")
    base.add_argument("--master", default=None, help="the master/rendezvous server, ip:port")
    base.add_argument("--legacy", default=False, help="ignored (Paddle's legacy launcher)")
    base.add_argument("--rank", type=int, default=-1, help="the node rank")
    base.add_argument("--log_level", default="INFO", help="log level. Default INFO")
    base.add_argument("--log_overwrite", default=False, help="accepted; logs are overwritten")
    base.add_argument("--sort_ip", default=False, help="accepted; ignored")
    base.add_argument("--enable_gpu_log", default=True, help="accepted; ignored")
    base.add_argument("--nnodes", default="1", help="the number of nodes (N, or N:M elastic)")
    base.add_argument("--nproc_per_node", type=int, default=None,
                      help="processes per node (default: one per device in --devices, else 1)")
    base.add_argument("--log_dir", default="log", help="where workerlog.N go. Default ./log")
    base.add_argument("--run_mode", default=None, help="only 'collective' is supported")
    base.add_argument("--job_id", default="default", help="unique id of the job")
    base.add_argument("--devices", "--gpus", "--npus", "--xpus", default=None,
                      help="GPU ids, e.g. 0,1: one trainer per id, NCCL backend")
    base.add_argument("--host", default=None, help="this node's ip")
    base.add_argument("--ips", default=None, help="nodes' ips: only a single one is supported")
    base.add_argument("--start_port", type=int, default=None, help="first trainer port")
    for flag in ("--auto_parallel_config", "--auto_cluster_config", "--auto_tuner_json"):
        base.add_argument(flag, default=None, help="not supported")
    ps = p.add_argument_group("Parameter-Server Parameters (not supported)")
    for flag in ("--servers", "--trainers", "--trainer_num", "--server_num", "--gloo_port"):
        ps.add_argument(flag, default=None)
    ps.add_argument("--with_gloo", default=None)
    el = p.add_argument_group("Elastic Parameters")
    el.add_argument("--max_restart", type=int, default=3, help="restarts with --elastic_level 1")
    el.add_argument("--elastic_level", type=int, default=-1,
                    help="-1/0: a failure ends the job; 1: restart up to --max_restart times")
    el.add_argument("--elastic_timeout", type=int, default=30,
                    help="seconds an elastic job waits for more nodes")
    p.add_argument("training_script", help="the script (or -m module) to run")
    p.add_argument("training_script_args", nargs=argparse.REMAINDER)
    return p


def _check_supported(args):
    if args.run_mode not in (None, "collective"):
        raise NotImplementedError(f"paddle.distributed.launch --run_mode {args.run_mode} is not "
                                  "supported by paddle_compat: only collective jobs are")
    for flag in ("servers", "trainers", "trainer_num", "server_num", "gloo_port",
                 "auto_parallel_config", "auto_tuner_json"):
        if getattr(args, flag):
            raise NotImplementedError(f"paddle.distributed.launch --{flag} is not supported by "
                                      "paddle_compat (parameter-server and auto-tuner jobs)")
    if args.ips and len(args.ips.split(",")) > 1:
        raise NotImplementedError("paddle.distributed.launch --ips with several nodes is not "
                                  "supported by paddle_compat: start the launcher on each node "
                                  "with --nnodes, --rank and --master")


def _nodes(nnodes):
    lo, _, hi = str(nnodes).partition(":")
    return int(lo), int(hi or lo)


def _local_ip(master_host, host=None):
    """This node's address as the master sees it (the interface that routes to it)."""
    if host:
        return host
    if master_host in ("127.0.0.1", "localhost"):
        return "127.0.0.1"
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect((master_host, 9))
            return s.getsockname()[0]
    except OSError:
        return socket.gethostbyname(socket.gethostname())


def _agent_class():
    from torch.distributed.elastic.agent.server.local_elastic_agent import LocalElasticAgent

    class PaddleAgent(LocalElasticAgent):
        """The elastic agent, plus Paddle's job-wide environment: after each rendezvous the
        nodes' agents exchange their trainers' endpoints through the rendezvous store."""

        def __init__(self, *a, paddle_env, master_host, host, ports, **kw):
            super().__init__(*a, **kw)
            self._paddle_env = paddle_env
            self._master_host = master_host
            self._host = host
            self._ports = ports

        def _start_workers(self, worker_group):
            store = worker_group.store
            attempt = worker_group.spec.max_restarts - self._remaining_restarts
            me, nodes = worker_group.group_rank, worker_group.group_world_size
            ip = _local_ip(self._master_host, self._host)
            ports = self._ports or free_ports(worker_group.spec.local_world_size)
            key = f"paddle_compat/endpoints/{attempt}/"
            store.set(key + str(me), json.dumps([f"{ip}:{p}" for p in ports]))
            endpoints = []
            for node in range(nodes):
                endpoints.extend(json.loads(store.get(key + str(node))))
            master = f"{worker_group.master_addr}:{worker_group.master_port}"
            os.environ.update(self._paddle_env)
            os.environ.update({"PADDLE_TRAINER_ENDPOINTS": ",".join(endpoints),
                               "PADDLE_NNODES": str(nodes), "PADDLE_MASTER": master})
            return super()._start_workers(worker_group)

    return PaddleAgent


def _tail(path, n=_TAIL_LINES):
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 16384))
            lines = f.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return f"(no log at {path})"
    return "\n".join(lines[-n:])


def _exit_stamp(log_dir, local_rank):
    # not imported at the top: ``python -m ...launch._worker`` must not find it imported
    from ._worker import exit_stamp
    return exit_stamp(log_dir, local_rank)


def _stamp(log_dir, local_rank):
    """(end time, exit status) a failed trainer's wrapper wrote, or None."""
    try:
        with open(_exit_stamp(log_dir, local_rank)) as f:
            when, rc = f.read().split()
        return float(when), int(rc)
    except (OSError, ValueError):
        return None


def _report_failure(failures, log_dir, nproc):
    """Name the first trainer that failed, show the end of its log; return the exit status."""
    # the agent reports the trainers it saw fail; one still ending of its own error when the
    # agent stopped the rest is known from its wrapper's stamp
    trainers = {rank: (f.local_rank, f.exitcode) for rank, f in failures.items()}
    offset = min(rank - local for rank, (local, _) in trainers.items())
    for local in range(nproc):
        stamp = _stamp(log_dir, local)
        if stamp is not None and (offset + local) not in trainers:
            trainers[offset + local] = (local, stamp[1])

    def ended(local):
        stamp = _stamp(log_dir, local)
        return stamp[0] if stamp else float("inf")

    def last_error(local):
        errors = _ERROR_LINE.findall(_tail(os.path.join(log_dir, f"workerlog.{local}"), 40))
        return errors[-1] if errors else None

    def consequence(local):
        # a trainer that failed because a peer vanished says so in its last exception
        err = last_error(local)
        return err is not None and any(m in err for m in _PEER_GONE)

    def own_error(local):
        return last_error(local) is not None and not consequence(local)
    # the cause: a trainer that raised its own error (even if the agent's SIGTERM, sent to
    # the whole process group once another trainer ended, cut its ending short), else the
    # first to end of those not stopped by the agent and not failing because a peer vanished
    rank, (local, code) = min(trainers.items(), key=lambda kv: (
        not own_error(kv[1][0]), kv[1][1] == -signal.SIGTERM, consequence(kv[1][0]),
        ended(kv[1][0]), kv[0]))
    if code == -signal.SIGTERM and own_error(local):
        code = 1                   # what Python ends with on an uncaught exception
    status = code if code >= 0 else 128 - code
    how = (f"was killed by signal {signal.Signals(-code).name}" if code < 0 else
           f"exited with status {code}")
    log = os.path.join(log_dir, f"workerlog.{local}")
    print(f"paddle_compat launch: trainer {rank} (local rank {local}) {how}; "
          f"the end of {log}:\n{_tail(log)}\n"
          f"paddle_compat launch: trainer {rank} failed, the job is stopped (exit status "
          f"{status})", file=sys.stderr, flush=True)
    return status


def launch(argv=None):
    """Run the job described by ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    _check_supported(args)
    from torch.distributed.elastic.agent.server.api import WorkerSpec, WorkerState
    from torch.distributed.elastic.multiprocessing import DefaultLogsSpecs
    from torch.distributed.elastic.rendezvous import RendezvousParameters
    from torch.distributed.elastic.rendezvous import registry as rdzv_registry

    if args.log_level.upper() not in ("DEBUG",):
        logging.getLogger("torch.distributed.elastic").setLevel(logging.WARNING)
    devices = [d for d in (args.devices or "").split(",") if d]
    n = args.nproc_per_node or (len(devices) if devices else 1)
    if devices and len(devices) < n:
        raise ValueError(f"--nproc_per_node {n} needs as many --devices, got {args.devices}")
    backend = "nccl" if devices else "gloo"
    min_nodes, max_nodes = _nodes(args.nnodes)
    if args.master:
        endpoint = args.master
    elif max_nodes == 1:
        endpoint = f"127.0.0.1:{free_ports(1)[0]}"
    else:
        raise ValueError("paddle.distributed.launch --nnodes > 1 needs --master ip:port")
    master_host = endpoint.rpartition(":")[0]
    if max_nodes == 1 or args.rank >= 0:
        if min_nodes != max_nodes:
            raise ValueError("--rank fixes the node ranks: --nnodes must then be one number")
        node_rank = max(args.rank, 0)
        rdzv = RendezvousParameters("static", endpoint, args.job_id, min_nodes, max_nodes,
                                    rank=node_rank, timeout=max(args.elastic_timeout, 900))
    else:
        rdzv = RendezvousParameters("c10d", endpoint, args.job_id, min_nodes, max_nodes,
                                    join_timeout=max(args.elastic_timeout, 900),
                                    last_call_timeout=args.elastic_timeout if
                                    min_nodes != max_nodes else 1)
    log_dir = os.path.abspath(args.log_dir)
    os.makedirs(log_dir, exist_ok=True)
    for i in range(n):
        if os.path.exists(_exit_stamp(log_dir, i)):
            os.remove(_exit_stamp(log_dir, i))
    script = [args.training_script, *args.training_script_args]
    paddle_env = {"PADDLE_JOB_ID": args.job_id, "PADDLE_LOG_DIR": log_dir,
                  "PADDLE_DISTRI_BACKEND": backend, "PADDLE_LOCAL_SIZE": str(n)}
    if devices:
        paddle_env["PADDLE_COMPAT_DEVICES"] = ",".join(devices)
    ports = list(range(args.start_port, args.start_port + n)) if args.start_port else None
    spec = WorkerSpec(role="trainer", local_world_size=n,
                      rdzv_handler=rdzv_registry.get_rendezvous_handler(rdzv),
                      entrypoint=sys.executable,
                      # the file itself, not ``-m``: the wrapper needs only the standard
                      # library, and ``-m`` would import the package (torch) in every wrapper
                      args=(_WORKER, *script),
                      max_restarts=args.max_restart if args.elastic_level >= 1 else 0,
                      monitor_interval=0.1)
    # the agent's own per-run directory (empty here: the trainers' output goes to
    # workerlog.N): torch makes one in /tmp per run and leaves it; ours is removed after
    elastic_dir = tempfile.mkdtemp(prefix="paddle_compat_launch_")
    agent = _agent_class()(spec, DefaultLogsSpecs(log_dir=elastic_dir), start_method="spawn",
                           paddle_env=paddle_env, master_host=master_host, host=args.host,
                           ports=ports)
    try:
        result = agent.run()
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # noqa: BLE001  a rendezvous that cannot complete
        print(f"paddle_compat launch: the job could not start: {type(e).__name__}: {e}",
              file=sys.stderr, flush=True)
        return 1
    finally:
        spec.rdzv_handler.shutdown()
        shutil.rmtree(elastic_dir, ignore_errors=True)
    if result.state == WorkerState.SUCCEEDED:
        return 0
    if result.failures:
        return _report_failure(result.failures, log_dir, n)
    print(f"paddle_compat launch: the job ended in state {result.state.name}", file=sys.stderr)
    return 1
