"""``QuantConfig``: which quanters go where.

A config holds a global (activation, weight) pair of quanter factories and overrides by layer
(``add_layer_config``: by the layer's ``full_name()``), by name prefix (``add_name_config``)
and by type (``add_type_config``); a name beats a type, a type beats the parent's config,
which beats the global one. ``QAT`` / ``PTQ`` swap the layer types of ``qat_layer_mappings``
(``nn.quant.Stub``, ``nn.Linear``, ``nn.Conv2D``, exact types) for their quantised forms and
put an observer before each configured leaf (``ReLU``, ``AvgPool2D``, any layer without
sublayers, and the customised leaves).
"""
import copy

from ..nn import layer as _nn
from ..nn import quant as _quant
from ..nn.layer.layers import Layer
from .format import QuantedConv2D, QuantedLinear, QuanterStub
from .wrapper import ObserveWrapper

__all__ = ["QuantConfig", "SingleLayerConfig", "DEFAULT_QAT_LAYER_MAPPINGS", "DEFAULT_LEAVES"]

DEFAULT_QAT_LAYER_MAPPINGS = {
    _quant.Stub: QuanterStub,
    _nn.Linear: QuantedLinear,
    _nn.Conv2D: QuantedConv2D,
}

DEFAULT_LEAVES = [_nn.ReLU, _nn.AvgPool2D]


class SingleLayerConfig:
    """The (activation, weight) quanter factories of one layer."""

    def __init__(self, activation, weight):
        self._activation = activation
        self._weight = weight

    @property
    def activation(self):
        return self._activation

    @property
    def weight(self):
        return self._weight

    def __str__(self):
        return f"activation: {self._activation}\nweight: {self._weight}"


class QuantConfig:
    """Quantisation settings of a model (see the module doc). ``activation`` and ``weight``
    are quanter factories (``FakeQuanterWithAbsMaxObserver(...)``, ``AbsmaxObserver()``, a
    ``quanter``-declared one) or None."""

    def __init__(self, activation, weight):
        if activation is None and weight is None:
            self._global_config = None
        else:
            self._global_config = SingleLayerConfig(activation, weight)
        self._layer2config = {}
        self._prefix2config = {}
        self._type2config = {}
        self._model = None
        self._qat_layer_mapping = copy.deepcopy(DEFAULT_QAT_LAYER_MAPPINGS)
        self._customized_qat_layer_mapping = {}
        self._customized_leaves = []

    def add_layer_config(self, layer, activation=None, weight=None):
        """Configure these layers (a Layer or a list), found by their ``full_name()``."""
        if isinstance(layer, list):
            for one in layer:
                self.add_layer_config(one, activation=activation, weight=weight)
        else:
            self.add_name_config(layer.full_name(), activation=activation, weight=weight)

    def add_name_config(self, layer_name, activation=None, weight=None):
        """Configure the layers whose ``full_name()`` is ``layer_name`` (a str or a list)."""
        if isinstance(layer_name, str):
            self._prefix2config[layer_name] = SingleLayerConfig(activation, weight)
        if isinstance(layer_name, list):
            for one in layer_name:
                self.add_name_config(one, activation=activation, weight=weight)

    def add_type_config(self, layer_type, activation=None, weight=None):
        """Configure every layer of these types (a Layer subclass or a list)."""
        if isinstance(layer_type, type) and issubclass(layer_type, Layer):
            self._type2config[layer_type] = SingleLayerConfig(activation, weight)
        if isinstance(layer_type, list):
            for one in layer_type:
                self.add_type_config(one, activation=activation, weight=weight)

    def add_qat_layer_mapping(self, source, target):
        """Swap layers of type ``source`` for ``target(layer, q_config)`` when quantising."""
        assert isinstance(source, type) and issubclass(source, Layer), \
            "The source layer to be placed should be a subclass of paddle.nn.Layer"
        assert isinstance(target, type) and issubclass(target, Layer), \
            "The target layer should be a subclass of paddle.nn.qat.Layer"
        self._qat_layer_mapping[source] = target
        self._customized_qat_layer_mapping[source] = target

    def add_customized_leaf(self, layer_type):
        """Treat layers of ``layer_type`` as leaves (observed whole, not entered)."""
        self._customized_leaves.append(layer_type)

    @property
    def customized_leaves(self):
        return self._customized_leaves

    @property
    def qat_layer_mappings(self):
        return self._qat_layer_mapping

    @property
    def default_qat_layer_mapping(self):
        return DEFAULT_QAT_LAYER_MAPPINGS

    @property
    def global_config(self):
        return self._global_config

    # ------------------------------------------------------------------ used by QAT / PTQ
    def _need_observe(self, layer):
        return self._is_leaf(layer) and self._has_observer_config(layer)

    def _get_qat_layer(self, layer):
        q_config = self._get_config_by_layer(layer)
        target = self._customized_qat_layer_mapping.get(
            type(layer), self.qat_layer_mappings.get(type(layer)))
        return target(layer, q_config)

    def _has_observer_config(self, layer):
        config = self._get_config_by_layer(layer)
        return config is not None and config.activation is not None

    def _is_leaf(self, layer):
        return (type(layer) in DEFAULT_LEAVES or not layer._sub_layers
                or type(layer) in self.customized_leaves)

    def _get_observer(self, layer):
        config = self._get_config_by_layer(layer)
        factory = None if config is None else config.activation
        return None if factory is None else factory._instance(layer)

    def _get_observe_wrapper(self, layer):
        return ObserveWrapper(self._get_observer(layer), layer)

    def _get_config_by_layer(self, layer):
        return self._layer2config.get(layer, None)

    def _is_quantifiable(self, layer):
        return layer in self._layer2config

    def _specify(self, model):
        """Give every sublayer of ``model`` its config (name, then type, then parent)."""
        self._model = model
        self._specify_helper(model)

    def _specify_helper(self, model):
        for child in model.children():
            config = self._layer2config.get(model, self.global_config)
            config = self._type2config.get(type(child), config)
            config = self._prefix2config.get(child.full_name(), config)
            if config is not None:
                self._layer2config[child] = config
            self._specify_helper(child)
        return self

    def details(self):
        """The model's layers with their configs (after a ``quantize``), else ``str(self)``."""
        if self._model is None:
            return self.__str__()
        return self._details_helper(self._model)

    def _details_helper(self, layer):
        lines = []
        for name, sub in layer.named_children():
            text = _indent(self._details_helper(sub), 2)
            if sub in self._layer2config:
                lines.append(f"({name}): {text}, {self._layer2config[sub]}")
        out = type(layer).__name__ + "("
        if lines:
            out += "\n  " + "\n  ".join(lines) + "\n"
        return out + ")"

    def __str__(self):
        out = f"Global config:\n{self._global_config}\n"
        if self._type2config:
            out += f"Layer type config:\n{self._type2config}\n"
        if self._prefix2config:
            out += f"Layer prefix config: \n{self._prefix2config}\n"
        return out


def _indent(text, n):
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * n + line for line in lines[1:])
