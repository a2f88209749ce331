"""Paddle 3.3.1's torch-style spellings of a public function, applied by the op registry.

Paddle 3.x takes torch's spelling across its API: keyword aliases (``paddle.sum(x, dim=1)``,
``paddle.add(input=x, other=y)``), sizes as varargs (``paddle.zeros(2, 3)``,
``x.reshape(4, 3)``), the keywords ``out``/``device``/``requires_grad``/``pin_memory`` on ops
whose Paddle functions never had them, and a few torch argument orders
(``paddle.gather(x, 1, index)``). Which API takes what is data, recorded from Paddle 3.3.1
itself into ``alias_table`` (and Paddle's own parameter names into ``alias_signatures``) by
``tools/aliases/record_aliases.py``.

``respell(fn, path)`` gives ``fn`` those spellings of the public API ``path``
(``"paddle.sum"``, ``"paddle.Tensor.reshape"``): ``fn`` itself where Paddle has none, else one
thin wrapper that hands a call in Paddle's own spelling straight to ``fn`` (the only cost is the
wrapper's frame, and FastOps' C paths skip even that) and rewrites the others first. The
registry calls it when a namespace is published and when Tensor methods are installed, so the
op modules define each function once, in Paddle's spelling.
"""
import functools
import inspect
import sys
import types
import warnings

import torch

from ..framework.place import to_torch_device
from ..framework.tensor import Tensor
from . import alias_table as _table
from .alias_signatures import LAYER_METHOD_SIGNATURES as _SIG_METHODS
from .alias_signatures import LAYER_SIGNATURES as _SIG_LAYERS
from .alias_signatures import SIGNATURES as _SIGNATURES

__all__ = ["respell", "respell_class"]

#: keywords Paddle 3.3.1 added to many functions, handled here when ``fn`` lacks them
_EXTRAS = ("out", "device", "requires_grad", "pin_memory")


def _parameters(fn):
    """(names of fn's parameters, whether it takes **kwargs), or None where unknown."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    names = set()
    var_kw = False
    for p in sig.parameters.values():
        if p.kind is p.VAR_KEYWORD:
            var_kw = True
        elif p.kind is not p.VAR_POSITIONAL:
            names.add(p.name)
    return names, var_kw


def _both_given(kind, api, original, alias):
    if kind == "ValueError":
        return ValueError(f"Cannot specify both '{original}' and its alias '{alias}'")
    return TypeError(f"{api}() got multiple values for argument '{original}'")


def _write_out(out, res):
    """``out=``: ``out`` (a Tensor, or a list/tuple of them for several results) takes the
    result and is returned, as in Paddle."""
    if isinstance(out, (list, tuple)) and isinstance(res, (list, tuple)):
        for o, r in zip(out, res):
            _write_out(o, r)
        return type(res)(out) if type(res) in (list, tuple) else res
    if not isinstance(out, Tensor):
        raise TypeError(f"out must be a Tensor, but got {type(out).__name__}")
    out._t = res._t if isinstance(res, Tensor) else torch.as_tensor(res)
    return out


def _place_result(res, device, requires_grad, pin_memory):
    if isinstance(res, Tensor):
        t = res._t
        if device is not None:
            t = t.to(to_torch_device(device))
        if pin_memory:
            if not torch.cuda.is_available():
                raise RuntimeError("Pinning memory is not supported for Place(cpu).")
            t = t.pin_memory()
        if t is not res._t:
            res._t = t
        if requires_grad:
            res.stop_gradient = False
    return res


def respell(fn, path):
    """``fn`` taking the other spellings Paddle 3.3.1 accepts for the public API ``path``
    (``fn`` itself where there are none)."""
    if path in _IGNORING:
        return _ignoring(fn)
    sig = _SIGNATURES.get(path, ())
    aliases = _table.ALIASES.get(path) or {}
    size = _table.SIZE_ARGS.get(path)
    forbidden = _table.FORBIDDEN.get(path)
    api = path.rsplit(".", 1)[1]
    special = _SPECIAL.get(api.rstrip("_")) if path in _table.SPECIAL else None
    info = _parameters(fn)
    if info is None:
        return fn
    names, var_kw = info
    if not var_kw:      # an alias of a parameter we do not have could only fail later
        aliases = {a: p for a, p in aliases.items() if p in names and a not in names}
    extras = tuple(e for e in _EXTRAS if e in sig and e not in names and not var_kw)
    if not (aliases or size or extras or forbidden or special):
        return fn
    both = _table.BOTH_GIVEN.get(path, "TypeError")
    # one wrapper per function and spelling (paddle.sum and Tensor.sum share theirs)
    # C++-parsed APIs refuse an alias whose parameter came positionally with ValueError too
    # (Python's binding gives the decorated ones a TypeError by itself)
    positional = sig[:sig.index("*")] if "*" in sig else sig
    taken = tuple((a, positional.index(p)) for a, p in aliases.items() if p in positional) \
        if _table.KIND.get(path) == "C++" else ()
    key = (fn, tuple(sorted(aliases.items())), size, extras, forbidden, special, both, taken)
    spelled = _made.get(key)
    if spelled is None:
        spelled = _made[key] = _spelled(fn, path, aliases, size, extras, forbidden, special,
                                        both, "place" in names, taken)
    return spelled


_made = {}
_IGNORING = frozenset(_table.IGNORES_KEYWORDS)


def _ignoring(fn):
    """A Tensor method Paddle writes in C without reading its arguments (``x.numpy(False)``,
    ``x.clone(memory_format=...)``): ``fn`` (taking only the tensor) ignoring any it is
    given. A FastOp made of it keeps ``fn``'s C path for the plain call."""
    info = _positional_names(fn)
    if info is None or len(info[1]) != 1 or info[2]:
        return fn

    @functools.wraps(fn)
    def ignoring(self, *_, **__):
        return fn(self)
    return ignoring


