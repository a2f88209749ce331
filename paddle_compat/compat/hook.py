"""The import hook: ``import paddle`` (and every ``paddle.xxx``) resolves to paddle_compat.

``install()`` puts one finder at the front of ``sys.meta_path`` and registers
``sys.modules["paddle"] = paddle_compat``. Module objects are shared, not copied or proxied:
``paddle.nn.functional is paddle_compat.nn.functional``, so attribute access is exactly as fast
as through ``import paddle_compat``. Names map ``paddle.X.Y -> paddle_compat.X.Y`` except for
the few in ``ALIASES`` (``paddle.base`` is a small shim);
anything else raises ``UnsupportedModuleError`` naming it. Every paddle_compat module gets a
PEP 562 ``__getattr__`` (called only when normal lookup fails) that imports submodules lazily,
serves the names Paddle also exposes there (``paddle.framework.in_dynamic_mode`` ...) and
otherwise raises ``UnsupportedAPIError``.

``uninstall()`` undoes all of it. Without ``install()`` nothing changes: a real Paddle stays
importable as ``paddle``.
"""
import importlib
import importlib.abc
import importlib.util
import os
import sys
import threading

from ..framework import hooks, submodules
from .missing import UnsupportedModuleError, import_target, make_module_getattr

__all__ = ["install", "uninstall", "is_installed", "ALIASES", "EXTRAS", "paddle_name_of"]

ROOT = "paddle_compat"

#: paddle name prefix -> paddle_compat module name (the longest prefix wins; the rest of the
#: dotted name is appended).
ALIASES = {
    "paddle": ROOT,
    "paddle.base": ROOT + ".compat.shims.base",
    "paddle.core": ROOT + ".compat.shims.base.core",
    "paddle._C_ops": ROOT + ".compat.shims.c_ops",
    "paddle.common_ops_import": ROOT + ".compat.shims.common_ops_import",
    "paddle._legacy_C_ops": ROOT + ".compat.shims.legacy_c_ops",
    "paddle.dataset": ROOT + ".compat.shims.dataset",
    "paddle.reader": ROOT + ".io.reader_decorators",
    "paddle.static.quantization": ROOT + ".compat.shims.static_quantization",
    # Paddle modules whose contents are one module of ours under another path
    "paddle.nn.decode": ROOT + ".nn.layer.decode",
    "paddle.nn.quant.format": ROOT + ".quantization.format",
    "paddle.base.dygraph.base": ROOT + ".compat.shims.base.dygraph",
    "paddle.base.data_feeder": ROOT + ".framework.data_feeder",
    # internals of Paddle's PIR and OpTest harness (compat/shims/*: what they mean here)
    "paddle.autograd.ir_backward": ROOT + ".compat.shims.autograd_ir",
    "paddle.autograd.backward_utils": ROOT + ".compat.shims.autograd_ir",
    "paddle.pir": ROOT + ".compat.shims.pir",
    "paddle.decomposition": ROOT + ".compat.shims.decomposition",
    "paddle.jit.dy2static": ROOT + ".compat.shims.dy2static",
    "paddle.incubate.autograd.primapi": ROOT + ".compat.shims.primapi",
    "paddle.base.layer_helper": ROOT + ".compat.shims.common_ops_import",
    "paddle.distributed.fleet.meta_parallel.parallel_layers":
        ROOT + ".distributed.fleet.meta_parallel",
    "paddle.distributed.communication.stream": ROOT + ".distributed.stream",
    "paddle.distributed.fleet.base.topology": ROOT + ".distributed.fleet.topology",
    "paddle.distributed.fleet.base.role_maker": ROOT + ".distributed.fleet.role_maker",
    "paddle.distributed.fleet.base.distributed_strategy": ROOT + ".distributed.fleet.strategy",
    "paddle.distributed.fleet.layers.mpu.mp_layers":
        ROOT + ".distributed.fleet.meta_parallel.mp_layers",
    "paddle.distributed.fleet.layers.mpu.mp_ops": ROOT + ".distributed.fleet.meta_parallel.mp_ops",
    "paddle.distributed.fleet.layers.mpu.random": ROOT + ".distributed.fleet.meta_parallel.random",
    "paddle.incubate.nn.layer.fused_dropout_add": ROOT + ".incubate.nn.layers",
    "paddle.incubate.nn.layer.fused_linear": ROOT + ".incubate.nn.layers",
    "paddle.incubate.nn.layer.fused_dropout_nd": ROOT + ".incubate.nn.fused_dropout",
    "paddle.utils.cpp_extension.cpp_extension": ROOT + ".utils.cpp_extension.build",
    # Paddle's one-module-per-distribution layout onto ours (kl and transform keep their names)
    "paddle.distribution.bernoulli": ROOT + ".distribution.discrete",
    "paddle.distribution.binomial": ROOT + ".distribution.discrete",
    "paddle.distribution.categorical": ROOT + ".distribution.discrete",
    "paddle.distribution.geometric": ROOT + ".distribution.discrete",
    "paddle.distribution.multinomial": ROOT + ".distribution.discrete",
    "paddle.distribution.poisson": ROOT + ".distribution.discrete",
    "paddle.distribution.beta": ROOT + ".distribution.continuous",
    "paddle.distribution.cauchy": ROOT + ".distribution.continuous",
    "paddle.distribution.chi2": ROOT + ".distribution.continuous",
    "paddle.distribution.continuous_bernoulli": ROOT + ".distribution.continuous",
    "paddle.distribution.dirichlet": ROOT + ".distribution.continuous",
    "paddle.distribution.exponential": ROOT + ".distribution.continuous",
    "paddle.distribution.gamma": ROOT + ".distribution.continuous",
    "paddle.distribution.laplace": ROOT + ".distribution.continuous",
    "paddle.distribution.normal": ROOT + ".distribution.continuous",
    "paddle.distribution.student_t": ROOT + ".distribution.continuous",
    "paddle.distribution.uniform": ROOT + ".distribution.continuous",
    "paddle.distribution.distribution": ROOT + ".distribution.distribution",
    "paddle.distribution.exponential_family": ROOT + ".distribution.distribution",
    "paddle.distribution.gumbel": ROOT + ".distribution.transformed",
    "paddle.distribution.independent": ROOT + ".distribution.transformed",
    "paddle.distribution.lognormal": ROOT + ".distribution.transformed",
    "paddle.distribution.transformed_distribution": ROOT + ".distribution.transformed",
    "paddle.distribution.lkj_cholesky": ROOT + ".distribution.multivariate",
    "paddle.distribution.multivariate_normal": ROOT + ".distribution.multivariate",
    # paddle.static.nn is a package in Paddle; ours is one module (static/nn.py) plus the
    # block form of static_pylayer
    "paddle.static.nn.static_pylayer": ROOT + ".static.pylayer_block",
    "paddle.static.nn.common": ROOT + ".static.nn",
    "paddle.static.nn.control_flow": ROOT + ".static.nn",
}

