"""Paddle's optimizer operator types (``sgd``, ``adam``, ``rmsprop``, ``adadelta``,
``adagrad``, ``decayed_adagrad``, ``adamax``, ``asgd``, ``rprop``, ``lamb``, ``nadam``,
``radam``) in the op-type registry
(``static.fluid_ops``): one update step of each kernel, written on torch, with Paddle's slot
names, attributes and their order. They serve ``Block.append_op``, ``core.Operator`` (what
Paddle's operator tests build) and ``paddle._C_ops.<type>_`` (``INPLACE``: each ``<slot>Out`` /
``<slot>_out`` output is written back into its input). A ``MasterParam`` (multi-precision
master weights) is not used: the update runs in the parameter's dtype.

The step of each type, as Paddle's kernels compute it (``lr`` the LearningRate tensor):

* ``sgd``: ``p - lr * g``;
* ``adam``: ``m = β1 m + (1-β1) g``, ``v = β2 v + (1-β2) g²`` (``amsgrad``: the running max
  of ``v``), ``p - lr sqrt(1-β2^t)/(1-β1^t) m / (sqrt(v) + ε sqrt(1-β2^t))``; the beta
  powers advance unless ``use_global_beta_pow``; ``Beta1Tensor``... replace the attributes;
* ``rmsprop``: ``s = ρs + (1-ρ)g²`` (``centered``: ``ḡ = ρḡ + (1-ρ)g``, ``s - ḡ²``),
  ``mom = μ mom + lr g / sqrt(s + ε)``, ``p - mom``;
* ``adadelta``: ``E[g²] = ρE[g²] + (1-ρ)g²``, ``u = -sqrt((E[u²]+ε)/(E[g²]+ε)) g``,
  ``E[u²] = ρE[u²] + (1-ρ)u²``, ``p + lr * u``;
* ``adagrad``: ``m + g²``, ``p - lr g / (sqrt(m) + ε)``; ``decayed_adagrad``: ``m`` decays;
* ``adamax``: ``m = β1 m + (1-β1) g``, ``u = max(β2 u + ε, |g|)``, ``p - lr/(1-β1^t) m/u``;
* ``asgd``: ``d = d - y + g``, ``y = g``, ``p - lr/n d``;
* ``rprop``: per-element step sizes grown/shrunk by ``etas`` on the sign of ``g * prev``,
  clipped to ``learning_rate_range``, a sign flip skips that element's step;
* ``lamb``: Adam moments with bias correction, update ``r = m̂/(sqrt(v̂)+ε) + wd p`` scaled by
  the trust ratio ``|p|/|r|`` (when weight decay or ``always_adapt``; 1 if a norm is 0);
* ``nadam`` / ``radam``: the accumulators of Paddle's NAdam / RAdam kernels.
"""
import torch

from ..framework.tensor import Tensor, wrap

__all__ = ["INPLACE", "TABLE", "ATTRS"]


def _t(v):
    return v._t if isinstance(v, Tensor) else torch.as_tensor(v)


def _out(*ts):
    return [None if t is None else wrap(t) for t in ts]


def _sgd(layer, ins, a):
    p, lr, g = _t(ins[0]), _t(ins[1]), _t(ins[2])
    return _out(p - lr.to(p.dtype) * g, None)


def _adadelta(layer, ins, a):
    p, g, asg, asu, lr = (_t(v) for v in ins[:5])
    rho, eps = a["rho"], a["epsilon"]
    asg_out = rho * asg + (1 - rho) * g * g
    update = -torch.sqrt((asu + eps) / (asg_out + eps)) * g
    asu_out = rho * asu + (1 - rho) * update * update
    return _out(p + lr.to(p.dtype) * update, asg_out, asu_out, None)


def _adagrad(layer, ins, a):
    p, g, m, lr = (_t(v) for v in ins[:4])
    m_out = m + g * g
    return _out(p - lr.to(p.dtype) * g / (torch.sqrt(m_out) + a["epsilon"]), m_out, None)


def _decayed_adagrad(layer, ins, a):
    p, g, m, lr = (_t(v) for v in ins[:4])
    decay = a["decay"]
    m_out = decay * m + (1 - decay) * g * g
    return _out(p - lr.to(p.dtype) * g / (torch.sqrt(m_out) + a["epsilon"]), m_out)


