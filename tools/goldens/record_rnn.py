"""Record Paddle 3.3.1's recurrent layers (cells, ``RNN``/``BiRNN``, ``SimpleRNN``/``LSTM``/
``GRU``) and the decoder side of the Transformer as goldens for tests/test_rnn.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_rnn.py

Writes tests/goldens/rnn.json in the format of nn_layers.json (``{"prelude", "cases"}``; each
case's code runs after the prelude in a fresh unique-name scope and leaves its result in
``out``), and tests/data/paddle/lstm.pdparams (a Paddle-saved LSTM state dict that the test
loads with ``set_state_dict``).

The recurrent cases build their layers right after ``paddle.seed``: the initial values are
compared bit for bit (Paddle's uniform stream), and the forward/backward values follow from
them. ``fb`` returns the outputs, the final states, the input gradients and the parameter
gradients (by structured name) of a fixed weighted sum of the outputs and final states.
"""
import os
import sys
import warnings

warnings.filterwarnings("ignore")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))

import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)

from layercase import record  # noqa: E402

OUT = os.path.join(ROOT, "tests", "goldens", "rnn.json")
PDPARAMS = os.path.join(ROOT, "tests", "data", "paddle", "lstm.pdparams")

PRELUDE = '''
nn = paddle.nn
F = paddle.nn.functional

def inp(*shape, seed=0, dtype="float32", grad=True):
    t = paddle.to_tensor(np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype))
    t.stop_gradient = not grad
    return t

def load(layer, seed=1):
    """Deterministic values for every parameter and persistable buffer."""
    r = np.random.default_rng(seed)
    new = {}
    for k, v in layer.state_dict().items():
        a = v.numpy()
        new[k] = r.uniform(-1.0, 1.0, a.shape).astype(a.dtype)
    layer.set_state_dict(new)
    return layer

def leaves(s):
    if isinstance(s, (list, tuple)):
        return [t for item in s for t in leaves(item)]
    return [s]

def weighted(t, k=0):
    w = np.linspace(-1, 1 + 0.1 * k, int(np.prod(t.shape))).reshape(t.shape)
    return (t * paddle.to_tensor(w.astype(str(t.dtype).replace("paddle.", "")))).sum()

def fb(layer, *args, **kwargs):
    """Forward; backward of a weighted sum of the outputs and every final state; returns
    [outputs, final states, grads of the differentiable tensor args, param grads by name]."""
    y, states = layer(*args, **kwargs)
    loss = weighted(y)
    for k, s in enumerate(leaves(states)):
        loss = loss + weighted(s, k + 1)
    loss.backward()
    grads = [t.grad for t in leaves(list(args)) if isinstance(t, paddle.Tensor)
             and not t.stop_gradient]
    return [y, states, grads,
            {n: p.grad for n, p in layer.named_parameters() if not p.stop_gradient}]

def params(layer):
    return {n: p for n, p in layer.named_parameters()}
'''

CASES = []


def case(cid, code):
    CASES.append((cid, code.strip("\n")))


# ------------------------------------------------------------------ initial values (bit exact)
case("init_lstm", "paddle.seed(2023); m = nn.LSTM(3, 4, num_layers=2, direction='bidirect')\n"
     "out = params(m)")
case("init_gru", "paddle.seed(7); m = nn.GRU(5, 3, num_layers=2)\nout = params(m)")
case("init_simple_rnn", "paddle.seed(8); m = nn.SimpleRNN(2, 6, direction='bidirectional')\n"
     "out = params(m)")
case("init_cells", "paddle.seed(9)\nout = [params(c) for c in (nn.SimpleRNNCell(3, 5), "
     "nn.LSTMCell(3, 5), nn.GRUCell(3, 5), nn.LSTMCell(3, 5, proj_size=2))]")
case("init_lstm_proj", "paddle.seed(10); m = nn.LSTM(3, 5, num_layers=2, proj_size=2, "
     "direction='bidirect')\nout = [params(m), list(m.state_dict().keys())]")
case("init_lstm_f64", "paddle.set_default_dtype('float64')\npaddle.seed(11)\n"
     "try:\n    m = nn.LSTM(2, 3)\n    c = nn.GRUCell(2, 3)\nfinally:\n"
     "    paddle.set_default_dtype('float32')\nout = [params(m), params(c)]")
case("init_then_randn", "paddle.seed(12); m = nn.GRU(2, 3); out = [m.weight_hh_l0, "
     "paddle.randn([4])]")