#: Paddle names that must not map onto a paddle_compat module of the same name (ours are
#: internals, Paddle's are different things), and names Paddle itself no longer has.
BLOCKED = {
    "paddle.run_examples": None,
    "paddle.ops": None,
    "paddle.__main__": None,
    "paddle.fluid": ("paddle.fluid was removed in Paddle 2.6; paddle_compat follows Paddle "
                     "3.3.1, where it does not exist: use paddle.base or the paddle.* APIs"),
}

#: Names Paddle exposes in a module where paddle_compat defines them elsewhere:
#: paddle module -> {attribute: "paddle_compat.module[:attribute]"}. Looked up only after normal
#: attribute lookup failed.
EXTRAS = {
    "paddle": {
        "_C_ops": ROOT + ".compat.shims.c_ops",
        "_legacy_C_ops": ROOT + ".compat.shims.legacy_c_ops",
        "__git_commit__": ROOT + ".version:commit",
    },
    "paddle.distributed.collective": {
        k: ROOT + f".distributed.fleet.meta_parallel.mp_ops:{k}"
        for k in ("_c_identity", "_c_concat", "_c_split", "_mp_allreduce", "_c_lookup_table")
    },
    "paddle.nn": {
        # an attribute only: ``import paddle.nn.loss`` fails in Paddle too
        "loss": ROOT + ".nn.layer.loss",
    },
    "paddle.incubate.autograd": {
        "primapi": ROOT + ".compat.shims.primapi",
    },
    "paddle.base.data_feeder": {
        "DataFeeder": ROOT + ".static.feeder:DataFeeder",
    },
    "paddle.framework": {
        "core": ROOT + ".compat.shims.base.core",
        "in_dynamic_mode": ROOT + ".static.mode:in_dynamic_mode",
        "in_dygraph_mode": ROOT + ".static.mode:in_dynamic_mode",
        "in_pir_mode": ROOT + ".framework.mode:in_pir_mode",
        "use_pir_api": ROOT + ".framework.mode:use_pir_api",
        "random": ROOT + ".compat.shims.framework_random",
        "enable_static": ROOT + ".static.mode:enable_static",
        "disable_static": ROOT + ".static.mode:disable_static",
        "no_grad": ROOT + ".autograd:no_grad",
        "grad": ROOT + ".autograd:grad",
        "ParamAttr": ROOT + ".framework.param_attr:ParamAttr",
        "Parameter": ROOT + ".framework.parameter:Parameter",
        "Program": ROOT + ".static:Program",
        "Block": ROOT + ".static:Block",
        "CPUPlace": ROOT + ".framework.place:CPUPlace",
        "CUDAPlace": ROOT + ".framework.place:CUDAPlace",
        "CUDAPinnedPlace": ROOT + ".framework.place:CUDAPinnedPlace",
        "get_default_dtype": ROOT + ".framework.dtype:get_default_dtype",
        "set_default_dtype": ROOT + ".framework.dtype:set_default_dtype",
        "seed": ROOT + ":seed",
        "set_flags": ROOT + ".framework.flags:set_flags",
        "get_flags": ROOT + ".framework.flags:get_flags",
        "save": ROOT + ":save",
        "load": ROOT + ":load",
        "LayerHelper": ROOT + ".compat.shims.common_ops_import:LayerHelper",
        "dygraph_only": ROOT + ".compat.shims.base.framework:dygraph_only",
        "_current_expected_place": ROOT + ".compat.shims.base.framework:_current_expected_place",
        "_current_expected_place_":
            ROOT + ".compat.shims.base.framework:_current_expected_place_",
        "_dygraph_tracer": ROOT + ".compat.shims.base.framework:_dygraph_tracer",
        "in_dynamic_or_pir_mode": ROOT + ".compat.shims.base.framework:in_dynamic_or_pir_mode",
        "_no_check_dy2st_diff": ROOT + ".compat.shims.base.framework:_no_check_dy2st_diff",
        "IrGraph": ROOT + ".compat.shims.static_quantization:IrGraph",
    },
    "paddle.static": {
        "quantization": ROOT + ".compat.shims.static_quantization",
    },
}

