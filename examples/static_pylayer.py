"""paddle.static.nn.static_pylayer: Paddle's doc example, run with paddle_compat.

A custom op in a static program: forward exp(x), backward 2 * exp(dy). Prints x, the gradient
of the output w.r.t. x, and the output, exactly as Paddle's documentation shows. Unlike
Paddle 3.3.1 we also accept fetching by name (``fetch_list=[data.name, ...]``), as the page
does. ``--device gpu`` runs the program on the GPU.
"""
import argparse

import numpy as np

import paddle_compat as paddle
import paddle_compat.static  # noqa: F401  TEMPORARY until paddle_compat exports paddle.static

if not hasattr(paddle, "enable_static"):        # TEMPORARY, see above
    paddle.enable_static = paddle.static.enable_static

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
args = parser.parse_args()

paddle.enable_static()


def forward_fn(x):
    return paddle.exp(x)


def backward_fn(dy):
    return 2 * paddle.exp(dy)


main_program = paddle.static.Program()
start_program = paddle.static.Program()

place = paddle.CUDAPlace(0) if args.device == "gpu" else paddle.CPUPlace()
exe = paddle.static.Executor(place)
with paddle.static.program_guard(main_program, start_program):
    data = paddle.static.data(name="X", shape=[None, 5], dtype="float32")
    data.stop_gradient = False
    ret = paddle.static.nn.static_pylayer(forward_fn, [data], backward_fn)
    data_grad = paddle.static.gradients([ret], data)[0]

exe.run(start_program)
x = np.array([[1.0, 2.0, 3.0, 4.0, 5.0]], dtype=np.float32)
x, x_grad, y = exe.run(
    main_program,
    feed={"X": x},
    fetch_list=[
        data.name,
        data_grad.name,
        ret.name
    ],
)

print(x)
print(x_grad)
print(y)
