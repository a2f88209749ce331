"""Write the README's performance table from bench/run_all.py's results.

    python tools/perf_table.py [--results bench/perf_results.json] [--readme README.md] [--print]

Replaces what lies between ``<!-- perf-table:start -->`` and ``<!-- perf-table:end -->`` in the
README with a markdown table: per-op overhead, PyLayer forward+backward (small and large),
static ``Executor.run``, seeded randn throughput, each as a ratio to raw torch and to real Paddle
(where it was measured), with the date and the machine. ``--print`` only prints the table.
Exits 1 (changing nothing) when the README has no markers.
"""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START, END = "<!-- perf-table:start -->", "<!-- perf-table:end -->"


def _x(a, b):
    """``a / b`` as a ratio cell; '-' when either side is missing."""
    if a is None or b is None or b == 0:
        return "-"
    r = a / b
    return f"{r:.2f}x" if r < 10 else f"{r:.0f}x"


def _us(v):
    if v is None:
        return "-"
    if v >= 1000:
        return f"{v / 1000:.2f} ms"
    return f"{v:.1f} us"


def table(doc):
    r = doc["results"]
    ours, pd = r.get("snippet_ours", {}), r.get("snippet_paddle", {})
    op_keys = sorted(k for k in ours if k.startswith("snip_") and k != "snip_randn")
    op_vs_paddle = [ours[k] / pd[k] for k in op_keys if k in pd and pd[k]]
    med = (sorted(op_vs_paddle)[len(op_vs_paddle) // 2] if op_vs_paddle else None)
    rows = [
        ("per-op overhead, 2x3 float32 (median over "
         f"{r.get('core_ops', '?')} ops of bench_core)",
         _us(r.get("core_tanh_us")) + " (tanh)",
         f"{r['core_median_ratio']:.2f}x (worst {r['core_worst_ratio']:.2f}x)"
         if "core_median_ratio" in r else "-",
         f"{med:.2f}x (median over {len(op_vs_paddle)} ops)" if med else "-"),
        (f"top-{r.get('ops_count', '?')} Paddle APIs (bench_ops, median)", "-",
         (f"{r['ops_median_ratio']:.2f}x (worst {r['ops_worst_ratio']:.2f}x)"
          if "ops_worst_ratio" in r else f"{r['ops_median_ratio']:.2f}x")
         if "ops_median_ratio" in r else "-", "-"),
        ("`x.shape` read (a new paddle.Size list; raw side `list(t.shape)`)", "-",
         f"{r['core_shape_ratio']:.2f}x" if r.get("core_shape_ratio") else "-", "-"),
        ("PyLayer forward+backward, 2x3 (docs' cus_tanh)", _us(r.get("pylayer_small_us")),
         _x(r.get("pylayer_small_us"), r.get("pylayer_small_torch_us")),
         _x(r.get("pylayer_small_us"), r.get("pylayer_small_paddle_us"))),
        ("PyLayer forward+backward, 1024x1024", _us(r.get("pylayer_large_us")),
         _x(r.get("pylayer_large_us"), r.get("pylayer_large_torch_us")),
         _x(r.get("pylayer_large_us"), r.get("pylayer_large_paddle_us"))),
        ("static `Executor.run`, static_pylayer doc program, 64x5", _us(r.get("static_us")),
         _x(r.get("static_us"), r.get("static_torch_us")),
         _x(r.get("static_us"), r.get("static_paddle_us"))),
        ("seeded `randn([1e6])` float32 (Paddle's exact CPU stream)",
         _us(r.get("rng_randn_float32_us")),
         _x(r.get("rng_randn_float32_us"), r.get("rng_randn_float32_torch_us")),
         _x(ours.get("snip_randn"), pd.get("snip_randn"))),
        ("seeded `randn([1e6])` float64", _us(r.get("rng_randn_float64_us")),
         _x(r.get("rng_randn_float64_us"), r.get("rng_randn_float64_torch_us")), "-"),
    ]
    if "train_us" in r or "train_ratio" in r:
        rows.append(("training step with a PyLayer activation (bench_train)",
                     _us(r.get("train_us")),
                     _x(r.get("train_us"), r.get("train_torch_us"))
                     if "train_torch_us" in r else f"{r['train_ratio']:.2f}x", "-"))
    lines = [
        f"Measured {doc['date']} on {doc['machine']}; median of {doc['runs']} runs of "
        "`python bench/run_all.py`. Ratios are paddle_compat's time over the other's "
        "(lower is better; < 1 means paddle_compat is faster)"
        + ("." if pd else "; real Paddle not installed, not compared."),
        "",
        "| what | paddle_compat | vs raw torch | vs real Paddle 3.3.1 (CPU) |",
        "|---|---|---|---|",
    ]
    lines += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows]
    return "\n".join(lines) + "\n"


def update(readme, text):
    with open(readme, encoding="utf-8") as f:
        src = f.read()
    i, j = src.find(START), src.find(END)
    if i < 0 or j < i:
        return False
    new = src[:i + len(START)] + "\n" + text + src[j:]
    if new != src:
        with open(readme, "w", encoding="utf-8") as f:
            f.write(new)
    return True


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", default=os.path.join(ROOT, "bench", "perf_results.json"))
    ap.add_argument("--readme", default=os.path.join(ROOT, "README.md"))
    ap.add_argument("--print", action="store_true", help="print the table, change nothing")
    args = ap.parse_args(argv)
    with open(args.results) as f:
        text = table(json.load(f))
    if args.print:
        print(text, end="")
        return 0
    if not update(args.readme, text):
        print(f"{args.readme} has no {START} ... {END} markers; the table:\n", file=sys.stderr)
        print(text, end="")
        return 1
    print(f"updated {args.readme}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
