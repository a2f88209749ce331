"""Issue 30's speed checks: libraries built on Paddle, unchanged, on paddle_compat.

``nlp``: a training step (forward with the model's own loss, backward, AdamW step, clearing the
gradients) of a small Llama causal LM and a small BERT sequence classifier built with paddlenlp
2.8.1's own classes on paddle_compat, against the same architecture and config in Hugging Face
``transformers`` on torch (its default attention, ``sdpa``; ``--hf-attn eager`` for its
matmul-softmax form). Both run in one process per thread count, steps interleaved (one ours, one
theirs) so that the load of a shared machine hits both alike. The Llama weights are copied from
the transformers model into paddlenlp's (``Linear`` stored [in, out] there), and the first
losses are printed side by side: the same numbers show it is the same network. Target: ours
within 1.1x of transformers.

``ocr``: PaddleOCR 3.7.0 / PaddleX 3.7.2's PP-OCRv5 mobile text detector and recognizer, built
from their configs with seeded weights (as ``tools/ecosystem/drivers/paddleocr_driver.py``),
saved once as PaddleX model dirs, then PaddleX ``create_predictor`` (paddle_dynamic engine) on
the same images: detection on a page, recognition on its text crops. Timed on paddle_compat
(``python -m paddle_compat``, this repository first on the path) and on real Paddle 3.3.1 (the
ocr venv's own ``paddle``), in alternating child processes (``--rounds`` each). The seeded
weights give a flat probability map, so the DB post-processing finds no boxes on either side:
the det time is PaddleX's preprocessing, the network and the post-processing's scan; both sides
must print the same box count and texts. Target: ours at most Paddle's time.

    # the nlp venv (tools/ecosystem/build.py --only nlp) plus transformers==4.46.3
    /work/eco_venvs/nlp/bin/python bench/bench_ecosystem.py nlp [--threads 1,2] [--repeat 15]
        [--models llama,bert] [--batch 4] [--seq 128] [--hidden 256] [--layers 2]
        [--hf-attn sdpa|eager] [--profile llama]
    /work/eco_venvs/ocr/bin/python bench/bench_ecosystem.py ocr [--threads 1,2] [--repeat 15]

Thread counts: each child sets ``OMP_NUM_THREADS``/``CPU_NUM`` (read by real Paddle at its
start, and they keep paddle_compat's thread governor off) and ``torch.set_num_threads``. Prints
medians of wall time per step (ms) and the ratio ours/theirs; ``nlp`` also the process CPU time
per step, steadier than wall time on a shared, loaded machine. ``--profile llama`` prints
torch.profiler tables of both steps (stderr).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def _child_env(threads, ours):
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = str(threads)
    env["CPU_NUM"] = str(threads)
    env["MKL_NUM_THREADS"] = str(threads)
    if ours:
        env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _run_child(args, threads, ours=True, module=False):
    """Run this script as a child (``python -m paddle_compat`` when ``module``); its last
    stdout line is a JSON result."""
    cmd = [sys.executable] + (["-m", "paddle_compat"] if module else []) + [os.path.abspath(__file__)] + args
    proc = subprocess.run(cmd, env=_child_env(threads, ours), capture_output=True, text=True)
    if proc.returncode:
        sys.stderr.write(proc.stdout[-4000:] + proc.stderr[-8000:])
        raise SystemExit(f"child {' '.join(args)} failed ({proc.returncode})")
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    return json.loads(lines[-1])


def _median_ms(times):
    return statistics.median(times) * 1e3


# ----------------------------------------------------------------------------------- nlp
def _nlp_inputs(np, args, vocab, labels_kind):
    rng = np.random.RandomState(0)
    ids = rng.randint(3, vocab, (args.batch, args.seq)).astype("int64")
    if labels_kind == "causal":
        return ids, None
    return ids, (np.arange(args.batch) % 3).astype("int64")


def _llama_pair(args, paddle, torch, np):
    """(ours_step, hf_step, first losses): paddlenlp's and transformers' LlamaForCausalLM,
    the same config and weights; each step is forward with the model's loss, backward, AdamW."""
    import transformers
    from paddlenlp.transformers import LlamaConfig, LlamaForCausalLM
    cfg = dict(vocab_size=args.vocab, hidden_size=args.hidden, intermediate_size=args.hidden * 11 // 4,
               num_hidden_layers=args.layers, num_attention_heads=args.heads,
               num_key_value_heads=args.heads, max_position_embeddings=max(512, args.seq),
               rms_norm_eps=1e-6, rope_theta=10000.0, tie_word_embeddings=False)
    torch.manual_seed(0)
    hf = transformers.LlamaForCausalLM(transformers.LlamaConfig(
        attn_implementation=args.hf_attn, **cfg))
    paddle.seed(0)
    ours = LlamaForCausalLM(LlamaConfig(**cfg))
    theirs_sd = {k.replace("model.", "llama.", 1): v for k, v in hf.state_dict().items()}
    for name, p in ours.state_dict().items():
        w = theirs_sd[name].detach().numpy()
        if w.ndim == 2 and "embed_tokens" not in name:
            w = w.T                                   # Linear: torch [out, in], paddle [in, out]
        assert tuple(p.shape) == w.shape, (name, p.shape, w.shape)
        p.set_value(np.ascontiguousarray(w))
    ids, _ = _nlp_inputs(np, args, args.vocab, "causal")
    # transformers shifts the labels itself; paddlenlp takes them shifted (-100: ignored)
    shifted = np.concatenate([ids[:, 1:], np.full((ids.shape[0], 1), -100, "int64")], axis=1)
    p_ids, p_labels = paddle.to_tensor(ids), paddle.to_tensor(shifted)
    t_ids = torch.from_numpy(ids)
    return _steps(args, paddle, torch, ours, hf,
                  lambda: ours(input_ids=p_ids, labels=p_labels),
                  lambda: hf(input_ids=t_ids, labels=t_ids))