# ------------------------------------------------------------------ names, keys, printing
case("keys_lstm", '''
m = nn.LSTM(3, 4, num_layers=2, direction='bidirect')
out = [list(m.state_dict().keys()), [(n, p.name, p.shape) for n, p in m.named_parameters()],
       m.weight_ih_l1_reverse is m[1].cell_bw.weight_ih, len(m.parameters()), len(m),
       [type(l).__name__ for l in m], m.could_use_cudnn, m.num_directions,
       m.state_components]
''')
case("keys_gru_no_bias_ih", '''
m = nn.GRU(3, 4, bias_ih_attr=False)
out = [list(m.state_dict().keys()), [(n, p.shape, p.stop_gradient) for n, p in
       m.named_parameters()], m[0].cell.bias_ih, m[0].cell.weight_ih.stop_gradient,
       m.bias_hh_l0 is m[0].cell.bias_ih]
''')
case("keys_frozen_weights", '''
m = nn.SimpleRNNCell(2, 3, weight_ih_attr=False, bias_hh_attr=False)
out = [m.weight_ih, m.bias_hh, m.weight_ih.stop_gradient, m.weight_hh.stop_gradient]
''')
case("keys_param_attr", '''
m = nn.LSTMCell(2, 3, weight_ih_attr=paddle.ParamAttr(name='wih',
                initializer=nn.initializer.Constant(0.5)))
out = [m.weight_ih, m.weight_ih.name, m.weight_hh.name, m.bias_ih.name]
''')
case("print_rnns", '''
out = [nn.LSTM(3, 4, num_layers=2, direction='bidirect'),
       nn.GRU(3, 4, time_major=True, dropout=0.5),
       nn.SimpleRNN(3, 4, activation='relu', num_layers=2, time_major=True, dropout=0.5),
       nn.SimpleRNNCell(3, 4, activation='relu'), nn.SimpleRNNCell(3, 4), nn.LSTMCell(3, 4),
       nn.GRUCell(3, 4), nn.RNN(nn.LSTMCell(3, 4), is_reverse=True),
       nn.BiRNN(nn.GRUCell(3, 4), nn.GRUCell(3, 4)), nn.LSTM(3, 4, proj_size=2)]
''')
case("errors", '''
r = []
for ctor in (lambda: nn.LSTM(3, 4, direction='backward'), lambda: nn.GRUCell(3, 0),
             lambda: nn.SimpleRNN(3, 4, activation='gelu'),
             lambda: nn.SimpleRNNCell(3, 4, activation='gelu'),
             lambda: nn.LSTMCell(3, 4, proj_size=4),
             lambda: nn.BiRNN(nn.GRUCell(3, 4), nn.GRUCell(2, 4))):
    try:
        ctor()
        r.append('ok')
    except Exception as e:
        r.append(type(e).__name__)
out = r
''')
case("state_shapes", '''
out = [nn.SimpleRNNCell(3, 4).state_shape, nn.LSTMCell(3, 4).state_shape,
       nn.GRUCell(3, 4).state_shape,
       nn.LSTMCell(3, 4).get_initial_states(inp(5, 3)),
       nn.GRUCell(3, 4).get_initial_states(inp(2, 5, 3), batch_dim_idx=1, init_value=0.5),
       nn.GRUCell(3, 4).get_initial_states(inp(2, 3), shape=((-1, 2), (3,)), dtype='float64'),
       nn.GRUCell(3, 4).get_initial_states(inp(2, 3), shape=((2,), (3,)),
                                           dtype=('float64', 'float32'))]
''')

# ------------------------------------------------------------------ cells, one step
case("cell_simple_tanh", "paddle.seed(1); m = nn.SimpleRNNCell(3, 4)\n"
     "out = fb(m, inp(2, 3), inp(2, 4, seed=1))")
case("cell_simple_relu_nostate", "paddle.seed(2); m = nn.SimpleRNNCell(3, 4, activation='relu')\n"
     "out = fb(m, inp(2, 3))")
case("cell_lstm", "paddle.seed(3); m = nn.LSTMCell(3, 4)\n"
     "out = fb(m, inp(2, 3), (inp(2, 4, seed=1), inp(2, 4, seed=2)))")
case("cell_lstm_proj", "paddle.seed(4); m = nn.LSTMCell(3, 4, proj_size=2)\n"
     "out = fb(m, inp(2, 3), (inp(2, 2, seed=1), inp(2, 4, seed=2)))")
case("cell_gru", "paddle.seed(5); m = nn.GRUCell(3, 4)\n"
     "out = fb(m, inp(2, 3), inp(2, 4, seed=1))")
case("cell_gru_nostate", "paddle.seed(6); m = nn.GRUCell(3, 4)\nout = fb(m, inp(2, 3))")

