"""``paddle.distributed.fleet`` and group-sharded training on torch.distributed.

One 2-rank job (tests/scripts/dist_fleet.py through our launcher, gloo on CPU) checks tensor,
pipeline, data and group-sharded parallelism against the same model run in one process; the
one-process facts (topology layouts, strategy defaults, data generator lines) are compared with
real Paddle 3.3.1 (tests/goldens/fleet.json, tools/goldens/record_fleet.py)."""
import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import paddle_compat as paddle
import paddle_compat.nn.functional as F
from paddle_compat.distributed import fleet
from paddle_compat.distributed.fleet import meta_parallel as mpu
from paddle_compat.distributed.fleet.utils import HDFSClient, LocalFS, recompute

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.join(ROOT, "tests", "scripts")
GOLDEN = os.path.join(ROOT, "tests", "goldens", "fleet.json")
JOB_ENV = ("PADDLE_TRAINER_ID", "PADDLE_TRAINERS_NUM", "PADDLE_TRAINER_ENDPOINTS",
           "PADDLE_CURRENT_ENDPOINT", "FLAGS_selected_gpus", "MASTER_ADDR", "MASTER_PORT",
           "PADDLE_MASTER", "PADDLE_RANK_IN_NODE", "PADDLE_LOCAL_RANK")


def golden():
    if not os.path.exists(GOLDEN):
        pytest.skip("tests/goldens/fleet.json not recorded")
    with open(GOLDEN) as f:
        return json.load(f)


# ---------------------------------------------------------------------------- one process
def test_topology_matches_paddle():
    g = golden()["single"]
    names = ["data", "pipe", "sharding", "sep", "model"]
    for dims in ([2, 2, 1, 1, 2], [2, 1, 2, 1, 2], [1, 2, 1, 2, 2]):
        t = fleet.CommunicateTopology(names, dims)
        want = g["topo_" + "x".join(map(str, dims))]
        assert {n: t.get_comm_list(n) for n in names} == want["comm"]
        assert [list(t.get_coord(r)) for r in range(t.world_size())] == want["coords"]
        if dims[1] > 1:
            assert t.get_axis_list("pipe", 1) == want["axis_pipe_1"]
    t = fleet.CommunicateTopology(names, [2, 2, 1, 1, 2])
    assert t.get_rank(data=1, pipe=0, sharding=0, sep=0, model=1) == 5


def test_strategy_defaults_and_validation():
    g = golden()["single"]["strategy"]
    s = fleet.DistributedStrategy()
    assert {k: s.hybrid_configs[k] for k in g["hybrid"]} == g["hybrid"]
    assert dict(s.pipeline_configs) == g["pipeline"]
    assert {k: getattr(s, k) for k in g["flags"]} == g["flags"]
    for k, v in g["amp_configs"].items():
        assert s.amp_configs[k] == pytest.approx(v)
    assert s.recompute_configs == g["recompute_configs"]
    s.hybrid_configs = {"mp_degree": 2, "pp_degree": 2}
    assert (s.hybrid_configs["mp_degree"], s.hybrid_configs["dp_degree"]) == (2, -1)
    s.pipeline_configs = {"accumulate_steps": 4}
    assert s.pipeline_configs["accumulate_steps"] == 4
    assert s.pipeline_configs["micro_batch_size"] == 1
    with pytest.raises(AssertionError):             # Paddle's error type (golden)
        s.hybrid_configs = {"no_such_degree": 2}
    assert golden()["single"]["strategy_errors"]["hybrid_unknown"] == "AssertionError"
    with pytest.raises(TypeError):
        s.pipeline_configs = {"accumulate_steps": "four"}
    with pytest.warns(UserWarning, match="bool"):     # Paddle warns and ignores it
        s.recompute = "yes"
    assert s.recompute is False
    s.recompute = True
    assert s.recompute is True
    with pytest.raises(TypeError, match="not a attribute"):
        s.no_such_option = 1


