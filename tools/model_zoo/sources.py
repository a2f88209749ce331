"""Which files of which model repository the zoo drivers use, at which commit."""
import os


def zoo_root():
    return os.environ.get("MODEL_ZOO_SRC", "/work/zoo_src")


REPOS = {
    "PaddleClas": {
        "mirror": "PaddlePaddle/PaddleClas",
        "commit": "d178931fca432204e6b7422bac4f92e09ff22fa4",
        "paths": ["ppcls/arch/backbone", "ppcls/utils/save_load.py", "ppcls/utils/logger.py",
                  "ppcls/utils/download.py"],
        "scaffold": {
            "ppcls/__init__.py": "",
            "ppcls/arch/__init__.py": "",
            "ppcls/arch/backbone/__init__.py": "",
            "ppcls/arch/backbone/legendary_models/__init__.py": "",
            "ppcls/utils/__init__.py": "from . import logger\n",
        },
    },
    "PaddleSeg": {
        "mirror": "PaddlePaddle/PaddleSeg",
        "commit": "d7975e7cb3b9102eae4eabcef5afb81b878473aa",
        "paths": ["paddleseg/models", "paddleseg/cvlibs/manager.py",
                  "paddleseg/cvlibs/param_init.py", "paddleseg/utils"],
        "scaffold": {
            "paddleseg/__init__.py": "",
            "paddleseg/cvlibs/__init__.py": "from . import manager\nfrom . import param_init\n",
            "paddleseg/models/__init__.py": "",
            "paddleseg/models/backbones/__init__.py": "",
            "paddleseg/models/losses/__init__.py": "",
            "paddleseg/utils/__init__.py": ("from . import logger\n"
                                            "from .env import seg_env, get_sys_env\n"
                                            "from .utils import *\n"),
        },
    },
    "PaddleDetection": {
        "mirror": "PaddlePaddle/PaddleDetection",
        "commit": "666f597fd00d3157e84dd9fb2dd3f40bf9918ebc",
        "paths": ["ppdet/core", "ppdet/modeling", "ppdet/utils/*.py"],
        "scaffold": {
            "ppdet/__init__.py": "",
            "ppdet/modeling/__init__.py": "",
            "ppdet/modeling/backbones/__init__.py": "",
            "ppdet/modeling/necks/__init__.py": "",
            "ppdet/modeling/heads/__init__.py": "",
            "ppdet/modeling/losses/__init__.py": "from .iou_loss import *\n",
            "ppdet/modeling/assigners/__init__.py": "",
            "ppdet/utils/__init__.py": "",
        },
    },
    # PaddleOCR's own repository is too large to mirror here; hoonisone/PaddleOCR is a fork
    # carrying its history, and 4b17511 is an upstream commit in it (dyning, 2023-11-17),
    # before any of the fork's own commits.
    "PaddleOCR": {
        "mirror": "hoonisone/PaddleOCR",
        "commit": "4b17511491adcfd0f3e2970895d06814d1ce56cc",
        "paths": ["ppocr/modeling/backbones/det_mobilenet_v3.py",
                  "ppocr/modeling/backbones/rec_mv1_enhance.py",
                  "ppocr/modeling/backbones/rec_svtrnet.py",
                  "ppocr/modeling/heads/det_db_head.py", "ppocr/modeling/heads/rec_ctc_head.py",
                  "ppocr/modeling/necks/db_fpn.py", "ppocr/modeling/necks/rnn.py",
                  "ppocr/modeling/necks/intracl.py",
                  "ppocr/losses/det_db_loss.py", "ppocr/losses/det_basic_loss.py",
                  "ppocr/losses/rec_ctc_loss.py", "ppocr/modeling/heads/rec_nrtr_head.py",
                  "ppocr/losses/rec_nrtr_loss.py"],
        "scaffold": {
            "ppocr/__init__.py": "",
            "ppocr/modeling/__init__.py": "",
            "ppocr/modeling/backbones/__init__.py": "",
            "ppocr/modeling/heads/__init__.py": "",
            "ppocr/modeling/necks/__init__.py": "",
            "ppocr/losses/__init__.py": "",
        },
    },
    # ERNIE-ViL 2.0 (PaddlePaddle/ERNIE): the ERNIE text encoder, its ViT image tower and the
    # contrastive head, trained together as the repository's MultiModalModel does. "syspath" is
    # the folder (inside the extracted root) that the package `ernievil2` sits in.
    "ERNIE": {
        "mirror": "PaddlePaddle/ERNIE",
        "commit": "03d886406f507ec478e342212f70fda919f27b4f",
        "syspath": "Research/ERNIE-ViL2",
        "paths": ["Research/ERNIE-ViL2/ernievil2/transformers",
                  "Research/ERNIE-ViL2/ernievil2/utils/loss.py",
                  "Research/ERNIE-ViL2/ernievil2/utils/tokenizer.py"],
        "scaffold": {
            "Research/ERNIE-ViL2/ernievil2/__init__.py": "",
            "Research/ERNIE-ViL2/ernievil2/utils/__init__.py": "",
        },
    },
}
