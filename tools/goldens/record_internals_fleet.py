"""Record Paddle 3.3.1's distributed internals that paddlenlp 2.8.1 and ppdiffusers 0.29.0
import (``paddle.distributed.communication``, ``fleet.base``, ``fleet.layers.mpu``,
``fleet.model``, ``fleet.meta_optimizers``, ``fleet.meta_parallel.sharding``,
``fleet.utils.{sequence_parallel_utils, mix_precision_utils, timer_helper}``,
``io.dataloader.dataloader_iter``, and ppdiffusers' ``incubate.jit``,
``nn.initializer.lazy_init``, ``incubate.nn.layer.fused_dropout_add``,
``nn.functional.flash_attention._select_sdp``) for tests/test_internals_fleet.py.

    /work/paddle_venv/bin/python tools/goldens/record_internals_fleet.py

Writes tests/goldens/internals_fleet.json: "kinds" {"module:name": "module" | "class" |
"function" | "missing" | type name} for every name the libraries import from those modules (the list
below, from their sources), and "cases" {case: {"value": ...} or {"error": type name,
"message": first line}} of one process (world size 1, ``fleet.init`` with degrees 1). Real
Paddle breaks at world size 1 in the sequence-parallel PyLayers' all-gather and in
DygraphShardingOptimizer.step (its one-rank process group is None); those are recorded as
the errors they are, and paddle_compat's identities there are tested without a golden.
"""
import json
import os
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)

paddle.set_device("cpu")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "goldens",
                   "internals_fleet.json")

#: module -> the names paddlenlp 2.8.1 / ppdiffusers 0.29.0 import from it
IMPORTED = {
    "paddle.distributed.communication": ["group", "reduce", "stream"],
    "paddle.distributed.communication.group": ["_get_global_group"],
    "paddle.distributed.communication.reduce": ["ReduceOp", "_get_reduce_op"],
    "paddle.distributed.communication.stream": ["gather", "all_gather", "reduce_scatter",
                                                "send", "recv"],
    "paddle.distributed.fleet.base": ["topology"],
    "paddle.distributed.fleet.base.topology": ["_HYBRID_PARALLEL_GROUP",
                                               "CommunicateTopology",
                                               "HybridCommunicateGroup", "ParallelMode"],
    "paddle.distributed.fleet.layers.mpu": ["mp_ops", "mp_layers", "random",
                                            "ColumnParallelLinear", "RowParallelLinear",
                                            "VocabParallelEmbedding", "ParallelCrossEntropy",
                                            "RNGStatesTracker", "get_rng_state_tracker",
                                            "model_parallel_random_seed", "dropout"],
    "paddle.distributed.fleet.layers.mpu.mp_ops": ["_c_identity", "_c_concat", "_c_split",
                                                   "_mp_allreduce"],
    "paddle.distributed.fleet.model": ["PipelineParallel", "distributed_model"],
    "paddle.distributed.fleet.meta_parallel": ["TensorParallel", "PipelineParallel",
                                               "PipelineLayer", "LayerDesc",
                                               "SharedLayerDesc", "ColumnParallelLinear",
                                               "RowParallelLinear", "get_rng_state_tracker"],
    "paddle.distributed.fleet.meta_optimizers.dygraph_optimizer": [
        "DygraphShardingOptimizer", "HybridParallelOptimizer"],
    "paddle.distributed.fleet.meta_optimizers.dygraph_optimizer.dygraph_sharding_optimizer": [
        "DygraphShardingOptimizer", "DygraphShardingOptimizerV2"],
    "paddle.distributed.fleet.meta_optimizers.dygraph_optimizer.hybrid_parallel_optimizer": [
        "HybridParallelOptimizer", "obtain_optimizer_parameters_list",
        "_obtain_optimizer_parameters_list"],
    "paddle.distributed.fleet.meta_parallel.sharding.group_sharded_optimizer_stage2": [
        "GroupShardedOptimizerStage2"],
    "paddle.distributed.fleet.meta_parallel.sharding.group_sharded_utils": [
        "GroupShardedScaler"],
    "paddle.distributed.fleet.utils": ["mix_precision_utils", "sequence_parallel_utils",
                                       "recompute"],
    "paddle.distributed.fleet.utils.sequence_parallel_utils": [
        "AllGatherOp", "ColumnSequenceParallelLinear", "GatherOp", "ReduceScatterOp",
        "RowSequenceParallelLinear", "ScatterOp", "mark_as_sequence_parallel_parameter",
        "is_sequence_parallel_parameter", "register_sequence_parallel_allreduce_hooks",
        "scatter", "all_gather", "reduce_scatter"],
    "paddle.distributed.fleet.utils.mix_precision_utils": [
        "MixPrecisionLayer", "MixPrecisionOptimizer", "MixPrecisionScaler"],
    "paddle.distributed.fleet.utils.timer_helper": ["get_timers", "set_timers", "Timers"],
    "paddle.incubate.jit": ["inference", "is_inference_mode"],
    "paddle.nn.initializer.lazy_init": ["lazy_init_helper", "LazyGuard"],
    "paddle.incubate.nn.layer.fused_dropout_add": ["FusedDropoutAdd"],
    "paddle.nn.functional.flash_attention": ["flash_attention", "scaled_dot_product_attention",
                                             "_select_sdp"],
    "paddle.io.dataloader.dataloader_iter": ["_DataLoaderIterBase",
                                             "_DataLoaderIterSingleProcess",
                                             "_DataLoaderIterMultiProcess"],
}


