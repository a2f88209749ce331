"""Behaviour PaddleSpeech 1.5.0 relies on (issue 30, tools/ecosystem driver paddlespeech),
against Paddle 3.3.1 (tests/goldens/ecosystem_speech.json from
tools/goldens/record_ecosystem_speech.py): convolutions over inputs with a spatial size 0
(FastSpeech2 inference whose durations all round to 0), ``nn.LayerNorm``/``nn.Conv2D``
keyword-only arguments. Each case's code runs here on paddle_compat, from a file as the
recorder ran it, and must give Paddle's value (floats to 1e-5) or error type."""
import json
import os

import pytest

import paddle_compat as paddle
from code_cases import assert_recorded, check_case, load_cases, nested_close

HERE = os.path.dirname(__file__)
CASES = load_cases("ecosystem_speech.json")


assert_close = nested_close(1e-5)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name):
    check_case(CASES[name], assert_close, "eco_speech_")


def test_cases_are_the_recorders():
    assert_recorded(CASES, "record_ecosystem_speech.py")


def test_empty_conv_with_negative_output_size_still_refused():
    """An empty input whose output size would be negative stays an error naming conv1d."""
    with pytest.raises(ValueError, match="conv1d"):
        paddle.nn.functional.conv1d(paddle.zeros([1, 4, 0]), paddle.ones([8, 4, 3]))


def test_nonempty_conv_kernel_too_large_unchanged():
    with pytest.raises(ValueError, match="Kernel size"):
        paddle.nn.functional.conv1d(paddle.zeros([1, 4, 2]), paddle.ones([8, 4, 3]))


def _eco_tools():
    """tools/ecosystem's ``recipes`` and ``build`` modules (they need no venv)."""
    import importlib
    import sys
    eco = os.path.join(HERE, "..", "tools", "ecosystem")
    if eco not in sys.path:
        sys.path.insert(0, eco)
    return importlib.import_module("recipes"), importlib.import_module("build")


def test_speech_recipe_installs_paddlespeech_without_its_requirements():
    recipes, build = _eco_tools()
    speech = recipes.RECIPES["speech"]
    assert speech.no_deps_requirements() == ["paddlespeech==1.5.0"]
    assert not any(r.startswith("paddlespeech==") for r in speech.requirements())
    assert speech.requirements()[-1] == recipes.PADDLE
    assert recipes.group_of("paddlespeech") == "speech"
    # the no-deps libraries are in the stamp; a recipe without them keeps its old stamp
    other = recipes.Recipe({"paddlespeech": "1.4.0"}, speech.pins, no_deps=("paddlespeech",))
    assert build.stamp_of(other) != build.stamp_of(speech)
    plain = recipes.Recipe({"x": "1.0"}, ("y<2",))
    assert "no_deps" not in json.loads(build.stamp_of(plain))
