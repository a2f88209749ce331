"""Handing a Program to torch users: ``to_graph_module`` and ``export``.

``to_graph_module(program, feed_names, fetch_list)`` returns a ``torch.fx.GraphModule`` whose
``forward(*feeds)`` returns the fetched values as a tuple; the parameters (and other
persistables) are taken from the Scope and become the module's ``nn.Parameter`` attributes,
shared with the Scope (training either side updates the other). It is the same graph
``Executor.run`` runs.

``export(program, feed, fetch_list)`` goes on to ``torch.export.export`` with the given example
feed; dynamic dims (``-1`` in ``static.data``) are declared ``torch.export.Dim.AUTO``. Programs
whose fetches need a backward pass (``torch.autograd.grad`` inside the graph) cannot be
exported by torch; export the forward (``program.clone(for_test=True)``) instead.
"""
import numpy as np
import torch

from .executor import build_graph_module, global_scope

__all__ = ["to_graph_module", "export"]


def to_graph_module(program, feed_names, fetch_list, scope=None, device="cpu"):
    """The GraphModule ``(*feeds) -> tuple(fetches)`` of ``program``."""
    scope = scope or global_scope()
    if isinstance(feed_names, str):
        feed_names = [feed_names]
    if not isinstance(fetch_list, (list, tuple)):
        fetch_list = [fetch_list]
    nodes = [program.fetch_node(f) for f in fetch_list]
    gm, _, persist, persist_out = build_graph_module(program, tuple(feed_names), nodes,
                                                     torch.device(device), bake_scope=scope)
    gm.meta = {"feed_names": tuple(feed_names), "program": program}
    return gm


def export(program, feed, fetch_list, scope=None, strict=False):
    """``torch.export.export`` of the program's forward for the example ``feed`` (a dict
    name -> array); ``-1`` dims are exported as dynamic (``Dim.AUTO``)."""
    names = tuple(feed)
    gm = to_graph_module(program, names, fetch_list, scope)
    args = []
    shapes = []
    for n in names:
        node = program.node_by_name(n)
        t = torch.as_tensor(np.asarray(feed[n])).to(node.meta["pv"][0].dtype)
        args.append(t)
        declared = node.meta.get("declared_shape") or list(t.shape)
        shapes.append({i: torch.export.Dim.AUTO for i, d in enumerate(declared) if d < 0} or None)
    return torch.export.export(gm, tuple(args), dynamic_shapes=tuple(shapes), strict=strict)
