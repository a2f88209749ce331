"""Run a Paddle program unchanged on paddle_compat.

    python -m paddle_compat SCRIPT.py [ARGS ...]
    python -m paddle_compat -m MODULE [ARGS ...]
    python -m paddle_compat -c COMMAND [ARGS ...]
    python -m paddle_compat install-alias [--user] [--force] | uninstall-alias [--user] | status

Every ``import paddle`` / ``from paddle.xxx import ...`` in the program (and in the Python
processes it starts: multiprocessing workers, ``paddle.distributed.spawn``) resolves to
paddle_compat. The script runs as ``python SCRIPT.py`` would run it: ``sys.argv[0]`` is the
script path as given, ``__name__ == "__main__"``, ``__file__`` absolute, the script's directory
first on ``sys.path``, uncaught exceptions print the script's own traceback (no frames of this
runner) and exit with status 1, ``sys.exit(n)`` exits with ``n``.

``install-alias`` makes ``import paddle`` give paddle_compat in every Python of this
environment, ``uninstall-alias`` undoes it, ``status`` tells (``paddle_compat.compat.alias``).
"""
import atexit
import builtins
import importlib.machinery
import io
import os
import runpy
import signal
import sys
import types
from .compat import alias, hook

USAGE = __doc__.split("\n\n")[1]


def _is_runner_frame(tb):
    fn = tb.tb_frame.f_code.co_filename
    return fn == __file__ or fn in ("<frozen runpy>", runpy.__file__)


def _report(exc):
    """Print ``exc`` as Python prints an uncaught exception, minus this runner's frames; return
    the exit status Python would give."""
    tb = exc.__traceback__
    while tb is not None and _is_runner_frame(tb):
        tb = tb.tb_next
    exc.__traceback__ = tb          # the default hook prints exc.__traceback__, not tb
    sys.excepthook(type(exc), exc, tb)
    if isinstance(exc, KeyboardInterrupt):
        # Python ends an uncaught KeyboardInterrupt by dying of SIGINT (status -2 / 130)
        try:
            sys.stdout.flush()
            sys.stderr.flush()
            atexit._run_exitfuncs()
        finally:
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)
    return 1


def _fresh_main(file=None, loader=None):
    mod = types.ModuleType("__main__")
    mod.__builtins__ = builtins
    mod.__spec__ = None
    mod.__package__ = None
    mod.__cached__ = None
    if file is not None:
        mod.__file__ = file
    if loader is not None:
        mod.__loader__ = loader
    sys.modules["__main__"] = mod
    return mod


def run_script(path, args):
    """Run the file ``path`` as ``__main__`` with ``sys.argv = [path, *args]``."""
    full = os.path.abspath(path)
    if os.path.isdir(path) or not path.endswith(".py") and _is_zip(path):
        sys.argv = [path, *args]
        sys.path[0] = full
        return _guard(lambda: runpy.run_path(path, run_name="__main__"))
    try:
        with io.open_code(full) as f:
            source = f.read()
    except OSError as e:
        print(f"{_prog()}: can't open file {full!r}: [Errno {e.errno}] {e.strerror}",
              file=sys.stderr)
        return 2
    sys.argv = [path, *args]
    sys.path[0] = os.path.dirname(os.path.realpath(full))
    mod = _fresh_main(full, importlib.machinery.SourceFileLoader("__main__", full))

    def go():
        code = compile(source, full, "exec", dont_inherit=True)
        exec(code, mod.__dict__)
    return _guard(go)


def run_module(name, args):
    """``python -m name args``: ``sys.argv[0]`` becomes the module's file, cwd leads sys.path."""
    sys.argv = [name, *args]
    sys.path[0] = os.getcwd()
    return _guard(lambda: runpy.run_module(name, run_name="__main__", alter_sys=True))


def run_command(command, args):
    """``python -c command args``."""
    sys.argv = ["-c", *args]
    sys.path[0] = ""
    mod = _fresh_main(loader=importlib.machinery.BuiltinImporter)

    def go():
        exec(compile(command, "<string>", "exec", dont_inherit=True), mod.__dict__)
    return _guard(go)


def _guard(fn):
    try:
        fn()
    except SystemExit:
        raise
    except BaseException as e:  # noqa: BLE001  reported exactly as Python reports it
        return _report(e)
    return 0


def _is_zip(path):
    import zipfile
    try:
        return zipfile.is_zipfile(path)
    except OSError:
        return False


def _prog():
    return f"{os.path.basename(sys.executable)} -m paddle_compat"


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(f"usage:\n{USAGE}", file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    if argv[0] in alias.COMMANDS and not os.path.exists(argv[0]):
        return alias.main(argv)
    hook.install()
    hook.propagate_to_children()
    if argv[0] in ("-m", "-c"):
        if len(argv) < 2:
            print(f"{_prog()}: Argument expected for the {argv[0]} option", file=sys.stderr)
            return 2
        return (run_module if argv[0] == "-m" else run_command)(argv[1], argv[2:])
    if argv[0].startswith("-") and argv[0] != "-":
        print(f"{_prog()}: unknown option {argv[0]}\nusage:\n{USAGE}", file=sys.stderr)
        return 2
    return run_script(argv[0], argv[1:])


if __name__ == "__main__":
    sys.exit(main())
