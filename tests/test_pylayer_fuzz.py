"""Random PyLayer programs (tools/fuzz_pylayer.py) against real Paddle 3.3.1's recording of the
first 300 (tests/goldens/pylayer_fuzz.json), plus the hand-written programs on gradients across
integer casts (``EXTRA_PROGRAMS``): forward values, what backward receives, the inputs'
gradients and stop_gradient flags, and the exception type where Paddle raises.

A program may differ from Paddle only by one of the fuzzer's ``DEVIATIONS`` (real Paddle against
its own docs or plain sense: a list returned by backward, a gradient of the wrong shape handed
unchecked to the grad kernel of the op that made a non-leaf input), each decided from what
Paddle recorded. A gradient of another shape (or, for a leaf made from data, another dtype) for
a leaf input is stored as its .grad, as Paddle does. The full run (2,000 programs) is
``python tools/fuzz_pylayer.py compare FILE`` on a recording made outside the repository.
"""
import importlib.util
import json
import os

import pytest

import paddle_compat as paddle

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "fuzz_pylayer", os.path.join(os.path.dirname(HERE), "tools", "fuzz_pylayer.py"))
fuzz = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fuzz)

with open(os.path.join(HERE, "goldens", "pylayer_fuzz.json")) as f:
    GOLDEN = {str(g["seed"]): g for g in json.load(f)["programs"]}


def _key(seed):
    return int(seed) if seed.isdigit() else seed


@pytest.mark.parametrize("seed", sorted(GOLDEN, key=lambda s: (not s.isdigit(), _key(s))))
def test_program_matches_paddle(seed):
    gold = GOLDEN[seed]
    if "crash" in gold:
        pytest.skip(f"real Paddle 3.3.1 crashed (rc={gold['crash']}) on this program")
    prog = _key(seed)
    assert gold["src_sha"] == fuzz._sha(fuzz.program_source(prog)), \
        "the generator changed: record the golden again"
    ours = fuzz.run_program(paddle, prog)
    assert ours["grad_mode_kept"]
    diff = fuzz.differences(ours, gold)
    if not diff:
        return
    why = fuzz.classify(prog, ours, gold)
    assert why is not None, f"program {seed}:\n" + fuzz.program_source(prog) + "\n" + \
        "\n".join(diff)


def test_the_golden_covers_the_cases():
    seeds = [s for s in GOLDEN if s.isdigit()]
    assert len(seeds) >= 300
    assert set(fuzz.EXTRA_PROGRAMS) <= set(GOLDEN)
    errors = {tuple(g["error"][:2]) for g in GOLDEN.values() if g.get("error")}
    assert ("backward", "ValueError") in errors and ("apply", "ValueError") in errors


def test_integer_output_gradients_are_truncated_as_in_paddle():
    # written out, so that a reader sees the rule: z = int32(x); d(mean(2.5 * z))/dz = 2.5 / 3
    # reaches the integer output as int32 0, so x gets zeros
    class Cast(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x.astype("int32")

        @staticmethod
        def backward(ctx, dy):
            assert dy.dtype == paddle.int32
            return dy

    x = paddle.full([3], 1.5)
    x.stop_gradient = False
    z = Cast.apply(x)
    assert z.dtype == paddle.int32 and not z.stop_gradient
    (z.astype("float32") * 2.5).mean().backward()
    assert x.grad.dtype == paddle.float32 and x.grad.numpy().tolist() == [0.0, 0.0, 0.0]
    assert x.grad.stop_gradient          # cast from int32 to float32 by Paddle's engine
    # a leaf made from data keeps the int32 gradient backward returned, as in Paddle (it is the
    # gradient backward received, so it does not stop gradient)
    x = paddle.to_tensor([1.5, -2.5, 3.0])
    x.stop_gradient = False
    (Cast.apply(x).astype("float32") * 2.5).mean().backward()
    assert x.grad.dtype == paddle.int32 and x.grad.numpy().tolist() == [0, 0, 0]
    assert not x.grad.stop_gradient