def kind(obj):
    if isinstance(obj, type(paddle)):
        return "module"
    if isinstance(obj, type):
        return "class"
    if callable(obj) and type(obj).__name__ in ("function", "builtin_function_or_method"):
        return "function"
    return type(obj).__name__


def first_line(e):
    return str(e).strip().split("\n")[0].split(" (at /paddle")[0]


def record(cases, name, fn):
    try:
        cases[name] = {"value": fn()}
    except Exception as e:  # noqa: BLE001
        cases[name] = {"error": type(e).__name__, "message": first_line(e)}


def kinds():
    import importlib
    out = {}
    for mod, names in IMPORTED.items():
        m = importlib.import_module(mod)
        for n in names:
            try:
                out[f"{mod}:{n}"] = kind(getattr(m, n))
            except AttributeError:
                try:
                    out[f"{mod}:{n}"] = kind(importlib.import_module(f"{mod}.{n}"))
                except ImportError:
                    out[f"{mod}:{n}"] = "missing"     # the library falls back
    return out


def lst(t):
    return np.asarray(t.numpy()).tolist()


def run_cases():
    """Every case of one process, in order (tests/test_internals_fleet.py runs this same
    function on paddle_compat)."""
    from paddle.distributed import fleet
    cases = {}
    from paddle.distributed.communication.group import _get_global_group
    from paddle.distributed.communication.reduce import ReduceOp, _get_reduce_op
    record(cases, "global_group_before_init", lambda: str(_get_global_group()))
    record(cases, "reduce_op_values",
           lambda: [getattr(ReduceOp, k) for k in ("SUM", "MAX", "MIN", "PROD", "AVG")])
    record(cases, "reduce_op_bad", lambda: str(_get_reduce_op(9)))

    from paddle.distributed.fleet.utils import timer_helper as th
    record(cases, "timers_before_set", lambda: str(th.get_timers()))

    def timers():
        th.set_timers()
        t = th.get_timers()
        t("a").start()
        t("a").stop()
        return [type(t).__name__, sorted(t.timers), t("a").elapsed() >= 0.0]
    record(cases, "timers", timers)
    record(cases, "timers_set_twice", lambda: str(th.set_timers()))

    from paddle.distributed.fleet.layers.mpu import random as mpr

    def dropout_named():
        paddle.seed(3)
        return lst(mpr.dropout(paddle.ones([16]), 0.5, rng_name="x"))
    record(cases, "dropout_rng_name", dropout_named)
    record(cases, "dropout_rng_name_p0",
           lambda: lst(mpr.dropout(paddle.full([3], 2.0), 0, rng_name="x")))
    record(cases, "dropout_rng_name_axis",
           lambda: lst(mpr.dropout(paddle.ones([4]), 0.5, axis=0, rng_name="x")))
    record(cases, "dropout_rng_name_p_type",
           lambda: lst(mpr.dropout(paddle.ones([4]), "0.5", rng_name="x")))

    from paddle.io.dataloader.dataloader_iter import _DataLoaderIterBase

    def loader_iter():
        ds = paddle.io.TensorDataset([paddle.arange(10).reshape([10, 1]).astype("float32")])
        dl = paddle.io.DataLoader(ds, batch_size=4)
        it = iter(dl)
        first = next(it)
        return [type(it).__name__, isinstance(it, _DataLoaderIterBase),
                it._batch_sampler.batch_size, it._dataset is ds, len(it), it._drop_last,
                it._num_workers, it._auto_collate_batch, lst(first[0]),
                [lst(b[0]) for b in it]]
    record(cases, "dataloader_iter", loader_iter)

    def lazy_state():
        from paddle.nn.initializer.lazy_init import lazy_init_helper
        h = lazy_init_helper()
        out = [h.state, h._state]
        with paddle.LazyGuard():
            out.append(h.state)
        out.append(h.state)
        return out
    record(cases, "lazy_init_state", lazy_state)

    def inference_mode():
        from paddle.incubate.jit import is_inference_mode
        lin = paddle.nn.Linear(2, 2)

        def innermost_decorator():
            return None
        return [is_inference_mode(lin), is_inference_mode(lin.forward), is_inference_mode(3),
                is_inference_mode(innermost_decorator)]
    record(cases, "is_inference_mode", inference_mode)

    from paddle.nn.functional.flash_attention import _select_sdp
    record(cases, "select_sdp_cpu", lambda: [_select_sdp(40), _select_sdp(300)])

    from paddle.framework import core

    def cpu_generator():
        g = core.default_cpu_generator()
        paddle.seed(5)
        st = g.get_state()
        a = lst(paddle.rand([3]))
        g.set_state(st)
        return [g is core.default_cpu_generator(), st.current_seed(), g.initial_seed(), a,
                lst(paddle.rand([3]))]
    record(cases, "default_cpu_generator", cpu_generator)
    record(cases, "default_cuda_generator_cpu_build",
           lambda: str(core.default_cuda_generator(0)))
    record(cases, "custom_device_count", lambda: core.get_custom_device_count("npu"))
    record(cases, "device_memory_stats_cpu_build",
           lambda: [core.device_memory_stat_current_value("Allocated", 0),
                    core.device_memory_stat_peak_value("Reserved", 0)])

    def var_types():
        V = core.VarDesc.VarType
        names = sorted(n for n in dir(V) if n.isupper())
        return [{n: int(getattr(V, n)) for n in names}, repr(V.FP32), str(V.FP32),
                repr(V.STRINGS), str(V.STRINGS), str(V.BF16), V.FP32 == paddle.float32]
    record(cases, "var_desc_var_type", var_types)

    s = fleet.DistributedStrategy()
    s.hybrid_configs = {"dp_degree": 1, "mp_degree": 1, "pp_degree": 1}
    fleet.init(is_collective=True, strategy=s)
    hcg = fleet.get_hybrid_communicate_group()
    from paddle.distributed.fleet.base import topology as tp
    record(cases, "hybrid_group_global", lambda: tp._HYBRID_PARALLEL_GROUP is hcg)

    from paddle.distributed.fleet.utils import sequence_parallel_utils as spu
    x = np.arange(24, dtype="float32").reshape(4, 2, 3)
    w = (np.arange(15, dtype="float32").reshape(3, 5) - 7) / 10

    def sp_op(op):
        def run():
            t = paddle.to_tensor(x, stop_gradient=False)
            y = getattr(spu, op).apply(t)
            (y * y).sum().backward()
            return [lst(y), lst(t.grad)]
        return run
    for op in ("ScatterOp", "GatherOp", "AllGatherOp", "ReduceScatterOp"):
        record(cases, f"sp_{op}", sp_op(op))

    def row():
        lin = spu.RowSequenceParallelLinear(3, 5, input_is_parallel=True, has_bias=True)
        lin.weight.set_value(w)
        t = paddle.to_tensor(x, stop_gradient=False)
        y = lin(t)
        y.sum().backward()
        return [lst(y), lst(lin.bias), lst(lin.weight.grad), lst(t.grad),
                getattr(lin.bias, "sequence_parallel", None), lin.weight.is_distributed,
                lin.world_size, lin.input_size_per_partition]
    record(cases, "row_sp_linear", row)
    record(cases, "row_sp_linear_not_parallel",
           lambda: str(spu.RowSequenceParallelLinear(3, 5, input_is_parallel=False)))
    record(cases, "column_sp_linear_one_rank",
           lambda: str(spu.ColumnSequenceParallelLinear(3, 5, gather_output=False)))

    def marks():
        p = paddle.create_parameter([2], "float32")
        before = spu.is_sequence_parallel_parameter(p)
        spu.mark_as_sequence_parallel_parameter(p)
        lin = paddle.nn.Linear(2, 2)
        return [before, spu.is_sequence_parallel_parameter(p), p.sequence_parallel,
                spu.register_sequence_parallel_allreduce_hooks(lin, 1, False)]
    record(cases, "sp_marks", marks)

    from paddle.distributed.fleet.utils import mix_precision_utils as mpu_

    def mix_precision():
        lin = paddle.nn.Linear(3, 2)
        lin.weight.set_value(w[:, :2])
        m = mpu_.MixPrecisionLayer(lin, dtype="bfloat16")
        opt = mpu_.MixPrecisionOptimizer(paddle.optimizer.SGD(0.1,
                                                              parameters=lin.parameters()))
        inp = paddle.to_tensor(x[0])
        (m(inp) ** 2).sum().backward()
        first = [lst(lin.weight.main_grad), lin.weight.grad is None,
                 str(lin.weight.main_grad.dtype)]
        (m(inp) ** 2).sum().backward()
        second = lst(lin.weight.main_grad)
        opt.step()
        after = [lst(lin.weight), lst(lin.bias)]
        opt.clear_grad()
        cleared = lst(lin.weight.main_grad)
        opt.clear_grad(set_to_zero=False)
        return [first, second, after, cleared, lin.weight.main_grad is None,
                type(m).__name__, list(m.state_dict())]
    record(cases, "mix_precision", mix_precision)
    record(cases, "mix_precision_bad_dtype",
           lambda: str(mpu_.MixPrecisionLayer(paddle.nn.Linear(2, 2), dtype="float32")))

    from paddle.distributed.fleet.meta_optimizers.dygraph_optimizer import (
        DygraphShardingOptimizer)

    def sharding_partition():
        layers = paddle.nn.Sequential(paddle.nn.Linear(3, 2), paddle.nn.Linear(2, 7))
        so = DygraphShardingOptimizer(paddle.optimizer.SGD(0.1,
                                                           parameters=layers.parameters()),
                                      hcg)
        names = {p.name: i for i, p in enumerate(layers.parameters())}
        return [{str(r): [names[p.name] for p in ps] for r, ps in so._rank2params.items()},
                [names[p.name] for p in so.filter_parameters(layers.parameters(), hcg)]]
    record(cases, "sharding_partition", sharding_partition)

    def sharding_groups():
        layers = paddle.nn.Sequential(paddle.nn.Linear(2, 2))
        opt = paddle.optimizer.SGD(0.1, parameters=[{"params": layers.parameters()}])
        return str(DygraphShardingOptimizer(opt, hcg))
    record(cases, "sharding_param_groups", sharding_groups)
    return cases


def main():
    cases = run_cases()
    out = {"paddle": paddle.__version__, "kinds": kinds(), "cases": cases}
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print("wrote", OUT, len(out["kinds"]), "kinds,", len(cases), "cases")


if __name__ == "__main__":
    main()
