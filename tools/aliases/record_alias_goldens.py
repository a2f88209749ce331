"""Record what real Paddle 3.3.1 does with its torch-style spellings: run with the Paddle
virtualenv's python after tools/aliases/record_aliases.py.

    /work/paddle_venv/bin/python tools/aliases/record_alias_goldens.py

Each case of ``CASES`` is ``(case_id, api, aliases, code)``: ``code`` runs with ``paddle``,
``np`` and the ``PRELUDE``'s tensors bound and leaves its result in ``out``; ``api`` is the
public path the case exercises and ``aliases`` the alias keywords it uses (empty for a
size-varargs or a torch-order positional case). A case id ending in ``_both`` gives an alias
and its original together (or the original positionally); its golden is what Paddle raises
(or returns). tests/golden_utils.py describes the outcome: values, dtype, shape,
stop_gradient, or the exception's built-in type.

Every alias family of the generated table (alias keyword x where it comes from: the C++ parser,
or the decorator kind; tools/aliases/families.json) must be exercised by at least one case; the
script fails listing the families no case covers. Writes tests/goldens/aliases.json;
tests/test_aliases.py replays it on paddle_compat. This file imports no Paddle at module level.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

PRELUDE = """
x = paddle.to_tensor([[1.5, -2.0, 3.25], [0.5, 4.0, -1.0]], dtype='float64')
y = paddle.to_tensor([[2.0, 1.0, -3.0], [1.0, 0.5, 2.0]], dtype='float64')
m = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype='float64')
sq = paddle.to_tensor([[4.0, 1.0], [2.0, 3.0]], dtype='float64')
v = paddle.to_tensor([1.0, 2.0, 3.0], dtype='float64')
u = paddle.to_tensor([0.5, -1.0, 2.0], dtype='float64')
f = paddle.to_tensor([[0.1, 0.7, -0.3], [1.2, -0.5, 0.4]], dtype='float32')
p = paddle.to_tensor([[0.25, 0.5, 0.75], [0.1, 0.9, 0.4]], dtype='float64')
i = paddle.to_tensor([[2, 0, 1], [1, 2, 0]])
k = paddle.to_tensor([5, 3, 8, 1])
b = paddle.to_tensor([[True, False, True], [False, True, True]])
c = paddle.to_tensor([[True, True, False], [False, False, True]])
w = paddle.to_tensor([[1.5, -2.0, 3.25], [0.5, 4.0, -1.0]], dtype='float64', stop_gradient=False)
img = paddle.to_tensor(np.arange(32, dtype='float64').reshape(1, 2, 4, 4) / 10.0)
seq = paddle.to_tensor(np.arange(16, dtype='float64').reshape(1, 2, 8) / 4.0)
"""

F = "paddle.nn.functional."
T = "paddle.Tensor."

# (case_id, api, aliases, code)
CASES = [
    # ---------------------------------------------------------- C++ parser: input / dim / other
    ("sum_dim", "paddle.sum", ["dim"], "out = paddle.sum(x, dim=1)"),
    ("sum_input_dim_keepdim", "paddle.sum", ["input", "dim"],
     "out = paddle.sum(input=w, dim=0, keepdim=True)"),
    ("sum_dim_list", "paddle.sum", ["dim"], "out = paddle.sum(x, dim=[0, 1])"),
    ("sum_method_dim", T + "sum", ["dim"], "out = w.sum(dim=1)"),
    ("sum_dim_both", "paddle.sum", ["dim"], "out = paddle.sum(x, axis=0, dim=1)"),
    ("sum_input_both", "paddle.sum", ["input"], "out = paddle.sum(x, input=y)"),
    ("sum_input_kw_both", "paddle.sum", ["input"], "out = paddle.sum(x=x, input=y)"),
    ("amax_dim", "paddle.amax", ["input", "dim"], "out = paddle.amax(input=x, dim=0)"),
    ("amin_dim", "paddle.amin", ["dim"], "out = paddle.amin(x, dim=1, keepdim=True)"),
    ("all_dim", "paddle.all", ["input", "dim"], "out = paddle.all(input=b, dim=1)"),
    ("any_dim", "paddle.any", ["dim"], "out = paddle.any(b, dim=0)"),
    ("logsumexp_dim", "paddle.logsumexp", ["input", "dim"], "out = paddle.logsumexp(input=x, dim=1)"),
    ("logsumexp_dim_both", "paddle.logsumexp", ["dim"], "out = paddle.logsumexp(x, axis=1, dim=1)"),
    ("argmax_dim", "paddle.argmax", ["input", "dim"], "out = paddle.argmax(input=x, dim=1)"),
    ("argmax_keepdims", "paddle.argmax", ["dim", "keepdims"],
     "out = paddle.argmax(x, dim=1, keepdims=True)"),
    ("argmin_keepdims", "paddle.argmin", ["keepdims"], "out = paddle.argmin(x, axis=0, keepdims=True)"),
    ("argmax_method_dim", T + "argmax", ["dim"], "out = x.argmax(dim=0)"),
    ("argmax_keepdims_both", "paddle.argmax", ["keepdims"],
     "out = paddle.argmax(x, axis=1, keepdim=True, keepdims=False)"),
    ("abs_input", "paddle.abs", ["input"], "out = paddle.abs(input=w)"),
    ("abs_input_both", "paddle.abs", ["input"], "out = paddle.abs(x, input=y)"),
    ("exp_input", "paddle.exp", ["input"], "out = paddle.exp(input=x)"),
    ("sqrt_input", "paddle.sqrt", ["input"], "out = paddle.sqrt(input=p)"),
    ("log_input", "paddle.log", ["input"], "out = paddle.log(input=p)"),
    ("tanh_input", "paddle.tanh", ["input"], "out = paddle.tanh(input=x)"),
    ("sigmoid_input", F + "sigmoid", ["input"], "out = paddle.nn.functional.sigmoid(input=x)"),
    ("tril_input", "paddle.tril", ["input"], "out = paddle.tril(input=x, diagonal=0)"),
    ("round_input", "paddle.round", ["input"], "out = paddle.round(input=x, decimals=1)"),
    ("isfinite_input", "paddle.isfinite", ["input"], "out = paddle.isfinite(input=x)"),
    ("gelu_input", F + "gelu", ["input"], "out = paddle.nn.functional.gelu(input=x, approximate='tanh')"),
    ("softplus_input", F + "softplus", ["input"], "out = paddle.nn.functional.softplus(input=x)"),
    ("matmul_input_other", "paddle.matmul", ["input", "other"], "out = paddle.matmul(input=x, other=m)"),
    ("matmul_other", "paddle.matmul", ["other"], "out = paddle.matmul(w, other=m)"),
    ("matmul_method_other", T + "matmul", ["other"], "out = x.matmul(other=m)"),
    ("matmul_other_both", "paddle.matmul", ["other"], "out = paddle.matmul(x, m, other=m)"),
    ("multiply_other", "paddle.multiply", ["input", "other"], "out = paddle.multiply(input=x, other=y)"),
    ("maximum_other", "paddle.maximum", ["other"], "out = paddle.maximum(x, other=y)"),
    ("minimum_other", "paddle.minimum", ["input", "other"], "out = paddle.minimum(input=x, other=y)"),
    ("greater_than_other", "paddle.greater_than", ["other"], "out = paddle.greater_than(x, other=y)"),
    ("logical_and_other", "paddle.logical_and", ["input", "other"],
     "out = paddle.logical_and(input=b, other=c)"),
    ("isclose_other", "paddle.isclose", ["input", "other"],
     "out = paddle.isclose(input=x, other=x + 1e-9)"),
    ("expand_as_other", "paddle.expand_as", ["input", "other"],
     "out = paddle.expand_as(input=v, other=x)"),
    ("diagonal_dims", "paddle.diagonal", ["input", "dim1", "dim2"],
     "out = paddle.diagonal(input=paddle.arange(24, dtype='float64').reshape([2, 3, 4]), "
     "dim1=2, dim2=0)"),
    ("diagonal_dim1_both", "paddle.diagonal", ["dim1"], "out = paddle.diagonal(sq, axis1=0, dim1=1)"),
    ("roll_dims", "paddle.roll", ["input", "dims"], "out = paddle.roll(input=x, shifts=1, dims=1)"),
    ("roll_method_dims", T + "roll", ["dims"], "out = x.roll(-1, dims=0)"),
    ("bmm_mat2", "paddle.bmm", ["input", "mat2"],
     "out = paddle.bmm(input=x.unsqueeze(0), mat2=m.unsqueeze(0))"),
    ("bmm_mat2_both", "paddle.bmm", ["mat2"],
     "out = paddle.bmm(x.unsqueeze(0), y=m.unsqueeze(0), mat2=m.unsqueeze(0))"),
    ("dot_tensor", "paddle.dot", ["input", "tensor"], "out = paddle.dot(input=v, tensor=u)"),
    ("index_put_values", "paddle.index_put", ["input", "values"],
     "out = paddle.index_put(input=x, indices=(paddle.to_tensor([0, 1]), paddle.to_tensor([2, 0])), "
     "values=paddle.to_tensor([9.0, 8.0], dtype='float64'))"),
    ("index_put_values_both", "paddle.index_put", ["values"],
     "t = paddle.to_tensor([9.0, 8.0], dtype='float64')\n"
     "out = paddle.index_put(x, (paddle.to_tensor([0, 1]), paddle.to_tensor([2, 0])), value=t, values=t)"),
    ("asin_out", "paddle.asin", [],
     "o = paddle.zeros([2, 3], dtype='float64')\npaddle.asin(p, out=o)\nout = o"),
    # ---------------------------------------------------------- ParamAliasDecorator
    ("cat_tensors_dim", "paddle.cat", ["tensors", "dim"], "out = paddle.cat(tensors=[x, w], dim=1)"),
    ("concat_dim", "paddle.concat", ["dim"], "out = paddle.concat([x, y], dim=0)"),
    ("concat_dim_both", "paddle.concat", ["dim"], "out = paddle.concat([x, y], axis=0, dim=1)"),
    ("cat_dim_pos_both", "paddle.cat", ["dim"], "out = paddle.cat([x, y], 0, dim=1)"),
    ("stack_tensors_dim", "paddle.stack", ["tensors", "dim"], "out = paddle.stack(tensors=[x, y], dim=1)"),
    ("stack_tensors_both", "paddle.stack", ["tensors"], "out = paddle.stack([x], tensors=[x, y])"),
    ("argsort_input_dim", "paddle.argsort", ["input", "dim"],
     "out = paddle.argsort(input=x, dim=1, descending=True)"),
    ("chunk_dim", "paddle.chunk", ["input", "dim"], "out = paddle.chunk(input=x, chunks=3, dim=1)"),
    ("where_input_other", "paddle.where", ["input", "other"],
     "out = paddle.where(b, input=x, other=y)"),
    ("where_other_both", "paddle.where", ["other"], "out = paddle.where(b, x, y, other=y)"),
    ("bitwise_or__other", "paddle.bitwise_or_", ["input", "other"],
     "t = paddle.to_tensor([1, 2, 4])\npaddle.bitwise_or_(input=t, other=paddle.to_tensor([2, 2, 1]))\nout = t"),
    ("broadcast_to_size", "paddle.broadcast_to", ["input", "size"],
     "out = paddle.broadcast_to(input=v, size=[2, 3])"),
    ("full_size", "paddle.full", ["size"], "out = paddle.full(size=[2, 2], fill_value=1.5)"),
    ("full_size_both", "paddle.full", ["size"], "out = paddle.full(shape=[2], size=[2, 2], fill_value=1.5)"),
    ("tile_dims", "paddle.tile", ["input", "dims"], "out = paddle.tile(input=v, dims=[2, 1])"),
    ("tile_method_dims", T + "tile", ["dims"], "out = x.tile(dims=(1, 2))"),
    ("flatten_dims", "paddle.flatten", ["input", "start_dim", "end_dim"],
     "out = paddle.flatten(input=img, start_dim=1, end_dim=2)"),
    ("unflatten_sizes", "paddle.unflatten", ["input", "dim", "sizes"],
     "out = paddle.unflatten(input=v.tile([2]), dim=0, sizes=[2, 3])"),
    ("norm_ord_dim", "paddle.norm", ["input", "ord", "dim"], "out = paddle.norm(input=x, ord=1, dim=1)"),
    ("linalg_norm_A", "paddle.linalg.norm", ["A", "ord"], "out = paddle.linalg.norm(A=x, ord='fro')"),
    ("vector_norm_ord_dim", "paddle.linalg.vector_norm", ["ord", "dim"],
     "out = paddle.linalg.vector_norm(x, ord=3, dim=0)"),
    ("norm_ord_both", "paddle.norm", ["ord"], "out = paddle.norm(x, p=1, ord=2)"),
    ("pow_exponent", "paddle.pow", ["input", "exponent"], "out = paddle.pow(input=x, exponent=2)"),
    ("outer_vec2", "paddle.outer", ["input", "vec2"], "out = paddle.outer(input=v, vec2=u)"),
    ("ger_vec2", "paddle.ger", ["vec2"], "out = paddle.ger(v, vec2=u)"),
    ("normalize_dim_eps", F + "normalize", ["input", "dim", "eps"],
     "out = paddle.nn.functional.normalize(input=x, dim=0, eps=1e-6)"),
    ("pairwise_distance_x1x2", F + "pairwise_distance", ["x1", "x2", "eps"],
     "out = paddle.nn.functional.pairwise_distance(x1=x, x2=y, eps=1e-6)"),
    ("cross_entropy_target", F + "cross_entropy", ["target"],
     "out = paddle.nn.functional.cross_entropy(f, target=paddle.to_tensor([2, 0]))"),
    ("fold_torch_names", F + "fold", ["input", "output_size", "kernel_size", "stride", "padding",
                                      "dilation"],
     "t = paddle.arange(36, dtype='float64').reshape([1, 4, 9])\n"
     "out = paddle.nn.functional.fold(input=t, output_size=[4, 4], kernel_size=2, stride=1, "
     "padding=0, dilation=1)"),
    ("finfo_type", "paddle.finfo", ["type"], "out = float(paddle.finfo(type=paddle.float32).eps)"),
    ("take_along_axis_input_dim", "paddle.take_along_axis", ["input", "dim"],
     "out = paddle.take_along_axis(input=x, indices=i, dim=1)"),
    ("var_dim", "paddle.var", ["input", "dim"], "out = paddle.var(input=x, dim=1)"),
    ("std_dim_refused", "paddle.std", [], "out = paddle.std(x, dim=1)"),
    # ---------------------------------------------------------- param_two_alias / one_alias
    ("add_input_other", "paddle.add", ["input", "other"], "out = paddle.add(input=w, other=y)"),
    ("add_other", "paddle.add", ["other"], "out = paddle.add(x, other=y)"),
    ("add_method_other", T + "add", ["other"], "out = x.add(other=y)"),
    ("add_other_both", "paddle.add", ["other"], "out = paddle.add(x, y, other=y)"),
    ("add_other_kw_both", "paddle.add", ["other"], "out = paddle.add(x, y=y, other=y)"),
    ("add__other", T + "add_", ["other"], "t = x.clone()\nt.add_(other=y)\nout = t"),
    ("subtract_other", "paddle.subtract", ["input", "other"], "out = paddle.subtract(input=x, other=y)"),
    ("divide_other", "paddle.divide", ["input", "other"], "out = paddle.divide(input=x, other=y)"),
    ("mean_dim", "paddle.mean", ["input", "dim"], "out = paddle.mean(input=w, dim=1)"),
    ("mean_method_dim", T + "mean", ["dim"], "out = x.mean(dim=0, keepdim=True)"),
    ("mean_dim_both", "paddle.mean", ["dim"], "out = paddle.mean(x, axis=0, dim=1)"),
    ("prod_dim", "paddle.prod", ["input", "dim"], "out = paddle.prod(input=x, dim=1)"),
    ("cumsum_dim", "paddle.cumsum", ["input", "dim"], "out = paddle.cumsum(input=x, dim=1)"),
    ("cumsum_method_dim", T + "cumsum", ["dim"], "out = x.cumsum(dim=0)"),
    ("topk_dim", "paddle.topk", ["input", "dim"], "out = paddle.topk(input=x, k=2, dim=1)"),
    ("topk_dim_both", "paddle.topk", ["dim"], "out = paddle.topk(x, 2, axis=1, dim=0)"),
    ("solve_AB", "paddle.linalg.solve", ["A", "B"],
     "out = paddle.linalg.solve(A=sq, B=paddle.to_tensor([[1.0], [2.0]], dtype='float64'))"),
    ("bucketize_boundaries", "paddle.bucketize", ["input", "boundaries"],
     "out = paddle.bucketize(input=v, boundaries=paddle.to_tensor([0.5, 2.0, 2.5], dtype='float64'))"),
    ("isin_elements", "paddle.isin", ["elements", "test_elements"],
     "out = paddle.isin(elements=k, test_elements=paddle.to_tensor([3, 8]))"),
    ("linspace_end_steps", "paddle.linspace", ["end", "steps"],
     "out = paddle.linspace(start=0.0, end=1.0, steps=5)"),
    ("layer_norm_eps", F + "layer_norm", ["input", "eps"],
     "out = paddle.nn.functional.layer_norm(input=x, normalized_shape=[3], eps=1e-3)"),
    ("uniform__from_to", T + "uniform_", ["from", "to"],
     "paddle.seed(7)\nt = paddle.zeros([1000], dtype='float64')\nt.uniform_(**{'from': 0.5, 'to': 0.75})\n"
     "out = bool(((t >= 0.5) & (t < 0.75)).all())"),
    ("hardshrink_lambd", F + "hardshrink", ["input", "lambd"],
     "out = paddle.nn.functional.hardshrink(input=x, lambd=1.6)"),
    ("softshrink_lambd", F + "softshrink", ["lambd"], "out = paddle.nn.functional.softshrink(x, lambd=1.0)"),
    ("eye_n_m", "paddle.eye", ["n", "m"], "out = paddle.eye(n=2, m=3)"),
    ("adaptive_max_pool1d_return_indices", F + "adaptive_max_pool1d", ["input", "return_indices"],
     "out = paddle.nn.functional.adaptive_max_pool1d(input=seq, output_size=4, return_indices=True)"),
    ("clip_input", "paddle.clip", ["input"], "out = paddle.clip(input=w, min=-1.0, max=2.0)"),
    ("clamp_input", "paddle.clamp", ["input"], "out = paddle.clamp(input=x, min=0.0)"),
    ("clip_input_both", "paddle.clip", ["input"], "out = paddle.clip(x, input=y, min=0.0)"),
    ("cumprod_input", "paddle.cumprod", ["input"], "out = paddle.cumprod(input=x, dim=1)"),
    ("unbind_dim", "paddle.unbind", ["dim"], "out = paddle.unbind(x, dim=1)"),
    ("cosine_similarity_dim", F + "cosine_similarity", ["dim"],
     "out = paddle.nn.functional.cosine_similarity(x, y, dim=1)"),
    ("unfold_dimension", "paddle.unfold", ["dimension"], "out = paddle.unfold(v, dimension=0, size=2, step=1)"),
    ("exponential__lambd", T + "exponential_", ["lambd"],
     "paddle.seed(3)\nt = paddle.zeros([20000], dtype='float64')\nt.exponential_(lambd=4.0)\n"
     "out = bool(abs(float(t.mean()) - 0.25) < 0.02)"),
    ("is_tensor_obj", "paddle.is_tensor", ["obj"], "out = paddle.is_tensor(obj=x)"),
    ("normal_size", "paddle.normal", ["size"],
     "out = list(paddle.normal(mean=0.0, std=1.0, size=[2, 3]).shape)"),
    ("searchsorted_input", "paddle.searchsorted", ["input"],
     "out = paddle.searchsorted(paddle.to_tensor([1.0, 2.0, 3.0], dtype='float64'), input=u)"),
    ("median_dim", "paddle.median", ["input", "dim"], "out = paddle.median(input=x, dim=1)"),
    ("median_dim_even", "paddle.median", ["dim"],
     "out = paddle.median(paddle.to_tensor([[1.0, 4.0, 2.0, 3.0]], dtype='float64'), dim=1)"),
    ("median_dim_both", "paddle.median", ["dim"], "out = paddle.median(x, axis=1, dim=1)"),
    # ---------------------------------------------------------- the other decorators
    ("softmax_F_input_dim", F + "softmax", ["input", "dim"],
     "out = paddle.nn.functional.softmax(input=w, dim=1)"),
    ("softmax_F_dim_both", F + "softmax", ["dim"], "out = paddle.nn.functional.softmax(x, axis=0, dim=1)"),
    ("softmax_top_torch", "paddle.softmax", [], "out = paddle.softmax(x, dim=0)"),
    ("softmax_top_axis_forbidden", "paddle.softmax", [], "out = paddle.softmax(x, axis=0)"),
    ("tensor_split_sections", "paddle.tensor_split", ["input", "sections", "dim"],
     "out = paddle.tensor_split(input=x, sections=3, dim=1)"),
    ("tensor_split_indices", "paddle.tensor_split", ["indices"],
     "out = paddle.tensor_split(v, indices=[1])"),
    ("tensor_split_ios", "paddle.tensor_split", ["indices_or_sections"],
     "out = paddle.tensor_split(x, indices_or_sections=2, dim=0)"),
    ("reshape_input", "paddle.reshape", ["input"], "out = paddle.reshape(input=w, shape=[3, 2])"),
    ("reshape_varargs", T + "reshape", [], "out = x.reshape(3, 2)"),
    ("reshape_varargs_fn", "paddle.reshape", [], "out = paddle.reshape(x, 6, 1)"),
    ("reshape_input_both", "paddle.reshape", ["input"], "out = paddle.reshape(x, input=y, shape=[6])"),
    ("view_varargs", T + "view", [], "out = x.view(3, -1)"),
    ("view_size", T + "view", ["size"], "out = x.view(size=[6])"),
    ("view_dtype", T + "view", ["dtype"], "out = f.view(dtype='int32')"),
    ("expand_varargs", T + "expand", [], "out = v.expand(2, 3)"),
    ("expand_size", "paddle.expand", ["input", "size"], "out = paddle.expand(input=v, size=[2, 3])"),
    ("expand_size_both", "paddle.expand", ["size"], "out = paddle.expand(v, shape=[2, 3], size=[2, 3])"),
    ("transpose_dims", "paddle.transpose", ["input"], "out = paddle.transpose(input=x, dim0=0, dim1=1)"),
    ("transpose_method_ints", T + "transpose", [], "out = w.transpose(1, 0)"),
    ("swapaxes_ints", "paddle.swapaxes", [], "out = paddle.swapaxes(img, 1, 3)"),
    ("index_select_dim", "paddle.index_select", ["input", "dim"],
     "out = paddle.index_select(input=x, dim=1, index=paddle.to_tensor([2, 0]))"),
    ("index_select_torch_order", "paddle.index_select", [],
     "out = paddle.index_select(x, 1, paddle.to_tensor([2, 0]))"),
    ("index_add_source", "paddle.index_add", ["input", "dim", "source"],
     "out = paddle.index_add(input=x, dim=1, index=paddle.to_tensor([0, 2]), source=y[:, :2])"),
    ("index_add_torch_order", "paddle.index_add", [],
     "out = paddle.index_add(x, 0, paddle.to_tensor([1]), y[:1])"),
    ("floor_divide_other", "paddle.floor_divide", ["input", "other"],
     "out = paddle.floor_divide(input=paddle.to_tensor([7, -7, 9]), other=paddle.to_tensor([2, 2, 4]))"),
    ("lp_pool1d_input", F + "lp_pool1d", ["input"],
     "out = paddle.nn.functional.lp_pool1d(input=seq, norm_type=2, kernel_size=2)"),
    ("group_norm_input_eps", F + "group_norm", ["input", "eps"],
     "out = paddle.nn.functional.group_norm(input=img, num_groups=2, eps=1e-3)"),
    ("group_norm_eps_both", F + "group_norm", ["eps"],
     "out = paddle.nn.functional.group_norm(img, 2, epsilon=1e-3, eps=1e-3)"),
    ("interpolate_input", F + "interpolate", ["input"],
     "out = paddle.nn.functional.interpolate(input=img, scale_factor=2, mode='nearest')"),
    # ---------------------------------------------------------- sizes as varargs
    ("zeros_varargs", "paddle.zeros", [], "out = paddle.zeros(2, 3)"),
    ("zeros_size", "paddle.zeros", ["size"], "out = paddle.zeros(size=[2, 1], dtype='int32')"),
    ("zeros_size_both", "paddle.zeros", ["size"], "out = paddle.zeros(shape=[1], size=[2, 2])"),
    ("ones_varargs_dtype", "paddle.ones", [], "out = paddle.ones(2, 2, dtype='float64')"),
    ("empty_varargs_shape", "paddle.empty", [], "out = list(paddle.empty(3, 1).shape)"),
    ("rand_varargs", "paddle.rand", [], "paddle.seed(11)\nout = paddle.rand(2, 3)"),
    ("randn_varargs", "paddle.randn", [], "paddle.seed(12)\nout = paddle.randn(3)"),
    ("randn_size", "paddle.randn", ["size"], "paddle.seed(12)\nout = paddle.randn(size=[2, 2])"),
    ("permute_varargs", T + "permute", [], "out = img.permute(0, 2, 3, 1).shape"),
    ("permute_method_list", T + "permute", [], "out = x.permute([1, 0])"),
    ("repeat_varargs", T + "repeat", [], "out = v.repeat(2, 1)"),
    ("new_ones_varargs", T + "new_ones", [], "out = x.new_ones(2, 2)"),
    ("new_zeros_varargs", T + "new_zeros", [], "out = i.new_zeros(3)"),
    ("new_empty_varargs", T + "new_empty", [], "out = list(x.new_empty(1, 4).shape)"),
    # ---------------------------------------------------------- overloads Paddle dispatches on
    ("gather_dim", "paddle.gather", [], "out = paddle.gather(x, dim=1, index=i)"),
    ("gather_torch_pos", "paddle.gather", [], "out = paddle.gather(x, 1, i)"),
    ("gather_paddle", "paddle.gather", [], "out = paddle.gather(x, paddle.to_tensor([1, 0]), axis=0)"),
    ("scatter_dim_src", "paddle.scatter", [],
     "out = paddle.scatter(x, dim=1, index=i, src=y)"),
    ("scatter_torch_pos_value", "paddle.scatter", [],
     "out = paddle.scatter(x, 0, paddle.to_tensor([[1, 0, 1]]), value=7.0)"),
    ("scatter_reduce_add", "paddle.scatter", [],
     "out = paddle.scatter(x, 1, i, y, reduce='add')"),
    # ---------------------------------------------------------- nn layer constructors
    ("AdaptiveMaxPool1D_return_indices", "paddle.nn.AdaptiveMaxPool1D", ["return_indices"],
     "out = paddle.nn.AdaptiveMaxPool1D(output_size=4, return_indices=True)(seq)"),
    ("AdaptiveMaxPool2d_return_indices", "paddle.nn.AdaptiveMaxPool2d", ["return_indices"],
     "out = paddle.nn.AdaptiveMaxPool2d(output_size=2, return_indices=True)(img)"),
    ("CosineSimilarity_dim", "paddle.nn.CosineSimilarity", ["dim"],
     "out = paddle.nn.CosineSimilarity(dim=0)(x, y)"),
    ("GLU_dim", "paddle.nn.GLU", ["dim"], "out = paddle.nn.GLU(dim=0)(x)"),
    ("GroupNorm_eps", "paddle.nn.GroupNorm", ["eps"],
     "out = paddle.nn.GroupNorm(num_groups=2, num_channels=2, eps=1e-3)(img.astype('float32'))"),
    ("GroupNorm_eps_both", "paddle.nn.GroupNorm", ["eps"],
     "out = paddle.nn.GroupNorm(2, 2, epsilon=1e-3, eps=1e-3)"),
    ("LayerNorm_eps", "paddle.nn.LayerNorm", ["eps"], "out = paddle.nn.LayerNorm(3, eps=1e-3)(f)"),
    ("PairwiseDistance_eps", "paddle.nn.PairwiseDistance", ["eps"],
     "out = paddle.nn.PairwiseDistance(eps=1e-6)(x, y)"),
    ("Hardshrink_lambd", "paddle.nn.Hardshrink", ["lambd"], "out = paddle.nn.Hardshrink(lambd=1.6)(x)"),
    ("Softshrink_lambd", "paddle.nn.Softshrink", ["lambd"], "out = paddle.nn.Softshrink(lambd=1.0)(x)"),
    ("LayerList_modules", "paddle.nn.LayerList", ["modules"],
     "out = len(paddle.nn.LayerList(modules=[paddle.nn.ReLU(), paddle.nn.Tanh()]))"),
    ("ModuleList_modules", "paddle.nn.ModuleList", ["modules"],
     "ml = paddle.nn.ModuleList(modules=[paddle.nn.Tanh()])\nout = ml[0](x)"),
    ("LayerDict_modules", "paddle.nn.LayerDict", ["modules"],
     "out = list(paddle.nn.LayerDict(modules={'a': paddle.nn.ReLU(), 'b': paddle.nn.Tanh()}).keys())"),
    ("ModuleDict_modules", "paddle.nn.ModuleDict", ["modules"],
     "out = paddle.nn.ModuleDict(modules={'t': paddle.nn.Tanh()})['t'](x)"),
    ("Fold_torch_names", "paddle.nn.Fold", ["output_size", "kernel_size", "stride", "padding",
                                            "dilation"],
     "t = paddle.arange(36, dtype='float64').reshape([1, 4, 9])\n"
     "out = paddle.nn.Fold(output_size=[4, 4], kernel_size=2, stride=1, padding=0, dilation=1)(t)"),
    ("MSELoss_reduce_refused", "paddle.nn.MSELoss", [], "out = paddle.nn.MSELoss(reduce=False)"),
    ("CrossEntropyLoss_size_average_refused", "paddle.nn.CrossEntropyLoss", [],
     "out = paddle.nn.CrossEntropyLoss(size_average=False)"),
    ("L1Loss_positional_bool_refused", "paddle.nn.L1Loss", [], "out = paddle.nn.L1Loss(True)"),
    # ---------------------------------------------------------- layer methods (forward ...)
    ("Conv1D_forward_input", "paddle.nn.Conv1D.forward", ["input"],
     "paddle.seed(3)\nout = paddle.nn.Conv1D(2, 1, 3)(input=seq.astype('float32'))"),
    ("Linear_parameters_recurse", "paddle.nn.Layer.parameters", ["recurse"],
     "net = paddle.nn.Sequential(paddle.nn.Linear(2, 2))\n"
     "out = [len(net.parameters(recurse=False)), len(net.parameters(recurse=True))]"),
    ("register_buffer_persistent", "paddle.nn.Layer.register_buffer", ["persistent"],
     "lin = paddle.nn.Linear(2, 2)\nlin.register_buffer('b0', v, persistent=False)\n"
     "out = sorted(lin.state_dict())"),
    ("LayerList_append_module", "paddle.nn.LayerList.append", ["module"],
     "ll = paddle.nn.LayerList()\nll.append(module=paddle.nn.Tanh())\nout = ll[0](x)"),
    ("LayerList_extend_modules", "paddle.nn.LayerList.extend", ["modules"],
     "ll = paddle.nn.LayerList()\nll.extend(modules=[paddle.nn.Tanh()])\nout = len(ll)"),
    ("CrossEntropyLoss_forward_target", "paddle.nn.CrossEntropyLoss.forward", ["target"],
     "out = paddle.nn.CrossEntropyLoss()(f, target=paddle.to_tensor([1, 2]))"),
    ("SmoothL1Loss_forward_target", "paddle.nn.SmoothL1Loss.forward", ["target"],
     "out = paddle.nn.SmoothL1Loss()(x, target=y)"),
    ("PairwiseDistance_forward_x1_x2", "paddle.nn.PairwiseDistance.forward", ["x1", "x2"],
     "out = paddle.nn.PairwiseDistance()(x1=x, x2=y)"),
    # ---------------------------------------------------------- keywords Paddle refuses
    ("max_dim_forbidden", "paddle.max", [], "out = paddle.max(x, dim=1)"),
    ("max_axis", "paddle.max", [], "out = paddle.max(x, axis=1)"),
    ("sort_dim_forbidden", "paddle.sort", [], "out = paddle.sort(x, dim=1)"),
    ("split_dim_forbidden", "paddle.split", [], "out = paddle.split(x, 3, dim=1)"),
]


#: "_both" cases that give both spellings as keywords: what they give must be what the
#: table's BOTH_GIVEN says (checked here against real Paddle; an original given positionally
#: with its alias as a keyword is another matter: Python's binding or the C++ parser decides)
BOTH_KW = ["sum_dim_both", "sum_input_kw_both", "logsumexp_dim_both", "argmax_keepdims_both",
           "diagonal_dim1_both", "bmm_mat2_both", "index_put_values_both", "concat_dim_both",
           "full_size_both", "norm_ord_both", "add_other_kw_both", "mean_dim_both",
           "topk_dim_both", "median_dim_both", "softmax_F_dim_both", "expand_size_both",
           "group_norm_eps_both", "zeros_size_both", "GroupNorm_eps_both"]


def listed_aliases(table, api):
    """The aliases the table lists for ``api``: a function, Tensor method, layer constructor
    or layer method (``paddle.nn.Conv1D.forward``)."""
    listed = table.ALIASES.get(api) or table.LAYER_ALIASES.get(api)
    if listed:
        return listed
    cls, _, method = api.rpartition(".")
    return (table.LAYER_METHOD_ALIASES.get(cls) or {}).get(method) or {}


def _check_both(out, table):
    """BOTH_KW cases against the table's BOTH_GIVEN."""
    bad = []
    for c in out:
        if c["id"] not in BOTH_KW:
            continue
        want = c["want"]
        got = want["error"] if isinstance(want, dict) and "error" in want else "alias"
        said = table.BOTH_GIVEN.get(c["api"], table.LAYER_BOTH_GIVEN.get(c["api"]))
        if said != got:
            bad.append(f"{c['id']}: Paddle gives {got}, the table says {said}")
    if bad:
        raise SystemExit("BOTH_GIVEN disagrees with Paddle:\n" + "\n".join(bad))


