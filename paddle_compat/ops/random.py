"""Seeded random tensors: ``seed``, ``randn``, ``rand``, ``uniform``, ``normal``, ``randint``,
``randperm``, ``bernoulli``, ``multinomial``, ``poisson`` and the RNG state.

On CPU the numbers come from ``paddle_compat.random``'s engine, value for value the stream real
Paddle draws (one mt19937_64 shared by all ops). On CUDA, where Paddle uses a generator of its
own that we do not reproduce, torch's CUDA generator is used, seeded by the same ``seed``.
"""
import numpy as np
import torch
import torch.fx

from ..framework import dtype as _dt
from ..framework import mode as _mode
from ..framework.place import current_device, to_torch_device
from ..framework.tensor import Tensor, wrap, writable
from ..random import default_generator as _gen
from ..random import distributions as _dist
from .common import at_run_time, finish, shape_arg, static_payload, tensor_arg
from .creation import _static_shape
from .registry import OpSet

op = OpSet(__name__)
__all__ = op.names


@op
def seed(seed):
    """Seed every generator (the CPU stream, and torch's CUDA generators)."""
    seed = int(seed)
    _gen.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed % (1 << 64))
    return _gen


@op
def get_rng_state(device=None):
    """Snapshots of the generator states (a list, as in Paddle)."""
    if device is not None and "gpu" in str(device):
        return get_cuda_rng_state()
    return [_gen.get_state()]


@op
def set_rng_state(state_list, device=None):
    """Restore states taken by ``get_rng_state``."""
    if device is not None and "gpu" in str(device):
        return set_cuda_rng_state(state_list)
    _gen.set_state(state_list[0])


@op
def get_cuda_rng_state():
    return [torch.cuda.get_rng_state(i) for i in range(torch.cuda.device_count())] \
        if torch.cuda.is_available() else []


@op
def set_cuda_rng_state(state_list):
    for i, s in enumerate(state_list):
        torch.cuda.set_rng_state(s, i)


def _float_dtype(dtype, api, complex_ok=False):
    """The dtype to draw (default: the default float); floats, and complex for the normal
    draws that Paddle's gaussian kernel makes complex (each part with variance 1/2)."""
    d = _dt.default_float() if dtype is None else _dt.convert_dtype(dtype)
    if complex_ok and d.name in ("complex64", "complex128"):
        return d
    if not d.is_floating_point:          # Paddle: no kernel for that dtype
        kinds = "float16, bfloat16, float32, float64" + (", complex64, complex128"
                                                          if complex_ok else "")
        raise RuntimeError(f"(NotFound) {api}(): random floats can not be drawn as {d.name}; "
                           f"dtype must be one of {kinds}")
    return d


def _shape(shape, api):
    shp = shape_arg(shape, api)
    if any(d < 0 for d in shp):          # Paddle's kernel fails to allocate the output
        raise RuntimeError(f"(PreconditionNotMet) {api}(): the shape {list(shp)} has a "
                           "negative dimension")
    return shp


def _on_cuda():
    return current_device().type == "cuda"


_DRAWS = {"uniform": _dist.uniform, "normal": _dist.normal, "randn": _dist.randn,
          "randint": lambda gen, shape, dtype_name, low, high: _dist.randint(
              gen, low, high, shape, dtype_name)}


def _draw_at_run_time(shape, kind, dtype_name, *params):
    """Run time of a random op of a static program whose shape is a Variable (or a list
    holding 0-d ones): the draw ``kind`` of ``_DRAWS`` with ``params``, from the CPU stream
    (torch's generator on CUDA)."""
    if isinstance(shape, torch.Tensor):
        dims = [int(d) for d in shape.reshape(-1).tolist()]
    else:
        dims = [int(d.reshape(-1)[0]) if isinstance(d, torch.Tensor) else int(d) for d in shape]
    if any(d < 0 for d in dims):
        raise RuntimeError(f"(PreconditionNotMet) {kind}(): the shape {dims} has a negative "
                           "dimension")
    d = _dt.convert_dtype(dtype_name)
    if _on_cuda():
        t = torch.empty(dims, dtype=d.torch, device=current_device())
        if kind == "uniform":
            return t.uniform_(params[0], params[1])
        if kind == "randint":
            return t.random_(params[0], params[1])
        return t.normal_(*(params[:2] if kind == "normal" else (0.0, 1.0)))
    return _out(_DRAWS[kind](_gen, dims, dtype_name, *params), d)._t


