"""Record which Paddle 3.3.1 package attributes are a function or class while a submodule of
the same name exists (``paddle.amp.auto_cast`` the function, ``paddle/amp/auto_cast.py`` the
module), and what ``paddle.<pkg>.<name>`` is after that submodule is imported explicitly.
Golden for tests/test_submodule_names.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_submodule_names.py

The enumeration walks every public package (importing each); the check after an explicit
import runs in a fresh interpreter per import form (``import paddle.a.b``, ``from paddle.a
import b``, ``importlib.import_module``) that has imported only ``paddle`` before.
"""
import importlib
import inspect
import json
import os
import pkgutil
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUT = os.path.join(ROOT, "tests", "goldens", "submodule_names.json")

CHECK = """
import importlib, inspect, json, sys
import paddle
how, out = sys.argv[1], {}
for parent, name in json.loads(sys.argv[2]):
    full = parent + "." + name
    try:
        if how == "import":
            exec("import " + full)
        elif how == "from":
            exec("from " + parent + " import " + name + " as got")
        else:
            importlib.import_module(full)
        value = getattr(importlib.import_module(parent), name)
        out[full] = ("module" if inspect.ismodule(value) else
                     "class" if inspect.isclass(value) else "function")
    except Exception as e:
        out[full] = "error: " + type(e).__name__
print(json.dumps(out))
"""

def kind(value):
    return "class" if inspect.isclass(value) else "function"


def pairs():
    """(package, name, kind) for every attribute shadowing a submodule of the same name."""
    import paddle
    found, seen = [], set()

    def walk(mod):
        if mod.__name__ in seen or not hasattr(mod, "__path__"):
            return
        seen.add(mod.__name__)
        for info in pkgutil.iter_modules(mod.__path__):
            if info.name.startswith("_"):
                continue
            attr = mod.__dict__.get(info.name)
            if attr is not None and not inspect.ismodule(attr) and (
                    inspect.isfunction(attr) or inspect.isclass(attr)):
                found.append((mod.__name__, info.name, kind(attr)))
            if info.ispkg:
                try:
                    sub = importlib.import_module(f"{mod.__name__}.{info.name}")
                except Exception:       # a package needing an absent optional dependency
                    continue
                if inspect.ismodule(sub):
                    walk(sub)

    walk(paddle)
    return sorted(found)


def main():
    found = pairs()
    names = json.dumps([[p, n] for p, n, _ in found])
    after = {}
    for how in ("import", "from", "import_module"):
        r = subprocess.run([sys.executable, "-c", CHECK, how, names], capture_output=True,
                           text=True, check=True)
        after[how] = json.loads(r.stdout.strip().splitlines()[-1])
    out = [{"package": p, "name": n, "kind": k,
            "after": {how: after[how][f"{p}.{n}"] for how in after}} for p, n, k in found]
    with open(OUT, "w") as f:
        json.dump({"paddle": __import__("paddle").__version__, "pairs": out}, f, indent=1)
        f.write("\n")
    print(len(out), "pairs")


if __name__ == "__main__":
    main()