def _adamax(layer, ins, a):
    p, g, lr, m, inf, b1p = (_t(v) for v in ins[:6])
    b1, b2, eps = a["beta1"], a["beta2"], a["epsilon"]
    m_out = b1 * m + (1 - b1) * g
    inf_out = torch.maximum(b2 * inf + eps, torch.abs(g))
    lr_t = lr.to(p.dtype) / (1 - b1p.to(p.dtype))
    return _out(p - lr_t * (m_out / inf_out), m_out, inf_out, None)


def _asgd(layer, ins, a):
    p, g, lr, d, y, n = (_t(v) for v in ins[:6])
    d_out = d - y + g
    return _out(p - (lr.to(p.dtype) / n.to(p.dtype)) * d_out, d_out, g.clone(), None)


def _rprop(layer, ins, a):
    p, g, prev, lr, _master, lr_range, etas = (None if v is None else _t(v) for v in ins)
    prod = g * prev
    eta_neg, eta_pos = etas[0].to(p.dtype), etas[1].to(p.dtype)
    factor = torch.where(prod > 0, eta_pos, torch.where(prod < 0, eta_neg,
                                                        torch.ones_like(prod)))
    lr_out = torch.clamp(lr * factor, lr_range[0].to(lr.dtype), lr_range[1].to(lr.dtype))
    g_used = torch.where(prod < 0, torch.zeros_like(g), g)
    return _out(p - torch.sign(g_used) * lr_out, g_used, lr_out, None)


def _lamb(layer, ins, a):
    p, g, lr, m1, m2, b1p, b2p = (_t(v) for v in ins[:7])
    skip = ins[8]
    b1, b2, eps, wd = a["beta1"], a["beta2"], a["epsilon"], a["weight_decay"]
    m1_out = b1 * m1 + (1 - b1) * g
    m2_out = b2 * m2 + (1 - b2) * g * g
    r = (m1_out / (1 - b1p.to(p.dtype))) / (torch.sqrt(m2_out / (1 - b2p.to(p.dtype))) + eps) \
        + wd * p
    lr_t = lr.to(p.dtype)
    if wd > 0 or a["always_adapt"]:
        r1 = torch.linalg.vector_norm(p)
        r2 = torch.linalg.vector_norm(r)
        ratio = torch.where((r1 > 0) & (r2 > 0), r1 / torch.where(r2 > 0, r2, 1.0),
                            torch.ones_like(r1))
        lr_t = lr_t * ratio
    outs = [p - lr_t * r, m1_out, m2_out, b1p * b1, b2p * b2]
    if skip is not None:
        keep = _t(skip).reshape([]).to(torch.bool)
        outs = [torch.where(keep, old, new) for old, new in zip((p, m1, m2, b1p, b2p), outs)]
    return _out(*outs, None)


def _scalar_in(v, default, dtype):
    """An attribute a tensor input may replace (``Beta1Tensor`` for ``beta1``)."""
    return default if v is None else _t(v).reshape([]).to(dtype)


def _adam(layer, ins, a):
    p, g, lr, m1, m2 = (_t(v) for v in ins[:5])
    m2max, b1p, b2p, skip = ins[5], _t(ins[6]), _t(ins[7]), ins[9]
    b1 = _scalar_in(ins[10], a["beta1"], p.dtype)
    b2 = _scalar_in(ins[11], a["beta2"], p.dtype)
    eps = _scalar_in(ins[12], a["epsilon"], p.dtype)
    m1_out = b1 * m1 + (1 - b1) * g
    m2_out = b2 * m2 + (1 - b2) * g * g
    m2max_out = None
    denom = m2_out
    if a["amsgrad"] and m2max is not None:
        m2max_out = denom = torch.maximum(_t(m2max), m2_out)
    root = torch.sqrt(1 - b2p.to(p.dtype))
    lr_t = lr.to(p.dtype) * root / (1 - b1p.to(p.dtype))
    p_out = p - lr_t * (m1_out / (torch.sqrt(denom) + eps * root))
    pows = (b1p, b2p) if a["use_global_beta_pow"] else (b1p * b1, b2p * b2)
    outs = [p_out, m1_out, m2_out, m2max_out, *pows]
    if skip is not None:
        keep = _t(skip).reshape([]).to(torch.bool)
        olds = (p, m1, m2, None if m2max is None else _t(m2max), b1p, b2p)
        outs = [new if new is None or old is None else torch.where(keep, old, new)
                for old, new in zip(olds, outs)]
    return _out(*outs, None)


