"""``paddle.metric``: streaming metrics for ``paddle.Model`` (``Metric``, ``Accuracy``,
``Precision``, ``Recall``, ``Auc``) and the ``accuracy`` op."""
from .metrics import Accuracy, Auc, Metric, Precision, Recall, accuracy

__all__ = ["Metric", "Accuracy", "Precision", "Recall", "Auc", "accuracy"]
