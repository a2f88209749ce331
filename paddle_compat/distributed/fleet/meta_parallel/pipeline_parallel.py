"""``PipelineParallel``: trains a ``PipelineLayer`` with the 1F1B schedule of
``torch.distributed.pipelining``.

This rank's stage (the layers the ``PipelineLayer`` built here) becomes a ``torch.nn.Module``
sharing the paddle parameters (``_StageModule``, a ``TorchModule``), then a ``PipelineStage`` on
the hybrid group's pipeline process group (gloo on CPU, the device of the parameters), driven
by ``Schedule1F1B`` with ``n_microbatches = accumulate_steps``. The schedule's loss function is
the layer's ``loss_fn`` on paddle tensors, divided by ``accumulate_steps`` and multiplied by
the scaler's scale as Paddle does, so the parameters' gradients are Paddle's and the paddle
optimizer steps them. After the schedule, the gradients of ``SharedLayerDesc`` weights are
summed over the stages that hold them; the optimizer (``HybridParallelOptimizer``) averages
over the data-parallel group.

Paddle's semantics kept: ``train_batch`` returns the sum of the micro-batch losses each
divided by ``accumulate_steps``, computed on the last stage and broadcast to every pipeline
rank (a 0-d tensor on the last stage, shape ``[1]`` elsewhere, as Paddle 3.3.1 returns it);
``return_micro_batch_loss`` gives those per-micro-batch values; ``eval_batch`` runs forward
only (mean loss broadcast the same way with ``compute_loss``, else the list of micro-batch
outputs).

Where pipelining differs, and what is done about it:

- Schedule1F1B wants ``accumulate_steps >= num_stages``; Paddle's 1F1B with fewer micro
  batches than stages runs all forwards then all backwards, which is ScheduleGPipe, used then.
- A ``PipelineStage`` without example inputs learns the shapes of the messages on its first
  step by running the stage once (forward, and backward to its inputs). That run must not be
  seen: paddle's random streams (the global one and the model-parallel tracker's), the
  layers' buffers and frozen parameters (batch-norm statistics are parameters in Paddle) are
  restored after it, and its loss is not counted.
- The shapes are learned once per schedule, as Paddle sends its p2p meta once: every batch
  must have the first batch's shapes.
- ``num_virtual_pipeline_stages`` (interleaved 1F1B), ``loss_fn_idx`` over several losses and
  Paddle's other schedule modes (FThenB, VPP, ZBV) are not offered.

Written against torch 2.13's pipelining: besides its public classes it uses the schedules'
``_initialize_stage`` (overridden to wrap the shape run) and a stage's ``output_chunks`` /
``fwd_cache`` (eval_batch's outputs).
"""
import torch
import torch.distributed as dist

from ....framework.tensor import Tensor, wrap
from ....nn.layer.layers import Layer
from ....nn.torch_module import TorchModule, to_paddle_tree, to_torch_tree
from ....ops import random as _grandom
from .random import get_rng_state_tracker

__all__ = ["PipelineParallel"]


def _payload(x):
    return x._t if isinstance(x, Tensor) else torch.as_tensor(x)


class _StageModule(TorchModule):
    """The local stage as a torch module: parameters shared with the ``PipelineLayer``; the
    tensors the previous stage sent (one, or several for a tuple output) are handed to the
    layer as its one input, as Paddle's p2p does."""

    def forward(self, *args):
        x = to_paddle_tree(args[0] if len(args) == 1 else tuple(args))
        out = to_torch_tree(self.layer(x))
        return tuple(out) if isinstance(out, list) else out      # pipelining sends tuples


class _QuietInit:
    """Mixin for the schedules: their first step's metadata run (see the module docstring)
    leaves no trace in paddle's random streams, the layers' buffers or the loss list."""

    def _initialize_stage(self, *args, **kwargs):
        if self._pp_quiet_done:
            return super()._initialize_stage(*args, **kwargs)
        owner = self._pp_owner
        rng = _grandom.get_rng_state()
        tracker = get_rng_state_tracker()
        tracked = tracker.get_states_tracker()
        state = [t for t in owner._layers.parameters() if t.stop_gradient]   # BN statistics
        state += [b for b in owner._layers.buffers() if b is not None]
        bufs = [(t, t._t.clone()) for t in state]
        owner._dry_run = True
        try:
            out = super()._initialize_stage(*args, **kwargs)
        finally:
            owner._dry_run = False
            _grandom.set_rng_state(rng)
            tracker.set_states_tracker(tracked)
            with torch.no_grad():
                for b, saved in bufs:        # the layer may have rebound the payload
                    b._t.copy_(saved)
        self._pp_quiet_done = True
        return out


_SCHEDULES = {}


