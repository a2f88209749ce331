"""Which Paddle names do the ecosystem libraries reach that paddle_compat lacks?

A static scan (nothing of the libraries is installed or run): every ``.py`` file of each
library's wheel / sdist is parsed with ``ast`` for

* ``import paddle.X.Y [as Z]``             -> the module ``paddle.X.Y``
* ``from paddle.X import n [as m]``        -> ``paddle.X.n`` (an attribute or a submodule)
* attribute chains ``paddle.a.b.c``        -> ``paddle.a.b.c``, with the file's aliases
  resolved (``import paddle.nn.functional as F`` makes ``F.relu`` ``paddle.nn.functional.relu``,
  ``from paddle import nn`` makes ``nn.Linear`` ``paddle.nn.Linear``)

and each name is then resolved twice, in child processes: under real Paddle 3.3.1 (the oracle
interpreter, ``--paddle-python``) and under paddle_compat with its import hook installed
(``paddle_compat.install()``, what ``python -m paddle_compat`` does). The report lists, per
library, the names that resolve in Paddle but not in ours, with the number of files using each
and whether a use runs at import time (module or class body, not inside a function).

    python tools/ecosystem/scan_internals.py download        # pip download + unpack
    python tools/ecosystem/scan_internals.py scan            # scan, resolve, write the report
    python tools/ecosystem/scan_internals.py scan --lib paddlenlp --show paddlenlp

Writes ``tools/ecosystem/internals_report.json`` and ``internals_report.txt``. The libraries'
sources stay under ``--dir`` (default /work/eco_dl), never in the project.
"""
import argparse
import ast
import collections
import json
import os
import subprocess
import sys
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

#: library -> version (the versions of issue 30)
LIBRARIES = {
    "paddleocr": "3.7.0", "paddlex": "3.7.2", "paddlenlp": "2.8.1", "ppdiffusers": "0.29.0",
    "paddleseg": "2.8.0", "paddleclas": "2.6.0", "paddledet": "2.6.0", "paddlesci": "1.4.0",
    "pgl": "2.2.6", "paddleslim": "2.6.0", "visualdl": "2.5.3", "paddlespeech": "1.5.0",
}


# ---------------------------------------------------------------------------------- download

def _archive_of(dl_dir, lib, version):
    """The downloaded wheel or sdist of ``lib==version`` in ``dl_dir`` (None if absent)."""
    stem = lib.replace("-", "_").lower()
    for f in sorted(os.listdir(dl_dir)):
        low = f.lower().replace("-", "_")
        if low.startswith(f"{stem}_{version}") and f.endswith((".whl", ".tar.gz", ".zip")):
            return os.path.join(dl_dir, f)
    return None


def download(dl_dir, libs):
    """``pip download --no-deps`` each library (once) and unpack it under ``dl_dir/src/lib``."""
    os.makedirs(dl_dir, exist_ok=True)
    for lib in libs:
        version = LIBRARIES[lib]
        if _archive_of(dl_dir, lib, version) is None:
            base = [sys.executable, "-m", "pip", "download", "--no-deps", "-d", dl_dir,
                    f"{lib}=={version}"]
            if subprocess.run(base + ["--no-build-isolation"]).returncode != 0:
                # an sdist whose setup.py fails on this Python (pgl 2.2.6): an older Python's
                # wheel carries the same .py files, which is all a scan reads
                subprocess.run(base + ["--only-binary", ":all:", "--python-version", "3.7",
                                       "--platform", "manylinux1_x86_64"], check=True)
        archive = _archive_of(dl_dir, lib, version)
        dest = os.path.join(dl_dir, "src", lib)
        if os.path.isdir(dest):
            continue
        os.makedirs(dest)
        if archive.endswith((".whl", ".zip")):
            with zipfile.ZipFile(archive) as z:
                z.extractall(dest)
        else:
            with tarfile.open(archive) as t:
                t.extractall(dest, filter="data")
        print(f"{lib}: {os.path.basename(archive)} -> {dest}")


# -------------------------------------------------------------------------------------- scan

class _Use:
    """Where one Paddle name is used one way: its files and whether a use runs at import
    time."""
    __slots__ = ("files", "import_time")

    def __init__(self):
        self.files = set()
        self.import_time = False


