"""paddlenlp 2.8.1: BERT, ERNIE and Llama from small configs with seeded weights; a tokenizer
from a written vocab file; forward, three AdamW steps, save/reload (pdparams and safetensors),
Llama greedy and sampling generation."""
import os

import numpy as np
import paddle
import paddlenlp  # noqa: F401
from paddlenlp.transformers import (BertConfig, BertForSequenceClassification, BertTokenizer,
                                    ErnieConfig, ErnieForSequenceClassification, LlamaConfig,
                                    LlamaForCausalLM)

from _common import Driver, seed_params, train_steps, write_vocab

d = Driver("paddlenlp")
WORDS = "the a cat dog sat on mat ran fast slow red blue big small ##s ##ed ##ing and , .".split()
SENTS = ["the cat sat on the mat .", "a big red dog ran fast , and the small cats sat ."]
state = {}


@d.stage("tokenizer")
def _():
    vocab = write_vocab(os.path.join(d.tmp, "vocab.txt"), WORDS)
    tok = BertTokenizer(vocab_file=vocab)
    enc = tok(SENTS, padding=True, return_attention_mask=True)
    state["ids"] = np.array(enc["input_ids"], "int64")
    state["tt"] = np.array(enc["token_type_ids"], "int64")
    d.put("tokenizer.ids", state["ids"])
    d.put("tokenizer.decoded", tok.convert_ids_to_tokens(enc["input_ids"][1]))


def classifier(name, config_cls, model_cls, **cfg):
    """Forward, three AdamW steps, save/reload of a sequence classifier on the tokens."""
    config = config_cls(vocab_size=64, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=64, max_position_embeddings=64, type_vocab_size=2,
                        hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0,
                        num_labels=3, **cfg)
    model = model_cls(config)
    seed_params(model)
    ids = paddle.to_tensor(state["ids"])
    tt = paddle.to_tensor(state["tt"])
    labels = paddle.to_tensor([0, 2])
    model.eval()
    d.put(f"{name}.logits", model(ids, token_type_ids=tt))
    model.train()
    d.put(f"{name}.losses", train_steps(
        model, lambda: paddle.nn.functional.cross_entropy(model(ids, token_type_ids=tt), labels)))
    model.eval()
    after = model(ids, token_type_ids=tt)
    d.put(f"{name}.trained_logits", after)
    for safe in (False, True):
        path = os.path.join(d.tmp, f"{name}_{safe}")
        model.save_pretrained(path, safe_serialization=safe)
        again = model_cls.from_pretrained(path)
        again.eval()
        d.put(f"{name}.reload_maxdiff_{'safetensors' if safe else 'pdparams'}",
              float((again(ids, token_type_ids=tt) - after).abs().max()))


@d.stage("bert")
def _():
    classifier("bert", BertConfig, BertForSequenceClassification)


@d.stage("ernie")
def _():
    classifier("ernie", ErnieConfig, ErnieForSequenceClassification)


@d.stage("llama")
def _():
    config = LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                         seq_length=64, rms_norm_eps=1e-6)
    model = LlamaForCausalLM(config)
    seed_params(model)
    ids = paddle.to_tensor(np.random.RandomState(3).randint(3, 64, (2, 10)).astype("int64"))
    model.eval()
    d.put("llama.logits", model(ids)[0])
    model.train()
    d.put("llama.losses", train_steps(model, lambda: model(ids, labels=ids)[0]))
    model.eval()
    state["llama"] = (model, ids)


def prompt(ids):
    """The first four tokens and their mask (a bool mask: with the float mask paddlenlp 2.8.1
    builds itself, its Llama calls paddle.where on a float condition, which Paddle 3.3.1
    refuses)."""
    return ids[:, :4], paddle.ones([ids.shape[0], 4], dtype="bool")


@d.stage("llama_greedy")
def _():
    model, ids = state["llama"]
    head, mask = prompt(ids)
    out, scores = model.generate(head, attention_mask=mask, max_new_tokens=6,
                                 decode_strategy="greedy_search")
    d.put("llama.greedy_ids", out)
    d.put("llama.greedy_scores", scores)


@d.stage("llama_sampling")
def _():
    model, ids = state["llama"]
    head, mask = prompt(ids)
    paddle.seed(5)
    out, _ = model.generate(head, attention_mask=mask, max_new_tokens=4,
                            decode_strategy="sampling", top_k=3)
    d.put("llama.topk3_ids", out)


@d.stage("llama_reload")
def _():
    model, ids = state["llama"]
    path = os.path.join(d.tmp, "llama")
    model.save_pretrained(path)
    again = LlamaForCausalLM.from_pretrained(path)
    again.eval()
    d.put("llama.reload_maxdiff", float((again(ids)[0] - model(ids)[0]).abs().max()))


d.finish()
