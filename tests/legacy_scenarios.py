"""Fluid-era names Paddle 3.3.1 keeps outside __all__ (nn.initializer.*Initializer,
optimizer.lr.*_decay functions): each scenario takes the ``paddle`` module (real Paddle when
tools/goldens/record_legacy_names.py records, paddle_compat in tests/test_legacy_names.py) and
returns plain Python data."""
import numpy as np


def _param(paddle, init, shape=(4, 3)):
    p = paddle.create_parameter(list(shape), "float32", default_initializer=init)
    return [float(v) for v in p.numpy().reshape(-1)]


def initializers(paddle):
    I = paddle.nn.initializer
    out = {}
    for seed in (0, 7):
        paddle.seed(11)
        out[f"normal_{seed}"] = _param(paddle, I.NormalInitializer(0.5, 2.0, seed=seed))
        paddle.seed(11)
        out[f"uniform_{seed}"] = _param(paddle, I.UniformInitializer(-2.0, 1.0, seed=seed))
        paddle.seed(11)
        out[f"xavier_u_{seed}"] = _param(paddle, I.XavierInitializer(seed=seed))
        paddle.seed(11)
        out[f"xavier_n_{seed}"] = _param(paddle, I.XavierInitializer(uniform=False, seed=seed))
        paddle.seed(11)
        out[f"msra_u_{seed}"] = _param(paddle, I.MSRAInitializer(seed=seed))
        paddle.seed(11)
        out[f"msra_n_{seed}"] = _param(paddle, I.MSRAInitializer(uniform=False, fan_in=6,
                                                                  seed=seed))
    paddle.seed(11)
    out["uniform_diag"] = _param(paddle, I.UniformInitializer(0.0, 0.5, diag_num=3, diag_step=4,
                                                              diag_val=9.0))
    paddle.seed(11)
    out["truncated"] = _param(paddle, I.TruncatedNormalInitializer(0.0, 2.0))
    out["constant"] = _param(paddle, I.ConstantInitializer(2.5, force_cpu=True))
    out["numpy"] = _param(paddle, I.NumpyArrayInitializer(
        np.arange(12, dtype="float32").reshape(4, 3)))
    out["is_initializer"] = [isinstance(I.NormalInitializer(), I.Initializer),
                             isinstance(I.XavierInitializer(), I.Initializer)]
    return out


def lr_functions(paddle):
    L = paddle.optimizer.lr
    scheds = {
        "noam": L.noam_decay(16, 3, learning_rate=2.0),
        "exponential": L.exponential_decay(0.5, 10, 0.9, staircase=True),
        "natural_exp": L.natural_exp_decay(0.5, 10, 0.3),
        "inverse_time": L.inverse_time_decay(0.5, 10, 0.3),
        "polynomial": L.polynomial_decay(0.5, 4, 0.01, power=2.0, cycle=True),
        "piecewise": L.piecewise_decay([2, 4], [0.3, 0.2, 0.1]),
        "cosine": L.cosine_decay(0.5, 10, 6),
        "warmup": L.linear_lr_warmup(0.5, 3, 0.0, 0.5),
    }
    out = {}
    for name, s in scheds.items():
        vals = []
        for _ in range(7):
            vals.append(float(s()))
            s.step()
        out[name] = [type(s).__name__, vals]
    for name, call in (("piecewise_bad", lambda: L.piecewise_decay([1, 2], [0.1])),
                       ("cosine_int", lambda: L.cosine_decay(1, 10, 6))):
        try:
            call()
            out[name] = None
        except Exception as e:          # noqa: BLE001 - the type is what is recorded
            out[name] = type(e).__name__
    return out


SCENARIOS = {"initializers": initializers, "lr_functions": lr_functions}
