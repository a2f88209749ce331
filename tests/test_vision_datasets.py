"""paddle.vision.datasets and the image backend against real Paddle 3.3.1
(tests/goldens/vision_datasets.json, recorded by tools/goldens/record_vision_datasets.py):
both worlds build the same tiny files in each dataset's format (tests/vision_dataset_files.py)
and run the same case code on them. Also: download=True never touches the network, and CIFAR's
pickles are read without running untrusted code."""
import json
import os
import pickle

import numpy as np
import pytest

import paddle_compat as paddle

pytest.importorskip("PIL.Image")
pytest.importorskip("cv2")

import golden_utils  # noqa: E402
import vision_dataset_files as vdf  # noqa: E402

with open(os.path.join(os.path.dirname(__file__), "goldens", "vision_datasets.json")) as _f:
    GOLD = json.load(_f)
CASES = {c["id"]: c for c in GOLD["cases"]}

#: deliberate differences from Paddle 3.3.1 (checked in test_known_differences)
KNOWN = {
    # Paddle's DatasetFolder always replaces is_valid_file by its default extensions; its docs
    # say is_valid_file picks the samples when extensions is not given, and we do that.
    "folder_is_valid_file": "is_valid_file honoured, as documented",
    # Paddle reads MNIST in blocks of 100 labels and fails (struct.error) on any other count.
    "mnist_3_items": "files of any number of images load",
}


#: the names Paddle re-exports from paddle.vision (the lead wires them in vision/__init__.py)
REEXPORTS = {"image": ["get_image_backend", "image_load", "set_image_backend"],
             "datasets": ["MNIST", "VOC2012", "Cifar10", "Cifar100", "DatasetFolder",
                          "FashionMNIST", "Flowers", "ImageFolder"]}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("vision_datasets"))
    cases = [(c["id"], c["code"]) for c in GOLD["cases"]]
    return vdf.run_cases(paddle, folder, golden_utils.describe, cases)


def test_vision_reexports():
    from paddle_compat.vision import datasets, image
    for mod, names in (("image", image), ("datasets", datasets)):
        for n in REEXPORTS[mod]:
            assert getattr(paddle.vision, n) is getattr(names, n)


@pytest.mark.parametrize("cid", [c for c in CASES if c not in KNOWN])
def test_matches_paddle(cid, results):
    golden_utils.assert_same(results[cid], CASES[cid]["out"], cid)


def test_known_differences(results):
    assert results["folder_is_valid_file"] == ["b_dog/d0.png"]
    assert CASES["folder_is_valid_file"]["out"] != results["folder_is_valid_file"]
    assert CASES["mnist_3_items"]["out"] == {"error": "Exception"}  # Paddle: struct.error
    got = results["mnist_3_items"]
    assert got[0] == 3 and got[1]["ndarray"] == "int64" and got[1]["shape"] == [1]


def test_pipeline_is_recorded_as_tensors():
    out = CASES["pipeline_transforms_dataloader"]["out"]
    assert out["batch0"][0]["dtype"] == "float32" and out["batch0"][0]["shape"] == [4, 3, 8, 8]
    assert out["batch0"][1]["dtype"] == "int64" and out["n_batches"] == 2


# ---------------------------------------------------------------- no network, ever
@pytest.fixture
def data_home(tmp_path, monkeypatch):
    from paddle_compat.vision.datasets import _files
    monkeypatch.setattr(_files, "DATA_HOME", str(tmp_path / "dataset"))
    return tmp_path / "dataset"


@pytest.mark.parametrize("make, where", [
    (lambda: paddle.vision.datasets.MNIST(), "mnist/train-images-idx3-ubyte.gz"),
    (lambda: paddle.vision.datasets.FashionMNIST(mode="test"),
     "fashion-mnist/t10k-images-idx3-ubyte.gz"),
    (lambda: paddle.vision.datasets.Cifar10(), "cifar/cifar-10-python.tar.gz"),
    (lambda: paddle.vision.datasets.Cifar100(), "cifar/cifar-100-python.tar.gz"),
    (lambda: paddle.vision.datasets.Flowers(), "flowers/102flowers.tgz"),
    (lambda: paddle.vision.datasets.VOC2012(), "voc2012/VOCtrainval_11-May-2012.tar"),
])
def test_download_says_where_the_file_goes(make, where, data_home):
    with pytest.raises(RuntimeError) as e:
        make()
    msg = str(e.value)
    assert str(data_home / where) in msg and "does not download" in msg


