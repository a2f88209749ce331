"""paddle.audio against Paddle 3.3.1: the functional helpers (mel scale, filter banks, DCT,
decibels), the feature Layers, WAV I/O and the data sets on tiny generated trees
(goldens: tools/goldens/record_misc_ns.py -> tests/goldens/misc_ns.json)."""
import json
import os
import warnings

import numpy as np
import pytest

import golden_utils as gu
import misc_ns_cases
import paddle_compat as paddle

with open(os.path.join(os.path.dirname(__file__), "goldens", "misc_ns.json")) as _f:
    GOLDEN = json.load(_f)

# deliberate differences from Paddle 3.3.1 (case -> why)
KNOWN = {
    # Paddle ignores frame_offset when num_frames is -1 although its docs say loading starts
    # at frame_offset; we follow the docs (checked in test_load_offset_to_end)
    "load_frames_to_end": "frame_offset honoured with num_frames=-1",
}



def feature_tol(want):
    """The feature layers chain an FFT, a matmul, a log and (MFCC) a DCT, a sum of terms as
    large as the largest output: float32 at the depth tier of a composition, with the
    absolute part scaled to that size (1e-6 of the largest |value|: a few float32 roundings
    of it); float64 likewise at 1e-12 relative and 1e-13 of the largest |value| (measured:
    at most 8e-15 of it; FFT libraries and libm round differently)."""
    vals = [abs(float(v)) for v in want.get("values", [])] or [0.0]
    rt, at = gu.DEPTH_TOL["deep"]
    return dict(gu._TOL, float32=(rt, max(at, 1e-6 * max(vals))),
                float64=(1e-12, max(1e-14, 1e-13 * max(vals))))


def _cases(section):
    return sorted(GOLDEN[section])


def _check(section, case, tol=None):
    if case in KNOWN:
        pytest.skip(KNOWN[case])
    want = GOLDEN[section][case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = misc_ns_cases.run(paddle, want["code"])
    if isinstance(want["out"], dict) and "error" in want["out"]:
        assert got.get("error") == want["out"]["error"], (got, want["out"])
        return
    gu.assert_same(got, want["out"], case, tol)


@pytest.mark.parametrize("case", _cases("audio_functional"))
def test_functional(case):
    # float64: measured at most 4e-15 of the largest |value| (exp / log / cos of libm)
    _check("audio_functional", case, gu.depth_tol("op", dict(gu._TOL, float64=(1e-12, 1e-14))))


@pytest.mark.parametrize("case", _cases("audio_features"))
def test_features(case):
    out = GOLDEN["audio_features"][case]["out"]
    _check("audio_features", case, feature_tol(out) if isinstance(out, dict) else None)


@pytest.mark.parametrize("case", _cases("audio_io"))
def test_io(case):
    _check("audio_io", case)


@pytest.mark.parametrize("case", _cases("audio_datasets"))
def test_datasets(case, monkeypatch):
    monkeypatch.setattr(paddle.audio.datasets.dataset, "DATA_HOME",
                        paddle.audio.datasets.dataset.DATA_HOME)
    _check("audio_datasets", case)


def test_load_offset_to_end(tmp_path):
    misc_ns_cases.write_wav(str(tmp_path / "c.wav"), np.arange(20).reshape(10, 2))
    x, sr = paddle.audio.load(str(tmp_path / "c.wav"), frame_offset=6, normalize=False)
    assert sr == 8000
    np.testing.assert_array_equal(x.numpy(), [[12, 14, 16, 18], [13, 15, 17, 19]])


def test_save_clips_full_scale(tmp_path):
    # Paddle wraps 1.0 around to -32768; we clip to the int16 range
    p = str(tmp_path / "s.wav")
    paddle.audio.save(p, paddle.to_tensor([[1.0, -1.0, 0.5, 2.0]]), 8000)
    x, _ = paddle.audio.load(p, normalize=False)
    np.testing.assert_array_equal(x.numpy(), [[32767, -32768, 16384, 32767]])


def test_load_rejects_other_widths(tmp_path):
    p = str(tmp_path / "u8.wav")
    misc_ns_cases.write_wav(p, np.full((4, 1), 128), width=1)
    with pytest.raises(NotImplementedError, match="PCM16"):
        paddle.audio.load(p)


def test_dataset_missing_says_where(tmp_path, monkeypatch):
    monkeypatch.setattr(paddle.audio.datasets.dataset, "DATA_HOME", str(tmp_path))
    with pytest.raises(RuntimeError, match="does not download") as e:
        paddle.audio.datasets.ESC50()
    assert str(tmp_path / "ESC-50-master") in str(e.value)
    with pytest.raises(RuntimeError, match="TESS_Toronto_emotional_speech_set"):
        paddle.audio.datasets.TESS()


def test_dataset_archive_unpacked(tmp_path, monkeypatch):
    import zipfile
    monkeypatch.setattr(paddle.audio.datasets.dataset, "DATA_HOME", str(tmp_path))
    src = tmp_path / "src"
    d = src / "TESS_Toronto_emotional_speech_set" / "OAF_sad"
    d.mkdir(parents=True)
    misc_ns_cases.write_wav(str(d / "OAF_back_sad.wav"), np.zeros((10, 1)))
    with zipfile.ZipFile(tmp_path / "TESS_Toronto_emotional_speech_set.zip", "w") as z:
        z.write(d / "OAF_back_sad.wav", "TESS_Toronto_emotional_speech_set/OAF_sad/OAF_back_sad.wav")
    ds = paddle.audio.datasets.TESS(mode="dev", n_folds=1, archive={
        "url": "https://example.com/TESS_Toronto_emotional_speech_set.zip"})
    assert len(ds) == 1 and ds[0][1] == 6


def test_features_gradient_flows():
    x = paddle.to_tensor(misc_ns_cases.SIG(1, 1000), stop_gradient=False)
    y = paddle.audio.features.LogMelSpectrogram(sr=16000, n_fft=256, n_mels=16)(x)
    y.sum().backward()
    assert x.grad is not None and list(x.grad.shape) == [1, 1000]
    assert np.isfinite(x.grad.numpy()).all()


def test_features_float64_match_numpy_reference():
    # an independent float64 check of MelSpectrogram: numpy framing + rfft + the filter bank
    sig = misc_ns_cases.SIG(1, 2048, dtype="float64")[0]
    layer = paddle.audio.features.MelSpectrogram(sr=16000, n_fft=256, hop_length=128, n_mels=20,
                                                 center=False, dtype="float64")
    got = layer(paddle.to_tensor(sig[None]))[0].numpy()
    win = layer._spectrogram.fft_window.numpy()
    frames = np.stack([sig[i:i + 256] * win for i in range(0, 2048 - 256 + 1, 128)])
    power = np.abs(np.fft.rfft(frames, axis=-1)) ** 2
    want = layer.fbank_matrix.numpy() @ power.T
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_pathlike_and_file_objects(tmp_path):
    import io
    w = paddle.to_tensor(misc_ns_cases.SIG(1, 64) * 0.5)
    paddle.audio.save(tmp_path / "p.wav", w, 8000)          # a pathlib.Path
    buf = io.BytesIO()
    paddle.audio.save(buf, w, 8000)
    buf.seek(0)
    a, _ = paddle.audio.load(tmp_path / "p.wav")
    b, sr = paddle.audio.load(buf)
    assert sr == 8000 and not buf.closed                     # the caller's object stays open
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    np.testing.assert_allclose(a.numpy(), w.numpy(), atol=2 ** -15)
