"""``paddle.optimizer.LBFGS``: limited-memory BFGS driven by a closure, as Paddle 3.3.1 runs it.

The algorithm is the classic one (Nocedal & Wright, *Numerical Optimization*, 2nd ed.: the
two-loop recursion of Alg. 7.4, the strong-Wolfe line search of Alg. 3.5/3.6 with cubic
interpolation, eq. 3.59), with Paddle's choices, which are also torch.optim.LBFGS's:

- one ``step(closure)`` runs up to ``max_iter`` iterations and at most about ``max_eval``
  closure calls; the first iteration of the optimizer's life steps along ``-grad`` with
  ``min(1, 1 / sum|grad|) * learning_rate``, later ones with ``learning_rate``;
- without a line search the last iteration of a step moves the parameters without calling
  the closure again;
- it stops early when ``max|grad| <= tolerance_grad``, when ``grad . d > -tolerance_change``,
  when ``max|alpha d| <= tolerance_change`` or when the loss changes by less than
  ``tolerance_change``.

Differences from torch.optim.LBFGS that this class keeps as Paddle has them: inner products
are ``(x * y).sum()``, the state is one flat dict whose ``state_dict()`` is
``{'state': {'func_evals', 'n_iter', 'd', 'alpha', 'old_yk', 'old_sk', 'ro', 'H_diag',
'prev_flat_grad', 'prev_loss', 'al'}}`` (tensors as paddle Tensors), and ``weight_decay`` and
``grad_clip`` are accepted but not applied (Paddle's step reads the raw gradients).

One deliberate difference: given parameter groups (a list of dicts), Paddle 3.3.1 optimises
only the last group's parameters (its constructor keeps the last group it loops over), against
its own documentation of ``parameters``; here all groups' parameters form the one vector (a
group's own options are ignored, as in Paddle).
"""
import torch

from ..framework.tensor import Tensor, wrap
from .optimizer import Optimizer

__all__ = ["LBFGS"]


def _dot(a, b):
    return (a * b).sum(-1)


def _cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds=None):
    """Minimiser of the cubic through (x1, f1) and (x2, f2) with slopes g1, g2, clipped to
    ``bounds`` (default: the interval between x1 and x2); the interval's midpoint when the
    cubic has no real minimiser."""
    if bounds is None:
        lo, hi = (x1, x2) if x1 <= x2 else (x2, x1)
    else:
        lo, hi = bounds
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    disc = d1 ** 2 - g1 * g2
    if disc >= 0:
        d2 = disc.sqrt()
        if x1 <= x2:
            m = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            m = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(m, lo), hi)
    return (lo + hi) / 2.0


