"""Record Paddle 3.3.1's optimizers on float64 parameters (and the same cases on float32) as
goldens for tests/test_optimizer_f64.py.

    /work/paddle_venv/bin/python tools/goldens/record_optimizer_f64.py

On float64 parameters Paddle's kernels compute in float64, but not every constant is a float64
value: the learning rate is a tensor of the first parameter's dtype (exact), Adam's and AdamW's
betas and epsilon are exact too, while most other hyperparameters (momentum, rho, epsilon of
RMSProp/Adagrad/Adadelta, Lamb's betas, AdamW's coefficient ...) are float32 attributes of the
kernels, rounded to float32 before the float64 arithmetic. These cases pin each optimizer down to
the last bits (the test compares float64 at 1e-15 relative).

Writes tests/goldens/optimizer_f64.json:

    float64, float32   cases {id, make, steps, init, grads, params, lrs, state}, the format of
                       tools/goldens/record_optimizer.py: parameters ``w`` [4, 3] and ``b`` [3]
                       named ``f64_<id>.w_0``/``f64_<id>.b_0`` (``f32_<id>...`` on float32)
                       start at ``init``; at step k the loss is ``sum(w * grads[k][0]) + sum(b *
                       grads[k][1])``, then ``opt.step()`` and ``sched.step()`` when ``make``
                       defined ``sched``; ``params[k]`` are w and b after step k, ``lrs[k]``
                       ``opt.get_lr()`` before it, ``state`` the final ``opt.state_dict()``.
    mixed              the same for cases whose ``make`` makes the parameters itself (it binds
                       ``w`` and ``b``: a Linear built under the default dtype float64, or two
                       dtypes in one optimizer); ``dtypes`` and ``names`` list theirs.

``make`` is Python run with ``paddle``, ``np``, ``w``, ``b`` bound. Not recorded:
``ClipGradByNorm`` on float64 (Paddle 3.3.1 has no float64 CPU kernel for clip_by_norm and
raises; ours clips), AdamW's ``lr_ratio`` (GPU-only in Paddle). Values are stored with
``repr`` precision (JSON floats round-trip float64 exactly).
"""
import json
import os
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)

paddle.set_device("cpu")
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "optimizer_f64.json")
STEPS = 3
P = "parameters=[w, b]"

