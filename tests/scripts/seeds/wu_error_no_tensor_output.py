# Example from seeds/002 (the user's write-up on PyLayer), saved verbatim.
# -- preamble, not in the write-up: the imports its earlier snippets made --
import paddle
from paddle.autograd import PyLayer
# -- the write-up's snippet, verbatim --
# 错误示例
class cus_tanh(PyLayer):
    @staticmethod
    def forward(ctx, x1, x2):
        y = x1+x2
        # y.shape: 列表类型,非Tensor,输出至少包含一个Tensor
        return y.shape

    @staticmethod
    def backward(ctx, dy):
        return dy, dy

data = paddle.randn([2, 3], dtype="float32")
data.stop_gradient = False
# 由于forward输出没有Tensor引发报错
z, y_shape = cus_tanh.apply(data, data)