# ------------------------------------------------------------------ RNN / BiRNN wrappers
case("rnn_wrapper_lstm", "paddle.seed(20); m = nn.RNN(nn.LSTMCell(3, 4))\n"
     "out = fb(m, inp(2, 5, 3))")
case("rnn_wrapper_reverse_tm", "paddle.seed(21); m = nn.RNN(nn.GRUCell(3, 4), is_reverse=True, "
     "time_major=True)\nout = fb(m, inp(5, 2, 3), inp(2, 4, seed=1))")
case("rnn_wrapper_seq", "paddle.seed(22); m = nn.RNN(nn.SimpleRNNCell(3, 4))\n"
     "out = fb(m, inp(3, 5, 3), sequence_length=paddle.to_tensor([5, 2, 3]))")
case("rnn_wrapper_reverse_seq", "paddle.seed(23); m = nn.RNN(nn.LSTMCell(3, 4), is_reverse=True)\n"
     "out = fb(m, inp(3, 5, 3), sequence_length=paddle.to_tensor([5, 2, 3]))")
case("birnn_gru_seq", "paddle.seed(24); m = nn.BiRNN(nn.GRUCell(3, 4), nn.GRUCell(3, 4))\n"
     "out = fb(m, inp(3, 5, 3), sequence_length=paddle.to_tensor([5, 2, 3]))")
case("birnn_lstm_states_tm", "paddle.seed(25)\n"
     "m = nn.BiRNN(nn.LSTMCell(3, 4), nn.LSTMCell(3, 4), time_major=True)\n"
     "s = ((inp(2, 4, seed=1), inp(2, 4, seed=2)), (inp(2, 4, seed=3), inp(2, 4, seed=4)))\n"
     "out = fb(m, inp(5, 2, 3), s)")

# ------------------------------------------------------------------ the networks
NETS = {
    "lstm_1": ("nn.LSTM(3, 4)", "inp(2, 5, 3)"),
    "lstm_2_bi": ("nn.LSTM(3, 4, num_layers=2, direction='bidirect')", "inp(2, 5, 3)"),
    "lstm_2_tm": ("nn.LSTM(3, 4, num_layers=2, time_major=True)", "inp(5, 2, 3)"),
    "lstm_bi_tm": ("nn.LSTM(3, 4, direction='bidirectional', time_major=True)", "inp(5, 2, 3)"),
    "gru_1": ("nn.GRU(3, 4)", "inp(2, 5, 3)"),
    "gru_2_bi": ("nn.GRU(3, 4, num_layers=2, direction='bidirect')", "inp(2, 5, 3)"),
    "gru_2_tm": ("nn.GRU(3, 4, num_layers=2, time_major=True)", "inp(5, 2, 3)"),
    "simple_tanh_2_bi": ("nn.SimpleRNN(3, 4, num_layers=2, direction='bidirect')",
                         "inp(2, 5, 3)"),
    "simple_relu_tm": ("nn.SimpleRNN(3, 4, activation='relu', time_major=True)",
                       "inp(5, 2, 3)"),
    "lstm_proj_2_bi": ("nn.LSTM(3, 5, num_layers=2, direction='bidirect', proj_size=2)",
                       "inp(2, 4, 3)"),
}
for i, (k, (ctor, x)) in enumerate(NETS.items()):
    case(f"net_{k}", f"paddle.seed({30 + i}); m = {ctor}\nout = fb(m, {x})")

case("net_lstm_states", "paddle.seed(50); m = nn.LSTM(3, 4, num_layers=2, direction='bidirect')\n"
     "out = fb(m, inp(2, 5, 3), (inp(4, 2, 4, seed=1), inp(4, 2, 4, seed=2)))")
case("net_gru_state", "paddle.seed(51); m = nn.GRU(3, 4, num_layers=2)\n"
     "out = fb(m, inp(2, 5, 3), inp(2, 2, 4, seed=1))")
case("net_lstm_seq_bi", "paddle.seed(52); m = nn.LSTM(3, 4, num_layers=2, direction='bidirect')\n"
     "out = fb(m, inp(3, 5, 3), sequence_length=paddle.to_tensor([5, 2, 3]))")
case("net_gru_seq_tm", "paddle.seed(53); m = nn.GRU(3, 4, time_major=True)\n"
     "out = fb(m, inp(5, 3, 3), sequence_length=paddle.to_tensor([1, 5, 4], dtype='int32'))")
case("net_simple_seq_bi", "paddle.seed(54); m = nn.SimpleRNN(3, 4, direction='bidirect')\n"
     "out = fb(m, inp(3, 5, 3), sequence_length=paddle.to_tensor([3, 5, 2]))")