# (id, make, steps); every case runs on float64 and on float32 parameters
CASES = [
    ("sgd", f"opt = paddle.optimizer.SGD(learning_rate=0.1, {P})", STEPS),
    ("sgd_l2", f"opt = paddle.optimizer.SGD(0.1, {P}, weight_decay=0.05)", STEPS),
    ("sgd_l1", f"opt = paddle.optimizer.SGD(0.1, {P}, "
               "weight_decay=paddle.regularizer.L1Decay(0.05))", STEPS),
    ("sgd_param_lr", "w.optimize_attr['learning_rate'] = 0.3\n"
                     f"opt = paddle.optimizer.SGD(0.1, {P})", STEPS),
    ("sgd_groups", "opt = paddle.optimizer.SGD(0.1, parameters=[{'params': [w], "
                   "'learning_rate': 0.7, 'weight_decay': 0.1}, {'params': [b]}], "
                   "weight_decay=0.01)", STEPS),
    ("sgd_sched", "sched = paddle.optimizer.lr.CosineAnnealingDecay(0.1, T_max=4)\n"
                  f"opt = paddle.optimizer.SGD(sched, {P})", STEPS),
    ("sgd_global_clip", f"opt = paddle.optimizer.SGD(0.1, {P}, "
                        "grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0))", STEPS),
    ("sgd_set_lr", f"opt = paddle.optimizer.SGD(0.1, {P})\nopt.set_lr(0.3)", STEPS),
    ("momentum", f"opt = paddle.optimizer.Momentum(0.1, momentum=0.9, {P})", STEPS),
    ("momentum_nesterov_l2", f"opt = paddle.optimizer.Momentum(0.05, momentum=0.8, {P}, "
                             "use_nesterov=True, weight_decay=0.01)", STEPS),
    ("momentum_l2_reg", f"opt = paddle.optimizer.Momentum(0.05, {P}, "
                        "weight_decay=paddle.regularizer.L2Decay(0.03))", STEPS),
    ("momentum_l1", f"opt = paddle.optimizer.Momentum(0.05, {P}, "
                    "weight_decay=paddle.regularizer.L1Decay(0.02))", STEPS),
    ("momentum_param_reg", "w.regularizer = paddle.regularizer.L2Decay(0.3)\n"
                           f"opt = paddle.optimizer.Momentum(0.05, {P}, weight_decay=0.1)",
     STEPS),
    ("momentum_groups", "opt = paddle.optimizer.Momentum(0.05, parameters=[{'params': [w], "
                        "'weight_decay': 0.1, 'momentum': 0.5}, {'params': [b], "
                        "'learning_rate': 0.3}], weight_decay=0.01)", STEPS),
    ("adam", f"opt = paddle.optimizer.Adam(learning_rate=0.1, {P})", STEPS),
    ("adam_l2", f"opt = paddle.optimizer.Adam(0.05, {P}, weight_decay=0.05)", STEPS),
    ("adam_betas", f"opt = paddle.optimizer.Adam(0.02, beta1=0.7, beta2=0.95, epsilon=1e-3, "
                   f"{P}, multi_precision=False)", STEPS),
    ("adam_amsgrad", f"opt = paddle.optimizer.Adam(0.05, {P}, amsgrad=True)", STEPS),
    ("adam_sched", "sched = paddle.optimizer.lr.LinearWarmup(paddle.optimizer.lr."
                   "ExponentialDecay(0.1, gamma=0.7), 2, 0.01, 0.1)\n"
                   f"opt = paddle.optimizer.Adam(sched, {P})", STEPS),
    ("adam_groups", "opt = paddle.optimizer.Adam(0.01, parameters=[{'params': [w], "
                    "'beta1': 0.8, 'learning_rate': 3.0}, {'params': [b], 'epsilon': 1e-4}])",
     STEPS),
    ("adam_param_lr_clip", "b.optimize_attr['learning_rate'] = 0.3\n"
                           f"opt = paddle.optimizer.Adam(0.05, {P}, "
                           "grad_clip=paddle.nn.ClipGradByGlobalNorm(0.9))", STEPS),
    ("adamw", f"opt = paddle.optimizer.AdamW(learning_rate=0.1, {P})", STEPS),
    ("adamw_decay_fun", f"opt = paddle.optimizer.AdamW(0.05, {P}, weight_decay=0.3, "
                        "apply_decay_param_fun=lambda n: n.endswith('w_0'))", STEPS),
    ("adamw_sched_amsgrad", "sched = paddle.optimizer.lr.StepDecay(0.1, step_size=2, gamma=0.3)"
                            f"\nopt = paddle.optimizer.AdamW(sched, {P}, amsgrad=True, "
                            "beta1=0.85, epsilon=1e-5)", STEPS),
    ("adamw_groups", "opt = paddle.optimizer.AdamW(0.01, parameters=[{'params': [w], "
                     "'weight_decay': 0.7}, {'params': [b], 'learning_rate': 0.1}], "
                     "weight_decay=0.1)", STEPS),
    ("adamax", f"opt = paddle.optimizer.Adamax(0.1, {P})", STEPS),
    ("adamax_l2", f"opt = paddle.optimizer.Adamax(0.05, beta1=0.8, beta2=0.9, epsilon=1e-3, "
                  f"{P}, weight_decay=0.05)", STEPS),
    ("adagrad", f"opt = paddle.optimizer.Adagrad(0.1, {P})", STEPS),
    ("adagrad_init_l2", f"opt = paddle.optimizer.Adagrad(0.1, epsilon=1e-3, {P}, "
                        "initial_accumulator_value=0.1, weight_decay=0.01)", STEPS),
    ("adadelta", f"opt = paddle.optimizer.Adadelta(1.0, {P})", STEPS),
    ("adadelta_l2", f"opt = paddle.optimizer.Adadelta(0.5, epsilon=1e-4, rho=0.9, {P}, "
                    "weight_decay=0.02)", STEPS),
    ("rmsprop", f"opt = paddle.optimizer.RMSProp(0.01, {P})", STEPS),
    ("rmsprop_centered", f"opt = paddle.optimizer.RMSProp(0.01, rho=0.9, epsilon=1e-4, "
                         f"momentum=0.9, centered=True, {P})", STEPS),
    ("rmsprop_l2_sched", "sched = paddle.optimizer.lr.NaturalExpDecay(0.02, gamma=0.3)\n"
                         f"opt = paddle.optimizer.RMSProp(sched, momentum=0.3, {P}, "
                         "weight_decay=0.05)", STEPS),
    ("lamb", f"opt = paddle.optimizer.Lamb(learning_rate=0.1, {P})", STEPS),
    ("lamb_exclude", f"opt = paddle.optimizer.Lamb(0.02, lamb_weight_decay=0.1, {P}, "
                     "exclude_from_weight_decay_fn=lambda p: p.name.endswith('b_0'))", STEPS),
    ("lamb_nodecay_adapt", f"opt = paddle.optimizer.Lamb(0.02, lamb_weight_decay=0.0, {P}, "
                           "always_adapt=True, beta1=0.8, beta2=0.99, epsilon=1e-4)", STEPS),
    ("lamb_nodecay", f"opt = paddle.optimizer.Lamb(0.02, lamb_weight_decay=0.0, {P})", STEPS),
    ("nadam", f"opt = paddle.optimizer.NAdam({P})", STEPS),
    ("nadam_args_l2", f"opt = paddle.optimizer.NAdam(0.01, beta1=0.8, beta2=0.99, "
                      f"epsilon=1e-4, momentum_decay=0.01, {P}, weight_decay=0.05)", STEPS),
    ("nadam_sched", "sched = paddle.optimizer.lr.ExponentialDecay(0.02, gamma=0.8)\n"
                    f"opt = paddle.optimizer.NAdam(sched, {P})", STEPS),
    ("radam", f"opt = paddle.optimizer.RAdam(learning_rate=0.01, {P})", 8),
    ("radam_beta2_l2", f"opt = paddle.optimizer.RAdam(0.01, beta1=0.8, beta2=0.9, "
                       f"epsilon=1e-3, {P}, weight_decay=0.1)", 8),
    ("radam_sched", "sched = paddle.optimizer.lr.StepDecay(0.05, step_size=4, gamma=0.5)\n"
                    f"opt = paddle.optimizer.RAdam(sched, beta2=0.95, {P})", 8),
    ("asgd", f"opt = paddle.optimizer.ASGD(learning_rate=0.05, {P})", STEPS),
    ("asgd_batch3_l2", f"opt = paddle.optimizer.ASGD(0.05, batch_num=3, {P}, "
                       "weight_decay=0.01)", 5),
    ("asgd_sched", "sched = paddle.optimizer.lr.StepDecay(0.1, step_size=2, gamma=0.3)\n"
                   f"opt = paddle.optimizer.ASGD(sched, batch_num=2, {P})", 4),
    ("rprop", f"opt = paddle.optimizer.Rprop(learning_rate=0.01, {P})", 5),
    ("rprop_range", "opt = paddle.optimizer.Rprop(0.01, learning_rate_range=(1e-3, 0.05), "
                    f"etas=(0.3, 1.7), {P})", 5),
]

