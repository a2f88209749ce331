# Example from seeds/002 (the user's write-up on PyLayer), saved verbatim.
# -- preamble, not in the write-up: the imports its earlier snippets made --
import paddle
from paddle.autograd import PyLayer
# -- the write-up's snippet, verbatim --
class cus_tanh(PyLayer):
    @staticmethod
    def forward(ctx, x1, x2):
        y = x1+x2
        return y

    @staticmethod
    def backward(ctx, dy):
        # x2.stop_gradient=True,其对应梯度需要返回None
        return dy, None


data1 = paddle.randn([2, 3], dtype="float32")
data1.stop_gradient = False
data2 = paddle.randn([2, 3], dtype="float32")
z = cus_tanh.apply(data1, data2)
fake_loss = z.mean()
fake_loss.backward()
print(data1.grad)
