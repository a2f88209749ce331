"""``paddle.autograd.ir_backward`` and ``paddle.autograd.backward_utils``: the gradient entry
point and value containers of Paddle's PIR programs. paddle_compat has one static IR, so
``grad`` is ``paddle.static.gradients`` with PIR's argument names, and ``ValueSet`` /
``ValueDict`` hold program Variables by identity (as PIR's do: a Variable's ``==`` builds an
``equal`` op, so it cannot be a plain set or dict key)."""
from ...static.backward import gradients

__all__ = ["grad", "ValueSet", "ValueDict"]


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=False, no_grad_vars=None):
    """The gradients of ``outputs`` w.r.t. ``inputs`` in the static program being built: one
    Variable per input (None where the outputs do not depend on it, which is an error unless
    ``allow_unused``)."""
    single = not isinstance(inputs, (list, tuple))
    res = gradients(outputs, inputs, grad_outputs, no_grad_vars)
    if not allow_unused:
        ins = [inputs] if single else list(inputs)
        for x, g in zip(ins, res):
            if g is None:
                raise ValueError(f"The input '{getattr(x, 'name', x)}' is not used to compute "
                                 "the outputs: pass allow_unused=True to get None for it")
    return res


class ValueSet:
    """A set of program Variables keyed by identity, in insertion order."""

    def __init__(self, iter=(), default_factory=None):
        self._d = {}
        for v in iter:
            self.add(v)

    def add(self, v):
        self._d.setdefault(id(v), v)

    def update(self, values):
        for v in values:
            self.add(v)

    def discard(self, v):
        self._d.pop(id(v), None)

    def remove(self, v):
        if id(v) not in self._d:
            raise KeyError(v)
        del self._d[id(v)]

    def pop(self):
        return self._d.popitem()[1]

    def copy(self):
        return ValueSet(self)

    def __contains__(self, v):
        return id(v) in self._d

    def __iter__(self):
        return iter(list(self._d.values()))

    def __len__(self):
        return len(self._d)

    def __bool__(self):
        return bool(self._d)

    def __and__(self, other):
        return ValueSet(v for v in self if v in other)

    def __or__(self, other):
        out = self.copy()
        out.update(other)
        return out

    def __sub__(self, other):
        return ValueSet(v for v in self if v not in other)

    def __eq__(self, other):
        return isinstance(other, ValueSet) and self._d.keys() == other._d.keys()

    __hash__ = None

    def __repr__(self):
        return f"ValueSet({list(self._d.values())!r})"


class ValueDict:
    """A dict whose keys are program Variables, keyed by identity."""

    def __init__(self, iter=None, default_factory=None):
        self._keys, self._vals = {}, {}
        self.default_factory = default_factory
        for k, v in (iter.items() if isinstance(iter, (dict, ValueDict)) else (iter or ())):
            self[k] = v

    def __setitem__(self, k, v):
        self._keys[id(k)] = k
        self._vals[id(k)] = v

    def __getitem__(self, k):
        if id(k) not in self._vals:
            if self.default_factory is None:
                raise KeyError(k)
            self[k] = self.default_factory()
        return self._vals[id(k)]

    def __delitem__(self, k):
        del self._keys[id(k)], self._vals[id(k)]

    def __contains__(self, k):
        return id(k) in self._vals

    def __len__(self):
        return len(self._vals)

    def __iter__(self):
        return iter(list(self._keys.values()))

    def get(self, k, default=None):
        return self._vals.get(id(k), default)

    def keys(self):
        return list(self._keys.values())

    def values(self):
        return list(self._vals.values())

    def items(self):
        return [(self._keys[i], self._vals[i]) for i in self._keys]

    def update(self, other):
        for k, v in other.items():
            self[k] = v

    def copy(self):
        return ValueDict(self, self.default_factory)