class _Scanner(ast.NodeVisitor):
    """Collects the dotted Paddle names one file reaches (see the module docstring)."""

    def __init__(self, uses, path):
        self.uses = uses
        self.path = path
        self.aliases = {}           # local name -> dotted Paddle name
        self.depth = 0              # function nesting: 0 = runs at import time

    def _add(self, name, kind):
        u = self.uses.setdefault((name, kind), _Use())
        u.files.add(self.path)
        if self.depth == 0:
            u.import_time = True

    def visit_Import(self, node):
        for a in node.names:
            if a.name == "paddle" or a.name.startswith("paddle."):
                if a.name != "paddle":
                    self._add(a.name, "module")
                if a.asname:
                    self.aliases[a.asname] = a.name
                else:
                    self.aliases["paddle"] = "paddle"

    def visit_ImportFrom(self, node):
        mod = node.module or ""
        if node.level or not (mod == "paddle" or mod.startswith("paddle.")):
            return
        if mod != "paddle":
            self._add(mod, "module")
        for a in node.names:
            if a.name == "*":
                continue
            full = f"{mod}.{a.name}"
            self._add(full, "from")
            self.aliases[a.asname or a.name] = full

    def _function(self, node):
        for d in node.decorator_list:
            self.visit(d)
        args = node.args
        for default in args.defaults + [d for d in args.kw_defaults if d is not None]:
            self.visit(default)
        self.depth += 1
        for stmt in node.body:
            self.visit(stmt)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def visit_Lambda(self, node):
        self.depth += 1
        self.visit(node.body)
        self.depth -= 1

    def visit_Attribute(self, node):
        parts = []
        cur = node
        while isinstance(cur, ast.Attribute):
            parts.append(cur.attr)
            cur = cur.value
        if isinstance(cur, ast.Name) and cur.id in self.aliases:
            base = self.aliases[cur.id]
            self._add(".".join([base] + parts[::-1]), "attr")
            return
        self.generic_visit(node)

    def visit_Name(self, node):
        # a bare alias (``paddle`` itself, ``F``) adds nothing; its import was counted
        return


def scan_library(src_dir):
    """{(dotted Paddle name, how it is reached): _Use} over every .py file under ``src_dir``; also the file count."""
    uses = {}
    n = 0
    for dirpath, dirnames, filenames in os.walk(src_dir):
        dirnames.sort()
        for f in sorted(filenames):
            if not f.endswith(".py"):
                continue
            path = os.path.join(dirpath, f)
            try:
                with open(path, "rb") as fh:
                    tree = ast.parse(fh.read(), filename=path)
            except (SyntaxError, ValueError):
                continue
            n += 1
            _Scanner(uses, os.path.relpath(path, src_dir)).visit(tree)
    return uses, n


# ----------------------------------------------------------------------------------- resolve

#: run in a child interpreter: reads {"names": [[name, kind], ...]} from stdin, prints
#: {"kind:name": null | "error text"} (null: it resolves). ``kind``: "module" (``import n``),
#: "from" (``from parent import last``), "attr" (an attribute chain after ``import paddle``).
_RESOLVER = r'''
import importlib, json, sys, warnings, io, contextlib
warnings.filterwarnings("ignore")
req = json.load(sys.stdin)
if req["compat"]:
    sys.path.insert(0, req["compat"])
    import paddle_compat
    paddle_compat.install()
with contextlib.redirect_stdout(io.StringIO()):
    import paddle
out = {}

def resolve(name, kind):
    if kind == "module":
        importlib.import_module(name)
        return
    if kind == "from":
        # what ``from paddle.a import b`` does: import paddle.a, then its attribute b, else
        # the submodule paddle.a.b
        parent, _, child = name.rpartition(".")
        mod = importlib.import_module(parent)
        try:
            getattr(mod, child)
        except AttributeError:
            importlib.import_module(name)
        return
    parts = name.split(".")
    obj = importlib.import_module(parts[0])
    for i in range(1, len(parts)):
        try:
            obj = getattr(obj, parts[i])
        except AttributeError:
            if not isinstance(obj, type(sys)):
                raise
            # ``import paddle.a.b`` / ``from paddle.a import b`` also reach submodules
            obj = importlib.import_module(".".join(parts[:i + 1]))

for name, kind in req["names"]:
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            resolve(name, kind)
        out[kind + ":" + name] = None
    except BaseException as e:
        out[kind + ":" + name] = f"{type(e).__name__}: {e}"[:300]
sys.stdout.write(json.dumps(out))
'''