# cases that choose their own parameters: the default dtype, parameters of two dtypes
MIXED = [
    ("default_dtype_adam", "paddle.set_default_dtype('float64')\n"
                           "lin = paddle.nn.Linear(3, 4)\n"
                           "w, b = lin.weight, lin.bias\n"
                           "opt = paddle.optimizer.Adam(0.1, parameters=lin.parameters())\n"
                           "paddle.set_default_dtype('float32')"),
    ("default_dtype_momentum", "paddle.set_default_dtype('float64')\n"
                               "lin = paddle.nn.Linear(3, 4)\n"
                               "w, b = lin.weight, lin.bias\n"
                               "opt = paddle.optimizer.Momentum(0.1, parameters=lin.parameters()"
                               ", weight_decay=0.01)\n"
                               "paddle.set_default_dtype('float32')"),
    ("mixed_sgd_f32_first", "w = paddle.create_parameter([4, 3], 'float32', name='f64mix1.w_0')\n"
                            "b = paddle.create_parameter([3], 'float64', name='f64mix1.b_0')\n"
                            "opt = paddle.optimizer.SGD(0.1, parameters=[w, b])"),
    ("mixed_sgd_f64_first", "w = paddle.create_parameter([4, 3], 'float64', name='f64mix2.w_0')\n"
                            "b = paddle.create_parameter([3], 'float32', name='f64mix2.b_0')\n"
                            "opt = paddle.optimizer.SGD(0.1, parameters=[w, b])"),
]


