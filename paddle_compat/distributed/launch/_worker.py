"""One trainer as the launcher's elastic agent starts it: ``python .../launch/_worker.py SCRIPT
[ARGS ...]`` (run as a file: it needs only the standard library).

Adds Paddle's per-trainer environment to torch's (``RANK``, ``LOCAL_RANK``, ``WORLD_SIZE``
...) and the job-wide variables the agent set (``PADDLE_TRAINER_ENDPOINTS``, ``PADDLE_MASTER``
...), runs ``python -m paddle_compat SCRIPT ARGS`` with stdout and stderr going to
``PADDLE_LOG_DIR/workerlog.<local rank>`` (local rank 0's also to our stdout), passes SIGTERM /
SIGINT on to it and ends as it ended (same status, or the same signal). A separate process
keeps the log complete whatever way the trainer ends (``os._exit``, SIGKILL).
"""
import os
import signal
import subprocess
import sys
import time


def exit_stamp(log_dir, local_rank):
    """Where a failed trainer's end time and exit status are written (read by the
    launcher)."""
    return os.path.join(log_dir, f".workerexit.{local_rank}")


def trainer_env(env):
    """Paddle's variables for the trainer that torch's ``env`` describes (strings)."""
    rank, local = env["RANK"], env["LOCAL_RANK"]
    endpoints = env["PADDLE_TRAINER_ENDPOINTS"].split(",")
    out = {"PADDLE_TRAINER_ID": rank, "PADDLE_TRAINERS_NUM": env["WORLD_SIZE"],
           "PADDLE_CURRENT_ENDPOINT": endpoints[int(rank)], "PADDLE_RANK_IN_NODE": local,
           "PADDLE_LOCAL_RANK": local, "PADDLE_GLOBAL_RANK": rank,
           "PADDLE_GLOBAL_SIZE": env["WORLD_SIZE"],
           "PADDLE_LOCAL_SIZE": env.get("LOCAL_WORLD_SIZE", env.get("PADDLE_LOCAL_SIZE", "1"))}
    devices = env.get("PADDLE_COMPAT_DEVICES")
    if devices:
        out["FLAGS_selected_gpus"] = devices.split(",")[int(local)]
    return out


def main(argv):
    env = dict(os.environ)
    env.update(trainer_env(env))
    local = int(env["LOCAL_RANK"])
    log_path = os.path.join(env.get("PADDLE_LOG_DIR", "log"), f"workerlog.{local}")
    echo = sys.stdout.buffer if local == 0 else None
    with open(log_path, "wb") as log:
        child = subprocess.Popen([sys.executable, "-m", "paddle_compat", *argv], env=env,
                                 stdout=subprocess.PIPE if echo else log,
                                 stderr=subprocess.STDOUT)

        def forward(sig, _frame):
            if child.poll() is None:
                child.send_signal(sig)

        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, forward)
        if echo is not None:
            for line in iter(child.stdout.readline, b""):
                log.write(line)
                log.flush()
                echo.write(line)
                echo.flush()
            child.stdout.close()
        rc = child.wait()
    if rc != 0:                      # when, so the launcher can name the first to fail
        try:
            with open(exit_stamp(env.get("PADDLE_LOG_DIR", "log"), local), "w") as f:
                f.write(f"{time.time()!r} {rc}")
        except OSError:
            pass
    if rc < 0:                       # die of the same signal, so the agent reports it
        if -rc not in (signal.SIGKILL, signal.SIGSTOP):
            signal.signal(-rc, signal.SIG_DFL)
        os.kill(os.getpid(), -rc)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
