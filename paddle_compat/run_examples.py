"""The main job: run every script in ``examples/`` on torch and report how each went.

``python -m paddle_compat.run_examples [--device cpu|gpu] [NAME ...]``: the device defaults to
``gpu`` when torch sees one, else ``cpu``; each example prints its own results.
"""
import argparse
import os
import subprocess
import sys
import time


def main(argv=None):
    import torch
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", choices=["cpu", "gpu"],
                   default="gpu" if torch.cuda.is_available() else "cpu")
    p.add_argument("names", nargs="*", help="run only examples whose file name contains these")
    args = p.parse_args(argv)
    root = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")
    scripts = sorted(f for f in os.listdir(root) if f.endswith(".py") and not f.startswith("_"))
    if args.names:
        scripts = [s for s in scripts if any(n in s for n in args.names)]
    failed = []
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(root)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    for s in scripts:
        print(f"==> {s} (--device {args.device})", flush=True)
        t0 = time.perf_counter()
        rc = subprocess.call([sys.executable, os.path.join(root, s), "--device", args.device],
                             env=env)
        print(f"<== {s}: {'ok' if rc == 0 else f'FAILED (exit {rc})'} "
              f"in {time.perf_counter() - t0:.2f}s", flush=True)
        if rc:
            failed.append(s)
    print(f"{len(scripts) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
