"""paddlespeech 1.5.0: audio features on a seeded waveform (``paddle.audio.features`` as
paddlespeech's CLI uses them, and ``paddlespeech.audio.compliance.kaldi``), a DeepSpeech2 ASR
model (conv + GRU, CTC loss, 3 Adam steps, greedy CTC decoding, save/reload), a small
Conformer U2 model from its config dict (CTC + attention loss, 3 steps, ctc greedy / prefix
beam search / attention rescoring, reload), and a FastSpeech2 acoustic model with its
``FastSpeech2Loss`` (3 steps, inference, reload). Seeded weights, no download; dropout 0."""
import inspect
import os

import numpy as np
import paddle
import paddlespeech
from paddlespeech.audio.compliance import kaldi
from paddlespeech.s2t.modules import align
from paddlespeech.t2s.models.fastspeech2 import fastspeech2 as fs2_module
from paddlespeech.t2s.modules import nets_utils
from paddlespeech.s2t.models.ds2 import DeepSpeech2Model
from paddlespeech.s2t.models.u2 import U2Model
from paddlespeech.t2s.models.fastspeech2 import FastSpeech2, FastSpeech2Loss

from _common import Driver, jittered, seed_params, train_steps

d = Driver("paddlespeech")
state = {}


def waveform(n=8000, seed=3):
    """A seeded 16 kHz waveform: two tones and a little noise, float32 in [-1, 1]."""
    t = np.arange(n) / 16000.0
    rng = np.random.RandomState(seed)
    wav = 0.5 * np.sin(2 * np.pi * 440 * t) + 0.2 * np.sin(2 * np.pi * 1250 * t) \
        + 0.05 * rng.standard_normal(n)
    return jittered(wav.astype("float32"), seed)


def reloaded(model, build):
    """``model`` saved with ``paddle.save`` and loaded into a fresh ``build()``."""
    path = os.path.join(d.tmp, f"{type(model).__name__}.pdparams")
    paddle.save(model.state_dict(), path)
    fresh = build()
    fresh.set_state_dict(paddle.load(path))
    fresh.eval()
    return fresh


def greedy_ctc(logits, lens, blank=0):
    """Best path: argmax per frame, repeats merged, blanks dropped."""
    best = logits.argmax(-1).numpy()
    out = []
    for row, n in zip(best, lens.numpy()):
        seq, prev = [], None
        for tok in row[:n]:
            if tok != prev and tok != blank:
                seq.append(int(tok))
            prev = tok
        out.append(seq)
    return out


