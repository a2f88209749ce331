"""framework/threads.py: torch's intra-op thread count follows the cores other processes leave
free (issue 21: a model-zoo step under contention), and stays the user's when they chose it."""
import pytest
import torch

import paddle_compat as paddle
from paddle_compat.framework import threads


@pytest.fixture
def governor(monkeypatch):
    """The governor on a fake 4-core machine whose load the test sets; torch's count restored."""
    saved = torch.get_num_threads()
    busy = {"n": 0}
    monkeypatch.setattr(threads, "_busy_elsewhere", lambda: busy["n"])
    monkeypatch.setattr(threads.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3},
                        raising=False)
    monkeypatch.setattr(threads, "_state", {"start": None, "set": None, "last": 0.0,
                                            "pending": None, "off": False})
    torch.set_num_threads(4)
    yield busy
    torch.set_num_threads(saved)


def test_fewer_threads_while_other_work_holds_cores(governor):
    threads.govern(now=1.0)                       # first look: 4 cores free
    assert torch.get_num_threads() == 4
    governor["n"] = 3                             # three other tasks running
    threads.govern(now=2.0)
    assert torch.get_num_threads() == 4           # one reading is not enough
    threads.govern(now=2.2)                       # within half a second: not even looked at
    assert torch.get_num_threads() == 4
    threads.govern(now=3.0)
    assert torch.get_num_threads() == 1
    governor["n"] = 0                             # the other work ended
    threads.govern(now=4.0)
    threads.govern(now=5.0)
    assert torch.get_num_threads() == 4           # never more than it started with


def test_a_count_the_user_set_is_left_alone(governor):
    threads.govern(now=1.0)
    torch.set_num_threads(3)                      # the user's choice
    governor["n"] = 3
    threads.govern(now=2.0)
    threads.govern(now=3.0)
    assert torch.get_num_threads() == 3 and not threads.enabled()


def test_environment_turns_it_off(monkeypatch):
    monkeypatch.setattr(threads, "_state", {"start": None, "set": None, "last": 0.0,
                                            "pending": None, "off": None})
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    assert not threads.enabled()
    monkeypatch.setattr(threads, "_state", {"start": None, "set": None, "last": 0.0,
                                            "pending": None, "off": None})
    monkeypatch.delenv("OMP_NUM_THREADS")
    monkeypatch.delenv("CPU_NUM", raising=False)
    monkeypatch.setenv("PADDLE_COMPAT_ADAPTIVE_THREADS", "0")
    assert not threads.enabled()


def test_the_optimizer_step_asks_the_governor(monkeypatch):
    calls = []
    monkeypatch.setattr(threads, "govern", lambda now=None: calls.append(now))
    layer = paddle.nn.Linear(2, 1)
    opt = paddle.optimizer.SGD(parameters=layer.parameters())
    layer(paddle.ones([1, 2])).sum().backward()
    opt.step()
    assert calls == [None]


def test_the_machine_is_read_cheaply():
    busy = threads._busy_elsewhere()
    assert busy is None or busy >= 0
    assert threads._own_running() >= 1
