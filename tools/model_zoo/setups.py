"""The model-zoo setups: which real model file, built how small, fed what, trained with which
loss. Imported by runner.py under real Paddle and under paddle_compat alike, so nothing here
imports paddle: every builder receives the ``paddle`` module the runner imported.

Each setup: ``repo`` (a key of sources.REPOS, whose extracted root goes on sys.path), ``file``
(the model file, for the report), ``build(paddle) -> (model, data, loss_fn)`` where ``data`` is
a dict of numpy arrays (float ones get perturbed for the spread run) and
``loss_fn(model, inputs, paddle)`` returns the scalar loss of one step.
"""
import os
import sys
import zlib

import numpy as np

from sources import REPOS, zoo_root

SETUPS = {}


def add_repo_to_path(repo):
    if repo == "paddle":                # paddle.vision's own models: nothing to extract
        return
    root = os.path.join(zoo_root(), repo, REPOS.get(repo, {}).get("syspath", ""))
    if root not in sys.path:
        sys.path.insert(0, root)
    stubs = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stubs")
    if stubs not in sys.path:
        sys.path.append(stubs)          # only reached for packages neither side has


def setup(name, repo, file, **kw):
    def deco(fn):
        SETUPS[name] = dict(name=name, repo=repo, file=file, build=fn, **kw)
        return fn
    return deco


# ---------------------------------------------------------------- weights, data, optimizer
def _fan_in(shape):
    if len(shape) == 2:
        return shape[0]                       # paddle Linear weight: [in, out]
    if len(shape) >= 3:
        return int(np.prod(shape[1:]))        # conv weight: [out, in/groups, k...]
    return 1


def fill_state(sd, paddle):
    """Deterministic weights from each entry's name and shape (numpy, same on both sides)."""
    out = {}
    for k, v in sd.items():
        dt = str(v.dtype).replace("paddle.", "")
        if not dt.startswith("float"):
            continue
        shape = [int(s) for s in v.shape]
        rng = np.random.default_rng(zlib.crc32(f"{k}:{shape}".encode()))
        low = k.lower()
        if "variance" in low or low.endswith("_var") or "running_var" in low:
            a = 1.0 + 0.5 * rng.random(shape)
        elif "mean" in low:
            a = 0.1 * rng.standard_normal(shape)
        elif len(shape) <= 1:
            a = 0.1 * rng.standard_normal(shape)
            if low.endswith(("weight", "scale", "_scale", ".w_0", "gamma")):
                a += 1.0
        else:
            bound = np.sqrt(3.0 / max(_fan_in(shape), 1))
            a = rng.uniform(-bound, bound, shape)
        out[k] = paddle.to_tensor(a.astype(dt))
    return out


def checksum(sd):
    return float(sum(float(np.abs(v.numpy().astype(np.float64)).sum()) for v in sd.values()
                     if str(v.dtype).replace("paddle.", "").startswith("float")))


def perturb(data, rel):
    out = {}
    for k, v in data.items():
        if rel and v.dtype.kind == "f":
            v = (v.astype(np.float64) * (1.0 + rel)).astype(v.dtype)
        out[k] = v
    return out


def momentum(paddle, model, lr=0.002):
    return paddle.optimizer.Momentum(learning_rate=lr, momentum=0.9,
                                     parameters=model.parameters())


def sgd(paddle, model, lr=0.05):
    return paddle.optimizer.SGD(learning_rate=lr, parameters=model.parameters())


def images(n=2, c=3, h=32, w=32, seed=0):
    return np.random.default_rng(seed).standard_normal((n, c, h, w)).astype("float32")


def cls_data(n=4, hw=64, classes=10, seed=0):
    rng = np.random.default_rng(seed + 1)
    return {"x": images(n, 3, hw, hw, seed), "label": rng.integers(0, classes, (n, 1))}