def error_of(fn):
    """The type name of the exception ``fn()`` raises, or None."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type is the output
        return type(e).__name__
    return None


ALIGNED = ("LayerNorm", "BatchNorm1D", "Linear", "Conv1D", "Conv2D")


def by_keyword(cls):
    """Give align's ``cls`` a constructor that binds its own signature and hands every
    argument to the Paddle layer it derives from by keyword (the library's default attributes
    only set initializers; seed_params overwrites every weight)."""
    sig = inspect.signature(cls.__init__)
    parent = cls.__mro__[1]

    def __init__(self, *args, **kwargs):
        bound = sig.bind(self, *args, **kwargs)
        bound.apply_defaults()
        kw = dict(bound.arguments)
        kw.pop("self")
        parent.__init__(self, **kw)
    cls.__init__ = __init__


def make_pad_mask(lengths, xs=None, length_dim=-1):
    """nets_utils.make_pad_mask for 1-D or 0-D ``lengths`` and no ``xs``: True on padding."""
    if xs is not None:
        raise NotImplementedError("the driver's make_pad_mask takes lengths only")
    lengths = lengths.reshape([-1])
    maxlen = int(lengths.max())
    steps = paddle.arange(0, maxlen, dtype=paddle.int64).unsqueeze(0)
    return steps.expand([lengths.shape[0], maxlen]) >= lengths.unsqueeze(-1).astype("int64")


@d.stage("paddle_331_breaks")
def _():
    """Two paddlespeech 1.5.0 paths Paddle 3.3.1 itself stops; recorded, then stepped around:
    ``s2t.modules.align``'s layers pass all their arguments positionally (Paddle 3.3.1's
    ``nn.Conv2D`` takes those after ``groups`` by keyword only, ``nn.LayerNorm`` those after
    ``epsilon``), and ``t2s`` ``make_pad_mask``
    expands by ``[paddle.shape(lengths), maxlen]`` (a 1-D shape tensor in the shape list),
    and ``s2t`` attention calls ``paddle.softmax(x, axis=-1)`` (Paddle 3.3.1's ``paddle.softmax``
    is the torch-style ``paddle.compat`` one, which refuses ``axis``)."""
    d.put("break.align_conv2d", error_of(lambda: align.Conv2D(1, 4, 3, 2)))
    d.put("break.align_layernorm", error_of(lambda: align.LayerNorm(8)))
    d.put("break.align_linear", error_of(lambda: align.Linear(8, 4)))
    d.put("break.align_batchnorm1d", error_of(lambda: align.BatchNorm1D(8)))
    d.put("break.softmax_axis", error_of(lambda: paddle.softmax(paddle.ones([2, 3]), axis=-1)))
    # make_pad_mask raises SystemError on Paddle 3.3.1 and gives the mask on paddle_compat:
    # paddle.expand's docs take 1-D shape-[1] tensors in the shape list (not recorded here)
    for name in ALIGNED:
        by_keyword(getattr(align, name))
    nets_utils.make_pad_mask = fs2_module.make_pad_mask = make_pad_mask
    paddle.softmax = paddle.nn.functional.softmax     # s2t attention calls softmax(x, axis=-1)


@d.stage("audio")
def _():
    wav = paddle.to_tensor(waveform()[None])
    for name, layer in {
            "logmel": paddle.audio.features.LogMelSpectrogram(
                sr=16000, n_fft=400, hop_length=160, n_mels=40, f_min=20.0),
            "mfcc": paddle.audio.features.MFCC(
                sr=16000, n_mfcc=13, n_fft=400, hop_length=160, n_mels=40),
            "spectrogram": paddle.audio.features.Spectrogram(n_fft=256, hop_length=128),
            "melspec": paddle.audio.features.MelSpectrogram(
                sr=16000, n_fft=400, hop_length=160, n_mels=32, norm="slaney")}.items():
        d.put(f"audio.{name}", layer(wav))
    one = paddle.to_tensor(waveform(seed=4)[None] * 32768.0)
    feats = kaldi.fbank(one, n_mels=40, frame_length=25, frame_shift=10, sr=16000)
    state["fbank"] = feats
    d.put("audio.kaldi_fbank", feats)
    d.put("audio.kaldi_mfcc", kaldi.mfcc(one, n_mfcc=13, n_mels=23, sr=16000))
    d.put("audio.kaldi_spectrogram", kaldi.spectrogram(one, sr=16000))
    d.put("audio.window", paddle.audio.functional.get_window("hann", 64))
    d.put("audio.fbank_matrix", paddle.audio.functional.compute_fbank_matrix(16000, 256, n_mels=20))


def asr_batch():
    """Two utterances of 40-dim features (the second padded) and their token labels."""
    rng = np.random.RandomState(5)
    feats = rng.standard_normal((2, 48, 40)).astype("float32")
    feats[1, 40:] = 0.0
    text = np.array([[3, 5, 2, 7, 4], [6, 1, 8, 0, 0]], "int64")
    return (paddle.to_tensor(jittered(feats, 5)), paddle.to_tensor([48, 40], "int64"),
            paddle.to_tensor(text), paddle.to_tensor([5, 3], "int64"))


DS2 = dict(feat_size=40, dict_size=10, num_conv_layers=2, num_rnn_layers=2, rnn_size=24,
           rnn_direction="bidirect", num_fc_layers=1, fc_layers_size_list=[16], use_gru=True)


@d.stage("ds2")
def _():
    def build():
        m = DeepSpeech2Model(**DS2)
        seed_params(m, seed=11)
        return m
    model = build()
    audio, alen, text, tlen = asr_batch()
    model.eval()
    d.put("ds2.loss0", model(audio, alen, text, tlen))
    eouts, elens, _, _ = model.encoder(audio, alen)
    d.put("ds2.eouts", eouts)
    d.put("ds2.eouts_len", elens)
    model.train()
    d.put("ds2.train", train_steps(model, lambda: model(audio, alen, text, tlen), lr=1e-2, opt="adam"))
    model.eval()
    fresh = reloaded(model, build)
    d.put("ds2.reloaded_loss", fresh(audio, alen, text, tlen))
    with paddle.no_grad():
        eouts, elens, _, _ = fresh.encoder(audio, alen)
        d.put("ds2.probs", fresh.decoder.softmax(eouts))
        d.put("ds2.greedy", greedy_ctc(fresh.decoder.ctc_lo(eouts), elens))


U2_CONF = {
    "input_dim": 40, "output_dim": 10, "cmvn_file": None, "encoder": "conformer",
    "encoder_conf": {"output_size": 32, "attention_heads": 2, "linear_units": 48,
                     "num_blocks": 2, "dropout_rate": 0.0, "positional_dropout_rate": 0.0,
                     "attention_dropout_rate": 0.0, "input_layer": "conv2d",
                     "normalize_before": True, "cnn_module_kernel": 5, "use_cnn_module": True,
                     "activation_type": "swish", "pos_enc_layer_type": "rel_pos",
                     "selfattention_layer_type": "rel_selfattn"},
    "decoder": "transformer",
    "decoder_conf": {"attention_heads": 2, "linear_units": 48, "num_blocks": 1,
                     "dropout_rate": 0.0, "positional_dropout_rate": 0.0,
                     "self_attention_dropout_rate": 0.0, "src_attention_dropout_rate": 0.0},
    "model_conf": {"ctc_weight": 0.3, "lsm_weight": 0.1, "length_normalized_loss": False},
}


@d.stage("u2")
def _():
    import copy

    def build():
        m = U2Model.from_config(copy.deepcopy(U2_CONF))
        seed_params(m, seed=13)
        return m
    model = build()
    audio, alen, text, tlen = asr_batch()
    model.eval()
    d.put("u2.loss0", list(model(audio, alen, text, tlen)))
    model.train()
    # Momentum, not Adam: the conformer's depthwise-conv biases feed a BatchNorm, so their
    # gradient is rounding noise, which Adam scales to +-lr steps (Paddle's own 1e-6 jitter
    # run moved them by 0.023); the eval outputs then follow the running means
    d.put("u2.train", train_steps(model, lambda: model(audio, alen, text, tlen)[0], lr=0.05,
                                  opt="momentum"))
    model.eval()
    fresh = reloaded(model, build)
    d.put("u2.reloaded_loss", list(fresh(audio, alen, text, tlen)))
    with paddle.no_grad():
        enc, mask = fresh._forward_encoder(audio, alen)
        d.put("u2.encoder", enc)
        d.put("u2.ctc_logprobs", fresh.ctc.log_softmax(enc))
        d.put("u2.ctc_greedy", fresh.ctc_greedy_search(audio, alen))
        d.put("u2.prefix_beam", fresh.ctc_prefix_beam_search(audio[:1], alen[:1], beam_size=3))
        d.put("u2.rescoring", fresh.attention_rescoring(audio[:1], alen[:1], beam_size=3,
                                                        ctc_weight=0.5))


FS2 = dict(idim=20, odim=16, adim=32, aheads=2, elayers=1, eunits=48, dlayers=1, dunits=48,
           postnet_layers=2, postnet_chans=24, postnet_dropout_rate=0.0,
           duration_predictor_chans=24, duration_predictor_dropout_rate=0.0,
           energy_predictor_chans=24, energy_predictor_dropout=0.0, energy_embed_dropout=0.0,
           pitch_predictor_chans=24, pitch_predictor_dropout=0.0, pitch_embed_dropout=0.0,
           transformer_enc_dropout_rate=0.0, transformer_enc_positional_dropout_rate=0.0,
           transformer_enc_attn_dropout_rate=0.0, transformer_dec_dropout_rate=0.0,
           transformer_dec_positional_dropout_rate=0.0, transformer_dec_attn_dropout_rate=0.0)


def tts_batch():
    """Two phone sequences with durations, and their mel targets, pitch and energy."""
    rng = np.random.RandomState(9)
    text = np.array([[3, 7, 1, 12, 5, 9], [4, 2, 18, 6, 0, 0]], "int64")
    durs = np.array([[2, 3, 1, 2, 3, 1], [3, 2, 2, 2, 0, 0]], "int64")
    olens = durs.sum(1)
    speech = rng.standard_normal((2, int(olens.max()), 16)).astype("float32")
    speech[1, olens[1]:] = 0.0
    pitch = rng.standard_normal((2, 6, 1)).astype("float32")
    energy = rng.standard_normal((2, 6, 1)).astype("float32")
    pitch[1, 4:] = energy[1, 4:] = 0.0
    T = paddle.to_tensor
    return dict(text=T(text), text_lengths=T([6, 4], "int64"), speech=T(jittered(speech, 9)),
                speech_lengths=T(olens), durations=T(durs), pitch=T(jittered(pitch, 10)),
                energy=T(jittered(energy, 11)))


@d.stage("fastspeech2")
def _():
    def build():
        m = FastSpeech2(**FS2)
        seed_params(m, seed=17)
        return m
    model = build()
    criterion = FastSpeech2Loss(use_masking=True)
    batch = tts_batch()

    def losses(m):
        before, after, d_outs, p_outs, e_outs, ys, olens, _ = m(**batch)
        l1, dur, pitch, energy, _ = criterion(
            after_outs=after, before_outs=before, d_outs=d_outs, p_outs=p_outs, e_outs=e_outs,
            ys=ys, ds=batch["durations"], ps=batch["pitch"], es=batch["energy"],
            ilens=batch["text_lengths"], olens=olens)
        return l1 + dur + pitch + energy, [l1, dur, pitch, energy], after

    model.eval()
    total, parts, after = losses(model)
    d.put("fs2.loss0", parts)
    d.put("fs2.after_outs", after)
    model.train()
    d.put("fs2.train", train_steps(model, lambda: losses(model)[0], lr=1e-3, opt="adamw"))
    model.eval()
    fresh = reloaded(model, build)
    d.put("fs2.reloaded_loss", losses(fresh)[1])
    with paddle.no_grad():
        mel, d_outs, p_outs, e_outs = fresh.inference(batch["text"][0])[:4]
        d.put("fs2.inference_mel", mel)
        d.put("fs2.inference_durations", d_outs)
        d.put("fs2.teacher_forced", fresh.inference(
            batch["text"][0], durations=batch["durations"][0],
            use_teacher_forcing=True)[0])


d.finish()
