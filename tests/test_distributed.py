"""``paddle.distributed`` on torch.distributed: environment, collectives, DataParallel, launch
and spawn. The multi-process tests start two trainers with gloo on 127.0.0.1 (free ports), each
bounded in time. The training check uses plain SGD written out in the script (not
paddle.optimizer) and a model with a PyLayer inside."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import paddle_compat as paddle
import paddle_compat.distributed as dist

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.join(ROOT, "tests", "scripts")
JOB_ENV = ("PADDLE_TRAINER_ID", "PADDLE_TRAINERS_NUM", "PADDLE_TRAINER_ENDPOINTS",
           "PADDLE_CURRENT_ENDPOINT", "FLAGS_selected_gpus", "MASTER_ADDR", "MASTER_PORT",
           "PADDLE_MASTER", "PADDLE_RANK_IN_NODE", "PADDLE_LOCAL_RANK")


def clean_env(**extra):
    e = {k: v for k, v in os.environ.items()
         if k not in JOB_ENV and k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    e["PADDLE_PG_TIMEOUT"] = "60000"          # a hung collective fails within a minute
    e.update(extra)
    return e


# ---------------------------------------------------------------------------- one process
def test_parallel_env_reads_paddles_variables(monkeypatch):
    monkeypatch.setenv("PADDLE_TRAINER_ID", "1")
    monkeypatch.setenv("PADDLE_TRAINERS_NUM", "4")
    monkeypatch.setenv("PADDLE_TRAINER_ENDPOINTS", "10.0.0.1:6170,10.0.0.2:6170")
    monkeypatch.setenv("PADDLE_CURRENT_ENDPOINT", "10.0.0.2:6170")
    monkeypatch.setenv("FLAGS_selected_gpus", "3")
    env = dist.ParallelEnv()
    assert (env.rank, env.world_size, env.nranks, env.local_rank) == (1, 4, 4, 1)
    assert (env.device_id, env.dev_id) == (3, 3)
    assert env.current_endpoint == "10.0.0.2:6170"
    assert env.trainer_endpoints == ["10.0.0.1:6170", "10.0.0.2:6170"]


def test_defaults_outside_a_job(monkeypatch):
    for k in JOB_ENV:
        monkeypatch.delenv(k, raising=False)
    env = dist.ParallelEnv()
    assert (env.rank, env.world_size, env.device_id, env.current_endpoint,
            env.trainer_endpoints) == (0, 1, 0, "", [""])
    with pytest.warns(UserWarning, match="not a parallel execution environment"):
        assert dist.init_parallel_env() is None
    assert (dist.get_rank(), dist.get_world_size()) == (0, 1)
    assert not dist.is_initialized()
    assert dist.ReduceOp.SUM == 0 and dist.ReduceOp.AVG == 4


def test_data_parallel_on_one_process_is_the_layer(monkeypatch):
    for k in JOB_ENV:
        monkeypatch.delenv(k, raising=False)
    lin = paddle.nn.Linear(3, 2)
    with pytest.warns(UserWarning, match="single-card"):
        dp = paddle_compat_dp(lin)
    x = paddle.ones([4, 3])
    np.testing.assert_array_equal(dp(x).numpy(), lin(x).numpy())
    assert sorted(dp.state_dict()) == sorted(lin.state_dict())
    assert len(list(dp.parameters())) == 2
    with dp.no_sync():
        dp(x).sum().backward()
    assert lin.weight.grad is not None


def paddle_compat_dp(layer):
    return dist.DataParallel(layer)


def test_spawn_rejects_unknown_options():
    with pytest.raises(ValueError, match="not supported"):
        dist.spawn(print, nprocs=2, no_such_option=1)


def test_launch_of_several_nodes_needs_a_master():
    # several nodes work (tests/test_distributed_launch.py), given the rendezvous point
    with pytest.raises(ValueError, match="--nnodes > 1 needs --master"):
        dist.launch(["--nnodes", "2", "x.py"])


# ---------------------------------------------------------------------------- two processes
@pytest.fixture(scope="module")
def launched(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("launch")
    out = tmp / "result.json"
    p = subprocess.run([sys.executable, "-m", "paddle_compat.distributed.launch",
                        "--nproc_per_node", "2", "--log_dir", str(tmp / "log"),
                        os.path.join(SCRIPTS, "dist_train.py"), str(out)],
                       capture_output=True, text=True, cwd=tmp, env=clean_env(), timeout=240)
    logs = {f: (tmp / "log" / f).read_text() for f in os.listdir(tmp / "log")}
    assert p.returncode == 0, (p.stdout, p.stderr, logs)
    with open(out) as f:
        return json.load(f), p, logs


def test_launch_sets_paddles_environment(launched):
    res, p, logs = launched
    r0, r1 = res["ranks"]
    assert (r0["rank"], r0["world"], r1["rank"], r1["world"]) == (0, 2, 1, 2)
    eps = r0["env"][5]
    assert len(eps) == 2 and all(e.startswith("127.0.0.1:") for e in eps)
    assert r0["env"][:5] == [0, 2, 2, 0, eps[0]]
    assert r1["env"][:5] == [1, 2, 2, 1, eps[1]]
    # trainer 0's output is shown by the launcher; every trainer has its workerlog
    assert "trainer 0 of 2 done" in p.stdout and "trainer 1 of 2 done" not in p.stdout
    assert "trainer 1 of 2 done" in logs["workerlog.1"]


def test_collectives(launched):
    r0, r1 = (r["collectives"] for r in launched[0]["ranks"])
    for r in (r0, r1):
        assert r["all_reduce_SUM"] == [3.0, 6.0]
        assert r["all_reduce_MAX"] == [2.0, 4.0]
        assert r["all_reduce_MIN"] == [1.0, 2.0]
        assert r["all_reduce_PROD"] == [2.0, 8.0]
        assert r["all_reduce_AVG"] == [1.5, 3.0]
        assert r["all_gather"] == [[0, 0], [1, 10]]
        assert r["all_gather_object"] == [{"rank": 0}, {"rank": 1}]
        assert r["broadcast"] == [6.0]
        assert r["get_group"] == 2
    assert r0["reduce"] == [3.0]
    assert r0["reduce_scatter"] == [3.0, 6.0] and r1["reduce_scatter"] == [9.0, 12.0]
    assert r0["scatter"] == [0.0, 1.0] and r1["scatter"] == [2.0, 3.0]
    assert r1["recv"] == [42.0, 43.0]
    assert r0["new_group"] == [0, 2, [1.0]] and r1["new_group"] == [1, 2, [1.0]]


def test_data_parallel_with_pylayer_matches_one_process_on_the_whole_batch(launched):
    res = launched[0]
    w0, w1 = (r["dp_weights"] for r in res["ranks"])
    single = res["single_weights"]
    for a, b, c in zip(w0, w1, single):
        np.testing.assert_array_equal(a, b)                     # ranks stay identical
        np.testing.assert_allclose(a, c, rtol=1e-6, atol=1e-7)  # = one process, whole batch
    # the weights moved (training happened) and DataParallel's state_dict has no prefix
    assert res["ranks"][0]["state_dict_keys"] == ["fc1.bias", "fc1.weight", "fc2.bias",
                                                  "fc2.weight"]


def test_spawn_runs_workers_with_the_hook_and_reraises_their_errors(tmp_path):
    p = subprocess.run([sys.executable, "-m", "paddle_compat",
                        os.path.join(SCRIPTS, "dist_spawn.py"), str(tmp_path)],
                       capture_output=True, text=True, cwd=tmp_path, env=clean_env(),
                       timeout=240)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == ["joined 2 [0, 0]", "caught: True"]
    seen = [json.loads((tmp_path / f"rank{i}.json").read_text()) for i in range(2)]
    for i, s in enumerate(seen):
        assert s["sum"] == [3.0] and s["world"] == 2 and s["paddle"] == "paddle_compat"
        assert s["endpoint"] == s["endpoints"][i]
