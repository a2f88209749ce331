"""Extract the model files the zoo drivers need from local git mirrors of Paddle's model
repositories into ``/work/zoo_src/<Repo>/`` (or ``$MODEL_ZOO_SRC``). Never committed.

    python tools/model_zoo/extract.py [--mirror-root /work/.mirror]

The mirrors are bare git directories (``<root>/PaddlePaddle+PaddleClas/repo`` ...). Only the
listed paths are extracted, each file unchanged, at the pinned commit. Where a package's own
``__init__.py`` imports the whole repository (datasets, engines, third-party packages the model
files never use), a one-line stand-in ``__init__.py`` is written instead (listed in SCAFFOLD and
reported); the model files themselves are never touched.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from sources import REPOS, zoo_root  # noqa: E402


def extract(mirror_root, dest_root):
    done = {}
    for repo, spec in REPOS.items():
        if "mirror" not in spec:
            continue
        gitdir = os.path.join(mirror_root, spec["mirror"].replace("/", "+"), "repo")
        if not os.path.isdir(gitdir):
            print(f"skip {repo}: no mirror at {gitdir}")
            continue
        dest = os.path.join(dest_root, repo)
        os.makedirs(dest, exist_ok=True)
        commit = spec["commit"]
        for p in spec["paths"]:
            tar = subprocess.run(["git", f"--git-dir={gitdir}", "archive", commit, p],
                                 check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", dest], input=tar, check=True)
        for p, text in spec.get("scaffold", {}).items():
            full = os.path.join(dest, p)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write("# stand-in written by tools/model_zoo/extract.py (the real file imports "
                        "the whole repository)\n" + text)
        done[repo] = commit
        print(f"{repo}: {len(spec['paths'])} paths at {commit[:10]} -> {dest}")
    with open(os.path.join(dest_root, "SOURCES.json"), "w") as f:
        json.dump(done, f, indent=1)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror-root", default="/work/.mirror")
    a = ap.parse_args()
    extract(a.mirror_root, zoo_root())
