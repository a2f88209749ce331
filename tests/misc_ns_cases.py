"""Cases for paddle.audio, paddle.profiler and paddle.hub, run on real Paddle by
tools/goldens/record_misc_ns.py (-> tests/goldens/misc_ns.json) and on paddle_compat by
tests/test_audio.py, test_profiler.py and test_hub.py.

A case is code that leaves its result in ``out``; it runs with ``paddle``, ``np``, ``SIG``
(deterministic test signals), ``TMP`` (a fresh temporary folder), ``set_data_home`` (points
the audio data sets at a folder: the one place where the two libraries differ) and
``write_wav`` (a 16-bit PCM WAV file written with the stdlib) bound.
"""
import os
import tempfile
import wave

import numpy as np


def SIG(batch=2, n=4000, sr=16000, seed=0, dtype="float32"):
    """Sums of sines plus a little noise, ``[batch, n]`` (numpy, the same in both worlds)."""
    rs = np.random.RandomState(seed)
    t = np.arange(n) / sr
    rows = [0.5 * np.sin(2 * np.pi * (220 + 110 * b) * t) + 0.2 * np.sin(2 * np.pi * 3000 * t)
            + 0.01 * rs.standard_normal(n) for b in range(batch)]
    return np.stack(rows).astype(dtype)


def write_wav(path, samples, sr=8000, width=2):
    """``samples``: int array [frames, channels]."""
    samples = np.asarray(samples)
    with wave.open(path, "wb") as w:
        w.setnchannels(samples.shape[1])
        w.setsampwidth(width)
        w.setframerate(sr)
        w.writeframes(samples.astype("<i2" if width == 2 else "u1").tobytes())


def env(paddle):
    """The names a case's code runs with."""
    def set_data_home(path):
        if hasattr(paddle.audio.datasets, "esc50") and hasattr(paddle.audio.datasets.esc50,
                                                               "DATA_HOME"):
            paddle.audio.datasets.esc50.DATA_HOME = path       # real Paddle
            paddle.audio.datasets.tess.DATA_HOME = path
        else:
            paddle.audio.datasets.dataset.DATA_HOME = path     # paddle_compat
    return {"paddle": paddle, "np": np, "SIG": SIG, "TMP": tempfile.mkdtemp(),
            "set_data_home": set_data_home, "write_wav": write_wav, "os": os}


