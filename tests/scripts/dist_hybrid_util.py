"""A 2-rank job for tests/test_internals.py: fused_allreduce_gradients averages each rank's
gradients over the job; broadcast_dp_parameters gives every rank rank 0's parameters.
Writes rank<k>.json (gradients, parameters after the broadcast) into argv[1]."""
import json
import os
import sys

import numpy as np

import paddle_compat as paddle
from paddle_compat.distributed import fleet
from paddle_compat.distributed.fleet.utils.hybrid_parallel_util import (
    broadcast_dp_parameters, fused_allreduce_gradients)


def main(out_dir):
    paddle.distributed.init_parallel_env()
    rank = paddle.distributed.get_rank()
    paddle.seed(100 + rank)                    # different weights per rank before the broadcast
    m = paddle.nn.Linear(3, 2)
    x = paddle.to_tensor(np.full((2, 3), rank + 1.0, "float32"))
    m(x).sum().backward()
    fused_allreduce_gradients(list(m.parameters()), None)
    strategy = fleet.DistributedStrategy()
    strategy.hybrid_configs = {"dp_degree": 2, "mp_degree": 1, "pp_degree": 1}
    fleet.init(is_collective=True, strategy=strategy)
    broadcast_dp_parameters(m, fleet.get_hybrid_communicate_group())
    with open(os.path.join(out_dir, f"rank{rank}.json"), "w") as f:
        json.dump({"grad_w": m.weight.grad.numpy().tolist(), "grad_b": m.bias.grad.numpy().tolist(),
                   "w": m.weight.numpy().tolist()}, f)


if __name__ == "__main__":
    main(sys.argv[1])
