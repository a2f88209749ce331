"""``TensorParallel``: the wrapper ``fleet.distributed_model`` gives a tensor-parallel model in
Paddle (``MetaParallelBase`` its base): on construction every replicated parameter is taken
from the first rank of the model-parallel group (split ones, ``is_distributed``, stay), and
all of them from the first rank of the sharding and data-parallel groups; the forward is the
wrapped model's."""
from ....autograd import no_grad
from ....nn.layer.layers import Layer
from ... import collective as _c

__all__ = ["MetaParallelBase", "TensorParallel"]


class MetaParallelBase(Layer):
    """A model wrapped for one kind of hybrid parallelism (``_layers`` is the model)."""

    def __init__(self, layers, hcg, strategy):
        super().__init__(layers.full_name() + "_meta_parallel_base")
        self._layers = layers
        self._hcg = hcg
        self._strategy = strategy
        self._prepare_for_model()

    def _prepare_for_model(self):
        pass

    def _pre_forward(self, *inputs, **kwargs):
        pass

    def forward(self, *inputs, **kwargs):
        self._pre_forward(*inputs, **kwargs)
        output = self._layers(*inputs, **kwargs)
        self._post_forward(output)
        return output

    def _post_forward(self, output):
        pass


def _sync(layers, group, skip_distributed):
    if group is None or group.nranks <= 1:
        return
    with no_grad():
        for t in list(layers.parameters()) + list(layers.buffers()):
            if not (skip_distributed and getattr(t, "is_distributed", False)):
                _c.broadcast(t, src=group.ranks[0], group=group)


class TensorParallel(MetaParallelBase):
    """See the module docstring."""

    def __init__(self, layers, hcg, **kwargs):
        super().__init__(layers, hcg, kwargs.get("strategy"))

    def _prepare_for_model(self):
        hcg = self._hcg
        _sync(self._layers, hcg.get_model_parallel_group(), True)
        _sync(self._layers, hcg.get_sharding_parallel_group(), False)
        _sync(self._layers, hcg.get_data_parallel_group(), False)
