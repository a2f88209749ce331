"""``paddle.DataParallel``: data-parallel training of a Layer over the process group.

At construction the parameters and buffers are broadcast from the group's first rank, so every
process starts from the same weights. Each backward that runs through the wrapped layer's output
ends with one all-reduce of all its parameters' gradients (flattened into one buffer), divided
by the number of ranks: Paddle averages. The trigger is torch's post-accumulate-grad hook on
each parameter, which queues a callback that runs once when the backward pass finishes; a
parameter no rank used gets a zero gradient, one used only elsewhere gets the average.
``no_sync()`` accumulates locally; the next synced backward averages everything accumulated.

The wrapper subclasses ``paddle.nn.Layer`` when that exists; otherwise it relies only on the
wrapped object's ``parameters()``, ``__call__``, ``state_dict`` / ``set_state_dict``.
"""
import contextlib
import warnings

import torch
import torch.distributed as dist

from . import collective, parallel_helper
from .env import ParallelEnv

__all__ = ["DataParallel"]

try:                                          # a real Layer when paddle_compat.nn has one
    from ..nn.layer.layers import Layer as _Base
except Exception:  # noqa: BLE001  (nn.Layer not written yet, or broken mid-edit)
    _Base = object

_engine = getattr(getattr(torch.autograd, "Variable", None), "_execution_engine", None)


class _ParamsOnly:
    """Duck-typed stand-in for ``Layer.__init__`` when no Layer class exists."""

    def __init__(self, name_scope=None):
        pass

    def __call__(self, *inputs, **kwargs):
        return self.forward(*inputs, **kwargs)

    def parameters(self, include_sublayers=True):
        return self._layers.parameters()

    def named_parameters(self, *args, **kwargs):
        return self._layers.named_parameters(*args, **kwargs)

    def train(self, mode=True):
        return self._layers.train() if mode else self._layers.eval()

    def eval(self):
        return self._layers.eval()


class WrappedState:
    """For a wrapper layer around ``self._layers`` (DataParallel, MixPrecisionLayer): its state
    dict is the wrapped layer's, with no ``_layers.`` prefix, as Paddle gives it."""

    def state_dict(self, destination=None, include_sublayers=True, structured_name_prefix=""):
        return self._layers.state_dict(destination=destination,
                                       include_sublayers=include_sublayers,
                                       structured_name_prefix=structured_name_prefix)

    def set_state_dict(self, state_dict, use_structured_name=True):
        return self._layers.set_state_dict(state_dict, use_structured_name=use_structured_name)

    set_dict = set_state_dict
    load_dict = set_state_dict


class DataParallel(WrappedState, _ParamsOnly if _Base is object else _Base):
    """Run ``layers`` data-parallel: same weights everywhere, averaged gradients.

    Arguments are Paddle's (``strategy``, ``comm_buffer_size``, ``last_comm_buffer_size`` are
    accepted; one flat buffer per backward is all-reduced whatever its size).

    Example (each process, started by ``paddle.distributed.launch`` or ``spawn``)::

        dist.init_parallel_env()
        model = paddle.DataParallel(Net())
        loss = loss_fn(model(x_shard), y_shard)
        loss.backward()            # gradients now averaged over the ranks
        opt.step()
    """

    def __init__(self, layers, strategy=None, comm_buffer_size=25, last_comm_buffer_size=1,
                 find_unused_parameters=False, group=None):
        full = getattr(layers, "full_name", None)
        super().__init__((full() if callable(full) else type(layers).__name__.lower())
                         + "_data_parallel")
        self._layers = layers
        self.find_unused_parameters = find_unused_parameters
        self.grad_need_sync = True
        self._strategy = strategy
        nranks = strategy.nranks if strategy is not None and hasattr(strategy, "nranks") else (
            ParallelEnv().world_size)
        self.__dict__["_dp"] = state = {"armed": False, "queued": False, "hooked": {},
                                        "group": None, "active": False}
        self.group = group
        if nranks > 1 and dist.is_available() and dist.is_initialized():
            g = collective._get_group(group)
            state["group"] = g
            state["active"] = g.nranks > 1
            self._sync_params_buffers()
        else:
            warnings.warn("The program will return to single-card operation. Please check 1, "
                          "whether you use spawn or fleetrun to start the program. 2, Whether it "
                          "is a multi-card program. 3, Is the current environment multi-card.")

    # ------------------------------------------------------------------ state
    def _params(self):
        return [p for p in self._layers.parameters() if not p.stop_gradient]

    def _sync_params_buffers(self):
        g = self.__dict__["_dp"]["group"]
        tensors = list(self._layers.parameters())
        buffers = getattr(self._layers, "buffers", None)
        if callable(buffers):
            tensors += list(buffers())
        src = g.ranks[0]
        with torch.no_grad():
            for p in tensors:
                t = p._t.detach()
                dist.broadcast(t, src, group=g.process_group)

    def _hook_params(self):
        """(Re-)register the grad hook on every trainable parameter's current payload."""
        hooked = self.__dict__["_dp"]["hooked"]
        for p in self._params():
            t = p._t
            if hooked.get(id(p), (None,))[0] is t:
                continue
            h = t.register_post_accumulate_grad_hook(self._on_grad)
            old = hooked.get(id(p))
            if old is not None:
                old[1].remove()
            hooked[id(p)] = (t, h)

    def _on_grad(self, t):
        st = self.__dict__["_dp"]
        if st["armed"] and not st["queued"]:
            st["queued"] = True
            _engine.queue_callback(self._allreduce_grads)

    def _allreduce_grads(self):
        """Average all trainable parameters' gradients over the group in one all-reduce."""
        st = self.__dict__["_dp"]
        st["queued"] = False
        st["armed"] = False
        g = st["group"]
        ts = [p._t for p in self._params()]
        if not ts:
            return
        with torch.no_grad():
            grads = [t.grad if t.grad is not None else torch.zeros_like(t) for t in ts]
            flat = torch.cat([x.reshape(-1) for x in grads])
            dist.all_reduce(flat, dist.ReduceOp.SUM, group=g.process_group)
            flat.div_(g.nranks)
            offset = 0
            for t, x in zip(ts, grads):
                n = x.numel()
                part = flat[offset:offset + n].view_as(x)
                offset += n
                if t.grad is None:
                    t.grad = part.clone()
                else:
                    t.grad.copy_(part)

    # ------------------------------------------------------------------ calling
    def forward(self, *inputs, **kwargs):
        st = self.__dict__["_dp"]
        if st["active"] and self.grad_need_sync and torch.is_grad_enabled():
            self._hook_params()
            st["armed"] = True
        return self._layers(*inputs, **kwargs)

    @contextlib.contextmanager
    def no_sync(self):
        """Accumulate gradients locally inside the block; the first synced backward after it
        averages everything accumulated."""
        prev = self.grad_need_sync
        self.grad_need_sync = False
        try:
            yield
        finally:
            self.grad_need_sync = prev

    def scale_loss(self, loss):
        """Deprecated in Paddle 2.0: returns ``loss`` unchanged."""
        return loss

    def apply_collective_grads(self):
        """Deprecated in Paddle 2.0: does nothing (gradients are averaged during backward)."""
        return None

