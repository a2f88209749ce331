"""One recipe per library group: what goes into its venv under ``$ECOSYSTEM_VENVS``.

Each venv is ``python -m venv --system-site-packages`` (torch comes from the system), gets the
libraries at the versions issue 30 names, the pins they need to import even on real Paddle, and
``paddlepaddle`` (the oracle: drivers run on real Paddle with the venv's python, and on
paddle_compat with ``python -m paddle_compat``, whose import hook shadows the installed paddle).
"""
import os
from dataclasses import dataclass, field

PADDLE = "paddlepaddle==3.3.1"
NUMPY_1 = "numpy>=1.23,<1.27"
DEFAULT_VENVS = "/work/eco_venvs"


@dataclass(frozen=True)
class Recipe:
    """A venv: ``libs`` maps each library (its PyPI name) to its version; ``pins`` are extra
    requirement strings installed with them; ``sdists`` are libraries built from a patched sdist
    (name -> (version, [(file, old, new), ...])) before the rest; ``drivers`` names the driver
    scripts (``drivers/<name>_driver.py``: a file named like the library would shadow it) that run in this venv;
    ``no_deps`` names libraries installed with ``pip --no-deps`` (their declared requirements
    cannot all install), ``pins`` then holding what their modules import."""
    libs: dict
    pins: tuple = ()
    sdists: dict = field(default_factory=dict)
    drivers: tuple = ()
    no_deps: tuple = ()

    def requirements(self):
        """The pip requirement strings of this venv (libraries, pins, Paddle), in order;
        the ``no_deps`` libraries are not among them (see ``no_deps_requirements``)."""
        reqs = [f"{name}=={ver}" for name, ver in self.libs.items()
                if name not in self.sdists and name not in self.no_deps]
        return reqs + list(self.pins) + [PADDLE]

    def no_deps_requirements(self):
        """The libraries installed without their declared requirements (``pip --no-deps``):
        the pins then name what their modules import."""
        return [f"{name}=={self.libs[name]}" for name in self.no_deps]


RECIPES = {
    # ppdiffusers requires paddlenlp: one venv for both
    "nlp": Recipe({"paddlenlp": "2.8.1", "ppdiffusers": "0.29.0"},
                  ("huggingface_hub==0.23.4", "aistudio-sdk==0.2.6", "datasets==2.19.2"),
                  drivers=("paddlenlp", "ppdiffusers")),
    "ocr": Recipe({"paddleocr": "3.7.0", "paddlex": "3.7.2"}, drivers=("paddleocr",)),
    "seg": Recipe({"paddleseg": "2.8.0"}, (NUMPY_1,), drivers=("paddleseg",)),
    "clas": Recipe({"paddleclas": "2.6.0"}, (NUMPY_1,), drivers=("paddleclas",)),
    "det": Recipe({"paddledet": "2.6.0"}, (NUMPY_1, "scikit-learn", "setuptools<81"),
                  drivers=("paddledet",)),
    "sci": Recipe({"paddlesci": "1.4.0"}, (NUMPY_1,), drivers=("paddlesci",)),
    # pgl 2.2.6 has no Python 3.11 wheel; its sdist's build_ext sets
    # ``__builtins__.__NUMPY_SETUP__``, but outside __main__ ``__builtins__`` is a dict
    # (AttributeError). One line patched; the wheel is built once against numpy 1.26
    "pgl": Recipe({"pgl": "2.2.6"}, ("numpy==1.26.4", "cython"),
                  sdists={"pgl": ("2.2.6", [(
                      "setup.py", "__builtins__.__NUMPY_SETUP__ = False",
                      "import builtins; builtins.__NUMPY_SETUP__ = False")])},
                  drivers=("pgl",)),
    # paddleslim 2.6.0 pins opencv-python<=4.6.0.66 (built against numpy 1.x) and calls
    # np.product (gone in numpy 2): numpy 1.26 as in the groups above
    "slim": Recipe({"paddleslim": "2.6.0"},
                   (NUMPY_1, "six", "requests", "decorator", "setuptools<81"),
                   drivers=("paddleslim", "paddleslim_static")),
    "visualdl": Recipe({"visualdl": "2.5.3"}, drivers=("visualdl",)),
    # paddlespeech 1.5.0 requires pyworld and webrtcvad, sdists only (no Python 3.11 wheel; C
    # builds), and paddlenlp/paddleslim/ppdiffusers/onnxruntime that its model, audio and
    # training modules never import: installed --no-deps, with what paddlespeech.s2t / .t2s /
    # .audio import at module top
    "speech": Recipe({"paddlespeech": "1.5.0"},
                     ("visualdl==2.5.3", "librosa", "resampy", "soundfile", "loguru", "colorlog",
                      "inflect", "yacs", "typeguard", "jsonlines", "editdistance", "kaldiio",
                      "textgrid", "jieba", "sentencepiece", "pypinyin", "g2p_en", "g2pM",
                      "pathos", "ffmpeg-python", "ffmpy", "flatten-dict", "pyloudnorm", "rich",
                      "h5py", "braceexpand", "timer", "python_speech_features",
                      "paddlespeech_feat"),
                     no_deps=("paddlespeech",), drivers=("paddlespeech",)),
}


def venvs_root():
    """Where the venvs live: ``$ECOSYSTEM_VENVS`` or /work/eco_venvs."""
    return os.environ.get("ECOSYSTEM_VENVS") or DEFAULT_VENVS


def group_of(lib):
    """The recipe group that holds library or driver ``lib``; KeyError naming the known ones."""
    for group, recipe in RECIPES.items():
        if lib == group or lib in recipe.libs or lib in recipe.drivers:
            return group
    known = sorted({d for r in RECIPES.values() for d in r.drivers} | set(RECIPES))
    raise KeyError(f"unknown library {lib!r}; known: {', '.join(known)}")


def python_of(group):
    """The venv's python for ``group``."""
    return os.path.join(venvs_root(), group, "bin", "python")
