"""``python -m paddle_compat install-alias / uninstall-alias / status`` in a throwaway
virtualenv: afterwards every Python of that environment (a subprocess, a console script) gets
paddle_compat for ``import paddle``, without loading torch at start-up; a real Paddle is not
shadowed unless ``--force``; ``uninstall-alias`` restores the environment."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBE = ("import sys; before = sorted(m for m in ('torch', 'paddle_compat') if m in sys.modules)"
         "\ntry:\n    import paddle\n    print(before, paddle.__name__)\n"
         "except ImportError as e:\n    print(before, type(e).__name__)")


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    d = tmp_path_factory.mktemp("alias_venv")
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip",
                    str(d / "env")], check=True, timeout=300)
    return d


def run(venv, *args, code=None):
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("PYTHONNOUSERSITE", None)
    py = str(venv / "env" / "bin" / "python")
    cmd = [py, "-c", code] if code is not None else [py, *args]
    return subprocess.run(cmd, cwd=str(venv), env=env, capture_output=True, text=True,
                          timeout=300)


def site_packages(venv):
    out = run(venv, code="import sysconfig; print(sysconfig.get_paths()['purelib'])")
    return out.stdout.strip()


def test_install_use_and_undo_the_alias(venv):
    assert run(venv, code=PROBE).stdout.strip() == "[] ModuleNotFoundError"
    assert "alias (environment): not installed" in run(venv, "-m", "paddle_compat",
                                                       "status").stdout
    r = run(venv, "-m", "paddle_compat", "install-alias")
    assert r.returncode == 0, r.stderr
    pth = os.path.join(site_packages(venv), "paddle_compat-alias.pth")
    assert os.path.exists(pth)
    assert "alias (environment): installed" in run(venv, "-m", "paddle_compat", "status").stdout
    # a subprocess: nothing of paddle_compat or torch loaded until `import paddle`
    assert run(venv, code=PROBE).stdout.strip() == "[] paddle_compat"
    # a console script of the environment (what pip writes for a library's entry point)
    script = venv / "env" / "bin" / "paddle-probe"
    script.write_text(f"#!{venv / 'env' / 'bin' / 'python'}\n{PROBE}\n")
    script.chmod(0o755)
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run([str(script)], cwd=str(venv), env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.stdout.strip() == "[] paddle_compat", out.stderr
    r = run(venv, "-m", "paddle_compat", "uninstall-alias")
    assert r.returncode == 0 and not os.path.exists(pth)
    assert run(venv, code=PROBE).stdout.strip() == "[] ModuleNotFoundError"
    assert "no alias installed" in run(venv, "-m", "paddle_compat", "uninstall-alias").stdout


def test_a_real_paddle_is_not_shadowed_unless_forced(venv):
    fake = os.path.join(site_packages(venv), "paddle")
    os.makedirs(fake)
    try:
        with open(os.path.join(fake, "__init__.py"), "w") as f:
            f.write("REAL = True\n")
        r = run(venv, "-m", "paddle_compat", "install-alias")
        assert r.returncode == 1 and "PaddlePaddle is installed" in r.stderr and fake in r.stderr
        assert run(venv, code="import paddle; print(paddle.REAL)").stdout.strip() == "True"
        r = run(venv, "-m", "paddle_compat", "install-alias", "--force")
        assert r.returncode == 0, r.stderr
        assert run(venv, code=PROBE).stdout.strip() == "[] paddle_compat"
        assert run(venv, "-m", "paddle_compat", "uninstall-alias").returncode == 0
        assert run(venv, code="import paddle; print(paddle.REAL)").stdout.strip() == "True"
    finally:
        import shutil
        shutil.rmtree(fake)


def test_bad_options_are_refused(venv):
    r = run(venv, "-m", "paddle_compat", "uninstall-alias", "--force")
    assert r.returncode == 2 and "unknown option --force" in r.stderr
    r = run(venv, "-m", "paddle_compat", "install-alias", "--everywhere")
    assert r.returncode == 2 and "unknown option --everywhere" in r.stderr
    assert not os.path.exists(os.path.join(site_packages(venv), "paddle_compat-alias.pth"))
