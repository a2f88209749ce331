"""``PipelineLayer``: a model written as a list of layers (``LayerDesc`` builds one lazily,
``SharedLayerDesc`` one whose weight is shared between stages), cut into stages; each rank
builds only its own stage's layers, named by their index in the whole list as in Paddle."""
import torch
import torch.distributed as dist

from .._state import get_hcg
from ....nn.layer.layers import Layer
from ... import collective

__all__ = ["LayerDesc", "SharedLayerDesc", "LocalSharedLayerDesc", "PipelineLayer",
           "SegmentLayers"]


class LayerDesc:
    """A layer to build later: ``LayerDesc(nn.Linear, 4, 8)`` builds ``nn.Linear(4, 8)``."""

    def __init__(self, layer_func, *inputs, **kwargs):
        self.layer_func = layer_func
        self.inputs = inputs
        self.kwargs = kwargs
        if not (isinstance(layer_func, type) and issubclass(layer_func, Layer)):
            raise TypeError("The input(layer_func) should be a derived class of Layer.")

    def build_layer(self):
        return self.layer_func(*self.inputs, **self.kwargs)

    def __repr__(self):
        return f"LayerDesc({self.layer_func.__name__}, {self.inputs}, {self.kwargs})"


class SharedLayerDesc(LayerDesc):
    """A layer built once per stage that uses it, its ``shared_weight_attr`` kept equal on those
    stages (broadcast at build, gradients summed); ``forward_func(layer, x)`` replaces the
    layer's forward where given."""

    def __init__(self, key, layer_func, forward_func=None, shared_weight_attr="weight",
                 *inputs, **kwargs):
        super().__init__(layer_func, *inputs, **kwargs)
        self.layer_name = key
        self.forward_func = forward_func
        self.shared_weight_attr = shared_weight_attr


class LocalSharedLayerDesc(LayerDesc):
    """A layer shared within one rank's stages (Paddle's DualPipeV schedule; PaddleX imports it
    at module top): ``shared_weight_attr`` is a name or a list of names. A PipelineLayer refuses
    it, as Paddle's does outside DualPipeV (paddle_compat has no DualPipeV schedule)."""

    def __init__(self, key, layer_func, forward_func=None, shared_weight_attr="weight",
                 *inputs, **kwargs):
        super().__init__(layer_func, *inputs, **kwargs)
        self.layer_name = key
        self.forward_func = forward_func
        if isinstance(shared_weight_attr, str):
            shared_weight_attr = [shared_weight_attr]
        assert isinstance(shared_weight_attr, list) and all(
            isinstance(a, str) for a in shared_weight_attr)
        self.shared_weight_attr = shared_weight_attr


class SegmentLayers:
    """Stage boundaries: ``uniform`` (the remainder goes to the last stages, as Paddle puts
    it) or ``layer:<ClassName>`` (that class's layers spread evenly)."""

    def __init__(self, layers_desc, num_parts, method="uniform"):
        self._layers_desc = layers_desc
        self.method = method
        self.num_parts = num_parts
        self.num_items = len(layers_desc)
        if self.num_items < num_parts:
            raise ValueError("layer number should be greater than number of segments")

    @staticmethod
    def uniform(num_items, num_parts):
        result = [0] * (num_parts + 1)
        size, extra = num_items // num_parts, num_items % num_parts
        for i in range(1, num_parts):
            offset = 1 if i > num_parts - extra else 0
            result[i] = min(result[i - 1] + size + offset, num_items)
        result[num_parts] = num_items
        return result

    def do_segment(self):
        if self.method == "uniform":
            return self.uniform(self.num_items, self.num_parts)
        if isinstance(self.method, str) and self.method.startswith("layer:"):
            name = self.method.split(":", 1)[1]
            weights = [0] * self.num_items
            for i, d in enumerate(self._layers_desc):
                cls = d.layer_func if isinstance(d, LayerDesc) else type(d)
                weights[i] = 1 if getattr(cls, "__name__", "") == name else 0
            total = sum(weights)
            if total < self.num_parts:
                raise ValueError(f"only {total} layers of {name} for {self.num_parts} stages")
            per = self.uniform(total, self.num_parts)
            result = [0] * (self.num_parts + 1)
            seen = 0
            for i, w in enumerate(weights):
                if w:
                    for k in range(1, self.num_parts):
                        if per[k] == seen:
                            result[k] = i
                    seen += 1
            result[self.num_parts] = self.num_items
            return result
        if isinstance(self.method, (list, tuple)):
            return list(self.method)
        raise ValueError(f"unknown seg_method {self.method!r}")