def _drawn_later(shape, kind, d, *params):
    """In a static program, a random op whose ``shape`` is a Variable (or a list holding
    0-d Variables) is drawn when the program runs, its unknown dimensions -1 as in Paddle;
    None for any other shape."""
    v = _static_shape(shape)
    if v is None:
        return None
    payload, parts = v
    for p in [payload] if parts is None else parts:
        if isinstance(p, torch.fx.Proxy) and p.dtype not in (torch.int32, torch.int64):
            raise TypeError(f"The data type of 'shape' in {kind} must be ['int32', 'int64'], "
                            f"but received {_dt.from_torch_dtype(p.dtype).name}.")
    return wrap(payload.record_shaped(_draw_at_run_time,
                                      (payload if parts is None else parts, kind, d.name)
                                      + params, {}, d.torch, parts))


def _out(array, d, dev=None):
    t = torch.from_numpy(np.ascontiguousarray(array).reshape(np.shape(array)))
    if t.dtype is not d.torch:
        t = t.to(d.torch)
    dev = current_device() if dev is None else dev
    return wrap(t if dev.type == "cpu" else t.to(dev))


@op
def randn(shape, dtype=None, name=None, *, out=None, device=None, requires_grad=False,
          pin_memory=False):
    """Standard normal values (on ``device``, the current one by default)."""
    d = _float_dtype(dtype, "randn", complex_ok=True)
    later = _drawn_later(shape, "randn", d)
    if later is not None:
        return finish(later, out, requires_grad)
    shp = _shape(shape, "randn")
    if pin_memory:
        raise NotImplementedError("randn(): pin_memory=True is not supported")
    dev = current_device() if device is None else to_torch_device(device)
    if dev.type == "cuda":
        r = wrap(torch.randn(shp, dtype=d.torch, device=dev))
    else:
        r = _out(_dist.randn(_gen, shp, d.name), d, dev)
    return finish(r, out, requires_grad)


op(randn, name="standard_normal")


@op
def rand(shape, dtype=None, name=None):
    """Uniform values in [0, 1)."""
    return uniform(shape, dtype, 0.0, 1.0, api="rand")


@op
def uniform(shape, dtype=None, min=0.0, max=1.0, seed=0, name=None, api="uniform"):
    """Uniform values in [min, max) (Paddle 3 defaults: [0, 1)); a non-zero ``seed`` uses a
    private generator and leaves the global stream untouched."""
    d = _float_dtype(dtype, api)
    lo, hi = float(_item(min)), float(_item(max))
    later = _drawn_later(shape, "uniform", d, lo, hi, int(seed))
    if later is not None:
        return later
    shp = _shape(shape, api)
    if _on_cuda():
        return wrap(torch.empty(shp, dtype=d.torch, device=current_device()).uniform_(lo, hi))
    return _out(_dist.uniform(_gen, shp, d.name, lo, hi, seed=int(seed)), d)


def _item(v):
    return v._t.item() if isinstance(v, Tensor) else v


@op
def normal(mean=0.0, std=1.0, shape=None, name=None):
    """Normal values; ``mean``/``std`` may be floats or Tensors (then they give the shape)."""
    if not _mode.in_dynamic_mode():
        _normal_static_checks(mean, std, shape)
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        src = mean if isinstance(mean, Tensor) else std
        d = _dt.from_torch_dtype(src._t.dtype)
        if static_payload((mean, std)) is not None:     # drawn when the program runs
            dims = torch.broadcast_shapes(*(tuple(v.shape) for v in (mean, std)
                                            if isinstance(v, Tensor)))
            return at_run_time(_normal_of, (mean, std), list(dims), d.torch)
        return wrap(_normal_of(mean._t if isinstance(mean, Tensor) else mean,
                               std._t if isinstance(std, Tensor) else std))
    d = _dt.default_float()
    later = _drawn_later(shape, "normal", d, float(mean), float(std))
    if later is not None:
        return later
    shp = _shape(shape if shape is not None else [1], "normal")
    if _on_cuda():
        return wrap(torch.empty(shp, dtype=d.torch, device=current_device()).normal_(mean, std))
    return _out(_dist.normal(_gen, shp, d.name, float(mean), float(std)), d)


