"""Draw paddle_compat's imports between its top-level packages as a Mermaid graph.

    python tools/import_graph.py            # print the graph (DEVELOPERS.md "Layers" has it)

Each arrow is "imports from"; nodes are grouped by the floors of pyproject.toml's import
contract, drawn bottom up. The script fails (exit 1) where an arrow runs up a floor or two
packages import each other, so the drawing it prints has neither.
"""
import collections
import os
import sys

import grimp

try:
    import tomllib
except ImportError:                                   # Python < 3.11
    import tomli as tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def floors():
    """The contract's floors, top first: lists of package names."""
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        contract = tomllib.load(f)["tool"]["importlinter"]["contracts"][0]
    return [[p.strip() for p in layer.replace(":", "|").split("|")]
            for layer in contract["layers"]]


def package_edges():
    g = grimp.build_graph("paddle_compat", include_external_packages=False)
    edges = collections.Counter()
    for m in g.modules:
        for imported in g.find_modules_directly_imported_by(m):
            a, b = m.split(".")[1:2], imported.split(".")[1:2]
            if a and b and a != b:
                edges[(a[0], b[0])] += 1
    return edges


def main():
    levels = floors()
    floor_of = {p: len(levels) - i for i, layer in enumerate(levels) for p in layer}
    edges = package_edges()
    bad = [f"{a} -> {b}" for a, b in edges
           if floor_of.get(a, 0) < floor_of.get(b, 0) or (b, a) in edges]
    lines = ["```mermaid", "graph BT"]
    for i, layer in enumerate(reversed(levels)):
        lines.append(f'  subgraph F{i}["floor {i}"]')
        lines += [f"    {p}" for p in layer]
        lines.append("  end")
    lines += [f"  {a} --> {b}" for a, b in sorted(edges)]
    lines.append("```")
    print("\n".join(lines))
    if bad:
        print("upward or mutual imports: " + ", ".join(sorted(bad)), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