def _spelled(fn, path, aliases, size, extras, forbidden, special, both, takes_place, taken):
    api = path.rsplit(".", 1)[1]
    start = size[1] if size else -1
    keys = frozenset(aliases) | frozenset(extras) | frozenset(forbidden[0] if forbidden else ())
    extra_keys = frozenset(extras)

    def rewrite(args, kwargs):
        """The keyword arguments in Paddle's spelling, and what to do with the result (or
        None), with Paddle's errors for refused keywords and for both spellings given."""
        if forbidden:
            bad = sorted(set(forbidden[0]) & set(kwargs))
            if bad:
                raise TypeError(f"{api}() got an unexpected keyword argument '{bad[0]}'; "
                                f"for the torch-style call use {forbidden[1]}")
        for alias, pos in taken:
            if alias in kwargs and len(args) > pos:
                raise _both_given("ValueError", api, aliases[alias], alias)
        for alias, original in aliases.items():
            if alias in kwargs and original in kwargs and both != "alias":
                raise _both_given(both, api, original, alias)
        kwargs = {aliases.get(k, k): v for k, v in kwargs.items()}
        if extra_keys.isdisjoint(kwargs):
            return kwargs, None
        out = kwargs.pop("out", None)
        device = kwargs.pop("device", None)
        requires_grad = kwargs.pop("requires_grad", False)
        pin_memory = kwargs.pop("pin_memory", False)
        if device is not None and takes_place and "place" not in kwargs:
            kwargs["place"] = device
            device = None
        if out is None and device is None and not requires_grad and not pin_memory:
            return kwargs, None

        def finish(res):
            res = _place_result(res, device, requires_grad, pin_memory)
            return res if out is None else _write_out(out, res)
        return kwargs, finish

    if not (forbidden or extras or taken or both == "alias"):
        def rename(args, kwargs):
            """The common torch-style call: keywords renamed, none given twice."""
            renamed = {aliases.get(k, k): v for k, v in kwargs.items()}
            if len(renamed) < len(kwargs):      # an alias and its parameter both given
                rewrite(args, kwargs)           # raises Paddle's error
            return renamed, None
    else:
        rename = rewrite

    after = [fn]        # what a renamed call goes to: the FastOp once there is one (C path)

    if special is None and start < 0:
        @functools.wraps(fn)
        def spelled(*args, **kwargs):
            # the common case: a call in Paddle's spelling goes straight to fn
            if kwargs and not keys.isdisjoint(kwargs):
                kwargs, finish = rename(args, kwargs)
                res = after[0](*args, **kwargs)
                return res if finish is None else finish(res)
            return fn(*args, **kwargs)
    else:
        @functools.wraps(fn)
        def spelled(*args, **kwargs):
            target = None
            if special is not None and (kwargs or (len(args) > 1 and type(args[1]) is int)
                                        or (len(args) > 2 and type(args[2]) is int)):
                target, args, kwargs = special(fn, args, kwargs)    # a torch argument order
            finish = None
            if kwargs and not keys.isdisjoint(kwargs):
                kwargs, finish = rename(args, kwargs)
                target = target or after[0]
            if start >= 0 and len(args) > start and isinstance(args[start], int):
                args = args[:start] + (list(args[start:]),)      # sizes as varargs
                target = target or after[0]
            res = (target or fn)(*args, **kwargs)
            return res if finish is None else finish(res)

    def use_fast(op):
        """Send renamed calls to ``op``, the FastOp made of this wrapper (registry)."""
        after[0] = op

    spelled.__wrapped__ = fn
    spelled.use_fast = use_fast
    # the aliases a FastOp may read in C as the parameters they stand for (f(x, dim=1) as
    # f(x, axis=1)): not where a torch argument order or a refused keyword is involved
    spelled._fast_aliases = {a: p for a, p in aliases.items()
                             if not (forbidden and a in forbidden[0])} \
        if special is None else {}
    spelled._varargs_at = start if start >= 0 and special is None else None
    return spelled


