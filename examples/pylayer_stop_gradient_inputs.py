"""Inputs that stop gradient: backward returns None for them, and when all inputs stop
gradient backward never runs. Seeded (the write-up's version is not)."""
import argparse

import paddle_compat as paddle
from paddle_compat.autograd import PyLayer

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="cpu", help="cpu or gpu")
paddle.set_device(parser.parse_args().device)


class cus_add(PyLayer):
    @staticmethod
    def forward(ctx, x1, x2):
        return x1 + x2

    @staticmethod
    def backward(ctx, dy):
        print("backward runs")
        return dy, None         # x2 stops gradient: None


paddle.seed(2023)
data1 = paddle.randn([2, 3], dtype="float32")
data1.stop_gradient = False
data2 = paddle.randn([2, 3], dtype="float32")
z = cus_add.apply(data1, data2)
z.mean().backward()
print(data1.grad)

data1 = paddle.randn([2, 3], dtype="float32")
data2 = paddle.randn([2, 3], dtype="float32")
z = cus_add.apply(data1, data2)
z.mean().backward()
print(z.stop_gradient, data1.grad is None)
