"""Functions as PyLayer arguments, passed to backward as a ctx attribute (seeded here: the
docs' version is not seeded)."""
import argparse

import paddle_compat as paddle
from paddle_compat.autograd import PyLayer

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="cpu", help="cpu or gpu")
paddle.set_device(parser.parse_args().device)


class cus_tanh(PyLayer):
    @staticmethod
    def forward(ctx, x1, func1, func2=paddle.square):
        ctx.func = func2              # a non-Tensor travels as an attribute
        y = func1(x1)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensor()
        return dy * (1 - ctx.func(y))


paddle.seed(2023)
data = paddle.randn([2, 3], dtype="float64")
data.stop_gradient = False
z = cus_tanh.apply(data, func1=paddle.tanh)
z.mean().backward()
print(data.grad)

x1 = paddle.randn([2, 3]).astype("float64")
x1.stop_gradient = False
z = cus_tanh.apply(x1=x1, func1=paddle.tanh)
z.sum().backward()
print(x1.grad)