# ---------------------------------------------------------------------- torch argument orders
def _gs():
    # the gather/scatter ops (imported by the package after the registry, which imports us)
    return sys.modules[__package__ + ".gather_scatter"]


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _input_dim_index(args, kwargs):
    """(input, dim, index, the positional arguments after them) of a call in torch's order
    (a ``dim`` keyword or an int second argument), else None."""
    if "dim" not in kwargs and not (len(args) > 1 and _is_int(args[1])):
        return None
    a = list(args)
    x = a.pop(0) if a else kwargs.pop("input", None) if "input" in kwargs else kwargs.pop("x")
    dim = kwargs.pop("dim") if "dim" in kwargs else a.pop(0)
    index = a.pop(0) if a else kwargs.pop("index")
    return x, dim, index, a


def _torch_gather(fn, args, kwargs):
    """gather(input, dim, index) (a ``dim`` keyword or an int second argument): torch's gather,
    Paddle's take_along_axis."""
    picked = _input_dim_index(args, kwargs)
    if picked is None:
        return fn, args, kwargs
    x, dim, index, _ = picked
    return _gs().take_along_axis, (x, index, dim), {"broadcast": False}


def _torch_scatter(fn, args, kwargs):
    """scatter(input, dim, index, src=None, reduce=None, value=None): torch's scatter, Paddle's
    put_along_axis (in place for scatter_)."""
    picked = _input_dim_index(args, kwargs)
    if picked is None:
        return fn, args, kwargs
    x, dim, index, a = picked
    src = a.pop(0) if a else kwargs.pop("src", kwargs.pop("value", None))
    reduce = kwargs.pop("reduce", None)
    mode = {None: "assign", "add": "add", "multiply": "mul", "mul": "mul"}.get(reduce, reduce)
    put = _gs().put_along_axis_ if fn.__name__.endswith("_") else _gs().put_along_axis
    return put, (x, index, src, dim), {"reduce": mode, "broadcast": False}


def _torch_index_select(fn, args, kwargs):
    """index_select(input, dim, index): an int second argument is the axis."""
    if not (len(args) > 1 and _is_int(args[1])):
        return fn, args, kwargs
    if len(args) > 2:
        index = args[2]
    elif "index" in kwargs:
        index = kwargs.pop("index")
    else:
        raise TypeError("index_select() missing 1 required positional argument: 'index'")
    kwargs["axis"] = args[1]
    return fn, (args[0], index), kwargs


def _torch_index_add(fn, args, kwargs):
    """index_add(input, dim, index, source): an int second argument is the axis."""
    if not (len(args) > 3 and _is_int(args[1])):
        return fn, args, kwargs
    x, dim, index, source = args[:4]
    return fn, (x, index, dim, source) + tuple(args[4:]), kwargs


def _torch_transpose(fn, args, kwargs):
    """transpose(input, dim0, dim1): swaps two axes (keywords dim0/dim1 or axis0/axis1, or two
    ints after the tensor)."""
    d0 = kwargs.pop("dim0", kwargs.pop("axis0", None))
    d1 = kwargs.pop("dim1", kwargs.pop("axis1", None))
    a = list(args)
    if d0 is None and len(a) > 2 and _is_int(a[1]) and _is_int(a[2]):
        d0, d1 = a[1], a[2]
        a = a[:1]
    if d0 is None or d1 is None:
        return fn, args, kwargs
    x = a[0] if a else kwargs.pop("input", None) if "input" in kwargs else kwargs.pop("x")
    n = len(x.shape)
    perm = list(range(n))
    perm[d0 % n], perm[d1 % n] = perm[d1 % n], perm[d0 % n]
    kwargs.pop("perm", None)
    return fn, (x, perm), kwargs