F = "paddle.audio.functional"
AUDIO_FUNCTIONAL = {
    "hz_to_mel_floats": f"out = [{F}.hz_to_mel(f, h) for h in (False, True) "
                        "for f in (0.0, 440.0, 999.0, 1000.0, 3000.5, 11025)]",
    "mel_to_hz_floats": f"out = [{F}.mel_to_hz(m, h) for h in (False, True) "
                        "for m in (0.0, 3.0, 14.9, 15.0, 40.5)]",
    "hz_to_mel_f32": f"out = {F}.hz_to_mel(paddle.to_tensor([0., 440., 999., 1000., 3000.5, "
                     "11025.]))",
    "hz_to_mel_f64": f"out = {F}.hz_to_mel(paddle.to_tensor([0., 440., 1000., 3000.5], "
                     "dtype='float64'))",
    "hz_to_mel_htk_f64": f"out = {F}.hz_to_mel(paddle.to_tensor([0., 440., 3000.5], "
                         "dtype='float64'), htk=True)",
    "hz_to_mel_htk_f32": f"out = {F}.hz_to_mel(paddle.to_tensor([0., 440., 3000.5]), True)",
    "mel_to_hz_f32": f"out = {F}.mel_to_hz(paddle.to_tensor([0., 3., 15., 15.5, 40.5]))",
    "mel_to_hz_f64": f"out = {F}.mel_to_hz(paddle.to_tensor([0., 3., 15., 15.5, 40.5], "
                     "dtype='float64'))",
    "mel_to_hz_htk_f64": f"out = {F}.mel_to_hz(paddle.to_tensor([0., 300., 2000.], "
                         "dtype='float64'), htk=True)",
    "mel_frequencies_default": f"out = {F}.mel_frequencies()",
    "mel_frequencies_htk_f64": f"out = {F}.mel_frequencies(40, 0.5, 10000, True, 'float64')",
    "mel_frequencies_f64": f"out = {F}.mel_frequencies(10, 20.0, 8000.0, dtype='float64')",
    "fft_frequencies": f"out = {F}.fft_frequencies(16000, 128)",
    "fft_frequencies_f64": f"out = {F}.fft_frequencies(sr=22050, n_fft=51, dtype='float64')",
    "fbank_default_f32": f"out = {F}.compute_fbank_matrix(16000, 512, 40)",
    "fbank_f64": f"out = {F}.compute_fbank_matrix(22050, 512, 64, 50.0, None, False, "
                 "'slaney', 'float64')",
    "fbank_htk_f64": f"out = {F}.compute_fbank_matrix(16000, 400, n_mels=30, f_min=20.0, "
                     "f_max=7600.0, htk=True, dtype='float64')",
    "fbank_norm2_f64": f"out = {F}.compute_fbank_matrix(8000, 256, n_mels=20, norm=2.0, "
                       "dtype='float64')",
    "fbank_norm1_f32": f"out = {F}.compute_fbank_matrix(8000, 256, n_mels=20, norm=1)",
    "fbank_norm_none_f64": f"out = {F}.compute_fbank_matrix(8000, 256, n_mels=20, norm=None, "
                           "dtype='float64')",
    # Paddle's doc example: 64 mel bands over 11.5 Hz, so narrow that one ulp of exp() in
    # float32 moves the weights by 1e-4 -- compared in float64
    "fbank_doc": f"out = {F}.compute_fbank_matrix(23, 51, dtype='float64')",
    "power_to_db_f32": f"out = {F}.power_to_db(paddle.to_tensor([[1.0, 0.01, 1e-12], "
                       "[250.0, 3.5, 0.0]]))",
    "power_to_db_f64_ref": f"out = {F}.power_to_db(paddle.to_tensor([1.0, 0.01, 1e-12, 250.0], "
                           "dtype='float64'), ref_value=10.0, amin=1e-6, top_db=None)",
    "power_to_db_top_db": f"out = {F}.power_to_db(paddle.to_tensor([1e4, 1.0, 1e-3], "
                          "dtype='float64'), top_db=40.0)",
    "power_to_db_scalar": f"out = {F}.power_to_db(paddle.to_tensor(3.0))",
    "power_to_db_bad_amin": f"out = {F}.power_to_db(paddle.to_tensor([1.0]), amin=0)",
    "power_to_db_bad_ref": f"out = {F}.power_to_db(paddle.to_tensor([1.0]), ref_value=-1)",
    "power_to_db_bad_top": f"out = {F}.power_to_db(paddle.to_tensor([1.0]), top_db=-1.0)",
    "create_dct_f32": f"out = {F}.create_dct(13, 40)",
    "create_dct_f64": f"out = {F}.create_dct(23, 64, dtype='float64')",
    "create_dct_none_f64": f"out = {F}.create_dct(5, 8, norm=None, dtype='float64')",
    "create_dct_bad_norm": f"out = {F}.create_dct(5, 8, norm='slaney')",
}