def resolve(python, names, compat_root=None, env=None):
    """{"kind:name": None | error} for [(name, kind)] under ``python`` (paddle_compat when
    ``compat_root`` is given)."""
    req = json.dumps({"names": sorted(names), "compat": compat_root})
    proc = subprocess.run([python, "-c", _RESOLVER], input=req, capture_output=True, text=True,
                          env=env, timeout=3600)
    if proc.returncode != 0:
        raise RuntimeError(f"resolver under {python} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout)


def _top_prefix(name, ok):
    """The shortest prefix of ``name`` that fails as an attribute chain (the name to
    implement: ``paddle.a.b.c`` reports ``paddle.a.b`` when ``paddle.a.b`` itself is missing)."""
    parts = name.split(".")
    for i in range(2, len(parts)):
        p = ".".join(parts[:i])
        if ok.get("attr:" + p) is False:
            return p
    return name


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("command", choices=("download", "scan"))
    ap.add_argument("--dir", default="/work/eco_dl", help="downloads and unpacked sources")
    ap.add_argument("--lib", action="append", help="only these libraries (repeatable)")
    ap.add_argument("--paddle-python", default="/work/paddle_venv/bin/python")
    ap.add_argument("--out", default=os.path.join(HERE, "internals_report"))
    ap.add_argument("--show", action="append", default=[],
                    help="print this library's missing names with their files")
    args = ap.parse_args(argv)
    libs = args.lib or list(LIBRARIES)
    if args.command == "download":
        download(args.dir, libs)
        return 0

    per_lib = {}
    all_names = set()
    for lib in libs:
        src = os.path.join(args.dir, "src", lib)
        if not os.path.isdir(src):
            print(f"{lib}: not downloaded (run `download` first)", file=sys.stderr)
            continue
        uses, n = scan_library(src)
        per_lib[lib] = (uses, n)
        for name, kind in uses:
            # a name's every prefix is resolved too, so a report can name the missing module
            parts = name.split(".")
            for i in range(2, len(parts)):
                all_names.add((".".join(parts[:i]), "attr"))
            all_names.add((name, kind))
    names = sorted(all_names)
    print(f"resolving {len(names)} names under Paddle and paddle_compat ...", file=sys.stderr)
    env = dict(os.environ, PYTHONPATH="", CUDA_VISIBLE_DEVICES="")
    theirs = resolve(args.paddle_python, names, env=env)
    ours = resolve(sys.executable, names, compat_root=ROOT, env=env)
    ok_theirs = {k: v is None for k, v in theirs.items()}
    ok_ours = {k: v is None for k, v in ours.items()}

    report = {"paddle": "3.3.1", "libraries": {}}
    lines = []
    for lib, (uses, n_files) in per_lib.items():
        missing = collections.defaultdict(lambda: {"files": set(), "import_time": False,
                                                   "used_as": set(), "error": None})
        for (name, kind), u in uses.items():
            key = kind + ":" + name
            if not ok_theirs.get(key) or ok_ours.get(key):
                continue
            top = _top_prefix(name, ok_ours)
            if not ok_theirs.get("attr:" + top):
                top = name
            m = missing[top]
            m["files"] |= u.files
            m["import_time"] |= u.import_time
            m["used_as"].add(key)
            m["error"] = ours.get("attr:" + top) or ours.get(key)
        entries = sorted(missing.items(), key=lambda kv: (-kv[1]["import_time"],
                                                           -len(kv[1]["files"]), kv[0]))
        report["libraries"][lib] = {
            "version": LIBRARIES[lib], "py_files": n_files, "names_used": len(uses),
            "missing": {k: {"files": len(v["files"]), "import_time": v["import_time"],
                            "used_as": sorted(v["used_as"])[:8], "error": v["error"]}
                        for k, v in entries}}
        lines.append(f"{lib} {LIBRARIES[lib]}: {n_files} .py files, {len(uses)} Paddle names, "
                     f"{len(entries)} missing in paddle_compat")
        for k, v in entries:
            flag = "import" if v["import_time"] else "call  "
            lines.append(f"  {flag} {len(v['files']):4d} files  {k}")
            if lib in args.show:
                for f in sorted(v["files"])[:5]:
                    lines.append(f"                 {f}")
    # names by how many libraries miss them
    by_name = collections.Counter()
    for lib, d in report["libraries"].items():
        by_name.update(d["missing"].keys())
    report["by_libraries"] = dict(sorted(by_name.items(), key=lambda kv: (-kv[1], kv[0])))
    with open(args.out + ".json", "w") as f:
        json.dump(report, f, indent=1, sort_keys=False)
        f.write("\n")
    with open(args.out + ".txt", "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