def _normal_of(mean, std):
    """Normal values of the mean and std given as torch tensors (and numbers)."""
    src = mean if isinstance(mean, torch.Tensor) else std
    if _on_cuda():
        return torch.randn_like(src.detach()) * std + mean
    arr = lambda v: v.detach().cpu().numpy() if isinstance(v, torch.Tensor) else float(v)
    return _out(_dist.normal_tensor(_gen, arr(mean), arr(std)),
                _dt.from_torch_dtype(src.dtype))._t


def _normal_static_checks(mean, std, shape):
    """Paddle's TypeErrors of ``normal``'s arguments while a program is built."""
    for what, v, kinds, dtypes in (
            ("mean", mean, (int, float, complex), ("float32", "float64", "complex64",
                                                   "complex128")),
            ("std", std, (int, float), ("float32", "float64"))):
        if isinstance(v, Tensor):
            if v.dtype.name not in dtypes:
                raise TypeError(f"The data type of '{what}' in normal must be {list(dtypes)}, "
                                f"but received {v.dtype.name}. If {what} is Tensor, it's data "
                                f"type only support {', '.join(dtypes)}.")
        elif not isinstance(v, kinds):
            raise TypeError(f"The type of '{what}' in normal must be {kinds + (Tensor,)}, but "
                            f"received {type(v)}.")
    if not isinstance(mean, Tensor) and not isinstance(std, Tensor) and shape is not None \
            and not isinstance(shape, (list, tuple, Tensor)):
        raise TypeError(f"The type of 'shape' in normal must be (<class 'list'>, <class "
                        f"'tuple'>, {Tensor}), but received {type(shape)}.")


@op(export=False)
def gaussian(shape, mean=0.0, std=1.0, seed=0, dtype=None, name=None, *, out=None,
             device=None, requires_grad=False):
    """``paddle.tensor.random.gaussian``: normal values of ``shape`` (float or complex
    ``dtype``); a non-zero ``seed`` draws from its own engine, so equal seeds repeat."""
    d = _float_dtype(dtype, "gaussian", complex_ok=True)
    later = _drawn_later(shape, "normal", d, float(mean), float(std), int(seed))
    if later is not None:
        return finish(later, out, requires_grad)
    shp = _shape(shape, "gaussian")
    dev = current_device() if device is None else to_torch_device(device)
    if dev.type == "cuda" and not seed:
        r = wrap(torch.randn(shp, dtype=d.torch, device=dev) * std + mean)
    else:
        r = _out(_dist.normal(_gen, shp, d.name, float(mean), float(std), seed=int(seed)), d,
                 dev)
    return finish(r, out, requires_grad)


@op
def randint(low=0, high=None, shape=[1], dtype=None, name=None):
    """Integers in [low, high) (int64 by default); ``randint(n)`` draws from [0, n)."""
    if high is None:
        low, high = 0, low
    low, high = int(_item(low)), int(_item(high))
    if high <= low:
        raise ValueError(f"randint(): high ({high}) must be larger than low ({low})")
    d = _dt.int64 if dtype is None else _dt.convert_dtype(dtype)
    later = _drawn_later(shape, "randint", d, low, high)
    if later is not None:
        return later
    shp = _shape(shape, "randint")
    if _on_cuda():
        return wrap(torch.randint(low, high, shp, dtype=d.torch, device=current_device()))
    return _out(_dist.randint(_gen, low, high, shp, d.name), d)


@op
def randint_like(x, low=0, high=None, dtype=None, name=None):
    """randint drawn as int64 (as Paddle does), then cast to ``dtype`` or x's dtype."""
    t = tensor_arg(x, "randint_like")
    d = _dt.convert_dtype(dtype) if dtype is not None else _dt.from_torch_dtype(t.dtype)
    return randint(low, high, list(t.shape)).astype(d)


@op
def rand_like(input, name=None, *, dtype=None):
    """Uniform [0, 1) numbers of ``input``'s shape (and dtype, unless ``dtype`` is given)."""
    t = tensor_arg(input, "rand_like", "input")
    return rand(list(t.shape), dtype or _dt.from_torch_dtype(t.dtype))


@op
def randn_like(x, dtype=None, name=None):
    t = tensor_arg(x, "randn_like")
    return randn(list(t.shape), dtype or _dt.from_torch_dtype(t.dtype))