#: Paddle modules that paddle_compat has no module for, where a script imports them by name:
#: paddle name -> the paddle_compat module whose names it reads. Several share their name with
#: the function their package exports (``paddle.nn.utils.clip_grad_norm_``): install() puts
#: them into sys.modules, so that importing one never replaces that function on the package.
FACADES = {
    "paddle.nn.utils.clip_grad_norm_": ROOT + ".nn.utils",
    "paddle.nn.utils.clip_grad_value_": ROOT + ".nn.utils",
    "paddle.nn.utils.weight_norm_hook": ROOT + ".nn.utils",
    "paddle.nn.utils.spectral_norm_hook": ROOT + ".nn.utils",
    "paddle.nn.utils.transform_parameters": ROOT + ".nn.utils",
    "paddle.nn.functional.input": ROOT + ".nn.functional",
    "paddle.nn.initializer.lazy_init": ROOT + ".nn.lazy_init",
    "paddle.nn.initializer.constant": ROOT + ".nn.initializer",
}

_lock = threading.RLock()
_state = {"finder": None, "getattrs": {}, "added_attrs": [], "aliased": set()}


def paddle_name_of(module_name):
    """The Paddle name a paddle_compat module is seen under (for error messages)."""
    best = None
    for pname, target in ALIASES.items():
        if module_name == target or module_name.startswith(target + "."):
            if best is None or len(target) > len(ALIASES[best]):
                best = pname
    if best is None:
        return module_name
    return best + module_name[len(ALIASES[best]):]


def _facade(paddle_name, target):
    """A module named ``paddle_name`` whose attributes are those of the paddle_compat module
    ``target`` (imported on the first read)."""
    mod = type(sys)(paddle_name, f"{paddle_name}: its names are those of {paddle_name_of(target)}"
                                 " (paddle_compat keeps them there).")

    def getattr_(name):
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return getattr(importlib.import_module(target), name)
        except AttributeError:
            raise AttributeError(f"module '{paddle_name}' has no attribute '{name}'") from None
    mod.__getattr__ = getattr_
    return mod