def _bert_pair(args, paddle, torch, np):
    """paddlenlp's and transformers' BertForSequenceClassification, the same config (their own
    seeded weights: the layouts differ), dropout 0.1 as both default."""
    import transformers
    from paddlenlp.transformers import BertConfig, BertForSequenceClassification
    cfg = dict(vocab_size=args.vocab, hidden_size=args.hidden, num_hidden_layers=args.layers,
               num_attention_heads=args.heads, intermediate_size=args.hidden * 4,
               max_position_embeddings=max(512, args.seq), type_vocab_size=2, num_labels=3)
    torch.manual_seed(0)
    hf = transformers.BertForSequenceClassification(transformers.BertConfig(
        attn_implementation=args.hf_attn, **cfg))
    paddle.seed(0)
    ours = BertForSequenceClassification(BertConfig(**cfg))
    ids, labels = _nlp_inputs(np, args, args.vocab, "cls")
    p_ids, p_labels = paddle.to_tensor(ids), paddle.to_tensor(labels)
    t_ids, t_labels = torch.from_numpy(ids), torch.from_numpy(labels)
    return _steps(args, paddle, torch, ours, hf,
                  lambda: ours(input_ids=p_ids, labels=p_labels),
                  lambda: hf(input_ids=t_ids, labels=t_labels))


def _loss_of(out):
    if isinstance(out, (tuple, list)):
        return out[0]
    return out.loss if hasattr(out, "loss") else out


def _steps(args, paddle, torch, ours, hf, ours_fwd, hf_fwd):
    ours.train()
    hf.train()
    p_opt = paddle.optimizer.AdamW(learning_rate=1e-4, parameters=ours.parameters(),
                                   weight_decay=0.01)
    t_opt = torch.optim.AdamW(hf.parameters(), lr=1e-4, weight_decay=0.01)

    def ours_step():
        loss = _loss_of(ours_fwd())
        loss.backward()
        p_opt.step()
        p_opt.clear_grad()
        return float(loss)

    def hf_step():
        loss = _loss_of(hf_fwd())
        loss.backward()
        t_opt.step()
        t_opt.zero_grad()
        return float(loss)
    return ours_step, hf_step


def nlp_child(args):
    import paddle_compat
    paddle_compat.install()
    import numpy as np
    import torch
    torch.set_num_threads(args.threads)
    import paddle
    import paddlenlp  # noqa: F401
    pair = {"llama": _llama_pair, "bert": _bert_pair}[args.model]
    ours_step, hf_step = pair(args, paddle, torch, np)
    first = (ours_step(), hf_step())
    for _ in range(args.warmup):
        ours_step()
        hf_step()
    if args.profile:
        _profile(ours_step, hf_step, torch)
    a, b, ca, cb = [], [], [], []
    for _ in range(args.repeat):
        for step, wall, cpu in ((ours_step, a, ca), (hf_step, b, cb)):
            c0, t0 = time.process_time(), time.perf_counter()
            step()
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
    print(json.dumps({"ours_ms": _median_ms(a), "hf_ms": _median_ms(b), "ours_cpu_ms": _median_ms(ca),
                      "hf_cpu_ms": _median_ms(cb), "first_loss": first,
                      "threads": torch.get_num_threads()}))


