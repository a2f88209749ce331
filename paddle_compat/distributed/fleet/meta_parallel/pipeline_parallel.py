"""``PipelineParallel``: trains a ``PipelineLayer`` with the 1F1B schedule. Activations go
forward and their gradients backward between neighbouring stages with torch.distributed
point-to-point messages (a small header with the shape and dtype, then the data); sends are
non-blocking, receives blocking, so the order written out below cannot deadlock.

torch.distributed.pipelining is not used: its stages trace or wrap torch modules, while a
paddle_compat stage is a paddle Layer run on paddle Tensors with a paddle loss function.
"""
import torch
import torch.distributed as dist

from ....framework.tensor import wrap
from ....nn.layer.layers import Layer

__all__ = ["PipelineParallel"]

_DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64,
           torch.int32, torch.bool, torch.uint8, torch.int8]
_HEADER = 16


class _P2P:
    def __init__(self, hcg):
        self.prev = hcg.prev_rank
        self.next = hcg.next_rank
        self.pending = []

    def send(self, t, dst):
        t = t.detach().contiguous()
        head = torch.zeros(_HEADER, dtype=torch.int64)
        head[0], head[1] = t.dim(), _DTYPES.index(t.dtype)
        head[2:2 + t.dim()] = torch.tensor(t.shape, dtype=torch.int64)
        self.pending += [(dist.isend(head, dst), head), (dist.isend(t, dst), t)]

    def recv(self, src):
        head = torch.zeros(_HEADER, dtype=torch.int64)
        dist.recv(head, src)
        ndim, code = int(head[0]), int(head[1])
        t = torch.empty([int(s) for s in head[2:2 + ndim]], dtype=_DTYPES[code])
        dist.recv(t, src)
        return t

    def flush(self):
        for work, _ in self.pending:
            work.wait()
        self.pending = []


def _payload(x):
    return x._t if hasattr(x, "_t") else torch.as_tensor(x)


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
        self._p2p = _P2P(hcg)
        self.train_loss = None
        self._dp_group = hcg.get_data_parallel_group()
        if hcg.get_data_parallel_world_size() > 1:
            with torch.no_grad():
                for p in layers.parameters():
                    dist.broadcast(p._t.detach(), self._dp_group.ranks[0],
                                   group=self._dp_group.process_group)

    def forward(self, *args, **kwargs):
        return self._layers(*args, **kwargs)

    # ------------------------------------------------------------------ micro batches
    def _micro(self, data, i):
        b, e = i * self.micro_batch_size, (i + 1) * self.micro_batch_size
        if isinstance(data, (tuple, list)):
            return type(data)(self._micro(d, i) for d in data)
        if data is None:
            return None
        return wrap(_payload(data)[b:e])

    def _check_batch(self, data):
        x = data[0] if isinstance(data, (tuple, list)) else data
        while isinstance(x, (tuple, list)):
            x = x[0]
        n = _payload(x).shape[0]
        if n != self.micro_batch_size * self.accumulate_steps:
            raise ValueError(f"batch size {n} must be micro_batch_size "
                             f"({self.micro_batch_size}) * accumulate_steps "
                             f"({self.accumulate_steps})")

    def _forward_step(self, inputs, labels, i, compute_loss=True):
        if self.is_pipeline_first_stage:
            x = self._micro(inputs, i)
            x_t = None
        else:
            x_t = self._p2p.recv(self._hcg.prev_rank).requires_grad_(torch.is_grad_enabled())
            x = wrap(x_t)
        out = self._layers(x)
        if self.is_pipeline_last_stage:
            if compute_loss and self._layers._loss_fn is not None:
                out = self._layers._loss_fn(out, self._micro(labels, i))
        else:
            self._p2p.send(out._t, self._hcg.next_rank)
        return x_t, out

    def _backward_step(self, x_t, out):
        if self.is_pipeline_last_stage:
            loss = out._t
            (loss / self.accumulate_steps).backward()
        else:
            grad = self._p2p.recv(self._hcg.next_rank)
            torch.autograd.backward(out._t, grad)
        if x_t is not None:
            self._p2p.send(x_t.grad if x_t.grad is not None else torch.zeros_like(x_t),
                           self._hcg.prev_rank)

    def forward_backward_pipeline(self, data, scaler=None):
        """One batch through the 1F1B schedule; returns the mean micro-batch loss (on every
        stage: the last stage broadcasts it over the pipeline group)."""
        self._check_batch(data)
        inputs, labels = (data[0], data[1]) if isinstance(data, (tuple, list)) else (data, None)
        acc = self.accumulate_steps
        warmup = min(self.num_stages - self.stage_id - 1, acc)
        steady = acc - warmup
        queue, losses = [], []
        f = 0
        for _ in range(warmup):
            queue.append(self._forward_step(inputs, labels, f))
            f += 1
        for _ in range(steady):
            queue.append(self._forward_step(inputs, labels, f))
            f += 1
            x_t, out = queue.pop(0)
            losses.append(out)
            self._backward_step(x_t, out)
        while queue:
            x_t, out = queue.pop(0)
            losses.append(out)
            self._backward_step(x_t, out)
        self._p2p.flush()
        self._layers.allreduce_shared_weight_gradients()
        return self._final_loss(losses)

    def _final_loss(self, outs):
        if self.is_pipeline_last_stage:
            loss = torch.stack([o._t.detach().reshape(()) for o in outs]).mean()
        else:
            loss = torch.zeros((), dtype=torch.float32)
        if self.num_stages > 1:
            loss = loss.float().contiguous()
            g = self._hcg.get_pipe_parallel_group()
            dist.broadcast(loss, g.ranks[-1], group=g.process_group)
        self.train_loss = wrap(loss)
        return self.train_loss

    def train_batch(self, data, optimizer, lr_scheduler=None, scaler=None, loss_fn_idx=0,
                    return_micro_batch_loss=False):
        """Forward and backward ``accumulate_steps`` micro batches of ``data = (inputs,
        labels)``, then one optimizer step; returns the mean loss."""
        self._layers.train()
        loss = self.forward_backward_pipeline(data, scaler)
        if scaler is not None:
            scaler.minimize(optimizer, loss)
        else:
            optimizer.step()
        optimizer.clear_grad()
        if lr_scheduler is not None:
            lr_scheduler.step()
        return loss

    def eval_batch(self, data, compute_loss=False, loss_fn_idx=0, return_host_tensor=False):
        """Forward only; returns the mean loss (``compute_loss``) or the last stage's outputs
        concatenated (None on other stages)."""
        self._layers.eval()
        self._check_batch(data)
        inputs, labels = (data[0], data[1]) if isinstance(data, (tuple, list)) else (data, None)
        outs = []
        with torch.no_grad():
            for i in range(self.accumulate_steps):
                outs.append(self._forward_step(inputs, labels, i, compute_loss)[1])
            self._p2p.flush()
        if compute_loss:
            return self._final_loss(outs)
        if self.is_pipeline_last_stage:
            return wrap(torch.cat([o._t for o in outs]))
        return None
