"""``fleet.DistributedStrategy``: the switches and configs of a fleet job, as attributes with
Paddle's defaults. Config dicts are merged key by key into the defaults; an unknown key
(AssertionError) or a value of the wrong type (TypeError) raises, as Paddle's protobuf-backed
strategy does; a switch given a non-bool warns and stays as it was, as in Paddle."""
import copy
import warnings

__all__ = ["DistributedStrategy"]

_CONFIGS = {
    "hybrid_configs": {"dp_degree": -1, "mp_degree": 1, "pp_degree": 1, "sharding_degree": 1,
                       "sep_degree": 1, "ep_degree": 1, "moe_sharding_degree": 1,
                       "cp_degree": 1, "cp_sharding_degree": 1,
                       "mp_configs": {}, "pp_configs": {}, "sharding_configs": {},
                       "dp_configs": {}, "sep_configs": {}, "enable_optimizer_timer": False,
                       "split_norm_comm": False, "order": ["dp", "pp", "sharding", "sep", "mp"]},
    "pipeline_configs": {"micro_batch_size": 1, "accumulate_steps": 1, "schedule_mode": "1F1B",
                         "p2p_cache_shape": True, "enable_partial_send_recv": True},
    "recompute_configs": {"checkpoints": [], "enable_offload": False, "checkpoint_shape": [],
                          "enable_tuning": False, "refined_ops_patterns": []},
    "amp_configs": {"init_loss_scaling": 32768.0, "incr_every_n_steps": 1000,
                    "decr_every_n_nan_or_inf": 2, "incr_ratio": 2.0, "decr_ratio": 0.8,
                    "use_dynamic_loss_scaling": True, "custom_white_list": [],
                    "custom_black_list": [], "custom_black_varnames": [],
                    "use_pure_fp16": False, "use_fp16_guard": True,
                    "use_optimizer_fp16": False, "use_pure_bf16": False},
    "sharding_configs": {"sharding_segment_strategy": "segment_broadcast_MB",
                         "segment_broadcast_MB": 32.0, "segment_anchors": [],
                         "sharding_degree": 8, "mp_degree": 1, "dp_degree": 1,
                         "hybrid_dp": False, "gradient_merge_acc_step": 1,
                         "optimize_offload": False, "pp_allreduce_in_optimize": False,
                         "pp_degree": 1, "optimize_cast": False,
                         "_dp_as_optimizer_sharding": False, "stage": 1,
                         "enable_tuning": False, "use_calc_stream": False},
    "gradient_merge_configs": {"k_steps": 1, "avg": True},
    "lamb_configs": {"lamb_weight_decay": 0.01, "exclude_from_weight_decay": []},
    "lars_configs": {"lars_coeff": 0.001, "lars_weight_decay": 0.0005, "epsilon": 0.0,
                     "exclude_from_weight_decay": []},
    "localsgd_configs": {"k_steps": 1, "begin_step": 1},
    "adaptive_localsgd_configs": {"init_k_steps": 1, "begin_step": 1},
    "dgc_configs": {"rampup_begin_step": 0, "rampup_step": 1, "sparsity": [0.999]},
    "fp16_allreduce_configs": {},
    "a_sync_configs": {"k_steps": -1, "max_merge_var_num": 1, "send_queue_size": 16,
                       "independent_recv_thread": False, "min_send_grad_num_before_recv": 1,
                       "thread_pool_size": 1, "send_wait_times": 1,
                       "runtime_split_send_recv": False, "launch_barrier": True,
                       "heter_worker_device_guard": "cpu", "lr_decay_steps": 10,
                       "use_ps_gpu": 0, "use_gpu_graph": 0},
    "tensor_parallel_configs": {"tensor_parallel_degree": 1, "tensor_init_seed": -1},
}

