"""``paddle.utils.environments``: typed views of environment variables (Paddle's test helpers
read and switch flags such as ``FLAGS_enable_pir_in_executor`` through them)."""
import os

__all__ = ["EnvironmentVariable", "StringEnvironmentVariable", "BooleanEnvironmentVariable",
           "IntegerEnvironmentVariable", "StringListEnvironmentVariable",
           "EnvironmentVariableGuard"]


class EnvironmentVariable:
    """The variable ``name`` read as a typed value, ``default`` when it is not set."""

    def __init__(self, name, default):
        self.name = name
        self.default = default

    def get(self):
        if self.name not in os.environ:
            return self.default
        return self.parse_from_string()

    def set(self, value):
        os.environ[self.name] = self.convert_to_string(value)

    def delete(self):
        os.environ.pop(self.name, None)

    def parse_from_string(self):
        raise NotImplementedError(f"{type(self).__name__} does not say how to parse its value")

    def convert_to_string(self, value):
        raise NotImplementedError(f"{type(self).__name__} does not say how to write its value")

    def __repr__(self):
        return f"Env({self.name}={self.get()!r})"


class StringEnvironmentVariable(EnvironmentVariable):
    """A string variable."""

    def __init__(self, name, default):
        if not isinstance(default, str):
            raise TypeError(f"the default of {name} must be a str, got {type(default).__name__}")
        super().__init__(name, default)

    def parse_from_string(self):
        return os.environ[self.name]

    def convert_to_string(self, value):
        if not isinstance(value, str):
            raise TypeError(f"{self.name} takes a str, got {type(value).__name__}")
        return value


class BooleanEnvironmentVariable(EnvironmentVariable):
    """A boolean variable: any value but ``0``, ``false``, ``off`` (any case) reads as True.
    Its truth is ``get()``: ``bool(variable)`` is refused (ValueError), as in Paddle, so that a
    forgotten ``.get()`` does not read every variable as set."""

    def __init__(self, name, default):
        assert isinstance(default, bool), f"default must be a boolean, got {default!r}"
        super().__init__(name, default)

    def parse_from_string(self):
        return os.environ[self.name].strip().lower() not in ("0", "false", "off")

    def convert_to_string(self, value):
        assert isinstance(value, bool), f"value must be a boolean, got {value!r}"
        return "true" if value else "false"

    def __bool__(self):
        raise ValueError("BooleanEnvironmentVariable does not support bool(), please use get() "
                         "instead.")


class IntegerEnvironmentVariable(EnvironmentVariable):
    """An integer variable; a value that is not an integer reads as the default."""

    def __init__(self, name, default):
        if isinstance(default, bool) or not isinstance(default, int):
            raise TypeError(f"the default of {name} must be an int, got {type(default).__name__}")
        super().__init__(name, default)

    def parse_from_string(self):
        try:
            return int(os.environ[self.name])
        except ValueError:
            return self.default

    def convert_to_string(self, value):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{self.name} takes an int, got {type(value).__name__}")
        return str(value)


class StringListEnvironmentVariable(EnvironmentVariable):
    """A comma-separated list of strings."""

    def parse_from_string(self):
        return [s for s in os.environ[self.name].split(",") if s]

    def convert_to_string(self, value):
        return ",".join(value)


class EnvironmentVariableGuard:
    """Set ``variable`` to ``value`` for a ``with`` block; afterwards it is set to the value it
    read before (its default when it was unset: the variable stays in the environment, as
    Paddle leaves it)."""

    def __init__(self, variable, value):
        self.variable = variable
        self.value = value

    def __enter__(self):
        self._old = self.variable.get()
        self.variable.set(self.value)
        return self

    def __exit__(self, *exc):
        self.variable.set(self._old)
        return False
