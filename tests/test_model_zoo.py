"""Real model files from Paddle's model repositories (PaddleClas, PaddleSeg, PaddleDetection,
PaddleOCR), trained 3 steps on paddle_compat, against the per-step losses real Paddle 3.3.1
gives (issue 21). tools/model_zoo/ holds the drivers; tests/goldens/model_zoo/ the goldens.

The model files are not in this repository: ``python tools/model_zoo/extract.py`` writes them to
``$MODEL_ZOO_SRC`` (default /work/zoo_src) from local mirrors; the training tests run when
``MODEL_ZOO_SRC`` is set (about 4 minutes) and skip otherwise; the goldens' own checks always
run.

Tolerances (float32, deep compositions; ``drive.tolerance``):
* step 1 (same weights, same data: forward + loss): within 3x Paddle's own spread under a
  1e-7 relative input perturbation, and at least 2e-5 relative; measured <= 1.4e-5.
* steps 2-3 follow an update through every gradient. A ReLU or max-pool input that sits
  within rounding of its kink flips between two correct implementations and moves one
  channel's gradient by O(1) (measured on RepVGG_A0: 1 of 1280 BN-bias gradients, 0.011 vs
  0.013, every other gradient within 1e-5), which one 1e-7 input perturbation need not hit;
  and in the chaotic setups (BatchNorm over 2x2 maps, 4 images: HRNet, RedNet, Res2Net, DLA,
  DPN, GhostNet, YOLOv3) Paddle's own spread at step 2-3 is 1e-3..1e-1 relative, one sample
  of it. So steps 2-3 must be within max(10x spread, 5e-3 relative); measured: at most 5.5x
  the spread where the spread is the larger term.
"""
import glob
import json
import math
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ZOO = os.path.join(ROOT, "tools", "model_zoo")
GOLDEN_DIR = os.path.join(ROOT, "tests", "goldens", "model_zoo")
sys.path.insert(0, ZOO)

import drive  # noqa: E402
import setups  # noqa: E402
from sources import REPOS, zoo_root  # noqa: E402

NAMES = sorted(setups.SETUPS)

#: setups whose later steps are further from Paddle's than the general tolerance, each with
#: the relative tolerance it is held to, the measured deviation and the reason.
KNOWN = {
    # step 1's backward differs in one BN-bias gradient of 1280 in stage4 (0.0110 vs 0.0134:
    # a ReLU input within rounding of 0 falls on the other side; every other gradient within
    # 1e-5 relative, measured with a per-parameter gradient dump); the update moves step 2 by
    # 1.1e-3 and step 3 by 5.6e-2 relative (ours 1.0792, Paddle 1.0217). Step 1 stays tight.
    # Paddle itself, re-rounded by half an ulp per layer (tools/model_zoo/gradtrace.py
    # --jitter 6e-8), lands on 1.0788 for 2 of 6 seeds: a kink flip, not a semantic difference.
    "RepVGG_A0": {2: 0.07},
}
GOLDENS = {os.path.basename(p)[:-5]: json.load(open(p))
           for p in sorted(glob.glob(os.path.join(GOLDEN_DIR, "*.json")))}


def test_goldens_exist_and_are_well_formed():
    assert len(NAMES) >= 20
    missing = [n for n in NAMES if n not in GOLDENS]
    assert not missing, f"setups without a golden: {missing}"
    assert sorted(GOLDENS) == NAMES, "goldens of removed setups"
    for name, g in GOLDENS.items():
        assert g["name"] == name
        if g["repo"] == "paddle":           # paddle.vision's models: Paddle-saved .pdparams
            assert g["commit"] == "paddle 3.3.1"
            assert os.path.exists(os.path.join(ROOT, g["pdparams_loaded"])), name
        else:
            assert g["commit"] == REPOS[g["repo"]]["commit"]
        for k in ("losses", "perturbed_losses", "spread", "step_ms"):
            assert len(g[k]) == 3 and all(math.isfinite(v) for v in g[k]), (name, k)
        assert all(s >= 0 for s in g["spread"])
        assert all(abs(a - b) == pytest.approx(s, abs=1e-12)
                   for a, b, s in zip(g["losses"], g["perturbed_losses"], g["spread"]))
        assert g["perturb_rel"] == 1e-7 and g["n_params"] > 0 and g["param_checksum"] > 0
        if g["pdparams"]:
            assert os.path.exists(os.path.join(GOLDEN_DIR, g["pdparams"])), name
    total = sum(os.path.getsize(p) for p in glob.glob(os.path.join(GOLDEN_DIR, "*")))
    assert total < 400_000, f"model-zoo goldens take {total} bytes"


def test_repos_cover_the_zoo():
    repos = {setups.SETUPS[n]["repo"] for n in NAMES}
    assert {"PaddleClas", "PaddleSeg", "PaddleDetection", "PaddleOCR", "ERNIE", "paddle"} <= repos


def _sources_present(repo):
    # the 25 driver runs take ~4 minutes: they run when asked for (MODEL_ZOO_SRC set), not in
    # every test run of a machine that happens to hold the sources
    if "MODEL_ZOO_SRC" not in os.environ:
        return repo == "paddle"
    return repo == "paddle" or os.path.isdir(os.path.join(zoo_root(), repo))


@pytest.mark.parametrize("name", NAMES)
def test_trains_like_paddle(name):
    repo = setups.SETUPS[name]["repo"]
    if not _sources_present(repo):
        pytest.skip(f"{repo} model files: run with MODEL_ZOO_SRC=DIR after "
                    "python tools/model_zoo/extract.py (about 4 minutes)")
    g, r, c = drive.check_one(name)
    assert r.get("ok"), f"{name} does not run unchanged: {r.get('error')}\n{r.get('traceback')}"
    assert c["checksum_ok"], "initial weights differ from Paddle's"
    ours, want = r["losses"], g["losses"]
    for i in (0, 1, 2):
        tol = max(drive.tolerance(g, i), KNOWN.get(name, {}).get(i, 0) * abs(want[i]))
        assert abs(ours[i] - want[i]) <= tol, (i, ours, want, g["spread"])
