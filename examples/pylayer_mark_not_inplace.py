"""PyLayerContext.mark_not_inplace: forward returns its input, apply returns a new Tensor.
Paddle 3.3.1 loses the gradient here (x.grad is None); paddle_compat follows the docs and x
gets exp(1)=2.718... per backward, so this example's last line differs from real Paddle."""
import argparse

import paddle_compat as paddle
from paddle_compat.autograd import PyLayer

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="cpu", help="cpu or gpu")
paddle.set_device(parser.parse_args().device)


class Exp(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_not_inplace(x)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.exp()


paddle.seed(2023)
x = paddle.randn((1, 1))
x.stop_gradient = False
attn_layers = [Exp() for _ in range(2)]
for step in range(2):
    a = x
    for j in range(2):
        a = attn_layers[j].apply(x)
    a.backward()
print(x)
print(a.stop_gradient)
print(x.grad)
