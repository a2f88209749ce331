"""Paddle's semi-public internals that the ecosystem libraries reach, against Paddle 3.3.1
(tools/goldens/record_internals.py writes tests/goldens/internals.json; the names come from
tools/ecosystem/scan_internals.py): ``_legacy_C_ops`` with flat attributes, ``Tensor._copy_to``,
``paddle.framework.io``'s private loaders, ``_convert_attention_mask``, ``amp_state``,
``LayerHelper`` in dynamic mode, ``non_static_only``, ``in_declarative_mode``, the
``paddle.where`` message, and a recognizer-shaped model through ``paddle.jit.save``/``load``
(Paddle's own saved files read here, ours read back).

Each golden case carries the code the recorder ran on Paddle; it runs here with ``import
paddle`` resolving to paddle_compat.
"""
import base64
import json
import math
import os
import sys
import warnings

import numpy as np
import pytest


HERE = os.path.dirname(__file__)
with open(os.path.join(HERE, "goldens", "internals.json")) as _f:
    GOLDEN = json.load(_f)

RTOL, ATOL = 1e-5, 1e-6

#: cases whose error differs in its message only, and why
KNOWN_MESSAGE = {
    "nn_loss_import": "paddle.nn.loss is an attribute only in Paddle too; our "
                      "ModuleNotFoundError is the hook's UnsupportedModuleError, whose message "
                      "says paddle_compat has no such module",
}


pytestmark = pytest.mark.usefixtures("paddle_hook")   # conftest: import paddle -> paddle_compat


def T(t):
    return [str(t.dtype).replace("paddle.", ""), list(t.shape), np.asarray(t.numpy()).tolist()]


def run_source(src, scope, tmp_path):
    path = tmp_path / "case.py"
    path.write_text(src)
    exec(compile(src, str(path), "exec"), scope)


def close(got, want, where="out"):
    """JSON-equal, floats within float32 single-op tolerance."""
    if isinstance(want, float) or (isinstance(want, int) and isinstance(got, float)):
        assert isinstance(got, (int, float)), (where, got, want)
        assert math.isclose(got, want, rel_tol=RTOL, abs_tol=ATOL), (where, got, want)
    elif isinstance(want, list):
        assert isinstance(got, (list, tuple)) and len(got) == len(want), (where, got, want)
        for k, (g, w) in enumerate(zip(got, want)):
            close(g, w, f"{where}[{k}]")
    elif isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), (where, got, want)
        for k in want:
            close(got[k], want[k], f"{where}[{k!r}]")
    else:
        assert got == want, (where, got, want)