def tolist(x):
    return np.asarray(x, dtype=np.float64).tolist()


def run(cid, make, steps, dtype, rng, name_prefix=""):
    if dtype is not None:
        w = paddle.create_parameter([4, 3], dtype, name=f"{name_prefix}{cid}.w_0")
        b = paddle.create_parameter([3], dtype, name=f"{name_prefix}{cid}.b_0")
    else:
        w = b = None
    env = {"paddle": paddle, "np": np, "w": w, "b": b}
    exec(make, env)
    opt, sched, w, b = env["opt"], env.get("sched"), env["w"], env["b"]
    dtypes = [str(w.dtype).replace("paddle.", ""), str(b.dtype).replace("paddle.", "")]
    shapes = [list(w.shape), list(b.shape)]
    init = [rng.standard_normal(s).astype(d) for s, d in zip(shapes, dtypes)]
    grads = [[rng.standard_normal(s).astype(d) for s, d in zip(shapes, dtypes)]
             for _ in range(steps)]
    w.set_value(init[0])
    b.set_value(init[1])
    params, lrs = [], []
    for gw, gb in grads:
        loss = (w * paddle.to_tensor(gw)).sum() + (b * paddle.to_tensor(gb)).sum()
        loss.backward()
        lrs.append(opt.get_lr())
        opt.step()
        if sched is not None:
            sched.step()
        params.append([tolist(w.numpy()), tolist(b.numpy())])
        opt.clear_grad()
    state = {}
    for k, v in opt.state_dict().items():
        if k == "LR_Scheduler":
            state[k] = v
        else:
            state[k] = {"value": tolist(v.numpy()), "shape": list(v.shape),
                        "dtype": str(v.dtype).replace("paddle.", "")}
    return {"id": cid, "make": make, "steps": steps, "dtypes": dtypes,
            "names": [w.name, b.name],
            "init": [tolist(x) for x in init], "grads": [[tolist(x) for x in g] for g in grads],
            "params": params, "lrs": lrs, "state": state}


def main():
    out = {}
    for dtype in ("float64", "float32"):
        rng = np.random.default_rng(64)
        prefix = "f64_" if dtype == "float64" else "f32_"
        out[dtype] = [run(cid, make, steps, dtype, rng, prefix) for cid, make, steps in CASES]
    rng = np.random.default_rng(65)
    out["mixed"] = [run(cid, make, STEPS, None, rng) for cid, make in MIXED]
    with open(OUT, "w") as f:
        json.dump(out, f, indent=0)
    print(f"wrote {sum(len(v) for v in out.values())} cases to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
