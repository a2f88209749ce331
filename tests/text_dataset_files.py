"""Tiny files in the formats of Paddle's text datasets, and the cases run on them (with
``paddle.text.viterbi_decode``'s cases).

Shared by tools/goldens/record_text.py (run with real Paddle, it writes tests/goldens/text.json)
and tests/test_text.py (paddle_compat): both build the same files with ``make_all(folder)``
and run the same case code on them with ``paddle``, ``np``, ``F`` (the paths) and ``H`` (this
module) bound; a case leaves its result in ``out``.

Where Paddle numbers things in Python ``set`` order (Conll05st's labels, Movielens' categories
and title words: the order changes with the hash seed from run to run), the cases turn ids
back into words through the dataset's own dictionaries, so they compare what is stable.
"""
import gzip
import io
import os
import tarfile
import zipfile

import numpy as np


def _add(tar, name, payload):
    info = tarfile.TarInfo(name)
    info.size = len(payload)
    info.mtime = 0
    tar.addfile(info, io.BytesIO(payload))


def _gz_bytes(text):
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as g:
        g.write(text.encode())
    return buf.getvalue()


def make_uci(path):
    rng = np.random.default_rng(21)
    rows = np.round(rng.uniform(0, 100, (10, 14)), 4)
    with open(path, "w") as f:
        for r in rows:
            f.write(" " + " ".join(f"{v:.4f}" for v in r) + "\n")
    return path


def make_imdb(path):
    docs = {
        "aclImdb/train/pos/0_9.txt": "A great movie! Great acting, great story.\n",
        "aclImdb/train/pos/1_8.txt": "I loved it; the story was GREAT.",
        "aclImdb/train/neg/2_1.txt": "Bad movie. Bad acting, the story was bad!\r\n",
        "aclImdb/test/pos/3_10.txt": "Great fun, a movie to love.",
        "aclImdb/test/neg/4_2.txt": "Boring and bad; I left.",
        "aclImdb/test/neg/5_3.txt": "The worst movie: bad, bad, bad.",
        "aclImdb/train/unsup/6_0.txt": "unlabelled words never counted",
        "aclImdb/README": "not a review",
    }
    with tarfile.open(path, "w:gz") as tar:
        for name, text in docs.items():
            _add(tar, name, text.encode())
    return path


def make_imikolov(path):
    texts = {
        "train": " the cat sat on the mat \n the dog sat \n a cat and a dog \n the end \n",
        "valid": " the cat ran \n <unk> dog \n",
        "test": " the cat sat on a dog \n the end of the mat \n new words here \n",
    }
    with tarfile.open(path, "w:gz") as tar:
        for kind, text in texts.items():
            _add(tar, f"./simple-examples/data/ptb.{kind}.txt", text.encode())
    return path


_CONLL_WORDS = ["The", "cat", "saw", "dogs", "run", ".", "", "Birds", "fly", ""]
_CONLL_PROPS = [
    "-    (A0*   *", "-    *)     *", "see  (V*)   *", "-    (A1*   (A0*)", "run  *      (V*)",
    "-    *)     *", "", "-    (A0*)", "fly  (V*)", "",
]


def make_conll05(folder):
    data = os.path.join(folder, "conll05st-tests.tar.gz")
    with tarfile.open(data, "w:gz") as tar:
        _add(tar, "conll05st-release/test.wsj/words/test.wsj.words.gz",
             _gz_bytes("".join(w + "\n" for w in _CONLL_WORDS)))
        _add(tar, "conll05st-release/test.wsj/props/test.wsj.props.gz",
             _gz_bytes("".join(p + "\n" for p in _CONLL_PROPS)))
    paths = {"data": data}
    for key, lines in (("word", ["<unk>", "the", "cat", "saw", "dogs", "run", ".", "bos", "eos",
                                 "Birds", "fly"]),
                       ("verb", ["fly", "run", "see"]),
                       ("target", ["B-A0", "I-A0", "B-A1", "I-A1", "B-V", "I-V", "O"])):
        paths[key] = os.path.join(folder, f"{key}Dict.txt")
        with open(paths[key], "w") as f:
            f.write("".join(x + "\n" for x in lines))
    paths["emb"] = os.path.join(folder, "emb")
    with open(paths["emb"], "wb") as f:
        f.write(b"\0" * 16)
    return paths


