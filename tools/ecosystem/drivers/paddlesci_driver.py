"""paddlesci (ppsci) 1.4.0: a ``ppsci.arch.MLP`` with seeded weights; the residuals of the
library's own PDEs (Laplace, steady 2-D Navier-Stokes) through ``ppsci.lambdify`` (second
derivatives: double backward); a ``ppsci.solver.Solver`` that trains 3 Adam iterations on an
interior Laplace constraint plus a boundary constraint and evaluates a GeometryValidator;
save/reload through ``ppsci.utils.save_load``."""
import os

import numpy as np
import paddle
import ppsci
from ppsci.utils import save_load

from _common import Driver, jittered, seed_params

d = Driver("paddlesci", version_of="ppsci")
state = {}


def exact_u(out):
    """The boundary/validation target u(x, y) = x^2 - y^2 (harmonic)."""
    return out["x"] ** 2 - out["y"] ** 2


def points(n=12, seed=3):
    """``n`` seeded points in the unit square as the dict ppsci's models take."""
    rng = np.random.RandomState(seed)
    xy = jittered(rng.uniform(0.0, 1.0, (n, 2)).astype("float32"), seed=seed)
    return {"x": paddle.to_tensor(xy[:, :1], stop_gradient=False),
            "y": paddle.to_tensor(xy[:, 1:], stop_gradient=False)}


@d.stage("build")
def _():
    model = ppsci.arch.MLP(("x", "y"), ("u",), num_layers=3, hidden_size=16, activation="tanh")
    seed_params(model)
    for p in model.parameters():        # O(1) weights: a PDE residual far from zero
        p.set_value(p * 6.0)
    ns_model = ppsci.arch.MLP(("x", "y"), ("u", "v", "p"), num_layers=2, hidden_size=12,
                              activation="tanh")
    seed_params(ns_model, seed=1)
    state.update(model=model, ns_model=ns_model)
    d.put("params", {k: v for k, v in model.state_dict().items()})
    d.put("forward", model(points())["u"])


@d.stage("pde_residual")
def _():
    laplace = ppsci.equation.Laplace(dim=2)
    fn = ppsci.lambdify(laplace.equations["laplace"], state["model"])
    inp = points()
    res = fn(dict(inp))
    d.put("laplace", res)
    # gradient of the residual's mean square w.r.t. the weights: a third-order path
    (res ** 2).mean().backward()
    d.put("laplace_grad", [p.grad for p in state["model"].parameters()])
    state["model"].clear_gradients()

    ns = ppsci.equation.NavierStokes(nu=0.01, rho=1.0, dim=2, time=False)
    inp = points(8, seed=5)
    for name in ("continuity", "momentum_x", "momentum_y"):
        fn = ppsci.lambdify(ns.equations[name], state["ns_model"])
        d.put(f"ns.{name}", fn(dict(inp)))
    # ppsci's own autodiff helpers (jacobian / hessian with their cache)
    out = state["ns_model"](inp)
    d.put("jacobian", ppsci.autodiff.jacobian(out["u"], inp["x"]))
    d.put("hessian", ppsci.autodiff.hessian(out["u"], inp["y"]))
    ppsci.autodiff.clear()


@d.stage("solver")
def _():
    model = state["model"]
    equation = {"laplace": ppsci.equation.Laplace(dim=2)}
    geom = {"rect": ppsci.geometry.Rectangle((0.0, 0.0), (1.0, 1.0))}
    loader = {"dataset": "IterableNamedArrayDataset", "iters_per_epoch": 3}
    pde = ppsci.constraint.InteriorConstraint(
        equation["laplace"].equations, {"laplace": 0}, geom["rect"],
        {**loader, "batch_size": 64}, ppsci.loss.MSELoss("sum"), evenly=True, name="EQ")
    bc = ppsci.constraint.BoundaryConstraint(
        {"u": lambda out: out["u"]}, {"u": exact_u}, geom["rect"],
        {**loader, "batch_size": 32}, ppsci.loss.MSELoss("sum"), name="BC")
    d.put("data.interior", pde.data_loader.input["x"])
    d.put("data.boundary", [bc.data_loader.input["x"], bc.data_loader.label["u"]])
    validator = ppsci.validate.GeometryValidator(
        {"u": lambda out: out["u"]}, {"u": exact_u}, geom["rect"],
        {"dataset": "IterableNamedArrayDataset", "total_size": 49}, ppsci.loss.MSELoss(),
        evenly=True, metric={"MSE": ppsci.metric.MSE()}, with_initial=True, name="MSE_Metric")
    optimizer = ppsci.optimizer.Adam(learning_rate=1e-2)(model)
    solver = ppsci.solver.Solver(
        model, {pde.name: pde, bc.name: bc}, os.path.join(d.tmp, "out"), optimizer,
        epochs=1, iters_per_epoch=3, equation=equation, geom=geom,
        validator={validator.name: validator}, log_freq=1, save_freq=1, seed=42, device="cpu")
    before, _ = solver.eval()
    solver.train()
    after, metrics = solver.eval()
    d.put("eval.before", before)
    d.put("eval.after", after)
    d.put("eval.metrics", metrics)
    d.put("trained", {k: v for k, v in model.state_dict().items()})
    d.put("trained_forward", model(points())["u"])
    state.update(solver=solver, optimizer=optimizer)


@d.stage("save_reload")
def _():
    model = state["model"]
    out_dir = os.path.join(d.tmp, "ckpt")
    save_load.save_checkpoint(model, state["optimizer"], {"MSE": 0.0}, output_dir=out_dir,
                              prefix="model", print_log=False)
    prefix = os.path.join(out_dir, "checkpoints", "model")
    fresh = ppsci.arch.MLP(("x", "y"), ("u",), num_layers=3, hidden_size=16, activation="tanh")
    save_load.load_pretrain(fresh, prefix)
    d.put("reload_forward", fresh(points())["u"])
    opt_state = paddle.load(prefix + ".pdopt")
    d.put("opt_keys", sorted(k for k in opt_state if k != "LR_Scheduler")[:8])
    pred = state["solver"].predict({"x": np.linspace(0, 1, 5, dtype="float32")[:, None],
                                    "y": np.linspace(1, 0, 5, dtype="float32")[:, None]},
                                   batch_size=5, return_numpy=True)
    d.put("predict", pred)


d.finish()