_FLAGS = {"recompute": False, "amp": False, "sharding": False, "pipeline": False,
          "tensor_parallel": False, "gradient_merge": False, "lamb": False, "lars": False,
          "localsgd": False, "adaptive_localsgd": False, "dgc": False, "fp16_allreduce": False,
          "a_sync": True, "heter_ccl_mode": False, "find_unused_parameters": False,
          "fuse_all_reduce_ops": True, "fuse_grad_size_in_MB": 32, "last_comm_group_size_MB": 1,
          "nccl_comm_num": 1, "sync_nccl_allreduce": True, "sync_batch_norm": False,
          "without_graph_optimization": True, "fuse_grad_merge": False, "semi_auto": False,
          "auto": False, "auto_search": False, "cudnn_exhaustive_search": False,
          "conv_workspace_size_limit": 512, "cudnn_batchnorm_spatial_persistent": False,
          "qat": False, "asp": False, "split_data": True, "is_fl_ps_mode": False,
          "with_coordinator": False}


def _check(name, key, old, new):
    if isinstance(old, bool):
        ok = isinstance(new, bool)
    elif isinstance(old, int):
        ok = isinstance(new, int) and not isinstance(new, bool)
    elif isinstance(old, float):
        ok = isinstance(new, (int, float)) and not isinstance(new, bool)
    elif isinstance(old, list):
        ok = isinstance(new, (list, tuple))
    elif isinstance(old, str):
        ok = isinstance(new, str)
    else:
        ok = True
    if not ok:
        raise TypeError(f"DistributedStrategy.{name}[{key!r}] must be of type "
                        f"{type(old).__name__}, got {type(new).__name__}")


class DistributedStrategy:
    """The configuration of a fleet job (see ``fleet.init(strategy=...)``).

    Example::

        strategy = fleet.DistributedStrategy()
        strategy.hybrid_configs = {"dp_degree": 1, "mp_degree": 2, "pp_degree": 1}
        strategy.pipeline_configs = {"accumulate_steps": 4, "micro_batch_size": 2}
    """

    def __init__(self):
        d = self.__dict__
        for k, v in _CONFIGS.items():
            d["_" + k] = copy.deepcopy(v)
        for k, v in _FLAGS.items():
            d["_" + k] = v

    def __getattr__(self, name):
        d = self.__dict__
        if "_" + name in d:
            return d["_" + name]
        raise AttributeError(f"'DistributedStrategy' object has no attribute {name!r}")

    def __setattr__(self, name, value):
        d = self.__dict__
        if name in _CONFIGS:
            if not isinstance(value, dict):
                raise TypeError(f"DistributedStrategy.{name} must be a dict")
            cur = d["_" + name]
            for k, v in value.items():
                if k not in cur:
                    raise AssertionError(f"{k!r} is not a key of DistributedStrategy.{name} "
                                     f"(known: {sorted(cur)})")
                _check(name, k, cur[k], v)
                if name == "hybrid_configs" and k.endswith("_degree") and v < -1 or (
                        name == "hybrid_configs" and k.endswith("_degree") and v == 0):
                    raise ValueError(f"hybrid_configs[{k!r}] must be a positive degree "
                                     f"(or -1 for dp_degree), got {v}")
                cur[k] = list(v) if isinstance(v, tuple) else copy.deepcopy(v)
            return
        if name in _FLAGS:
            old = _FLAGS[name]
            if isinstance(old, bool) and not isinstance(value, bool):
                warnings.warn(f"{name} should have value of bool type")   # ignored, as Paddle
                return
            d["_" + name] = value
            return
        if name.startswith("_"):
            d[name] = value
            return
        raise TypeError(f"{name} is not a attribute of DistributedStrategy")

    def __repr__(self):
        on = [k for k in _FLAGS if isinstance(_FLAGS[k], bool) and self.__dict__["_" + k]]
        return (f"DistributedStrategy(hybrid_configs={self._hybrid_configs}, "
                f"pipeline_configs={self._pipeline_configs}, on={on})")

    def save_to_prototxt(self, output):
        with open(output, "w") as f:
            for k in list(_FLAGS) + list(_CONFIGS):
                f.write(f"{k}: {self.__dict__['_' + k]!r}\n")

    def load_from_prototxt(self, pb_file):
        import ast
        with open(pb_file) as f:
            for line in f:
                k, _, v = line.partition(": ")
                if k in _CONFIGS or k in _FLAGS:
                    self.__dict__["_" + k] = ast.literal_eval(v.strip())
