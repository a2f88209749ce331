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


def test_assigning_a_parameter_on_the_module_rebinds_the_layers():
    """What torch's parametrizations and FSDP2 do (swap a registered parameter by setattr)
    reaches the Layer: it computes with the new tensor."""
    layer = paddle.nn.Linear(2, 3)
    module = paddle.to_torch_module(layer)
    new = torch.nn.Parameter(torch.ones(2, 3))
    setattr(module, "weight", new)
    assert layer.weight._t is new and module.weight is new
    out = module(torch.ones(1, 2))
    np.testing.assert_allclose(out.detach().numpy(), 2 + layer.bias.numpy()[None], rtol=1e-6)


def test_module_tree_mirrors_the_layer_tree():
    from paddle_compat.nn.torch_module import module_tree

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.emb = paddle.nn.Embedding(5, 4)
            self.blocks = paddle.nn.LayerList([paddle.nn.Linear(4, 4) for _ in range(2)])
            self.again = self.blocks[0]               # one Layer reached twice
            self.norm = paddle.nn.BatchNorm1D(4)

        def forward(self, ids):
            h = self.emb(ids)
            for b in self.blocks:
                h = b(h)
            return self.norm(h)
    net = Net()
    tree = module_tree(net)
    root = tree[id(net)]
    assert tree[id(net.blocks[0])] is getattr(root.blocks, "0") is root.again
    assert sorted(n for n, _ in root.named_parameters()) == sorted(
        n for n, _ in net.named_parameters())
    assert [n for n, _ in tree[id(net.blocks[1])].named_parameters()] == ["weight", "bias"]
    assert all(p is q._t for p, q in zip(root.parameters(), net.parameters()))
    ids = torch.tensor([1, 2, 3])
    np.testing.assert_allclose(root(ids).detach().numpy(), net(paddle.to_tensor(ids)).numpy(),
                               rtol=1e-6)
    swapped = torch.nn.Parameter(torch.zeros(4, 4))
    tree[id(net.blocks[1])].weight = swapped          # the swap FSDP2 makes
    assert net.blocks[1].weight._t is swapped