@op
def randperm(n, dtype="int64", name=None):
    """A random permutation of 0..n-1."""
    d = _dt.convert_dtype(dtype)
    if _on_cuda():
        return wrap(torch.randperm(int(n), dtype=d.torch, device=current_device()))
    return _out(_dist.randperm(_gen, int(n), d.name), d)


@op
def bernoulli(x, p=None, name=None):
    """0/1 draws with probabilities ``x`` (or the number ``p`` for every element of x's shape
    when given; same shape and dtype as x)."""
    t = tensor_arg(x, "bernoulli")
    if p is not None:
        t = torch.full_like(t, p)
    if t.dtype not in (torch.float32, torch.float64):
        raise TypeError(f"bernoulli(): x must be float32 or float64, but received "
                        f"{_dt.from_torch_dtype(t.dtype).name}")
    if _on_cuda() or isinstance(t, torch.fx.Proxy):     # a static Variable: drawn at run time
        return wrap(torch.bernoulli(t.detach()))
    return _out(_dist.bernoulli(_gen, t.detach().numpy()), _dt.from_torch_dtype(t.dtype))


@op(method=True)
def multinomial(x, num_samples=1, replacement=False, name=None):
    """Indices drawn from the categorical distributions in the rows of ``x`` (int64)."""
    t = tensor_arg(x, "multinomial")
    if _on_cuda():
        return wrap(torch.multinomial(t.detach(), num_samples, replacement))
    if t.dtype not in (torch.float32, torch.float64):
        raise TypeError(f"multinomial(): x must be float32 or float64, but received "
                        f"{_dt.from_torch_dtype(t.dtype).name}")
    if not isinstance(t, torch.Tensor):     # a static Variable: drawn when the program runs
        return wrap(_multinomial_op()(t.detach(), int(num_samples), bool(replacement)))
    return _out(_dist.multinomial(_gen, t.detach().cpu().numpy(), int(num_samples),
                                  bool(replacement)), _dt.int64)


_MULTINOMIAL_OP = []


def _multinomial_op():
    """``paddle_compat::multinomial_draw(x, num_samples, replacement)``: the CPU draw as a
    torch op, so that a static Program records it (int64, ``x``'s shape with its last
    dimension ``num_samples``) and draws each run. Registered on first use (as
    ``_poisson_op``)."""
    if _MULTINOMIAL_OP:
        return _MULTINOMIAL_OP[0]

    @torch.library.custom_op("paddle_compat::multinomial_draw", mutates_args=())
    def multinomial_draw(x: torch.Tensor, num_samples: int, replacement: bool) -> torch.Tensor:
        out = torch.from_numpy(np.ascontiguousarray(_dist.multinomial(
            _gen, x.detach().cpu().numpy(), num_samples, replacement)))
        return out.to(device=x.device, dtype=torch.int64)

    @multinomial_draw.register_fake
    def _(x, num_samples, replacement):
        return x.new_empty(list(x.shape[:-1]) + [num_samples], dtype=torch.int64)

    _MULTINOMIAL_OP.append(torch.ops.paddle_compat.multinomial_draw.default)
    return _MULTINOMIAL_OP[0]


def _poisson_cpu(rate):
    return torch.from_numpy(_dist.poisson(_gen, rate.numpy()))


_POISSON_OP = []


def _poisson_op():
    """``paddle_compat::poisson_draw(rate)``: the CPU draw as a torch op, so that a static
    Program records it (with its output's shape and dtype, the rate's) and draws each run.
    Registered on first use (registering inspects the caller's module, which must not run
    while the package is still importing)."""
    if _POISSON_OP:
        return _POISSON_OP[0]

    @torch.library.custom_op("paddle_compat::poisson_draw", mutates_args=())
    def poisson_draw(rate: torch.Tensor) -> torch.Tensor:
        return torch.poisson(rate) if rate.is_cuda else _poisson_cpu(rate.cpu())

    @poisson_draw.register_fake
    def _(rate):
        return torch.empty_like(rate)

    _POISSON_OP.append(torch.ops.paddle_compat.poisson_draw.default)
    return _POISSON_OP[0]


