"""A C++ custom operator (examples/cpp_ops/leaky_relu_op.cc, written against Paddle's
paddle/extension.h) built just in time with paddle.utils.cpp_extension.load and used three
ways: from Paddle code with autograd, in place, and from torch code (torch.ops and
torch.compile). On a GPU the .cu kernels are built too.

    python examples/cpp_custom_op.py [--device gpu]
"""
import argparse
import os

import numpy as np
import torch

import paddle_compat as paddle
from paddle_compat.utils.cpp_extension import load

HERE = os.path.dirname(os.path.abspath(__file__))


def show(a):
    return np.round(np.asarray(a, dtype="float64"), 4).tolist()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="cpu")
    device = p.parse_args().device
    paddle.set_device(device)
    sources = [os.path.join(HERE, "cpp_ops", "leaky_relu_op.cc")]
    if device.startswith("gpu"):
        sources.append(os.path.join(HERE, "cpp_ops", "leaky_relu_op.cu"))
    ops = load(name="example_leaky_relu", sources=sources)
    print("ops:", ", ".join(ops.__all__))

    # Paddle code: forward and gradients, checked against paddle's own leaky_relu
    data = np.array([[-2.0, -0.5, 0.0], [0.5, 1.0, 3.0]], dtype="float32")
    x = paddle.to_tensor(data, stop_gradient=False)
    y = ops.leaky_relu(x, 0.1)
    (y * y).sum().backward()
    x_ref = paddle.to_tensor(data, stop_gradient=False)
    y_ref = paddle.nn.functional.leaky_relu(x_ref, 0.1)
    (y_ref * y_ref).sum().backward()
    print("out:", show(y.numpy()))
    print("grad:", show(x.grad.numpy()))
    print("same as paddle.nn.functional.leaky_relu:",
          np.allclose(y.numpy(), y_ref.numpy()) and np.allclose(x.grad.numpy(), x_ref.grad.numpy()))

    # in place: the input object is the output, and gradients flow through it
    x = paddle.to_tensor(data, stop_gradient=False)
    h = x * 2
    out = ops.leaky_relu_(h, 0.1)
    out.sum().backward()
    print("in place returns its input:", out is h)
    print("in-place grad:", show(x.grad.numpy()))

    # torch code: torch tensors in, torch tensors out; torch.compile without graph breaks
    t = torch.tensor(data, requires_grad=True, device="cuda" if device.startswith("gpu") else "cpu")
    leaky = getattr(torch.ops, ops.namespace).leaky_relu
    f = torch.compile(lambda a: leaky(a * 3, 0.1).sum(), fullgraph=True, backend="aot_eager")
    f(t).backward()
    print("torch.compile grad:", show(t.grad.cpu().numpy()))


if __name__ == "__main__":
    main()