case("net_lstm_proj_seq", "paddle.seed(55); m = nn.LSTM(3, 5, proj_size=2)\n"
     "out = fb(m, inp(3, 4, 3), sequence_length=paddle.to_tensor([4, 1, 3]))")
case("net_lstm_f64", "paddle.set_default_dtype('float64')\npaddle.seed(56)\n"
     "try:\n    m = nn.LSTM(3, 4, num_layers=2, direction='bidirect')\nfinally:\n"
     "    paddle.set_default_dtype('float32')\nout = fb(m, inp(2, 5, 3, dtype='float64'))")
case("net_gru_f64_seq", "paddle.set_default_dtype('float64')\npaddle.seed(57)\n"
     "try:\n    m = nn.GRU(3, 4, direction='bidirect')\nfinally:\n"
     "    paddle.set_default_dtype('float32')\n"
     "out = fb(m, inp(3, 5, 3, dtype='float64'), sequence_length=paddle.to_tensor([5, 2, 4]))")
case("net_eval_dropout", "paddle.seed(58); m = nn.LSTM(3, 4, num_layers=3, dropout=0.7)\n"
     "m.eval()\ny, (h, c) = m(inp(2, 5, 3, grad=False))\nout = [y, h, c]")
case("net_list_state", "paddle.seed(59); m = nn.GRU(3, 4)\n"
     "y, h = m(inp(2, 3, 3, grad=False), [inp(1, 2, 4, seed=1, grad=False)])\nout = [y, h]")

# ------------------------------------------------------------------ Transformer decoder side
case("init_decoder_layer", "paddle.seed(60); m = nn.TransformerDecoderLayer(8, 2, 16)\n"
     "out = [(n, p) for n, p in m.named_parameters()]")
case("keys_transformer", '''
m = nn.Transformer(8, 2, 2, 1, 16)
out = [list(m.state_dict().keys()), [p.name for p in m.parameters()][:6], len(m.parameters())]
''')
case("print_transformer_full", "out = nn.Transformer(8, 2, 1, 2, 16, normalize_before=True)")
case("print_decoder", "out = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16), 2, "
     "nn.LayerNorm(8))")
case("fb_decoder_layer", "m = load(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0))\n"
     "out = m(inp(2, 3, 8), inp(2, 4, 8, seed=1))")
case("fb_decoder_layer_grads", '''
m = load(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, activation='gelu',
                                    normalize_before=True))
tgt, mem = inp(2, 3, 8), inp(2, 4, 8, seed=1)
mask = paddle.to_tensor(np.tril(np.ones([3, 3])).astype('bool'))
y = m(tgt, mem, tgt_mask=mask, memory_mask=paddle.to_tensor(np.array([[0., 0., -1e9, 0.]],
      'float32')))
weighted(y).backward()
out = [y, tgt.grad, mem.grad, {n: p.grad for n, p in m.named_parameters()}]
''')
case("fb_decoder_stack", '''
m = load(nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0), 2,
                               nn.LayerNorm(8)))
tgt, mem = inp(2, 3, 8), inp(2, 4, 8, seed=1)
y = m(tgt, mem, tgt_mask=paddle.to_tensor(np.tril(np.ones([3, 3])).astype('int64')))
weighted(y).backward()
out = [y, tgt.grad, mem.grad, m.layers[1].cross_attn.k_proj.weight.grad]
''')
case("fb_transformer", '''
m = load(nn.Transformer(8, 2, 2, 2, 16, dropout=0.0))
src, tgt = inp(2, 4, 8), inp(2, 3, 8, seed=1)
mask = m.generate_square_subsequent_mask(3)
y = m(src, tgt, tgt_mask=mask)
weighted(y).backward()
out = [mask, y, src.grad, tgt.grad, m.encoder.layers[0].linear1.weight.grad,
       m.decoder.norm.weight.grad]
''')
case("transformer_attrs", '''
m = nn.Transformer(8, 2, 1, 1, 16, weight_attr=[paddle.ParamAttr(
    initializer=nn.initializer.Constant(0.1)), paddle.ParamAttr(
    initializer=nn.initializer.Constant(0.2)), paddle.ParamAttr(
    initializer=nn.initializer.Constant(0.3))], bias_attr=[False, None])
out = [m.encoder.layers[0].self_attn.q_proj.weight[0, :2],
       m.encoder.layers[0].linear1.weight[0, :2],
       m.decoder.layers[0].cross_attn.q_proj.weight[0, :2],
       m.decoder.layers[0].linear2.weight[0, :2], m.decoder.layers[0].self_attn.q_proj.bias,
       m.decoder.layers[0].linear1.bias is None, m.encoder.layers[0].self_attn.k_proj.bias]
''')
case("transformer_mask_shapes", '''
m = nn.Transformer(8, 2, 1, 1, 16)
out = [m.generate_square_subsequent_mask(4), m.generate_square_subsequent_mask(
       paddle.to_tensor(2))]
''')
case("decoder_cache_incremental", '''
m = load(nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0), 2))
mem = inp(2, 4, 8, seed=1, grad=False)
cache = m.gen_cache(mem)
steps = [inp(2, 1, 8, seed=s, grad=False) for s in (3, 4, 5)]
outs = []
for x in steps:
    o, cache = m(x, mem, cache=cache)
    outs.append(o)
full = m(paddle.concat(steps, 1), mem, tgt_mask=paddle.to_tensor(np.tril(np.ones([3, 3]))
         .astype('bool')))
out = [outs, full, [type(c).__name__ for c in cache[0]], cache[0][0].k.shape,
       cache[1][1].v.shape, [len(z) for z in m.gen_cache(mem, do_zip=True)]]
''')
case("decoder_layer_cache", '''
m = load(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, normalize_before=True))
mem = inp(2, 4, 8, seed=1, grad=False)
inc, static = m.gen_cache(mem)
o, (inc2, static2) = m(inp(2, 1, 8, seed=3, grad=False), mem, cache=(inc, static))
out = [o, inc.k.shape, inc2.k, static2.v, static is static2]
''')


