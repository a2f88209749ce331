"""paddleclas 2.6.0: PP-LCNet and ResNet18 built by the library's ``build_model`` from an
``Arch`` config with seeded weights; forward, three Momentum steps, save/reload; TheseusLayer's
``return_patterns`` (intermediate features, the library's own feature API)."""
import os

import numpy as np
import paddle
import paddleclas  # noqa: F401
from paddleclas.ppcls.arch import build_model

from _common import Driver, jittered, seed_params, train_steps

d = Driver("paddleclas")
IMAGES = jittered(np.random.RandomState(0).standard_normal((2, 3, 64, 64)).astype("float32"))
LABELS = paddle.to_tensor([1, 7])


def classifier(name, arch):
    """Forward, three Momentum steps, save/reload of ``build_model({"Arch": arch})``."""
    model = build_model({"Arch": arch, "Global": {"device": "cpu"}})
    seed_params(model)
    x = paddle.to_tensor(IMAGES)
    model.eval()
    d.put(f"{name}.logits", model(x))
    model.train()
    d.put(f"{name}.losses", train_steps(
        model, lambda: paddle.nn.functional.cross_entropy(model(x), LABELS),
        opt="momentum", lr=1e-3))
    model.eval()
    path = os.path.join(d.tmp, f"{name}.pdparams")
    paddle.save(model.state_dict(), path)
    again = build_model({"Arch": arch, "Global": {"device": "cpu"}})
    again.set_state_dict(paddle.load(path))
    again.eval()
    d.put(f"{name}.reload_maxdiff", float((again(x) - model(x)).abs().max()))


@d.stage("pplcnet")
def _():
    classifier("pplcnet", {"name": "PPLCNet_x0_25", "class_num": 10})


@d.stage("resnet18")
def _():
    classifier("resnet18", {"name": "ResNet18", "class_num": 10})


@d.stage("return_patterns")
def _():
    model = build_model({"Arch": {"name": "PPLCNet_x0_25", "class_num": 10,
                                  "return_patterns": ["blocks3", "blocks4"]},
                         "Global": {"device": "cpu"}})
    seed_params(model)
    model.eval()
    out = model(paddle.to_tensor(IMAGES))
    d.put("features", {k: out[k] for k in sorted(out) if k != "logits"} if isinstance(out, dict)
          else out)


d.finish()