def _rmsprop(layer, ins, a):
    p, ms, g, mom, lr = (_t(v) for v in ins[:5])
    mg = ins[5]
    rho, eps, momentum = a["decay"], a["epsilon"], a["momentum"]
    ms_out = rho * ms + (1 - rho) * g * g
    mg_out = None
    if a["centered"]:
        mg_out = rho * _t(mg) + (1 - rho) * g
        denom = torch.sqrt(ms_out - mg_out * mg_out + eps)
    else:
        denom = torch.sqrt(ms_out + eps)
    mom_out = momentum * mom + lr.to(p.dtype) * g / denom
    return _out(p - mom_out, mom_out, ms_out, mg_out, None)


def _nadam(layer, ins, a):
    p, g, lr, mdp, b2p, mu_prod, m1, m2 = (_t(v) for v in ins[:8])
    b1, b2, eps, md = a["beta1"], a["beta2"], a["epsilon"], a["momentum_decay"]
    mdp_out = mdp * 0.96
    b2p_out = b2p * b2
    mu_t = b1 * (1.0 - 0.5 * mdp_out ** md)
    mu_t1 = b1 * (1.0 - 0.5 * mdp_out ** md * 0.96 ** md)
    mu_prod_out = mu_prod * mu_t
    mu_prod_t1 = mu_prod_out * mu_t1
    m1_out = b1 * m1 + (1.0 - b1) * g
    m2_out = b2 * m2 + (1.0 - b2) * g * g
    m1_hat = mu_t1 * m1_out / (1.0 - mu_prod_t1) + (1.0 - mu_t) * g / (1.0 - mu_prod_out)
    m2_hat = m2_out / (1.0 - b2p_out)
    p_out = p - lr.to(p.dtype) * m1_hat / (torch.sqrt(m2_hat) + eps)
    return _out(p_out, mdp_out, b2p_out, mu_prod_out, m1_out, m2_out, None)


def _radam(layer, ins, a):
    p, g, lr, b1p, b2p, rho, m1, m2 = (_t(v) for v in ins[:8])
    b1, b2, eps = a["beta1"], a["beta2"], a["epsilon"]
    rho_inf = 2 / (1 - b2) - 1
    b1p_out = b1p * b1
    b2p_out = b2p * b2
    rho_out = (rho * (b2 - b2p_out) + b2p_out) / (1 - b2p_out)
    m1_out = b1 * m1 + (1.0 - b1) * g
    m2_out = b2 * m2 + (1.0 - b2) * g * g
    m1_hat = m1_out / (1 - b1p_out)
    rho_t = rho_inf - 2 * rho_out
    lr_t = lr.to(p.dtype)
    adapt = rho_t > 5
    safe_rho_t = torch.where(adapt, rho_t, torch.full_like(rho_t, 10.0))
    l_t = torch.sqrt(1 - b2p_out) / (torch.sqrt(m2_out) + eps)
    r_t = torch.sqrt(((safe_rho_t - 4) * (safe_rho_t - 2) * rho_inf)
                     / ((rho_inf - 4) * (rho_inf - 2) * safe_rho_t))
    p_out = torch.where(adapt, p - lr_t * m1_hat * r_t * l_t, p - lr_t * m1_hat)
    return _out(p_out, b1p_out, b2p_out, rho_out, m1_out, m2_out, None)