@op
def poisson(x, name=None):
    """Poisson draws with rates ``x`` (float32/float64), from Paddle's CPU stream (torch's
    CUDA generator on CUDA); the gradient w.r.t. ``x`` is zero, as in Paddle."""
    t = tensor_arg(x, "poisson")
    if t.dtype not in (torch.float32, torch.float64):
        raise RuntimeError(f"(NotFound) poisson(): no kernel for "
                           f"{_dt.from_torch_dtype(t.dtype).name}; x must be float32 or float64")
    if not isinstance(t, torch.Tensor):     # a static Variable: drawn when the program runs
        out = _poisson_op()(t.detach())
    elif t.is_cuda:
        out = torch.poisson(t.detach())
    else:
        out = _poisson_cpu(t.detach())
    if t.requires_grad:     # not stop_gradient, with a zero gradient (where picks ``out``)
        out = torch.where(torch.zeros_like(t, dtype=torch.bool), t, out)
    return wrap(out)


# ---------------------------------------------------------------------- in-place fills
def _fill_from(x, api, draw):
    """Overwrite x in place with ``draw(shape, dtype_name)`` (a numpy array from the CPU
    stream), or with ``draw(None, t)`` computed by torch on CUDA."""
    t = writable(x)
    d = _dt.from_torch_dtype(t.dtype)
    if not d.is_floating_point:
        raise TypeError(f"{api}(): x must be a floating point tensor, but received {d.name}")
    # a non-leaf on the autograd graph takes the values by a tracked copy: as in Paddle, what
    # was computed before gets a zero gradient through them
    track = t.requires_grad and not t.is_leaf
    dst = torch.empty_like(t) if track else t
    with torch.no_grad():
        if dst.device.type != "cpu":
            draw(None, dst)
        else:
            dst.copy_(torch.from_numpy(np.ascontiguousarray(draw(tuple(t.shape), d.name))))
    if track:
        t.copy_(dst)
    return x


@op(method=True, export=False)
def uniform_(x, min=0.0, max=1.0, seed=0, name=None):
    """Fill x with uniform values in [min, max) (Paddle's CPU stream)."""
    return _fill_from(x, "uniform_", lambda shp, dn: _dist.uniform(_gen, shp, dn, min, max, seed)
                      if shp is not None else dn.uniform_(min, max))


@op(method=True, export=False)
def normal_(x, mean=0.0, std=1.0, name=None):
    """Fill x with normal values (Paddle's CPU stream)."""
    return _fill_from(x, "normal_", lambda shp, dn: _dist.normal(_gen, shp, dn, mean, std)
                      if shp is not None else dn.normal_(mean, std))


def _exponential(shape, name, lam):
    # Paddle's CPU kernel: u = canonical(T), out = (T(-1) / T(lam)) * log(T(1) - u) (glibc log)
    shape, n = _dist._numel(shape)
    ctype = np.float64 if name == "float64" else np.float32
    u = _dist.canonical(_gen.random_raw(n), ctype)
    lg = _dist.glibc_log(1.0 - u) if ctype is np.float64 else _dist.glibc_logf(ctype(1) - u)
    return (ctype(-1.0) / ctype(np.float32(lam)) * lg).astype(ctype).reshape(shape)


def _exponential_draw(t, lam):
    """A new tensor of ``t``'s shape and dtype holding exponential values of rate ``lam``."""
    if t.device.type != "cpu":
        return torch.empty_like(t.detach()).exponential_(lam)
    d = _dt.from_torch_dtype(t.dtype).name
    return torch.from_numpy(np.ascontiguousarray(_exponential(tuple(t.shape), d, lam)))


def exponential_like(x, lam=1.0):
    """Paddle's ``exponential`` op (not in place): values of x's shape and dtype; for a static
    Variable drawn each time the program runs."""
    t = tensor_arg(x, "exponential")
    if isinstance(t, torch.fx.Proxy):
        return wrap(t.record_like(_exponential_draw, (t.detach(), lam)))
    return wrap(_exponential_draw(t.detach(), lam))


@op(method=True, export=False)
def exponential_(x, lam=1.0, name=None):
    """Fill x with exponential values of rate ``lam`` (Paddle's CPU stream)."""
    return _fill_from(x, "exponential_", lambda shp, dn: _exponential(shp, dn, lam)
                      if shp is not None else dn.exponential_(lam))


