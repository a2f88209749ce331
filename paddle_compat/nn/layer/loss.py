"""Loss layers: each keeps its functional's settings as attributes (a Tensor ``weight`` becomes a
non-persistable buffer, as in Paddle) and calls the functional with them.
"""
import torch

from ...framework import dtype as _dt
from ...framework.tensor import wrap
from .. import functional as F
from .layers import Layer

__all__ = ["CrossEntropyLoss", "NLLLoss", "MSELoss", "L1Loss", "SmoothL1Loss", "BCELoss",
           "BCEWithLogitsLoss", "KLDivLoss", "MarginRankingLoss", "PoissonNLLLoss",
           "SoftMarginLoss", "GaussianNLLLoss", "HingeEmbeddingLoss", "TripletMarginLoss",
           "TripletMarginWithDistanceLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss",
           "MultiLabelMarginLoss",
           "CosineEmbeddingLoss", "CTCLoss", "RNNTLoss", "HSigmoidLoss",
           "AdaptiveLogSoftmaxWithLoss"]


_UNSET = object()


class _Loss(Layer):
    _fn = None
    _params = ()      # ((setting, default), ...) in the layer's argument order
    _reductions = ("sum", "mean", "none")

    def __init__(self, *args, **kwargs):
        super().__init__()
        names = [k for k, _ in self._params]
        values = dict(self._params, name=None)
        values.update(zip(names + ["name"], args))
        for k, v in kwargs.items():
            if k not in values:
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument "
                                f"'{k}'")
            values[k] = v
        red = values.get("reduction")
        if red is not None and red not in self._reductions:
            raise ValueError(f"The value of 'reduction' in {type(self).__name__} should be "
                             f"one of {self._reductions}, but received {red}, which is not "
                             "allowed.")
        for k in names + ["name"]:
            setattr(self, k, values[k])

    _inputs = ("input", "label")    # forward's parameter names, as Paddle's layer names them

    def forward(self, *inputs, **named):
        if named:
            inputs = self._bind(inputs, named)
        return type(self)._fn(*inputs, **{k: getattr(self, k) for k, _ in self._params})

    def _bind(self, inputs, named):
        """forward's arguments in order, from positions and keywords (``input=``, ``label=``)."""
        names = self._inputs
        values = list(inputs) + [_UNSET] * (len(names) - len(inputs))
        for k, v in named.items():
            i = names.index(k) if k in names else -1
            if i < 0:
                raise TypeError(f"{type(self).__name__}.forward() got an unexpected keyword "
                                f"argument '{k}'")
            if values[i] is not _UNSET:
                raise TypeError(f"{type(self).__name__}.forward() got multiple values for "
                                f"argument '{k}'")
            values[i] = v
        missing = [n for n, v in zip(names, values) if v is _UNSET]
        if missing:
            raise TypeError(f"{type(self).__name__}.forward() missing required argument(s): "
                            + ", ".join(f"'{n}'" for n in missing))
        return values


class CrossEntropyLoss(_Loss):
    """Softmax cross entropy (hard or soft labels, class weights, label smoothing)."""

    _fn = staticmethod(F.cross_entropy)
    _params = (("weight", None), ("ignore_index", -100), ("reduction", "mean"),
               ("soft_label", False), ("axis", -1), ("use_softmax", True),
               ("label_smoothing", 0.0))


class NLLLoss(_Loss):
    _fn = staticmethod(F.nll_loss)
    _params = (("weight", None), ("ignore_index", -100), ("reduction", "mean"))


class MSELoss(_Loss):
    _fn = staticmethod(F.mse_loss)
    _params = (("reduction", "mean"),)


class L1Loss(_Loss):
    _fn = staticmethod(F.l1_loss)
    _params = (("reduction", "mean"),)


class SmoothL1Loss(_Loss):
    _fn = staticmethod(F.smooth_l1_loss)
    _params = (("reduction", "mean"), ("delta", 1.0), ("is_huber", True))


class BCELoss(_Loss):
    _fn = staticmethod(F.binary_cross_entropy)
    _params = (("weight", None), ("reduction", "mean"))


class BCEWithLogitsLoss(_Loss):
    _inputs = ('logit', 'label')
    _fn = staticmethod(F.binary_cross_entropy_with_logits)
    _params = (("weight", None), ("reduction", "mean"), ("pos_weight", None))


class KLDivLoss(_Loss):
    _fn = staticmethod(F.kl_div)
    _reductions = ("sum", "mean", "none", "batchmean")
    _params = (("reduction", "mean"), ("log_target", False))


class MarginRankingLoss(_Loss):
    _inputs = ('input', 'other', 'label')
    _fn = staticmethod(F.margin_ranking_loss)
    _params = (("margin", 0.0), ("reduction", "mean"))


class PoissonNLLLoss(_Loss):
    _fn = staticmethod(F.poisson_nll_loss)
    _params = (("log_input", True), ("full", False), ("epsilon", 1e-8), ("reduction", "mean"))


class SoftMarginLoss(_Loss):
    _fn = staticmethod(F.soft_margin_loss)
    _params = (("reduction", "mean"),)


class GaussianNLLLoss(_Loss):
    _inputs = ('input', 'label', 'variance')
    _fn = staticmethod(F.gaussian_nll_loss)
    _params = (("full", False), ("epsilon", 1e-6), ("reduction", "mean"))


class HingeEmbeddingLoss(_Loss):
    _fn = staticmethod(F.hinge_embedding_loss)
    _params = (("margin", 1.0), ("reduction", "mean"))