def no_dropout(model, paddle):
    """Dropout probabilities to 0 (the drivers compare losses, not random masks)."""
    for layer in model.sublayers(include_self=True):
        if isinstance(layer, paddle.nn.Dropout):
            layer.p = 0.0
    return model


def cls_loss(model, inp, paddle):
    out = model(inp["x"])
    outs = out if isinstance(out, (list, tuple)) else [out]
    loss = 0
    for o in outs:
        loss = loss + paddle.nn.functional.cross_entropy(o, inp["label"])
    return loss


def classifier(name, file, make, hw=64, **kw):
    """A PaddleClas classifier: ``make(paddle)`` builds it with 10 classes."""
    def build(paddle):
        return make(paddle), cls_data(hw=hw), cls_loss
    setup(name, "PaddleClas", "ppcls/arch/backbone/" + file, **kw)(build)


# ---------------------------------------------------------------- PaddleClas
def _clas(module, fn, **kw):
    def make(paddle):
        import importlib
        from ppcls.utils import logger
        logger.init_logger()
        m = importlib.import_module("ppcls.arch.backbone." + module)
        return no_dropout(getattr(m, fn)(pretrained=False, class_num=10, **kw), paddle)
    return make


classifier("ResNet18_vd", "legendary_models/resnet.py", _clas("legendary_models.resnet", "ResNet18_vd"))
classifier("HRNet_W18_C", "legendary_models/hrnet.py", _clas("legendary_models.hrnet", "HRNet_W18_C"))
classifier("ESNet_x0_25", "legendary_models/esnet.py",
           _clas("legendary_models.esnet", "ESNet_x0_25", dropout_prob=0.0))
classifier("DLA34", "model_zoo/dla.py", _clas("model_zoo.dla", "DLA34"))
classifier("GhostNet_x0_5", "model_zoo/ghostnet.py", _clas("model_zoo.ghostnet", "GhostNet_x0_5"))
classifier("RepVGG_A0", "model_zoo/repvgg.py", _clas("model_zoo.repvgg", "RepVGG_A0"))
classifier("PVT_V2_B0", "model_zoo/pvt_v2.py", _clas("model_zoo.pvt_v2", "PVT_V2_B0", img_size=64))
classifier("DeiT_tiny_distilled", "model_zoo/distilled_vision_transformer.py",
           _clas("model_zoo.distilled_vision_transformer", "DeiT_tiny_distilled_patch16_224",
                 img_size=64))
classifier("TNT_small", "model_zoo/tnt.py", _clas("model_zoo.tnt", "TNT_small", img_size=64))
classifier("RedNet26", "model_zoo/rednet.py", _clas("model_zoo.rednet", "RedNet26"))
classifier("EfficientNetB0", "model_zoo/efficientnet.py",
           _clas("model_zoo.efficientnet", "EfficientNetB0", padding_type="DYNAMIC"))
classifier("Res2Net50_vd_26w_4s", "model_zoo/res2net_vd.py",
           _clas("model_zoo.res2net_vd", "Res2Net50_vd_26w_4s"))
classifier("DPN68", "model_zoo/dpn.py", _clas("model_zoo.dpn", "DPN68"))
classifier("ReXNet_1_0", "model_zoo/rexnet.py", _clas("model_zoo.rexnet", "ReXNet_1_0"))
def _cswin(paddle):
    from ppcls.arch.backbone.model_zoo.cswin_transformer import CSwinTransformer
    return CSwinTransformer(image_size=64, embed_dim=32, depths=[1, 1, 2, 1],
                            splits=[1, 2, 4, 2], num_heads=[2, 2, 4, 4], droppath=0.0,
                            class_num=10)


classifier("CSWinTransformer_small_cfg", "model_zoo/cswin_transformer.py", _cswin)