# ------------------------------------------------------------------ beam search
BEAM_SETUP = '''
emb = load(nn.Embedding(7, 4), seed=3)
cell = load(nn.GRUCell(4, 5), seed=4)
proj = load(nn.Linear(5, 7), seed=5)
dec = nn.BeamSearchDecoder(cell, start_token=0, end_token=1, beam_size=3, embedding_fn=emb,
                           output_fn=proj)
h0 = inp(2, 5, seed=6, grad=False)
'''
case("beam_search_decode", BEAM_SETUP + '''
ids, states = nn.dynamic_decode(dec, inits=h0, max_step_num=6)
out = [ids, states.log_probs, states.finished, states.lengths, states.cell_states,
       type(states).__name__]
''')
case("beam_search_decode_time_major_length", BEAM_SETUP + '''
ids, states, lengths = nn.dynamic_decode(dec, inits=h0, max_step_num=3, output_time_major=True,
                                         return_length=True)
out = [ids, lengths, states.log_probs]
''')
case("beam_search_lstm_states", '''
emb = load(nn.Embedding(6, 3), seed=7)
cell = load(nn.LSTMCell(3, 4), seed=8)
proj = load(nn.Linear(4, 6), seed=9)
dec = nn.BeamSearchDecoder(cell, 0, 5, 2, embedding_fn=emb, output_fn=proj)
ids, states = nn.dynamic_decode(dec, inits=(inp(3, 4, seed=1, grad=False),
                                            inp(3, 4, seed=2, grad=False)), max_step_num=4)
out = [ids, states.log_probs, states.lengths, states.cell_states]
''')
case("beam_tile_merge", "x = inp(2, 3, grad=False)\n"
     "out = nn.BeamSearchDecoder.tile_beam_merge_with_batch(x, 3)")
case("beam_search_steps", BEAM_SETUP + '''
inputs, state, finished = dec.initialize(h0)
r = [inputs, state.log_probs, finished, state.lengths, state.cell_states]
for t in range(2):
    o, state, inputs, finished = dec.step(paddle.to_tensor([t]), inputs, state)
    r += [o.scores, o.predicted_ids, o.parent_ids, state.log_probs, finished, state.lengths]
out = r
''')

def write_pdparams():
    """A Paddle-saved LSTM state dict; returns the case that loads it back and runs it."""
    paddle.seed(70)
    m = paddle.nn.LSTM(3, 4, num_layers=2, direction="bidirect")
    os.makedirs(os.path.dirname(PDPARAMS), exist_ok=True)
    paddle.save(m.state_dict(), PDPARAMS)
    case("pdparams_lstm_load", '''
sd = paddle.load(PDPARAMS)
m = nn.LSTM(3, 4, num_layers=2, direction='bidirect')
missing, unexpected = m.set_state_dict(sd)
y, (h, c) = m(inp(2, 5, 3, grad=False))
out = [sorted(sd.keys()), missing, unexpected, y, h, c, m[1].cell_bw.bias_hh]
''')


def main():
    write_pdparams()
    record(CASES, PRELUDE, OUT, PDPARAMS=PDPARAMS)


if __name__ == "__main__":
    main()
