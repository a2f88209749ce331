"""Mixed codebases: zero-copy crossings, one autograd graph, torch left untouched."""
import subprocess
import sys

import numpy as np
import torch

import paddle_compat as paddle


def test_to_torch_is_zero_copy_and_same_graph():
    x = paddle.to_tensor([1., 2., 3.], stop_gradient=False)
    t = paddle.to_torch(x)
    assert t.data_ptr() == x._t.data_ptr()
    (t * t).sum().backward()                 # a torch loss reaches a paddle leaf
    np.testing.assert_allclose(x.grad.numpy(), [2., 4., 6.])


def test_from_torch_is_zero_copy_and_same_graph():
    t = torch.tensor([1., 2.], requires_grad=True)
    x = paddle.from_torch(t)
    assert x._t is t and not x.stop_gradient
    (paddle.tanh(x) * 2).sum().backward()    # a paddle loss reaches a torch leaf
    np.testing.assert_allclose(t.grad.numpy(), 2 * (1 - np.tanh([1., 2.]) ** 2), rtol=1e-6)


def test_to_tensor_from_torch_shares_memory():
    t = torch.zeros(3)
    x = paddle.to_tensor(t)
    t[0] = 5
    assert x.numpy()[0] == 5


def test_torch_functions_accept_paddle_tensors():
    x = paddle.to_tensor([[1., -2.], [3., 4.]], stop_gradient=False)
    y = torch.nn.functional.relu(x)
    assert isinstance(y, torch.Tensor)
    z = torch.matmul(x, torch.ones(2, 1))
    z.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.ones((2, 2)))
    assert torch.cat([x, paddle.ones([1, 2])]).shape == (3, 2)


def test_dlpack_and_array():
    x = paddle.to_tensor([1., 2.])
    y = paddle.utils.dlpack.from_dlpack(paddle.utils.dlpack.to_dlpack(x))
    assert y._t.data_ptr() == x._t.data_ptr()
    z = torch.from_dlpack(x)
    assert z.data_ptr() == x._t.data_ptr()
    assert np.asarray(x).tolist() == [1., 2.]
    w = paddle.from_dlpack(np.arange(3.))
    assert w.numpy().tolist() == [0., 1., 2.]


def test_import_changes_nothing_in_torch():
    code = r"""
import torch, torch.nn.functional as F, torch.autograd, torch.fx
mods = [torch, torch.Tensor, F, torch.autograd, torch.fx, torch.nn]
before = [{k: getattr(m, k) for k in dir(m)} for m in mods]
grad, dflt = torch.is_grad_enabled(), torch.get_default_dtype()
import paddle_compat
after = [{k: getattr(m, k) for k in dir(m)} for m in mods]
for b, a, m in zip(before, after, mods):
    changed = [k for k in b if k in a and a[k] is not b[k] and not k.startswith('__')]
    added = [k for k in a if k not in b]
    assert not changed and not added, (m, changed, added)
assert torch.is_grad_enabled() == grad and torch.get_default_dtype() == dflt
print('ok')
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr
