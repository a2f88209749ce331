"""``paddle.base.executor``: the static-program executor and the variable scopes, as
``paddle.static`` has them."""
from ....static import Executor, global_scope, scope_guard
from ....static.executor import Scope

__all__ = ["Executor", "global_scope", "scope_guard", "Scope"]