@pytest.mark.parametrize("case", sorted(GOLDEN["cases"]))
def test_golden(case, tmp_path):
    want = GOLDEN["cases"][case]
    scope = {"T": T, "__name__": "internals_case"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            run_source(GOLDEN["prelude"] + want["code"], scope, tmp_path)
        except Exception as e:  # noqa: BLE001  (comparing with what Paddle raised)
            got = {"error": type(e).__name__, "message": str(e).strip().split("\n")[0]}
            assert "error" in want, f"{case} raised {got}, Paddle gave {want.get('value')}"
            if case in KNOWN_MESSAGE:
                assert want["error"] in {k.__name__ for k in type(e).__mro__}, (case, got)
            else:
                assert got == {"error": want["error"], "message": want["message"]}, case
            return
    assert "error" not in want, f"{case}: Paddle raised {want['error']}: {want['message']}"
    close(scope.get("out"), want["value"], case)


def test_multiclass_nms_matches_a_plain_reference():
    """multiclass_nms3 against a per-box loop written from Paddle's kernel description
    (greedy NMS per class, best keep_top_k per image by score, rows by class then score)."""
    import paddle
    from paddle_compat.vision.ops.detection import _jaccard
    import torch
    rng = np.random.default_rng(5)
    lo = rng.uniform(0, 20, (3, 30, 2)).astype("float32")
    b = np.concatenate([lo, lo + rng.uniform(1, 8, (3, 30, 2)).astype("float32")], -1)
    s = rng.uniform(0, 1, (3, 5, 30)).astype("float32")
    st, nt, th, kt = 0.2, 12, 0.45, 9
    out, idx, num = paddle._legacy_C_ops.multiclass_nms3(
        paddle.to_tensor(b), paddle.to_tensor(s), None, "background_label", 2,
        "score_threshold", st, "nms_top_k", nt, "nms_threshold", th, "keep_top_k", kt,
        "normalized", False)
    rows, ids = [], []
    for i in range(3):
        picked = []
        for c in range(5):
            if c == 2:
                continue
            order = sorted((j for j in range(30) if s[i, c, j] > st),
                           key=lambda j: -s[i, c, j])[:nt]
            kept = []
            for j in order:
                bj = torch.tensor(b[i, j])[None]
                if all(float(_jaccard(torch.tensor(b[i, k])[None], bj, False)) <= th
                       for k in kept):
                    kept.append(j)
            picked += [(s[i, c, j], c, j) for j in kept]
        if len(picked) > kt:
            picked = sorted(picked, key=lambda p: -p[0])[:kt]
        picked = sorted(picked, key=lambda p: p[1])        # stable: by class, score within
        rows += [[c, sc, *b[i, j]] for sc, c, j in picked]
        ids += [j + 30 * i for _, _, j in picked]
        assert int(num.numpy()[i]) == len(picked)
    np.testing.assert_allclose(out.numpy(), np.array(rows, "float32").reshape(-1, 6), 1e-6)
    assert idx.numpy().ravel().tolist() == ids


def _rec_model(tmp_path):
    import paddle
    rec = GOLDEN["rec_model"]
    scope = {"__name__": "rec_model"}
    run_source(GOLDEN["prelude"] + rec["model"], scope, tmp_path)
    m = scope["Rec"]()
    m.set_state_dict({k: paddle.to_tensor(np.array(v, "float32"))
                      for k, v in rec["state_dict"].items()})
    m.eval()
    return m


def test_recognizer_forward_matches_paddle(tmp_path):
    import paddle
    rec = GOLDEN["rec_model"]
    m = _rec_model(tmp_path)
    for w, x in rec["inputs"].items():
        got = m(paddle.to_tensor(np.array(x, "float32"))).numpy()
        np.testing.assert_allclose(got, np.array(rec["outputs"][w]), rtol=1e-5, atol=1e-6)


def test_paddles_saved_recognizer_loads_with_dynamic_width(tmp_path):
    """Paddle's own jit.save files (pd_op.hardtanh, pool2d over a -1 width) run here at two
    widths with Paddle's outputs."""
    import paddle
    rec = GOLDEN["rec_model"]
    for name, data in rec["files"].items():
        (tmp_path / name).write_bytes(base64.b64decode(data))
    loaded = paddle.jit.load(str(tmp_path / "rec"))
    for w, x in rec["inputs"].items():
        got = loaded(paddle.to_tensor(np.array(x, "float32"))).numpy()
        np.testing.assert_allclose(got, np.array(rec["outputs"][w]), rtol=1e-5, atol=1e-6)


def test_our_saved_recognizer_keeps_dynamic_width_and_hardtanh(tmp_path):
    """jit.save of the recognizer with a None width: the file holds pd_op.hardtanh(0, 1) and
    pool2d on a -1 width, and the loaded program gives the eager outputs at any width."""
    import paddle
    rec = GOLDEN["rec_model"]
    m = _rec_model(tmp_path)
    prefix = str(tmp_path / "ours" / "rec")
    paddle.jit.save(m, prefix, input_spec=[paddle.static.InputSpec([None, 3, 6, None],
                                                                     "float32")])
    with open(prefix + ".json") as f:
        doc = json.load(f)
    text = json.dumps(doc)
    assert '"1.hardtanh"' in text and '"t_min"' in text and '"t_max"' in text
    assert '"1.pool2d"' in text
    loaded = paddle.jit.load(prefix)
    for w, x in rec["inputs"].items():
        got = loaded(paddle.to_tensor(np.array(x, "float32"))).numpy()
        np.testing.assert_allclose(got, np.array(rec["outputs"][w]), rtol=1e-5, atol=1e-6)


def test_avg_pool_over_an_unknown_width_in_a_program():
    """A static program's -1 width goes through avg_pool2d (Paddle's shape inference takes the
    unknown size to fit the window) and the program runs at any width."""
    import paddle
    import paddle.nn.functional as F
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [None, 2, 6, None], "float32")
            y = F.avg_pool2d(x, (3, 2))
        exe = paddle.static.Executor()
        for w in (4, 10):
            a = np.random.default_rng(w).uniform(-1, 1, (1, 2, 6, w)).astype("float32")
            (got,) = exe.run(main, feed={"x": a}, fetch_list=[y])
            want = a.reshape(1, 2, 2, 3, w // 2, 2).mean((3, 5))
            np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    finally:
        paddle.disable_static()


def test_legacy_op_not_provided_names_itself():
    import paddle
    with pytest.raises(AttributeError, match="_legacy_C_ops.sync_batch_norm"):
        paddle._legacy_C_ops.sync_batch_norm


def test_layer_helper_append_op_says_what_is_missing():
    from paddle.common_ops_import import LayerHelper
    h = LayerHelper("anchor_generator")
    with pytest.raises(NotImplementedError, match="anchor_generator"):
        h.append_op(type="anchor_generator", inputs={}, outputs={}, attrs={})


def test_layer_helper_creates_parameters():
    import paddle
    from paddle.common_ops_import import LayerHelper
    h = LayerHelper("pact")
    p = h.create_parameter(attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(
        20.0)), shape=[1], dtype="float32")
    assert isinstance(p, paddle.base.framework.EagerParamBase)
    assert p.numpy().tolist() == [20.0] and not p.stop_gradient


