"""Record Paddle 3.3.1's optimizers, schedulers and gradient clipping as goldens for
tests/test_optimizer.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_optimizer.py

Writes tests/goldens/optimizer.json:

    optimizer   cases {id, make, steps, init, grads, params, param_grads, lrs, state}: two
                parameters ``w`` [4, 3] and ``b`` [3] named ``<id>.w_0``/``<id>.b_0`` start at
                ``init``; at step k the loss is ``sum(w * grads[k][0]) + sum(b * grads[k][1])``
                (so the gradients are exactly ``grads[k]``), then ``opt.step()``, then
                ``sched.step()`` when ``make`` defined ``sched``. ``params[k]``/``param_grads[k]``
                are w and b (and their .grad) after step k, ``lrs[k]`` ``opt.get_lr()`` before it;
                ``state`` the final ``opt.state_dict()`` (Tensors as lists, in key order).
    schedulers  cases {id, make, steps, lrs, state}: ``make`` defines ``sched``; ``lrs`` are
                ``sched()`` then after each ``sched.step()`` (a list entry in ``steps`` is an
                explicit ``step(epoch)``; a ``metric`` entry steps ReduceOnPlateau).
    clip        cases {id, make, grads, need_clip, out}: ``clip(list of (param, grad))``.
    errors      cases {id, code, error}: the exception type name Paddle raises.

``make`` is Python evaluated with ``paddle``, ``np``, ``w``, ``b`` bound.
"""
import json
import os
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)

paddle.set_device("cpu")
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens", "optimizer.json")
STEPS = 10

OPTIMIZERS = [
    ("sgd", "opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w, b])"),
    ("sgd_l2", "opt = paddle.optimizer.SGD(0.1, parameters=[w, b], weight_decay=0.05)"),
    ("sgd_l1", "opt = paddle.optimizer.SGD(0.1, parameters=[w, b], "
               "weight_decay=paddle.regularizer.L1Decay(0.05))"),
    ("sgd_param_reg", "w.regularizer = paddle.regularizer.L1Decay(0.2)\n"
                      "opt = paddle.optimizer.SGD(0.1, parameters=[w, b], weight_decay=0.05)"),
    ("sgd_param_lr", "w.optimize_attr['learning_rate'] = 0.3\n"
                     "opt = paddle.optimizer.SGD(0.1, parameters=[w, b])"),
    ("sgd_groups", "opt = paddle.optimizer.SGD(0.1, parameters=[{'params': [w], "
                   "'learning_rate': 0.5, 'weight_decay': 0.1}, {'params': [b]}], "
                   "weight_decay=0.01)"),
    ("sgd_value_clip", "opt = paddle.optimizer.SGD(0.1, parameters=[w, b], "
                       "grad_clip=paddle.nn.ClipGradByValue(0.5))"),
    ("sgd_norm_clip", "opt = paddle.optimizer.SGD(0.1, parameters=[w, b], "
                      "grad_clip=paddle.nn.ClipGradByNorm(1.0))"),
    ("sgd_global_clip", "opt = paddle.optimizer.SGD(0.1, parameters=[w, b], "
                        "grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0))"),
    ("sgd_global_clip_need", "b.need_clip = False\nopt = paddle.optimizer.SGD(0.1, "
                             "parameters=[w, b], grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5))"),
    ("momentum", "opt = paddle.optimizer.Momentum(0.05, momentum=0.9, parameters=[w, b])"),
    ("momentum_nesterov_l2", "opt = paddle.optimizer.Momentum(0.05, momentum=0.8, "
                             "parameters=[w, b], use_nesterov=True, weight_decay=0.01)"),
    ("momentum_l1", "opt = paddle.optimizer.Momentum(0.05, parameters=[w, b], "
                    "weight_decay=paddle.regularizer.L1Decay(0.02))"),
    ("momentum_groups", "opt = paddle.optimizer.Momentum(0.05, parameters=[{'params': [w], "
                        "'weight_decay': 0.1, 'momentum': 0.5}, {'params': [b]}], "
                        "weight_decay=0.01)"),
    ("adam", "opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=[w, b])"),
    ("adam_betas", "opt = paddle.optimizer.Adam(0.02, beta1=0.5, beta2=0.9, epsilon=1e-3, "
                   "parameters=[w, b])"),
    ("adam_amsgrad", "opt = paddle.optimizer.Adam(0.01, parameters=[w, b], amsgrad=True)"),
    ("adam_l2_clip", "opt = paddle.optimizer.Adam(0.01, parameters=[w, b], "
                     "weight_decay=paddle.regularizer.L2Decay(0.05), "
                     "grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0))"),
    ("adam_groups", "opt = paddle.optimizer.Adam(0.01, parameters=[{'params': [w], "
                    "'beta1': 0.8, 'learning_rate': 2.0}, {'params': [b], 'epsilon': 1e-4}])"),
    ("adam_named", "opt = paddle.optimizer.Adam(0.01, parameters=[w, b], name='myopt')"),
    ("adam_sched", "sched = paddle.optimizer.lr.StepDecay(0.05, step_size=3, gamma=0.5)\n"
                   "opt = paddle.optimizer.Adam(sched, parameters=[w, b])"),
    ("adamw", "opt = paddle.optimizer.AdamW(learning_rate=0.01, parameters=[w, b])"),
    ("adamw_decay_fun", "sched = paddle.optimizer.lr.LinearWarmup("
                        "paddle.optimizer.lr.CosineAnnealingDecay(0.05, T_max=8), 3, 0.0, 0.05)\n"
                        "opt = paddle.optimizer.AdamW(sched, parameters=[w, b], weight_decay=0.2,"
                        " apply_decay_param_fun=lambda n: n.endswith('w_0'))"),
    ("adamw_groups", "opt = paddle.optimizer.AdamW(0.01, parameters=[{'params': [w], "
                     "'weight_decay': 0.5}, {'params': [b], 'learning_rate': 0.1}], "
                     "weight_decay=0.1)"),
    ("adamw_amsgrad_clip", "opt = paddle.optimizer.AdamW(0.01, parameters=[w, b], "
                           "amsgrad=True, grad_clip=paddle.nn.ClipGradByNorm(0.7))"),
    ("adagrad", "opt = paddle.optimizer.Adagrad(0.1, parameters=[w, b])"),
    ("adagrad_init", "opt = paddle.optimizer.Adagrad(0.1, epsilon=1e-3, parameters=[w, b], "
                     "initial_accumulator_value=0.1, weight_decay=0.01)"),
    ("rmsprop", "opt = paddle.optimizer.RMSProp(0.01, parameters=[w, b])"),
    ("rmsprop_centered", "opt = paddle.optimizer.RMSProp(0.01, rho=0.9, epsilon=1e-4, "
                         "momentum=0.9, centered=True, parameters=[w, b])"),
    ("lamb", "opt = paddle.optimizer.Lamb(learning_rate=0.01, parameters=[w, b])"),
    ("lamb_exclude", "opt = paddle.optimizer.Lamb(0.02, lamb_weight_decay=0.1, "
                     "parameters=[w, b], exclude_from_weight_decay_fn="
                     "lambda p: p.name.endswith('b_0'))"),
    ("lamb_nodecay_adapt", "opt = paddle.optimizer.Lamb(0.02, lamb_weight_decay=0.0, "
                           "parameters=[w, b], always_adapt=True)"),
    ("lamb_nodecay", "opt = paddle.optimizer.Lamb(0.02, lamb_weight_decay=0.0, "
                     "parameters=[w, b])"),
    ("adamax", "opt = paddle.optimizer.Adamax(0.02, parameters=[w, b])"),
    ("adadelta", "opt = paddle.optimizer.Adadelta(1.0, parameters=[w, b])"),
]