def _strong_wolfe(evaluate, x0, step, d, f0, g0, gtd0, c1=1e-4, c2=0.9,
                  tolerance_change=1e-9, max_ls=25):
    """A step length along ``d`` meeting the strong Wolfe conditions: a bracketing phase that
    extrapolates by cubic interpolation, then a zoom. Returns (loss, flat grad, step, number
    of evaluations)."""
    d_max = d.abs().max()
    g0 = g0.clone()
    f, g = evaluate(x0, step, d)
    evals = 1
    gtd = _dot(g, d)
    # the previous trial point (step 0 is the start)
    s_prev, f_prev, g_prev, gtd_prev = 0, f0, g0, gtd0
    done = False
    it = 0
    while it < max_ls:
        if f > f0 + c1 * step * gtd0 or (it > 1 and f >= f_prev):
            br, br_f, br_g, br_gtd = [s_prev, step], [f_prev, f], [g_prev, g.clone()], \
                [gtd_prev, gtd]
            break
        if abs(gtd) <= -c2 * gtd0:
            br, br_f, br_g = [step], [f], [g]
            done = True
            break
        if gtd >= 0:
            br, br_f, br_g, br_gtd = [s_prev, step], [f_prev, f], [g_prev, g.clone()], \
                [gtd_prev, gtd]
            break
        # extrapolate: a cubic step between 1.01x and 10x the current one
        lo = step + 0.01 * (step - s_prev)
        hi = step * 10
        new = _cubic_interpolate(s_prev, f_prev, gtd_prev, step, f, gtd, bounds=(lo, hi))
        s_prev, f_prev, g_prev, gtd_prev = step, f, g.clone(), gtd
        step = new
        f, g = evaluate(x0, step, d)
        evals += 1
        gtd = _dot(g, d)
        it += 1
    if it == max_ls:
        br, br_f, br_g = [0, step], [f0, f], [g0, g]
    # zoom inside the bracket
    stalled = False
    low, high = (0, 1) if br_f[0] <= br_f[-1] else (1, 0)
    while not done and it < max_ls:
        if abs(br[1] - br[0]) * d_max < tolerance_change:
            break
        step = _cubic_interpolate(br[0], br_f[0], br_gtd[0], br[1], br_f[1], br_gtd[1])
        top, bottom = max(br), min(br)
        margin = 0.1 * (top - bottom)
        if min(top - step, step - bottom) < margin:
            # too close to an end: move away from it unless the last try was fine
            if stalled or step >= top or step <= bottom:
                step = top - margin if abs(step - top) < abs(step - bottom) else bottom + margin
                stalled = False
            else:
                stalled = True
        else:
            stalled = False
        f, g = evaluate(x0, step, d)
        evals += 1
        gtd = _dot(g, d)
        it += 1
        if f > f0 + c1 * step * gtd0 or f >= br_f[low]:
            br[high], br_f[high], br_g[high], br_gtd[high] = step, f, g.clone(), gtd
            low, high = (0, 1) if br_f[0] <= br_f[1] else (1, 0)
        else:
            if abs(gtd) <= -c2 * gtd0:
                done = True
            elif gtd * (br[high] - br[low]) >= 0:
                br[high], br_f[high], br_g[high], br_gtd[high] = \
                    br[low], br_f[low], br_g[low], br_gtd[low]
            br[low], br_f[low], br_g[low], br_gtd[low] = step, f, g.clone(), gtd
    return br_f[low], br_g[low], br[low], evals


def _paddle_value(v):
    if isinstance(v, torch.Tensor):
        return wrap(v)
    if isinstance(v, list):
        return [_paddle_value(e) for e in v]
    return v


