"""``paddle.optimizer.lr``: learning-rate schedulers (plain Python floats, Paddle's formulas).

A scheduler holds ``base_lr``, ``last_epoch`` and ``last_lr``; construction calls ``step()``
once (so ``last_epoch`` starts at 0), ``step()`` advances one epoch and recomputes ``last_lr``
with ``get_lr()``, ``scheduler()`` returns ``last_lr``. ``step(epoch)`` jumps to ``epoch``
(with the closed form where the recurrence depends on the previous value).
``state_dict()`` holds ``last_epoch`` and ``last_lr`` (plus what a scheduler adds).

Example::

    sched = paddle.optimizer.lr.StepDecay(0.5, step_size=2, gamma=0.1)
    opt = paddle.optimizer.SGD(learning_rate=sched, parameters=model.parameters())
    for epoch in range(6):
        ...
        opt.step()
        sched.step()
"""
import math
import warnings

import numpy as np
import torch

from ..framework.mode import in_dynamic_mode as _in_dynamic_mode
from ..framework.tensor import wrap as _wrap

__all__ = ["LRScheduler", "NoamDecay", "PiecewiseDecay", "NaturalExpDecay", "InverseTimeDecay",
           "PolynomialDecay", "LinearWarmup", "ExponentialDecay", "MultiStepDecay",
           "StepDecay", "LambdaDecay", "ReduceOnPlateau", "CosineAnnealingDecay",
           "MultiplicativeDecay", "OneCycleLR", "CyclicLR", "LinearLR",
           "CosineAnnealingWarmRestarts"]


class LRScheduler:
    """Base class: subclasses define ``get_lr()`` from ``base_lr``/``last_epoch``/``last_lr``."""

    _state_keys = ("last_epoch", "last_lr")

    def __init__(self, learning_rate=0.1, last_epoch=-1, verbose=False):
        if not isinstance(learning_rate, (float, int)):
            raise TypeError("The type of learning rate must be float, but received "
                            f"{type(learning_rate)}")
        if learning_rate < 0:
            raise ValueError(f"Invalid learning rate: {learning_rate}")
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = last_epoch
        self.verbose = verbose
        self._var_name = None
        self.step()

    def __call__(self):
        return self.last_lr

    def step(self, epoch=None):
        if epoch is None:
            self.last_epoch += 1
            self.last_lr = self.get_lr()
        else:
            self.last_epoch = epoch
            closed = getattr(self, "_get_closed_form_lr", None)
            self.last_lr = closed() if closed is not None else self.get_lr()
        self._say()

    def _say(self):
        if self.verbose:
            print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to "
                  f"{self.last_lr}.")

    def get_lr(self):
        raise NotImplementedError

    def state_keys(self):
        self.keys = list(self._state_keys)

    def state_dict(self):
        self.state_keys()
        out = {}
        for key in self.keys:
            if key in self.__dict__:
                value = self.__dict__[key]
                if hasattr(value, "_t"):        # a one-element Tensor (ReduceOnPlateau's best)
                    value = float(value)
                out[key] = value
        return out

    def set_state_dict(self, state_dict):
        self.state_keys()
        for key in self.keys:
            if key not in state_dict:
                raise RuntimeError("Please check whether state_dict is correct for optimizer. "
                                   f"Can't find [ {key} ] in state_dict")
            self.__dict__[key] = state_dict[key]
        if len(state_dict) > len(self.keys):
            warnings.warn("There are some unused values in state_dict. Maybe the optimizer have "
                          "different 'LearningRateDecay' when invoking state_dict and set_dict")

    set_dict = set_state_dict


def _positive_int(value, what):
    if not (isinstance(value, int) and value > 0):
        raise AssertionError(f" '{what}' must be a positive integer.")