@op(method=True)
def log_normal_(x, mean=1.0, std=2.0, name=None):
    """Fill x with exp of normal values (``normal_`` then ``exp_``, as Paddle)."""
    normal_(x, mean, std)
    with torch.no_grad():
        x._t.exp_()
    return x


@op
def log_normal(mean=1.0, std=2.0, shape=None, name=None):
    """exp of ``normal(mean, std, shape)``."""
    return wrap(torch.exp(normal(mean, std, shape)._t))


@op(method=True, export=False)
def geometric_(x, probs, name=None):
    """Fill x with geometric values: log(u) / log1p(-probs) for u uniform in [tiny, 1), as
    Paddle computes them (real-valued, not rounded)."""
    t = writable(x)
    tiny = float(torch.finfo(t.dtype).tiny)
    uniform_(x, tiny, 1.0)
    # Paddle makes a default-dtype tensor of a Python probs, then casts it to x's dtype
    p = probs._t if isinstance(probs, Tensor) else torch.tensor(float(np.float32(probs)))
    p = p.to(t.dtype)
    with torch.no_grad():
        t.log_().div_(torch.log1p(-p))
    return x


@op(method=True, export=False)
def cauchy_(x, loc=0, scale=1, name=None):
    """Fill x with tan(pi * (z - 0.5)) * scale + loc where z comes from ``normal_`` (Paddle
    3.3.1 draws z from a normal, not a uniform; we keep its values)."""
    normal_(x)
    t = x._t
    with torch.no_grad():
        # loc goes through a default-dtype tensor (a float is rounded to float32)
        t.sub_(0.5).mul_(np.pi).tan_().mul_(float(scale)).add_(
            float(np.float32(loc)) if isinstance(loc, float) else loc)
    return x


@op(method=True, export=False)
def bernoulli_(x, p=0.5, name=None):
    """Fill x with 1 where a uniform draw is below ``p``, 0 where above (Paddle's rule)."""
    uniform_(x, 0.0, 1.0)
    t = x._t
    pt = p._t if isinstance(p, Tensor) else p
    with torch.no_grad():
        t.copy_(torch.where(t < pt, 1.0, torch.where(t > pt, 0.0, t)))
    return x


@op
def standard_gamma(x, name=None):
    """Gamma(alpha=x, 1) draws, from Paddle's CPU stream (``random.distributions``; torch's
    CUDA generator on CUDA)."""
    t = tensor_arg(x, "standard_gamma")
    if t.dtype not in (torch.float32, torch.float64):
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                           f"{_dt.from_torch_dtype(t.dtype).name}) of kernel `standard_gamma` is "
                           "not registered.")
    if t.is_cuda:
        return wrap(torch._standard_gamma(t.detach()))
    return wrap(torch.from_numpy(_dist.standard_gamma(_gen, t.detach().numpy())))


@op
def binomial(count, prob, name=None):
    """Binomial(count, prob) draws as int64 (broadcast; torch's generator)."""
    n = tensor_arg(count, "binomial", "count")
    p = tensor_arg(prob, "binomial", "prob", 1)
    if p.dtype not in (torch.float32, torch.float64):
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                           f"{_dt.from_torch_dtype(p.dtype).name}) of kernel `binomial` is not "
                           "registered.")
    n, p = torch.broadcast_tensors(n.to(p.dtype), p.detach())
    return wrap(torch.binomial(n, p).to(torch.int64))


@op(method=True, export=False)
def random_(x, from_=0, to=None, *, generator=None):
    """Fill x in place with integers drawn uniformly from [from_, to) (by default [0, 2**mantissa]
    for floating x, [0, the dtype's max] for integer x; ``random_(n)`` draws from [0, n))."""
    t = tensor_arg(x, "random_")
    if generator is not None:
        raise NotImplementedError("Tensor.random_: argument 'generator' is not supported")
    if to is None:
        if from_ == 0:
            if t.is_floating_point():
                to = 2 ** {torch.float32: 24, torch.float64: 53, torch.float16: 11}.get(t.dtype, 8)
            else:
                to = torch.iinfo(t.dtype).max
        else:
            from_, to = 0, from_
    if from_ >= to:
        raise ValueError(f"random_ expects 'from' to be less than 'to', but got from={from_} "
                         f">= to={to}")
    if t.dtype not in _RANDOM_DTYPES:
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), "
                           f"{_dt.from_torch_dtype(t.dtype).name}) of kernel `random` is not "
                           "registered.")
    writable(x)
    if t.is_cuda:
        r = torch.randint(from_, to, tuple(t.shape), dtype=torch.int64, device=t.device)
    else:
        r = torch.from_numpy(_random_from_to(_gen.random_raw(t.numel()), from_, to))
    with torch.no_grad():
        t.copy_(r.reshape(t.shape))
    return x