def _run_generator(gen, lines):
    old_in, old_out = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = io.StringIO("\n".join(lines) + "\n"), io.StringIO()
    try:
        gen.run_from_stdin()
        return sys.stdout.getvalue()
    finally:
        sys.stdin, sys.stdout = old_in, old_out


def test_data_generators_write_paddles_lines():
    g = golden()["single"]

    class Words(fleet.MultiSlotDataGenerator):
        def generate_sample(self, line):
            def it():
                w = [int(x) for x in line.split()]
                yield [("words", w), ("label", [len(w) % 2]), ("score", [0.5, 1.25])]
            return it

    class Strs(fleet.MultiSlotStringDataGenerator):
        def generate_sample(self, line):
            def it():
                yield [("words", line.split()), ("label", ["1"])]
            return it

    lines = ["1 2 3", "7 8", "42"]
    w = Words()
    w.set_batch(2)
    assert _run_generator(w, lines) == g["multislot"]
    assert [list(x) for x in w._proto_info] == g["multislot_proto"]
    s = Strs()
    s.set_batch(2)
    assert _run_generator(s, lines) == g["multislot_string"]
    with pytest.raises(ValueError, match="empty"):
        Words()._gen_str([("words", [])])


def test_recompute_gives_the_same_grads_and_replays_dropout():
    paddle.seed(7)
    lin1, lin2 = paddle.nn.Linear(6, 8), paddle.nn.Linear(8, 2)
    x = paddle.to_tensor(np.random.RandomState(0).randn(5, 6).astype("float32"))

    def block(h):
        return F.dropout(F.gelu(lin1(h)), 0.5)

    def grads(use_recompute):
        paddle.seed(11)
        h = recompute(block, x) if use_recompute else block(x)
        loss = (lin2(h) ** 2).sum()
        loss.backward()
        out = [lin1.weight.grad.numpy().copy(), lin2.weight.grad.numpy().copy(),
               float(loss)]
        lin1.clear_gradients()
        lin2.clear_gradients()
        return out, paddle.get_rng_state()

    plain, st_plain = grads(False)
    again, st_re = grads(True)
    for a, b in zip(plain, again):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
    # the generator after the backward is where the forward left it
    assert [s.pos for s in st_plain] == [s.pos for s in st_re]


def test_rng_state_tracker():
    tr = mpu.RNGStatesTracker()
    tr.add("a", 100)
    with pytest.raises(ValueError):
        tr.add("b", 100)
    before = paddle.get_rng_state()
    with tr.rng_state("a"):
        first = F.dropout(paddle.ones([32]), 0.5).numpy()
    assert [s.pos for s in paddle.get_rng_state()] == [s.pos for s in before]
    with tr.rng_state("a"):
        second = F.dropout(paddle.ones([32]), 0.5).numpy()
    assert not np.array_equal(first, second)       # the tracked state advanced
    tr2 = mpu.RNGStatesTracker()
    tr2.add("a", 100)
    with tr2.rng_state("a"):
        np.testing.assert_array_equal(F.dropout(paddle.ones([32]), 0.5).numpy(), first)


def test_local_fs(tmp_path):
    fs = LocalFS()
    d = str(tmp_path / "a" / "b")
    fs.mkdirs(d)
    fs.touch(os.path.join(d, "f.txt"))
    assert fs.is_dir(d) and fs.is_file(os.path.join(d, "f.txt"))
    assert fs.ls_dir(str(tmp_path / "a")) == (["b"], [])
    fs.mv(os.path.join(d, "f.txt"), os.path.join(d, "g.txt"))
    assert fs.ls_dir(d) == ([], ["g.txt"])
    assert fs.ls_dir(str(tmp_path / "missing")) == ([], [])
    assert not fs.need_upload_download()
    fs.delete(str(tmp_path / "a"))
    assert not fs.is_exist(str(tmp_path / "a"))
    with pytest.raises(NotImplementedError, match="HDFS"):
        HDFSClient("/opt/hadoop", {}).ls_dir("/x")


