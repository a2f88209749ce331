"""paddle.hub against Paddle 3.3.1 on local hubconf repositories and cached state dicts
(goldens: tools/goldens/record_misc_ns.py -> tests/goldens/misc_ns.json), and the offline
behaviour: github / gitee sources and missing files fail at once, saying where to put them."""
import json
import os
import time
import warnings

import pytest

import golden_utils as gu
import misc_ns_cases
import paddle_compat as paddle

with open(os.path.join(os.path.dirname(__file__), "goldens", "misc_ns.json")) as _f:
    GOLDEN = json.load(_f)["hub"]


@pytest.fixture
def paddle_hook():
    """``import paddle`` gives paddle_compat (the hubconf files of the cases import paddle, as
    real hub repositories do), undone afterwards."""
    paddle.install()
    try:
        yield
    finally:
        paddle.uninstall()


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_golden(case, request):
    want = GOLDEN[case]
    if "import paddle" in want["code"]:
        request.getfixturevalue("paddle_hook")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = misc_ns_cases.run(paddle, want["code"])
    if isinstance(want["out"], dict) and "error" in want["out"]:
        assert got.get("error") == want["out"]["error"], (got, want["out"])
        if want["out"].get("message"):
            assert got["message"].startswith(want["out"]["message"]), got["message"]
        return
    gu.assert_same(got, want["out"], case)


def test_github_without_cache_fails_fast(tmp_path, monkeypatch):
    monkeypatch.setattr(paddle.hub, "HUB_DIR", str(tmp_path))
    t = time.time()
    with pytest.raises(RuntimeError, match="does not download") as e:
        paddle.hub.list("someone/models:dev", source="github")
    assert time.time() - t < 5
    assert "https://github.com/someone/models/archive/dev.zip" in str(e.value)
    assert str(tmp_path / "someone_models_dev" / "hubconf.py") in str(e.value)
    with pytest.raises(RuntimeError, match="gitee.com/a/b/repository/archive/master.zip"):
        paddle.hub.load("a/b", "m", source="gitee")


def test_github_uses_cached_copy(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(paddle.hub, "HUB_DIR", str(tmp_path))
    repo = tmp_path / "someone_models_main"
    repo.mkdir()
    (repo / "hubconf.py").write_text("from helper import VALUE\n"
                                     "def answer(scale=1):\n    return VALUE * scale\n")
    (repo / "helper.py").write_text("VALUE = 21\n")
    assert paddle.hub.list("someone/models") == ["answer"]
    assert paddle.hub.load("someone/models", "answer", scale=2) == 42
    assert "Using cache found in" in capsys.readouterr().err
    with pytest.raises(RuntimeError, match="force_reload"):
        paddle.hub.load("someone/models", "answer", force_reload=True)
    assert str(repo) not in __import__("sys").path


def test_state_dict_missing_says_where(tmp_path):
    t = time.time()
    with pytest.raises(RuntimeError, match="does not download") as e:
        paddle.hub.load_state_dict_from_url("https://example.com/w/resnet.pdparams",
                                            model_dir=str(tmp_path))
    assert time.time() - t < 5
    assert str(tmp_path / "resnet.pdparams") in str(e.value)


def test_state_dict_check_hash(tmp_path):
    import hashlib
    p = tmp_path / "tmpfile"
    paddle.save({"w": paddle.to_tensor([1.0])}, str(p))
    digest = hashlib.sha256(p.read_bytes()).hexdigest()
    good = tmp_path / f"w-{digest[:10]}.pdparams"
    p.rename(good)
    sd = paddle.hub.load_state_dict_from_url(f"https://example.com/{good.name}",
                                             model_dir=str(tmp_path), check_hash=True)
    assert sd["w"].tolist() == [1.0]
    bad = tmp_path / "w-0000000000.pdparams"
    bad.write_bytes(good.read_bytes())
    with pytest.raises(RuntimeError, match="invalid hash"):
        paddle.hub.load_state_dict_from_url(f"https://example.com/{bad.name}",
                                            model_dir=str(tmp_path), check_hash=True)