A = "paddle.audio.features"
AUDIO_FEATURES = {
    "spectrogram_f32": f"out = {A}.Spectrogram(n_fft=256, hop_length=64)(paddle.to_tensor(SIG(2, 1200)))",
    "spectrogram_f64": f"out = {A}.Spectrogram(n_fft=256, hop_length=100, window='hamming', "
                       "power=2.0, dtype='float64')(paddle.to_tensor(SIG(2, 1500, dtype='float64')))",
    "spectrogram_1d_f64": f"out = {A}.Spectrogram(n_fft=128, hop_length=None, win_length=100, "
                          "center=False, dtype='float64')(paddle.to_tensor(SIG(1, 1000, "
                          "dtype='float64')[0]))",
    "melspectrogram_f32": f"out = {A}.MelSpectrogram(sr=16000, n_fft=512, hop_length=128, "
                          "n_mels=40)(paddle.to_tensor(SIG()))",
    "melspectrogram_f64": f"out = {A}.MelSpectrogram(sr=16000, n_fft=512, hop_length=160, "
                          "n_mels=32, f_min=0.0, f_max=7000.0, htk=True, dtype='float64')"
                          "(paddle.to_tensor(SIG(dtype='float64')))",
    "logmel_f32": f"out = {A}.LogMelSpectrogram(sr=16000, n_fft=512, n_mels=40)"
                  "(paddle.to_tensor(SIG()))",
    "logmel_f64_topdb": f"out = {A}.LogMelSpectrogram(sr=16000, n_fft=400, hop_length=160, "
                        "n_mels=40, top_db=60.0, ref_value=2.0, dtype='float64')"
                        "(paddle.to_tensor(SIG(dtype='float64')))",
    "mfcc_f32": f"out = {A}.MFCC(sr=16000, n_mfcc=13, n_fft=512, n_mels=40)"
                "(paddle.to_tensor(SIG()))",
    "mfcc_f64": f"out = {A}.MFCC(sr=22050, n_mfcc=20, n_fft=1024, hop_length=256, n_mels=64, "
                "top_db=80.0, dtype='float64')(paddle.to_tensor(SIG(2, 6000, 22050, seed=3, "
                "dtype='float64')))",
    "state_dict_keys": "out = [list(getattr(paddle.audio.features, c)().state_dict().keys()) "
                       "for c in ('Spectrogram', 'MelSpectrogram', 'LogMelSpectrogram', 'MFCC')]",
    "buffer_values_f64": f"m = {A}.MelSpectrogram(sr=8000, n_fft=64, n_mels=8, dtype='float64')\n"
                         "out = [m.fbank_matrix, m._spectrogram.fft_window]",
    "mfcc_too_many": f"out = {A}.MFCC(n_mfcc=70, n_mels=64)",
    "spectrogram_bad_power": f"out = {A}.Spectrogram(power=0)",
}

AUDIO_IO = {
    "roundtrip": "w = paddle.to_tensor(SIG(2, 300) * 0.5)\n"
                 "paddle.audio.save(os.path.join(TMP, 'a.wav'), w, 8000)\n"
                 "x, sr = paddle.audio.load(os.path.join(TMP, 'a.wav'))\n"
                 "out = [x, sr]",
    "roundtrip_time_first": "w = paddle.to_tensor(SIG(3, 200).T * 0.9)\n"
                            "paddle.audio.save(os.path.join(TMP, 'a.wav'), w, 16000, "
                            "channels_first=False)\n"
                            "x, sr = paddle.audio.load(os.path.join(TMP, 'a.wav'), "
                            "channels_first=False)\nout = [x, sr]",
    "load_raw": "write_wav(os.path.join(TMP, 'b.wav'), np.array([[0, 1], [-32768, 32767], "
                "[100, -100]]))\nout = list(paddle.audio.load(os.path.join(TMP, 'b.wav'), "
                "normalize=False))",
    "load_normalized": "write_wav(os.path.join(TMP, 'b.wav'), np.array([[0, 1], [-32768, "
                       "32767], [100, -100]]))\nout = list(paddle.audio.load(os.path.join(TMP, "
                       "'b.wav')))",
    "load_frames": "write_wav(os.path.join(TMP, 'c.wav'), np.arange(20).reshape(10, 2))\n"
                   "out = paddle.audio.load(os.path.join(TMP, 'c.wav'), frame_offset=3, "
                   "num_frames=4, normalize=False)[0]",
    "load_frames_to_end": "write_wav(os.path.join(TMP, 'c.wav'), np.arange(20).reshape(10, 2))\n"
                          "out = paddle.audio.load(os.path.join(TMP, 'c.wav'), frame_offset=6, "
                          "normalize=False)[0]",
    "load_file_object": "write_wav(os.path.join(TMP, 'c.wav'), np.arange(6).reshape(6, 1))\n"
                        "with open(os.path.join(TMP, 'c.wav'), 'rb') as f:\n"
                        "    out = list(paddle.audio.load(f, normalize=False))",
    "info": "write_wav(os.path.join(TMP, 'd.wav'), np.zeros((50, 3)), sr=22050)\n"
            "i = paddle.audio.info(os.path.join(TMP, 'd.wav'))\n"
            "out = [i.sample_rate, i.num_samples, i.num_channels, i.bits_per_sample, i.encoding]",
    "save_int16": "paddle.audio.save(os.path.join(TMP, 'e.wav'), paddle.to_tensor([[1, -2, 300]], "
                  "dtype='int16'), 8000)\nout = paddle.audio.load(os.path.join(TMP, 'e.wav'), "
                  "normalize=False)[0]",
    "save_1d": "out = paddle.audio.save(os.path.join(TMP, 'f.wav'), paddle.to_tensor([0.1, 0.2]), "
               "8000)",
    "save_8bit": "out = paddle.audio.save(os.path.join(TMP, 'f.wav'), paddle.to_tensor([[0.1]]), "
                 "8000, bits_per_sample=8)",
    "load_not_wav": "open(os.path.join(TMP, 'g.wav'), 'wb').write(b'not a wave file at all')\n"
                    "out = paddle.audio.load(os.path.join(TMP, 'g.wav'))",
    "info_not_wav": "open(os.path.join(TMP, 'g.wav'), 'wb').write(b'not a wave file at all')\n"
                    "out = paddle.audio.info(os.path.join(TMP, 'g.wav'))",
    "backends": "b = paddle.audio.backends\n"
                "out = [b.get_current_backend(), b.list_available_backends(), "
                "b.set_backend('wave_backend'), b.get_current_backend()]",
    "backend_missing": "out = paddle.audio.backends.set_backend('soundfile')",
}

