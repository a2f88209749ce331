"""``paddle.distributed.parallel.parallel_helper``: whether the data-parallel context of a
multi-process job is set up (``init_parallel_env`` in a job of two or more ranks sets it), as
trainers ask before wrapping a model."""
import os

from . import collective

__all__ = []

#: a context registered through ``_set_parallel_ctx`` (Paddle's module-level slot)
_ctx = [None]


def _job_ctx():
    g = collective._default_group
    return _ctx[0] if _ctx[0] is not None else (g if g is not None and g.nranks > 1 else None)


def _is_parallel_ctx_initialized():
    """True once a parallel context exists (a job of two or more ranks has been started)."""
    return _job_ctx() is not None


def _is_data_parallel_mode():
    """A parallel context exists and ``PADDLE_TRAINERS_NUM`` says more than one trainer."""
    return _job_ctx() is not None and int(os.getenv("PADDLE_TRAINERS_NUM", "1")) > 1


def _set_parallel_ctx(ccl_parallel_context):
    """Register the parallel context; only once, as in Paddle."""
    assert _ctx[0] is None, "ParallelContext can only be initialized once."
    _ctx[0] = ccl_parallel_context


def _init_parallel_ctx():
    """Run the registered context's ``init()`` (if it has one)."""
    assert _ctx[0] is not None, "ParallelContext should be initialized."
    init = getattr(_ctx[0], "init", None)
    if callable(init):
        init()