SCHEDULERS = [
    ("step", "sched = paddle.optimizer.lr.StepDecay(0.5, step_size=3, gamma=0.3)", 12),
    ("multistep", "sched = paddle.optimizer.lr.MultiStepDecay(0.5, milestones=[2, 5, 9])", 12),
    ("exponential", "sched = paddle.optimizer.lr.ExponentialDecay(0.5, gamma=0.9)", 12),
    ("natural_exp", "sched = paddle.optimizer.lr.NaturalExpDecay(0.5, gamma=0.1)", 12),
    ("inverse_time", "sched = paddle.optimizer.lr.InverseTimeDecay(0.5, gamma=0.1)", 12),
    ("polynomial", "sched = paddle.optimizer.lr.PolynomialDecay(0.5, decay_steps=5, power=2.0)",
     12),
    ("polynomial_cycle", "sched = paddle.optimizer.lr.PolynomialDecay(0.5, decay_steps=4, "
                         "end_lr=0.01, cycle=True)", 12),
    ("piecewise", "sched = paddle.optimizer.lr.PiecewiseDecay([3, 6, 9], [1.0, 0.5, 0.1, 0.05])",
     12),
    ("cosine", "sched = paddle.optimizer.lr.CosineAnnealingDecay(0.5, T_max=5, eta_min=0.01)",
     14),
    ("cosine_jump", "sched = paddle.optimizer.lr.CosineAnnealingDecay(0.5, T_max=5)",
     [1, 2, 7, None, None, 3]),
    ("warmup_float", "sched = paddle.optimizer.lr.LinearWarmup(0.5, 4, 0.0, 0.5)", 8),
    ("warmup_sched", "sched = paddle.optimizer.lr.LinearWarmup(paddle.optimizer.lr."
                     "PiecewiseDecay([3], [0.5, 0.1]), 3, 0.01, 0.5)", 10),
    ("noam", "sched = paddle.optimizer.lr.NoamDecay(d_model=64, warmup_steps=4)", 10),
    ("onecycle", "sched = paddle.optimizer.lr.OneCycleLR(1.0, total_steps=12)", 12),
    ("onecycle_3", "sched = paddle.optimizer.lr.OneCycleLR(1.0, total_steps=12, phase_pct=0.25,"
                   " anneal_strategy='linear', three_phase=True)", 12),
    ("cyclic", "sched = paddle.optimizer.lr.CyclicLR(0.1, 1.0, step_size_up=3, "
               "step_size_down=2)", 14),
    ("cyclic2", "sched = paddle.optimizer.lr.CyclicLR(0.1, 1.0, step_size_up=2, "
                "mode='triangular2')", 14),
    ("cyclic_exp", "sched = paddle.optimizer.lr.CyclicLR(0.1, 1.0, step_size_up=2, "
                   "mode='exp_range', exp_gamma=0.9)", 14),
    ("lambda", "sched = paddle.optimizer.lr.LambdaDecay(0.5, lambda e: 0.9 ** e)", 8),
    ("multiplicative", "sched = paddle.optimizer.lr.MultiplicativeDecay(0.5, lambda e: 0.9)", 8),
    ("linear_lr", "sched = paddle.optimizer.lr.LinearLR(0.5, total_steps=5, start_factor=0.2)",
     8),
    ("warm_restarts", "sched = paddle.optimizer.lr.CosineAnnealingWarmRestarts(0.5, T_0=3, "
                      "T_mult=2, eta_min=0.01)", 12),
    ("plateau", "sched = paddle.optimizer.lr.ReduceOnPlateau(0.5, patience=1, factor=0.5, "
                "cooldown=1)",
     [{"metric": m} for m in (1.0, 0.9, 0.95, 0.95, 0.95, 0.8, 0.85, 0.85, 0.85, 0.85)]),
    ("plateau_max_abs", "sched = paddle.optimizer.lr.ReduceOnPlateau(0.5, mode='max', "
                        "threshold_mode='abs', threshold=0.1, patience=0)",
     [{"metric": m} for m in (1.0, 1.05, 1.2, 1.25, 1.5, 1.5)]),
]

