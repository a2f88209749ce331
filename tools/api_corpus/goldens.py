"""Write the committed sample of corpus goldens (tests/goldens/api_corpus.json) from a full
recording of real Paddle: for every API outside paddle.vision / paddle.sparse, its recorded
config with the smallest inputs, plus every recorded config of the APIs listed in ``ALL``
(the decompositions whose signs follow Paddle's LAPACK, the random low-rank SVDs) and of
the configs matching ``EXTRA`` (behaviours fixed from this corpus). Configs where Paddle
crashed or has no CPU kernel are left out; so are results over ``MAX_CHARS``.

    python -m api_corpus.goldens real.jsonl [more.jsonl ...] ../tests/goldens/api_corpus.json
"""
import json
import sys

from .compare import group, load, no_cpu_kernel, NOT_COMPARED
from .parse import parse

ALL = {"paddle.linalg.svd", "paddle.linalg.eigh", "paddle.linalg.qr", "paddle.linalg.svd_lowrank",
       "paddle.linalg.pca_lowrank", "paddle.Tensor.lu", "paddle.linalg.lu"}
EXTRA = ("dropout2d", "dropout3d", "interpolate(", "upsample(", "affine_grid", "argmax",
         "argmin", "celu", "hardtanh", "hardsigmoid", "assign(", "multiplex", "send_ue_recv",
         "conv1d_transpose", "__rshift__", "vecdot", "smooth_l1_loss", "eigvals", "nll_loss",
         "hessian", "jacobian", "Tensor.equal", "clip(", "fftshift", "paddle.roll(",
         "weight_quantize", "label_smooth", "divide(", "arange(Tensor", "tril_indices",
         "__nonzero__", "bernoulli(", "paddle.scatter(", "instance_norm", "lp_pool",
         "cumsum(x=")
MAX_CHARS = 6000


def _size(key):
    return sum(s.numel() for _, s in parse(key).tensors())


def select(real):
    by_api = {}
    for key, r in real.items():
        if "crash" in r or "setup_error" in r or no_cpu_kernel(r) or group(r["api"]) != "main" \
                or r["api"] in NOT_COMPARED:
            continue
        if len(json.dumps(r)) > MAX_CHARS:
            continue
        by_api.setdefault(r["api"], []).append(key)
    out = {}
    for api, keys in sorted(by_api.items()):
        keys.sort(key=lambda k: (_size(k), k))
        if api.startswith("paddle.linalg."):
            # large decompositions: eigenvalue order and float32 rounding depend on the BLAS
            # build and its threads; the committed sample keeps the small ones
            keys = [k for k in keys if _size(k) <= 4096] or keys[:1]
        chosen = keys if api in ALL else keys[:1] + [k for k in keys[1:]
                                                     if any(e in k for e in EXTRA)]
        for k in chosen:
            r = real[k]
            out[k] = {"api": api, "result": r["result"], **({"inplace": r["inplace"]}
                                                            if "inplace" in r else {})}
    return out


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    real = {}
    for path in argv[:-1]:              # several recordings: one merged sample
        real.update(load(path))
    cases = select(real)
    with open(argv[-1], "w") as fh:
        json.dump({"about": "PaddleAPITest CI configs replayed on real Paddle 3.3.1 (CPU); "
                            "written by tools/api_corpus/goldens.py",
                   "cases": cases}, fh, indent=0, sort_keys=True)
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main()