def _profile(ours_step, hf_step, torch):
    from torch.profiler import ProfilerActivity, profile
    for name, step in (("paddle_compat + paddlenlp", ours_step), ("transformers", hf_step)):
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            for _ in range(3):
                step()
        sys.stderr.write(f"\n== {name} (3 steps)\n")
        sys.stderr.write(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=30) + "\n")


def nlp_main(args):
    import torch
    from timing import machine
    print(f"# {machine()} (threads set per row)")
    print(f"# batch {args.batch}, seq {args.seq}, hidden {args.hidden}, layers {args.layers}, "
          f"heads {args.heads}, vocab {args.vocab}; transformers attention: {args.hf_attn}; "
          f"median of {args.repeat} interleaved steps after {args.warmup} warm-up")
    print(f"{'model':8} {'threads':>7} {'paddlenlp+ours ms':>18} {'transformers ms':>16} {'ratio':>6} "
          f"{'cpu ms ours':>12} {'cpu ms hf':>10} {'ratio':>6}  first losses (ours, hf)")
    for model in args.models.split(","):
        for threads in args.thread_counts:
            child = ["_nlp", "--model", model, "--threads", str(threads)] + _shared_nlp(args)
            if args.profile == model:
                child += ["--profile", model]
                proc = subprocess.run([sys.executable, os.path.abspath(__file__)] + child,
                                      env=_child_env(threads, True), capture_output=True, text=True)
                sys.stderr.write(proc.stderr[-30000:])
                res = json.loads([ln for ln in proc.stdout.splitlines() if ln.startswith("{")][-1])
            else:
                res = _run_child(child, threads)
            print(f"{model:8} {threads:>7} {res['ours_ms']:>18.2f} {res['hf_ms']:>16.2f} "
                  f"{res['ours_ms'] / res['hf_ms']:>6.2f} {res['ours_cpu_ms']:>12.2f} {res['hf_cpu_ms']:>10.2f} "
                  f"{res['ours_cpu_ms'] / res['hf_cpu_ms']:>6.2f}  "
                  f"{res['first_loss'][0]:.5f}, {res['first_loss'][1]:.5f}", flush=True)
    del torch


def _shared_nlp(args):
    return ["--repeat", str(args.repeat), "--warmup", str(args.warmup), "--batch", str(args.batch),
            "--seq", str(args.seq), "--hidden", str(args.hidden), "--layers", str(args.layers),
            "--heads", str(args.heads), "--vocab", str(args.vocab), "--hf-attn", args.hf_attn]


# ----------------------------------------------------------------------------------- ocr
def _page(np):
    """A 480x640 white page (uint8 HWC, BGR) with 12 dark text-like lines."""
    rng = np.random.RandomState(0)
    img = np.full((480, 640, 3), 235, np.uint8)
    for i in range(12):
        y0, x0 = 20 + 38 * i, int(rng.randint(10, 80))
        x1 = int(rng.randint(300, 620))
        img[y0:y0 + 18, x0:x1] = 30
        for x in range(x0 + 6, x1 - 6, 14):           # gaps between "characters"
            img[y0:y0 + 18, x:x + 3] = 235
    return img


def _crops(np):
    page = _page(np)
    return [page[16 + 38 * i:42 + 38 * i, 4:636] for i in range(12)]


