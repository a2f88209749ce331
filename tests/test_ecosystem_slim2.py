"""The Paddle internals PaddleSlim 2.6.0 reaches beyond dygraph quantization (issue 30,
tools/ecosystem/drivers/paddleslim_static_driver.py), against Paddle 3.3.1
(tests/goldens/ecosystem_slim2.json from tools/goldens/record_ecosystem_slim2.py): static
quantization ``utils``/``quant_config``, ``_create_tensor`` with the legacy channel-wise fake
quant op, positional ``_C_ops.batch_norm``/``layer_norm``, ``op_proto_and_checker_maker``,
``paddle.incubate.asp``, ``paddle.static.amp``. Each case's code runs here with ``import
paddle`` resolving to paddle_compat and must give Paddle's values (float32 tolerance of its
depth) or the built-in type of its error. Cases recorded in Paddle's legacy static graph
(``mode: legacy``) run as they are: paddle_compat's static programs follow that graph."""
import json
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from test_ecosystem_slim import check_case  # noqa: E402

GOLDEN = os.path.join(os.path.dirname(__file__), "goldens", "ecosystem_slim2.json")
with open(GOLDEN) as _f:
    CASES = json.load(_f)

pytestmark = pytest.mark.usefixtures("paddle_hook")   # conftest: import paddle -> paddle_compat


@pytest.fixture(autouse=True)
def _fresh_asp_state():
    """ASP keeps masks per program by parameter name (as Paddle): each case starts afresh, as
    each recording process did."""
    from paddle_compat.incubate import asp  # noqa: PLC0415
    asp._INFO.clear()
    yield
    asp._INFO.clear()


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name):
    check_case(CASES[name])


def test_asp_decorate_works_in_paddle_3_dynamic_default():
    """Paddle 3.3.1's ``asp.decorate`` fails in dynamic mode under its default PIR flag
    (``pir.Block`` has no ``create_parameter``) against its own documented example; ours
    follows the docs: decorated steps keep the pruned weights 2:4 sparse."""
    import paddle  # noqa: PLC0415
    from paddle.incubate import asp  # noqa: PLC0415
    with paddle.utils.unique_name.guard():
        net = paddle.nn.Linear(8, 4)
    opt = asp.decorate(paddle.optimizer.SGD(0.5, parameters=net.parameters()))
    masks = asp.prune_model(net)
    assert list(masks) == [net.weight.name]
    for _ in range(2):
        net(paddle.ones([3, 8])).sum().backward()
        opt.step()
        opt.clear_grad()
    w = net.weight.numpy()
    assert asp.calculate_density(w) == 0.5
    assert asp.check_sparsity(w.T, asp.CheckMethod.CHECK_1D)
    assert (w[masks[net.weight.name] == 0] == 0).all()


def test_channel_wise_qdq_bad_axis_and_out():
    import paddle  # noqa: PLC0415
    op = paddle._legacy_C_ops.fake_channel_wise_quantize_dequantize_abs_max
    x = paddle.ones([2, 3])
    with pytest.raises(ValueError, match="quant_axis"):
        op(x, paddle.zeros([2, 3]), paddle.zeros([2]), "quant_axis", 2)
    with pytest.raises(TypeError, match="out must be a Tensor"):
        op(x, None, paddle.zeros([2]), "quant_axis", 0)


def test_core_graph_refuses_with_the_reason():
    """``core.Graph`` (what PaddleSlim's static tools build over ``program.desc``) exists and
    says why it cannot be built: no ProgramDesc here, none in Paddle 3.3.1's PIR programs."""
    import paddle  # noqa: PLC0415
    with pytest.raises(NotImplementedError, match="ProgramDesc.*PIR"):
        paddle.framework.core.Graph(None)
    assert paddle.base.core.Graph is paddle.framework.core.Graph
