"""``paddle.distributed.fleet.utils.log_util``: fleet's logger (PaddleNLP's trainer logs
through it): INFO level, its own stream handler with Paddle's format, not propagated."""
import logging

__all__ = ["logger", "set_log_level", "get_log_level_code", "get_log_level_name"]


def _make_logger(level, name):
    log = logging.getLogger(name)
    log.propagate = False
    if not log.handlers:
        handler = logging.StreamHandler()
        log.setLevel(level)
        handler.setFormatter(logging.Formatter(
            "[%(asctime)-15s] [%(levelname)8s] %(filename)s:%(lineno)s - %(message)s"))
        log.addHandler(handler)
    return log


logger = _make_logger("INFO", "paddle.distributed.fleet.utils.log_util")


def set_log_level(level):
    """The logger's level: a name ("DEBUG") or a number."""
    assert isinstance(level, (str, int)), "level's type must be str or int"
    logger.setLevel(level if isinstance(level, int) else level.upper())


def get_log_level_code():
    return logger.getEffectiveLevel()


def get_log_level_name():
    return logging.getLevelName(get_log_level_code())
