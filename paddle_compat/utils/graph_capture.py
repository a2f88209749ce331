"""``capture_forward_subgraph_guard`` / ``capture_backward_subgraph_guard``: draw the ops a
block of code runs as a Graphviz graph.

Paddle reads its own debug log for this; here a ``TorchDispatchMode`` sees every ATen op the
block runs (the backward guard: the ops the autograd engine runs for ``backward()``). Each op
is a node; an edge joins the op that made a tensor to each op that reads it, labelled with
the tensor's name, shape and dtype; tensors made before the block come from
``<name>_SourceNode`` boxes. The graph is written as DOT source (and rendered to SVG next to it
when the ``graphviz`` package and its ``dot`` program are installed)::

    with paddle.utils.capture_forward_subgraph_guard("/tmp/fwd"):
        y = paddle.tanh(x) * 2        # writes /tmp/fwd (DOT) [and /tmp/fwd.svg]
"""
import contextlib
import os

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

__all__ = ["capture_forward_subgraph_guard", "capture_backward_subgraph_guard"]

_OP_BOX = 'shape=box, style="rounded,filled,bold", color="#999999", fillcolor="#999999", ' \
          'fontcolor="#ffffff", fontname=Arial'
_SOURCE_BOX = 'shape=box, style="rounded,filled,bold", color="#FFE4B5", ' \
              'fillcolor="#FFE4B5", fontcolor="#ffffff", fontname=Arial'


class _Recorder(TorchDispatchMode):
    """Records (op name, input tensors, output tensors) for every ATen op it sees."""

    def __init__(self):
        super().__init__()
        self.calls = []
        self._keep = []            # hold the tensors so their ids stay unique

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        ins = [a for a in tree_flatten((args, kwargs or {}))[0] if isinstance(a, torch.Tensor)]
        outs = [o for o in tree_flatten(out)[0] if isinstance(o, torch.Tensor)]
        self._keep.extend(ins + outs)
        self.calls.append((func.overloadpacket.__name__, ins, outs))
        return out


def _quote(s):
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _dot(calls, with_values=False):
    """DOT source of the recorded calls."""
    names, made_by = {}, {}
    lines, nodes = ["digraph {"], set()

    def tname(t):
        if id(t) not in names:
            names[id(t)] = f"tensor_{len(names)}"
        return names[id(t)]

    def label(t):
        text = f"{tname(t)}\nshape:{list(t.shape)}\ndtype:{str(t.dtype).replace('torch.', '')}"
        if with_values and t.numel() <= 64 and t.layout == torch.strided:
            text += f"\nvalue:{t.detach().cpu().tolist()}"
        return text

    for i, (op, ins, outs) in enumerate(calls):
        node = f"{op}_{i}"
        lines.append(f"  {_quote(node)} [label={_quote(op)}, {_OP_BOX}]")
        for t in ins:
            src = made_by.get(id(t))
            if src is None:
                src = f"{tname(t)}_SourceNode"
                if src not in nodes:
                    nodes.add(src)
                    lines.append(f"  {_quote(src)} [label={_quote(src)}, {_SOURCE_BOX}]")
            lines.append(f"  {_quote(src)} -> {_quote(node)} [label={_quote(label(t))}]")
        for t in outs:
            made_by[id(t)] = node
            tname(t)
    lines.append("}")
    return "\n".join(lines) + "\n"


def _write(path, source):
    with open(path, "w") as f:
        f.write(source)
    try:                                    # the picture, where Graphviz is installed
        import graphviz
        graphviz.Source(source).render(outfile=path + ".svg", format="svg", cleanup=False)
    except Exception:  # noqa: BLE001 - no graphviz package or no `dot` program: DOT only
        pass


@contextlib.contextmanager
def capture_forward_subgraph_guard(file_path):
    """Write the graph of the ops run inside the block to ``file_path`` (DOT source; also
    ``file_path + ".svg"`` where Graphviz is installed)."""
    rec = _Recorder()
    try:
        with rec:
            yield
    finally:
        _write(str(file_path), _dot(rec.calls))


@contextlib.contextmanager
def capture_backward_subgraph_guard(dump_dir_path, need_dump_grad_tensors=False):
    """Write the graph of the ops run inside the block (the backward passes it starts) to
    ``<dump_dir_path>/backward_graph.dot``, the directory made if needed;
    ``need_dump_grad_tensors`` adds the values of small tensors (at most 64 elements) to the
    edge labels."""
    assert dump_dir_path is not None, "The dump_dir_path should not be None"
    os.makedirs(dump_dir_path, exist_ok=True)
    rec = _Recorder()
    try:
        with rec:
            yield
    finally:
        _write(os.path.join(str(dump_dir_path), "backward_graph.dot"),
               _dot(rec.calls, with_values=need_dump_grad_tensors))
