"""The float32 depth tiers of tests/golden_utils.py (DEVELOPERS.md, "Float32 tolerances"):
which goldens count as deep, and that a tier only ever widens a tolerance."""
import json
import os

import pytest

import golden_utils as gu

GOLDENS = os.path.join(os.path.dirname(__file__), "goldens")


def _cases(name):
    with open(os.path.join(GOLDENS, name)) as f:
        return json.load(f)["cases"]


def test_tiers_grow_with_depth():
    (r_op, a_op), (r_deep, a_deep) = gu.DEPTH_TOL["op"], gu.DEPTH_TOL["deep"]
    assert gu.DEPTH_TOL["op"] == gu._TOL["float32"]       # single ops stay at the dtype's own
    assert r_deep > r_op and a_deep > a_op


@pytest.mark.parametrize("depth", sorted(gu.DEPTH_TOL))
def test_depth_tol_never_tightens(depth):
    loose = {"float32": (1e-3, 1e-3), "float64": (1e-7, 1e-9)}
    assert gu.depth_tol(depth, loose) == loose
    got = gu.depth_tol(depth, {"float32": (0.0, 0.0), "float16": (1e-3, 1e-3)})
    assert got == {"float32": gu.DEPTH_TOL[depth], "float16": (1e-3, 1e-3)}


def test_nn_layer_goldens_classified_by_what_they_call():
    depth = {c["id"]: gu.depth_of(c["code"]) for c in _cases("nn_layers.json")}
    for cid in ("fb_mha", "fb_mha_kv", "fb_mha_mask_weights", "mha_cache", "fb_encoder",
                "fb_encoder_layer", "fb_encoder_layer_pre", "encoder_mask_int",
                "init_orthogonal"):
        assert depth[cid] == "deep", cid
    for cid in ("fb_linear", "fb_conv2d", "fb_conv3d_t", "fb_layernorm", "fb_bn_train_stats",
                "loss_ce", "utils_clip_norm", "init_linear"):
        assert depth[cid] == "op", cid


def test_fused_attention_op_goldens_are_deep_and_convs_are_not():
    for name in ("ops_blha.json", "ops_mmha.json"):
        assert {gu.depth_of(c["api"]) for c in _cases(name)} == {"deep"}
    apis = {c["api"] for c in _cases("ops_nn2.json")}
    assert gu.depth_of("paddle.nn.functional.scaled_dot_product_attention") == "deep"
    assert all(gu.depth_of(a) == "op" for a in apis if ".conv" in a or "_norm" in a)