def _drop_stacklevel(fn, args, kwargs):
    """softmax(input, dim, _stacklevel, dtype): torch's ignored ``_stacklevel``."""
    kwargs.pop("_stacklevel", None)
    if len(args) > 2 and _is_int(args[2]):
        args = args[:2] + args[3:]
    return fn, args, kwargs


def _median_mode(fn, args, kwargs):
    """median with a torch keyword (dim=, input=): torch's result, (values, indices) of the
    lower median."""
    if ("dim" in kwargs or "input" in kwargs) and "mode" not in kwargs:
        kwargs["mode"] = "min"
    return fn, args, kwargs


#: the torch argument orders the table's SPECIAL entries describe, by API name
_SPECIAL = {
    "gather": _torch_gather,
    "scatter": _torch_scatter,
    "index_select": _torch_index_select,
    "index_add": _torch_index_add,
    "transpose": _torch_transpose,
    "swapaxes": _torch_transpose,
    "swapdims": _torch_transpose,
    "softmax": _drop_stacklevel,
    "median": _median_mode,
}


def _positional_names(fn):
    """(fn's positional-or-keyword parameter names in order, all its keyword names, whether it
    takes **kwargs), or None where unknown."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    params = sig.parameters.values()
    return ([p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)],
            {p.name for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)},
            any(p.kind is p.VAR_KEYWORD for p in params))


def keyword_renames(fn, paddle_sig, aliases):
    """{keyword Paddle accepts: ``fn``'s parameter it means} for the keywords ``fn`` does not
    take by that name: Paddle's own parameter names that ``fn`` spells otherwise at the same
    position (``PixelShuffle(upscale_factor=)``, ``Linear.forward(input=)``), and Paddle's
    aliases (``Conv1D.forward(input=)``, ``Layer.parameters(recurse=)``)."""
    info = _positional_names(fn)
    if info is None:
        return {}
    ours, names, var_kw = info
    theirs = set(paddle_sig)
    renames = {}
    for i, p in enumerate(paddle_sig):
        if p.startswith("*"):
            break
        if p not in names and p != "name" and i < len(ours) and ours[i] not in theirs:
            renames[p] = ours[i]
    for a, p in aliases.items():
        if a not in names:
            target = p if p in names else renames.get(p, p if var_kw else None)
            if target is not None:
                renames[a] = target
    return renames


def _rename(kwargs, renames, both, api):
    """``kwargs`` with the keywords of ``renames`` given their parameters' names; Paddle's error
    where a keyword and the parameter it means are both given."""
    for k in [k for k in kwargs if k in renames]:
        target = renames[k]
        if target in kwargs:
            raise _both_given(both, api, target, k)
        kwargs[target] = kwargs.pop(k)
    return kwargs


def _bool_4th_is_ceil_mode(cls, args, kwargs):
    """LPPool's constructor: a bool 4th positional argument is torch's ``ceil_mode``."""
    if len(args) == 4 and type(args[3]) is bool:
        warnings.warn("The 4th positional argument in '__init__' method is a boolean value, "
                      "which is being interpreted as 'ceil_mode'.", Warning, stacklevel=3)
        kwargs["ceil_mode"] = args[3]
        args = args[:3]
    return args, kwargs


#: what LAYER_SPECIAL's notes describe (the note as the table writes it -> the rewrite)
_LAYER_SPECIAL = {
    "a bool 4th positional argument of __init__ is ceil_mode": _bool_4th_is_ceil_mode,
}


def respell_class(cls, path):
    """The class ``cls`` (public API ``path``: ``"paddle.nn.LayerNorm"``, ``"paddle.finfo"``)
    taking the torch-style keywords Paddle 3.3.1 accepts in its constructor (``eps=`` for
    ``epsilon``, Paddle's own parameter names where ours differ) and refusing, with Paddle's
    error, the legacy ones it refuses (``reduce=``/``size_average=``); for an nn layer class
    also in its methods (``forward(input=)``, ``parameters(recurse=)``)."""
    _respell_methods(cls, path)
    layer = path in _table.LAYER_ALIASES or path in _SIG_LAYERS
    aliases = (_table.LAYER_ALIASES if layer else _table.ALIASES).get(path) or {}
    forbidden = _table.LAYER_FORBIDDEN.get(path)
    special = _LAYER_SPECIAL.get(_table.LAYER_SPECIAL.get(path))
    init = cls.__init__
    if getattr(init, "_respelled", None) is cls or init is object.__init__:
        return cls
    sig = _SIG_LAYERS.get(path, ())[1:] if layer else ()
    renames = keyword_renames(init, ("self",) + tuple(sig), aliases)
    if not (renames or forbidden or special):
        return cls
    both = (_table.LAYER_BOTH_GIVEN if layer else _table.BOTH_GIVEN).get(path, "ValueError")
    name = cls.__name__

    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        if special is not None:
            args, kwargs = special(cls, args, kwargs)
        if kwargs:
            if forbidden:
                bad = sorted(set(forbidden[0]) & set(kwargs))
                if bad:
                    error = ValueError if forbidden[2:] == ("ValueError",) else TypeError
                    raise error(f"{name}: '{bad[0]}' is not supported (a legacy "
                                f"keyword of torch); use {forbidden[1]}")
            if renames:
                kwargs = _rename(kwargs, renames, both, name)
        init(self, *args, **kwargs)

    __init__._respelled = cls
    cls.__init__ = __init__
    return cls


def _respell_methods(cls, path):
    """Give the methods of the nn layer class ``cls`` (Paddle's ``path``) the keywords Paddle
    3.3.1's take: its aliases and its own parameter names (LAYER_METHOD_* of the table)."""
    aliases = _table.LAYER_METHOD_ALIASES.get(path) or {}
    sigs = _SIG_METHODS.get(path) or {}
    for m in sorted(set(aliases) | set(sigs)):
        fn = getattr(cls, m, None)
        if getattr(fn, "_respelled", False):
            fn = fn.__wrapped__
        if type(fn) is not types.FunctionType:
            continue
        api = f"{fn.__qualname__.split('.')[0]}.{m}"
        al = aliases.get(m, {})
        info = _positional_names(fn)
        if info is not None and len(info[0]) == 1 and _takes_varargs(fn):
            # ``forward(self, *inputs)``: Paddle's keywords name the positions
            names = tuple(p for p in sigs.get(m, ())[1:] if not p.startswith("*"))
            key = (fn, "placing", names, tuple(sorted(al.items())))
            make = functools.partial(_placing, fn, names, al, api) if names else None
        else:
            renames = keyword_renames(fn, sigs.get(m, ()), al)
            both = (_table.LAYER_METHOD_BOTH_GIVEN.get(path) or {}).get(m, "TypeError")
            key = (fn, "renaming", tuple(sorted(renames.items())), both)
            make = functools.partial(_renaming, fn, renames, both, api) if renames else None
        if make is not None:
            # one wrapper per method and spelling: classes that share a method share it
            wrapper = _made.get(key)
            if wrapper is None:
                wrapper = _made[key] = make()
            if getattr(cls, m) is not wrapper:
                setattr(cls, m, wrapper)


def _takes_varargs(fn):
    """Whether ``fn`` takes ``*args``."""
    return any(p.kind is p.VAR_POSITIONAL for p in inspect.signature(fn).parameters.values())


def _placing(fn, names, aliases, api):
    """``fn(self, *args)`` taking Paddle's parameter ``names`` (and their ``aliases``) as
    keywords: each fills its position."""
    index = {n: i for i, n in enumerate(names)}
    index.update({a: index[p] for a, p in aliases.items() if p in index})
    missing = object()

    @functools.wraps(fn)
    def respelled(self, *args, **kwargs):
        if kwargs and not index.keys().isdisjoint(kwargs):
            slots = list(args) + [missing] * (len(names) - len(args))
            for k in [k for k in kwargs if k in index]:
                i = index[k]
                if slots[i] is not missing:
                    raise TypeError(f"{api}() got multiple values for argument '{names[i]}'")
                slots[i] = kwargs.pop(k)
            while slots and slots[-1] is missing:
                slots.pop()
            for i, v in enumerate(slots):
                if v is missing:
                    raise TypeError(f"{api}() missing required argument '{names[i]}'")
            args = slots
        return fn(self, *args, **kwargs)

    respelled._respelled = True
    return respelled


def _renaming(fn, renames, both, api):
    """``fn`` taking the keywords of ``renames`` as the parameters they mean; a call without
    them goes straight on."""
    keys = frozenset(renames)

    @functools.wraps(fn)
    def respelled(*args, **kwargs):
        if kwargs and not keys.isdisjoint(kwargs):
            kwargs = _rename(kwargs, renames, both, api)
        return fn(*args, **kwargs)

    respelled._respelled = True
    return respelled
