"""Forward outputs may mix Tensors and other objects (a shape here); forward must return at
least one Tensor. Seeded (the write-up's version is not)."""
import argparse

import paddle_compat as paddle
from paddle_compat.autograd import PyLayer

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="cpu", help="cpu or gpu")
paddle.set_device(parser.parse_args().device)


class cus_add(PyLayer):
    @staticmethod
    def forward(ctx, x1, x2):
        y = x1 + x2
        return y, y.shape

    @staticmethod
    def backward(ctx, dy):
        return dy, dy


class only_shape(PyLayer):
    @staticmethod
    def forward(ctx, x1, x2):
        return (x1 + x2).shape     # no Tensor: an error

    @staticmethod
    def backward(ctx, dy):
        return dy, dy


paddle.seed(2023)
data = paddle.randn([2, 3], dtype="float32")
data.stop_gradient = False
try:
    only_shape.apply(data, data)
except ValueError as e:
    print("ValueError:", str(e).splitlines()[0].split(" (at ")[0])
z, y_shape = cus_add.apply(data, data)
print(y_shape)
z.mean().backward()
print(data.grad)
