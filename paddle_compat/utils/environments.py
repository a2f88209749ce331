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
    """A boolean variable: ``1``, ``true``, ``on`` (any case) read as True."""

    def __init__(self, name, default):
        if not isinstance(default, bool):
            raise TypeError(f"the default of {name} must be a bool, got {type(default).__name__}")
        super().__init__(name, default)

    def parse_from_string(self):
        return os.environ[self.name].strip().lower() in ("1", "true", "on")

    def convert_to_string(self, value):
        if not isinstance(value, bool):
            raise TypeError(f"{self.name} takes a bool, got {type(value).__name__}")
        return "True" if value else "False"

    def __bool__(self):
        return self.get()


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
    """Set ``variable`` to ``value`` for a ``with`` block; the previous state (set or not) is
    restored afterwards."""

    def __init__(self, variable, value):
        self.variable = variable
        self.value = value

    def __enter__(self):
        self._had = self.variable.name in os.environ
        self._old = os.environ.get(self.variable.name)
        self.variable.set(self.value)
        return self

    def __exit__(self, *exc):
        if self._had:
            os.environ[self.variable.name] = self._old
        else:
            self.variable.delete()
        return False
