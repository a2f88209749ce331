"""``to_torch_module(layer)``: a paddle Layer as a ``torch.nn.Module`` for torch users.

The module owns no copies and mirrors the Layer's tree as nested torch modules: each Layer's
parameters become ``torch.nn.Parameter``s over the same storage, registered under their own
names on a submodule per sublayer, so names read as torch's do (``block.fc.weight`` inside a
torch model, ``module.fc.weight`` as an attribute path), ``module.parameters()`` feeds a torch
optimizer, and training either side changes the other. ``forward`` takes and returns torch
tensors (nested lists/tuples/dicts too); it runs the Layer's own forward, so whatever the Layer
does (a loaded ``jit.load`` model, PyLayers, control flow) it does here, and
``torch.compile(module)`` compiles it. ``train()``/``eval()`` switch the Layer's mode too.

``state_dict()`` / ``load_state_dict()`` speak torch's conventions where Paddle's layers store
a parameter differently from their torch counterparts, so a checkpoint of the same
architecture written in plain torch loads (and ours loads there): ``nn.Linear``'s weight is
``[out, in]`` in the state dict (Paddle holds ``[in, out]``), batch norm's statistics are
``running_mean`` / ``running_var`` (Paddle: ``_mean`` / ``_variance``; a torch checkpoint's
``num_batches_tracked`` is accepted and dropped) and instance norm's scale is ``weight``.
Conv, embedding, layer/group norm and recurrent weights are laid out alike and pass as they
are; a parameter reachable under several names (a recurrent layer's weights, in the flat list
and in their cells) is saved under the first, as torch's layer has it, and loaded into all.

Assigning a registered parameter on a module (``setattr(module, name, tensor)``, what torch's
parametrizations and FSDP2 do when they swap a parameter) rebinds the paddle Parameter's payload
too, so the Layer computes with whatever torch put there.

``module_tree(layer)`` (internal: the sharding engine in ``distributed.auto_parallel.sharding``)
gives the same tree, one ``LayerModule`` per Layer, with Paddle's own state-dict layout, so that
a torch wrapper applied per block (FSDP2's ``fully_shard``) sees the same structure as Paddle.
"""
import torch

from ..framework.tensor import Tensor, wrap
from .layer.common import Linear
from .layer.layers import Layer
from .layer.norm import _InstanceNormBase

__all__ = ["to_torch_module", "TorchModule"]


def _as_torch_parameter(p):
    """``p``'s payload as a ``torch.nn.Parameter`` (rebinding ``p._t`` to it, no copy)."""
    if not isinstance(p._t, torch.nn.Parameter):
        p._t = torch.nn.Parameter(p._t.detach(), requires_grad=p._t.requires_grad)
    return p._t


class _FollowsLayer(torch.nn.Module):
    """A module whose registered parameters are paddle Parameters' payloads: assigning one of
    them rebinds the paddle Parameter (``_paddle_params``: registered name -> Parameter)."""

    def __setattr__(self, name, value):
        super().__setattr__(name, value)            # torch's checks first
        p = self.__dict__.get("_paddle_params", {}).get(name)
        if p is not None and isinstance(value, torch.Tensor):
            p._t = value


def to_paddle_tree(x):
    """torch tensors in ``x`` (nested lists/tuples/dicts too) as paddle Tensors (no copy)."""
    if isinstance(x, torch.Tensor):
        return wrap(x)
    if isinstance(x, (list, tuple)):
        return type(x)(to_paddle_tree(v) for v in x)
    if isinstance(x, dict):
        return {k: to_paddle_tree(v) for k, v in x.items()}
    return x


def to_torch_tree(x):
    """paddle Tensors in ``x`` (nested lists/tuples/dicts too) as their torch tensors."""
    if isinstance(x, Tensor):
        return x._t
    if isinstance(x, (list, tuple)):
        return type(x)(to_torch_tree(v) for v in x)
    if isinstance(x, dict):
        return {k: to_torch_tree(v) for k, v in x.items()}
    return x


def to_torch_module(layer):
    """A ``torch.nn.Module`` sharing ``layer``'s parameters, calling its forward on torch
    tensors."""
    if not isinstance(layer, Layer):
        raise TypeError(f"to_torch_module expects a paddle Layer, got {type(layer).__name__}")
    return TorchModule(layer)


