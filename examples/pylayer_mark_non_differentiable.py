"""PyLayerContext.mark_non_differentiable: the marked output's gradient arrives as zeros."""
import numpy as np
import argparse

import paddle_compat as paddle
from paddle_compat.autograd import PyLayer

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="cpu", help="cpu or gpu")
paddle.set_device(parser.parse_args().device)


class Tanh(PyLayer):
    @staticmethod
    def forward(ctx, x):
        a = x + x
        b = x + x + x
        ctx.mark_non_differentiable(a)
        return a, b

    @staticmethod
    def backward(ctx, grad_a, grad_b):
        assert np.equal(grad_a.numpy(), paddle.zeros([1]).numpy())
        assert np.equal(grad_b.numpy(), paddle.ones([1], dtype="float64").numpy())
        return grad_b


x = paddle.ones([1], dtype="float64")
x.stop_gradient = False
a, b = Tanh.apply(x)
b.sum().backward()
print(a.stop_gradient, b.stop_gradient)
print(x.grad)
