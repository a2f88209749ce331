"""Small leftovers of Paddle 3.3.1's names: ``paddle.optimizer.lr.autoincreased_step_counter``
and the Tensor members ``create_parameter``, ``create_tensor``, ``num_shard``,
``top_p_sampling``. The expected values and error types were probed on Paddle 3.3.1 (CPU)
by hand; where Paddle has no CPU kernel (top_p_sampling) its documented example is used."""
import tempfile

import numpy as np
import pytest
import torch

import paddle_compat as paddle
from paddle_compat.framework.tensor import wrap


def test_autoincreased_step_counter_dygraph():
    f = paddle.optimizer.lr.autoincreased_step_counter
    for args, kwargs, want in (((), {}, 1), ((), {"begin": 5, "step": 2}, 6),
                               (("x", 3), {}, 3), ((), {"begin": 0}, 0)):
        c = f(*args, **kwargs)
        assert c.dtype == paddle.int64 and c.shape == [1] and c.stop_gradient
        assert c.tolist() == [want]


def test_autoincreased_step_counter_static_is_refused():
    paddle.enable_static()
    try:
        with pytest.raises(NotImplementedError, match="autoincreased_step_counter"):
            paddle.optimizer.lr.autoincreased_step_counter()
    finally:
        paddle.disable_static()


def test_tensor_create_parameter_and_create_tensor():
    t = paddle.to_tensor([1.0, 2.0])
    # Paddle binds paddle.create_parameter as the method: the tensor is the shape
    assert paddle.Tensor.create_parameter is not None
    with pytest.raises(TypeError, match="dtype must be any of"):
        t.create_parameter([2, 3], "float32")
    with pytest.raises(ValueError, match="to a NumPy dtype"):
        t.create_tensor()
    c = paddle.tensor.create_tensor("float32", name="abc", persistable=True)
    assert (c.name, c.dtype, c.persistable) == ("abc", paddle.float32, True)
    assert paddle.tensor.create_tensor("int64").persistable is False


def test_num_shard():
    assert paddle.to_tensor([1.0]).num_shard is None
    import paddle_compat.distributed.auto_parallel  # noqa: F401  (reads DTensor placements)
    import torch.distributed as tdist
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.tensor import Replicate, Shard, distribute_tensor
    if tdist.is_initialized():
        pytest.skip("a process group is already running")
    tdist.init_process_group("gloo", store=tdist.FileStore(tempfile.mktemp(), 1), rank=0,
                             world_size=1)
    try:
        mesh = init_device_mesh("cpu", (1, 1))
        d = wrap(distribute_tensor(torch.ones(4, 2), mesh, [Shard(0), Replicate()]))
        assert d.num_shard == 1
    finally:
        tdist.destroy_process_group()


def test_top_p_sampling():
    # Paddle's documented example (a GPU kernel): negative top_p keeps only the best score
    x = paddle.to_tensor([[-0.32012719, -0.07942779, 0.26011357],
                          [0.79003978, -0.39958701, 1.42184138]])
    value, index = paddle.tensor.top_p_sampling(x, paddle.to_tensor([-0.32012719, -0.07942779]))
    np.testing.assert_allclose(value.numpy(), [[0.26011357], [1.42184138]], rtol=1e-7)
    assert index.dtype == paddle.int64 and index.tolist() == [[2], [2]]
    # the nucleus: with p = 0.5 only [0.5] (row 0) / [0.7] (row 1) can be drawn
    probs = paddle.to_tensor([[0.1, 0.5, 0.2, 0.2], [0.7, 0.1, 0.1, 0.1]])
    for s in range(20):
        v, i = probs.top_p_sampling(paddle.to_tensor([0.5, 0.5]), seed=s)
        assert i.tolist() == [[1], [0]]
    # p = 0.75 keeps {0.5, 0.2, 0.2} in row 0; draws hit only those, and a seed repeats
    seen = set()
    for s in range(40):
        v, i = probs.top_p_sampling(paddle.to_tensor([0.75, 0.75]), seed=s)
        seen.add(i.tolist()[0][0])
        np.testing.assert_array_equal(v.numpy()[:, 0], probs.numpy()[[0, 1], i.numpy()[:, 0]])
        assert probs.top_p_sampling(paddle.to_tensor([0.75, 0.75]), seed=s)[1].tolist() == \
            i.tolist()
    assert seen == {1, 2, 3}
    # a threshold drops low scores; return_top adds the k best
    v, i, tv, ti = probs.top_p_sampling(paddle.to_tensor([1.0, 1.0]),
                                        threshold=paddle.to_tensor([0.3, 0.3]),
                                        return_top=True, k=2)
    assert i.tolist() == [[1], [0]]
    assert ti.shape == [2, 2] and ti.numpy()[:, 0].tolist() == [1, 0]
    np.testing.assert_allclose(tv.numpy()[:, 0], [0.5, 0.7])
