"""``paddle.callbacks``: hooks into ``paddle.Model.fit`` / ``evaluate`` / ``predict``.

``config_callbacks`` builds the list a run uses: the user's callbacks, with a ``ProgBarLogger``
put first when ``verbose`` asks for output and none is given, and a ``ModelCheckpoint`` and an
``LRScheduler`` appended when absent (Paddle's order, which decides who prints first).
"""
import importlib.util
import numbers
import os
import time
import warnings

import numpy as np

from ..distributed.env import ParallelEnv
from ..optimizer.lr import LRScheduler as _Schedule
from ..utils.install_check import try_import
from .progressbar import ProgressBar

__all__ = ["Callback", "ProgBarLogger", "ModelCheckpoint", "LRScheduler", "EarlyStopping",
           "ReduceLROnPlateau", "VisualDL", "WandbCallback"]


def _local_rank():
    return ParallelEnv().local_rank


def config_callbacks(callbacks=None, model=None, batch_size=None, epochs=None, steps=None,
                     log_freq=2, verbose=2, save_freq=1, save_dir=None, metrics=None,
                     mode="train"):
    """The CallbackList of one fit / evaluate / predict run."""
    given = callbacks or []
    cbks = list(given) if isinstance(given, (list, tuple)) else [given]
    if verbose and not any(isinstance(c, ProgBarLogger) for c in cbks):
        cbks.insert(0, ProgBarLogger(log_freq, verbose=verbose))
    if not any(isinstance(c, ModelCheckpoint) for c in cbks):
        cbks.append(ModelCheckpoint(save_freq, save_dir))
    for c in cbks:
        if isinstance(c, EarlyStopping):
            c.save_dir = save_dir
    if not any(isinstance(c, LRScheduler) for c in cbks):
        cbks.append(LRScheduler())
    out = CallbackList(cbks)
    out.set_model(model)
    out.set_params({"batch_size": batch_size, "epochs": epochs, "steps": steps,
                    "verbose": verbose,
                    "metrics": (metrics or []) if mode != "test" else []})
    return out


