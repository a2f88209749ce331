"""paddle.version and paddle.__version__: the Paddle release we follow, the CUDA stack of torch."""
import subprocess
import sys

import pytest
import torch

import paddle_compat as paddle

# paddle.version.show() of Paddle 3.3.1's CPU wheel, as it prints it
SHOW_CPU = """full_version: 3.3.1
major: 3
minor: 3
patch: 1
rc: 0
cuda: False
cudnn: False
hip: None
nccl: 0
xpu_xre: False
xpu_xccl: False
xpu_xhpc: False
cinn: False
tensorrt_version: None
cuda_archs: []
"""


def test_version_is_the_paddle_release_we_follow():
    assert paddle.__version__ == "3.3.1"
    assert (paddle.version.full_version, paddle.version.major, paddle.version.minor,
            paddle.version.patch) == ("3.3.1", "3", "3", "1")
    assert sorted(paddle.version.__all__) == sorted(
        ["cuda", "cudnn", "nccl", "show", "xpu", "xpu_xre", "xpu_xccl", "xpu_xhpc", "tensorrt",
         "cuda_archs", "hip"])


@pytest.mark.skipif(torch.version.cuda is not None, reason="the CPU build's answers")
def test_cpu_build_answers_as_paddles_cpu_wheel(capsys):
    v = paddle.version
    assert v.cuda() == "False" and v.cuda == "False" and repr(v.cuda) == "CudaVersion('False')"
    assert (v.cudnn(), v.nccl(), v.xpu(), v.cinn(), v.tensorrt(), v.cuda_archs(), v.hip) == (
        "False", "0", "False", "False", "None", [], None)
    v.show()
    assert capsys.readouterr().out == SHOW_CPU


@pytest.mark.skipif(torch.version.cuda is None, reason="needs a CUDA build of torch")
def test_cuda_build_reports_torchs_cuda_stack():
    v = paddle.version
    assert v.cuda() == torch.version.cuda
    assert v.cudnn().count(".") == 2 and all(p.isdigit() for p in v.cudnn().split("."))
    assert all(isinstance(a, int) for a in v.cuda_archs())


def test_paddle_version_import_forms():
    out = subprocess.run([sys.executable, "-c", "import paddle_compat.version as v; "
                          "from paddle_compat.version import full_version; print(full_version)"],
                         capture_output=True, text=True, check=True).stdout
    assert out == "3.3.1\n"