def _target_of(fullname):
    """paddle name -> paddle_compat module name; raises UnsupportedModuleError."""
    parts = fullname.split(".")
    for i in range(len(parts), 0, -1):
        prefix = ".".join(parts[:i])
        if prefix in BLOCKED:
            hint = BLOCKED[prefix]
            if hint:
                raise UnsupportedModuleError(fullname, message=f"No module named {fullname!r}: "
                                                               f"{hint}")
            raise UnsupportedModuleError(fullname)
    for i in range(len(parts), 0, -1):
        prefix = ".".join(parts[:i])
        if prefix in ALIASES:
            return ".".join([ALIASES[prefix]] + parts[i:])
    raise UnsupportedModuleError(fullname)


def _exists(module_name):
    """Whether paddle_compat has the module ``module_name``. Only "no such module" answers
    False: an ImportError raised while running one of our packages on the way (a dependency
    missing, a bug) propagates with its cause, never read as "not supported yet"."""
    if module_name in sys.modules:
        return True
    try:
        return importlib.util.find_spec(module_name) is not None
    except ModuleNotFoundError as e:
        if e.name and (module_name == e.name or module_name.startswith(e.name + ".")):
            return False
        raise
    except ValueError:
        return False


class _AliasLoader(importlib.abc.Loader):
    """Hands the import system the already-imported paddle_compat module."""

    def __init__(self, target, alias_name):
        self.target = target
        self._alias_name = alias_name
        self.real_spec = None

    def create_module(self, spec):
        module = importlib.import_module(self.target)
        self.real_spec = getattr(module, "__spec__", None)
        if isinstance(module, importlib.util._LazyModule) and self.real_spec is not None:
            # a lazily bound namespace still running its own code (it imports the alias
            # itself): until exec_module puts the real spec back, the import system's alias
            # spec is the module's, and Python >= 3.12.3 reads the lazy load's lock and state
            # from ``__spec__.loader_state`` on every attribute access
            spec.loader_state = self.real_spec.loader_state
        return module

    def exec_module(self, module):
        # the import system stamped our alias spec on the shared module: put the real one back
        if self.real_spec is not None:
            module.__spec__ = self.real_spec
        name = self._alias_name
        parent, _, child = name.rpartition(".")
        if parent and parent in sys.modules:
            # Python sets parent.child after this returns: a function of that name stays
            # (paddle.amp.auto_cast); a new attribute is remembered for uninstall()
            if child in vars(sys.modules[parent]):
                submodules.keep_bound(sys.modules[parent], child)
            else:
                _state["added_attrs"].append((sys.modules[parent], child))
        _state["aliased"].add(name)
        _attach_getattrs()