def _renamer(to_torch, transposed=(), dropped=()):
    """State-dict hooks for one module: (save, load). ``to_torch`` maps Paddle's parameter
    names to torch's; ``transposed`` names the 2-D parameters torch stores transposed;
    ``dropped``, entries of a torch checkpoint Paddle's layer has no place for."""
    def save(module, state, prefix, meta):
        for name in transposed:
            if prefix + name in state:
                state[prefix + name] = state[prefix + name].t()
        for ours, theirs in to_torch.items():
            if prefix + ours in state:
                state[prefix + theirs] = state.pop(prefix + ours)

    def load(module, state, prefix, meta, strict, missing, unexpected, errors):
        for name in dropped:
            state.pop(prefix + name, None)
        for ours, theirs in to_torch.items():
            if prefix + theirs in state:
                state[prefix + ours] = state.pop(prefix + theirs)
        for name in transposed:
            t = state.get(prefix + name)
            if isinstance(t, torch.Tensor) and t.dim() == 2:
                state[prefix + name] = t.t()
    return save, load


def _torch_state_hooks(module, layer):
    """Give ``module`` torch's state-dict layout for the Layers whose torch counterparts store
    a parameter differently (see the module docstring)."""
    names = set(layer._parameters)
    if isinstance(layer, Linear):
        save, load = _renamer({}, ("weight",))
    elif {"_mean", "_variance"} <= names:                       # the batch norms
        save, load = _renamer({"_mean": "running_mean", "_variance": "running_var"},
                              dropped=("num_batches_tracked",))
    elif isinstance(layer, _InstanceNormBase) and "scale" in names:
        save, load = _renamer({"scale": "weight"})
    else:
        return
    module.register_state_dict_post_hook(save)
    module.register_load_state_dict_pre_hook(load)


class LayerModule(_FollowsLayer):
    """One Layer of ``module_tree``: its own parameters and buffers, its sublayers' modules as
    submodules; ``forward`` runs the Layer's forward (``run``, by default the Layer's call)
    on torch tensors."""

    def __init__(self, layer, memo, torch_state=False):
        super().__init__()
        object.__setattr__(self, "layer", layer)
        object.__setattr__(self, "_paddle_params", {})
        object.__setattr__(self, "run", layer)
        memo[id(layer)] = self
        for name, p in layer._parameters.items():
            if p is not None:
                self.register_parameter(name, _as_torch_parameter(p))
                self._paddle_params[name] = p
        for name, b in layer._buffers.items():
            if b is not None:
                self.register_buffer(name, b._t,
                                     persistent=name not in layer._non_persistable_buffer_names_set)
        for name, sub in layer._sub_layers.items():
            if sub is not None:
                self.add_module(name, memo.get(id(sub)) or LayerModule(sub, memo, torch_state))
        self.training = layer.training
        if torch_state:
            _torch_state_hooks(self, layer)

    def forward(self, *args, **kwargs):
        return to_torch_tree(self.run(*to_paddle_tree(args), **to_paddle_tree(kwargs)))


def _alias_hooks(module):
    """State-dict hooks for parameters reachable under several names (Paddle's recurrent
    layers hold each weight in the flat list and in its cell): the state dict keeps the first
    name, as torch's layer of the same architecture has it; loading fills the others."""
    def groups():
        by_id = {}
        for name, p in module.named_parameters(remove_duplicate=False):
            by_id.setdefault(id(p), []).append(name)
        return [names for names in by_id.values() if len(names) > 1]

    def save(mod, state, prefix, meta):
        for names in groups():
            for name in names[1:]:
                state.pop(prefix + name, None)

    def load(mod, state, prefix, meta, strict, missing, unexpected, errors):
        for names in groups():
            given = next((state[prefix + n] for n in names if prefix + n in state), None)
            if given is not None:
                for name in names:
                    state.setdefault(prefix + name, given)
    module.register_state_dict_post_hook(save)
    module.register_load_state_dict_pre_hook(load)


class TorchModule(LayerModule):
    """The torch face of a paddle Layer (see the module docstring): the root of its tree, with
    torch's state-dict conventions."""

    def __init__(self, layer):
        super().__init__(layer, {}, torch_state=True)
        _alias_hooks(self)

    def train(self, mode=True):
        super().train(mode)
        self.layer.train() if mode else self.layer.eval()
        return self


def module_tree(layer):
    """``{id(sublayer): LayerModule}`` for ``layer`` and every sublayer (a Layer reached
    twice gets one module), the root's module under ``id(layer)``."""
    memo = {}
    LayerModule(layer, memo)
    return memo