def test_import_module_from_library_names_the_missing_path(tmp_path):
    from paddle.utils.cpp_extension.extension_utils import _import_module_from_library
    with pytest.raises(FileNotFoundError, match="nope.so"):
        _import_module_from_library("nope", str(tmp_path))


def test_dataset_split_and_cluster_reader(tmp_path):
    from paddle.dataset.common import cluster_files_reader, split

    def reader():
        yield from range(10)

    split(reader, 4, str(tmp_path / "part-%05d.json"),
          dumper=lambda obj, f: f.write(json.dumps(obj)))
    parts = sorted(p.name for p in tmp_path.glob("part-*"))
    # Paddle's chunking: 0..4 (the first file also takes sample line_count), 5..8, 9
    assert parts == ["part-00000.json", "part-00001.json", "part-00002.json"]
    assert json.loads((tmp_path / "part-00000.json").read_text()) == [0, 1, 2, 3, 4]
    got = list(cluster_files_reader(str(tmp_path / "part-*"), 1, 0, loader=json.load)())
    assert got == list(range(10))
    mine = list(cluster_files_reader(str(tmp_path / "part-*"), 2, 1, loader=json.load)())
    assert mine == [5, 6, 7, 8]


def test_hybrid_parallel_util_in_a_two_rank_job(tmp_path):
    """fused_allreduce_gradients averages the gradients over the job; broadcast_dp_parameters
    gives every rank the first rank's parameters (tests/scripts/dist_hybrid_util.py, our
    launcher, gloo on CPU)."""
    import subprocess
    out = tmp_path / "out"
    out.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PADDLE_", "FLAGS_"))}
    env["PYTHONPATH"] = os.path.dirname(HERE) + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.run([sys.executable, "-m", "paddle_compat.distributed.launch",
                        "--nproc_per_node", "2", "--log_dir", str(tmp_path / "log"),
                        os.path.join(HERE, "scripts", "dist_hybrid_util.py"), str(out)],
                       capture_output=True, text=True, cwd=tmp_path, env=env, timeout=150)
    assert p.returncode == 0, (p.stdout[-2000:], p.stderr[-2000:])
    r0, r1 = (json.loads((out / f"rank{r}.json").read_text()) for r in range(2))
    # d(sum(xW + b))/dW: each input row summed, 2 rows of (rank + 1): mean over ranks 3
    np.testing.assert_allclose(r0["grad_w"], np.full((3, 2), 3.0), rtol=1e-6)
    assert r0["grad_w"] == r1["grad_w"] and r0["grad_b"] == r1["grad_b"] == [2.0, 2.0]
    assert r0["w"] == r1["w"]
