"""``paddle.framework.random``: the seeding helpers Paddle's tests call."""
from ...framework.mode import in_dynamic_mode  # noqa: F401  (Paddle's module has it too)
from ...framework.mode import use_pir_api
from ...ops.random import seed
from ...static import default_main_program, default_startup_program
from ...static.program import legacy_program_seed

__all__ = ["seed", "_manual_program_seed"]


def _manual_program_seed(seed_value):
    """Seed the global generator and the default main and startup programs (their
    ``random_seed``), as Paddle's tests do before building a static model. Inside
    ``OldIrGuard`` it seeds Paddle's legacy programs, whose seed dygraph initializers use."""
    seed(seed_value)
    default_main_program().random_seed = seed_value
    default_startup_program().random_seed = seed_value
    if not use_pir_api():
        legacy_program_seed(seed_value)