def _covered(cases, families):
    """The families (alias|kind -> apis) no case covers."""
    used = {(api, a) for _, api, aliases, _ in cases for a in aliases}
    return sorted(f for f, apis in families.items()
                  if not any((api, f.split("|")[0]) in used for api in apis))


def main():
    import warnings  # noqa: PLC0415
    warnings.filterwarnings("ignore")
    import paddle  # noqa: PLC0415
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from golden_utils import run_case  # noqa: PLC0415
    assert paddle.__version__ == "3.3.1", paddle.__version__
    with open(os.path.join(HERE, "families.json")) as fh:
        families = json.load(fh)
    missing = _covered(CASES, families)
    if missing:
        raise SystemExit("families no case covers: " + ", ".join(missing))
    ids = [c[0] for c in CASES]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    env_code = PRELUDE
    out = []
    for case_id, api, aliases, code in CASES:
        paddle.set_default_dtype("float32")
        want = run_case(env_code + code, paddle)
        out.append({"id": case_id, "api": api, "aliases": aliases, "code": code, "want": want})
        print(case_id, json.dumps(want)[:120])
    doc = {"paddle": paddle.__version__, "prelude": PRELUDE, "cases": out,
           "families": {f: sorted({c[1] for c in CASES if c[1] in apis and
                                   f.split("|")[0] in c[2]}) for f, apis in families.items()}}
    with open(os.path.join(ROOT, "tests", "goldens", "aliases.json"), "w") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")
    import importlib.util  # noqa: PLC0415
    spec = importlib.util.spec_from_file_location(
        "alias_table", os.path.join(ROOT, "paddle_compat", "ops", "alias_table.py"))
    table = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(table)
    _check_both(out, table)
    for c in out:
        listed = listed_aliases(table, c["api"])
        if not set(c["aliases"]) <= set(listed):
            raise SystemExit(f"{c['id']}: {c['aliases']} are not all aliases of {c['api']} "
                             f"in the table ({listed})")
    errors = sum(1 for c in out if isinstance(c["want"], dict) and "error" in c["want"])
    print(f"{len(out)} cases ({errors} raise), {len(families)} families covered")


if __name__ == "__main__":
    main()
