"""Sequence parallelism on 2 ranks for tests/test_internals_fleet.py (``import paddle`` as a
user writes it), run by ``python -m paddle_compat.distributed.launch --nproc_per_node 2
dist_seq_parallel.py OUT_DIR``: the four PyLayers' values and gradients, and a column+row
sequence-parallel MLP against the same dense MLP, its row bias's gradient summed over the
ranks by the registered hooks (non-fused and fused). Rank r writes OUT_DIR/rank<r>.json."""
import json
import os
import sys

import numpy as np

import paddle
from paddle.distributed import fleet
from paddle.distributed.fleet.utils import sequence_parallel_utils as spu


def lst(t):
    return np.asarray(t.numpy(), dtype="float64").tolist()


def main(out_dir):
    s = fleet.DistributedStrategy()
    s.hybrid_configs = {"dp_degree": 1, "mp_degree": 2, "pp_degree": 1}
    fleet.init(is_collective=True, strategy=s)
    r = fleet.get_hybrid_communicate_group().get_model_parallel_rank()
    rng = np.random.RandomState(0)
    x = rng.randn(4, 2, 3).astype("float32")
    res = {"rank": r}
    for op, inp in (("ScatterOp", x), ("GatherOp", x[2 * r:2 * r + 2]),
                    ("AllGatherOp", x[2 * r:2 * r + 2]), ("ReduceScatterOp", x)):
        t = paddle.to_tensor(inp, stop_gradient=False)
        y = getattr(spu, op).apply(t)
        (y * y).sum().backward()
        res[op] = [lst(y), lst(t.grad)]

    w1, b1 = rng.randn(3, 8).astype("float32"), rng.randn(8).astype("float32")
    w2, b2 = rng.randn(8, 5).astype("float32"), rng.randn(5).astype("float32")

    class SP(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.col = spu.ColumnSequenceParallelLinear(3, 8, has_bias=True,
                                                        gather_output=False)
            self.row = spu.RowSequenceParallelLinear(8, 5, has_bias=True,
                                                     input_is_parallel=True)
            self.col.weight.set_value(w1[:, 4 * r:4 * r + 4])
            self.col.bias.set_value(b1[4 * r:4 * r + 4])
            self.row.weight.set_value(w2[4 * r:4 * r + 4])
            self.row.bias.set_value(b2)

        def forward(self, h):
            return self.row(self.col(h))

    for fused in (False, True):
        m = SP()
        spu.register_sequence_parallel_allreduce_hooks(m, 1, fused)
        h = paddle.to_tensor(x[2 * r:2 * r + 2], stop_gradient=False)
        y = m(h)
        (y * y).sum().backward()
        res[f"mlp_{fused}"] = {"out": lst(y), "x_grad": lst(h.grad),
                               "col_w_grad": lst(m.col.weight.grad),
                               "row_w_grad": lst(m.row.weight.grad),
                               "row_b_grad": lst(m.row.bias.grad),
                               "row_b_sp": spu.is_sequence_parallel_parameter(m.row.bias)}
    dense_in = paddle.to_tensor(x, stop_gradient=False)
    W1, B1, W2, B2 = (paddle.to_tensor(a, stop_gradient=False) for a in (w1, b1, w2, b2))
    y = paddle.matmul(paddle.matmul(dense_in, W1) + B1, W2) + B2
    (y * y).sum().backward()
    res["dense"] = {"out": lst(y), "x_grad": lst(dense_in.grad), "w1_grad": lst(W1.grad),
                    "w2_grad": lst(W2.grad), "b2_grad": lst(B2.grad)}
    with open(os.path.join(out_dir, f"rank{r}.json"), "w") as f:
        json.dump(res, f)


if __name__ == "__main__":
    main(sys.argv[1])