def ocr_build(args):
    """Build the det and rec models from PaddleX's configs with seeded weights, save them as
    PaddleX model dirs under ``args.dir`` (the driver's layout)."""
    import numpy as np
    import paddle
    sys.path.insert(0, os.path.join(REPO, "tools", "ecosystem", "drivers"))
    os.environ.setdefault("ECO_JITTER", "0")
    from paddlex.inference.models.text_detection.modeling import PPOCRV5MobileDet
    from paddlex.inference.models.text_detection.modeling._config_pp_ocrv5_mobile import \
        PPOCRV5MobileDetConfig
    from paddlex.inference.models.text_recognition.modeling import PPOCRV5MobileRec
    from paddlex.inference.models.text_recognition.modeling._config_pp_ocrv5_mobile_rec import \
        PPOCRV5MobileRecConfig
    from _common import seed_params
    saver = _paddlex_saver(np, args.dir)
    det = PPOCRV5MobileDet(PPOCRV5MobileDetConfig())
    seed_params(det)
    det.eval()
    x = _page(np)[None].transpose(0, 3, 1, 2).astype("float32") / 255.0
    with paddle.no_grad():
        prob = det.head(det.model(paddle.to_tensor(x))).numpy()
    thresh = round(float(np.percentile(prob, 70)), 3)    # seeded weights: a flat map
    norm = {"NormalizeImage": {"mean": [0.485, 0.456, 0.406], "std": [0.229, 0.224, 0.225],
                               "scale": "1./255.", "order": "hwc"}}
    saver(det, "PP-OCRv5_mobile_det",
          [{"DecodeImage": {"channel_first": False, "img_mode": "BGR"}}, {"DetLabelEncode": None},
           {"DetResizeForTest": {"resize_long": 640}}, norm, {"ToCHWImage": None},
           {"KeepKeys": {"keep_keys": ["image", "shape", "polys", "ignore_tags"]}}],
          {"name": "DBPostProcess", "thresh": thresh, "box_thresh": thresh,
           "max_candidates": 1000, "unclip_ratio": 1.5})
    chars = list("abcdefghijklmnopqrstuvwxyz0123456789")
    rec = PPOCRV5MobileRec(PPOCRV5MobileRecConfig(head_out_channels=len(chars) + 2))
    seed_params(rec)
    rec.eval()
    saver(rec, "PP-OCRv5_mobile_rec",
          [{"DecodeImage": {"channel_first": False, "img_mode": "BGR"}}, {"MultiLabelEncode": None},
           {"RecResizeImg": {"image_shape": [3, 48, 320]}},
           {"KeepKeys": {"keep_keys": ["image", "label_ctc", "label_gtc", "length", "valid_ratio"]}}],
          {"name": "CTCLabelDecode", "character_dict": chars})
    print(json.dumps({"thresh": thresh}))   # (a flat map: the post-processing finds no boxes)


def _paddlex_saver(np, root):
    """A function writing a PaddleX model dir: config.json, model.safetensors (HF layout,
    Linear weights [out, in]), inference.yml."""
    from safetensors.numpy import save_file

    def save(model, name, pre, post):
        path = os.path.join(root, name)
        os.makedirs(path, exist_ok=True)
        with open(os.path.join(path, "config.json"), "w") as f:
            json.dump(model.config.to_dict(), f)
        hf = {k: v.numpy() for k, v in model.get_hf_state_dict().items()}
        try:
            transposed = model.get_transpose_weight_keys()
        except NotImplementedError:
            transposed = []
        for key in transposed:
            hf[key] = np.ascontiguousarray(hf[key].T)
        save_file(hf, os.path.join(path, "model.safetensors"))
        with open(os.path.join(path, "inference.yml"), "w") as f:
            json.dump({"Global": {"model_name": name}, "PreProcess": {"transform_ops": pre},
                       "PostProcess": post}, f)
    return save


def ocr_time(args):
    """Time PaddleX's det and rec predictors on the saved dirs (this process's ``paddle``)."""
    import numpy as np
    import paddle
    import paddlex
    try:
        import torch
        torch.set_num_threads(args.threads)
    except ImportError:
        pass
    det = paddlex.create_predictor("PP-OCRv5_mobile_det", model_dir=os.path.join(
        args.dir, "PP-OCRv5_mobile_det"), device="cpu", engine="paddle_dynamic")
    rec = paddlex.create_predictor("PP-OCRv5_mobile_rec", model_dir=os.path.join(
        args.dir, "PP-OCRv5_mobile_rec"), device="cpu", engine="paddle_dynamic")
    page, crops = _page(np), _crops(np)

    def run():
        c0, t0 = time.process_time(), time.perf_counter()
        (d,) = list(det.predict(page))
        c1, t1 = time.process_time(), time.perf_counter()
        r = list(rec.predict(crops))
        c2, t2 = time.process_time(), time.perf_counter()
        return (t1 - t0, t2 - t1, c1 - c0, c2 - c1), len(d["dt_polys"]), [x["rec_text"] for x in r]
    for _ in range(args.warmup):
        run()
    times = {"det": [], "rec": [], "det_cpu": [], "rec_cpu": []}
    for _ in range(args.repeat):
        ts, nbox, texts = run()
        for key, t in zip(times, ts):
            times[key].append(t)
    print(json.dumps(dict(times, boxes=nbox, texts=texts, paddle=paddle.__file__)))


