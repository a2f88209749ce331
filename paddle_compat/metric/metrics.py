"""Paddle's metrics. A metric is fed batch by batch: ``compute`` (optional) turns a batch's
network outputs and labels into what ``update`` counts, on Tensors; ``update`` adds the batch
to running totals held in numpy and returns the batch's value; ``accumulate`` gives the value
over every batch since the last ``reset``; ``name`` names it in ``paddle.Model``'s logs.

    >>> m = paddle.metric.Accuracy(topk=(1, 2))
    >>> m.update(m.compute(logits, labels))      # [top-1, top-2] of this batch
    >>> m.accumulate(), m.name()                  # ([...], ['acc_top1', 'acc_top2'])
"""
import abc

import numpy as np
import torch

from ..framework.tensor import Tensor, wrap
from ..ops.search import argsort, topk as _topk

__all__ = ["Metric", "Accuracy", "Precision", "Recall", "Auc", "accuracy"]


def _as_numpy(value, what):
    """A batch argument of Precision/Recall/Auc as numpy (Tensors converted, others refused)."""
    if isinstance(value, Tensor):
        return np.array(value)
    if isinstance(value, (np.ndarray, np.generic)):
        return value
    raise ValueError(f"The '{what}' must be a numpy ndarray or Tensor.")


class Metric(metaclass=abc.ABCMeta):
    """Base of all metrics: subclasses define ``reset``, ``update``, ``accumulate`` and ``name``
    and may define ``compute`` (run on Tensors before ``update``; by default it passes its
    arguments through)."""

    def __init__(self):
        pass

    @abc.abstractmethod
    def reset(self):
        """Forget every batch seen so far."""
        raise NotImplementedError(
            f"function 'reset' not implemented in {self.__class__.__name__}.")

    @abc.abstractmethod
    def update(self, *args):
        """Count one batch (numpy arrays, or what ``compute`` returned)."""
        raise NotImplementedError(
            f"function 'update' not implemented in {self.__class__.__name__}.")

    @abc.abstractmethod
    def accumulate(self):
        """The metric over the batches since the last ``reset``."""
        raise NotImplementedError(
            f"function 'accumulate' not implemented in {self.__class__.__name__}.")

    @abc.abstractmethod
    def name(self):
        """The name (or list of names) the value is logged under."""
        raise NotImplementedError(
            f"function 'name' not implemented in {self.__class__.__name__}.")

    def compute(self, *args):
        """Preprocess a batch on Tensors; returns what ``update`` takes."""
        return args