class NoamDecay(LRScheduler):
    """``lr * d_model**-0.5 * min(epoch**-0.5, epoch * warmup_steps**-1.5)``."""

    def __init__(self, d_model, warmup_steps, learning_rate=1.0, last_epoch=-1, verbose=False):
        if d_model <= 0:
            raise ValueError("d_model should be grater than 0")
        self.d_model = d_model
        self.warmup_steps = warmup_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        e = self.last_epoch
        a = 1 if e == 0 else e ** -0.5
        return self.base_lr * (self.d_model ** -0.5) * min(a, self.warmup_steps ** -1.5 * e)


class PiecewiseDecay(LRScheduler):
    """``values[i]`` while ``epoch < boundaries[i]``, then the last value."""

    def __init__(self, boundaries, values, last_epoch=-1, verbose=False):
        if len(boundaries) == 0:
            raise ValueError("The boundaries cannot be empty.")
        if len(values) <= len(boundaries):
            raise ValueError("The values have one more element than boundaries, but received "
                             f"len(values) [{len(values)}] < len(boundaries) + 1 "
                             f"[{len(boundaries) + 1}].")
        self.boundaries = boundaries
        self.values = values
        super().__init__(last_epoch=last_epoch, verbose=verbose)

    def get_lr(self):
        for bound, value in zip(self.boundaries, self.values):
            if self.last_epoch < bound:
                return value
        return self.values[-1]


class NaturalExpDecay(LRScheduler):
    """``lr * exp(-gamma * epoch)``."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        if not gamma > 0.0:
            raise AssertionError(" 'gamma' must be a positive number so that the learning rate "
                                 "will decay.")
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * math.exp(-1 * self.gamma * self.last_epoch)


class InverseTimeDecay(LRScheduler):
    """``lr / (1 + gamma * epoch)``."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr / (1 + self.gamma * self.last_epoch)


class PolynomialDecay(LRScheduler):
    """``(lr - end_lr) * (1 - epoch / decay_steps)**power + end_lr``; with ``cycle`` the
    horizon grows to the next multiple of ``decay_steps`` instead of stopping there."""

    def __init__(self, learning_rate, decay_steps, end_lr=0.0001, power=1.0, cycle=False,
                 last_epoch=-1, verbose=False):
        _positive_int(decay_steps, "decay_steps")
        if not power > 0.0:
            raise AssertionError(" 'power' must be greater than 0.0 so that the learning rate "
                                 "will decay.")
        self.decay_steps = decay_steps
        self.end_lr = end_lr
        self.power = power
        self.cycle = cycle
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        epoch, steps = self.last_epoch, self.decay_steps
        if self.cycle:
            steps = steps * (1 if epoch == 0 else math.ceil(float(epoch) / float(steps)))
        else:
            epoch = min(epoch, steps)
        return (self.base_lr - self.end_lr) * \
            ((1 - float(epoch) / float(steps)) ** self.power) + self.end_lr


class LinearWarmup(LRScheduler):
    """Linear from ``start_lr`` to ``end_lr`` over ``warmup_steps``, then ``learning_rate``
    (a float, or a scheduler stepped to ``epoch - warmup_steps``)."""

    def __init__(self, learning_rate, warmup_steps, start_lr, end_lr, last_epoch=-1,
                 verbose=False):
        if not isinstance(learning_rate, (float, int, LRScheduler)):
            raise TypeError("the type of learning_rate should be [int, float or LRScheduler], "
                            f"the current type is {learning_rate}")
        _positive_int(warmup_steps, "warmup_steps")
        if not end_lr > start_lr:
            raise AssertionError(f"end_lr {end_lr} must be greater than start_lr {start_lr}")
        self.learning_rate = learning_rate
        self.warmup_steps = warmup_steps
        self.start_lr = start_lr
        self.end_lr = end_lr
        super().__init__(start_lr, last_epoch, verbose)

    def state_dict(self):
        out = super().state_dict()
        if isinstance(self.learning_rate, LRScheduler):
            out["LinearWarmup_LR"] = self.learning_rate.state_dict()
        return out

    def set_state_dict(self, state_dict):
        # The nested scheduler's entry is restored here, so the base class must not count it
        # as unused. Paddle 3.3.1 passes the whole dict up and so warns "There are some unused
        # values in state_dict" on every resume of a LinearWarmup around a scheduler: a false
        # alarm that we do not repeat. A truly unknown key still warns.
        nested = isinstance(self.learning_rate, LRScheduler)
        super().set_state_dict({k: v for k, v in state_dict.items()
                                if not (nested and k == "LinearWarmup_LR")})
        if nested:
            self.learning_rate.set_state_dict(state_dict["LinearWarmup_LR"])

    def get_lr(self):
        if self.last_epoch < self.warmup_steps:
            return (self.end_lr - self.start_lr) * float(self.last_epoch) / \
                float(self.warmup_steps) + self.start_lr
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.step(self.last_epoch - self.warmup_steps)
            return self.learning_rate()
        return self.learning_rate


