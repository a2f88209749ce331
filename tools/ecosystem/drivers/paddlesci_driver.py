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


def laplace_solver(model, optimizer, iters=3, interior=True, **kw):
    """A Solver on the interior Laplace (unless not ``interior``) + boundary constraints
    (evenly / seeded points)."""
    equation = {"laplace": ppsci.equation.Laplace(dim=2)}
    rect = ppsci.geometry.Rectangle((0.0, 0.0), (1.0, 1.0))
    loader = {"dataset": "IterableNamedArrayDataset", "iters_per_epoch": iters}
    pde = ppsci.constraint.InteriorConstraint(
        equation["laplace"].equations, {"laplace": 0}, rect, {**loader, "batch_size": 36},
        ppsci.loss.MSELoss("mean"), evenly=True, name="EQ")
    bc = ppsci.constraint.BoundaryConstraint(
        {"u": lambda out: out["u"]}, {"u": exact_u}, rect, {**loader, "batch_size": 16},
        ppsci.loss.MSELoss("mean"), name="BC")
    constraints = {"EQ": pde, "BC": bc} if interior else {"BC": bc}
    return ppsci.solver.Solver(model, constraints, os.path.join(d.tmp, "out2"),
                               optimizer, epochs=1, iters_per_epoch=iters, equation=equation,
                               log_freq=1, seed=42, device="cpu", **kw)


def small_mlp(cls=ppsci.arch.MLP, **kw):
    model = cls(("x", "y"), ("u",), **kw)
    seed_params(model, seed=2)
    for p in model.parameters():
        p.set_value(p * 6.0)
    return model


@d.stage("aggregators")
def _():
    """Solver training with ppsci's multi-task loss aggregators and a warmup cosine schedule."""
    for name in ("Relobralo", "GradNorm"):   # PCGrad: ppsci 1.4.0's train loop float()s it
        model = small_mlp(num_layers=2, hidden_size=8)
        agg = {"Relobralo": lambda m: ppsci.loss.mtl.Relobralo(2),
               "GradNorm": lambda m: ppsci.loss.mtl.GradNorm(m, 2, update_freq=1)}[name](model)
        sched = ppsci.optimizer.lr_scheduler.Cosine(1, 3, 1e-2, warmup_epoch=1,
                                                    warmup_start_lr=1e-3)()
        solver = laplace_solver(model, ppsci.optimizer.Adam(sched)(model), loss_aggregator=agg,
                                lr_scheduler=sched)
        solver.train()
        d.put(f"mtl.{name}", model(points())["u"])
        d.put(f"mtl.{name}.lr", sched.get_lr())
        if name == "GradNorm":
            d.put("mtl.GradNorm.weights", agg.weight)


@d.stage("archs")
def _():
    """ModifiedMLP, PirateNet and DeepONet forwards, and a PDE residual through PirateNet."""
    inp = points()
    mod = small_mlp(ppsci.arch.ModifiedMLP, num_layers=3, hidden_size=8)
    d.put("arch.modified_mlp", mod(inp)["u"])
    pirate = small_mlp(ppsci.arch.PirateNet, num_blocks=2, hidden_size=8,
                       fourier={"dim": 8, "scale": 1.0})
    d.put("arch.piratenet", pirate(inp)["u"])
    laplace = ppsci.equation.Laplace(dim=2)
    d.put("arch.piratenet_laplace", ppsci.lambdify(laplace.equations["laplace"], pirate)(dict(inp)))
    onet = ppsci.arch.DeepONet("u", "y", "G", num_loc=5, num_features=6, branch_num_layers=2,
                               trunk_num_layers=2, branch_hidden_size=8, trunk_hidden_size=8)
    seed_params(onet, seed=4)
    rng = np.random.RandomState(6)
    d.put("arch.deeponet", onet({"u": paddle.to_tensor(jittered(rng.rand(4, 5).astype("float32"))),
                                 "y": paddle.to_tensor(jittered(rng.rand(4, 1).astype("float32")))})["G"])


@d.stage("lbfgs")
def _():
    """ppsci's LBFGS wrapper (strong Wolfe line search) under the Solver's LBFGS epoch loop."""
    model = small_mlp(num_layers=2, hidden_size=8)
    solver = laplace_solver(model, ppsci.optimizer.LBFGS(max_iter=4)(model), iters=2)
    solver.train()
    d.put("lbfgs.forward", model(points())["u"])


@d.stage("to_static")
def _():
    """A Solver with ``to_static=True`` (its model's forward through paddle.jit.to_static).
    Boundary loss only: Paddle 3.3.1's to_static fails on ppsci's symbolic PDE nodes
    ("argument of type 'cell' is not iterable")."""
    model = small_mlp(num_layers=2, hidden_size=8)
    solver = laplace_solver(model, ppsci.optimizer.Adam(1e-2)(model), interior=False,
                            to_static=True)
    solver.train()
    paddle.jit.enable_to_static(False)
    d.put("to_static.forward", model(points())["u"])


@d.stage("export")
def _():
    """``Solver.export`` (jit.to_static + jit.save of the trained MLP), loaded back with
    ``paddle.jit.load`` and run."""
    from paddle.static import InputSpec
    solver = state["solver"]
    path = os.path.join(d.tmp, "export", "mlp")
    solver.export([{k: InputSpec([None, 1], "float32", name=k) for k in ("x", "y")}], path)
    loaded = paddle.jit.load(path)
    inp = points()
    d.put("export.forward", loaded(inp["x"].detach(), inp["y"].detach()))
    d.put("export.files", sorted(os.listdir(os.path.dirname(path))))


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