_ESC_TREE = (
    "root = os.path.join(TMP, 'ESC-50-master')\n"
    "os.makedirs(os.path.join(root, 'meta')); os.makedirs(os.path.join(root, 'audio'))\n"
    "rows = ['filename,fold,target,category,esc10,src_file,take']\n"
    "for i in range(10):\n"
    "    name = f'{i % 5 + 1}-{i}-A-{i * 7 % 50}.wav'\n"
    "    rows.append(f'{name},{i % 5 + 1},{i * 7 % 50},cat{i},False,{i},A')\n"
    "    write_wav(os.path.join(root, 'audio', name), (SIG(1, 800, seed=i).T * 8000), sr=8000)\n"
    "open(os.path.join(root, 'meta', 'esc50.csv'), 'w').write('\\n'.join(rows) + '\\n')\n"
    "set_data_home(TMP)\n")
_TESS_TREE = (
    "root = os.path.join(TMP, 'TESS_Toronto_emotional_speech_set')\n"
    "emos = ['angry', 'disgust', 'fear', 'happy', 'neutral', 'ps', 'sad']\n"
    "for i in range(14):\n"
    "    d = os.path.join(root, f'OAF_{emos[i % 7]}')\n"
    "    os.makedirs(d, exist_ok=True)\n"
    "    write_wav(os.path.join(d, f'OAF_word{i}_{emos[i % 7]}.wav'), "
    "(SIG(1, 500, seed=i).T * 8000), sr=8000)\n"
    "set_data_home(TMP)\n")
AUDIO_DATASETS = {
    "esc50_train": _ESC_TREE + "ds = paddle.audio.datasets.ESC50(mode='train', split=2)\n"
                               "out = [len(ds), ds.labels, [os.path.basename(f) for f in ds.files]]",
    "esc50_dev_raw": _ESC_TREE + "ds = paddle.audio.datasets.ESC50(mode='dev', split=3)\n"
                                 "out = [len(ds), list(ds[0]), list(ds[1])]",
    "esc50_mfcc": _ESC_TREE + "ds = paddle.audio.datasets.ESC50(mode='dev', split=1, "
                              "feat_type='mfcc', n_mfcc=13, n_fft=256, n_mels=32)\n"
                              "f, l = ds[0]\nout = [list(f.shape), str(f.dtype), l, ds.sample_rate]",
    "esc50_spectrogram": _ESC_TREE + "ds = paddle.audio.datasets.ESC50(mode='dev', split=1, "
                                     "feat_type='spectrogram', n_fft=128)\n"
                                     "out = list(ds[0][0].shape)",
    "esc50_bad_split": "out = paddle.audio.datasets.ESC50(split=6)",
    "esc50_bad_feat": _ESC_TREE + "out = paddle.audio.datasets.ESC50(feat_type='stft')",
    "tess_folds": _TESS_TREE + "tr = paddle.audio.datasets.TESS(mode='train', n_folds=7, "
                               "split=2)\ndv = paddle.audio.datasets.TESS(mode='dev', n_folds=7, "
                               "split=2)\nout = [len(tr), len(dv), sorted(tr.labels + dv.labels)]",
    "tess_item": _TESS_TREE + "ds = paddle.audio.datasets.TESS(mode='dev', n_folds=2, split=1, "
                              "feat_type='melspectrogram', n_fft=128, n_mels=16)\n"
                              "out = [len(ds), list(ds[0][0].shape)]",
    "tess_bad_split": "out = paddle.audio.datasets.TESS(n_folds=3, split=4)",
    "label_lists": "out = [paddle.audio.datasets.ESC50.label_list, "
                   "paddle.audio.datasets.TESS.label_list]",
}