CLIPS = [
    ("value", "clip = paddle.nn.ClipGradByValue(max=0.3, min=-0.1)"),
    ("norm", "clip = paddle.nn.ClipGradByNorm(clip_norm=0.8)"),
    ("global", "clip = paddle.nn.ClipGradByGlobalNorm(clip_norm=0.8)"),
    ("global_skip", "clip = paddle.nn.ClipGradByGlobalNorm(clip_norm=50.0, auto_skip_clip=True)"),
]

ERRORS = [
    ("adam_beta1", "paddle.optimizer.Adam(0.1, beta1=1.0, parameters=[w])"),
    ("adam_eps", "paddle.optimizer.Adam(0.1, epsilon=-1.0, parameters=[w])"),
    ("params_tensor", "paddle.optimizer.SGD(0.1, parameters=w)"),
    ("params_dict", "paddle.optimizer.SGD(0.1, parameters={'params': [w]})"),
    ("params_none", "paddle.optimizer.SGD(0.1)"),
    ("lr_type", "paddle.optimizer.SGD(1, parameters=[w])"),
    ("clip_type", "paddle.optimizer.SGD(0.1, parameters=[w], grad_clip=1.0)"),
    ("set_lr_sched", "paddle.optimizer.SGD(paddle.optimizer.lr.StepDecay(0.1, 2), "
                     "parameters=[w]).set_lr(0.5)"),
    ("set_lr_type", "paddle.optimizer.SGD(0.1, parameters=[w]).set_lr('a')"),
    ("set_sched_type", "paddle.optimizer.SGD(0.1, parameters=[w]).set_lr_scheduler(0.5)"),
    ("group_twice", "paddle.optimizer.SGD(0.1, parameters=[{'params': [w]}, {'params': [w]}])"),
    ("rmsprop_rho", "paddle.optimizer.RMSProp(0.1, rho=-1.0, parameters=[w])"),
    ("adamw_wd", "paddle.optimizer.AdamW(0.1, parameters=[w], weight_decay='a')"),
    ("step_decay_gamma", "paddle.optimizer.lr.StepDecay(0.1, 2, gamma=1.5)"),
    ("step_decay_size", "paddle.optimizer.lr.StepDecay(0.1, 2.0)"),
    ("cosine_tmax", "paddle.optimizer.lr.CosineAnnealingDecay(0.1, T_max=2.0)"),
    ("onecycle_steps", "paddle.optimizer.lr.OneCycleLR(0.1, total_steps=0)"),
    ("sched_lr_type", "paddle.optimizer.lr.NoamDecay(2, 3, learning_rate='a')"),
    ("plateau_mode", "paddle.optimizer.lr.ReduceOnPlateau(0.1, mode='mid')"),
    ("multistep_order", "paddle.optimizer.lr.MultiStepDecay(0.1, [3, 2])"),
    ("warmup_order", "paddle.optimizer.lr.LinearWarmup(0.1, 3, 0.5, 0.1)"),
    ("lr_sched_missing", "o = paddle.optimizer.SGD(paddle.optimizer.lr.StepDecay(0.1, 2), "
                         "parameters=[w]); o.set_state_dict({})"),
]


