"""Registration hooks: how the ground floor reaches code of a higher floor without importing it.

``framework/`` imports nothing else of the package (pyproject.toml's import contract). Where its
code needs a higher layer's behaviour -- the repr of a static Variable, the error for a Paddle
API we lack -- it calls a ``Hook`` here, and the layer that owns the behaviour fills the hook
when it is imported. Until then the hook does its documented default (a static Variable cannot
exist before ``static`` is imported, so its repr hook never runs unset).

    >>> from paddle_compat.framework import hooks
    >>> hooks.autocast_enabled()          # amp not imported, or no auto_cast active
    False

Every hook is listed below with its owner; ``grep -rn "hooks\\.<name>.set"`` finds the filler.
"""

__all__ = ["Hook", "Listeners", "autocast_enabled", "missing_tensor_attr", "static_repr",
           "record_pylayer", "record_grad_hook", "traced_backward", "is_layer", "creation_defaults_changed", "starting_children",
           "namespace_loaded", "default_block", "load_inference_model", "deform_conv2d",
           "matrix_nms", "dist_attrs", "dist_like", "fluid_op_tables"]


class Hook:
    """One function slot a higher layer fills at import (``hook.set(fn)``); calling the hook
    calls that function, or ``default`` while it is unset."""

    __slots__ = ("name", "fn", "doc")

    def __init__(self, name, default, doc):
        self.name = name
        self.fn = default
        self.doc = doc

    def set(self, fn):
        """Fill the hook (the owning layer does this once, at import); returns ``fn``."""
        self.fn = fn
        return fn

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)

    def __repr__(self):
        return f"<hook {self.name}: {getattr(self.fn, '__qualname__', self.fn)}>"


class Listeners(list):
    """Functions called, in order, when something at the ground floor changed."""

    def add(self, fn):
        if fn not in self:
            self.append(fn)
        return fn

    def __call__(self):
        for fn in self:
            fn()


def _unset(name):
    def fail(*args, **kwargs):
        raise RuntimeError(f"paddle_compat: the {name} hook was used before its layer was "
                           "imported")
    return fail


def _no_attr(tensor, name):
    raise AttributeError(f"'Tensor' object has no attribute '{name}'")


autocast_enabled = Hook(
    "autocast_enabled", lambda: False,
    "Whether ``paddle.amp.auto_cast`` is active (amp.auto_cast fills it); ops that Paddle's AMP "
    "casts differently (matmul with mixed dtypes) ask it.")

missing_tensor_attr = Hook(
    "missing_tensor_attr", _no_attr,
    "``Tensor.__getattr__(tensor, name)`` for a name normal lookup missed: compat.missing "
    "raises the error that says which Paddle API we lack.")

default_block = Hook(
    "default_block", _unset("default_block"),
    "``Tensor.block``: the Program block a tensor belongs to (the default main program's global "
    "block in dynamic mode); filled by compat, which reaches static on first use.")

static_repr = Hook(
    "static_repr", _unset("static_repr"),
    "``repr`` of a static Variable (a Tensor whose payload is an fx proxy); static fills it.")

record_pylayer = Hook(
    "record_pylayer", _unset("record_pylayer"),
    "Record ``PyLayer.apply`` on static Variables as one node of the current Program; static "
    "fills it.")

record_grad_hook = Hook(
    "record_grad_hook", _unset("record_grad_hook"),
    "``Tensor.register_hook`` on a static Variable (inside ``to_static`` or a Program): record a "
    "node that applies the hook to the gradient; returns the node's value and a handle whose "
    "``remove()`` turns the hook off. static fills it.")

traced_backward = Hook(
    "traced_backward", _unset("traced_backward"),
    "``Tensor.backward()`` on a static Variable (a ``to_static`` trace or a Program): static "
    "fills it to raise its StaticGraphError, so ``to_static`` runs such a function (a whole "
    "training step) in dynamic mode instead of failing inside torch's engine.")

is_layer = Hook(
    "is_layer", lambda obj: False,
    "Whether ``obj`` is an ``nn.Layer`` (nn fills it; none exists before nn is imported): "
    "``paddle.save`` refuses to pickle layers as Paddle does.")

load_inference_model = Hook(
    "load_inference_model", _unset("load_inference_model"),
    "``paddle.static.load_inference_model(path_prefix, executor, **kwargs)``: static calls it; "
    "the package's __init__ fills it with ``paddle.inference.load_inference_model`` (a floor "
    "above static: it runs the program through ``jit.load``), imported on first call.")

fluid_op_tables = Hook(
    "fluid_op_tables", lambda: None,
    "Bring in the op-type tables of floors above static (``jit.program_desc``'s fluid ops): "
    "``static.fluid_ops`` calls it before its first lookup; the package's __init__ fills it "
    "with an import of ``jit.program_desc``, which registers its table.")

deform_conv2d = Hook(
    "deform_conv2d", _unset("deform_conv2d"),
    "``paddle.vision.ops.deform_conv2d(x, offset, weight, bias=, stride=, padding=, dilation=, "
    "deformable_groups=, groups=, mask=)``: ``static.nn.deform_conv2d`` calls it after creating "
    "its parameters; the package's __init__ fills it (vision is floors above static), imported "
    "on first call.")

matrix_nms = Hook(
    "matrix_nms", _unset("matrix_nms"),
    "``paddle.vision.ops.matrix_nms(bboxes, scores, score_threshold, post_threshold, "
    "nms_top_k, keep_top_k, ...)``: the ``matrix_nms`` op type (``jit.program_desc``'s table) "
    "calls it; the package's __init__ fills it (vision is floors above jit), imported on first "
    "call.")

dist_attrs = Hook(
    "dist_attrs", lambda t: (None, None),
    "``(process_mesh, placements)`` of a distributed tensor's payload (a torch DTensor), as "
    "Paddle's ``ProcessMesh`` and placements: ``Tensor.process_mesh``/``placements`` ask it; "
    "distributed.auto_parallel fills it (no DTensor exists before it is imported).")

dist_like = Hook(
    "dist_like", lambda t, like, whole=False: t,
    "``dist_like(t, like, whole=False)``: the full dense tensor ``t`` laid out on the mesh and "
    "placements of the DTensor ``like`` (an optimizer's state of a distributed parameter; "
    "replicated with ``whole``); filled by distributed.auto_parallel.")

creation_defaults_changed = Listeners()
"""Called after Paddle's device or default dtype changed (set_device, set_default_dtype): the C
fast paths of the creation ops (ops.registry) re-read them."""

starting_children = Listeners()
"""Called before ``paddle.distributed.spawn`` starts its processes: the import hook (compat)
adds what makes ``import paddle`` resolve to paddle_compat in the children too."""

namespace_loaded = Listeners()
"""Called after the package imported a namespace on first use (``paddle.nn``): the import hook
(compat) gives the new modules its missing-API errors."""
