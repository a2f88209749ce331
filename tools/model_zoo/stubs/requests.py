"""Stand-in for ``requests`` (imported by the model repositories' download helpers, never
called by the drivers: weights are never downloaded). Only reached when requests is absent."""


def get(*a, **k):
    raise RuntimeError("the model-zoo drivers never download (stand-in requests module)")
