"""Fixes for Paddle's own tests, slice A2 of issue 31 (tools/upstream), against Paddle 3.3.1
(tests/goldens/upstream_fixes_A2.json from tools/goldens/record_upstream_fixes_A2.py):
operators by their C++ op_type in a legacy static Program as OpTest builds them (the op types
registered in static/fluid_ops.py and jit/program_desc.py for the slice), ``paddle.tensor``'s
linalg names, ``multinomial`` in a static program, the forward prim lowering of
``primapi.to_prim`` (static/decompose.py). Each case's code runs here from a file as the
recorder ran it, and must give Paddle's value (floats to 1e-6) or error type."""
import numpy as np
import pytest

import paddle_compat as paddle
from code_cases import check_case, load_cases, nested_close
from paddle_compat.compat.shims.base import core
from paddle_compat.static import decompose

CASES = load_cases("upstream_fixes_A2.json")


assert_close = nested_close(1e-6)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name):
    check_case(CASES[name], assert_close, "upstream_A2_")


def test_cases_are_the_recorders():
    """The golden holds the recorder's cases (their code is built from its RUN_OP and X34
    strings, evaluated here from its source without importing Paddle)."""
    import ast
    import os
    path = os.path.join(os.path.dirname(__file__), "..", "tools", "goldens",
                        "record_upstream_fixes_A2.py")
    with open(path) as f:
        tree = ast.parse(f.read())
    env = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0].id in ("RUN_OP", "X34", "CASES"):
            env[node.targets[0].id] = eval(compile(ast.Expression(node.value), path, "eval"),
                                           {"__builtins__": {}}, env)
    assert {k: v["code"] for k, v in CASES.items()} == env["CASES"]


def _lowered(build, feed):
    """(op types before, after lowering, the values before == after) of a program."""
    paddle.enable_static()
    try:
        prog = paddle.static.Program()
        with paddle.static.program_guard(prog):
            outs = build()
        exe = paddle.static.Executor()
        before = exe.run(prog, feed=feed, fetch_list=outs)
        types0 = [op.type for op in prog.global_block().ops]
        core._set_prim_forward_enabled(True)
        try:
            from paddle_compat.compat.shims import primapi
            primapi.to_prim(prog.blocks)
        finally:
            core._set_prim_forward_enabled(False)
        types1 = [op.type for op in prog.global_block().ops]
        after = exe.run(prog, feed=feed, fetch_list=outs)
    finally:
        paddle.disable_static()
    for b, a in zip(before, after):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
    return types0, types1


def test_lowering_softmax_tile_roll_keeps_values_and_drops_the_ops():
    x = np.random.default_rng(0).random((3, 4)).astype("float32")

    def build():
        v = paddle.static.data("x", [3, 4], "float32")
        return [paddle.nn.functional.softmax(v, axis=0), paddle.tile(v, [2, 1, 3]),
                paddle.tile(v, [1, 1]), paddle.roll(v, [1, -2], [0, 1]), paddle.roll(v, 5)]

    types0, types1 = _lowered(build, {"x": x})
    for t in ("softmax", "tile", "roll"):
        assert t in types0 and t not in types1


def test_lowering_leaves_unknown_dimensions_and_a_disabled_switch_alone():
    def build():
        v = paddle.static.data("x", [-1, 4], "float32")
        return [paddle.roll(v, 1, 0)]

    types0, types1 = _lowered(build, {"x": np.ones((2, 4), "float32")})
    assert "roll" in types1                   # the rule needs the unknown dimension
    paddle.enable_static()
    try:
        prog = paddle.static.Program()
        with paddle.static.program_guard(prog):
            paddle.stack([paddle.static.data("y", [2], "float32")] * 2)
        from paddle_compat.compat.shims import primapi
        primapi.to_prim(prog.blocks)            # forward prim is off: nothing lowered
        assert "stack" in [op.type for op in prog.global_block().ops]
    finally:
        paddle.disable_static()
    assert not decompose.forward_enabled()


def test_to_static_lowers_its_program_under_forward_prim():
    f = paddle.jit.to_static(lambda a, b: paddle.meshgrid(a, b), full_graph=True)
    a, b = paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0, 5.0])
    core._set_prim_forward_enabled(True)
    try:
        prog = f.get_concrete_program(a, b)[1].forward_program
        got = f(a, b)
    finally:
        core._set_prim_forward_enabled(False)
    assert "meshgrid" not in [op.type for op in prog.block(0).ops]
    want = np.meshgrid([1.0, 2.0], [3.0, 4.0, 5.0], indexing="ij")
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.numpy(), w)


def test_split_kernel_signature_follows_sections_or_num():
    from paddle_compat.static import fluid_ops
    sig = fluid_ops.kernel_signature("split", {"X": 1}, {"Out": 1},
                                     {"axis": 1, "sections": [2, 1, 2], "num": 0})
    assert sig == (["X"], ["sections", "axis"], ["Out"])
    sig = fluid_ops.kernel_signature("split", {"X": 1}, {"Out": 1},
                                     {"axis": 1, "sections": [], "num": 3})
    assert sig == (["X"], ["num", "axis"], ["Out"])
