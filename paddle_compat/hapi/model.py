"""``paddle.Model``: a network with its optimizer, loss and metrics, trained and evaluated by
``fit`` / ``evaluate`` / ``predict`` (or one batch at a time), with Paddle's console output,
callbacks and checkpoints (``.pdparams`` / ``.pdopt`` through ``paddle.save``).

Dynamic mode only, as paddle_compat runs every ``paddle.Model`` eagerly on torch. ::

    model = paddle.Model(net)
    model.prepare(paddle.optimizer.Adam(parameters=model.parameters()),
                  paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy())
    model.fit(train_set, eval_set, batch_size=64, epochs=2, verbose=1)
"""
import inspect
import os
import warnings

import numpy as np

from .. import amp as _amp
from ..autograd import no_grad
from ..distributed.env import ParallelEnv
from ..framework.io import load as _load, save as _save
from ..framework.mode import in_dynamic_mode
from ..framework.tensor import Tensor
from ..io import DataLoader, Dataset, DistributedBatchSampler
from ..metric import Metric
from ..nn import Layer
from ..ops.creation import to_tensor
from ..ops.arithmetic import add_n
from ..static import InputSpec as Input
from .callbacks import EarlyStopping, config_callbacks
from .model_summary import summary

__all__ = ["Model"]


def to_list(value):
    if value is None:
        return value
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


def _to_numpy(t):
    return np.array(t)


def _flatten(nest):
    """The leaves of nested lists / tuples / dicts, in order (``paddle.utils.flatten``)."""
    if isinstance(nest, (list, tuple)):
        return [leaf for item in nest for leaf in _flatten(item)]
    if isinstance(nest, dict):
        return [leaf for k in sorted(nest) for leaf in _flatten(nest[k])]
    return [nest]


def _input_info(inputs):
    """(shapes, dtypes) of a batch of inputs (or InputSpecs), for later summaries."""
    if isinstance(inputs, Input):
        return [list(inputs.shape)], [inputs.dtype]
    if isinstance(inputs, (list, tuple)):
        return [list(x.shape) for x in inputs], [x.dtype for x in inputs]
    if isinstance(inputs, dict):
        return [list(v.shape) for v in inputs.values()], [v.dtype for v in inputs.values()]
    return None


