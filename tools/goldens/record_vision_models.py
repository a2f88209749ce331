"""Record real Paddle's model zoo (paddle.vision.models) for tests/test_vision_models.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_vision_models.py

Writes tests/goldens/vision_models.json and tests/goldens/vision_lenet.pdparams.

Every case is code run in both worlds with ``paddle``, ``np`` and ``summarize`` bound (the
code is stored with its result, so the test runs exactly what was recorded). A case seeds
Paddle, builds a model (parameters drawn in Paddle's order, so the weights are the same in both
worlds), and ``summarize`` records its state_dict keys and shapes, each entry's sum and
absolute sum (float64), and an eval-mode forward on fixed input (whole when small, else its
shape, sum, absolute sum and 16 samples). ``train`` cases record the losses of three SGD steps
on fixed data. ``lenet_pdparams`` is a forward of LeNet with the weights saved to
vision_lenet.pdparams.
"""
import json
import os
import warnings

warnings.filterwarnings("ignore")
import numpy as np  # noqa: E402
import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
OUT = os.path.join(ROOT, "tests", "goldens", "vision_models.json")
PDPARAMS = os.path.join(ROOT, "tests", "goldens", "vision_lenet.pdparams")

PRELUDE = '''
def _stats(t):
    a = np.asarray(t.numpy(), dtype="float64")
    d = {"shape": list(a.shape), "sum": float(a.sum()), "abs": float(np.abs(a).sum())}
    if a.size <= 64:
        d["values"] = a.reshape(-1).tolist()
    else:
        idx = np.linspace(0, a.size - 1, 16).astype("int64")
        d["samples"] = a.reshape(-1)[idx].tolist()
    return d


def summarize(m, shape):
    sd = m.state_dict()
    params = [[k, list(v.shape), float(np.asarray(v.numpy(), dtype="float64").sum()),
               float(np.abs(np.asarray(v.numpy(), dtype="float64")).sum())]
              for k, v in sd.items()]
    m.eval()
    x = paddle.to_tensor(np.random.RandomState(0).standard_normal(shape).astype("float32"))
    y = m(x)
    ys = [_stats(t) for t in y] if isinstance(y, (tuple, list)) else _stats(y)
    return {"params": params, "out": ys}


def train3(m, shape, classes, lr, frozen_bn=False):
    rs = np.random.RandomState(1)
    x = paddle.to_tensor(rs.standard_normal(shape).astype("float32"))
    y = paddle.to_tensor(rs.randint(0, classes, (shape[0],)).astype("int64"))
    opt = paddle.optimizer.SGD(learning_rate=lr, parameters=m.parameters())
    loss_fn = paddle.nn.CrossEntropyLoss()
    # frozen_bn: eval mode (batch norm on its running statistics, no dropout)
    m.eval() if frozen_bn else m.train()
    losses = []
    for _ in range(3):
        loss = loss_fn(m(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss.numpy()))
    return losses
'''

