"""The ecosystem tools' own logic (tools/ecosystem): recipes, the compare function, the driver
scaffolding. The drivers themselves need the library venvs and never run here."""
import json
import math
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ECO = os.path.join(ROOT, "tools", "ecosystem")
sys.path.insert(0, ECO)

import build  # noqa: E402
import compare as cmp  # noqa: E402
import recipes  # noqa: E402


def test_recipe_requirements_pin_the_issue_versions_and_paddle():
    nlp = recipes.RECIPES["nlp"].requirements()
    assert nlp[0] == "paddlenlp==2.8.1"
    assert {"huggingface_hub==0.23.4", "aistudio-sdk==0.2.6", "datasets==2.19.2"} <= set(nlp)
    assert nlp[-1] == "paddlepaddle==3.3.1"
    for group in ("seg", "clas", "det", "sci"):
        assert recipes.NUMPY_1 in recipes.RECIPES[group].pins
    # an sdist library is built from its patched source, not installed by name
    pgl = recipes.RECIPES["pgl"]
    assert "pgl" in pgl.sdists and not any(r.startswith("pgl==") for r in pgl.requirements())
    assert all(r.requirements()[-1] == recipes.PADDLE for r in recipes.RECIPES.values())


def test_group_of_finds_libraries_drivers_and_groups():
    assert recipes.group_of("paddlex") == "ocr"
    assert recipes.group_of("paddleocr") == "ocr"
    assert recipes.group_of("nlp") == "nlp"
    with pytest.raises(KeyError, match="unknown library 'paddlefoo'.*paddlenlp"):
        recipes.group_of("paddlefoo")


def test_venvs_root_follows_the_environment(monkeypatch):
    monkeypatch.setenv("ECOSYSTEM_VENVS", "/tmp/somewhere")
    assert recipes.python_of("nlp") == "/tmp/somewhere/nlp/bin/python"
    monkeypatch.delenv("ECOSYSTEM_VENVS")
    assert recipes.venvs_root() == recipes.DEFAULT_VENVS


def test_build_stamp_changes_with_the_recipe():
    a = recipes.Recipe({"x": "1.0"}, ("y<2",))
    b = recipes.Recipe({"x": "1.1"}, ("y<2",))
    assert build.stamp_of(a) == build.stamp_of(recipes.Recipe({"x": "1.0"}, ("y<2",)))
    assert build.stamp_of(a) != build.stamp_of(b)


def test_leaves_paths():
    assert cmp.leaves({"a": {"b": [1, {"c": 2.5}]}, "d": "x"}) == \
        {"a.b[0]": 1, "a.b[1].c": 2.5, "d": "x"}


def test_compare_tolerance_and_jitter_widening():
    gold = {"loss": [1.0, 0.5], "ids": [3, 4], "name": "ok"}
    assert cmp.compare(gold, {"loss": [1.00005, 0.50004], "ids": [3, 4], "name": "ok"}) == []
    diffs = cmp.compare(gold, {"loss": [1.001, 0.5], "ids": [3, 5], "name": "no"})
    assert [d[0] for d in diffs] == ["loss[0]", "ids[1]", "name"]
    # Paddle itself moved loss[0] by 2e-3 under the jitter run: 10x that is allowed
    jit = {"loss": [1.002, 0.5]}
    assert cmp.compare(gold, {"loss": [1.01, 0.5], "ids": [3, 4], "name": "ok"}, jit) == []
    assert [d[0] for d in cmp.compare(gold, {"loss": [1.03, 0.5], "ids": [3, 4], "name": "ok"}, jit)] \
        == ["loss[0]"]
    assert cmp.tolerance(2.0) == pytest.approx(1e-4 + 2e-4)


def test_compare_missing_extra_and_nan():
    diffs = cmp.compare({"a": 1.0, "n": math.nan}, {"n": math.nan, "b": 2})
    assert [(d[0], d[3]) for d in diffs] == [("a", "missing"), ("b", "extra")]
    assert cmp.compare({"n": math.nan}, {"n": 1.0})[0][3] == "nan"
    assert cmp.compare({"n": 1.0}, {"n": math.nan})[0][3] == "nan"


