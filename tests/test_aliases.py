"""Paddle 3.3.1's torch-style spellings (issue 22): parameter aliases (``dim``, ``input``,
``other``, ``mat2`` ...), sizes as varargs (``paddle.zeros(2, 3)``, ``x.reshape(3, 2)``), the
torch-order overloads Paddle dispatches on (``paddle.gather(x, 1, index)``) and what Paddle does
when an alias and its original are both given.

The cases are replayed from tests/goldens/aliases.json, written on real Paddle 3.3.1 by
tools/aliases/record_alias_goldens.py: every alias family of the generated table
(paddle_compat/ops/alias_table.py, by tools/aliases/record_aliases.py) has a case. The table's
own consistency (aliases name parameters Paddle has, the goldens use aliases the table lists)
is checked here too.
"""
import ast
import json
import os

import pytest

import paddle_compat as paddle
from golden_utils import assert_same, depth_tol, run_case
from paddle_compat.ops import alias_signatures, alias_table

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "goldens", "aliases.json")) as f:
    GOLDEN = json.load(f)
CASES = GOLDEN["cases"]
PRELUDE = GOLDEN["prelude"]
SIGS = alias_signatures.SIGNATURES


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_alias_case(case):
    paddle.set_default_dtype("float32")
    got = run_case(PRELUDE + case["code"], paddle)
    assert_same(got, case["want"], case["id"], tol=depth_tol("op"))


def test_every_alias_family_has_a_case():
    families = GOLDEN["families"]
    assert len(families) >= 80
    assert not [f for f, apis in families.items() if not apis]


def test_goldens_use_aliases_the_table_lists():
    for c in CASES:
        cls, _, method = c["api"].rpartition(".")
        listed = alias_table.ALIASES.get(c["api"]) or alias_table.LAYER_ALIASES.get(
            c["api"]) or (alias_table.LAYER_METHOD_ALIASES.get(cls) or {}).get(method, {})
        assert set(c["aliases"]) <= set(listed), (c["id"], c["aliases"], listed)


@pytest.mark.parametrize("path", sorted(alias_table.ALIASES))
def test_alias_targets_are_paddle_parameters(path):
    params = set(SIGS[path])
    for alias, target in alias_table.ALIASES[path].items():
        assert target in params, (path, alias, target, SIGS[path])
        assert alias not in params, (path, alias, "is a parameter, not an alias")


@pytest.mark.parametrize("path", sorted(alias_table.LAYER_ALIASES))
def test_layer_alias_targets_are_paddle_parameters(path):
    params = set(alias_signatures.LAYER_SIGNATURES[path])
    for alias, target in alias_table.LAYER_ALIASES[path].items():
        assert target in params and alias not in params, (path, alias, target)


def test_both_given_and_size_args_are_well_formed():
    assert set(alias_table.BOTH_GIVEN) == set(alias_table.ALIASES)
    assert set(alias_table.BOTH_GIVEN.values()) <= {"ValueError", "TypeError", "alias"}
    assert set(alias_table.LAYER_BOTH_GIVEN) == set(alias_table.LAYER_ALIASES)
    for path, (param, start) in alias_table.SIZE_ARGS.items():
        assert start in (0, 1) and param in SIGS[path], path
        assert (start == 1) == path.startswith("paddle.Tensor.") or path in (
            "paddle.reshape", "paddle.view", "paddle.expand", "paddle.permute"), path


def test_table_modules_hold_only_data():
    """The generated modules are literals only: no import, no code, nothing computed."""
    for mod in (alias_table, alias_signatures):
        with open(mod.__file__) as fh:
            tree = ast.parse(fh.read())
        body = tree.body
        assert isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
        for node in body[1:]:
            assert isinstance(node, ast.Assign) and len(node.targets) == 1, ast.dump(node)[:80]
            assert node.targets[0].id.isupper()
            ast.literal_eval(node.value)


def test_table_counts():
    pairs = sum(len(v) for v in alias_table.ALIASES.values())
    assert len(alias_table.ALIASES) >= 350 and pairs >= 600
    assert alias_table.SIZE_ARGS["paddle.zeros"] == ("shape", 0)
    assert alias_table.SIZE_ARGS["paddle.Tensor.reshape"] == ("shape", 1)
    assert alias_table.ALIASES["paddle.sum"] == {"dim": "axis", "input": "x"}
