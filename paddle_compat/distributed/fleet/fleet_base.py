"""The ``fleet`` singleton: ``fleet.init`` sets up the hybrid topology of a collective job
(groups for data / pipeline / sharding / sep / model parallelism), ``distributed_model`` and
``distributed_optimizer`` wrap a model and its optimizer for it. The parameter-server half of
Paddle's fleet (servers, sparse tables) is not implemented: those functions raise
NotImplementedError."""
import logging

import numpy as np
import torch
import torch.distributed as dist

from .. import collective
from ..env import ParallelEnv, get_world_size, init_parallel_env, is_initialized
from ..parallel import DataParallel
from ._state import set_hcg
from .meta_parallel.random import model_parallel_random_seed
from .role_maker import PaddleCloudRoleMaker, RoleMakerBase
from .strategy import DistributedStrategy
from .topology import CommunicateTopology, HybridCommunicateGroup, ParallelMode

__all__ = ["Fleet", "UtilBase", "fleet", "get_hybrid_communicate_group"]

_logger = logging.getLogger("paddle_compat.fleet")
_LEVELS = {"CRITICAL": 50, "FATAL": 50, "ERROR": 40, "WARNING": 30, "WARN": 30, "INFO": 20,
           "DEBUG": 10, "NOTSET": 0}


def _ps(name):
    def unsupported(self, *args, **kwargs):
        raise NotImplementedError(
            f"fleet.{name}: parameter-server training (servers, sparse tables) is not "
            f"supported by paddle_compat; use collective mode: fleet.init(is_collective=True)")
    unsupported.__name__ = name
    unsupported.__doc__ = "Parameter-server only: raises NotImplementedError."
    return unsupported


class UtilBase:
    """Small collective helpers on numpy values over the workers (``fleet.util``)."""

    def __init__(self):
        self.role_maker = None

    def _set_role_maker(self, role_maker):
        self.role_maker = role_maker

    def _active(self):
        return is_initialized() and get_world_size() > 1

    def all_reduce(self, input, mode="sum", comm_world="worker"):
        ops = {"sum": dist.ReduceOp.SUM, "max": dist.ReduceOp.MAX, "min": dist.ReduceOp.MIN}
        if mode not in ops:
            raise ValueError(f"mode must be one of {sorted(ops)}, got {mode!r}")
        arr = np.asarray(input)
        if not self._active():
            return arr
        t = torch.from_numpy(np.ascontiguousarray(arr)).clone()
        dist.all_reduce(t, op=ops[mode])
        return t.numpy()

    def barrier(self, comm_world="worker"):
        if self._active():
            dist.barrier()

    def all_gather(self, input, comm_world="worker"):
        if not self._active():
            return [input]
        out = []
        collective.all_gather_object(out, input)
        return out

    def get_file_shard(self, files):
        """This worker's part of ``files``: contiguous blocks, the first ``len % n`` workers
        one file more."""
        if not isinstance(files, list):
            raise TypeError("files should be a list of file need to be read.")
        n = fleet.worker_num()
        i = fleet.worker_index()
        per, extra = len(files) // n, len(files) % n
        begin = i * per + min(i, extra)
        return files[begin:begin + per + (1 if i < extra else 0)]

    def print_on_rank(self, message, rank_id):
        if fleet.worker_index() == rank_id:
            print(message)