def _pipelining():
    """torch.distributed.pipelining, imported on first use: importing it while torch itself is
    half-imported (``import paddle_compat`` from inside torch's lazy imports) is circular.
    Returns ``(PipelineStage, 1F1B schedule class, GPipe schedule class)``."""
    if not _SCHEDULES:
        from torch.distributed.pipelining import PipelineStage, Schedule1F1B, ScheduleGPipe
        _SCHEDULES["stage"] = PipelineStage
        _SCHEDULES["1f1b"] = type("_Schedule1F1B", (_QuietInit, Schedule1F1B), {})
        _SCHEDULES["gpipe"] = type("_ScheduleGPipe", (_QuietInit, ScheduleGPipe), {})
    return _SCHEDULES["stage"], _SCHEDULES["1f1b"], _SCHEDULES["gpipe"]


class PipelineParallel(Layer):
    """Wraps a ``PipelineLayer`` for ``train_batch`` / ``eval_batch`` (made by
    ``fleet.distributed_model`` when ``pp_degree > 1``)."""

    def __init__(self, layers, hcg, strategy):
        super().__init__()
        from .pp_layers import PipelineLayer
        if not isinstance(layers, PipelineLayer):
            raise TypeError("The Layer should be a derived class of PipelineLayer.")
        self._layers = layers
        self._hcg = hcg
        self._strategy = strategy
        cfg = strategy.pipeline_configs if strategy is not None else {}
        self.micro_batch_size = cfg.get("micro_batch_size", 1)
        self.accumulate_steps = cfg.get("accumulate_steps", 1)
        self.num_stages = hcg.get_pipe_parallel_world_size()
        self.stage_id = hcg.get_stage_id()
        self.is_pipeline_first_stage = self.stage_id == 0
        self.is_pipeline_last_stage = self.stage_id == self.num_stages - 1
        self.train_loss = None
        self.scaler = None
        self._pp_group = hcg.get_pipe_parallel_group()
        self._dp_group = hcg.get_data_parallel_group()
        if hcg.get_data_parallel_world_size() > 1:
            with torch.no_grad():
                for p in layers.parameters():
                    dist.broadcast(p._t.detach(), self._dp_group.ranks[0],
                                   group=self._dp_group.process_group)
        self._module = _StageModule(layers)
        params = list(self._module.parameters())
        self._device = params[0].device if params else torch.device("cpu")
        self._schedules = {}
        self._dry_run = False
        self._labels = None
        self._micro_losses = []

    def forward(self, *args, **kwargs):
        return self._layers(*args, **kwargs)

    # ------------------------------------------------------------------ the schedules
    def _schedule(self, kind):
        """A stage and schedule per use (``train``, ``eval_loss``, ``eval``): pipelining
        re-learns a stage's shapes whenever one schedule switches between training and
        evaluation. Training runs 1F1B; evaluation forward only, micro batch after micro
        batch (GPipe without its backward), as Paddle's eval_batch does."""
        if kind not in self._schedules:
            PipelineStage, one_f_one_b_cls, gpipe_cls = _pipelining()
            stage = PipelineStage(self._module, self.stage_id, self.num_stages, self._device,
                                  group=self._pp_group.process_group)
            one_f_one_b = kind == "train" and self.accumulate_steps >= self.num_stages
            cls = one_f_one_b_cls if one_f_one_b else gpipe_cls
            sched = cls(stage, self.accumulate_steps,
                        loss_fn=self._stage_loss if kind != "eval" else None,
                        scale_grads=False)
            sched._pp_owner = self
            sched._pp_quiet_done = False
            self._schedules[kind] = sched
        return self._schedules[kind]

    def _stage_loss(self, output, index):
        """The schedule's loss on the last stage: ``index`` is the micro batch's number (the
        labels stay paddle data, sliced here as Paddle slices them)."""
        label = self._micro(self._labels, int(index.reshape(-1)[0]))
        loss = self._layers._loss_fn(to_paddle_tree(output), label)
        if not isinstance(loss, Tensor):
            raise TypeError("Currently, loss_fn should obtain Paddle.Tensor dtype")
        if self.accumulate_steps > 1:
            loss = loss / self.accumulate_steps
        if self._dry_run:                 # the shape run: only the shapes matter
            return loss._t
        self._micro_losses.append(loss._t.detach())
        if self.scaler is not None and self._layers.training:
            loss = self.scaler.scale(loss)
        return loss._t

    def _run(self, data, kind):
        self._check_batch(data)
        inputs, labels = (data[0], data[1]) if isinstance(data, (tuple, list)) else (data, None)
        if self.is_pipeline_first_stage and inputs is None:
            raise ValueError("PipelineParallel: the first stage needs the inputs")
        if kind != "eval" and self._layers._loss_fn is None:
            raise ValueError("PipelineParallel: the PipelineLayer needs a loss_fn")
        sched = self._schedule(kind)
        self._labels = labels
        self._micro_losses = []
        args = ()
        if self.is_pipeline_first_stage:
            args = tuple(_payload(x) for x in inputs) if isinstance(inputs, (tuple, list)) \
                else (_payload(inputs),)
        target = None
        if self.is_pipeline_last_stage and kind != "eval":
            target = torch.arange(self.accumulate_steps, device=self._device)
        try:
            if kind == "train":
                sched.step(*args, target=target)
            else:
                with torch.no_grad():
                    sched.eval(*args, target=target)
        finally:
            self._labels = None
        return sched

    # ------------------------------------------------------------------ micro batches
    def _micro(self, data, i):
        b, e = i * self.micro_batch_size, (i + 1) * self.micro_batch_size
        if isinstance(data, (tuple, list)):
            return type(data)(self._micro(d, i) for d in data)
        if data is None:
            return None
        return wrap(_payload(data)[b:e])

    def _check_batch(self, data):
        if data is None:
            return
        x = data[0] if isinstance(data, (tuple, list)) else data
        while isinstance(x, (tuple, list)):
            x = x[0]
        if x is None:
            return
        n = _payload(x).shape[0]
        if n != self.micro_batch_size * self.accumulate_steps:
            raise ValueError(f"batch size {n} must be micro_batch_size "
                             f"({self.micro_batch_size}) * accumulate_steps "
                             f"({self.accumulate_steps})")

    def _final_loss(self, return_micro_batch_loss=False):
        """Paddle's broadcast of the last stage's loss to the whole pipeline group."""
        if self.is_pipeline_last_stage:
            if return_micro_batch_loss:
                loss = torch.stack(self._micro_losses)
            else:
                loss = torch.zeros_like(self._micro_losses[0])
                for x in self._micro_losses:
                    loss = loss + x
            is_fp32 = torch.tensor(int(loss.dtype == torch.float32))
        else:
            is_fp32 = torch.zeros((), dtype=torch.int64)
        if self.num_stages > 1:
            g, src = self._pp_group.process_group, self._pp_group.ranks[-1]
            dist.broadcast(is_fp32, src, group=g)
            if not self.is_pipeline_last_stage:
                shape = [self.accumulate_steps] if return_micro_batch_loss else [1]
                loss = torch.zeros(shape, dtype=torch.float32 if int(is_fp32) else
                                   torch.float16, device=self._device)
            dist.broadcast(loss, src, group=g)
        self.train_loss = wrap(loss)
        return self.train_loss

    # ------------------------------------------------------------------ public
    def forward_backward_pipeline(self, data, scaler=None, return_micro_batch_loss=False):
        """One batch through the 1F1B schedule (gradients accumulated on the parameters,
        shared weights' gradients summed over their stages); returns the loss, broadcast to
        every stage."""
        self.scaler = scaler
        self._run(data, "train")
        self._layers.allreduce_shared_weight_gradients()
        return self._final_loss(return_micro_batch_loss)

    def train_batch(self, data, optimizer, lr_scheduler=None, scaler=None, loss_fn_idx=0,
                    return_micro_batch_loss=False):
        """Forward and backward ``accumulate_steps`` micro batches of ``data = (inputs,
        labels)``, then one optimizer step; returns the loss."""
        if not torch.is_grad_enabled():
            raise AssertionError("Please enable the generation of gradients.")
        self._layers.train()
        loss = self.forward_backward_pipeline(data, scaler, return_micro_batch_loss)
        if scaler is not None and hasattr(scaler, "update"):
            scaler.step(optimizer)
            scaler.update()
        elif scaler is not None:
            scaler.minimize(optimizer, loss)
        else:
            optimizer.step()
        optimizer.clear_grad()
        if lr_scheduler is not None:
            lr_scheduler.step()
        return loss

    def eval_batch(self, data, compute_loss=False, loss_fn_idx=0, return_host_tensor=False):
        """Forward only: the loss as ``train_batch`` gives it (``compute_loss``), else the list
        of this stage's micro-batch outputs."""
        self._layers.eval()
        sched = self._run(data, "eval_loss" if compute_loss else "eval")
        if compute_loss:
            return self._final_loss()
        stage = sched._stage
        if self.is_pipeline_last_stage:
            outs = list(stage.output_chunks)
        else:
            outs = [stage.fwd_cache[i][0] for i in range(self.accumulate_steps)]
            outs = [o[0] if len(o) == 1 else o for o in outs]
        return [to_paddle_tree(o) for o in outs]