class DynamicGraphAdapter:
    """Runs one batch of training, evaluation or prediction eagerly."""

    def __init__(self, model):
        self.model = model
        env = ParallelEnv()
        self._nranks = env.nranks
        self._local_rank = env.local_rank
        self._merge_count = {"eval_total": 0, "test_total": 0, "eval_batch": 0, "test_batch": 0}
        self._input_info = None
        self._amp_level = "O0"
        self._amp_configs = {}
        self._amp_custom_lists = {}
        self._use_fp16_guard = True
        self.ddp_model = None
        if self._nranks > 1:
            from ..distributed import DataParallel, init_parallel_env
            init_parallel_env()
            self.ddp_model = DataParallel(self.model.network)

    @property
    def mode(self):
        return self.model.mode

    @mode.setter
    def mode(self, value):
        self.model.mode = value

    def _metric_updates(self, outputs, labels):
        results = []
        for metric in self.model._metrics:
            computed = metric.compute(*(to_list(outputs) + labels))
            results.append(metric.update(*[_to_numpy(m) for m in to_list(computed)]))
        return results

    def train_batch(self, inputs, labels=None, update=True):
        assert self.model._optimizer, "model not ready, please call `model.prepare()` first"
        model = self.model
        model.network.train()
        self.mode = "train"
        inputs = to_list(inputs)
        self._input_info = _input_info(inputs)
        labels = [to_tensor(l) for l in to_list(labels or [])]
        use_amp = self._amp_level != "O0"
        if use_amp and model._scaler is None:
            model._scaler = _amp.GradScaler(**self._amp_configs)
        net = self.ddp_model if self.ddp_model is not None else model.network
        with _amp.auto_cast(enable=use_amp, level=self._amp_level, **self._amp_custom_lists):
            outputs = net(*[to_tensor(x) for x in inputs])
        losses = to_list(model._loss(*(to_list(outputs) + labels)))
        final_loss = add_n(losses)
        if use_amp:
            scaled = model._scaler.scale(final_loss)
            scaled.backward()
            if update:
                model._scaler.minimize(model._optimizer, scaled)
                model.network.clear_gradients()
        else:
            final_loss.backward()
            if update:
                model._optimizer.minimize(final_loss)
                model.network.clear_gradients()
        metrics = self._metric_updates(outputs, labels)
        losses = [_to_numpy(l) for l in losses]
        return (losses, metrics) if metrics else losses

    def eval_batch(self, inputs, labels=None):
        model = self.model
        model.network.eval()
        self.mode = "eval"
        inputs = to_list(inputs)
        self._input_info = _input_info(inputs)
        labels = [to_tensor(l) for l in to_list(labels or [])]
        outputs = model.network(*[to_tensor(x) for x in inputs])
        losses = to_list(model._loss(*(to_list(outputs) + labels))) if model._loss else None
        if self._nranks > 1:
            outputs, labels = self._gather(to_list(outputs), labels)
        metrics = self._metric_updates(outputs, labels)
        if model._loss:
            losses = [_to_numpy(l) for l in losses]
            return (losses, metrics) if metrics else losses
        return metrics

    def _gather(self, outputs, labels):
        """All ranks' outputs and labels, the padding of the last batch cut off."""
        from ..distributed import all_gather
        from ..ops.joining import concat

        def gathered(x):
            parts = []
            all_gather(parts, x)
            return concat(parts, axis=0)
        outputs = [gathered(o) for o in outputs]
        labels = [gathered(l) for l in labels]
        loader = self.model._test_dataloader
        if isinstance(loader, DataLoader):
            total = len(loader.dataset)
            samples = outputs[0].shape[0]
            seen = self._merge_count.get(self.mode + "_total", 0)
            if seen + samples >= total:
                outputs = [o[:int(total - seen)] for o in outputs]
                labels = [l[:int(total - seen)] for l in labels]
                self._merge_count[self.mode + "_total"] = 0
                self._merge_count[self.mode + "_batch"] = int(total - seen)
            else:
                self._merge_count[self.mode + "_total"] += samples
                self._merge_count[self.mode + "_batch"] = samples
        return outputs, labels

    def predict_batch(self, inputs):
        self.model.network.eval()
        self.mode = "test"
        inputs = [to_tensor(x) for x in to_list(inputs)]
        self._input_info = _input_info(inputs)
        outputs = self.model.network(*inputs)
        return [_to_numpy(o) for o in to_list(outputs)]

    def parameters(self, *args, **kwargs):
        return self.model.network.parameters(*args, **kwargs)

    def save(self, path):
        model = self.model
        _save(model.network.state_dict(), path + ".pdparams")
        if model._optimizer is not None and model._optimizer.state_dict():
            _save(model._optimizer.state_dict(), path + ".pdopt")
        if getattr(model, "_scaler", None) is not None and model._scaler.state_dict():
            _save(model._scaler.state_dict(), path + ".pdscaler")

    def load(self, param_state_pairs, optim_state, scaler_state=None):
        for param, state in param_state_pairs:
            param.set_value(state)
        if getattr(self.model, "_scaler", None) is not None and scaler_state:
            self.model._scaler.load_state_dict(scaler_state)
        if not self.model._optimizer or not optim_state:
            return
        state = dict(optim_state)
        if "@LR_DECAY_COUNTER@" in state:      # a static-graph checkpoint's step counter
            state["global_step"] = np.array(state.pop("@LR_DECAY_COUNTER@")) + 1
        self.model._optimizer.set_state_dict(state)

    def prepare(self):
        if self._amp_level == "O2" and self.model.mode == "train" and _cuda_build():
            self.model.network, self.model._optimizer = _amp.decorate(
                models=self.model.network, optimizers=self.model._optimizer, level="O2")
        if self._amp_level != "O0":
            self.model._scaler = None