_RANDOM_DTYPES = (torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int32,
                  torch.int64)


def _random_from_to(raw, from_, to):
    """Paddle's CPU ``random_``: one 64-bit word per element, ``from_ + word % (to - from_)``,
    the word first cut to its low 32 bits when the range is below 2**28 (measured on Paddle
    3.3.1: spans up to 2**28 - 1 take the low word, from 2**28 + 1 the whole one)."""
    span = to - from_
    if span < 2 ** 28:
        v = (raw & np.uint64(0xFFFFFFFF)) % np.uint64(span)
    else:
        v = raw % np.uint64(span % 2 ** 64)
    return (v + np.uint64(from_ % 2 ** 64)).view(np.int64)



# ---------------------------------------------------------------------- top-p sampling
@op(method=True)
def top_p_sampling(x, ps, threshold=None, topp_seed=None, seed=-1, k=0, mode="truncated",
                   return_top=False, name=None):
    """Nucleus sampling over the rows of ``x`` (2-D scores, read as probabilities): the
    highest scores whose cumulative sum before them is below the row's ``ps`` are kept (the
    top one always; with ``threshold``, scores below the row's threshold are dropped), one is
    drawn in proportion to its score. Returns ``(scores [B, 1], ids [B, 1] int64)``, and with
    ``return_top`` also the ``k`` highest ``(scores, ids)``. Paddle 3.3.1 has a GPU kernel
    only; here the uniform draws come from Paddle's CPU stream, or from a private stream of
    ``seed`` (``topp_seed``: one per row) when given, so the picks follow the same rule but
    not the GPU's random numbers. ``mode="non-truncated"`` draws from the whole row."""
    t = tensor_arg(x, "top_p_sampling")
    p = tensor_arg(ps, "top_p_sampling", "ps", 1)
    if t.dim() != 2:
        raise ValueError(f"(InvalidArgument) top_p_sampling: x must be 2-D, got {t.dim()}-D")
    if mode not in ("truncated", "non-truncated"):
        raise ValueError(f"top_p_sampling: mode must be 'truncated' or 'non-truncated', got "
                         f"{mode!r}")
    rows = t.shape[0]
    s, idx = torch.sort(t.detach().float(), dim=1, descending=True)
    keep = torch.ones_like(s, dtype=torch.bool)
    if mode == "truncated":
        before = torch.cumsum(s, 1) - s
        keep = before < p.detach().float().reshape(-1, 1)
    if threshold is not None:
        keep = keep & (s >= threshold._t.detach().float().reshape(-1, 1))
    keep[:, 0] = True
    w = torch.where(keep, s.clamp_min(0), torch.zeros_like(s)).double()
    if topp_seed is not None:
        seeds = [int(v) for v in topp_seed._t.reshape(-1).tolist()]
        u = np.array([_dist._canonicals(_dist._private_engine(sd, "top_p_sampling"), 1,
                                        np.float64)[0] for sd in seeds])
    elif seed != -1:
        u = _dist._canonicals(_dist._private_engine(seed, "top_p_sampling"), rows, np.float64)
    else:
        u = _dist._canonicals(_gen, rows, np.float64)
    cdf = torch.cumsum(w, 1)
    total = cdf[:, -1:]
    target = torch.from_numpy(np.asarray(u, dtype=np.float64)).to(w.device).reshape(-1, 1)
    pick = torch.searchsorted(cdf, target * total, right=True).clamp_max(t.shape[1] - 1)
    pick = torch.where(total > 0, pick, torch.zeros_like(pick))
    out = (wrap(torch.gather(t.detach(), 1, torch.gather(idx, 1, pick))),
           wrap(torch.gather(idx, 1, pick)))
    if return_top:
        kk = max(int(k), 1)
        top_v, top_i = torch.topk(t.detach(), kk, dim=1)
        out = out + (wrap(top_v), wrap(top_i))
    return out
