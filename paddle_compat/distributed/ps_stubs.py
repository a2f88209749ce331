"""The parameter-server era names of ``paddle.distributed``: datasets fed by C++ data feeds
(``InMemoryDataset``, ``QueueDataset``, ``BoxPSDataset``), the sparse-table entry rules
(``ProbabilityEntry``, ``CountFilterEntry``, ``ShowClickEntry``) and ``create_nccl_config``.

The entry rules are plain descriptions and behave as Paddle's (argument checks, ``_to_attr``).
The datasets construct (no arguments, as Paddle) and accept their configuration
(``init``, ``update_settings``, ``set_filelist`` ...); anything that reads data (loading,
shuffling, iterating, training from them) raises NotImplementedError naming the method: the
parameter-server data feeds are not supported by paddle_compat. Use ``paddle.io.Dataset`` and
``paddle.io.DataLoader`` instead.
"""
import torch

__all__ = ["InMemoryDataset", "QueueDataset", "BoxPSDataset", "ProbabilityEntry",
           "CountFilterEntry", "ShowClickEntry", "create_nccl_config"]


class EntryAttr:
    """A rule for admitting features into a sparse table (parameter-server training)."""

    def __init__(self):
        self._name = None

    def _to_attr(self):
        raise NotImplementedError("EntryAttr is base class")


class ProbabilityEntry(EntryAttr):
    """Admit a new feature with probability ``probability`` (a float in (0, 1))."""

    def __init__(self, probability):
        super().__init__()
        if not isinstance(probability, float) or not 0 < probability < 1:
            raise ValueError("probability must be a float in (0,1)")
        self._name = "probability_entry"
        self._probability = probability

    def _to_attr(self):
        return ":".join([self._name, str(self._probability)])


class CountFilterEntry(EntryAttr):
    """Admit a feature once it has been seen ``count_filter`` times."""

    def __init__(self, count_filter):
        super().__init__()
        if not isinstance(count_filter, int):
            raise ValueError("count_filter must be a valid integer greater than 0")
        if count_filter < 0:
            raise ValueError("count_filter must be a valid integer greater or equal than 0")
        self._name = "count_filter_entry"
        self._count_filter = count_filter

    def _to_attr(self):
        return ":".join([self._name, str(self._count_filter)])


class ShowClickEntry(EntryAttr):
    """Admit features by their show / click statistics (slot names ``show_name``,
    ``click_name``)."""

    def __init__(self, show_name, click_name):
        super().__init__()
        if not isinstance(show_name, str) or not isinstance(click_name, str):
            raise ValueError("show_name click_name must be a str")
        self._name = "show_click_entry"
        self._show_name = show_name
        self._click_name = click_name

    def _to_attr(self):
        return ":".join([self._name, self._show_name, self._click_name])


class _PSDataset:
    """Configuration is kept; reading data is not supported (see the module docstring)."""

    _CONFIG = ("init", "update_settings", "set_filelist", "set_date", "set_fea_eval",
               "set_current_phase", "set_graph_config", "set_pass_id")

    def __init__(self):
        self.proto_desc = {"name": type(self).__name__}
        self.filelist = []
        self.thread_num = 1
        self.use_ps_gpu = False
        self.psgpu = None
        self._config = {}

    def init(self, **kwargs):
        self._config.update(kwargs)
        self.thread_num = kwargs.get("thread_num", self.thread_num)
        self.use_ps_gpu = kwargs.get("use_ps_gpu", self.use_ps_gpu)

    def update_settings(self, **kwargs):
        self._config.update(kwargs)

    def set_filelist(self, filelist):
        self.filelist = list(filelist)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise NotImplementedError(
            f"paddle.distributed.{type(self).__name__}.{name}: the parameter-server data feeds "
            "(InMemoryDataset, QueueDataset, BoxPSDataset) are not supported by paddle_compat; "
            "use paddle.io.Dataset and paddle.io.DataLoader")

    def __iter__(self):
        return self.__getattr__("__iter__ (reading data)")


class InMemoryDataset(_PSDataset):
    """Paddle's in-memory parameter-server dataset: configuration only (see the module)."""


class QueueDataset(_PSDataset):
    """Paddle's streaming parameter-server dataset: configuration only (see the module)."""


class BoxPSDataset(InMemoryDataset):
    """Paddle's BoxPS dataset: configuration only (see the module)."""


class NCCLConfig:
    """The NCCL communicator settings ``create_nccl_config`` collects (``commName``,
    ``ll_buffsize``, ``ll128_buffsize``, ``simple_buffsize``, ``buffsize_align``,
    ``nchannels``, ``algoStr``, ``protoStr``); torch's NCCL process groups take their
    settings from NCCL_* environment variables, so ``new_group`` accepts and ignores it."""

    def __init__(self, config):
        self.config = dict(config)

    def __repr__(self):
        return f"NCCLConfig({self.config})"


def create_nccl_config(nccl_config=None):
    """An ``NCCLConfig`` of ``nccl_config`` on a build with NCCL (CUDA), else None (as
    Paddle's CPU build returns)."""
    if nccl_config is None or not torch.cuda.is_available():
        return None
    return NCCLConfig(nccl_config)