def make_movielens(path):
    movies = ["1::Toy Story (1995)::Animation|Children's|Comedy",
              "2::Jumanji (1995)::Adventure|Children's|Fantasy",
              "3::Grumpier Old Men (1995)::Comedy|Romance",
              "5::Father of the Bride Part II (1995)::Comedy"]
    users = ["1::F::1::10::48067", "2::M::56::16::70072", "3::M::25::15::55117"]
    rng = np.random.default_rng(22)
    ratings = [f"{u}::{m}::{s}::97830{k:04d}" for k, (u, m, s) in enumerate(
        zip(rng.integers(1, 4, 16), rng.choice([1, 2, 3, 5], 16), rng.integers(1, 6, 16)))]
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("ml-1m/movies.dat", "\n".join(movies) + "\n")
        z.writestr("ml-1m/users.dat", "\n".join(users) + "\n")
        z.writestr("ml-1m/ratings.dat", "\n".join(ratings) + "\n")
        z.writestr("ml-1m/README", "fake")
    return path


def make_wmt14(path):
    src_dict = ["<s>", "<e>", "<unk>", "le", "chat", "noir", "chien", "est"]
    trg_dict = ["<s>", "<e>", "<unk>", "the", "cat", "black", "dog", "is"]
    long_line = " ".join(["le"] * 80) + "\tthe cat"
    with tarfile.open(path, "w:gz") as tar:
        _add(tar, "wmt14/src.dict", "".join(w + "\n" for w in src_dict).encode())
        _add(tar, "wmt14/trg.dict", "".join(w + "\n" for w in trg_dict).encode())
        _add(tar, "wmt14/train/train",
             ("le chat noir\tthe black cat\nle chien est noir\tthe dog is black\n"
              "no tab here\n" + long_line + "\nle oiseau\tthe bird\n").encode())
        _add(tar, "wmt14/test/test", "le chat\tthe cat\n".encode())
        _add(tar, "wmt14/gen/gen", "chien noir\tblack dog\nest\tis\n".encode())
    return path


def make_wmt16(path):
    train = ("a man runs\tein mann rennt\na dog runs fast\tein hund rennt schnell\n"
             "the man sees a dog\tder mann sieht einen hund\nbroken line\n"
             "a dog\tein hund\n")
    with tarfile.open(path, "w:gz") as tar:
        _add(tar, "wmt16/train", train.encode())
        _add(tar, "wmt16/test", "a man sees\tein mann sieht\n".encode())
        _add(tar, "wmt16/val", "the dog runs\tder hund rennt\nnew words\tneue worte\n".encode())
    return path


def make_all(folder):
    """Build every file under ``folder``; the dict of their paths (``F`` in the cases)."""
    F = {"root": folder}
    F["uci"] = make_uci(os.path.join(folder, "housing.data"))
    F["imdb"] = make_imdb(os.path.join(folder, "aclImdb_v1.tar.gz"))
    F["imikolov"] = make_imikolov(os.path.join(folder, "simple-examples.tgz"))
    os.makedirs(os.path.join(folder, "conll"), exist_ok=True)
    F["conll"] = make_conll05(os.path.join(folder, "conll"))
    F["movielens"] = make_movielens(os.path.join(folder, "ml-1m.zip"))
    F["wmt14"] = make_wmt14(os.path.join(folder, "wmt14.tgz"))
    F["wmt16"] = make_wmt16(os.path.join(folder, "wmt16.tar.gz"))
    return F


def items(ds, n=None):
    """The first ``n`` items (all by default), as lists."""
    n = len(ds) if n is None else n
    return [list(ds[i]) for i in range(n)]


def words(d, ids):
    """Ids back to keys through the dictionary ``d`` (key -> id)."""
    inv = {v: k for k, v in d.items()}
    return [inv[int(i)] for i in np.asarray(ids).reshape(-1)]


_VITERBI_PRELUDE = """
rs = np.random.RandomState(SEED)
pot = paddle.to_tensor(rs.standard_normal(SHAPE).astype(DT))
trans = paddle.to_tensor(rs.standard_normal((SHAPE[2], SHAPE[2])).astype(DT))
lens = paddle.to_tensor(np.array(LENS, dtype='int64'))
"""


