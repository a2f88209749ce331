"""``ObserveWrapper``: an observer put before (or after) an observed layer."""
from ..nn.layer.layers import Layer

__all__ = ["ObserveWrapper"]


class ObserveWrapper(Layer):
    """Runs ``observer`` on the inputs, then ``observed`` (``observe_input=False``: the
    observed layer first, then the observer on its output)."""

    def __init__(self, observer, observed, observe_input=True):
        super().__init__()
        self._observer = observer
        self._observed = observed
        self._observe_input = observe_input

    def forward(self, *inputs, **kwargs):
        if self._observe_input:
            return self._observed(self._observer(*inputs, **kwargs), **kwargs)
        return self._observer(self._observed(*inputs, **kwargs), **kwargs)
