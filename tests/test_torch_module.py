"""``paddle_compat.to_torch_module``: torch users call a paddle Layer -- a loaded Paddle model
among them -- as a torch.nn.Module that shares its parameters."""
import os

import numpy as np
import pytest
import torch

import paddle_compat as paddle

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "model_files")


def test_a_loaded_paddle_model_trains_with_a_torch_optimizer():
    layer = paddle.jit.load(os.path.join(DATA, "mlp"))
    x = np.random.RandomState(0).rand(3, 6).astype("float32")
    want = layer(paddle.to_tensor(x)).numpy()
    module = paddle.to_torch_module(layer)
    assert isinstance(module, torch.nn.Module)
    got = module(torch.from_numpy(x))
    assert isinstance(got, torch.Tensor) and not isinstance(got, paddle.Tensor)
    np.testing.assert_allclose(got.detach().numpy(), want, rtol=1e-6, atol=1e-7)
    names = [n for n, _ in module.named_parameters()]
    assert len(names) == len(layer.parameters()) and all("." not in n for n in names)
    before = layer.parameters()[0].numpy().copy()
    opt = torch.optim.SGD(module.parameters(), lr=0.1)
    module.train()
    module(torch.from_numpy(x)).pow(2).mean().backward()
    opt.step()
    assert not np.array_equal(layer.parameters()[0].numpy(), before)   # shared, not copied
    np.testing.assert_allclose(module(torch.from_numpy(x)).detach().numpy(),
                               layer(paddle.to_tensor(x)).numpy(), rtol=1e-6)


def test_modes_and_nested_outputs():
    class Two(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(2, 2)
            self.drop = paddle.nn.Dropout(0.5)

        def forward(self, x, scale=1.0):
            y = self.drop(self.fc(x)) * scale
            return {"y": y, "pair": (y, x)}
    layer = Two()
    module = paddle.to_torch_module(layer)
    module.eval()
    assert not layer.training and not layer.drop.training
    out = module(torch.ones(1, 2), scale=2.0)
    assert isinstance(out["y"], torch.Tensor) and isinstance(out["pair"][1], torch.Tensor)
    module.train()
    assert layer.training and layer.drop.training


def test_refuses_what_is_not_a_layer():
    with pytest.raises(TypeError, match="paddle Layer"):
        paddle.to_torch_module(torch.nn.Linear(2, 2))
