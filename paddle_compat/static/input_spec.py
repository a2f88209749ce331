"""``InputSpec``: the shape/dtype/name of an input, for ``paddle.jit.to_static``."""
from ..framework import dtype as _dt


class InputSpec:
    """Describes one input: ``InputSpec(shape=[None, 5], dtype='float32', name='x')``."""

    def __init__(self, shape, dtype="float32", name=None, stop_gradient=False):
        self.shape = [-1 if d is None else int(d) for d in shape]
        self.dtype = _dt.convert_dtype(dtype)
        self.name = name
        self.stop_gradient = stop_gradient

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tensor.shape, tensor.dtype, name or tensor.name)

    def __repr__(self):
        return f"InputSpec(shape={tuple(self.shape)}, dtype={self.dtype}, name={self.name}, " \
               f"stop_gradient={self.stop_gradient})"