def test_parameter_server_functions_say_what_is_unsupported():
    for f in (fleet.init_server, fleet.run_server, fleet.init_worker, fleet.stop_worker,
              fleet.save_persistables, fleet.load_model, fleet.shrink):
        with pytest.raises(NotImplementedError, match="parameter-server"):
            f()
    assert fleet.Role.WORKER == 1 and fleet.Role.SERVER == 2
    rm = fleet.UserDefinedRoleMaker(current_id=1, role=fleet.Role.WORKER, worker_num=3,
                                    worker_endpoints=["a:1", "b:1", "c:1"])
    assert (rm._worker_index(), rm._worker_num(), rm._is_first_worker()) == (1, 3, False)


def test_one_process_fleet_is_plain(monkeypatch):
    for k in JOB_ENV:
        monkeypatch.delenv(k, raising=False)
    fleet.init(is_collective=True)
    hcg = fleet.get_hybrid_communicate_group()
    assert (hcg.get_data_parallel_world_size(), hcg.get_model_parallel_world_size(),
            fleet.worker_num(), fleet.worker_index(), fleet.is_first_worker()) == (1, 1, 1, 0,
                                                                                    True)
    col = mpu.ColumnParallelLinear(3, 4)
    assert list(col.weight.shape) == [3, 4] and col.bias is None   # has_bias=None: no bias
    net = paddle.nn.Linear(3, 2)
    assert fleet.distributed_model(net) is net