class TripletMarginLoss(_Loss):
    _inputs = ('input', 'positive', 'negative')
    _fn = staticmethod(F.triplet_margin_loss)
    _params = (("margin", 1.0), ("p", 2.0), ("epsilon", 1e-6), ("swap", False),
               ("reduction", "mean"))


class TripletMarginWithDistanceLoss(_Loss):
    _inputs = ('input', 'positive', 'negative')
    _fn = staticmethod(F.triplet_margin_with_distance_loss)
    _params = (("distance_function", None), ("margin", 1.0), ("swap", False),
               ("reduction", "mean"))


class MultiLabelSoftMarginLoss(_Loss):
    _fn = staticmethod(F.multi_label_soft_margin_loss)
    _params = (("weight", None), ("reduction", "mean"))


class MultiLabelMarginLoss(_Loss):
    """Multi-class multi-label hinge loss (F.multi_label_margin_loss)."""

    _fn = staticmethod(F.multi_label_margin_loss)
    _params = (("reduction", "mean"),)


class MultiMarginLoss(_Loss):
    _fn = staticmethod(F.multi_margin_loss)
    _params = (("p", 1), ("margin", 1.0), ("weight", None), ("reduction", "mean"))


class CosineEmbeddingLoss(_Loss):
    _inputs = ('input1', 'input2', 'label')
    _fn = staticmethod(F.cosine_embedding_loss)
    _params = (("margin", 0), ("reduction", "mean"))


class CTCLoss(_Loss):
    """CTC loss of logits [T, B, C]; ``norm_by_times`` is a forward argument, as in Paddle."""
    _params = (("blank", 0), ("reduction", "mean"), ("zero_infinity", False))

    def forward(self, log_probs, labels, input_lengths, label_lengths, norm_by_times=False):
        return F.ctc_loss(log_probs, labels, input_lengths, label_lengths, self.blank,
                          self.reduction, norm_by_times=norm_by_times,
                          zero_infinity=self.zero_infinity)


class RNNTLoss(_Loss):
    _inputs = ('input', 'label', 'input_lengths', 'label_lengths')
    _fn = staticmethod(F.rnnt_loss)
    _params = (("blank", 0), ("fastemit_lambda", 0.001), ("reduction", "mean"))


class HSigmoidLoss(Layer):
    """Hierarchical sigmoid with its node weights [C, feature_size] and biases [C, 1]
    (C = num_classes - 1 for the default tree, num_classes for a custom one)."""

    def __init__(self, feature_size, num_classes, weight_attr=None, bias_attr=None,
                 is_custom=False, is_sparse=False, name=None):
        super().__init__()
        if num_classes < 2 and not is_custom:
            raise ValueError("num_classes must not be less than 2 with default tree")
        self._feature_size, self._num_classes = feature_size, num_classes
        self._is_custom, self._is_sparse = is_custom, is_sparse and is_custom
        self._weight_attr, self._bias_attr, self._name = weight_attr, bias_attr, name
        self._dtype = _dt.default_float().name
        c = num_classes if is_custom else num_classes - 1
        self.weight = self.create_parameter([c, feature_size], weight_attr, self._dtype)
        self.bias = self.create_parameter([c, 1], bias_attr, self._dtype, is_bias=True)

    def forward(self, input, label, path_table=None, path_code=None):
        return F.hsigmoid_loss(input, label, self._num_classes, self.weight, self.bias,
                               path_table=path_table, path_code=path_code,
                               is_sparse=self._is_sparse)


class AdaptiveLogSoftmaxWithLoss(Layer):
    """Adaptive softmax: a head over the shortlist and one column per cluster, and for cluster
    i a projection [in, in // div_value^(i+1)] then [that, cluster size]."""

    def __init__(self, in_features, n_classes, cutoffs, weight_attr=None, bias_attr=None,
                 div_value=4.0, head_bias=False, name=None):
        super().__init__()
        cutoffs = list(cutoffs)
        if (cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1
                or len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs)):
            raise ValueError("cutoffs should be a sequence of unique, positive integers sorted "
                             "in an increasing order, where each value is between 1 and "
                             "n_classes-1")
        self._dtype = _dt.default_float().name
        self.in_features, self.n_classes, self.div_value = in_features, n_classes, div_value
        self.cutoffs = cutoffs + [n_classes]
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.is_head_bias = head_bias
        self.head_weight = self.create_parameter([in_features, self.head_size], weight_attr,
                                                 self._dtype)
        self.head_bias = self.create_parameter([self.head_size], bias_attr, self._dtype,
                                               is_bias=True) if head_bias else None
        self.tail_weights = []
        for i in range(self.n_clusters):
            hsz = int(in_features // (div_value ** (i + 1)))
            osz = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail_weights.append([
                self.create_parameter([in_features, hsz], weight_attr, self._dtype),
                self.create_parameter([hsz, osz], weight_attr, self._dtype)])

    def forward(self, input, label):
        return F.adaptive_log_softmax_with_loss(input, label, self.head_weight,
                                                self.tail_weights, self.cutoffs,
                                                self.head_bias)

    def log_prob(self, input):
        """log-probabilities of every class, [N, n_classes]."""
        head = torch.log_softmax(F.linear(input, self.head_weight, self.head_bias)._t, 1)
        parts = [head[:, :self.shortlist_size]]
        for i, (w1, w2) in enumerate(self.tail_weights):
            cluster = torch.log_softmax(input._t @ w1._t @ w2._t, 1)
            parts.append(cluster + head[:, self.shortlist_size + i:self.shortlist_size + i + 1])
        return wrap(torch.cat(parts, 1))

    def predict(self, input):
        """The most likely class of each row."""
        return wrap(torch.argmax(self.log_prob(input)._t, 1))