class Accuracy(Metric):
    """Top-k accuracy for each k of ``topk``. Labels are class indices ([N] or [N, 1]) or
    one-hot / soft labels ([N, C], the argmax is taken)."""

    def __init__(self, topk=(1,), name=None, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.topk = topk
        self.maxk = max(topk)
        base = name or "acc"
        self._name = [f"{base}_top{k}" for k in topk] if self.maxk != 1 else [base]
        self.reset()

    def compute(self, pred, label, *args):
        """[..., maxk] float32: 1 where the i-th highest score is the label's class."""
        order = argsort(pred, axis=-1, descending=True)._t[..., :self.maxk]
        lab = label._t
        if lab.dim() == 1 or (lab.dim() == 2 and lab.shape[-1] == 1):
            lab = lab.reshape(-1, 1)
        elif lab.shape[-1] != 1:
            lab = lab.argmax(dim=-1, keepdim=True)
        return wrap((order == lab.to(order.dtype)).to(torch.float32))

    def update(self, correct, *args):
        """Adds a batch of ``compute``'s output; returns its accuracy (a list for several k)."""
        if isinstance(correct, Tensor):
            correct = np.array(correct)
        samples = np.prod(np.array(correct.shape[:-1]))
        accs = []
        for i, k in enumerate(self.topk):
            hits = correct[..., :k].sum()
            accs.append(float(hits) / samples)
            self.total[i] += hits
            self.count[i] += samples
        return accs[0] if len(self.topk) == 1 else accs

    def reset(self):
        self.total = [0.0] * len(self.topk)
        self.count = [0] * len(self.topk)

    def accumulate(self):
        res = [float(t) / c if c > 0 else 0.0 for t, c in zip(self.total, self.count)]
        return res[0] if len(self.topk) == 1 else res

    def name(self):
        return self._name


class Precision(Metric):
    """Binary precision tp / (tp + fp); a prediction is positive when it rounds (half up) to 1."""

    def __init__(self, name="precision", *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tp = 0
        self.fp = 0
        self._name = name

    def update(self, preds, labels):
        preds = _as_numpy(preds, "preds")
        labels = _as_numpy(labels, "labels")
        n = labels.shape[0]
        predicted = np.floor(preds + 0.5).astype("int32")[:n].reshape(n, -1)[:, 0]
        positive = predicted == 1
        hit = predicted == np.asarray(labels).reshape(n, -1)[:, 0]
        self.tp += int(np.sum(positive & hit))
        self.fp += int(np.sum(positive & ~hit))

    def reset(self):
        self.tp = 0
        self.fp = 0

    def accumulate(self):
        denominator = self.tp + self.fp
        return float(self.tp) / denominator if denominator != 0 else 0.0

    def name(self):
        return self._name


class Recall(Metric):
    """Binary recall tp / (tp + fn); predictions are rounded half to even (``np.rint``)."""

    def __init__(self, name="recall", *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tp = 0
        self.fn = 0
        self._name = name

    def update(self, preds, labels):
        preds = _as_numpy(preds, "preds")
        labels = _as_numpy(labels, "labels")
        n = labels.shape[0]
        predicted = np.rint(preds).astype("int32")[:n].reshape(n, -1)[:, 0]
        truth = np.asarray(labels).reshape(n, -1)[:, 0]
        positive = truth == 1
        hit = predicted == truth
        self.tp += int(np.sum(positive & hit))
        self.fn += int(np.sum(positive & ~hit))

    def accumulate(self):
        denominator = self.tp + self.fn
        return float(self.tp) / denominator if denominator != 0 else 0.0

    def reset(self):
        self.tp = 0
        self.fn = 0

    def name(self):
        return self._name


class Auc(Metric):
    """Area under the ROC curve from bucketed positive-class scores (``preds[:, 1]``),
    ``num_thresholds + 1`` buckets. (Paddle computes the ROC area for ``curve="PR"`` too.)"""

    def __init__(self, curve="ROC", num_thresholds=4095, name="auc", *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._curve = curve
        self._num_thresholds = num_thresholds
        self._name = name
        self.reset()

    def update(self, preds, labels):
        labels = _as_numpy(labels, "labels")
        preds = _as_numpy(preds, "preds")
        n = len(labels)
        bins = (preds[:n, 1] * self._num_thresholds).astype(np.int64)
        assert (bins <= self._num_thresholds).all()
        positive = np.asarray(labels).reshape(n, -1)[:, 0].astype(bool)
        np.add.at(self._stat_pos, bins[positive], 1.0)
        np.add.at(self._stat_neg, bins[~positive], 1.0)

    @staticmethod
    def trapezoid_area(x1, x2, y1, y2):
        return abs(x1 - x2) * (y1 + y2) / 2.0

    def accumulate(self):
        # walk the buckets from the highest score down, as Paddle does (float64, in order)
        pos = neg = area = 0.0
        for idx in range(self._num_thresholds, -1, -1):
            prev_pos, prev_neg = pos, neg
            pos += self._stat_pos[idx]
            neg += self._stat_neg[idx]
            area += self.trapezoid_area(neg, prev_neg, pos, prev_pos)
        return area / pos / neg if pos > 0.0 and neg > 0.0 else 0.0

    def reset(self):
        self._stat_pos = np.zeros(self._num_thresholds + 1)
        self._stat_neg = np.zeros(self._num_thresholds + 1)

    def name(self):
        return self._name


def accuracy(input, label, k=1, correct=None, total=None, name=None):
    """The fraction of rows whose label is among the ``k`` highest scores of ``input``: a 0-d
    float32 Tensor. ``label`` is [N, 1]; ``correct`` / ``total``, when given, receive the
    counts (0-d int32)."""
    if label._t.dim() != 2:
        raise ValueError("(InvalidArgument) ShapeError: label's dimensions of AccuracyOp must "
                         f"be 2. But received label's dimensions = {label._t.dim()}, label's "
                         f"shape = {list(label.shape)}")
    _, indices = _topk(input, k=k)
    lab = label._t.reshape(-1, 1).to(torch.int64)
    hits = (indices._t == lab).any(dim=-1)
    n_correct = hits.sum().to(torch.int32)
    n_total = torch.tensor(hits.shape[0], dtype=torch.int32)
    for holder, value in ((correct, n_correct), (total, n_total)):
        if isinstance(holder, Tensor):      # Paddle's op writes its 0-d counts into them
            holder._t = value
    return wrap((n_correct.to(torch.float32) / max(int(hits.shape[0]), 1)).to(torch.float32))