def _vit(seed, shape, lens, dt, body):
    return (_VITERBI_PRELUDE.replace("SEED", str(seed)).replace("SHAPE", repr(shape))
            .replace("LENS", repr(lens)).replace("DT", repr(dt)) + body)


CASES = [
    # ---------------------------------------------------------------- viterbi_decode
    ("viterbi_f64_bos_eos", _vit(0, (4, 5, 6), [5, 3, 1, 4], "float64",
                                 "out = list(paddle.text.viterbi_decode(pot, trans, lens, True))")),
    ("viterbi_f64_plain", _vit(0, (4, 5, 6), [5, 3, 1, 4], "float64",
                               "out = list(paddle.text.viterbi_decode(pot, trans, lens, False))")),
    ("viterbi_f32_bos_eos", _vit(1, (3, 7, 5), [7, 2, 6], "float32",
                                 "out = list(paddle.text.viterbi_decode(pot, trans, lens))")),
    ("viterbi_f32_plain", _vit(1, (3, 7, 5), [7, 2, 6], "float32",
                               "out = list(paddle.text.viterbi_decode(pot, trans, lens, False))")),
    ("viterbi_short_lengths", _vit(2, (5, 6, 4), [3, 3, 1, 2, 0], "float64",
                                   "out = [list(paddle.text.viterbi_decode(pot, trans, lens, b)) "
                                   "for b in (True, False)]")),
    ("viterbi_negative_length", _vit(3, (2, 3, 4), [-1, 2], "float32",
                                     "out = list(paddle.text.viterbi_decode(pot, trans, lens))")),
    ("viterbi_two_tags", _vit(4, (2, 4, 2), [4, 3], "float64",
                              "out = [list(paddle.text.viterbi_decode(pot, trans, lens, b)) "
                              "for b in (True, False)]")),
    ("viterbi_decoder_layer", _vit(5, (3, 4, 5), [4, 4, 2], "float32", """
dec = paddle.text.ViterbiDecoder(trans, include_bos_eos_tag=False)
s, p = dec(pot, lens)
out = [s, p, dec.include_bos_eos_tag, isinstance(dec, paddle.nn.Layer)]""")),
    ("viterbi_decoder_default", _vit(6, (2, 3, 4), [3, 2], "float64", """
out = list(paddle.text.ViterbiDecoder(trans)(pot, lens))""")),
    ("viterbi_bad_rank", _vit(0, (2, 3, 4), [3, 2], "float32",
                              "out = paddle.text.viterbi_decode(pot[0], trans, lens)")),
    ("viterbi_bad_int_potentials", _vit(0, (2, 3, 4), [3, 2], "float32",
                                        "out = paddle.text.viterbi_decode(pot.astype('int64'), "
                                        "trans.astype('int64'), lens)")),
    ("viterbi_bad_float_lengths", _vit(0, (2, 3, 4), [3, 2], "float32",
                                       "out = paddle.text.viterbi_decode(pot, trans, "
                                       "lens.astype('float32'))")),
    ("viterbi_bad_int32_lengths", _vit(0, (2, 3, 4), [3, 2], "float32",
                                       "out = paddle.text.viterbi_decode(pot, trans, "
                                       "lens.astype('int32'))")),
    ("viterbi_bad_transition_shape", _vit(0, (2, 3, 4), [3, 2], "float32",
                                          "out = paddle.text.viterbi_decode(pot, trans[:3], lens)")),
    ("viterbi_bad_mixed_dtype", _vit(0, (2, 3, 4), [3, 2], "float32",
                                     "out = paddle.text.viterbi_decode(pot, trans.astype('float64'), lens)")),
    ("viterbi_bad_numpy", _vit(0, (2, 3, 4), [3, 2], "float32",
                               "out = paddle.text.viterbi_decode(pot.numpy(), trans, lens)")),
    ("viterbi_bad_batch", _vit(0, (2, 3, 4), [3, 2], "float32",
                               "out = paddle.text.viterbi_decode(pot, trans, lens[:1])")),
    ("viterbi_bad_length_too_long", _vit(0, (2, 3, 4), [5, 2], "float32",
                                         "out = paddle.text.viterbi_decode(pot, trans, lens)")),
    ("viterbi_bad_flag", _vit(0, (2, 3, 4), [3, 2], "float32",
                              "out = paddle.text.viterbi_decode(pot, trans, lens, 1)")),
    # ---------------------------------------------------------------- UCIHousing
    ("uci_train", """
ds = paddle.text.UCIHousing(data_file=F['uci'], mode='train')
out = {'len': len(ds), 'dtype': ds.dtype, 'items': H.items(ds), 'mode': ds.mode}"""),
    ("uci_test", """
ds = paddle.text.UCIHousing(data_file=F['uci'], mode='TEST')
out = {'len': len(ds), 'items': H.items(ds)}"""),
    ("uci_float64", """
paddle.set_default_dtype('float64')
try:
    ds = paddle.text.UCIHousing(data_file=F['uci'])
    out = H.items(ds, 2)
finally:
    paddle.set_default_dtype('float32')"""),
    ("uci_bad_mode", "out = paddle.text.UCIHousing(data_file=F['uci'], mode='valid')"),
    ("uci_no_file_no_download", "out = paddle.text.UCIHousing(download=False)"),
    # ---------------------------------------------------------------- Imdb
    ("imdb_train", """
ds = paddle.text.Imdb(data_file=F['imdb'], mode='train', cutoff=1)
out = {'len': len(ds), 'word_idx': {k.decode() if isinstance(k, bytes) else '[str]' + k: v
                                    for k, v in ds.word_idx.items()},
       'items': H.items(ds)}"""),
    ("imdb_test_cutoff0", """
ds = paddle.text.Imdb(data_file=F['imdb'], mode='test', cutoff=0)
out = {'len': len(ds), 'n_words': len(ds.word_idx), 'items': H.items(ds)}"""),
    ("imdb_cutoff_too_high", "out = paddle.text.Imdb(data_file=F['imdb'], cutoff=1000)"),
    ("imdb_bad_mode", "out = paddle.text.Imdb(data_file=F['imdb'], mode='unsup')"),
    # ---------------------------------------------------------------- Imikolov
    ("imikolov_ngram", """
ds = paddle.text.Imikolov(data_file=F['imikolov'], data_type='NGRAM', window_size=3,
                          mode='train', min_word_freq=1)
out = {'len': len(ds), 'word_idx': {k.decode() if isinstance(k, bytes) else '[str]' + k: v
                                    for k, v in ds.word_idx.items()},
       'items': H.items(ds, 5), 'types': [type(x).__name__ for x in ds[0]]}"""),
    ("imikolov_ngram_test", """
ds = paddle.text.Imikolov(data_file=F['imikolov'], data_type='ngram', window_size=6,
                          mode='test', min_word_freq=0)
out = {'len': len(ds), 'items': H.items(ds)}"""),
    ("imikolov_seq", """
ds = paddle.text.Imikolov(data_file=F['imikolov'], data_type='SEQ', mode='test', min_word_freq=1)
out = {'len': len(ds), 'items': H.items(ds)}"""),
    ("imikolov_seq_window", """
ds = paddle.text.Imikolov(data_file=F['imikolov'], data_type='SEQ', window_size=4,
                          mode='train', min_word_freq=1)
out = {'len': len(ds), 'items': H.items(ds)}"""),
    ("imikolov_ngram_no_window", """
out = paddle.text.Imikolov(data_file=F['imikolov'], data_type='NGRAM', min_word_freq=1)"""),
    ("imikolov_bad_type", "out = paddle.text.Imikolov(data_file=F['imikolov'], data_type='BAG')"),
    # ---------------------------------------------------------------- Conll05st
    ("conll05", """
c = F['conll']
ds = paddle.text.Conll05st(data_file=c['data'], word_dict_file=c['word'], verb_dict_file=c['verb'],
                           target_dict_file=c['target'], emb_file=c['emb'])
wd, vd, ld = ds.get_dict()
res = []
for i in range(len(ds)):
    it = list(ds[i])
    res.append(it[:8] + [H.words(ld, it[8])])
out = {'len': len(ds), 'items': res, 'word_dict': wd, 'verb_dict': vd,
       'labels': sorted(ld), 'O_last': ld['O'] == len(ld) - 1,
       'pairs': all(ld['I-' + k[2:]] == ld[k] + 1 for k in ld if k.startswith('B-')),
       'emb': os.path.basename(ds.get_embedding()), 'sentences': ds.sentences,
       'predicates': ds.predicates, 'label_seqs': ds.labels}"""),
    ("conll05_no_file_no_download", """
c = F['conll']
out = paddle.text.Conll05st(data_file=c['data'], word_dict_file=c['word'], verb_dict_file=c['verb'],
                            target_dict_file=c['target'], download=False)"""),
    # ---------------------------------------------------------------- Movielens
    ("movielens", """
res = {}
for mode in ('train', 'test'):
    ds = paddle.text.Movielens(data_file=F['movielens'], mode=mode, test_ratio=0.3, rand_seed=3)
    its = []
    for i in range(len(ds)):
        it = list(ds[i])
        its.append(it[:5] + [H.words(ds.categories_dict, it[5]), H.words(ds.movie_title_dict, it[6]),
                             it[7]])
    res[mode] = {'len': len(ds), 'items': its, 'next_random': float(np.random.random())}
res['categories'] = sorted(ds.categories_dict)
res['title_words'] = sorted(ds.movie_title_dict)
res['users'] = [str(ds.user_info[k]) for k in sorted(ds.user_info)]
res['movies'] = [repr(ds.movie_info[k]) for k in sorted(ds.movie_info)]
out = res"""),
    ("movielens_bad_mode", "out = paddle.text.Movielens(data_file=F['movielens'], mode='val')"),
    # ---------------------------------------------------------------- WMT14
    ("wmt14_train", """
ds = paddle.text.WMT14(data_file=F['wmt14'], mode='train', dict_size=7)
s, t = ds.get_dict()
rs, rt = ds.get_dict(reverse=True)
out = {'len': len(ds), 'items': H.items(ds), 'src': s, 'trg': t,
       'rsrc': {str(k): v for k, v in rs.items()}, 'rtrg': {str(k): v for k, v in rt.items()}}"""),
    ("wmt14_test_gen", """
out = [H.items(paddle.text.WMT14(data_file=F['wmt14'], mode=m, dict_size=20)) for m in ('test', 'GEN')]"""),
    ("wmt14_no_dict_size", "out = paddle.text.WMT14(data_file=F['wmt14'])"),
    ("wmt14_bad_mode", "out = paddle.text.WMT14(data_file=F['wmt14'], mode='val', dict_size=5)"),
    # ---------------------------------------------------------------- WMT16
    ("wmt16_en", """
ds = paddle.text.WMT16(data_file=F['wmt16'], mode='train', src_dict_size=8, trg_dict_size=9, lang='en')
out = {'len': len(ds), 'items': H.items(ds), 'src': ds.src_dict, 'trg': ds.trg_dict,
       'sizes': [ds.src_dict_size, ds.trg_dict_size],
       'get_en': ds.get_dict('en'), 'get_de': ds.get_dict('de')}"""),
    ("wmt16_de_val", """
ds = paddle.text.WMT16(data_file=F['wmt16'], mode='val', src_dict_size=50, trg_dict_size=6, lang='de')
out = {'len': len(ds), 'items': H.items(ds), 'src': ds.src_dict, 'trg': ds.trg_dict}"""),
    ("wmt16_test", """
ds = paddle.text.WMT16(data_file=F['wmt16'], mode='test', src_dict_size=8, trg_dict_size=9)
out = H.items(ds)"""),
    ("wmt16_get_dict_reverse", """
ds = paddle.text.WMT16(data_file=F['wmt16'], mode='test', src_dict_size=8, trg_dict_size=9)
out = {str(k): v for k, v in ds.get_dict('en', reverse=True).items()}"""),
    ("wmt16_no_sizes", "out = paddle.text.WMT16(data_file=F['wmt16'])"),
    ("wmt16_bad_mode", "out = paddle.text.WMT16(data_file=F['wmt16'], mode='dev', src_dict_size=5, trg_dict_size=5)"),
]


def run_cases(paddle, folder, describe, cases=CASES):
    """{case id: description of its ``out`` (or of its exception)} for ``cases`` run on the
    files built under ``folder``."""
    import sys
    F = make_all(folder)
    results = {}
    for cid, code in cases:
        env = {"paddle": paddle, "np": np, "F": F, "H": sys.modules[__name__], "os": os}
        try:
            exec(code, env)
            results[cid] = describe(env["out"], paddle)
        except Exception as e:  # noqa: BLE001 - the exception is the result
            results[cid] = describe(e, paddle)
    return results
