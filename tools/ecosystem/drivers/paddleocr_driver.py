"""paddleocr 3.7.0 / paddlex 3.7.2: the PP-OCRv5 mobile text detector and recognizer from their
PaddleX configs with seeded weights; forward, three training steps each; saved as PaddleX model
dirs (HF-layout safetensors, config.json, inference.yml) and run through PaddleX's own
``create_predictor`` pipeline pieces (paddle_dynamic engine: DB post-processing boxes, CTC
decoding texts) on a synthetic image."""
import json
import os

import numpy as np
import paddle
import paddleocr  # noqa: F401
import paddlex
from paddlex.inference.models.text_detection.modeling import PPOCRV5MobileDet
from paddlex.inference.models.text_detection.modeling._config_pp_ocrv5_mobile import \
    PPOCRV5MobileDetConfig
from paddlex.inference.models.text_recognition.modeling import PPOCRV5MobileRec
from paddlex.inference.models.text_recognition.modeling._config_pp_ocrv5_mobile_rec import \
    PPOCRV5MobileRecConfig
from safetensors.numpy import save_file

from _common import Driver, jittered, seed_params, train_steps

d = Driver("paddleocr")
d.meta["paddlex_version"] = paddlex.__version__
CHARS = list("abcdefghij0123456789")
state = {}


def image():
    """A 64x96 white page with three dark bars (uint8 HWC, BGR)."""
    img = np.full((64, 96, 3), 235, np.uint8)
    for y0, x0, x1 in ((8, 6, 60), (28, 10, 88), (46, 20, 70)):
        img[y0:y0 + 10, x0:x1] = 30
    return img


def save_paddlex_dir(model, name, pre, post):
    """Write a PaddleX model dir: config.json, model.safetensors (HF layout), inference.yml."""
    path = os.path.join(d.tmp, name)
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "config.json"), "w") as f:
        json.dump(model.config.to_dict(), f)
    hf = {k: v.numpy() for k, v in model.get_hf_state_dict().items()}
    try:
        transposed = model.get_transpose_weight_keys()    # Linear weights, stored [out, in]
    except NotImplementedError:                            # a model with none
        transposed = []
    for key in transposed:
        hf[key] = np.ascontiguousarray(hf[key].T)
    save_file(hf, os.path.join(path, "model.safetensors"))
    cfg = {"Global": {"model_name": name}, "PreProcess": {"transform_ops": pre},
           "PostProcess": post}
    with open(os.path.join(path, "inference.yml"), "w") as f:
        json.dump(cfg, f)          # JSON is YAML
    return path


@d.stage("det_model")
def _():
    model = PPOCRV5MobileDet(PPOCRV5MobileDetConfig())
    seed_params(model)
    x = paddle.to_tensor(jittered(image()[None].transpose(0, 3, 1, 2).astype("float32") / 255.0))
    model.eval()
    out = model.head(model.model(x))
    d.put("det.prob", out)
    target = paddle.to_tensor((image()[None, None, :, :, 0] < 128).astype("float32"))
    model.train()
    d.put("det.losses", train_steps(
        model, lambda: paddle.nn.functional.binary_cross_entropy(
            model.head(model.model(x))[:, :1], target), opt="momentum", lr=0.05))
    model.eval()
    # seeded weights give a flat map: threshold the pipeline at the trained map's 70th
    # percentile so that the DB post-processing finds regions (3 decimals on both sides)
    state["det_thresh"] = round(float(np.percentile(model.head(model.model(x)).numpy(), 70)), 3)
    state["det"] = model


@d.stage("rec_model")
def _():
    config = PPOCRV5MobileRecConfig(head_out_channels=len(CHARS) + 2, hidden_size=32, depth=1,
                                    num_attention_heads=4)
    model = PPOCRV5MobileRec(config)
    seed_params(model)
    bias = model.head.head.bias.numpy()
    bias[0] -= 0.5      # the CTC blank a little less likely: seeded weights decode to characters
    model.head.head.bias.set_value(bias)
    x = paddle.to_tensor(jittered(np.random.RandomState(2).uniform(-1, 1, (2, 3, 48, 160)).astype("float32")))
    model.eval()
    d.put("rec.logits", model.head(model.model(x)))
    model.train()
    tgt = paddle.to_tensor(np.random.RandomState(3).randint(0, len(CHARS) + 2, (2, 20)).astype("int64"))

    def loss():
        out = model.head(model.model(x))
        return paddle.nn.functional.cross_entropy(out.reshape([-1, out.shape[-1]]),
                                                  tgt.reshape([-1, 1])[: out.shape[0] * out.shape[1]])
    d.put("rec.losses", train_steps(model, loss, lr=1e-3))
    model.eval()
    state["rec"] = model


NORM = {"NormalizeImage": {"mean": [0.485, 0.456, 0.406], "std": [0.229, 0.224, 0.225],
                           "scale": "1./255.", "order": "hwc"}}


@d.stage("det_predictor")
def _():
    path = save_paddlex_dir(
        state["det"], "PP-OCRv5_mobile_det",
        [{"DecodeImage": {"channel_first": False, "img_mode": "BGR"}}, {"DetLabelEncode": None},
         {"DetResizeForTest": {"resize_long": 96}}, NORM, {"ToCHWImage": None},
         {"KeepKeys": {"keep_keys": ["image", "shape", "polys", "ignore_tags"]}}],
        {"name": "DBPostProcess", "thresh": state["det_thresh"],
         "box_thresh": state["det_thresh"], "max_candidates": 1000, "unclip_ratio": 1.5})
    pred = paddlex.create_predictor("PP-OCRv5_mobile_det", model_dir=path, device="cpu",
                                    engine="paddle_dynamic")
    (res,) = list(pred.predict(image()))
    d.put("det.pipeline_polys", np.asarray(res["dt_polys"], "int64"))
    d.put("det.pipeline_scores", np.asarray(res["dt_scores"], "float64"))


@d.stage("rec_predictor")
def _():
    path = save_paddlex_dir(
        state["rec"], "PP-OCRv5_mobile_rec",
        [{"DecodeImage": {"channel_first": False, "img_mode": "BGR"}}, {"MultiLabelEncode": None},
         {"RecResizeImg": {"image_shape": [3, 48, 160]}},
         {"KeepKeys": {"keep_keys": ["image", "label_ctc", "label_gtc", "length", "valid_ratio"]}}],
        {"name": "CTCLabelDecode", "character_dict": CHARS})
    pred = paddlex.create_predictor("PP-OCRv5_mobile_rec", model_dir=path, device="cpu",
                                    engine="paddle_dynamic")
    crops = [image()[6:20, 4:62], image()[26:40, 8:90]]
    res = list(pred.predict(crops))
    d.put("rec.pipeline_texts", [r["rec_text"] for r in res])
    d.put("rec.pipeline_scores", [float(r["rec_score"]) for r in res])


d.finish()
