"""PyLayerContext.set_materialize_grads: missing gradients as zeros (default) or None."""
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
        return x + x + x, x + x

    @staticmethod
    def backward(ctx, grad, grad2):
        assert np.equal(grad2.numpy(), paddle.zeros([1]).numpy())
        return grad


class Tanh2(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x + x + x, x + x

    @staticmethod
    def backward(ctx, grad, grad2):
        assert grad2 is None
        return grad


x = paddle.ones([1], dtype="float64")
x.stop_gradient = False
Tanh.apply(x)[0].backward()
print(x.grad)

x2 = paddle.ones([1], dtype="float64")
x2.stop_gradient = False
Tanh2.apply(x2)[0].backward()
print(x2.grad)