def _cuda_build():
    import torch
    return torch.cuda.is_available()


# Paddle's _run_one_epoch takes ``logs={}`` as a default argument: one dict shared by every
# run of every Model in the process, so keys logged once (a metric's value, ``step``) stay
# visible to later runs' callbacks. Kept, so that callbacks see what they see under Paddle.
_SHARED_LOGS = {}



def _forward_argspec(network):
    """The argument spec of ``network.forward``; of the Python function under a ``to_static``
    forward (a StaticFunction object, whose own call signature is ``*args``)."""
    fwd = network.forward
    return inspect.getfullargspec(getattr(fwd, "dygraph_function", fwd))

class Model:
    """A ``paddle.nn.Layer`` with the machinery to train, evaluate and predict
    (``prepare`` first). ``inputs`` / ``labels`` are InputSpecs (optional in dynamic mode)."""

    def __init__(self, network, inputs=None, labels=None):
        self.mode = "train"
        self.network = network
        self._inputs = None
        self._labels = None
        self._loss = None
        self._loss_weights = None
        self._optimizer = None
        self._input_info = None
        self._is_shape_inferred = False
        self._test_dataloader = None
        self._metrics = []
        self._scaler = None
        self.stop_training = False
        if not in_dynamic_mode():
            raise NotImplementedError(
                "paddle.Model in static graph mode is not supported by paddle_compat: call "
                "paddle.disable_static() first (every Model runs eagerly on torch)")
        if inputs:
            self._input_info = _input_info(inputs)
        self._inputs = self._verify_spec(inputs, is_input=True)
        self._labels = self._verify_spec(labels)
        self._adapter = DynamicGraphAdapter(self)

    # ---------------------------------------------------------------- one batch
    def train_batch(self, inputs, labels=None, update=True):
        """One optimisation step on a batch (lists of arrays or Tensors): the losses as numpy
        arrays, and the metrics' batch values when there are metrics. ``update=False`` only
        accumulates the gradients."""
        out = self._adapter.train_batch(inputs, labels, update)
        if self._input_info is None:
            self._update_inputs()
        return out

    @no_grad()
    def eval_batch(self, inputs, labels=None):
        """The losses (and metric values) of a batch, without gradients."""
        out = self._adapter.eval_batch(inputs, labels)
        if self._input_info is None:
            self._update_inputs()
        return out

    @no_grad()
    def predict_batch(self, inputs):
        """The network's outputs for a batch, as a list of numpy arrays."""
        out = self._adapter.predict_batch(inputs)
        if self._input_info is None:
            self._update_inputs()
        return out

    # ---------------------------------------------------------------- checkpoints
    def save(self, path, training=True):
        """``path.pdparams`` (and ``path.pdopt`` once the optimizer has state); with
        ``training=False`` Paddle writes an inference model with ``paddle.jit.save``."""
        if ParallelEnv().local_rank != 0:
            return
        if not training:
            raise NotImplementedError(
                "paddle.Model.save(path, training=False) writes a Paddle inference program "
                "(paddle.jit.save), which paddle_compat does not support: save with "
                "training=True and export the network with torch (paddle_compat.to_torch)")
        directory = os.path.dirname(path)
        if directory:
            os.makedirs(directory, exist_ok=True)
        self._adapter.save(path)

    def load(self, path, skip_mismatch=False, reset_optimizer=False):
        """Load ``path.pdparams`` (and ``path.pdopt`` unless ``reset_optimizer``); ``path`` may
        end in .pdparams / .pdopt / .pdmodel. ``skip_mismatch`` skips (and warns about)
        parameters missing from the file or of another shape."""
        base, ext = os.path.splitext(path)
        assert ext in ("", ".pdparams", ".pdopt", ".pdmodel"), \
            f"Unknown postfix {ext} from weights"

        def read(file):
            return _load(file) if os.path.exists(file) else None
        param_state = read(base + ".pdparams")
        assert param_state, "Failed to load parameters, please check path."
        pairs = []
        for key, param in self.network.state_dict().items():
            state = param_state.get(key, None)
            try:
                if state is None:
                    raise ValueError(f"{key} is not found in the providing file.")
                if list(state.shape) != list(param.shape):
                    raise ValueError(f"{key} receives a shape {list(state.shape)}, but the "
                                     f"expected shape is {list(param.shape)}.")
            except ValueError as err:
                if not skip_mismatch:
                    raise
                warnings.warn(f"Skip loading for {key}. " + str(err))
                reset_optimizer = True
                continue
            pairs.append((param, state))
        optim_state = None if reset_optimizer else read(base + ".pdopt")
        scaler_state = None
        if self._scaler is not None and os.path.exists(base + ".pdscaler"):
            scaler_state = _load(base + ".pdscaler")
        return self._adapter.load(pairs, optim_state, scaler_state)

    def parameters(self, *args, **kwargs):
        """The network's parameters."""
        return self._adapter.parameters()

    # ---------------------------------------------------------------- prepare
    def _prepare_amp(self, amp_configs):
        adapter = self._adapter
        adapter._amp_custom_lists = {}
        adapter._amp_configs = {}
        if not amp_configs:
            adapter._amp_level = "O0"
            return
        if isinstance(amp_configs, str):
            if amp_configs not in ("O0", "O1", "O2"):
                raise ValueError("The level of amp_configs should be 'O0', 'O1' or 'O2'.")
            adapter._amp_level = amp_configs
            return
        if "level" not in amp_configs:
            adapter._amp_level = "O1"
        elif amp_configs["level"] not in ("O0", "O1", "O2"):
            raise ValueError("amp_configs['level'] should be 'O0', 'O1' or 'O2'.")
        else:
            adapter._amp_level = amp_configs["level"]
        keys = set(amp_configs) - {"level"}
        if not keys or adapter._amp_level == "O0":
            return
        for k in ("custom_white_list", "custom_black_list"):
            if k in keys:
                adapter._amp_custom_lists[k] = amp_configs[k]
                keys.remove(k)
        if "use_fp16_guard" in keys:
            raise ValueError("'use_fp16_guard' is supported in static graph mode only.")
        scaler_keys = {"init_loss_scaling", "incr_ratio", "decr_ratio",
                       "incr_every_n_steps", "decr_every_n_nan_or_inf",
                       "use_dynamic_loss_scaling"}
        unknown = keys - scaler_keys
        if unknown:
            raise ValueError(f"Except for 'level', the keys of 'amp_configs' must be accepted "
                             f"by mixed precision APIs, but {sorted(unknown)} could not be "
                             f"recognized.")
        for k in keys:
            adapter._amp_configs[k] = amp_configs[k]

    def prepare(self, optimizer=None, loss=None, metrics=None, amp_configs=None):
        """Set the optimizer, the loss (a Layer or any callable of outputs and labels), the
        metrics and the mixed-precision configuration ('O0'/'O1'/'O2' or a dict)."""
        self._place = None
        self._optimizer = optimizer
        if loss is not None and not isinstance(loss, Layer) and not callable(loss):
            raise TypeError("'loss' must be sub classes of `paddle.nn.Layer` or any callable "
                            "function.")
        self._loss = loss
        for metric in to_list(metrics or []):
            assert isinstance(metric, Metric), \
                f"{metric.__class__.__name__} is not sub class of Metric"
        self._metrics = to_list(metrics or [])
        self._prepare_amp(amp_configs)
        self._adapter.prepare()

    # ---------------------------------------------------------------- loops
    def _loader(self, data, batch_size, shuffle=False, drop_last=False, num_workers=0):
        if isinstance(data, Dataset):
            sampler = DistributedBatchSampler(data, batch_size=batch_size, shuffle=shuffle,
                                              drop_last=drop_last)
            return DataLoader(data, batch_sampler=sampler, num_workers=num_workers,
                              return_list=True)
        return data

    def fit(self, train_data=None, eval_data=None, batch_size=1, epochs=1, eval_freq=1,
            log_freq=10, save_dir=None, save_freq=1, verbose=2, drop_last=False, shuffle=True,
            num_workers=0, callbacks=None, accumulate_grad_batches=1, num_iters=None):
        """Train for ``epochs`` epochs (or ``num_iters`` steps), evaluating on ``eval_data``
        every ``eval_freq`` epochs; datasets are batched by a DistributedBatchSampler."""
        assert train_data is not None, "train_data must be given!"
        if isinstance(batch_size, (tuple, list)) and all(isinstance(x, int)
                                                          for x in batch_size):
            assert len(batch_size) == 2, \
                "batch_size length error, expected train_batch_size and eval_batch_size."
            train_bs, eval_bs = batch_size
        else:
            train_bs = eval_bs = batch_size
        train_loader = self._loader(train_data, train_bs, shuffle, drop_last, num_workers)
        eval_loader = (self._loader(eval_data, eval_bs, num_workers=num_workers)
                       if eval_data is not None else None)
        do_eval = eval_loader is not None
        self._test_dataloader = eval_loader
        self._accumulate = accumulate_grad_batches
        steps = self._len_data_loader(train_loader)
        self.num_iters = num_iters
        if num_iters is not None and isinstance(num_iters, int) and isinstance(steps, int):
            assert num_iters > 0, "num_iters must be greater than 0!"
            epochs = num_iters // steps + 1
            steps = min(num_iters, steps)
        cbks = config_callbacks(callbacks, model=self, epochs=epochs, steps=steps,
                                log_freq=log_freq, save_freq=save_freq, save_dir=save_dir,
                                verbose=verbose, metrics=self._metrics_name())
        if any(isinstance(k, EarlyStopping) for k in cbks) and not do_eval:
            warnings.warn("EarlyStopping needs validation data.")
        cbks.on_begin("train")
        logs = None
        for epoch in range(epochs):
            cbks.on_epoch_begin(epoch)
            logs = self._run_one_epoch(train_loader, cbks, "train")
            cbks.on_epoch_end(epoch, logs)
            if do_eval and epoch % eval_freq == 0:
                cbks.on_begin("eval", {"steps": self._len_data_loader(eval_loader),
                                       "metrics": self._metrics_name()})
                eval_logs = self._run_one_epoch(eval_loader, cbks, "eval")
                cbks.on_end("eval", eval_logs)
            if self.stop_training:
                break
        cbks.on_end("train", logs)
        self._test_dataloader = None

    def evaluate(self, eval_data, batch_size=1, log_freq=10, verbose=2, num_workers=0,
                 callbacks=None, num_iters=None):
        """Evaluate on ``eval_data``: {'loss': [value], metric name: value ...}."""
        loader = self._loader(eval_data, batch_size, num_workers=num_workers)
        self._test_dataloader = loader
        cbks = config_callbacks(callbacks, model=self, log_freq=log_freq, verbose=verbose,
                                metrics=self._metrics_name())
        steps = self._len_data_loader(loader)
        self.num_iters = num_iters
        if num_iters is not None and isinstance(num_iters, int) and isinstance(steps, int):
            assert num_iters > 0, "num_iters must be greater than 0!"
            steps = min(num_iters, steps)
            self.num_iters = steps
        cbks.on_begin("eval", {"steps": steps, "metrics": self._metrics_name()})
        logs = self._run_one_epoch(loader, cbks, "eval")
        cbks.on_end("eval", logs)
        self._test_dataloader = None
        return {k: logs[k] for k in self._metrics_name()}

    def predict(self, test_data, batch_size=1, num_workers=0, stack_outputs=False, verbose=1,
                callbacks=None):
        """The network's outputs over ``test_data``: a list with one entry per output, each a
        list of per-batch numpy arrays (``stack_outputs=True``: one array stacked over
        batches)."""
        loader = self._loader(test_data, batch_size, num_workers=num_workers)
        self._test_dataloader = loader
        cbks = config_callbacks(callbacks, model=self, verbose=verbose)
        cbks.on_begin("predict", {"steps": self._len_data_loader(loader)})
        logs, outputs = self._run_one_epoch(loader, cbks, "predict")
        outputs = list(zip(*outputs))
        if stack_outputs:
            outputs = [np.vstack(outs) for outs in outputs]
        self._test_dataloader = None
        cbks.on_end("predict", logs)
        return outputs

    def _run_one_epoch(self, data_loader, callbacks, mode, logs=_SHARED_LOGS):
        outputs = []
        nranks = ParallelEnv().nranks
        for step, data in enumerate(data_loader):
            data = _flatten(data)
            shape = data[0].shape
            batch_size = shape()[0] if callable(shape) else shape[0]
            callbacks.on_batch_begin(mode, step, logs)
            if mode != "predict":
                args = [data[:len(self._inputs)], data[len(self._inputs):]]
                if mode == "train":
                    args.append((step + 1) % self._accumulate == 0
                                or step + 1 == len(data_loader))
                outs = getattr(self, mode + "_batch")(*args)
                if self._metrics and self._loss:
                    values = [[float(l) for l in outs[0]]]
                elif self._loss:
                    values = [[float(l) for l in outs]]
                else:
                    values = []
                for metric in self._metrics:
                    values.extend(to_list(metric.accumulate()))
                names = self._metrics_name()
                assert len(names) == len(values)
                logs.update(zip(names, values))
            else:
                inputs = data[:len(self._inputs)] if self._inputs is not None else data
                outputs.append(self.predict_batch(inputs))
            logs["step"] = step
            merged = self._adapter._merge_count.get(mode + "_batch", 0)
            logs["batch_size"] = (batch_size * nranks if mode == "train" or merged <= 0
                                  else merged)
            callbacks.on_batch_end(mode, step, logs)
            if getattr(self, "num_iters", None) is not None:
                self.num_iters -= 1
                if self.num_iters <= 0:
                    self.stop_training = True
                    del self.num_iters
                    break
        for metric in self._metrics:
            metric.reset()
        return (logs, outputs) if mode == "predict" else logs

    # ---------------------------------------------------------------- helpers
    def summary(self, input_size=None, dtype=None):
        """``paddle.summary`` of the network, for ``input_size`` or the Model's inputs."""
        assert input_size is not None or self._inputs is not None, \
            "'input_size' or 'self._input' must be set"
        return summary(self.network, input_size if input_size is not None else self._inputs,
                       dtypes=dtype)

    def _verify_spec(self, specs, shapes=None, dtypes=None, is_input=False):
        if specs is None:
            if not is_input:
                return None
            names = _forward_argspec(self.network).args[1:]
            if shapes is not None and dtypes is not None:
                out = [Input(name=n, dtype=dtypes[i], shape=shapes[i])
                       for i, n in enumerate(names)]
            else:
                out = [Input(name=n, shape=[None]) for n in names]
        elif isinstance(specs, dict):
            assert is_input is False
            out = [specs[n] for n in _forward_argspec(self.network).args
                   if n != "self"]
        else:
            out = to_list(specs)
        for i, spec in enumerate(out):
            assert isinstance(spec, Input)
            if spec.name is None:
                raise ValueError(f"Requires Input[{i}].name != None, but receive `None` with "
                                 f"{spec}.")
        return out

    def _reset_metrics(self):
        for metric in self._metrics:
            metric.reset()

    def _metrics_name(self):
        names = ["loss"] if self._loss else []
        for m in self._metrics:
            names.extend(to_list(m.name()))
        return names

    @staticmethod
    def _len_data_loader(data_loader):
        try:
            return len(data_loader)
        except Exception:       # noqa: BLE001  an iterable without a length
            return None

    def _update_inputs(self):
        self._input_info = self._adapter._input_info
        if self._input_info is not None and len(self._input_info) == 2:
            self._inputs = self._verify_spec(None, self._input_info[0], self._input_info[1],
                                             True)
            self._is_shape_inferred = True