def tolist(x):
    return np.asarray(x, dtype=np.float64).tolist()


def make_params(cid, init):
    w = paddle.create_parameter([4, 3], "float32", name=f"{cid}.w_0")
    b = paddle.create_parameter([3], "float32", name=f"{cid}.b_0")
    w.set_value(np.asarray(init[0], "float32"))
    b.set_value(np.asarray(init[1], "float32"))
    return w, b


def run_optimizer(cid, make, rng):
    init = [rng.standard_normal((4, 3)).astype("float32"),
            rng.standard_normal(3).astype("float32")]
    grads = [[rng.standard_normal((4, 3)).astype("float32"),
              rng.standard_normal(3).astype("float32")] for _ in range(STEPS)]
    w, b = make_params(cid, init)
    env = {"paddle": paddle, "np": np, "w": w, "b": b}
    exec(make, env)
    opt, sched = env["opt"], env.get("sched")
    params, pgrads, lrs = [], [], []
    for gw, gb in grads:
        loss = (w * paddle.to_tensor(gw)).sum() + (b * paddle.to_tensor(gb)).sum()
        loss.backward()
        lrs.append(opt.get_lr())
        opt.step()
        if sched is not None:
            sched.step()
        params.append([tolist(w.numpy()), tolist(b.numpy())])
        pgrads.append([tolist(w.grad.numpy()), tolist(b.grad.numpy())])
        opt.clear_grad()
    state = {}
    for k, v in opt.state_dict().items():
        if k == "LR_Scheduler":
            state[k] = v
        elif k == "master_weights":
            state[k] = {n: tolist(t.numpy()) for n, t in v.items()}
        else:
            state[k] = {"value": tolist(v.numpy()), "shape": list(v.shape),
                        "dtype": str(v.dtype).replace("paddle.", "")}
    return {"id": cid, "make": make, "steps": STEPS, "init": [tolist(x) for x in init],
            "grads": [[tolist(x) for x in g] for g in grads], "params": params,
            "param_grads": pgrads, "lrs": lrs, "state": state}


def run_scheduler(cid, make, steps):
    env = {"paddle": paddle, "np": np}
    exec(make, env)
    sched = env["sched"]
    lrs = [sched()]
    if isinstance(steps, int):
        steps = [None] * steps
    for s in steps:
        if isinstance(s, dict):
            sched.step(s["metric"])
        elif s is None:
            sched.step()
        else:
            sched.step(s)
        lrs.append(sched())
    return {"id": cid, "make": make, "steps": steps, "lrs": lrs, "state": sched.state_dict()}


def run_clip(cid, make, rng):
    grads = [rng.standard_normal((4, 3)).astype("float32"),
             rng.standard_normal(3).astype("float32"),
             rng.standard_normal((2,)).astype("float32")]
    need = [True, True, False]
    env = {"paddle": paddle}
    exec(make, env)
    pairs = []
    for i, (g, nc) in enumerate(zip(grads, need)):
        p = paddle.create_parameter(list(g.shape), "float32", name=f"clip_{cid}_{i}")
        p.need_clip = nc
        pairs.append((p, paddle.to_tensor(g)))
    out = env["clip"](pairs)
    return {"id": cid, "make": make, "grads": [tolist(g) for g in grads], "need_clip": need,
            "out": [tolist(g.numpy()) for _, g in out]}


def run_error(cid, code):
    w = paddle.create_parameter([2], "float32", name=f"err_{cid}")
    try:
        exec(code, {"paddle": paddle, "w": w})
    except Exception as e:  # noqa: BLE001
        return {"id": cid, "code": code, "error": type(e).__name__}
    return {"id": cid, "code": code, "error": None}


def main():
    rng = np.random.default_rng(2024)
    out = {
        "optimizer": [run_optimizer(cid, make, rng) for cid, make in OPTIMIZERS],
        "schedulers": [run_scheduler(cid, make, steps) for cid, make, steps in SCHEDULERS],
        "clip": [run_clip(cid, make, rng) for cid, make in CLIPS],
        "errors": [run_error(cid, code) for cid, code in ERRORS],
    }
    with open(OUT, "w") as f:
        json.dump(out, f, indent=0)


if __name__ == "__main__":
    main()