P = "paddle.profiler"
_STATES = "[s(i).name for i in range(24)]"
PROFILER = {
    "enums": f"out = [[(m.name, m.value) for m in getattr({P}, e)] for e in "
             "('ProfilerState', 'ProfilerTarget', 'SortedKeys', 'SummaryView')]",
    "sched_basic": f"s = {P}.make_scheduler(closed=1, ready=1, record=2)\nout = {_STATES}",
    "sched_repeat_skip": f"s = {P}.make_scheduler(closed=2, ready=1, record=3, repeat=2, "
                         f"skip_first=3)\nout = {_STATES}",
    "sched_no_ready": f"s = {P}.make_scheduler(closed=0, ready=0, record=1)\nout = {_STATES}",
    "sched_record_only_repeat": f"s = {P}.make_scheduler(closed=0, ready=2, record=1, "
                                f"repeat=3)\nout = {_STATES}",
    "sched_bad": f"out = {P}.make_scheduler(closed=1, ready=1, record=0)",
    "sched_bad_negative": f"out = {P}.make_scheduler(closed=-1, ready=1, record=2)",
    "sched_positional": f"out = {P}.make_scheduler(1, 1, 2)",
    "profiler_tuple_sched": f"p = {P}.Profiler(scheduler=(2, 5), on_trace_ready=lambda p: None)\n"
                            "s = p.scheduler\n"
                            f"out = [p.current_state.name, {_STATES}]",
    "profiler_tuple_from_zero": f"p = {P}.Profiler(scheduler=(0, 3), on_trace_ready=lambda p: "
                                f"None)\ns = p.scheduler\nout = [p.current_state.name, {_STATES}]",
    "profiler_default_sched": f"p = {P}.Profiler(on_trace_ready=lambda p: None)\ns = p.scheduler\n"
                              f"out = {_STATES}",
    "profiler_bad_tuple": f"out = {P}.Profiler(scheduler=(5, 2))",
    "trace_ready_calls": (
        "calls = []\n"
        f"p = {P}.Profiler(scheduler={P}.make_scheduler(closed=1, ready=1, record=2, repeat=2), "
        "on_trace_ready=lambda p: calls.append((p.step_num, p.current_state.name)))\n"
        "p.start()\n"
        "for i in range(12):\n"
        "    x = paddle.ones([2, 2]) + 1\n"
        "    p.step()\n"
        "p.stop()\nout = calls"),
    "trace_ready_calls_tuple": (
        "calls = []\n"
        f"p = {P}.Profiler(scheduler=(2, 4), on_trace_ready=lambda p: calls.append(p.step_num))\n"
        "with p:\n"
        "    for i in range(6):\n"
        "        p.step()\nout = calls"),
    "states_seen": (
        "seen = []\n"
        f"p = {P}.Profiler(scheduler={P}.make_scheduler(closed=1, ready=1, record=1, "
        "skip_first=1), on_trace_ready=lambda p: None)\n"
        "p.start()\n"
        "for i in range(7):\n"
        "    seen.append((p.step_num, p.previous_state.name, p.current_state.name))\n"
        "    p.step()\n"
        "p.stop()\nout = seen"),
    "record_event_no_profiler": f"e = {P}.RecordEvent('outside')\n"
                                "out = [e.begin(), e.end(), e.name]",
    "chrome_file_name": (
        "import re\n"
        f"p = {P}.Profiler(scheduler=(0, 2), on_trace_ready={P}.export_chrome_tracing(TMP, "
        "'worker0'))\n"
        "with p:\n"
        "    for i in range(3):\n"
        "        y = paddle.ones([3]) * 2\n"
        "        p.step()\n"
        "out = [re.sub(r'[0-9]', 'N', f) for f in sorted(os.listdir(TMP))]"),
    "protobuf_file_name": (
        "import re\n"
        f"p = {P}.Profiler(scheduler=(0, 1), on_trace_ready={P}.export_protobuf(TMP, 'w1'))\n"
        "with p:\n"
        "    for i in range(2):\n"
        "        p.step()\n"
        "out = [re.sub(r'[0-9]', 'N', f) for f in sorted(os.listdir(TMP))]"),
    "export_dir_created": f"d = os.path.join(TMP, 'a', 'b')\n{P}.export_chrome_tracing(d)\n"
                          "out = os.path.isdir(d)",
    "timer_only_step_info": (
        "import re\n"
        f"p = {P}.Profiler(timer_only=True)\n"
        "p.start()\n"
        "infos = []\n"
        "for i in range(3):\n"
        "    p.step(num_samples=8)\n"
        "    infos.append(re.sub(r'[0-9]+', 'N', p.step_info()))\n"
        "infos.append(re.sub(r'[0-9]+', 'N', p.step_info(unit='images')))\n"
        "p.stop()\nout = infos"),
    "timer_only_steps": (
        "import re\n"
        f"p = {P}.Profiler(timer_only=True)\n"
        "p.start()\n"
        "for i in range(2):\n"
        "    p.step()\n"
        "out = [re.sub(r'[0-9]+', 'N', p.step_info()), re.sub(r'[0-9]+', 'N', p.step_info())]\n"
        "p.stop()"),
}

