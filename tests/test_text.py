"""paddle.text against real Paddle 3.3.1 (tests/goldens/text.json, recorded by
tools/goldens/record_text.py): viterbi_decode / ViterbiDecoder values (float32 and float64,
with and without the BOS/EOS tags, short, zero and negative lengths) and exception types, and
each text dataset loading a tiny file in its format (both worlds build the same files with
tests/text_dataset_files.py). Also: download=True never touches the network."""
import json
import os

import numpy as np
import pytest

import paddle_compat as paddle

import golden_utils  # noqa: E402
import text_dataset_files as tdf  # noqa: E402

with open(os.path.join(os.path.dirname(__file__), "goldens", "text.json")) as _f:
    GOLD = json.load(_f)
CASES = {c["id"]: c for c in GOLD["cases"]}

#: deliberate differences from Paddle 3.3.1 (checked in test_known_differences)
KNOWN = {
    # Paddle's WMT16.get_dict ignores reverse=True (returns word -> id); its docs say
    # reverse gives id -> word, and we do that
    "wmt16_get_dict_reverse": "reverse honoured, as documented",
}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    from paddle_compat.text.datasets import _common
    folder = str(tmp_path_factory.mktemp("text_datasets"))
    mp = pytest.MonkeyPatch()
    mp.setattr(_common, "DATA_HOME", str(tmp_path_factory.mktemp("data_home")))
    cases = [(c["id"], c["code"]) for c in GOLD["cases"]]
    try:
        return tdf.run_cases(paddle, folder, golden_utils.describe, cases)
    finally:
        mp.undo()


@pytest.mark.parametrize("cid", [c for c in CASES if c not in KNOWN])
def test_matches_paddle(cid, results):
    # viterbi in float32 is one op's arithmetic (sums and maxima along the path)
    golden_utils.assert_same(results[cid], CASES[cid]["out"], cid,
                             tol=golden_utils.depth_tol("op"))


def test_known_differences(results):
    want = CASES["wmt16_get_dict_reverse"]["out"]  # Paddle: word -> id
    got = results["wmt16_get_dict_reverse"]
    assert got == {str(v): k for k, v in want.items()}


def test_viterbi_agrees_with_brute_force():
    """Every path scored by enumeration, for both tag conventions and several lengths."""
    import itertools
    rs = np.random.RandomState(7)
    B, T, N = 4, 4, 4
    pot = rs.standard_normal((B, T, N))
    trans = rs.standard_normal((N, N))
    lens = np.array([4, 2, 1, 3])
    for include in (True, False):
        s, p = paddle.text.viterbi_decode(paddle.to_tensor(pot), paddle.to_tensor(trans),
                                          paddle.to_tensor(lens), include)
        for b in range(B):
            best, arg = -np.inf, None
            for tags in itertools.product(range(N), repeat=int(lens[b])):
                sc = pot[b, 0, tags[0]] + (trans[N - 1, tags[0]] if include else 0)
                for t in range(1, len(tags)):
                    sc += trans[tags[t - 1], tags[t]] + pot[b, t, tags[t]]
                if include:
                    sc += trans[N - 2, tags[-1]]
                if sc > best:
                    best, arg = sc, tags
            assert s.numpy()[b] == pytest.approx(best, rel=1e-12)
            assert p.numpy()[b, :lens[b]].tolist() == list(arg)
            assert (p.numpy()[b, lens[b]:] == 0).all()


def test_viterbi_results_do_not_require_grad():
    pot = paddle.to_tensor(np.ones((1, 2, 3), "float32"), stop_gradient=False)
    trans = paddle.to_tensor(np.eye(3, dtype="float32"))
    s, p = paddle.text.viterbi_decode(pot, trans, paddle.to_tensor([2]))
    assert s.stop_gradient and p.stop_gradient and str(p.dtype) == "paddle.int64"


# ---------------------------------------------------------------- no network, ever
@pytest.fixture
def data_home(tmp_path, monkeypatch):
    from paddle_compat.text.datasets import _common
    monkeypatch.setattr(_common, "DATA_HOME", str(tmp_path / "dataset"))
    return tmp_path / "dataset"


@pytest.mark.parametrize("make, where", [
    (lambda: paddle.text.UCIHousing(), "uci_housing/housing.data"),
    (lambda: paddle.text.Imdb(), "imdb/imdb%2FaclImdb_v1.tar.gz"),
    (lambda: paddle.text.Imikolov(), "imikolov/imikolov%2Fsimple-examples.tgz"),
    (lambda: paddle.text.Movielens(), "sentiment/movielens%2Fml-1m.zip"),
    (lambda: paddle.text.Conll05st(), "conll05st/conll05st-tests.tar.gz"),
    (lambda: paddle.text.WMT14(dict_size=10), "wmt14/wmt14.tgz"),
    (lambda: paddle.text.WMT16(src_dict_size=5, trg_dict_size=5), "wmt16/wmt16.tar.gz"),
])
def test_download_says_where_the_file_goes(make, where, data_home):
    with pytest.raises(RuntimeError) as e:
        make()
    msg = str(e.value)
    assert str(data_home / where) in msg and "does not download" in msg


def test_wmt16_dictionaries_are_cached(tmp_path, data_home):
    path = tdf.make_wmt16(str(tmp_path / "wmt16.tar.gz"))
    ds = paddle.text.WMT16(data_file=path, src_dict_size=6, trg_dict_size=7)
    en = data_home / "wmt16" / "en_6.dict"
    assert en.read_text().split("\n")[:3] == ["<s>", "<e>", "<unk>"]
    assert len(en.read_text().splitlines()) == 6
    en.write_text("<s>\n<e>\n<unk>\nx\ny\nz\n")  # a cached dictionary of the right size wins
    again = paddle.text.WMT16(data_file=path, src_dict_size=6, trg_dict_size=7)
    assert list(again.src_dict) == ["<s>", "<e>", "<unk>", "x", "y", "z"]
    assert len(ds) == len(again) == 4


def test_text_names():
    assert sorted(paddle.text.__all__) == sorted(
        ["Conll05st", "Imdb", "Imikolov", "Movielens", "UCIHousing", "WMT14", "WMT16",
         "ViterbiDecoder", "viterbi_decode"])
    assert paddle.text.datasets.Imdb is paddle.text.Imdb


def test_viterbi_static_mode_is_refused_clearly():
    paddle.enable_static()
    try:
        x = paddle.static.data("x", [2, 3, 4], "float32")
        t = paddle.static.data("t", [4, 4], "float32")
        n = paddle.static.data("n", [2], "int64")
        with pytest.raises(NotImplementedError, match="dynamic mode"):
            paddle.text.viterbi_decode(x, t, n)
    finally:
        paddle.disable_static()