def test_state_of():
    golden = {"outputs": {"x": 1.0}, "errors": [], "jitter_outputs": None}
    assert cmp.state_of(golden, {"outputs": {"x": 1.0}, "errors": []})[0] == "match"
    state, note = cmp.state_of(golden, {"outputs": {"x": 2.0}, "errors": []})
    assert state == "differs" and "x: 1.0 vs 2.0" in note
    err = {"stage": "bert", "type": "AttributeError", "message": "no foo", "where": "m.py:3"}
    state, note = cmp.state_of(golden, {"outputs": {}, "errors": [err, err]})
    assert state == "fails" and note.startswith("bert: AttributeError: no foo [m.py:3]")
    assert "+1 more" in note
    assert cmp.state_of(golden, None)[0] == "fails"
    log = ("Traceback (most recent call last):\n  File \"x.py\", line 1\n"
           "    raise ValueError('v')\npaddle_compat.compat.missing.UnsupportedModuleError: "
           "paddle.x is not supported\nwarning: done\n")
    assert cmp.state_of(golden, None, log) == (
        "fails", "no output: paddle_compat.compat.missing.UnsupportedModuleError: paddle.x is "
                 "not supported")
    assert cmp.last_error("all fine\n") == ""
    assert cmp.state_of({**golden, "errors": [err]}, None)[0] == "driver broken"


DRIVER = """
import sys
sys.path.insert(0, {drivers!r})
import paddle
from _common import Driver, seed_params, train_steps
d = Driver("demo")

@d.stage("ok")
def _():
    net = paddle.nn.Linear(3, 2)
    seed_params(net)
    x = paddle.ones([4, 3])
    d.put("out", net(x))
    d.put("ids", paddle.to_tensor([[1, 2]]))
    d.put("losses", train_steps(net, lambda: net(x).square().mean(), opt="sgd", lr=0.1))

@d.stage("broken")
def _():
    raise ValueError("bad thing\\nsecond line")

d.finish()
"""


def run_demo(tmp_path, jitter):
    script = tmp_path / "demo.py"
    script.write_text(DRIVER.format(drivers=os.path.join(ECO, "drivers")))
    out = tmp_path / f"out{jitter}.json"
    env = dict(os.environ, PYTHONPATH=ROOT, ECO_JITTER=jitter, OMP_NUM_THREADS="1")
    subprocess.run([sys.executable, "-m", "paddle_compat", str(script), str(out)], env=env,
                   check=True, capture_output=True, cwd=str(tmp_path))
    return json.loads(out.read_text())


def test_driver_scaffolding_on_paddle_compat(tmp_path):
    doc = run_demo(tmp_path, "")
    assert "paddle_compat" in doc["meta"]["paddle_file"] and doc["meta"]["jitter"] == 0.0
    assert doc["outputs"]["out"]["shape"] == [4, 2] and len(doc["outputs"]["out"]["head"]) == 6
    assert doc["outputs"]["ids"] == {"shape": [1, 2], "ints": [1, 2]}
    losses = doc["outputs"]["losses"]
    assert len(losses) == 3 and losses[0] > losses[1] > losses[2]
    # a failing stage is recorded (first line of its message, its frame) and the run goes on
    assert doc["errors"] == [{"stage": "broken", "type": "ValueError", "message": "bad thing",
                              "where": "demo.py:19"}]
    # the jitter run moves the seeded weights by about 1e-6: outputs move, but only that much
    jit = run_demo(tmp_path, "1e-6")
    assert jit["meta"]["jitter"] == 1e-6
    assert jit["outputs"] != doc["outputs"]
    assert cmp.compare(doc["outputs"], jit["outputs"], rtol=0, atol=1e-5) == []