# ---------------------------------------------------------------- PaddleOCR
def _ocr_model(paddle, parts):
    """backbone -> neck -> head as PaddleOCR's BaseModel chains them (driver-side glue)."""
    class Chain(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.backbone, self.neck, self.head = parts

        def forward(self, x):
            return self.head(self.neck(self.backbone(x)))
    return Chain()


def _db_data(n=2, hw=64, seed=0):
    rng = np.random.default_rng(seed + 7)
    shrink = (rng.random((n, hw, hw)) > 0.7).astype("float32")
    return {"x": images(n, 3, hw, hw, seed),
            "threshold_map": rng.uniform(0.3, 0.7, (n, hw, hw)).astype("float32"),
            "threshold_mask": np.ones((n, hw, hw), "float32"),
            "shrink_map": shrink,
            "shrink_mask": np.ones((n, hw, hw), "float32")}


@setup("DBNet_MobileNetV3", "PaddleOCR",
       "ppocr/modeling/{backbones/det_mobilenet_v3,necks/db_fpn,heads/det_db_head}.py + "
       "ppocr/losses/det_db_loss.py")
def _dbnet(paddle):
    from ppocr.modeling.backbones.det_mobilenet_v3 import MobileNetV3
    from ppocr.modeling.necks.db_fpn import DBFPN
    from ppocr.modeling.heads.det_db_head import DBHead
    from ppocr.losses.det_db_loss import DBLoss
    bb = MobileNetV3(in_channels=3, model_name="large", scale=0.5, disable_se=False)
    neck = DBFPN(in_channels=bb.out_channels, out_channels=32)
    head = DBHead(in_channels=32, k=50)
    model = _ocr_model(paddle, (bb, neck, head))
    crit = DBLoss(balance_loss=True, main_loss_type="DiceLoss", alpha=5, beta=10,
                  ohem_ratio=3)

    def loss(model, inp, paddle):
        pred = model(inp["x"])
        batch = [inp["x"], inp["threshold_map"], inp["threshold_mask"], inp["shrink_map"],
                 inp["shrink_mask"]]
        return crit(pred, batch)["loss"]
    return model, _db_data(), loss


def _ctc_data(n=2, h=32, w=64, classes=20, maxlen=5, seed=0):
    rng = np.random.default_rng(seed + 11)
    lens = rng.integers(2, maxlen + 1, (n,))
    label = np.zeros((n, maxlen), "int64")
    for i, k in enumerate(lens):
        label[i, :k] = rng.integers(1, classes, (k,))
    return {"x": images(n, 3, h, w, seed), "label": label, "length": lens.astype("int64")}


def _ctc_loss_fn(crit):
    def loss(model, inp, paddle):
        pred = model(inp["x"])
        return crit(pred, [inp["x"], inp["label"], inp["length"]])["loss"]
    return loss


@setup("PPOCRv3_rec_CTC", "PaddleOCR",
       "ppocr/modeling/{backbones/rec_mv1_enhance,necks/rnn(svtr),heads/rec_ctc_head}.py + "
       "ppocr/losses/rec_ctc_loss.py")
def _ppocrv3_rec(paddle):
    from ppocr.modeling.backbones.rec_mv1_enhance import MobileNetV1Enhance
    from ppocr.modeling.necks.rnn import SequenceEncoder
    from ppocr.modeling.heads.rec_ctc_head import CTCHead
    from ppocr.losses.rec_ctc_loss import CTCLoss
    bb = MobileNetV1Enhance(scale=0.5, last_conv_stride=[1, 2], last_pool_type="avg")
    neck = SequenceEncoder(bb.out_channels, "svtr", dims=32, depth=1, hidden_dims=48,
                           use_guide=True)
    head = CTCHead(neck.out_channels, 20)
    model = no_dropout(_ocr_model(paddle, (bb, neck, head)), paddle)
    return model, _ctc_data(), _ctc_loss_fn(CTCLoss())


@setup("SVTR_tiny_CTC", "PaddleOCR",
       "ppocr/modeling/{backbones/rec_svtrnet,necks/rnn(reshape),heads/rec_ctc_head}.py + "
       "ppocr/losses/rec_ctc_loss.py")
def _svtr(paddle):
    from ppocr.modeling.backbones.rec_svtrnet import SVTRNet
    from ppocr.modeling.necks.rnn import SequenceEncoder
    from ppocr.modeling.heads.rec_ctc_head import CTCHead
    from ppocr.losses.rec_ctc_loss import CTCLoss
    bb = SVTRNet(img_size=[32, 64], embed_dim=[32, 64, 96], depth=[1, 1, 1],
                 num_heads=[2, 4, 6], mixer=["Local", "Local", "Global"],
                 local_mixer=[[7, 11], [7, 11], [7, 11]], out_channels=64, out_char_num=16,
                 last_drop=0.0, drop_path_rate=0.0, prenorm=False)
    neck = SequenceEncoder(bb.out_channels, "reshape")
    head = CTCHead(neck.out_channels, 20)
    model = no_dropout(_ocr_model(paddle, (bb, neck, head)), paddle)
    return model, _ctc_data(), _ctc_loss_fn(CTCLoss())


def _nrtr_data(n=2, seq=12, dim=32, classes=20, maxlen=5, seed=0):
    """NRTR's label layout: [bos=2, chars..., eos=3, 0 padding]; chars from 4 on."""
    rng = np.random.default_rng(seed + 13)
    lens = rng.integers(2, maxlen + 1, (n,))
    label = np.zeros((n, maxlen + 2), "int64")
    for i, k in enumerate(lens):
        label[i, 0] = 2
        label[i, 1:k + 1] = rng.integers(4, classes, (k,))
        label[i, k + 1] = 3
    src = rng.standard_normal((n, seq, dim)).astype("float32")
    return {"src": src, "label": label, "length": lens.astype("int64")}


@setup("NRTR_transformer_CE", "PaddleOCR",
       "ppocr/modeling/heads/rec_nrtr_head.py (encoder-decoder Transformer) + "
       "ppocr/losses/rec_nrtr_loss.py")
def _nrtr(paddle):
    from ppocr.modeling.heads.rec_nrtr_head import Transformer
    from ppocr.losses.rec_nrtr_loss import NRTRLoss
    model = Transformer(d_model=32, nhead=4, num_encoder_layers=1, num_decoder_layers=1,
                        dim_feedforward=64, residual_dropout_rate=0.0, out_channels=20,
                        max_len=8)
    crit = NRTRLoss(smoothing=True)

    def loss(model, inp, paddle):
        pred = model(inp["src"], [inp["label"], inp["length"]])
        return crit(pred, [inp["src"], inp["label"], inp["length"]])["loss"]
    return no_dropout(model, paddle), _nrtr_data(), loss


# ---------------------------------------------------------------- PaddleSeg
def _seg_data(n=2, hw=64, classes=4, seed=0):
    rng = np.random.default_rng(seed + 3)
    return {"x": images(n, 3, hw, hw, seed), "label": rng.integers(0, classes, (n, hw, hw))}


def _seg_loss(crit):
    def loss(model, inp, paddle):
        logits = model(inp["x"])
        logits = logits if isinstance(logits, (list, tuple)) else [logits]
        total = 0
        for lg in logits:
            total = total + crit(lg, inp["label"])
        return total
    return loss


def seg(name, file, make, crit="CrossEntropyLoss"):
    def build(paddle):
        import importlib
        losses = {"CrossEntropyLoss": "cross_entropy_loss",
                  "OhemCrossEntropyLoss": "ohem_cross_entropy_loss"}
        lm = importlib.import_module("paddleseg.models.losses." + losses[crit])
        model = no_dropout(make(paddle), paddle)
        return model, _seg_data(), _seg_loss(getattr(lm, crit)())
    setup(name, "PaddleSeg", "paddleseg/models/" + file)(build)


def _pp_liteseg(paddle):
    from paddleseg.models.backbones.stdcnet import STDC1
    from paddleseg.models.pp_liteseg import PPLiteSeg
    return PPLiteSeg(4, STDC1(), arm_out_chs=[32, 48, 64], seg_head_inter_chs=[32, 32, 32],
                     cm_out_ch=64)


def _deeplab(paddle):
    from paddleseg.models.backbones.resnet_vd import ResNet18_vd
    from paddleseg.models.deeplab import DeepLabV3P
    return DeepLabV3P(4, ResNet18_vd(output_stride=8), backbone_indices=(0, 3),
                      aspp_ratios=(1, 12, 24, 36))


def _ocrnet(paddle):
    from paddleseg.models.backbones.hrnet import HRNet_W18_Small_V1
    from paddleseg.models.ocrnet import OCRNet
    return OCRNet(4, HRNet_W18_Small_V1(), backbone_indices=[0], ocr_mid_channels=64,
                  ocr_key_channels=32)


def _segformer(paddle):
    from paddleseg.models.backbones.mix_transformer import MixVisionTransformer_B0
    from paddleseg.models.segformer import SegFormer
    return SegFormer(4, MixVisionTransformer_B0(), embedding_dim=64)


def _fast_scnn(paddle):
    from paddleseg.models.fast_scnn import FastSCNN
    return FastSCNN(4, enable_auxiliary_loss=True)


seg("PP-LiteSeg_STDC1", "pp_liteseg.py + backbones/stdcnet.py", _pp_liteseg,
    "OhemCrossEntropyLoss")
seg("DeepLabV3P_ResNet18_vd", "deeplab.py + backbones/resnet_vd.py", _deeplab)
seg("OCRNet_HRNet_W18_Small", "ocrnet.py + backbones/hrnet.py", _ocrnet)
seg("SegFormer_B0", "segformer.py + backbones/mix_transformer.py", _segformer)
seg("Fast-SCNN", "fast_scnn.py", _fast_scnn)


# ---------------------------------------------------------------- PaddleDetection
def _yolo_targets(n=2, hw=64, nc=3, seed=0):
    """Targets in the layout of PaddleDetection's Gt2YoloTarget: per scale
    [n, 3 anchors, 6 + nc, h, w] (tx, ty, tw, th, tscale, tobj, one-hot class)."""
    rng = np.random.default_rng(seed + 5)
    out = {"x": images(n, 3, hw, hw, seed)}
    gt = np.zeros((n, 4, 4), "float32")
    gt[:, :, :2] = rng.uniform(0.2, 0.8, (n, 4, 2))
    gt[:, :, 2:] = rng.uniform(0.1, 0.4, (n, 4, 2))
    out["gt_bbox"] = gt
    for i, stride in enumerate((32, 16, 8)):
        g = hw // stride
        t = np.zeros((n, 3, 6 + nc, g, g), "float32")
        for b in range(n):
            for _ in range(2):
                a, y, x = rng.integers(0, 3), rng.integers(0, g), rng.integers(0, g)
                t[b, a, 0:2, y, x] = rng.uniform(0.1, 0.9, 2)
                t[b, a, 2:4, y, x] = rng.uniform(-0.5, 0.5, 2)
                t[b, a, 4, y, x] = rng.uniform(1.0, 1.9)
                t[b, a, 5, y, x] = 1.0
                t[b, a, 6 + rng.integers(0, nc), y, x] = 1.0
        out[f"target{i}"] = t
    return out


@setup("YOLOv3_MobileNetV1", "PaddleDetection",
       "ppdet/modeling/{backbones/mobilenet_v1,necks/yolo_fpn,heads/yolo_head}.py + "
       "ppdet/modeling/losses/yolo_loss.py")
def _yolov3(paddle):
    from ppdet.modeling.backbones.mobilenet_v1 import MobileNet
    from ppdet.modeling.necks.yolo_fpn import YOLOv3FPN
    from ppdet.modeling.heads.yolo_head import YOLOv3Head
    from ppdet.modeling.losses.yolo_loss import YOLOv3Loss
    bb = MobileNet(scale=0.25, feature_maps=[4, 6, 13])
    neck = YOLOv3FPN(in_channels=[s.channels for s in bb.out_shape])
    head = YOLOv3Head(in_channels=[s.channels for s in neck.out_shape], num_classes=3,
                      anchors=[[4, 5], [8, 15], [16, 11], [15, 30], [31, 22], [29, 59],
                               [58, 45], [78, 99], [186, 163]],
                      loss=YOLOv3Loss(num_classes=3, downsample=[32, 16, 8]))

    class YOLOv3(paddle.nn.Layer):          # ppdet's architectures/yolo.py, minus the config
        def __init__(self):
            super().__init__()
            self.backbone, self.neck, self.yolo_head = bb, neck, head

        def forward(self, inputs):
            feats = self.neck(self.backbone({"image": inputs["image"]}))
            return self.yolo_head(feats, inputs)

    def loss(model, inp, paddle):
        targets = dict(inp)
        targets["image"] = inp["x"]
        return model(targets)["loss"]
    return YOLOv3(), _yolo_targets(), loss


# ---------------------------------------------------------------- ERNIE (PaddlePaddle/ERNIE)
def _ernie_data(n=4, seq=12, vocab=100, hw=32, seed=0):
    """Images and token ids (0 = padding, masked out by ErnieModel's input mask)."""
    rng = np.random.default_rng(seed + 17)
    ids = rng.integers(1, vocab, (n, seq))
    for i, k in enumerate(rng.integers(seq // 2, seq + 1, (n,))):
        ids[i, k:] = 0
    return {"img": images(n, 3, hw, hw, seed), "ids": ids.astype("int64")}


def _adamw(paddle, model, lr=0.01):
    return paddle.optimizer.AdamW(learning_rate=lr, parameters=model.parameters(),
                                  weight_decay=0.01)


@setup("ERNIE_ViL2_contrastive", "ERNIE",
       "Research/ERNIE-ViL2/ernievil2/transformers/{multimodal,ERNIE,ViT}.py + utils/loss.py "
       "(ERNIE text encoder + ViT, contrastive loss; AdamW)", optimizer=_adamw)
def _ernie_vil2(paddle):
    from types import SimpleNamespace
    from ernievil2.transformers.ERNIE import ErnieModel
    from ernievil2.transformers.ViT import VisionTransformer
    from ernievil2.transformers.multimodal import MultiModalModel
    cfg = {"hidden_size": 32, "vocab_size": 100, "max_position_embeddings": 16,
           "num_attention_heads": 4, "num_hidden_layers": 2, "initializer_range": 0.02,
           "hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0,
           "intermediate_size": 64, "hidden_act": "gelu"}
    image = VisionTransformer(img_size=32, patch_size=8, embed_dim=32, depth=2, num_heads=4,
                              qkv_bias=True, epsilon=1e-6)
    model = MultiModalModel(image, ErnieModel(cfg), SimpleNamespace(trainer_count=1))

    def loss(model, inp, paddle):
        img, txt = model(inp["img"], inp["ids"])
        return model.get_loss()(img, txt)[0]
    return no_dropout(model, paddle), _ernie_data(), loss


# ---------------------------------------------------------------- paddle.vision
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _lenet(paddle):
    model = paddle.vision.models.LeNet(num_classes=10)
    rng = np.random.default_rng(4)
    data = {"x": rng.standard_normal((8, 1, 28, 28)).astype("float32"),
            "label": rng.integers(0, 10, (8, 1))}
    return model, data, cls_loss


# weights: the .pdparams real Paddle 3.3.1 saved for tests/test_vision_models.py (seeded init)
setup("LeNet_vision", "paddle", "paddle.vision.models.LeNet",
      pdparams=os.path.join(ROOT, "tests", "goldens", "vision_lenet.pdparams"))(_lenet)