class PaddleFinder(importlib.abc.MetaPathFinder):
    """Resolves ``paddle`` and ``paddle.*`` to paddle_compat modules (see ``ALIASES``)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "paddle" and not fullname.startswith("paddle."):
            return None
        real = _target_of(fullname)
        if not _exists(real):
            raise UnsupportedModuleError(fullname)
        loader = _AliasLoader(real, fullname)
        # reading __path__ runs a lazily bound namespace: an error there (an AttributeError
        # included) propagates instead of making the namespace look like a plain module
        is_pkg = "__path__" in importlib.import_module(real).__dict__
        return importlib.util.spec_from_loader(fullname, loader, is_package=is_pkg)


def _resolve(paddle_name, attr):
    """Module ``__getattr__`` fallback: EXTRAS, then a (lazily imported) submodule."""
    extra = EXTRAS.get(paddle_name, {}).get(attr)
    if extra is not None:
        try:
            return import_target(extra)
        except (ImportError, AttributeError):
            raise LookupError(attr) from None
    full = f"{paddle_name}.{attr}"
    if full in FACADES and full in sys.modules:
        return sys.modules[full]        # a facade module, as Paddle's package binds it
    try:
        real = _target_of(full)
    except UnsupportedModuleError as e:
        raise LookupError(BLOCKED.get(full)) from e
    if not _exists(real):
        raise LookupError(attr)
    return importlib.import_module(full)


def _attach_getattrs():
    """Give every loaded paddle_compat module its missing-API ``__getattr__`` (idempotent)."""
    with _lock:
        done = _state["getattrs"]
        for name, mod in list(sys.modules.items()):
            if mod is None or not (name == ROOT or name.startswith(ROOT + ".")):
                continue
            if name.startswith(ROOT + ".compat") and not name.startswith(ROOT + ".compat.shims"):
                continue
            if isinstance(mod, importlib.util._LazyModule):
                continue            # a lazily bound namespace not run yet: done when it runs
            d = getattr(mod, "__dict__", None)
            if d is None:
                continue
            prev = d.get("__getattr__")
            if getattr(prev, "_paddle_compat_missing", False):
                continue
            if prev is None and name in done:
                # attached while the namespace's lazy load was still running, which then
                # dropped it (the first access being ``import paddle.nn.x``): attach again,
                # around the module's own ``__getattr__`` (defined since, or recorded the
                # first time); not skipped by `name in done`
                prev = done[name][1]
            pname = paddle_name_of(name)
            mod.__getattr__ = make_module_getattr(
                mod, pname, _resolve, prev,
                private=tuple(k for k in EXTRAS.get(pname, ()) if k[:1] == "_"))
            done[name] = (mod, prev)


def is_installed():
    return _state["finder"] is not None


def install():
    """Make ``import paddle`` (and ``paddle.xxx``) give paddle_compat in this process.

    Idempotent; returns the paddle_compat module. Undo with ``uninstall()``.
    """
    with _lock:
        if _state["finder"] is None:
            finder = PaddleFinder()
            sys.meta_path.insert(0, finder)
            _state["finder"] = finder
            hooks.starting_children.add(propagate_to_children)
            hooks.namespace_loaded.add(_attach_getattrs)
            _state["saved_paddle"] = {k: v for k, v in sys.modules.items()
                                      if k == "paddle" or k.startswith("paddle.")}
            for k in _state["saved_paddle"]:
                del sys.modules[k]
        root = importlib.import_module("paddle")
        for name, target in FACADES.items():
            if name not in sys.modules:
                sys.modules[name] = _facade(name, target)
                _state["aliased"].add(name)
        _attach_getattrs()
        return root


def uninstall():
    """Undo ``install()``: ``import paddle`` finds whatever it found before."""
    with _lock:
        finder = _state["finder"]
        if finder is None:
            return
        if finder in sys.meta_path:
            sys.meta_path.remove(finder)
        _state["finder"] = None
        for listeners, fn in ((hooks.starting_children, propagate_to_children),
                              (hooks.namespace_loaded, _attach_getattrs)):
            if fn in listeners:
                listeners.remove(fn)
        for k in list(sys.modules):
            if k == "paddle" or k.startswith("paddle."):
                if k in _state["aliased"] or getattr(sys.modules[k], "__name__", "").startswith(
                        ROOT):
                    del sys.modules[k]
        sys.modules.update(_state.pop("saved_paddle", {}))
        for mod, child in _state["added_attrs"]:
            bound = mod.__dict__.get(child)
            # a genuine submodule (paddle_compat.nn.functional on paddle_compat.nn), first
            # imported through its alias, stays: the real import binds it there too
            if getattr(bound, "__name__", None) != f"{mod.__name__}.{child}":
                mod.__dict__.pop(child, None)
        _state["added_attrs"] = []
        for name, (mod, prev) in _state["getattrs"].items():
            if prev is None:
                mod.__dict__.pop("__getattr__", None)
            else:
                mod.__getattr__ = prev
        _state["getattrs"] = {}
        _state["aliased"] = set()
        importlib.invalidate_caches()


def bootstrap_dir():
    """A directory whose ``paddle`` package installs the hook: put it on a child process's
    ``PYTHONPATH`` (and on ``sys.path``, which multiprocessing's spawn copies) so that child
    Pythons (``multiprocessing`` spawn workers re-importing ``__main__``) see paddle_compat."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bootstrap")


def propagate_to_children():
    """Child Python processes of this one import paddle_compat as ``paddle`` too."""
    d = bootstrap_dir()
    if d not in sys.path:
        # after the script's directory (sys.path[0]), before site-packages' real paddle
        sys.path.insert(1 if sys.path else 0, d)
    pp = os.environ.get("PYTHONPATH", "")
    parts = [p for p in pp.split(os.pathsep) if p]
    if d not in parts:
        os.environ["PYTHONPATH"] = os.pathsep.join([d] + parts)
