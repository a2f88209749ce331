"""The examples print only their results: no warning reaches the console.

``bash run.sh examples`` used to print a UserWarning ("There are some unused values in
state_dict") when examples/train_custom_op.py resumed its optimizer: LinearWarmup passed its
nested scheduler's entry up to the base class, which counted it as unused (real Paddle 3.3.1
does the same; we restore that entry ourselves and do not repeat the false alarm)."""
import os
import subprocess
import sys
import warnings

import pytest

import paddle_compat as paddle

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
lr = paddle.optimizer.lr


def _warmup_around_cosine():
    return lr.LinearWarmup(lr.CosineAnnealingDecay(learning_rate=0.05, T_max=20),
                           warmup_steps=5, start_lr=0.0, end_lr=0.05)


def test_runner_prints_no_warning():
    # every warning shown, also in the example's own process (PYTHONWARNINGS is inherited)
    env = dict(os.environ, PYTHONWARNINGS="always")
    p = subprocess.run([sys.executable, "-m", "paddle_compat.run_examples", "--device", "cpu",
                        "train_custom_op"], capture_output=True, text=True, cwd=ROOT, env=env,
                       timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "1 passed, 0 failed" in p.stdout
    out = p.stdout + p.stderr
    assert "Warning" not in out, out


def test_linear_warmup_resume_is_silent_and_exact():
    a = _warmup_around_cosine()
    for _ in range(8):
        a.step()
    state = a.state_dict()
    assert set(state) == {"last_epoch", "last_lr", "LinearWarmup_LR"}
    b = _warmup_around_cosine()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        b.set_state_dict(state)
    assert b.state_dict() == state
    a.step()
    b.step()
    assert b() == a()


def test_unknown_key_still_warns():
    b = _warmup_around_cosine()
    state = dict(_warmup_around_cosine().state_dict(), stray=1)
    with pytest.warns(UserWarning, match="unused values in state_dict"):
        b.set_state_dict(state)
    plain = lr.StepDecay(0.5, step_size=2)
    with pytest.warns(UserWarning, match="unused values in state_dict"):
        plain.set_state_dict(dict(plain.state_dict(), LinearWarmup_LR={}))


def test_nested_entry_is_required():
    b = _warmup_around_cosine()
    state = _warmup_around_cosine().state_dict()
    del state["LinearWarmup_LR"]
    with pytest.raises(KeyError):
        b.set_state_dict(state)
