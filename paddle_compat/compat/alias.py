"""The environment-wide switch: ``import paddle`` resolves to paddle_compat in every Python of
one environment (notebooks, pytest, servers, the console scripts of libraries built on Paddle).

    python -m paddle_compat install-alias [--user] [--force]
    python -m paddle_compat uninstall-alias [--user]
    python -m paddle_compat status

``install-alias`` writes ``paddle_compat-alias.pth`` into the environment's site-packages
(``--user``: the user site). Python reads it at start-up and puts paddle_compat's bootstrap
directory (``compat/_bootstrap``, which holds one small ``paddle`` package) first on
``sys.path``; nothing is imported then, so a Python that never imports ``paddle`` pays nothing
and torch is not loaded. The first ``import paddle`` runs that package, which installs the
import hook (``paddle_compat.install()``). ``uninstall-alias`` deletes the file. It refuses to
shadow an installed PaddlePaddle unless ``--force``; never active unless installed.
"""
import importlib.machinery
import os
import site
import sys
import sysconfig

from .hook import bootstrap_dir

__all__ = ["PTH_NAME", "pth_path", "pth_line", "real_paddle", "install_alias",
           "uninstall_alias", "status", "main"]

PTH_NAME = "paddle_compat-alias.pth"
COMMANDS = ("install-alias", "uninstall-alias", "status")


def pth_path(user=False):
    """Where the alias file goes: site-packages of this environment (or the user site)."""
    d = site.getusersitepackages() if user else sysconfig.get_paths()["purelib"]
    return os.path.join(d, PTH_NAME)


def pth_line(directory=None):
    """The one line of the .pth file: the bootstrap directory first on sys.path, where it
    still exists (an uninstalled paddle_compat leaves a harmless line)."""
    d = directory or bootstrap_dir()
    return (f"import sys, os; d = {d!r}; os.path.isdir(d) and d not in sys.path and "
            f"sys.path.insert(0, d)\n")


def real_paddle():
    """Where an installed PaddlePaddle's ``paddle`` package is, or None: looked up on
    sys.path without paddle_compat's bootstrap directory and the current directory."""
    skip = {os.path.abspath(bootstrap_dir()), os.path.abspath(os.getcwd())}
    path = [p for p in sys.path if p and os.path.abspath(p) not in skip]
    spec = importlib.machinery.PathFinder.find_spec("paddle", path)
    if spec is None:
        return None
    if spec.submodule_search_locations:
        return list(spec.submodule_search_locations)[0]
    return spec.origin


def install_alias(user=False, force=False):
    """Write the .pth file; returns its path. Raises RuntimeError over a real Paddle."""
    real = real_paddle()
    if real is not None and not force:
        raise RuntimeError(
            f"a PaddlePaddle is installed in this environment ({real}): the alias would hide "
            "it from every program here. Uninstall it (pip uninstall paddlepaddle), use "
            "another virtualenv, or pass --force to shadow it anyway")
    path = pth_path(user)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("# paddle_compat: `import paddle` gives paddle_compat in this environment; "
                "remove with `python -m paddle_compat uninstall-alias`\n")
        f.write(pth_line())
    return path


def uninstall_alias(user=False):
    """Delete the .pth file; returns its path, or None where there was none."""
    path = pth_path(user)
    if not os.path.exists(path):
        return None
    os.remove(path)
    return path


def status():
    """Lines saying whether the alias is installed (system and user site) and whether a real
    Paddle is installed."""
    lines = []
    for user in (False, True):
        path = pth_path(user)
        where = "user site" if user else "environment"
        lines.append(f"alias ({where}): " + (f"installed, {path}" if os.path.exists(path)
                                             else f"not installed ({path})"))
    real = real_paddle()
    lines.append(f"real PaddlePaddle: {real or 'not installed'}")
    return lines


def main(argv):
    """``python -m paddle_compat install-alias | uninstall-alias | status``; exit status."""
    command, options = argv[0], argv[1:]
    unknown = [o for o in options if o not in ("--user", "--force")]
    if unknown or (command != "install-alias" and "--force" in options):
        print(f"paddle_compat {command}: unknown option {' '.join(unknown or ['--force'])}",
              file=sys.stderr)
        return 2
    user = "--user" in options
    if command == "install-alias":
        try:
            path = install_alias(user, force="--force" in options)
        except RuntimeError as e:
            print(f"paddle_compat install-alias: {e}", file=sys.stderr)
            return 1
        print(f"installed {path}: `import paddle` now gives paddle_compat in this environment "
              "(undo: python -m paddle_compat uninstall-alias)")
    elif command == "uninstall-alias":
        path = uninstall_alias(user)
        print(f"removed {path}" if path else f"no alias installed ({pth_path(user)})")
    else:
        print("\n".join(status()))
    return 0
