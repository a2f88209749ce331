"""Run many Paddle scripts through paddle_compat's runner, one forked process each.

    python run_many.py OUT_DIR SCRIPT.py [SCRIPT.py ...]

Importing torch and paddle_compat takes seconds; doing it once and forking per script keeps
each script in its own process (its own RNG, static mode, ``__main__``) at a fraction of the
cost. Writes OUT_DIR/NAME.out, NAME.err, NAME.rc for each script.
"""
import os
import sys

import paddle_compat  # noqa: F401  imported once, before forking
from paddle_compat import __main__ as runner
from paddle_compat.compat import hook


def run_one(path, out_dir):
    name = os.path.basename(path)[:-3]
    files = {k: os.path.join(out_dir, f"{name}.{k}") for k in ("out", "err", "rc")}
    pid = os.fork()
    if pid == 0:
        rc = 1
        try:
            sys.stdout.flush()
            sys.stderr.flush()
            out = os.open(files["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            err = os.open(files["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(out, 1)
            os.dup2(err, 2)
            hook.install()
            os.chdir(os.path.dirname(os.path.abspath(path)))
            try:
                rc = runner.run_script(path, [])
            except SystemExit as e:
                rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                with open(files["rc"], "w") as f:
                    f.write(str(rc))
                os._exit(rc)
    os.waitpid(pid, 0)


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for path in sys.argv[2:]:
        run_one(os.path.abspath(path), out_dir)


if __name__ == "__main__":
    main()
