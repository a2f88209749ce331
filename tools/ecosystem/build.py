"""Build the ecosystem venvs from tools/ecosystem/recipes.py (idempotent).

    python tools/ecosystem/build.py [--only GROUP_OR_LIB ...] [--force]

A venv whose recipe is unchanged since its last successful build (``.recipe`` stamp) is kept.
Groups are installed one at a time (disk and time).
"""
import argparse
import glob
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from recipes import RECIPES, group_of, python_of, venvs_root  # noqa: E402


def stamp_of(recipe):
    """The text that says what a venv was built from."""
    doc = {"reqs": recipe.requirements(),
           "sdists": {k: list(v[0:1]) + [list(map(list, v[1]))] for k, v in recipe.sdists.items()}}
    if recipe.no_deps:          # only then: the other venvs' stamps stay as they were
        doc["no_deps"] = recipe.no_deps_requirements()
    return json.dumps(doc, sort_keys=True)


def pip(py, *args):
    cmd = [py, "-m", "pip", "install", "--disable-pip-version-check", *args]
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


def fetch_sdist(name, version, dest):
    """Download ``name-version.tar.gz`` from the package index's simple page (PEP 503) into
    ``dest`` and check its sha256. ``pip download`` cannot: it builds the sdist's metadata
    first, which is what fails before the patch."""
    index = os.environ.get("PIP_INDEX_URL") or "https://pypi.org/simple"
    page = urllib.request.urlopen(f"{index.rstrip('/')}/{name}/", timeout=120).read().decode()
    fname = f"{name}-{version}.tar.gz"
    links = [h for h in re.findall(r'href="([^"]+)"', page) if h.split("#")[0].endswith("/" + fname)]
    if not links:
        raise RuntimeError(f"{fname} not found on {index}")
    url, _, frag = html.unescape(links[0]).partition("#")
    path = os.path.join(dest, fname)
    with urllib.request.urlopen(urllib.parse.urljoin(f"{index}/{name}/", url), timeout=600) as r, \
            open(path, "wb") as f:
        shutil.copyfileobj(r, f)
    algo, _, digest = frag.partition("=")
    if algo == "sha256":
        with open(path, "rb") as f:
            got = hashlib.sha256(f.read()).hexdigest()
        if got != digest:
            raise RuntimeError(f"{fname}: sha256 {got} != index's {digest}")
    return path


def build_sdist(py, name, version, patches, wheel_dir):
    """Download ``name==version``'s sdist, apply ``patches`` [(file, old, new)], build a wheel
    with the venv's own build dependencies (no isolation), return its path."""
    tmp = tempfile.mkdtemp(prefix=f"eco_{name}_")
    archive = fetch_sdist(name, version, tmp)
    with tarfile.open(archive) as tf:
        tf.extractall(tmp, filter="data")
    src = os.path.join(tmp, f"{name}-{version}")
    for fname, old, new in patches:
        path = os.path.join(src, fname)
        with open(path) as f:
            text = f.read()
        if old not in text:
            raise RuntimeError(f"patch for {name} {fname}: {old!r} not found")
        with open(path, "w") as f:
            f.write(text.replace(old, new, 1))
    subprocess.run([py, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-w", wheel_dir, src], check=True)
    (wheel,) = glob.glob(os.path.join(wheel_dir, f"{name}-{version}-*.whl"))
    shutil.rmtree(tmp, ignore_errors=True)
    return wheel


def build(group, force=False):
    """Create/refresh the venv of ``group``; return its python."""
    recipe = RECIPES[group]
    root = os.path.join(venvs_root(), group)
    stamp_file = os.path.join(root, ".recipe")
    stamp = stamp_of(recipe)
    if not force and os.path.exists(stamp_file) and open(stamp_file).read() == stamp:
        print(f"{group}: up to date ({root})")
        return python_of(group)
    if not os.path.exists(python_of(group)):
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", root], check=True)
    py = python_of(group)
    pins = [p for p in recipe.pins]
    if recipe.sdists:
        pip(py, *pins, "setuptools<81", "wheel")       # the sdists' build needs
        wheel_dir = os.path.join(venvs_root(), "_wheels")
        os.makedirs(wheel_dir, exist_ok=True)
        for name, (version, patches) in recipe.sdists.items():
            found = glob.glob(os.path.join(wheel_dir, f"{name}-{version}-*.whl"))
            wheel = found[0] if found else build_sdist(py, name, version, patches, wheel_dir)
            pip(py, wheel, *pins)
    pip(py, *recipe.requirements())
    if recipe.no_deps:
        pip(py, "--no-deps", *recipe.no_deps_requirements())
    with open(stamp_file, "w") as f:
        f.write(stamp)
    print(f"{group}: built ({root})")
    return py


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", default=None, help="groups or library names")
    ap.add_argument("--force", action="store_true", help="reinstall even if up to date")
    args = ap.parse_args(argv)
    groups = list(RECIPES) if not args.only else [group_of(x) for x in args.only]
    failed = []
    for g in dict.fromkeys(groups):
        try:
            build(g, args.force)
        except (subprocess.CalledProcessError, RuntimeError, ValueError) as e:
            print(f"{g}: FAILED: {e}", file=sys.stderr)
            failed.append(g)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
