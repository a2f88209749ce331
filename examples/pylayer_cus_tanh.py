"""The PyLayer doc example: tanh as a custom operator (seed 2023)."""
import argparse

import paddle_compat as paddle
from paddle_compat.autograd import PyLayer

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="cpu", help="cpu or gpu")
paddle.set_device(parser.parse_args().device)


class cus_tanh(PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = paddle.tanh(x)
        ctx.save_for_backward(y)      # keep y for backward
        return y

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensor()
        return dy * (1 - paddle.square(y))


paddle.seed(2023)
data = paddle.randn([2, 3], dtype="float64")
data.stop_gradient = False
z = cus_tanh.apply(data)
z.mean().backward()
print(data.grad)