# ---------------------------------------------------------------------------- two ranks
def clean_env():
    e = {k: v for k, v in os.environ.items()
         if k not in JOB_ENV and k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    e["PADDLE_PG_TIMEOUT"] = "60000"
    return e


@pytest.fixture(scope="module")
def job(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fleet")
    out = tmp / "out"
    out.mkdir()
    p = subprocess.run([sys.executable, "-m", "paddle_compat.distributed.launch",
                        "--nproc_per_node", "2", "--log_dir", str(tmp / "log"),
                        os.path.join(SCRIPTS, "dist_fleet.py"), str(out)],
                       capture_output=True, text=True, cwd=tmp, env=clean_env(), timeout=150)
    logs = {f: (tmp / "log" / f).read_text() for f in os.listdir(tmp / "log")}
    assert p.returncode == 0, (p.stdout[-3000:], p.stderr[-3000:], logs)
    ranks = []
    for r in range(2):
        with open(out / f"rank{r}.json") as f:
            ranks.append(json.load(f))
    return ranks, out


def close(a, b, rtol=1e-5, atol=1e-5):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=atol)


def test_column_row_parallel_mlp_equals_dense(job):
    for r, d in enumerate(job[0]):
        assert d["mp_groups"] == [2, r, 1, 1]
        assert d["mp_shapes"] == {"col.weight": [4, 4], "col.bias": [4],
                                  "row.weight": [4, 3], "row.bias": [3]}
        assert d["mp_distributed"] == {"col.weight": True, "col.bias": True,
                                       "row.weight": True, "row.bias": False}
        for gather in (False, True):
            close(d[f"mp_out_{gather}"], d["dense_out"])
            for a, b in zip(d[f"mp_grads_{gather}"], d["dense_grads"]):
                close(a, b, rtol=1e-4)
        # global-norm clip over the whole (split) model = the dense model's clip
        close(d["mp_train"], d["dense_train"])
        close(d["mp_train_w"], d["dense_train_w"])


def test_vocab_parallel_embedding_and_parallel_cross_entropy(job):
    for d in job[0]:
        assert d["vocab_shapes"] == [[5, 4], [4, 3]]
        close(d["pce_loss"], d["dense_ce_loss"])
        for a, b in zip(d["pce_grads"], d["dense_ce_grads"]):
            close(a, b)


def test_model_parallel_dropout_seeds(job):
    r0, r1 = job[0]
    assert r0["dropout_global"] == r1["dropout_global"]
    assert r0["dropout_local"] != r1["dropout_local"]


@pytest.mark.parametrize("acc", [2, 4])
def test_pipeline_1f1b_equals_one_process(job, acc):
    r0, r1 = job[0]
    assert r0["pp_stage"] == [0, 2, True, False] and r1["pp_stage"] == [1, 2, False, True]
    # Paddle names a stage's layers by their index in the whole list
    assert sorted(r0[f"pp_names_{acc}"]) == ["0.bias", "0.weight", "2.bias", "2.weight"]
    assert sorted(r1[f"pp_names_{acc}"]) == ["4.bias", "4.weight", "6.bias", "6.weight"]
    for d in (r0, r1):                   # the loss is broadcast to every stage
        close(d[f"pp_losses_{acc}"], d[f"single_pp_losses_{acc}"], rtol=1e-5)
        close(d[f"pp_eval_{acc}"], d[f"single_pp_eval_{acc}"], rtol=1e-5)
        assert d[f"pp_losses_{acc}"][2] < d[f"pp_losses_{acc}"][0]


def test_pipeline_shared_layer_equals_one_layer_used_twice(job):
    r0, r1 = job[0]
    assert r0["pp_shared_names"] == ["shared_layers.tied.weight"]
    assert r1["pp_shared_names"] == ["2.bias", "2.weight", "shared_layers.tied.weight"]
    for d in (r0, r1):
        close(d["pp_shared_losses"], d["single_shared_losses"], rtol=1e-5)
        close(d["pp_shared_weight"], d["single_shared_weight"], rtol=1e-5, atol=1e-6)


def test_data_parallel_through_fleet_equals_one_process(job):
    r0, r1 = job[0]
    assert r0["dp_groups"] == [0, 2, 0, 0, 2, True, "0"]     # local_rank() is a string
    assert r1["dp_groups"] == [1, 2, 0, 1, 2, False, "1"]
    assert r0["dp_wrapper"] == "DataParallel"
    for a, b, c in zip(r0["dp_weights"], r1["dp_weights"], r0["single_weights"]):
        np.testing.assert_array_equal(a, b)
        close(a, c, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("level", ["os", "os_g", "p_g_os"])
def test_group_sharded_equals_data_parallel(job, level):
    r0, r1 = job[0]
    for d in (r0, r1):
        close(d[f"sharded_losses_{level}"], d["dp_losses"], rtol=1e-6)
        for a, b in zip(d[f"sharded_weights_{level}"], d["dp_weights"]):
            close(a, b, rtol=1e-6, atol=1e-7)
    # the optimizer states are split: each rank holds only its parameters' moments
    assert 0 < r0[f"sharded_states_{level}"] < r0[f"sharded_states_{level}"] + \
        r1[f"sharded_states_{level}"]
    assert r0[f"sharded_states_{level}"] != r1[f"sharded_states_{level}"]
    assert sorted(os.listdir(job[1] / "sharded")) == ["model.pdmodel", "model.pdopt"]


def test_data_parallel_job_matches_real_paddle(job):
    """Real Paddle 3.3.1 runs only the data-parallel section of the script on CPU (its
    tensor-parallel ops have no CPU kernel, its PipelineLayer and group_sharded_parallel refuse
    CPU): the losses and weights of both ranks, and the ranks / degrees fleet reports."""
    g = golden()["job"]
    if not g["ranks"]["0"]:
        pytest.skip("real Paddle could not run the data-parallel section (golden log_tail)")
    assert g["returncode"]["dp"] == 0
    for r, d in enumerate(job[0]):
        want = g["ranks"][str(r)]
        assert d["dp_groups"] == want["dp_groups"]
        close(d["dp_losses"], want["dp_losses"], rtol=1e-5)
        close(d["single_losses"], want["single_losses"], rtol=1e-5)
        for a, b in zip(d["dp_weights"], want["dp_weights"]):
            close(a, b, rtol=1e-5, atol=1e-6)