class LBFGS(Optimizer):
    """L-BFGS over all parameters as one flat vector; ``step(closure)`` re-evaluates the loss
    (the closure clears the gradients, computes the loss, calls ``backward`` and returns it)."""

    def __init__(self, learning_rate=1.0, max_iter=20, max_eval=None, tolerance_grad=1e-7,
                 tolerance_change=1e-9, history_size=100, line_search_fn=None, parameters=None,
                 weight_decay=None, grad_clip=None, name=None):
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.max_eval = max_eval
        self.tolerance_grad = tolerance_grad
        self.tolerance_change = tolerance_change
        self.history_size = history_size
        self.line_search_fn = line_search_fn
        if isinstance(parameters, Tensor):
            raise TypeError("parameters argument given to the optimizer should be an iterable "
                            f"of Tensors or dicts, but got {type(parameters)}")
        self.state = {}
        super().__init__(1.0, parameters, weight_decay, grad_clip, name)
        self._params = [p for g in self._param_groups for p in g["params"]]

    def state_dict(self):
        """``{'state': {...}}``: the counters, the last direction and step, the history."""
        return {"state": {k: _paddle_value(v) for k, v in self.state.items()}}

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        raise NotImplementedError("LBFGS optimizer does not use this way to minimize loss. "
                                  "Please refer 'Examples' of LBFGS() for usage.")

    # ---------------------------------------------------------------- flat views
    def _flat_grad(self):
        parts = []
        for p in self._params:
            g = p.grad
            parts.append(torch.zeros_like(p._t).reshape(-1) if g is None else g._t.reshape(-1))
        return torch.cat(parts, 0)

    def _move(self, step, d):
        """parameters += step * d (d flat)."""
        offset = 0
        for p in self._params:
            t = p._t
            n = t.numel()
            t.copy_(t + d[offset:offset + n].view_as(t) * step)
            offset += n

    def _evaluate(self, closure, x0, step, d):
        self._move(step, d)
        loss = float(self._closure(closure))
        g = self._flat_grad()
        for p, v in zip(self._params, x0):
            p._t.copy_(v)
        return loss, g

    # ---------------------------------------------------------------- the step
    def step(self, closure):
        """Run up to ``max_iter`` L-BFGS iterations; returns the closure's first loss."""
        with torch.no_grad():
            return self._step(closure)

    def _closure(self, closure):
        with torch.enable_grad():
            return closure()

    def _step(self, closure):
        lr = self.learning_rate
        tol_grad, tol_change = self.tolerance_grad, self.tolerance_change
        history = self.history_size
        state = self.state
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        first_loss = self._closure(closure)
        loss = float(first_loss)
        evals = 1
        state["func_evals"] += 1
        g = self._flat_grad()
        if g.abs().max() <= tol_grad:
            return first_loss

        d = state.get("d")
        step = state.get("alpha")
        ys_hist = state.get("old_yk")
        ss_hist = state.get("old_sk")
        ro = state.get("ro")
        h_diag = state.get("H_diag")
        prev_g = state.get("prev_flat_grad")
        prev_loss = state.get("prev_loss")

        def evaluate(x0, a, direction):
            return self._evaluate(closure, x0, a, direction)

        it = 0
        while it < self.max_iter:
            it += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = g.neg()
                ys_hist, ss_hist, ro = [], [], []
                h_diag = torch.tensor(1.0, dtype=first_loss._t.dtype)
            else:
                y = g - prev_g
                s = d * torch.as_tensor(step, dtype=d.dtype)
                ys = _dot(y, s)
                if ys > 1e-10:
                    if len(ys_hist) == history:
                        ys_hist.pop(0)
                        ss_hist.pop(0)
                        ro.pop(0)
                    ys_hist.append(y)
                    ss_hist.append(s)
                    ro.append(1.0 / ys)
                    h_diag = ys / _dot(y, y)
                # two-loop recursion: d = -H g
                al = state.setdefault("al", [None] * history)
                q = g.neg()
                for i in range(len(ys_hist) - 1, -1, -1):
                    al[i] = _dot(ss_hist[i], q) * ro[i]
                    q = q + ys_hist[i] * (-al[i])
                r = q * h_diag
                for i in range(len(ys_hist)):
                    beta = _dot(ys_hist[i], r) * ro[i]
                    r = r + ss_hist[i] * (al[i] - beta)
                d = r
            prev_g = g.clone()
            prev_loss = loss

            if state["n_iter"] == 1:
                step = min(1.0, 1.0 / g.abs().sum()) * lr
            else:
                step = lr
            gtd = _dot(g, d)
            if gtd > -tol_change:
                break

            ls_evals = 0
            if self.line_search_fn is not None:
                if self.line_search_fn != "strong_wolfe":
                    raise RuntimeError("only 'strong_wolfe' is supported")
                x0 = [p._t.clone() for p in self._params]
                loss, g, step, ls_evals = _strong_wolfe(evaluate, x0, step, d, loss, g, gtd)
                self._move(step, d)
                done = g.abs().max() <= tol_grad
            else:
                self._move(step, d)
                done = False
                if it != self.max_iter:
                    loss = float(self._closure(closure))
                    g = self._flat_grad()
                    done = g.abs().max() <= tol_grad
                    ls_evals = 1
            evals += ls_evals
            state["func_evals"] += ls_evals

            if done:
                break
            if (d * step).abs().max() <= tol_change:
                break
            if abs(loss - prev_loss) < tol_change:
                break
            if evals >= self.max_eval:
                break
            if it == self.max_iter:
                break

        state["d"] = d
        state["alpha"] = step
        state["old_yk"] = ys_hist
        state["old_sk"] = ss_hist
        state["ro"] = ro
        state["H_diag"] = h_diag
        state["prev_flat_grad"] = prev_g
        state["prev_loss"] = prev_loss
        return first_loss
