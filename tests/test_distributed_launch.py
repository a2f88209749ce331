"""``python -m paddle_compat.distributed.launch`` on torch's elastic agent: multi-node
rendezvous (two launchers on this machine, --nnodes 2 --rank 0/1 --master 127.0.0.1:PORT,
Paddle's environment across them) and failures that stop the job naming the trainer, within
a bound. One node's environment, logs and a mismatched collective are checked by the jobs of
tests/test_collectives.py. Every job is bounded in time."""
import json
import os
import socket
import subprocess
import sys
import time

import pytest

import paddle_compat.distributed as dist

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "tests", "scripts", "dist_faults.py")
LAUNCH = [sys.executable, "-m", "paddle_compat.distributed.launch"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def clean_env():
    e = {k: v for k, v in os.environ.items()
         if not k.startswith(("PADDLE_", "FLAGS_selected")) and k not in
         ("MASTER_ADDR", "MASTER_PORT", "RANK", "WORLD_SIZE", "LOCAL_RANK", "PYTHONPATH")}
    e["PADDLE_PG_TIMEOUT"] = "60000"
    return e


def launch(tmp_path, mode, *flags, timeout=120):
    """A 2-trainer job; the launcher leaves no directory of its agent in the temporary
    directory (torch's default logs spec made a torchelastic_* one per run, never removed)."""
    t = time.time()
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    p = subprocess.run([*LAUNCH, "--nproc_per_node", "2", "--log_dir", str(tmp_path / "log"),
                        *flags, SCRIPT, mode, str(tmp_path / "out")], cwd=tmp_path,
                       env=dict(clean_env(), TMPDIR=str(tmp)), capture_output=True, text=True,
                       timeout=timeout)
    left = [n for n in os.listdir(tmp) if n.startswith(("torchelastic_", "paddle_compat_launch"))]
    assert not left, left
    return p, time.time() - t


def test_two_nodes_on_one_machine(tmp_path):
    port = free_port()
    procs = []
    for node in (0, 1):
        d = tmp_path / f"node{node}"
        d.mkdir()
        procs.append(subprocess.Popen(
            [*LAUNCH, "--nnodes", "2", "--rank", str(node), "--master", f"127.0.0.1:{port}",
             "--nproc_per_node", "1", "--log_dir", str(d / "log"), SCRIPT, "ok",
             str(tmp_path / "out")], cwd=d, env=clean_env(), stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True))
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    envs = []
    for r in range(2):
        got = json.loads((tmp_path / "out" / f"rank{r}.json").read_text())
        assert got["sum"] == [3.0, 20.0]                     # the collective crossed nodes
        envs.append(got["env"])
        assert (tmp_path / f"node{r}" / "log" / "workerlog.0").exists()
    for r, env in enumerate(envs):
        assert (env["PADDLE_TRAINER_ID"], env["PADDLE_TRAINERS_NUM"], env["PADDLE_LOCAL_RANK"],
                env["PADDLE_NNODES"]) == (str(r), "2", "0", "2")
        assert env["PADDLE_MASTER"] == f"127.0.0.1:{port}"
        assert env["PADDLE_TRAINER_ENDPOINTS"] == envs[0]["PADDLE_TRAINER_ENDPOINTS"]
        assert env["PADDLE_CURRENT_ENDPOINT"] == env["PADDLE_TRAINER_ENDPOINTS"].split(",")[r]


@pytest.mark.parametrize("mode, status, how", [
    ("exit", 7, "exited with status 7"),
    ("kill", 137, "was killed by signal SIGKILL"),
    ("raise", 1, "exited with status 1"),
])
def test_a_failing_trainer_stops_the_job(tmp_path, mode, status, how):
    p, took = launch(tmp_path, mode)
    assert p.returncode == status, p.stdout + p.stderr
    assert f"trainer 1 (local rank 1) {how}" in p.stderr
    assert "trainer 1 is about to fail" in p.stderr                # the tail of its log
    if mode == "raise":
        assert "RuntimeError: trainer 1 broke on purpose" in p.stderr
    assert "rank 0 should not get here" not in p.stdout
    assert took < 60


def test_unsupported_modes_say_so(tmp_path):
    with pytest.raises(NotImplementedError, match="--run_mode ps is not supported"):
        dist.launch(["--run_mode", "ps", SCRIPT])
    with pytest.raises(NotImplementedError, match="--servers is not supported"):
        dist.launch(["--servers", "127.0.0.1:6000", SCRIPT])


def test_the_raising_trainer_is_named_even_when_the_agent_stopped_it(tmp_path, capsys):
    """Under load the agent can see the peer's "connection reset" first and SIGTERM the process
    group of the trainer that raised while it is still ending: the launcher still names the one
    that raised, with Python's status for an uncaught exception."""
    from types import SimpleNamespace

    from paddle_compat.distributed.launch import main as launch_main
    from paddle_compat.distributed.launch._worker import exit_stamp
    (tmp_path / "workerlog.0").write_text(
        "Traceback (most recent call last):\n[rank0]: RuntimeError: [/x/third_party/gloo/gloo/"
        "transport/tcp/pair.cc:537] Read error [127.0.0.1]:9108: Connection reset by peer.\n")
    (tmp_path / "workerlog.1").write_text(
        "trainer 1 is about to fail\nTraceback (most recent call last):\n"
        "RuntimeError: trainer 1 broke on purpose\n")
    with open(exit_stamp(str(tmp_path), 0), "w") as f:
        f.write("100.0 1")
    with open(exit_stamp(str(tmp_path), 1), "w") as f:      # ended later, cut by SIGTERM
        f.write("101.0 -15")
    failures = {0: SimpleNamespace(local_rank=0, exitcode=1)}   # all the agent reported
    assert launch_main._report_failure(failures, str(tmp_path), 2) == 1
    err = capsys.readouterr().err
    assert "trainer 1 (local rank 1) exited with status 1" in err
    assert "trainer 1 failed, the job is stopped (exit status 1)" in err
