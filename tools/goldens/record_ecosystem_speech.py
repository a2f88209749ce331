"""Record Paddle 3.3.1's behaviour that PaddleSpeech 1.5.0 relies on and paddle_compat fixed
for it (issue 30, tools/ecosystem/drivers/paddlespeech_driver.py):

- a convolution over an input with a spatial size 0 (FastSpeech2's inference when every
  predicted duration rounds to 0: a length-0 mel sequence through the decoder's conv1d layers)
  gives the output-size rule's shape, the bias as values, zero weight gradient;
- ``nn.LayerNorm`` takes its arguments after ``epsilon`` by keyword only (TypeError for
  paddlespeech's ``s2t.modules.align.LayerNorm``), as ``nn.Conv2D`` does after ``groups``.

    /work/paddle_venv/bin/python tools/goldens/record_ecosystem_speech.py

Writes tests/goldens/ecosystem_speech.json: {case: {"code": ..., "value": ...} or
{"code": ..., "error": type name}}; tests/test_ecosystem_speech.py runs the same code on
paddle_compat. Each case leaves its result in ``out`` (plain JSON values).
"""
import os

import paddle
from case_recorder import record  # (tools/goldens/case_recorder.py)

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "ecosystem_speech.json")

CASES = {
    "conv1d_empty_length": """
x = paddle.zeros([2, 4, 0])
out = []
for k, p in [(1, 0), (3, 1), (5, 2)]:
    w = paddle.ones([8, 4, k])
    out.append(list(paddle.nn.functional.conv1d(x, w, paddle.ones([8]), padding=p).shape))
""",
    "conv1d_empty_length_nlc": """
y = paddle.nn.functional.conv1d(paddle.zeros([2, 0, 4]), paddle.ones([8, 4, 1]),
                                data_format="NLC")
out = list(y.shape)
""",
    "conv2d_empty_height_padded": """
b = paddle.to_tensor(np.arange(8, dtype="float32"))
y = paddle.nn.functional.conv2d(paddle.zeros([1, 3, 0, 5]), paddle.ones([8, 3, 1, 3]), b,
                                padding=1)
out = [list(y.shape), y.numpy().sum(axis=(0, 2, 3)).tolist()]
""",
    "conv1d_layer_empty_grads": """
conv = paddle.nn.Conv1D(4, 6, 3, padding=1)
x = paddle.zeros([1, 4, 0])
x.stop_gradient = False
y = conv(x)
(y.sum() + 1.0).backward()
out = [list(y.shape), list(x.grad.shape), float(conv.weight.grad.abs().sum()),
       conv.bias.grad.numpy().tolist()]
""",
    "conv2d_empty_bias_grad": """
conv = paddle.nn.Conv2D(3, 2, (1, 3), padding=1)
y = conv(paddle.zeros([2, 3, 0, 4]))
y.sum().backward()
out = [list(y.shape), conv.bias.grad.numpy().tolist(), float(conv.weight.grad.abs().sum())]
""",
    "layernorm_positional_weight_attr": """
out = paddle.nn.LayerNorm(8, 1e-5, None)
""",
    "layernorm_keywords": """
ln = paddle.nn.LayerNorm(4, 1e-3, weight_attr=False, bias_attr=False)
out = [ln.weight is None, ln.bias is None,
       ln(paddle.to_tensor([[1.0, 2.0, 3.0, 6.0]])).numpy().round(5).tolist()]
""",
    "conv2d_positional_padding_mode": """
out = paddle.nn.Conv2D(1, 4, 3, 2, 0, 1, 1, "zeros")
""",
}


def main():
    record(CASES, paddle, OUT, "eco_speech_")


if __name__ == "__main__":
    main()
