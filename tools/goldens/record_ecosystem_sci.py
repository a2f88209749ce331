"""Record Paddle 3.3.1's behaviour that PaddleScience (ppsci) and PGL rely on and paddle_compat
fixed for them (issue 30, tools/ecosystem: drivers/paddlesci_driver.py, pgl_driver.py):

- ``Tensor.set_value`` does not move the inplace version: a graph that saved the tensor (or a
  view of it) backpropagates with the new value instead of raising (ppsci's GradNorm loss
  aggregator writes ``self.weight[i].set_value(...)`` between its forward and backward);
  a real inplace op (``add_``) still raises;
- ``paddle.jit.save`` with a dict of InputSpecs for a forward taking a dict of tensors and
  returning a dict (``ppsci.solver.Solver.export``): the feeds are the leaves in sorted key
  order, the fetches the output's leaves likewise.

    /work/paddle_venv/bin/python tools/goldens/record_ecosystem_sci.py

Writes tests/goldens/ecosystem_sci.json: {case: {"code": ..., "value": ...} or
{"code": ..., "error": type name}}; tests/test_ecosystem_sci.py runs the same code on
paddle_compat. Each case leaves its result in ``out`` (plain JSON values); ``tmp`` is a fresh
directory.
"""
import os

import paddle
from case_recorder import record  # (tools/goldens/case_recorder.py)

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "ecosystem_sci.json")

CASES = {
    # ppsci GradNorm: loss = w[i] * l_i, then w[i].set_value(...), then backward
    "set_value_view_after_use": """
w = paddle.ones([2])
a = paddle.to_tensor(2.0, stop_gradient=False)
loss = w[0] * a + w[1] * a * a
w[0].set_value(paddle.to_tensor(5.0))
w[1].set_value(paddle.to_tensor(-3.0))
loss.backward()
out = [w.numpy().tolist(), float(a.grad), float(loss)]
""",
    "set_value_after_use": """
b = paddle.to_tensor([3.0, 4.0])
c = paddle.to_tensor([2.0, 1.0], stop_gradient=False)
loss = (b * c).sum()
b.set_value(np.array([7.0, -1.0], "float32"))
loss.backward()
out = [c.grad.numpy().tolist(), b.numpy().tolist()]
""",
    "set_value_of_grad_leaf_after_use": """
x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
y = (x * x * x).sum()
x.set_value(paddle.to_tensor([3.0, 4.0]))
y.backward()
out = [x.grad.numpy().tolist(), float(y)]
""",
    "set_state_dict_after_use": """
lin = paddle.nn.Linear(2, 1)
lin.weight.set_value(np.array([[1.0], [2.0]], "float32"))
lin.bias.set_value(np.array([0.5], "float32"))
x = paddle.to_tensor([[1.0, 1.0]], stop_gradient=False)
y = lin(x).sum()
lin.set_state_dict({"weight": np.array([[3.0], [-1.0]], "float32"),
                    "bias": np.array([0.0], "float32")})
y.backward()
out = [x.grad.numpy().tolist(), float(y)]
""",
    "inplace_op_after_use_raises": """
p = paddle.to_tensor([1.0, 2.0])
q = paddle.to_tensor([1.0, 1.0], stop_gradient=False)
loss = (p * q).sum()
p.add_(paddle.to_tensor([1.0, 1.0]))
loss.backward()
out = q.grad.numpy().tolist()
""",
    # ppsci Solver.export: a forward on a dict, saved with a dict of InputSpecs
    "jit_save_dict_spec": """
class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.s = self.create_parameter([1], default_initializer=paddle.nn.initializer.Constant(2.0))
    def forward(self, inp):
        return {"v": inp["y"] * self.s, "u": inp["x"] - 2.0 * inp["y"]}
net = Net()
path = os.path.join(tmp, "dict", "net")
spec = {"y": paddle.static.InputSpec([None, 1], "float32", name="y"),
        "x": paddle.static.InputSpec([None, 1], "float32", name="x")}
paddle.jit.save(paddle.jit.to_static(net, input_spec=[spec], full_graph=True), path)
loaded = paddle.jit.load(path)
res = loaded(paddle.to_tensor([[1.0], [2.0]]), paddle.to_tensor([[10.0], [20.0]]))
res = res if isinstance(res, (list, tuple)) else [res]
out = [sorted(os.listdir(os.path.dirname(path))), [r.numpy().tolist() for r in res]]
""",
    "jit_save_list_spec_one_output": """
class Net(paddle.nn.Layer):
    def forward(self, pair, scale):
        return {"z": (pair[0] - pair[1]) * scale}
path = os.path.join(tmp, "list", "net")
spec = [[paddle.static.InputSpec([2], "float32", name="a"),
         paddle.static.InputSpec([2], "float32", name="b")],
        paddle.static.InputSpec([2], "float32", name="s")]
paddle.jit.save(Net(), path, input_spec=spec)   # a plain Layer: the structure is kept
loaded = paddle.jit.load(path)
res = loaded(paddle.to_tensor([5.0, 6.0]), paddle.to_tensor([1.0, 1.0]),
             paddle.to_tensor([2.0, 3.0]))
out = res.numpy().tolist() if isinstance(res, paddle.Tensor) else [r.numpy().tolist() for r in res]
""",
}


def main():
    record(CASES, paddle, OUT, "eco_sci_")


if __name__ == "__main__":
    main()