class ExponentialDecay(LRScheduler):
    """``lr * gamma**epoch``."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        if not 0.0 < gamma < 1.0:
            raise AssertionError(" 'gamma' must be in interval (0.0, 1.0) so that the learning "
                                 "rate will decay.")
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * (self.gamma ** self.last_epoch)


class MultiStepDecay(LRScheduler):
    """``lr * gamma**(number of milestones <= epoch)``."""

    def __init__(self, learning_rate, milestones, gamma=0.1, last_epoch=-1, verbose=False):
        if not isinstance(milestones, (tuple, list)):
            raise TypeError("The type of 'milestones' in 'MultiStepDecay' must be 'tuple, list',"
                            f" but received {type(milestones)}.")
        if any(a >= b for a, b in zip(milestones, milestones[1:])):
            raise ValueError("The elements of milestones must be incremented")
        if gamma >= 1.0:
            raise ValueError("gamma should be < 1.0.")
        self.milestones = milestones
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        passed = next((i for i, m in enumerate(self.milestones) if self.last_epoch < m),
                      len(self.milestones))
        return self.base_lr * (self.gamma ** passed)


class StepDecay(LRScheduler):
    """``lr * gamma**(epoch // step_size)``."""

    def __init__(self, learning_rate, step_size, gamma=0.1, last_epoch=-1, verbose=False):
        if not isinstance(step_size, int):
            raise TypeError(f"The type of 'step_size' must be 'int', but received "
                            f"{type(step_size)}.")
        if gamma >= 1.0:
            raise ValueError("gamma should be < 1.0.")
        _positive_int(step_size, "step_size")
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * (self.gamma ** (self.last_epoch // self.step_size))


class LambdaDecay(LRScheduler):
    """``lr * lr_lambda(epoch)``."""

    def __init__(self, learning_rate, lr_lambda, last_epoch=-1, verbose=False):
        if not callable(lr_lambda):
            raise TypeError("The type of 'lr_lambda' in 'LambdaDecay' must be 'function', but "
                            f"received {type(lr_lambda)}.")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.lr_lambda(self.last_epoch)


class MultiplicativeDecay(LRScheduler):
    """``lr * prod(lr_lambda(e) for e in 1..epoch)``."""

    def __init__(self, learning_rate, lr_lambda, last_epoch=-1, verbose=False):
        if not callable(lr_lambda):
            raise TypeError("The type of 'lr_lambda' in 'MultiplicativeDecay' must be "
                            f"'function', but received {type(lr_lambda)}.")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        lr = self.base_lr
        for epoch in range(1, self.last_epoch + 1):
            lr = lr * self.lr_lambda(epoch)
        return lr


class ReduceOnPlateau(LRScheduler):
    """Multiply the lr by ``factor`` when ``metrics`` (given to ``step``) stopped improving for
    more than ``patience`` epochs; then wait ``cooldown`` epochs. Never below ``min_lr``."""

    _state_keys = ("cooldown_counter", "best", "num_bad_epochs", "last_epoch", "last_lr")

    def __init__(self, learning_rate, mode="min", factor=0.1, patience=10, threshold=1e-4,
                 threshold_mode="rel", cooldown=0, min_lr=0, epsilon=1e-8, verbose=False):
        mode = mode.lower()
        if mode not in ("min", "max"):
            raise ValueError("mode: " + mode + " is unknown!")
        if factor >= 1.0:
            raise ValueError("new_lr = origin_lr * gamma and gamma should be < 1.0.")
        threshold_mode = threshold_mode.lower()
        if threshold_mode not in ("rel", "abs"):
            raise ValueError("threshold mode: " + threshold_mode + " is unknown!")
        if not isinstance(learning_rate, (float, int)):
            raise TypeError("The type of 'learning_rate' in 'ReduceOnPlateau' must be 'float', "
                            f"but received {type(learning_rate)}.")
        self.mode = mode
        self.factor = factor
        self.patience = patience
        self.threshold = threshold
        self.threshold_mode = threshold_mode
        self.cooldown = cooldown
        self.min_lr = min_lr
        self.epsilon = epsilon
        self.cooldown_counter = 0
        self.best = None
        self.num_bad_epochs = 0
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = 0
        self.verbose = verbose
        self._var_name = None

    def step(self, metrics, epoch=None):
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        if hasattr(metrics, "_t") or isinstance(metrics, np.ndarray):
            if metrics.size != 1:
                raise AssertionError(f"the size of metrics must be 1, but the current "
                                     f"metrics.size is {metrics.size}. Maybe that you should "
                                     "call paddle.mean to process it first.")
        elif not isinstance(metrics, (int, float, np.float32, np.float64)):
            raise TypeError("metrics must be 'int', 'float', 'np.float64', 'numpy.ndarray' or "
                            f"'paddle.Tensor', but receive {type(metrics)}")
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            return
        if self.best is None or self._is_better(metrics, self.best):
            self.best = metrics
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.num_bad_epochs > self.patience:
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
            new_lr = max(self.last_lr * self.factor, self.min_lr)
            if self.last_lr - new_lr > self.epsilon:
                self.last_lr = new_lr
                self._say()

    def _is_better(self, current, best):
        if self.threshold_mode == "rel":
            margin = best * self.threshold
        else:
            margin = self.threshold
        if self.mode == "min":
            return current < best - margin
        return current > best + margin


class CosineAnnealingDecay(LRScheduler):
    """Cosine from ``lr`` down to ``eta_min`` over ``T_max`` epochs (then back up), computed
    recursively from the previous lr as Paddle does; ``step(epoch)`` uses the closed form."""

    def __init__(self, learning_rate, T_max, eta_min=0, last_epoch=-1, verbose=False):
        if not isinstance(T_max, int):
            raise TypeError("The type of 'T_max' in 'CosineAnnealingDecay' must be 'int', but "
                            f"received {type(T_max)}.")
        if not isinstance(eta_min, (float, int)):
            raise TypeError("The type of 'eta_min' in 'CosineAnnealingDecay' must be 'float, "
                            f"int', but received {type(eta_min)}.")
        _positive_int(T_max, "T_max")
        self.T_max = T_max
        self.eta_min = float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        e, T = self.last_epoch, self.T_max
        if e == 0:
            return self.base_lr
        if (e - 1 - T) % (2 * T) == 0:
            return self.last_lr + (self.base_lr - self.eta_min) * (1 - math.cos(math.pi / T)) / 2
        return (1 + math.cos(math.pi * e / T)) / (1 + math.cos(math.pi * (e - 1) / T)) * \
            (self.last_lr - self.eta_min) + self.eta_min

    def _get_closed_form_lr(self):
        return self.eta_min + (self.base_lr - self.eta_min) * \
            (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2


class OneCycleLR(LRScheduler):
    """Warm up from ``max_learning_rate / divide_factor`` to ``max_learning_rate`` over
    ``phase_pct`` of ``total_steps``, then anneal to ``end_learning_rate`` ('cos' or 'linear');
    ``three_phase`` comes back down to the initial lr before the final anneal."""

    def __init__(self, max_learning_rate, total_steps, divide_factor=25.0,
                 end_learning_rate=0.0001, phase_pct=0.3, anneal_strategy="cos",
                 three_phase=False, last_epoch=-1, verbose=False):
        if not isinstance(max_learning_rate, (float, int)):
            raise TypeError("'max_learning_rate' must be 'float' or 'int', but received "
                            f"{type(max_learning_rate)}")
        if max_learning_rate < 0:
            raise ValueError("'max_learning_rate' must be a positive integer.")
        if not isinstance(end_learning_rate, (float, int)):
            raise TypeError("'end_learning_rate' must be 'float' or 'int', but received "
                            f"{type(end_learning_rate)}")
        if end_learning_rate < 0:
            raise ValueError("'end_learning_rate' must be a positive integer.")
        if not isinstance(total_steps, int):
            raise TypeError(f"'total_step' must be 'int', but received {type(total_steps)}")
        if total_steps <= 0:
            raise ValueError("'total_step' must be a positive integer.")
        if not isinstance(phase_pct, float):
            raise TypeError(f"'phase_pct' must be 'float', but received {type(phase_pct)}")
        if phase_pct < 0 or phase_pct > 1:
            raise ValueError(f"'phase_pct' must be between 0 and 1, but received {phase_pct}")
        if not isinstance(divide_factor, (float, int)):
            raise TypeError("'divide_factor' must be 'float' or 'int', but received "
                            f"{type(divide_factor)}")
        self.total_steps = total_steps
        initial_lr = max_learning_rate / float(divide_factor)
        min_lr = float(end_learning_rate)
        up_end = phase_pct * total_steps - 1
        last = total_steps - 1
        if three_phase:
            if phase_pct >= 0.5:
                raise ValueError("When three_phase is True, 'phase_pct' must be less than 0.5")
            down_end = 2 * phase_pct * total_steps - 2
            self._step_config = [0, up_end, down_end, last, last]
            self._steps_size = [up_end, down_end - up_end, last - down_end, last - down_end]
            self._lr_config = [initial_lr, max_learning_rate, initial_lr, min_lr]
        else:
            self._step_config = [0, up_end, last, last]
            self._steps_size = [up_end, last - up_end, last - up_end]
            self._lr_config = [initial_lr, max_learning_rate, min_lr]
        if anneal_strategy == "cos":
            self.anneal_func = self._cos_annealing
        elif anneal_strategy == "linear":
            self.anneal_func = self._linear_annealing
        else:
            raise ValueError("'anneal_strategy' must by one of 'cos' or 'linear', but received "
                             f"{anneal_strategy}")
        super().__init__(initial_lr, last_epoch, verbose)

    @staticmethod
    def _cos_annealing(start_lr, end_lr, pct):
        return end_lr + (start_lr - end_lr) / 2.0 * (math.cos(math.pi * pct) + 1)

    @staticmethod
    def _linear_annealing(start_lr, end_lr, pct):
        return (end_lr - start_lr) * pct + start_lr

    def get_lr(self):
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"Tried to step {step} times. However the number of total steps "
                             f"is {self.total_steps}")
        phases = len(self._lr_config) - 1
        for i, (end_step, size) in enumerate(zip(self._step_config[1:], self._steps_size)):
            if step <= end_step or i == phases - 1:
                pct = (step - self._step_config[i]) / size
                return self.anneal_func(self._lr_config[i], self._lr_config[i + 1], pct)


class CyclicLR(LRScheduler):
    """Triangle waves between ``base_learning_rate`` and ``max_learning_rate`` (``mode``:
    'triangular', 'triangular2' halving each cycle, 'exp_range' scaled by
    ``exp_gamma**iteration``; or a custom ``scale_fn`` of the cycle or iteration)."""

    def __init__(self, base_learning_rate, max_learning_rate, step_size_up, step_size_down=None,
                 mode="triangular", exp_gamma=1.0, scale_fn=None, scale_mode="cycle",
                 last_epoch=-1, verbose=False):
        if not isinstance(max_learning_rate, (float, int)):
            raise TypeError("'max_learning_rate' must be 'float' or 'int', but received "
                            f"{type(max_learning_rate)}")
        if max_learning_rate < 0:
            raise ValueError("'max_learning_rate' must be a positive integer, but received "
                             f"{max_learning_rate}")
        if not isinstance(step_size_up, int):
            raise TypeError("The type of 'step_size_up' must be int, but received "
                            f"{type(step_size_up)}")
        if step_size_up <= 0:
            raise ValueError("'step_size_up' must be a positive integer, but received "
                             f"{step_size_up}")
        if step_size_down is not None:
            if not isinstance(step_size_down, int):
                raise TypeError("The type of 'step_size_down' must be int, but received "
                                f"{type(step_size_down)}")
            if step_size_down <= 0:
                raise ValueError("'step_size_down' must be a positive integer, but received "
                                 f"{step_size_down}")
        if not isinstance(exp_gamma, float):
            raise TypeError(f"The type of 'exp_gamma' must be float, but received "
                            f"{type(exp_gamma)}")
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.cycle_size = up + down
        self.step_up_pct = up / self.cycle_size
        self.max_lr = float(max_learning_rate)
        self.amplitude = self.max_lr - base_learning_rate
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("'mode' is invalid and 'scale_fn' is not specified, make sure one "
                             "of 'mode' or 'scale_fn' is valid")
        if scale_mode not in ("cycle", "iterations"):
            raise ValueError("'scale_mode' must be one of 'cycle' or 'iterations")
        self.mode = mode
        self.gamma = exp_gamma
        if scale_fn is None:
            self.scale_fn, self.scale_mode = {
                "triangular": (self._triangular_scale_fn, "cycle"),
                "triangular2": (self._triangular2_scale_fn, "cycle"),
                "exp_range": (self._exp_range_scale_fn, "iterations")}[mode]
        else:
            self.scale_fn, self.scale_mode = scale_fn, scale_mode
        super().__init__(base_learning_rate, last_epoch, verbose)

    def _triangular_scale_fn(self, x):
        return 1.0

    def _triangular2_scale_fn(self, x):
        return 1 / (2.0 ** (x - 1))

    def _exp_range_scale_fn(self, x):
        return self.gamma ** x

    def get_lr(self):
        iterations = self.last_epoch
        cycle = 1 + iterations // self.cycle_size
        pct = 1.0 + iterations / self.cycle_size - cycle
        if pct <= self.step_up_pct:
            scale = pct / self.step_up_pct
        else:
            scale = (1 - pct) / (1 - self.step_up_pct)
        x = cycle if self.scale_mode == "cycle" else iterations
        return self.base_lr + self.amplitude * scale * self.scale_fn(x)


class LinearLR(LRScheduler):
    """Multiply ``lr`` by a factor going linearly from ``start_factor`` to ``end_factor`` over
    ``total_steps`` epochs (computed recursively from the previous lr)."""

    def __init__(self, learning_rate, total_steps, start_factor=1.0 / 3, end_factor=1.0,
                 last_epoch=-1, verbose=False):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("`start_factor` must be greater than 0 and less or equal to 1, but "
                             f"got {start_factor}")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("`end_factor` must be greater than 0 and less than 1, but got "
                             f"{end_factor}")
        if total_steps <= 0:
            raise ValueError(f"`total_steps` must be greater than 0, but got {total_steps}")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_steps = total_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        e = self.last_epoch
        if e == 0:
            return self.base_lr * self.start_factor
        if e > self.total_steps:
            return self.last_lr
        span = self.end_factor - self.start_factor
        return self.last_lr * (1.0 + span / (self.total_steps * self.start_factor +
                                             (e - 1) * span))


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine from ``lr`` to ``eta_min`` over ``T_0`` epochs, restarting; each period is
    ``T_mult`` times the previous one."""

    def __init__(self, learning_rate, T_0, T_mult=1, eta_min=0, last_epoch=-1, verbose=False):
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.eta_min + (self.base_lr - self.eta_min) * \
            (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2

    def step(self, epoch=None):
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur -= self.T_i
                self.T_i *= self.T_mult
        elif epoch < 0:
            raise ValueError(f"Expected non-negative epoch, but got {epoch}")
        elif epoch >= self.T_0:
            if self.T_mult == 1:
                self.T_cur = epoch % self.T_0
            else:
                n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                self.T_i = self.T_0 * self.T_mult ** n
        else:
            self.T_i = self.T_0
            self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        self.last_lr = self.get_lr()
        self._say()


# ---------------------------------------------------------------- the fluid-era functions
# Paddle 3.3.1 keeps them outside __all__. In dynamic mode each returns the scheduler above (with
# Paddle's quirks: exponential/natural_exp/inverse_time take no decay_steps or staircase there,
# cosine_decay only the epochs); in static mode Paddle builds a per-step expression of the
# global step counter, which paddle_compat's static graph does not have.

def _dygraph_only(api):
    if not _in_dynamic_mode():
        raise NotImplementedError(f"paddle.optimizer.lr.{api} in static mode (a learning rate "
                                  "computed from the global step counter) is not supported by "
                                  "paddle_compat: pass an LRScheduler as the learning rate")


def noam_decay(d_model, warmup_steps, learning_rate=1.0):
    _dygraph_only("noam_decay")
    return NoamDecay(d_model, warmup_steps, learning_rate=learning_rate)


def exponential_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    _dygraph_only("exponential_decay")
    return ExponentialDecay(learning_rate, decay_rate)


def natural_exp_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    _dygraph_only("natural_exp_decay")
    return NaturalExpDecay(learning_rate, decay_rate)


def inverse_time_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    _dygraph_only("inverse_time_decay")
    return InverseTimeDecay(learning_rate, decay_rate)


def polynomial_decay(learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0,
                     cycle=False):
    _dygraph_only("polynomial_decay")
    return PolynomialDecay(learning_rate, decay_steps, end_learning_rate, power, cycle)


def piecewise_decay(boundaries, values):
    if len(values) - len(boundaries) != 1:
        raise ValueError("len(values) - len(boundaries) should be 1")
    _dygraph_only("piecewise_decay")
    return PiecewiseDecay(boundaries, values)


def cosine_decay(learning_rate, step_each_epoch, epochs):
    _dygraph_only("cosine_decay")
    return CosineAnnealingDecay(learning_rate, epochs)


def linear_lr_warmup(learning_rate, warmup_steps, start_lr, end_lr):
    _dygraph_only("linear_lr_warmup")
    return LinearWarmup(learning_rate, warmup_steps, start_lr, end_lr)


def autoincreased_step_counter(counter_name=None, begin=1, step=1):
    """A global step counter. In static mode Paddle adds an int64 variable incremented by
    ``step`` at every run (Paddle 3.3.1 itself fails there under PIR, with a TypeError);
    paddle_compat's static graph has no such counter. In dynamic mode Paddle creates the
    variable (``begin - 1``) and runs the increment once: the result is a new int64 Tensor
    ``[begin - 1 + step]`` on every call, which is what this returns."""
    _dygraph_only("autoincreased_step_counter")
    return _wrap(torch.tensor([int(begin) - 1 + int(step)], dtype=torch.int64))