class PipelineLayer(Layer):
    """The stage of ``layers`` this rank runs (``num_stages`` stages, or the topology's
    ``pipe`` degree); ``loss_fn(output, label)`` is applied on the last stage."""

    def __init__(self, layers, num_stages=None, topology=None, loss_fn=None,
                 seg_method="uniform", recompute_interval=0, recompute_ctx=None,
                 num_virtual_pipeline_stages=None, use_cudagraph=False, use_dualpipev=False):
        super().__init__()
        if num_virtual_pipeline_stages not in (None, 1):
            raise NotImplementedError("PipelineLayer: virtual pipeline stages (interleaved "
                                      "schedule) are not supported")
        if num_stages is None and topology is None:
            raise ValueError("should provide num_stages or topology")
        hcg = get_hcg()
        if topology is not None:
            self._topo = topology
            num_stages = topology.get_dim("pipe")
        else:
            self._topo = hcg.topology() if hcg is not None else None
        self._num_stages = num_stages
        self._loss_fn = loss_fn
        self._recompute_interval = recompute_interval
        self._layers_desc = list(layers)
        if hcg is not None and hcg.get_pipe_parallel_world_size() == num_stages:
            self._stage_id = hcg.get_stage_id()
            self._pp_group = hcg.get_pipe_parallel_group()
        elif num_stages == 1:
            self._stage_id, self._pp_group = 0, None
        else:
            raise ValueError(f"PipelineLayer: {num_stages} stages need fleet.init with "
                             f"pp_degree={num_stages}")
        self.segment_parts = SegmentLayers(self._layers_desc, num_stages,
                                           seg_method).do_segment()
        self._start_pos = self.segment_parts[self._stage_id]
        self._end_pos = self.segment_parts[self._stage_id + 1]
        self.shared_layers = _LayerDict()
        self.shared_weight_attrs = {}
        self._shared_groups = {}
        self.run_function = []
        self._build_shared_groups()
        self._build_layer()

    # ------------------------------------------------------------------ building
    def _owners(self, key):
        return sorted({s for s in range(self._num_stages)
                       for d in self._layers_desc[self.segment_parts[s]:
                                                  self.segment_parts[s + 1]]
                       if isinstance(d, SharedLayerDesc) and d.layer_name == key})

    def _build_shared_groups(self):
        keys = []
        for d in self._layers_desc:
            if isinstance(d, SharedLayerDesc) and d.layer_name not in keys:
                keys.append(d.layer_name)
        for key in keys:
            stages = self._owners(key)
            if self._pp_group is None or len(stages) < 2:
                continue
            ranks = [self._pp_group.ranks[s] for s in stages]
            g = collective.new_group(ranks)      # every rank of the job makes every group
            if self._stage_id in stages:
                self._shared_groups[key] = g

    def _build_layer(self):
        for index, desc in enumerate(self._layers_desc[self._start_pos:self._end_pos]):
            layer_index = self._start_pos + index
            if isinstance(desc, SharedLayerDesc):
                if desc.layer_name not in self.shared_layers:
                    self.shared_layers[desc.layer_name] = desc.build_layer()
                    self.shared_weight_attrs[desc.layer_name] = desc.shared_weight_attr
                    self._sync_shared(desc.layer_name)
                layer = self.shared_layers[desc.layer_name]
                if desc.forward_func is None:
                    self.run_function.append(layer)
                else:
                    self.run_function.append(_bind(desc.forward_func, layer))
            elif isinstance(desc, LocalSharedLayerDesc):
                raise AssertionError("Only dualpipev is supported to use LocalSharedLayerDesc yet")
            elif isinstance(desc, LayerDesc):
                layer = desc.build_layer()
                self.add_sublayer(str(layer_index), layer)
                self.run_function.append(layer)
            elif isinstance(desc, Layer):
                self.add_sublayer(str(layer_index), desc)
                self.run_function.append(desc)
            elif callable(desc):
                self.run_function.append(desc)
            else:
                raise TypeError(f"PipelineLayer: cannot run {desc!r}")

    def _shared_weight(self, key):
        return getattr(self.shared_layers[key], self.shared_weight_attrs[key])

    def _sync_shared(self, key):
        g = self._shared_groups.get(key)
        if g is not None:
            with torch.no_grad():
                dist.broadcast(self._shared_weight(key)._t.detach(), g.ranks[0],
                               group=g.process_group)

    def allreduce_shared_weight_gradients(self):
        for key, g in self._shared_groups.items():
            t = self._shared_weight(key)._t
            if t.grad is None:
                t.grad = torch.zeros_like(t)
            dist.all_reduce(t.grad, group=g.process_group)

    # ------------------------------------------------------------------ running
    def get_stage_from_index(self, layer_idx):
        for s in range(self._num_stages):
            if self.segment_parts[s] <= layer_idx < self.segment_parts[s + 1]:
                return s
        raise ValueError(f"layer {layer_idx} is in no stage")

    def get_num_virtual_stages(self):
        return 1

    def forward(self, input, chunk_id=None):
        from ..utils.recompute import recompute
        x = input
        fns = self.run_function
        step = self._recompute_interval
        if step > 0 and self.training:
            for i in range(0, len(fns), step):
                part = fns[i:i + step]
                x = recompute(_Seq(part), *(x if isinstance(x, tuple) else (x,)))
            return x
        for fn in fns:
            x = fn(*x) if isinstance(x, tuple) else fn(x)
        return x


class _Seq:
    def __init__(self, fns):
        self.fns = fns

    def __call__(self, *x):
        x = x if len(x) > 1 else x[0]
        for fn in self.fns:
            x = fn(*x) if isinstance(x, tuple) else fn(x)
        return x


def _bind(forward_func, layer):
    def run(*args):
        return forward_func(layer, *args)
    return run


class _LayerDict(Layer):
    """Sub-layers by key (named ``shared_layers.<key>``)."""

    def __contains__(self, key):
        return key in self._sub_layers

    def __getitem__(self, key):
        return self._sub_layers[key]

    def __setitem__(self, key, layer):
        self.add_sublayer(key, layer)