V = "paddle.vision.models"
# (case id, code); the code leaves its result in ``out``
CASES = [
    ("lenet", f"paddle.seed(11); out = summarize({V}.LeNet(num_classes=4), (2, 1, 28, 28))"),
    ("lenet_headless", f"paddle.seed(11); out = summarize({V}.LeNet(num_classes=0), (2, 1, 28, 28))"),
    ("resnet18", f"paddle.seed(12); out = summarize({V}.resnet18(num_classes=4), (2, 3, 32, 32))"),
    ("resnet34_nopool", f"paddle.seed(13); out = summarize({V}.resnet34(num_classes=0, with_pool=False), (1, 3, 32, 32))"),
    ("resnet50", f"paddle.seed(14); out = summarize({V}.resnet50(num_classes=4), (1, 3, 32, 32))"),
    ("resnext50_32x4d", f"paddle.seed(15); out = summarize({V}.resnext50_32x4d(num_classes=4), (1, 3, 32, 32))"),
    ("resnet_class_wide", f"paddle.seed(16); out = summarize({V}.ResNet({V}.resnet.BottleneckBlock, 50, width=128, num_classes=3), (1, 3, 32, 32))"),
    ("vgg11_features", f"paddle.seed(17); out = summarize({V}.vgg11(num_classes=0), (1, 3, 32, 32))"),
    ("vgg13_bn_features", f"paddle.seed(18); out = summarize({V}.vgg13(batch_norm=True, num_classes=0, with_pool=False), (1, 3, 32, 32))"),
    ("vgg11_full", f"paddle.seed(19); out = summarize({V}.vgg11(num_classes=4), (1, 3, 32, 32))"),
    ("mobilenet_v1", f"paddle.seed(20); out = summarize({V}.mobilenet_v1(num_classes=4), (1, 3, 32, 32))"),
    ("mobilenet_v1_x0_25", f"paddle.seed(21); out = summarize({V}.MobileNetV1(scale=0.25, num_classes=4), (1, 3, 32, 32))"),
    ("mobilenet_v2", f"paddle.seed(22); out = summarize({V}.mobilenet_v2(num_classes=4), (2, 3, 32, 32))"),
    ("mobilenet_v2_x0_5", f"paddle.seed(23); out = summarize({V}.mobilenet_v2(scale=0.5, num_classes=4), (1, 3, 32, 32))"),
    ("mobilenet_v3_small", f"paddle.seed(24); out = summarize({V}.mobilenet_v3_small(num_classes=4), (2, 3, 32, 32))"),
    ("mobilenet_v3_large", f"paddle.seed(25); out = summarize({V}.mobilenet_v3_large(num_classes=4), (1, 3, 32, 32))"),
    ("mobilenet_v3_large_x0_75", f"paddle.seed(26); out = summarize({V}.MobileNetV3Large(scale=0.75, num_classes=4), (1, 3, 32, 32))"),
    ("alexnet_features", f"paddle.seed(27); out = summarize({V}.alexnet(num_classes=0), (1, 3, 64, 64))"),
    ("alexnet", f"paddle.seed(28); out = summarize({V}.AlexNet(num_classes=4), (1, 3, 224, 224))"),
    ("squeezenet1_0", f"paddle.seed(29); out = summarize({V}.squeezenet1_0(num_classes=4), (1, 3, 64, 64))"),
    ("squeezenet1_1", f"paddle.seed(30); out = summarize({V}.squeezenet1_1(num_classes=4), (1, 3, 64, 64))"),
    ("squeezenet1_1_nopool", f"paddle.seed(31); out = summarize({V}.SqueezeNet('1.1', num_classes=4, with_pool=False), (1, 3, 64, 64))"),
] + [
    (f"shufflenet_v2_{w}", f"paddle.seed(32); out = summarize({V}.shufflenet_v2_{w}(num_classes=4), (1, 3, 32, 32))")
    for w in ("x0_25", "x0_33", "x0_5", "x1_0", "x1_5", "x2_0", "swish")
] + [
    ("shufflenet_v2_noact", f"paddle.seed(33); out = summarize({V}.ShuffleNetV2(scale=0.5, act=None, num_classes=4), (1, 3, 32, 32))"),
    ("densenet121", f"paddle.seed(34); out = summarize({V}.densenet121(num_classes=4), (1, 3, 32, 32))"),
    ("densenet161_dropout", f"paddle.seed(35); out = summarize({V}.DenseNet(layers=161, dropout=0.2, num_classes=4), (1, 3, 32, 32))"),
    ("googlenet", f"paddle.seed(36); out = summarize({V}.googlenet(num_classes=4), (1, 3, 224, 224))"),
    ("inception_v3", f"paddle.seed(37); out = summarize({V}.inception_v3(num_classes=4), (1, 3, 75, 75))"),
    # constructor signatures (parameter names and defaults) of every public name
    ("signatures", "import inspect\n"
     "out = {n: [[p.name, repr(p.default) if p.default is not p.empty else None]\n"
     "           for p in inspect.signature(getattr(paddle.vision.models, n)).parameters.values()]\n"
     "       for n in paddle.vision.models.__all__}"),
    # the exception types of bad arguments
    ("errors", "def _err(f):\n"
     "    try:\n        f()\n        return None\n"
     "    except Exception as e:\n        return [c.__name__ for c in type(e).__mro__ if c.__module__ == 'builtins'][0]\n"
     "M = paddle.vision.models\n"
     "out = [_err(lambda: M.vgg16(pretrained=True, batch_norm=True)), _err(lambda: M.ShuffleNetV2(scale=0.7)),\n"
     "       _err(lambda: M.ShuffleNetV2(scale=0.5, act='gelu')), _err(lambda: M.SqueezeNet('1.2')),\n"
     "       _err(lambda: M.DenseNet(layers=100)), _err(lambda: M.resnet.BasicBlock(8, 8, dilation=2)),\n"
     "       _err(lambda: M.mobilenet_v2(pretrained=True, scale=0.5)), _err(lambda: M.ResNet(M.resnet.BasicBlock, 20))]"),
    # IntermediateLayerGetter on a ResNet-18
    ("intermediate_layers", "paddle.seed(3); m = paddle.vision.models.resnet18(num_classes=4); m.eval()\n"
     "g = paddle.vision.models._utils.IntermediateLayerGetter(m, {'layer1': 'feat1', 'layer3': 'feat2'})\n"
     "x = paddle.to_tensor(np.random.RandomState(0).standard_normal((1, 3, 32, 32)).astype('float32'))\n"
     "r = g(x)\n"
     "out = [[k, list(v.shape), float(v.sum())] for k, v in r.items()] + [list(g.keys())]"),
    # the names paddle.vision re-exports
    ("vision_reexport", "out = sorted(n for n in dir(paddle.vision) if n in set(paddle.vision.models.__all__))"),
    # three SGD steps in train mode (batch-norm batch statistics, dropout draws)
    ("train_resnet18", f"paddle.seed(40); out = train3({V}.resnet18(num_classes=4), (8, 3, 64, 64), 4, 1e-4)"),
    ("train_mobilenet_v2", f"paddle.seed(41); out = train3({V}.mobilenet_v2(num_classes=4), (8, 3, 64, 64), 4, 1e-3)"),
    ("train_mobilenet_v2_frozen_bn", f"paddle.seed(42); out = train3({V}.mobilenet_v2(num_classes=4), (4, 3, 32, 32), 4, 0.1, frozen_bn=True)"),
]

LENET_CODE = ("m = paddle.vision.models.LeNet(num_classes=10); m.set_state_dict(paddle.load(PATH)); "
              "out = summarize(m, (3, 1, 28, 28))")


def run(code, extra=None):
    env = {"paddle": paddle, "np": np}
    exec(PRELUDE, env)
    env.update(extra or {})
    exec(code, env)
    return env["out"]


def main():
    paddle.set_device("cpu")
    cases = {}
    for cid, code in CASES:
        cases[cid] = {"code": code, "result": run(code)}
        print(cid, "done", flush=True)
    paddle.seed(7)
    lenet = paddle.vision.models.LeNet(num_classes=10)
    paddle.save(lenet.state_dict(), PDPARAMS)
    lenet_case = {"code": LENET_CODE, "result": run(LENET_CODE, {"PATH": PDPARAMS})}
    with open(OUT, "w") as f:
        json.dump({"paddle": paddle.__version__, "prelude": PRELUDE, "cases": cases,
                   "lenet_pdparams": lenet_case}, f)


if __name__ == "__main__":
    main()