_TABLE = {
    "adadelta": (_adadelta, ["Param", "Grad", "AvgSquaredGrad", "AvgSquaredUpdate",
                             "LearningRate", "MasterParam"],
                 ["ParamOut", "AvgSquaredGradOut", "AvgSquaredUpdateOut", "MasterParamOut"]),
    "adam": (_adam, ["Param", "Grad", "LearningRate", "Moment1", "Moment2", "Moment2Max",
                     "Beta1Pow", "Beta2Pow", "MasterParam", "SkipUpdate", "Beta1Tensor",
                     "Beta2Tensor", "EpsilonTensor"],
             ["ParamOut", "Moment1Out", "Moment2Out", "Moment2MaxOut", "Beta1PowOut",
              "Beta2PowOut", "MasterParamOut"]),
    "adagrad": (_adagrad, ["Param", "Grad", "Moment", "LearningRate", "MasterParam"],
                ["ParamOut", "MomentOut", "MasterParamOut"]),
    "adamax": (_adamax, ["Param", "Grad", "LearningRate", "Moment", "InfNorm", "Beta1Pow",
                         "MasterParam"],
               ["ParamOut", "MomentOut", "InfNormOut", "MasterParamOut"]),
    "asgd": (_asgd, ["param", "grad", "learning_rate", "d", "y", "n", "master_param"],
             ["param_out", "d_out", "y_out", "master_param_out"]),
    "decayed_adagrad": (_decayed_adagrad, ["Param", "Grad", "Moment", "LearningRate"],
                        ["ParamOut", "MomentOut"]),
    "lamb": (_lamb, ["Param", "Grad", "LearningRate", "Moment1", "Moment2", "Beta1Pow",
                     "Beta2Pow", "MasterParam", "SkipUpdate"],
             ["ParamOut", "Moment1Out", "Moment2Out", "Beta1PowOut", "Beta2PowOut",
              "MasterParamOut"]),
    "nadam": (_nadam, ["param", "grad", "learning_rate", "momentum_decay_pow", "beta2_pow",
                       "mu_product", "moment1", "moment2", "master_param"],
              ["param_out", "momentum_decay_pow_out", "beta2_pow_out", "mu_product_out",
               "moment1_out", "moment2_out", "master_param_out"]),
    "radam": (_radam, ["param", "grad", "learning_rate", "beta1_pow", "beta2_pow", "rho",
                       "moment1", "moment2", "master_param"],
              ["param_out", "beta1_pow_out", "beta2_pow_out", "rho_out", "moment1_out",
               "moment2_out", "master_param_out"]),
    "rmsprop": (_rmsprop, ["Param", "MeanSquare", "Grad", "Moment", "LearningRate", "MeanGrad",
                           "MasterParam"],
                ["ParamOut", "MomentOut", "MeanSquareOut", "MeanGradOut", "MasterParamOut"]),
    "rprop": (_rprop, ["param", "grad", "prev", "learning_rate", "master_param",
                       "learning_rate_range", "etas"],
              ["param_out", "prev_out", "learning_rate_out", "master_param_out"]),
    "sgd": (_sgd, ["Param", "LearningRate", "Grad", "MasterParam"],
            ["ParamOut", "MasterParamOut"]),
}

# the attributes in the order of Paddle's kernels (``_C_ops.<type>_`` takes them so)
_ATTRS = {
    "adadelta": {"rho": 0.95, "epsilon": 1e-6, "multi_precision": False},
    "adam": {"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8, "lazy_mode": False,
             "min_row_size_to_use_multithread": 1000, "multi_precision": False,
             "use_global_beta_pow": False, "amsgrad": False},
    "adagrad": {"epsilon": 1e-6, "multi_precision": False},
    "adamax": {"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8, "multi_precision": False},
    "asgd": {"multi_precision": False},
    "decayed_adagrad": {"decay": 0.95, "epsilon": 1e-6},
    "lamb": {"weight_decay": 0.0, "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-6,
             "always_adapt": False, "multi_precision": False},
    "nadam": {"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8, "momentum_decay": 0.004,
              "multi_precision": False},
    "radam": {"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8, "multi_precision": False},
    "rmsprop": {"epsilon": 1e-10, "decay": 0.9, "momentum": 0.0, "centered": False,
                "multi_precision": False},
    "rprop": {"multi_precision": False},
    "sgd": {"multi_precision": False},
}

#: op type -> {output slot: the input slot it overwrites} (``_C_ops.<type>_``)
INPLACE = {}
for _k, (_h, _ins, _outs) in _TABLE.items():
    INPLACE[_k] = {o: i for o in _outs for i in _ins
                   if o in (i + "Out", i + "_out")}

#: what ``fluid_ops`` registers (op type -> (handler, input slots, output slots); attributes)
TABLE, ATTRS = _TABLE, _ATTRS