def ocr_main(args):
    import tempfile
    import numpy as np  # noqa: F401
    work = args.dir or tempfile.mkdtemp(prefix="bench_ocr_")
    os.makedirs(work, exist_ok=True)
    _run_child(["_ocr_build", "--dir", work, "--threads", "1"], 1, ours=False)
    print(f"# {os.uname().machine}, {os.cpu_count()} cpus; PP-OCRv5 mobile det (640x480 page, "
          f"resize_long 640) + rec (12 crops, 48x320), PaddleX create_predictor paddle_dynamic; "
          f"median of {args.rounds} rounds x {args.repeat} runs after {args.warmup} warm-up, "
          f"rounds alternate between the two")
    print(f"{'threads':>7} {'stage':>6} {'ours ms':>9} {'Paddle ms':>10} {'ratio':>6} "
          f"{'cpu ms ours':>12} {'cpu ms Paddle':>14} {'ratio':>6}")
    keys = ("det", "rec", "det_cpu", "rec_cpu")
    for threads in args.thread_counts:
        res = {side: {k: [] for k in keys} for side in ("ours", "paddle")}
        child = ["_ocr_time", "--dir", work, "--threads", str(threads),
                 "--repeat", str(args.repeat), "--warmup", str(args.warmup)]
        seen = {}
        for _ in range(args.rounds):
            for side in ("ours", "paddle"):
                out = _run_child(child, threads, ours=side == "ours", module=side == "ours")
                if (side == "ours") != ("paddle_compat" in out["paddle"]):
                    raise SystemExit(f"the {side} run imported {out['paddle']}")
                for k in keys:
                    res[side][k] += out[k]
                seen[side] = (out["boxes"], out["texts"])
        for side in res.values():
            side["total"] = [a + b for a, b in zip(side["det"], side["rec"])]
            side["total_cpu"] = [a + b for a, b in zip(side["det_cpu"], side["rec_cpu"])]
        for stage in ("det", "rec", "total"):
            o, t = (_median_ms(res[s][stage]) for s in ("ours", "paddle"))
            oc, tc = (_median_ms(res[s][stage + "_cpu"]) for s in ("ours", "paddle"))
            print(f"{threads:>7} {stage:>6} {o:>9.2f} {t:>10.2f} {o / t:>6.2f} "
                  f"{oc:>12.2f} {tc:>14.2f} {oc / tc:>6.2f}", flush=True)
        same = seen["ours"] == seen["paddle"]
        print(f"# threads {threads}: boxes ours {seen['ours'][0]} / Paddle {seen['paddle'][0]}; "
              f"texts {'identical' if same else 'DIFFER'}")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=["nlp", "ocr", "_nlp", "_ocr_build", "_ocr_time"])
    p.add_argument("--threads", default=None,
                   help="comma-separated thread counts (default 1 and all cores); a child: one")
    p.add_argument("--repeat", type=int, default=15)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--models", default="llama,bert")
    p.add_argument("--model", default="llama")
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--seq", type=int, default=128)
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--vocab", type=int, default=2000)
    p.add_argument("--hf-attn", default="sdpa", choices=["sdpa", "eager"])
    p.add_argument("--profile", default=None)
    p.add_argument("--dir", default=None)
    p.add_argument("--rounds", type=int, default=2, help="ocr: alternating child processes per side")
    args = p.parse_args(argv)
    if args.what.startswith("_"):
        args.threads = int(args.threads)
    else:
        counts = args.threads.split(",") if args.threads else ["1", "all"]
        ncpu = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        args.thread_counts = sorted({ncpu if c == "all" else int(c) for c in counts})
    sys.path.insert(0, HERE)
    {"nlp": nlp_main, "_nlp": nlp_child, "ocr": ocr_main, "_ocr_build": ocr_build,
     "_ocr_time": ocr_time}[args.what](args)


if __name__ == "__main__":
    main()
