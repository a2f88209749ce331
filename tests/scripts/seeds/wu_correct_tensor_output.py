# Example from seeds/002 (the user's write-up on PyLayer), saved verbatim.
# -- preamble, not in the write-up: the imports its earlier snippets made --
import paddle
from paddle.autograd import PyLayer
# -- the write-up's snippet, verbatim --
# 正确示例
class cus_tanh(PyLayer):
    @staticmethod
    def forward(ctx, x1, x2):
        y = x1+x2
        # y.shape: 列表类型,非Tensor
        return y, y.shape

    @staticmethod
    def backward(ctx, dy):
        # forward两个Tensor输入,因此,backward有两个输出。
        return dy, dy

data = paddle.randn([2, 3], dtype="float32")
data.stop_gradient = False
z, y_shape = cus_tanh.apply(data, data)
z.mean().backward()

print(data.grad)
