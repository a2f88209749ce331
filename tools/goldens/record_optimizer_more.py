"""Record Paddle 3.3.1's ASGD, NAdam, RAdam and Rprop as goldens for
tests/test_optimizer_more.py, in the format of tools/goldens/record_optimizer.py (whose
functions this reuses: two parameters ``w`` [4, 3] and ``b`` [3], 10 steps with given
gradients, the parameters after each step, the final ``state_dict``).

    /work/paddle_venv/bin/python tools/goldens/record_optimizer_more.py

Writes tests/goldens/optimizer_more.json with the sections ``optimizer`` and ``errors``.
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from record_optimizer import run_error, run_optimizer  # noqa: E402  (imports real Paddle)

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "optimizer_more.json")

OPTIMIZERS = [
    ("asgd", "opt = paddle.optimizer.ASGD(learning_rate=0.05, parameters=[w, b])"),
    ("asgd_batch3_l2", "opt = paddle.optimizer.ASGD(0.05, batch_num=3, parameters=[w, b], "
                       "weight_decay=0.01)"),
    ("asgd_sched_clip", "sched = paddle.optimizer.lr.StepDecay(0.1, step_size=3, gamma=0.5)\n"
                        "opt = paddle.optimizer.ASGD(sched, batch_num=4, parameters=[w, b], "
                        "grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0))"),
    ("asgd_named_l1", "opt = paddle.optimizer.ASGD(0.05, batch_num=2, parameters=[w, b], "
                      "weight_decay=paddle.regularizer.L1Decay(0.02), name='avg')"),
    ("nadam", "opt = paddle.optimizer.NAdam(parameters=[w, b])"),
    ("nadam_args", "opt = paddle.optimizer.NAdam(0.01, beta1=0.8, beta2=0.99, epsilon=1e-4, "
                   "momentum_decay=0.01, parameters=[w, b])"),
    ("nadam_l2", "opt = paddle.optimizer.NAdam(0.01, parameters=[w, b], weight_decay=0.05)"),
    ("nadam_sched", "sched = paddle.optimizer.lr.ExponentialDecay(0.02, gamma=0.8)\n"
                    "opt = paddle.optimizer.NAdam(sched, parameters=[w, b])"),
    ("nadam_groups", "opt = paddle.optimizer.NAdam(0.01, parameters=[{'params': [w], "
                     "'beta1': 0.5, 'momentum_decay': 0.1}, {'params': [b], "
                     "'learning_rate': 2.0, 'weight_decay': 0.1}])"),
    ("radam", "opt = paddle.optimizer.RAdam(learning_rate=0.01, parameters=[w, b])"),
    ("radam_beta2", "opt = paddle.optimizer.RAdam(0.01, beta1=0.8, beta2=0.9, epsilon=1e-3, "
                    "parameters=[w, b])"),
    ("radam_l2", "opt = paddle.optimizer.RAdam(0.01, parameters=[w, b], "
                 "weight_decay=paddle.regularizer.L2Decay(0.1))"),
    ("radam_sched", "sched = paddle.optimizer.lr.StepDecay(0.05, step_size=4, gamma=0.5)\n"
                    "opt = paddle.optimizer.RAdam(sched, beta2=0.95, parameters=[w, b])"),
    ("radam_groups", "opt = paddle.optimizer.RAdam(0.01, parameters=[{'params': [w], "
                     "'beta2': 0.9}, {'params': [b], 'learning_rate': 0.5}])"),
    ("rprop", "opt = paddle.optimizer.Rprop(learning_rate=0.01, parameters=[w, b])"),
    ("rprop_range", "opt = paddle.optimizer.Rprop(0.01, learning_rate_range=(1e-3, 0.05), "
                    "etas=(0.3, 1.5), parameters=[w, b])"),
    ("rprop_clip", "opt = paddle.optimizer.Rprop(0.02, parameters=[w, b], "
                   "grad_clip=paddle.nn.ClipGradByValue(0.5))"),
]

ERRORS = [
    ("nadam_beta1", "paddle.optimizer.NAdam(0.1, beta1=1.0, parameters=[w])"),
    ("nadam_lr", "paddle.optimizer.NAdam(-0.1, parameters=[w])"),
    ("nadam_decay", "paddle.optimizer.NAdam(0.1, momentum_decay=-1.0, parameters=[w])"),
    ("nadam_eps", "paddle.optimizer.NAdam(0.1, epsilon=-1.0, parameters=[w])"),
    ("radam_beta2", "paddle.optimizer.RAdam(0.1, beta2=1.5, parameters=[w])"),
    ("radam_params_none", "paddle.optimizer.RAdam(0.1)"),
    ("asgd_batch", "paddle.optimizer.ASGD(0.1, batch_num=0, parameters=[w])"),
    ("asgd_lr_none", "paddle.optimizer.ASGD(None, parameters=[w])"),
    ("rprop_lr_range", "paddle.optimizer.Rprop(0.1, learning_rate_range=(0.2, 1.0), "
                       "parameters=[w])"),
    ("rprop_etas", "paddle.optimizer.Rprop(0.1, etas=(0.5, 0.9), parameters=[w])"),
    ("rprop_sched", "paddle.optimizer.Rprop(paddle.optimizer.lr.StepDecay(0.1, 2), "
                    "parameters=[w])"),
]


def main():
    rng = np.random.default_rng(2025)
    out = {"optimizer": [run_optimizer(cid, make, rng) for cid, make in OPTIMIZERS],
           "errors": [run_error(cid, code) for cid, code in ERRORS]}
    with open(OUT, "w") as f:
        json.dump(out, f, indent=0)
    print(f"wrote {len(out['optimizer'])} optimizer and {len(out['errors'])} error cases")


if __name__ == "__main__":
    main()