def test_cached_file_is_used(tmp_path, data_home):
    os.makedirs(data_home / "cifar")
    vdf.make_cifar10(str(data_home / "cifar" / "cifar-10-python.tar.gz"))
    from paddle_compat.vision.datasets import cifar
    # our fake archive is not Paddle's: its md5 differs, and that is said
    with pytest.raises(RuntimeError, match="md5"):
        paddle.vision.datasets.Cifar10()
    old = cifar.CIFAR10_MD5
    try:
        import hashlib
        with open(data_home / "cifar" / "cifar-10-python.tar.gz", "rb") as f:
            cifar.CIFAR10_MD5 = hashlib.md5(f.read()).hexdigest()
        assert len(paddle.vision.datasets.Cifar10(backend="cv2")) == 5
    finally:
        cifar.CIFAR10_MD5 = old


# ---------------------------------------------------------------- untrusted pickles
def test_malicious_cifar_pickle_is_refused(tmp_path):
    marker = str(tmp_path / "ran.txt")
    path = vdf.make_malicious_cifar10(str(tmp_path / "evil.tar.gz"), marker)
    with pytest.raises(pickle.UnpicklingError, match="refusing"):
        paddle.vision.datasets.Cifar10(data_file=path)
    assert not os.path.exists(marker)
    # the same archive does run code when trusted (so the test can fail)
    import tarfile
    with tarfile.open(path) as tar:
        pickle.load(tar.extractfile("cifar-10-batches-py/data_batch_1"), encoding="bytes")
    assert os.path.exists(marker)


def test_safe_unpickler_accepts_data_and_refuses_the_rest():
    import io
    from paddle_compat.vision.datasets._files import safe_load_pickle
    data = {b"data": np.arange(12, dtype=np.uint8).reshape(2, 6), b"labels": [1, 2],
            b"f": np.asfortranarray(np.arange(6.0).reshape(2, 3)), b"name": "x",
            b"scalars": [np.int64(3), np.float32(2.5)]}
    for proto in (2, 4, 5):
        got = safe_load_pickle(io.BytesIO(pickle.dumps(data, protocol=proto)))
        np.testing.assert_array_equal(got[b"data"], data[b"data"])
        np.testing.assert_array_equal(got[b"f"], data[b"f"])
        assert got[b"labels"] == [1, 2] and got[b"data"].dtype == np.uint8
        assert got[b"scalars"] == [3, 2.5] and got[b"scalars"][0].dtype == np.int64
    for bad in (np.array([1, "a"], dtype=object), np.zeros(2, dtype=[("a", "f4")]),
                {"k": print}, {"k": np.random.default_rng(0)}):
        with pytest.raises(pickle.UnpicklingError):
            safe_load_pickle(io.BytesIO(pickle.dumps(bad, protocol=2)))


# ---------------------------------------------------------------- .mat files without scipy
def test_loadmat_reads_numeric_matrices(tmp_path):
    from paddle_compat.vision.datasets._files import loadmat
    arrs = {"a": np.array([[1.5, 2.0, -3.0]]), "b": np.arange(6, dtype="uint16").reshape(2, 3),
            "c": np.array([[7]], dtype="uint8")}
    path = vdf.write_mat(str(tmp_path / "x.mat"), arrs, compress=("b",))
    got = loadmat(path)
    assert set(got) == set(arrs)
    for k, v in arrs.items():
        assert got[k].dtype == v.dtype and got[k].shape == v.shape
        np.testing.assert_array_equal(got[k], v)


def test_loadmat_other_content_needs_scipy(tmp_path, monkeypatch):
    import builtins
    from paddle_compat.vision.datasets._files import loadmat
    path = tmp_path / "v73.mat"
    path.write_bytes(b"MATLAB 7.3 MAT-file".ljust(124, b" ") + b"\x00\x02IM" + b"\0" * 64)
    real_import = builtins.__import__

    def no_scipy(name, *a, **k):
        if name.startswith("scipy"):
            raise ImportError("no scipy")
        return real_import(name, *a, **k)
    monkeypatch.setattr(builtins, "__import__", no_scipy)
    with pytest.raises(ImportError, match="pip install scipy"):
        loadmat(str(path))


def test_vision_names():
    assert sorted(paddle.vision.datasets.__all__) == sorted(
        ["DatasetFolder", "ImageFolder", "MNIST", "FashionMNIST", "Flowers", "Cifar10",
         "Cifar100", "VOC2012"])
    from paddle_compat.vision import image
    assert image.__all__ == ["set_image_backend", "get_image_backend", "image_load"]
