"""The console progress bar of ``paddle.Model`` (``ProgBarLogger`` drives it).

``verbose=1`` redraws one line per epoch in place (backspaces and a carriage return, as Paddle
does on every POSIX system, terminal or not)::

    step 3/5 [=================>............] - loss: 0.8029 - acc: 0.5000 - ETA: 0s - 2ms/step

``verbose=2`` (and 3) prints one line per logged step, without the bar and the ETA.
"""
import os
import shutil
import sys
import time

import numpy as np

__all__ = []


def _format_value(v):
    if isinstance(v, (float, np.float32, np.float64)):
        return f" {v:.4f}" if abs(v) > 0.001 else f" {v:.4e}"
    return f" {v}"


def _speed(per_unit, unit):
    if per_unit >= 1 or per_unit == 0:
        return f" - {per_unit:.0f}s/{unit}"
    if per_unit >= 0.001:
        return f" - {per_unit * 1e3:.0f}ms/{unit}"
    return f" - {per_unit * 1e6:.0f}us/{unit}"


def _eta(seconds):
    seconds = int(seconds)
    if seconds > 3600:
        return f"{seconds // 3600}:{seconds % 3600 // 60:02}:{seconds % 60:02}"
    if seconds > 60:
        return f"{seconds // 60}:{seconds % 60:02}"
    return f"{seconds}s"


class ProgressBar:
    """A progress display over ``num`` steps (``None``: unknown length).

    ``update(current, values)`` shows step ``current`` with ``values``, a list of
    ``(name, value or list of values)``; floats print with 4 decimals (``%.4e`` at or below
    1e-3). Output goes to ``sys.stdout``, as in Paddle.
    """

    def __init__(self, num=None, width=30, verbose=1, start=True, file=sys.stdout, name="step"):
        if isinstance(num, int) and num <= 0:
            raise TypeError("num should be None or integer (> 0)")
        self._num = num
        columns = shutil.get_terminal_size().columns
        columns = columns if columns > 0 else 80
        self._width = min(width, min(int(columns * 0.6), columns - 50))
        self._total_width = 0
        self._verbose = verbose
        self.file = file
        self._values = {}
        self._values_order = []
        if start:
            self._start = time.time()
        self._last_update = 0
        self.name = name
        self._dynamic_display = True if os.name == "posix" else (
            (hasattr(file, "isatty") and file.isatty()) or "ipykernel" in sys.modules
            or "PYCHARM_HOSTED" in os.environ)

    def start(self):
        self.file.flush()
        self._start = time.time()

    def _count(self, current):
        if self._num:
            digits = int(np.log10(self._num)) + 1
            return f"{self.name} {current:{digits}d}/{self._num}"
        return f"{self.name} {current:3}"

    def update(self, current_num, values=()):
        now = time.time()
        values = list(values)
        per_unit = (now - self._start) / current_num if current_num else 0
        speed = _speed(per_unit, self.name)
        out = sys.stdout
        if self._verbose == 1:
            previous = self._total_width
            out.write("\b" * previous + "\r" if self._dynamic_display else "\n")
            if self._num is not None:
                bar = self._count(current_num) + " ["
                filled = int(self._width * float(current_num) / self._num)
                if filled > 0:
                    bar += "=" * (filled - 1) + (">" if current_num < self._num else "=")
                bar += "." * (self._width - filled) + "]"
            else:
                bar = f"{self.name} {current_num:3}"
            self._total_width = len(bar)
            out.write(bar)
            info = "".join(f" - {k}:" + "".join(
                _format_value(v) for v in (val if isinstance(val, list) else [val]))
                for k, val in values)
            if self._num is not None and current_num < self._num:
                info += " - ETA: " + _eta(per_unit * (self._num - current_num))
            info += speed
            self._total_width += len(info)
            if previous > self._total_width:
                info += " " * (previous - self._total_width)
            if self._num is None or current_num >= self._num:
                info += "\n"
            out.write(info)
            out.flush()
            self._last_update = now
        elif self._verbose in (2, 3):
            info = self._count(current_num)
            for k, val in values:
                info += f" - {k}:"
                for v in (val if isinstance(val, list) else [val]):
                    if (isinstance(v, np.ndarray) and v.size == 1
                            and v.dtype in (np.float32, np.float64)):
                        v = v.item()
                    info += _format_value(v)
            out.write(info + speed + "\n")
            out.flush()