_HUBCONF = (
    "repo = os.path.join(TMP, 'repo')\nos.makedirs(repo)\n"
    "open(os.path.join(repo, 'hubconf.py'), 'w').write('''\n"
    "import paddle\n"
    "dependencies = ['numpy']\n"
    "def tiny_linear(in_features=2, out_features=3):\n"
    "    \\\"\\\"\\\"A tiny linear model.\\\"\\\"\\\"\n"
    "    return paddle.nn.Linear(in_features, out_features)\n"
    "def _hidden():\n"
    "    return 1\n"
    "VALUE = 3\n"
    "class Net(paddle.nn.Layer):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.fc = paddle.nn.Linear(4, 1)\n"
    "''')\n")
_HUBCONF_DEPS = (
    "repo = os.path.join(TMP, 'repo2')\nos.makedirs(repo)\n"
    "open(os.path.join(repo, 'hubconf.py'), 'w').write('''\n"
    "dependencies = ['numpy', 'no_such_module_xyz', 'another_missing_mod']\n"
    "def model():\n"
    "    return 1\n"
    "''')\n")
HUB = {
    "list_local": _HUBCONF + "out = paddle.hub.list(repo, source='local')",
    "help_local": _HUBCONF + "out = paddle.hub.help(repo, 'tiny_linear', source='local')",
    "load_local": _HUBCONF + "m = paddle.hub.load(repo, 'tiny_linear', source='local', "
                             "out_features=5)\nout = [type(m).__name__, list(m.weight.shape)]",
    "load_class": _HUBCONF + "m = paddle.hub.load(repo, 'Net', source='local')\n"
                             "out = list(m.state_dict().keys())",
    "load_missing_entry": _HUBCONF + "out = paddle.hub.load(repo, 'nope', source='local')",
    "load_not_callable": _HUBCONF + "out = paddle.hub.load(repo, 'VALUE', source='local')",
    "load_model_not_str": _HUBCONF + "out = paddle.hub.load(repo, 3, source='local')",
    "help_missing_entry": _HUBCONF + "out = paddle.hub.help(repo, 'nope', source='local')",
    "load_missing_deps": _HUBCONF_DEPS + "out = paddle.hub.load(repo, 'model', source='local')",
    "list_ignores_deps": _HUBCONF_DEPS + "out = paddle.hub.list(repo, source='local')",
    "bad_source": "out = paddle.hub.list(TMP, source='svn')",
    "load_bad_source": "out = paddle.hub.load(TMP, 'm', source='http')",
    "no_hubconf": "out = paddle.hub.list(TMP, source='local')",
    "state_dict_cached": (
        "d = os.path.join(TMP, 'ck')\nos.makedirs(d)\n"
        "paddle.save({'w': paddle.to_tensor([1.5, 2.5])}, os.path.join(d, 'tiny.pdparams'))\n"
        "out = paddle.hub.load_state_dict_from_url('https://example.com/x/tiny.pdparams', "
        "model_dir=d)"),
    "state_dict_file_name": (
        "d = os.path.join(TMP, 'ck')\nos.makedirs(d)\n"
        "paddle.save({'w': paddle.to_tensor([3.0])}, os.path.join(d, 'other.pdparams'))\n"
        "out = paddle.hub.load_state_dict_from_url('https://example.com/x/tiny.pdparams', "
        "model_dir=d, file_name='other.pdparams')"),
    "state_dict_numpy": (
        "d = os.path.join(TMP, 'ck')\nos.makedirs(d)\n"
        "paddle.save({'w': paddle.to_tensor([1.5, 2.5])}, os.path.join(d, 'tiny.pdparams'))\n"
        "out = paddle.hub.load_state_dict_from_url('https://example.com/x/tiny.pdparams', "
        "model_dir=d, map_location='numpy')"),
    "state_dict_cpu": (
        "d = os.path.join(TMP, 'ck')\nos.makedirs(d)\n"
        "paddle.save({'w': paddle.to_tensor([1.5, 2.5])}, os.path.join(d, 'tiny.pdparams'))\n"
        "out = paddle.hub.load_state_dict_from_url('https://example.com/x/tiny.pdparams', "
        "model_dir=d, map_location='cpu')"),
    "state_dict_zip": (
        "import zipfile\n"
        "d = os.path.join(TMP, 'ck')\nos.makedirs(d)\n"
        "paddle.save({'w': paddle.to_tensor([7.0])}, os.path.join(TMP, 'inner.pdparams'))\n"
        "with zipfile.ZipFile(os.path.join(d, 'model.zip'), 'w') as z:\n"
        "    z.write(os.path.join(TMP, 'inner.pdparams'), 'inner.pdparams')\n"
        "r = paddle.hub.load_state_dict_from_url('https://example.com/model.zip', model_dir=d)\n"
        "out = [r, os.path.exists(os.path.join(d, 'inner.pdparams'))]"),
    "state_dict_bad_map": (
        "d = os.path.join(TMP, 'ck')\nos.makedirs(d)\n"
        "paddle.save({'w': paddle.to_tensor([1.5])}, os.path.join(d, 'tiny.pdparams'))\n"
        "out = paddle.hub.load_state_dict_from_url('https://example.com/x/tiny.pdparams', "
        "model_dir=d, map_location='tpu')"),
    "state_dict_default_dir": (
        "os.environ['PADDLE_HOME'] = os.path.join(TMP, 'home')\n"
        "d = os.path.join(TMP, 'home', 'hub', 'checkpoints')\nos.makedirs(d)\n"
        "paddle.save({'w': paddle.to_tensor([4.0])}, os.path.join(d, 'ph.pdparams'))\n"
        "try:\n"
        "    out = paddle.hub.load_state_dict_from_url('https://example.com/ph.pdparams')\n"
        "finally:\n"
        "    del os.environ['PADDLE_HOME']"),
}

SECTIONS = {"audio_functional": AUDIO_FUNCTIONAL, "audio_features": AUDIO_FEATURES,
            "audio_io": AUDIO_IO, "audio_datasets": AUDIO_DATASETS, "profiler": PROFILER,
            "hub": HUB}


def run(paddle, code):
    """Run a case's code on ``paddle``: the description of ``out`` or of the exception."""
    import golden_utils
    e = env(paddle)
    try:
        exec(code, e)
        return golden_utils.describe(e["out"], paddle)
    except Exception as exc:  # noqa: BLE001 - the exception is the result
        res = golden_utils.describe(exc, paddle)
        res["message"] = str(exc).strip().split("\n")[0][:300]
        return res