class CallbackList:
    """Calls each event on every callback, in order."""

    def __init__(self, callbacks=None):
        assert callbacks is not None
        self.callbacks = list(callbacks)
        self.params = {}
        self.model = None

    def append(self, callback):
        self.callbacks.append(callback)

    def __iter__(self):
        return iter(self.callbacks)

    def set_params(self, params):
        for c in self.callbacks:
            c.set_params(params)

    def set_model(self, model):
        for c in self.callbacks:
            c.set_model(model)

    def _call(self, name, *args):
        for c in self.callbacks:
            getattr(c, name)(*args)

    @staticmethod
    def _check_mode(mode):
        assert mode in ("train", "eval", "predict"), "mode should be train, eval or predict"

    def on_begin(self, mode, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_begin", logs)

    def on_end(self, mode, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_end", logs)

    def on_epoch_begin(self, epoch=None, logs=None):
        self._call("on_epoch_begin", epoch, logs)

    def on_epoch_end(self, epoch=None, logs=None):
        self._call("on_epoch_end", epoch, logs)

    def on_batch_begin(self, mode, step=None, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_batch_begin", step, logs)

    def on_batch_end(self, mode, step=None, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_batch_end", step, logs)


class Callback:
    """Base class: override the events you need. ``self.model`` is the ``paddle.Model`` and
    ``self.params`` holds batch_size, epochs, steps, verbose and metrics (the names logged)."""

    def __init__(self):
        self.model = None
        self.params = {}

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    def on_train_begin(self, logs=None):
        """Before training."""

    def on_train_end(self, logs=None):
        """After training."""

    def on_eval_begin(self, logs=None):
        """Before an evaluation; ``logs`` has ``steps`` and ``metrics``."""

    def on_eval_end(self, logs=None):
        """After an evaluation; ``logs`` has the loss and metrics."""

    def on_predict_begin(self, logs=None):
        """Before prediction."""

    def on_predict_end(self, logs=None):
        """After prediction."""

    def on_epoch_begin(self, epoch, logs=None):
        """Before each training epoch."""

    def on_epoch_end(self, epoch, logs=None):
        """After each training epoch."""

    def on_train_batch_begin(self, step, logs=None):
        """Before each training batch."""

    def on_train_batch_end(self, step, logs=None):
        """After each training batch; ``logs`` has loss, metrics, step and batch_size."""

    def on_eval_batch_begin(self, step, logs=None):
        """Before each evaluation batch."""

    def on_eval_batch_end(self, step, logs=None):
        """After each evaluation batch."""

    def on_predict_batch_begin(self, step, logs=None):
        """Before each prediction batch."""

    def on_predict_batch_end(self, step, logs=None):
        """After each prediction batch."""


def _new_timer():
    return {"data_time": 0, "batch_time": 0, "count": 0, "samples": 0}


class ProgBarLogger(Callback):
    """Prints the progress bar (``verbose=1``) or one line per ``log_freq`` steps
    (``verbose=2``; 3 adds reader cost, batch cost and samples per second)."""

    def __init__(self, log_freq=1, verbose=2):
        self.epochs = None
        self.steps = None
        self.progbar = None
        self.verbose = verbose
        self.log_freq = log_freq

    def _is_print(self):
        return self.verbose and _local_rank() == 0

    # ---------------------------------------------------------------- shared by the modes
    def _updates(self, logs, mode):
        values = [(k, logs[k]) for k in getattr(self, f"{mode}_metrics") if k in logs]
        timer = getattr(self, f"_{mode}_timer", None)
        if self.verbose == 3 and timer is not None:
            count = timer["count"] if timer["count"] > 0 else 1.0
            samples = timer["samples"] if timer["samples"] > 0 else 1.0
            values.append(("avg_reader_cost", "%.5f sec" % (timer["data_time"] / count)))
            values.append(("avg_batch_cost", "%.5f sec" % (timer["batch_time"] / count)))
            values.append(("ips", "%.5f samples/sec"
                           % (samples / (timer["data_time"] + timer["batch_time"]))))
            timer.update(count=0, samples=0, data_time=0.0, batch_time=0.0)
        getattr(self, f"{mode}_progbar").update(getattr(self, f"{mode}_step"), values)

    def _batch_begin(self, timer):
        timer["batch_data_end_time"] = time.time()
        timer["data_time"] += timer["batch_data_end_time"] - timer["batch_start_time"]

    def _batch_end(self, mode, logs):
        logs = logs or {}
        timer = getattr(self, f"_{mode}_timer")
        setattr(self, f"{mode}_step", getattr(self, f"{mode}_step") + 1)
        samples = logs.get("batch_size", 1)
        if mode == "eval":
            self.evaled_samples += samples
        elif mode == "test":
            self.tested_samples += samples
        timer["batch_time"] += time.time() - timer["batch_data_end_time"]
        timer["count"] += 1
        timer["samples"] += samples
        step = getattr(self, f"{mode}_step")
        total = getattr(self, {"train": "steps", "eval": "eval_steps", "test": "test_steps"}[mode])
        if self._is_print() and step % self.log_freq == 0 and (total is None or step < total):
            self._updates(logs, mode)
        timer["batch_start_time"] = time.time()

    # ---------------------------------------------------------------- train
    def on_train_begin(self, logs=None):
        self.epochs = self.params["epochs"]
        assert self.epochs
        self.train_metrics = self.params["metrics"]
        assert self.train_metrics
        self._train_timer = _new_timer()
        if self._is_print():
            print("The loss value printed in the log is the current step, and the metric is "
                  "the average value of previous steps.")

    def on_epoch_begin(self, epoch=None, logs=None):
        self.steps = self.params["steps"]
        self.epoch = epoch
        self.train_step = 0
        if self.epochs and self._is_print():
            print(f"Epoch {epoch + 1}/{self.epochs}")
        self.train_progbar = ProgressBar(num=self.steps, verbose=self.verbose)
        self._train_timer["batch_start_time"] = time.time()

    def on_train_batch_begin(self, step, logs=None):
        self._batch_begin(self._train_timer)

    def on_train_batch_end(self, step, logs=None):
        self._batch_end("train", logs)

    def on_epoch_end(self, epoch, logs=None):
        if self._is_print() and self.steps is not None:
            self._updates(logs or {}, "train")

    # ---------------------------------------------------------------- eval
    def on_eval_begin(self, logs=None):
        self.eval_steps = logs.get("steps", None)
        self.eval_metrics = logs.get("metrics", [])
        self.eval_step = 0
        self.evaled_samples = 0
        self._eval_timer = _new_timer()
        self.eval_progbar = ProgressBar(num=self.eval_steps, verbose=self.verbose)
        if self._is_print():
            print("Eval begin...")
        self._eval_timer["batch_start_time"] = time.time()

    def on_eval_batch_begin(self, step, logs=None):
        self._batch_begin(self._eval_timer)

    def on_eval_batch_end(self, step, logs=None):
        self._batch_end("eval", logs)

    def on_eval_end(self, logs=None):
        if self._is_print() and self.eval_steps is not None:
            self._updates(logs or {}, "eval")
            print(f"Eval samples: {self.evaled_samples}")

    # ---------------------------------------------------------------- predict
    def on_predict_begin(self, logs=None):
        self.test_steps = logs.get("steps", None)
        self.test_metrics = logs.get("metrics", [])
        self.test_step = 0
        self.tested_samples = 0
        self._test_timer = _new_timer()
        self.test_progbar = ProgressBar(num=self.test_steps, verbose=self.verbose)
        if self._is_print():
            print("Predict begin...")
        self._test_timer["batch_start_time"] = time.time()

    def on_predict_batch_begin(self, step, logs=None):
        self._batch_begin(self._test_timer)

    def on_predict_batch_end(self, step, logs=None):
        self._batch_end("test", logs)

    def on_predict_end(self, logs=None):
        if self._is_print():
            if self.test_step % self.log_freq != 0 or self.verbose == 1:
                self._updates(logs or {}, "test")
            print(f"Predict samples: {self.tested_samples}")


class ModelCheckpoint(Callback):
    """Saves the model to ``{save_dir}/{epoch}`` every ``save_freq`` epochs and to
    ``{save_dir}/final`` at the end (``.pdparams`` and ``.pdopt``)."""

    def __init__(self, save_freq=1, save_dir=None):
        self.save_freq = save_freq
        self.save_dir = save_dir

    def on_epoch_begin(self, epoch=None, logs=None):
        self.epoch = epoch

    def _is_save(self):
        return self.model and self.save_dir and _local_rank() == 0

    def _save(self, name):
        path = f"{self.save_dir}/{name}"
        print(f"save checkpoint at {os.path.abspath(path)}")
        self.model.save(path)

    def on_epoch_end(self, epoch, logs=None):
        if self._is_save() and self.epoch % self.save_freq == 0:
            self._save(epoch)

    def on_train_end(self, logs=None):
        if self._is_save():
            self._save("final")


def _scheduler_of(model):
    opt = model._optimizer
    lr = getattr(opt, "_learning_rate", None) if opt else None
    return lr if isinstance(lr, _Schedule) else None


class LRScheduler(Callback):
    """Steps the optimizer's learning-rate scheduler after every batch (``by_step``, the
    default) or every epoch (``by_epoch``)."""

    def __init__(self, by_step=True, by_epoch=False):
        if by_step and by_epoch:
            raise ValueError("by_step option is mutually exclusive with by_epoch")
        self.by_step = by_step
        self.by_epoch = by_epoch

    def on_epoch_end(self, epoch, logs=None):
        if self.by_epoch and _scheduler_of(self.model) is not None:
            _scheduler_of(self.model).step()

    def on_train_batch_end(self, step, logs=None):
        if self.by_step and _scheduler_of(self.model) is not None:
            _scheduler_of(self.model).step()


def _first_value(current):
    """A logged value as a number (a list's first element), or None if it is neither."""
    if isinstance(current, (list, tuple)):
        return current[0]
    if isinstance(current, numbers.Number):
        return current
    return None


class EarlyStopping(Callback):
    """Stops training when the monitored evaluation value has not improved (by more than
    ``min_delta``) for ``patience`` evaluations; with ``save_best_model`` and a ``save_dir``
    the best model is saved to ``{save_dir}/best_model``. ``mode='auto'`` maximises names
    containing 'acc' and minimises the others."""

    def __init__(self, monitor="loss", mode="auto", patience=0, verbose=1, min_delta=0,
                 baseline=None, save_best_model=True):
        super().__init__()
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.min_delta = abs(min_delta)
        self.wait_epoch = 0
        self.best_weights = None
        self.stopped_epoch = 0
        self.save_best_model = save_best_model
        self.save_dir = None
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"EarlyStopping mode {mode} is unknown, fallback to auto mode.")
            mode = "auto"
        maximise = mode == "max" or (mode == "auto" and "acc" in self.monitor)
        self.monitor_op = np.greater if maximise else np.less
        if not maximise:
            self.min_delta *= -1

    def on_train_begin(self, logs=None):
        self.wait_epoch = 0
        if self.baseline is not None:
            self.best_value = self.baseline
        else:
            self.best_value = np.inf if self.monitor_op == np.less else -np.inf
            self.best_weights = None

    def on_eval_end(self, logs=None):
        if logs is None or self.monitor not in logs:
            warnings.warn("Monitor of EarlyStopping should be loss or metric name.")
            return
        current = _first_value(logs[self.monitor])
        if current is None:
            return
        if self.monitor_op(current - self.min_delta, self.best_value):
            self.best_value = current
            self.wait_epoch = 0
            if self.save_best_model and self.save_dir is not None:
                self.model.save(os.path.join(self.save_dir, "best_model"))
        else:
            self.wait_epoch += 1
        if self.wait_epoch >= self.patience:
            self.model.stop_training = True
            if self.verbose > 0:
                print(f"Epoch {self.stopped_epoch + 1}: Early stopping.")
                if self.save_best_model and self.save_dir is not None:
                    best = os.path.abspath(os.path.join(self.save_dir, "best_model"))
                    print(f"Best checkpoint has been saved at {best}")
        self.stopped_epoch += 1


class ReduceLROnPlateau(Callback):
    """Multiplies a float learning rate by ``factor`` when the monitored evaluation value has
    not improved for ``patience`` evaluations (then waits ``cooldown`` evaluations); never
    below ``min_lr``. A scheduler learning rate is left alone (with a warning)."""

    def __init__(self, monitor="loss", factor=0.1, patience=10, verbose=1, mode="auto",
                 min_delta=1e-4, cooldown=0, min_lr=0):
        super().__init__()
        self.monitor = monitor
        if factor >= 1.0:
            raise ValueError("ReduceLROnPlateau does not support a factor >= 1.0.")
        self.factor = factor
        self.min_lr = min_lr
        self.min_delta = min_delta
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.cooldown_counter = 0
        self.wait = 0
        self.best = 0
        self.mode = mode
        self.monitor_op = None
        self.epoch = 0
        self._reset()

    def _reset(self):
        if self.mode not in ("auto", "min", "max"):
            warnings.warn(f"Learning rate reduction mode {self.mode} is unknown, "
                          "fallback to auto mode.")
            self.mode = "auto"
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.monitor_op = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs=None):
        self._reset()

    def in_cooldown(self):
        return self.cooldown_counter > 0

    def on_eval_end(self, logs=None):
        if logs is None or self.monitor not in logs:
            warnings.warn("Monitor of ReduceLROnPlateau should be loss or metric name.")
            return
        try:
            lr = self.model._optimizer._learning_rate
        except Exception as e:      # noqa: BLE001  Paddle warns and carries on
            warnings.warn(f"There are something wrong when get learning_rate from "
                          f"optimizer: {e}.")
            return
        if not isinstance(lr, float):
            warnings.warn(f"Expected learning_rate be float, bug got {type(lr)}.")
            return
        current = _first_value(logs[self.monitor])
        if current is None:
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = self.model._optimizer.get_lr()
                if old_lr > np.float32(self.min_lr):
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    self.model._optimizer._learning_rate = new_lr
                    if self.verbose > 0 and _local_rank() == 0:
                        print(f"\nEpoch {self.epoch + 1}: ReduceLROnPlateau reducing learning "
                              f"rate to {new_lr}.")
                    self.cooldown_counter = self.cooldown
                    self.wait = 0
        self.epoch += 1


def _require(package, callback):
    """Raise a clear ImportError at construction when ``package`` is not installed."""
    if importlib.util.find_spec(package) is None:
        raise ImportError(f"paddle.callbacks.{callback} needs the `{package}` package, which is "
                          f"not installed: install it with `pip install {package}`.")


class VisualDL(Callback):
    """Writes the training and evaluation metrics to VisualDL's log in ``log_dir`` (needs the
    ``visualdl`` package: without it, constructing this raises ImportError)."""

    def __init__(self, log_dir):
        _require("visualdl", "VisualDL")
        self.log_dir = log_dir
        self.epochs = None
        self.steps = None
        self.epoch = 0

    def _is_write(self):
        return _local_rank() == 0

    def on_train_begin(self, logs=None):
        self.epochs = self.params["epochs"]
        assert self.epochs
        self.train_metrics = self.params["metrics"]
        assert self.train_metrics
        self._is_fit = True
        self.train_step = 0

    def on_epoch_begin(self, epoch=None, logs=None):
        self.steps = self.params["steps"]
        self.epoch = epoch

    def _updates(self, logs, mode):
        if not self._is_write():
            return
        if not hasattr(self, "writer"):
            self.writer = try_import("visualdl").LogWriter(self.log_dir)
        step = getattr(self, f"{mode}_step") if mode == "train" else self.epoch
        for k in getattr(self, f"{mode}_metrics"):
            if k in logs:
                value = _first_value(logs[k])
                if value is not None:
                    self.writer.add_scalar(tag=f"{mode}/{k}", step=step, value=value)

    def on_train_batch_end(self, step, logs=None):
        self.train_step += 1
        if self._is_write():
            self._updates(logs or {}, "train")

    def on_eval_begin(self, logs=None):
        self.eval_steps = logs.get("steps", None)
        self.eval_metrics = logs.get("metrics", [])
        self.eval_step = 0
        self.evaled_samples = 0

    def on_train_end(self, logs=None):
        if hasattr(self, "writer"):
            self.writer.close()
            del self.writer

    def on_eval_end(self, logs=None):
        if self._is_write():
            self._updates(logs, "eval")
            if not hasattr(self, "_is_fit") and hasattr(self, "writer"):
                self.writer.close()
                del self.writer


class WandbCallback(Callback):
    """Logs the training and evaluation metrics to Weights & Biases (needs the ``wandb``
    package: without it, constructing this raises ImportError)."""

    def __init__(self, project=None, entity=None, name=None, dir=None, mode=None,
                 job_type=None, **kwargs):
        self.wandb = try_import("wandb", "You want to use `wandb` which is not installed yet "
                                         "install it with `pip install wandb`")
        self.wandb_args = {"project": project, "name": name, "entity": entity, "dir": dir,
                           "mode": mode, "job_type": job_type, **kwargs}
        self._run = None
        _ = self.run

    def _is_write(self):
        return _local_rank() == 0

    @property
    def run(self):
        if self._is_write() and self._run is None:
            if self.wandb.run is not None:
                warnings.warn("There is a wandb run already in progress and newly created "
                              "instances of `WandbCallback` will reuse this run. If this is "
                              "not desired , call `wandb.finish()` before instantiating "
                              "`WandbCallback`.")
                self._run = self.wandb.run
            else:
                self._run = self.wandb.init(**self.wandb_args)
        return self._run

    def on_train_begin(self, logs=None):
        self.epochs = self.params["epochs"]
        assert self.epochs
        self.train_metrics = self.params["metrics"]
        assert self.train_metrics
        self._is_fit = True
        self.train_step = 0
        if self._is_write():
            self.run.define_metric("train/step")
            self.run.define_metric("train/*", step_metric="train/step")
            self.run.define_metric("epoch")
            self.run.define_metric("eval/*", step_metric="epoch")

    def on_epoch_begin(self, epoch, logs=None):
        self.steps = self.params["steps"]
        self.epoch = epoch

    def _updates(self, logs, mode):
        if not self._is_write():
            return
        record = ({"train/step": self.train_step} if mode == "train"
                  else {"epoch": self.epoch})
        for k in getattr(self, f"{mode}_metrics"):
            if k in logs:
                value = _first_value(logs[k])
                if value is not None:
                    record[f"{mode}/{k}"] = value
        self.run.log(record)

    def on_train_batch_end(self, step, logs=None):
        self.train_step += 1
        if self._is_write():
            self._updates(logs or {}, "train")

    def on_eval_begin(self, logs=None):
        self.eval_steps = logs.get("steps", None)
        self.eval_metrics = logs.get("metrics", [])
        self.eval_step = 0
        self.evaled_samples = 0

    def on_train_end(self, logs=None):
        if self._is_write():
            self.run.finish()

    def on_eval_end(self, logs=None):
        if self._is_write():
            self._updates(logs, "eval")
            if not hasattr(self, "_is_fit"):
                self.run.finish()
