"""``paddle.distributed.io``: the static-graph save/load helpers of Paddle's distributed
training, on ``paddle.static``'s ``save_vars`` / ``load_vars`` (the same files).

* ``save_persistables(executor, dirname, main_program=None, filename=None)`` writes every
  persistable variable of the program (one file each, or all in ``filename``);
  ``load_persistables`` reads them back into the executor's scope.
* ``load_inference_model_distributed(dirname, executor, model_filename=None,
  params_filename=None, pserver_endpoints=None)`` is ``paddle.static.load_inference_model``
  on ``dirname``; a distributed lookup table on parameter servers (``pserver_endpoints``) is
  not supported and says so.
* ``is_persistable(var)``: whether a static Variable is persistable.

Like Paddle, the three program functions work in static mode only.
"""
from .. import static
from ..framework import mode

__all__ = ["save_persistables", "load_persistables", "load_inference_model_distributed",
           "is_persistable"]


def _static_only(api):
    if not mode.in_static_mode():
        raise AssertionError(f"We don't support {api} in dynamic graph mode, please call "
                             "'paddle.enable_static()' to enter static graph mode.")


def is_persistable(var):
    """True when ``var`` (a static Variable or a Parameter) is persistable."""
    return bool(getattr(var, "persistable", False))


def save_persistables(executor, dirname, main_program=None, filename=None):
    """Save the persistable variables of ``main_program`` (default: the default main program)
    under ``dirname`` (one file each, or all in ``dirname/filename``)."""
    _static_only("save_persistables")
    static.save_vars(executor, dirname, main_program=main_program, predicate=is_persistable,
                     filename=filename)


def load_persistables(executor, dirname, main_program=None, filename=None):
    """Load what ``save_persistables`` wrote back into ``executor``'s scope."""
    _static_only("load_persistables")
    static.load_vars(executor, dirname, main_program=main_program, predicate=is_persistable,
                     filename=filename)


def load_inference_model_distributed(dirname, executor, model_filename=None,
                                     params_filename=None, pserver_endpoints=None):
    """``paddle.static.load_inference_model`` for a model saved by distributed training;
    returns ``[program, feed_target_names, fetch_targets]``."""
    _static_only("load_inference_model_distributed")
    if pserver_endpoints:
        raise NotImplementedError("paddle.distributed.io.load_inference_model_distributed: "
                                  "distributed lookup tables on parameter servers "
                                  "(pserver_endpoints) are not supported by paddle_compat")
    kwargs = {}
    if model_filename is not None:
        kwargs["model_filename"] = model_filename
    if params_filename is not None:
        kwargs["params_filename"] = params_filename
    return static.load_inference_model(dirname, executor, **kwargs)