class Fleet:
    """Paddle's ``Fleet``; use the module-level ``fleet`` instance (``fleet.init(...)``)."""

    def __init__(self):
        self._role_maker = None
        self.strategy_compiler = None
        self._is_collective = False
        self._user_defined_strategy = None
        self._hcg = None
        self._topology = None
        self._util = UtilBase()
        self._log_level = "INFO"

    # ------------------------------------------------------------------ setup
    def init(self, role_maker=None, is_collective=False, strategy=None, log_level="INFO"):
        """Start the job's process group (collective mode) and its hybrid topology from
        ``strategy.hybrid_configs`` (``dp_degree=-1``: the ranks left over)."""
        self.set_log_level(log_level)
        if strategy is None:
            strategy = DistributedStrategy()
        if not isinstance(strategy, DistributedStrategy):
            raise TypeError("strategy must be a fleet.DistributedStrategy")
        self._user_defined_strategy = strategy
        if role_maker is None:
            role_maker = PaddleCloudRoleMaker(is_collective=is_collective)
        elif not isinstance(role_maker, RoleMakerBase):
            raise ValueError("role_maker must be an instance of RoleMakerBase")
        self._role_maker = role_maker
        self._is_collective = is_collective or role_maker._is_collective
        self._util._set_role_maker(role_maker)
        if not self._is_collective:
            return self           # parameter-server roles: described only
        world = ParallelEnv().world_size
        if world > 1 and not is_initialized():
            init_parallel_env()
        self._init_hybrid_parallel_env(world)
        return self

    def _init_hybrid_parallel_env(self, world):
        hc = self._user_defined_strategy.hybrid_configs
        mp, pp = hc["mp_degree"], hc["pp_degree"]
        sharding, sep = hc["sharding_degree"], hc["sep_degree"]
        dp = hc["dp_degree"]
        rest = mp * pp * sharding * sep
        if dp == -1:
            if world % rest:
                raise ValueError(f"the job's {world} ranks are not divisible by mp_degree * "
                                 f"pp_degree * sharding_degree * sep_degree = {rest}")
            dp = world // rest
            hc["dp_degree"] = dp
        if dp * rest != world:
            raise ValueError(f"dp_degree({dp}) * mp_degree({mp}) * pp_degree({pp}) * "
                             f"sharding_degree({sharding}) * sep_degree({sep}) must equal the "
                             f"number of ranks ({world})")
        self._topology = CommunicateTopology(["data", "pipe", "sharding", "sep", "model"],
                                             [dp, pp, sharding, sep, mp])
        self._hcg = HybridCommunicateGroup(self._topology)
        set_hcg(self._hcg)
        if mp > 1:
            # as Paddle: the tracker's model-parallel state (the sequence-parallel and
            # model-parallel layers create their split weights under it) and the global seed
            seed = self._user_defined_strategy.tensor_parallel_configs["tensor_init_seed"]
            model_parallel_random_seed(None if seed == -1 else seed)

    def _is_ps_mode(self):
        return self._role_maker is not None and not self._is_collective

    def get_hybrid_communicate_group(self):
        return self._hcg

    @property
    def util(self):
        return self._util

    # ------------------------------------------------------------------ who am I
    def is_first_worker(self):
        return self._rm()._is_first_worker()

    def worker_index(self):
        return self._rm()._worker_index()

    def worker_num(self):
        return self._rm()._worker_num()

    def node_num(self):
        return self._rm()._node_num()

    def local_rank(self):
        """This process's rank on its node, as a string (Paddle's role makers keep it so)."""
        return self._rm()._local_rank()

    def rank_in_node(self):
        return int(self._rm()._local_rank())

    def local_device_ids(self):
        return self._rm()._get_local_device_ids()

    def world_device_ids(self):
        return self._rm()._get_world_device_ids()

    def is_worker(self):
        return self._rm()._is_worker()

    def is_server(self):
        return self._rm()._is_server()

    def is_coordinator(self):
        return self._rm()._is_coordinator()

    def worker_endpoints(self, to_string=False):
        eps = self._rm()._get_trainer_endpoints()
        return ",".join(eps) if to_string else eps

    def server_num(self):
        return self._rm()._server_num()

    def server_index(self):
        return self._rm()._server_index()

    def server_endpoints(self, to_string=False):
        eps = self._rm()._get_pserver_endpoints()
        return ",".join(eps) if to_string else eps

    def barrier_worker(self):
        self._rm()._barrier("worker")

    def all_reduce(self, input, mode="sum"):
        return self._util.all_reduce(input, mode, "worker")

    def _rm(self):
        if self._role_maker is None:
            self._role_maker = PaddleCloudRoleMaker(is_collective=True)
        return self._role_maker

    # ------------------------------------------------------------------ logging
    def set_log_level(self, level):
        name = level if isinstance(level, str) else get_log_level_name(level)
        code = get_log_level_code(name)
        self._log_level = name.upper()
        _logger.setLevel(code)

    def get_log_level_code(self):
        return get_log_level_code(self._log_level)

    def get_log_level_name(self):
        return self._log_level

    # ------------------------------------------------------------------ wrapping
    def distributed_model(self, model):
        """``DataParallel(model)`` for pure data parallelism, ``PipelineParallel(model)`` when
        ``pp_degree > 1``, the model itself otherwise (its replicated parameters broadcast over
        the model-parallel group, all of them over the data-parallel group)."""
        hcg = self._hcg
        if hcg is None or hcg.nranks <= 1 and hcg.get_pipe_parallel_world_size() == 1:
            return model
        mode = hcg.get_parallel_mode()
        if mode == ParallelMode.DATA_PARALLEL:
            return DataParallel(model, group=hcg.get_data_parallel_group(),
                                find_unused_parameters=self._user_defined_strategy
                                .find_unused_parameters)
        if mode == ParallelMode.PIPELINE_PARALLEL:
            from .meta_parallel.pipeline_parallel import PipelineParallel
            return PipelineParallel(model, hcg, self._user_defined_strategy)
        self._broadcast_params(model, hcg)
        return model

    @staticmethod
    def _broadcast_params(model, hcg):
        mpg, dpg = hcg.get_model_parallel_group(), hcg.get_data_parallel_group()
        shg = hcg.get_sharding_parallel_group()
        with torch.no_grad():
            for p in model.parameters():
                t = p._t.detach()
                if mpg.nranks > 1 and not getattr(p, "is_distributed", False):
                    dist.broadcast(t, mpg.ranks[0], group=mpg.process_group)
                for g in (dpg, shg):
                    if g.nranks > 1:
                        dist.broadcast(t, g.ranks[0], group=g.process_group)

    def distributed_optimizer(self, optimizer, strategy=None):
        """The optimizer wrapped for the hybrid job (``HybridParallelOptimizer``)."""
        if strategy is not None:
            self._user_defined_strategy = strategy
        if self._is_ps_mode():
            raise NotImplementedError("fleet.distributed_optimizer: parameter-server mode is "
                                      "not supported by paddle_compat")
        from .hybrid_optimizer import HybridParallelOptimizer
        return HybridParallelOptimizer(optimizer, self._hcg, self._user_defined_strategy)

    def distributed_scaler(self, scaler):
        """The GradScaler, with its found-inf flag made common to all ranks (a step is skipped
        everywhere when any rank overflowed)."""
        if scaler is None or not (is_initialized() and get_world_size() > 1):
            return scaler
        orig = getattr(scaler, "_unscale", None)
        if orig is None or getattr(scaler, "_fleet_synced", False):
            return scaler

        def _unscale(optimizer):
            out = orig(optimizer)
            flag = getattr(scaler, "_found_inf", None)
            if flag is not None:
                t = torch.tensor([float(bool(flag._t.any()) if hasattr(flag, "_t")
                                        else bool(flag))])
                dist.all_reduce(t, op=dist.ReduceOp.MAX)
                found = bool(t.item())
                if hasattr(flag, "_t"):
                    flag._t.fill_(found)
                else:
                    scaler._found_inf = found
            return out
        scaler._unscale = _unscale
        scaler._fleet_synced = True
        return scaler

    def minimize(self, loss, startup_program=None, parameter_list=None, no_grad_set=None):
        raise NotImplementedError("fleet.minimize: static-graph fleet optimization passes are "
                                  "not supported by paddle_compat; in dygraph call "
                                  "loss.backward() and distributed_optimizer(opt).step()")

    # ------------------------------------------------------------------ parameter server
    init_worker = _ps("init_worker")
    init_server = _ps("init_server")
    run_server = _ps("run_server")
    stop_worker = _ps("stop_worker")
    init_coordinator = _ps("init_coordinator")
    make_fl_strategy = _ps("make_fl_strategy")
    get_fl_client = _ps("get_fl_client")
    save_inference_model = _ps("save_inference_model")
    save_persistables = _ps("save_persistables")
    save_cache_model = _ps("save_cache_model")
    save_cache_table = _ps("save_cache_table")
    save_one_table = _ps("save_one_table")
    save_dense_params = _ps("save_dense_params")
    load_model = _ps("load_model")
    load_one_table = _ps("load_one_table")
    load_inference_model = _ps("load_inference_model")
    shrink = _ps("shrink")
    set_date = _ps("set_date")
    print_table_stat = _ps("print_table_stat")
    check_save_pre_patch_done = _ps("check_save_pre_patch_done")

    def check_memory_usage(self, *args, **kwargs):
        """Logs this process's peak resident memory (MiB) and returns it."""
        import resource
        mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
        _logger.info("peak memory usage: %.1f MiB", mib)
        return mib

    def collective_perf(self, comm_type, round=50, size_and_time=None):
        """Times ``round`` runs of a collective (``allreduce``, ``broadcast``, ``allgather``,
        ``reduce``) per message size in bytes and logs the mean seconds;
        returns ``{size: seconds}``."""
        import time
        sizes = size_and_time or {1 << 20: -1}
        out = {}
        n = get_world_size() if is_initialized() else 1
        for size in sizes:
            t = torch.zeros(max(int(size) // 4 // max(n, 1) * max(n, 1), n), dtype=torch.float32)
            start = time.perf_counter()
            for _ in range(round):
                if n <= 1:
                    continue
                if comm_type == "allreduce":
                    dist.all_reduce(t)
                elif comm_type == "broadcast":
                    dist.broadcast(t, 0)
                elif comm_type == "reduce":
                    dist.reduce(t, 0)
                elif comm_type == "allgather":
                    dist.all_gather([torch.empty_like(t) for _ in range(n)], t)
                else:
                    raise ValueError(f"unknown comm_type {comm_type!r}")
            out[size] = (time.perf_counter() - start) / max(round, 1)
            _logger.info("%s of %d bytes: %.6f s", comm_type, size, out[size])
        return out


def get_log_level_code(name="INFO"):
    key = str(name).upper()
    if key not in _LEVELS:
        raise ValueError(f"unknown log level {name!r}")
    return _LEVELS[key]


def get_log_level_name(code=20):
    for k, v in _LEVELS.items():
        if v == code:
            return k
    raise ValueError(f"unknown log level code {code!r}")


fleet = Fleet()


def get_hybrid_communicate_group():
    return fleet._hcg
