"""Record what real Paddle raises for bad calls: run with the Paddle virtualenv's python.

    ../paddle_venv/bin/python tools/goldens/record_exceptions.py

Each case of ``CASES`` is ``(case_id, code, arg)``: ``code`` runs with ``paddle``, ``np`` and the
``PRELUDE``'s tensors bound and should fail; ``arg`` is the argument it gets wrong (None where no
single argument is to blame). Writes tests/goldens/exceptions.json: per case the code, the
exception's class and its nearest built-in type (Paddle's C++ error classes are subclasses of
built-in ones: ``isinstance`` is what user code sees), whether the message names ``arg``, and the
message's first line (for reading, never compared). ``ok`` where Paddle does not raise.
tests/test_exceptions.py runs the same code on paddle_compat.

This file imports no Paddle at module level, so the table can be read anywhere.
"""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PRELUDE = """
x = paddle.to_tensor(np.arange(6, dtype='float32').reshape(2, 3))
y = paddle.to_tensor(np.ones((3, 2), dtype='float32'))
v = paddle.to_tensor(np.arange(3, dtype='float32'))
i = paddle.to_tensor([0, 1])
b = paddle.to_tensor([[True, False, True], [False, True, True]])
img = paddle.to_tensor(np.ones((1, 3, 4, 4), dtype='float32'))
w = paddle.to_tensor(np.ones((2, 3, 3, 3), dtype='float32'))
"""

F = "paddle.nn.functional."

CASES = [
    # -- reductions and axis arguments out of range
    ("sum_axis_big", "paddle.sum(x, axis=2)", "axis"),
    ("sum_axis_neg", "paddle.sum(x, axis=-3)", "axis"),
    ("sum_axis_list_big", "paddle.sum(x, axis=[0, 5])", "axis"),
    ("sum_axis_float", "paddle.sum(x, axis=1.5)", "axis"),
    ("sum_axis_str", "paddle.sum(x, axis='a')", "axis"),
    ("sum_dtype_bad", "paddle.sum(x, dtype='flot')", "dtype"),
    ("mean_axis_big", "paddle.mean(x, axis=2)", "axis"),
    ("mean_axis_tuple_big", "paddle.mean(x, axis=(0, 5))", "axis"),
    ("max_axis_big", "paddle.max(x, axis=2)", "axis"),
    ("min_axis_big", "paddle.min(x, axis=-3)", "axis"),
    ("amax_axis_big", "paddle.amax(x, axis=3)", "axis"),
    ("prod_axis_big", "paddle.prod(x, axis=2)", "axis"),
    ("argmax_axis_big", "paddle.argmax(x, axis=2)", "axis"),
    ("argmin_axis_big", "paddle.argmin(x, axis=-3)", "axis"),
    ("argmax_axis_float", "paddle.argmax(x, axis=1.0)", "axis"),
    ("argmax_dtype_float", "paddle.argmax(x, axis=1, dtype='float32')", "dtype"),
    ("std_axis_big", "paddle.std(x, axis=2)", "axis"),
    ("var_axis_big", "paddle.var(x, axis=2)", "axis"),
    ("logsumexp_axis_big", "paddle.logsumexp(x, axis=2)", "axis"),
    ("all_axis_big", "paddle.all(b, axis=2)", "axis"),
    ("any_axis_big", "paddle.any(b, axis=2)", "axis"),
    ("cumsum_axis_big", "paddle.cumsum(x, axis=2)", "axis"),
    ("cumprod_dim_big", "paddle.cumprod(x, dim=2)", "dim"),
    ("median_axis_big", "paddle.median(x, axis=2)", "axis"),
    ("nansum_axis_big", "paddle.nansum(x, axis=2)", "axis"),
    ("count_nonzero_axis_big", "paddle.count_nonzero(x, axis=2)", "axis"),
    ("norm_axis_big", "paddle.linalg.norm(x, axis=2)", "axis"),
    ("norm_p_bad", "paddle.linalg.norm(x, p='bad')", "p"),
    ("topk_k_big", "paddle.topk(x, k=4)", "k"),
    ("topk_axis_big", "paddle.topk(x, k=1, axis=2)", "axis"),
    ("sort_axis_big", "paddle.sort(x, axis=2)", "axis"),
    ("argsort_axis_big", "paddle.argsort(x, axis=2)", "axis"),
    ("kthvalue_k_big", "paddle.kthvalue(x, k=5)", "k"),
    ("mode_axis_big", "paddle.mode(x, axis=2)", "axis"),
    ("unique_axis_big", "paddle.unique(x, axis=2)", "axis"),
    ("softmax_axis_big", F + "softmax(x, axis=2)", "axis"),
    ("softmax_axis_neg", F + "softmax(x, axis=-3)", "axis"),
    ("log_softmax_axis_big", F + "log_softmax(x, axis=3)", "axis"),
    ("softmax_dtype_bad", F + "softmax(x, dtype='int33')", "dtype"),
    ("normalize_axis_big", F + "normalize(x, axis=3)", "axis"),
    ("glu_axis_odd", F + "glu(x, axis=1)", "axis"),
    ("cosine_similarity_axis_big", F + "cosine_similarity(x, x, axis=3)", "axis"),
    # -- reshaping, transposing
    ("reshape_numel", "paddle.reshape(x, [4, 2])", "shape"),
    ("reshape_two_minus_one", "paddle.reshape(x, [-1, -1])", "shape"),
    ("reshape_float_dim", "paddle.reshape(x, [2.5, 2])", "shape"),
    ("reshape_str", "paddle.reshape(x, 'a')", "shape"),
    ("reshape_neg", "paddle.reshape(x, [-2, 3])", "shape"),
    ("transpose_short", "paddle.transpose(x, [0])", "perm"),
    ("transpose_dup", "paddle.transpose(x, [0, 0])", "perm"),
    ("transpose_big", "paddle.transpose(x, [0, 2])", "perm"),
    ("transpose_str", "paddle.transpose(x, 'ab')", "perm"),
    ("flatten_start_big", "paddle.flatten(x, start_axis=3)", "start_axis"),
    ("flatten_start_after_stop", "paddle.flatten(x, start_axis=1, stop_axis=0)", "start_axis"),
    ("squeeze_axis_big", "paddle.squeeze(x, axis=5)", "axis"),
    ("unsqueeze_axis_big", "paddle.unsqueeze(x, axis=5)", "axis"),
    ("unsqueeze_axis_str", "paddle.unsqueeze(x, axis='a')", "axis"),
    ("expand_bad", "paddle.expand(x, [3, 3])", "shape"),
    ("expand_fewer_dims", "paddle.expand(x, [3])", "shape"),
    ("broadcast_to_bad", "paddle.broadcast_to(x, [4, 4])", "shape"),
    ("tile_negative", "paddle.tile(x, [-1, 2])", "repeat_times"),
    ("tile_str", "paddle.tile(x, 'a')", "repeat_times"),
    ("flip_axis_big", "paddle.flip(x, axis=3)", "axis"),
    ("roll_axis_big", "paddle.roll(x, 1, axis=3)", "axis"),
    ("moveaxis_big", "paddle.moveaxis(x, 0, 3)", "destination"),
    ("moveaxis_len", "paddle.moveaxis(x, [0, 1], [0])", "source"),
    ("t_3d", "paddle.t(img)", "input"),
    ("repeat_interleave_bad", "paddle.repeat_interleave(x, paddle.to_tensor([1, 2]), axis=1)",
     "repeats"),
    ("diagonal_same_axes", "paddle.diagonal(x, axis1=0, axis2=0)", "axis1"),
    ("tril_1d", "paddle.tril(v)", "x"),
    ("triu_1d", "paddle.triu(v)", "x"),
    ("diag_3d", "paddle.diag(img)", "x"),
    ("trace_1d", "paddle.trace(v)", "x"),
    ("view_bad", "x.view([4, 4])", "shape"),
    ("as_strided_neg", "paddle.as_strided(x, [2, 2], [-1, 1])", "stride"),
    # -- joining and splitting
    ("concat_empty", "paddle.concat([])", "x"),
    ("concat_shape", "paddle.concat([x, y])", "x"),
    ("concat_axis_big", "paddle.concat([x, x], axis=2)", "axis"),
    ("concat_tensor_not_list", "paddle.concat(x)", "x"),
    ("concat_int_item", "paddle.concat([x, 1])", "x"),
    ("concat_rank", "paddle.concat([x, v])", "x"),
    ("stack_empty", "paddle.stack([])", "x"),
    ("stack_shape", "paddle.stack([x, y])", "x"),
    ("stack_axis_big", "paddle.stack([x, x], axis=4)", "axis"),
    ("stack_tensor_not_list", "paddle.stack(x)", "x"),
    ("split_not_divisible", "paddle.split(x, 4, axis=1)", "num_or_sections"),
    ("split_sections_sum", "paddle.split(x, [1, 1], axis=1)", "num_or_sections"),
    ("split_axis_big", "paddle.split(x, 3, axis=3)", "axis"),
    ("split_two_minus_one", "paddle.split(x, [-1, -1, 1], axis=1)", "num_or_sections"),
    ("split_zero", "paddle.split(x, 0, axis=1)", "num_or_sections"),
    ("chunk_not_divisible", "paddle.chunk(x, 4, axis=1)", "chunks"),
    ("unbind_axis_big", "paddle.unbind(x, axis=3)", "axis"),
    ("add_n_empty", "paddle.add_n([])", "inputs"),
    ("add_n_shape", "paddle.add_n([x, y])", "inputs"),
    ("meshgrid_empty", "paddle.meshgrid()", None),
    ("broadcast_tensors_bad", "paddle.broadcast_tensors([x, y])", "input"),
    ("hstack_empty", "paddle.hstack([])", "x"),
    ("vstack_shape", "paddle.vstack([x, v[:2]])", "x"),
    # -- gathering and indexing
    ("gather_float_index", "paddle.gather(x, paddle.to_tensor([0.0, 1.0]))", "index"),
    ("gather_axis_big", "paddle.gather(x, i, axis=3)", "axis"),
    ("gather_index_list", "paddle.gather(x, [0, 1])", "index"),
    ("gather_out_of_range", "paddle.gather(x, paddle.to_tensor([5]))", "index"),
    ("index_select_float", "paddle.index_select(x, paddle.to_tensor([0.0]))", "index"),
    ("index_select_axis_big", "paddle.index_select(x, i, axis=3)", "axis"),
    ("index_select_out_of_range", "paddle.index_select(x, paddle.to_tensor([7]), axis=1)",
     "index"),
    ("take_along_axis_rank", "paddle.take_along_axis(x, i, axis=0)", "indices"),
    ("take_along_axis_float",
     "paddle.take_along_axis(x, paddle.to_tensor([[0.0, 1.0, 0.0]]), axis=0)", "indices"),
    ("gather_nd_deep", "paddle.gather_nd(x, paddle.to_tensor([[0, 1, 2]]))", "index"),
    ("index_sample_shape", "paddle.index_sample(x, paddle.to_tensor([[0], [1], [2]]))", "index"),
    ("masked_select_shape", "paddle.masked_select(x, paddle.to_tensor([True, False]))", "mask"),
    ("masked_select_not_bool", "paddle.masked_select(x, x)", "mask"),
    ("where_shape", "paddle.where(b, x, y)", "y"),
    ("where_cond_float", "paddle.where(x, x, x)", "condition"),
    ("scatter_shape", "paddle.scatter(x, i, paddle.ones([2, 5]))", "updates"),
    ("put_along_axis_rank", "paddle.put_along_axis(x, i, 1.0, axis=0)", "indices"),
    ("getitem_out_of_range", "x[5]", None),
    ("getitem_neg_out_of_range", "x[-3]", None),
    ("getitem_too_many", "x[0, 0, 0]", None),
    ("getitem_str", "x['a']", None),
    ("getitem_float", "x[1.5]", None),
    ("setitem_shape", "x[0] = paddle.ones([4])", None),
    ("one_hot_float", F + "one_hot(x, 3)", "x"),
    ("embedding_float_index", F + "embedding(x, y)", "x"),
    # -- matmul family
    ("matmul_shape", "paddle.matmul(x, x)", "y"),
    ("matmul_vec_shape", "paddle.matmul(x, paddle.ones([4]))", "y"),
    ("matmul_int", "paddle.matmul(x, 1)", "y"),
    ("matmul_list", "paddle.matmul([[1.0]], [[2.0]])", "x"),
    ("mm_shape", "paddle.mm(x, x)", "mat2"),
    ("bmm_2d", "paddle.bmm(x, y)", "x"),
    ("bmm_batch", "paddle.bmm(paddle.ones([2, 2, 3]), paddle.ones([3, 3, 2]))", "y"),
    ("dot_shape", "paddle.dot(v, paddle.ones([4]))", "y"),
    ("dot_dtype", "paddle.dot(v, paddle.to_tensor([1, 2, 3]))", "y"),
    ("mv_shape", "paddle.mv(x, paddle.ones([4]))", "vec"),
    ("matmul_dtype", "paddle.matmul(x, paddle.ones([3, 2], dtype='int64'))", "y"),
    ("inv_nonsquare", "paddle.linalg.inv(x)", "x"),
    ("det_nonsquare", "paddle.linalg.det(x)", "x"),
    ("cholesky_nonsquare", "paddle.linalg.cholesky(x)", "x"),
    ("solve_shape", "paddle.linalg.solve(paddle.eye(3), paddle.ones([2, 1]))", "y"),
    ("cross_shape", "paddle.cross(x, y)", "y"),
    ("einsum_bad_eq", "paddle.einsum('ij,jk->', x)", "equation"),
    ("einsum_shape", "paddle.einsum('ij,ij->i', x, y)", "operands"),
    ("linear_shape", F + "linear(x, paddle.ones([4, 2]))", "weight"),
    # mixed float dtypes: Paddle's matmul kernel rejects them (ValueError), with a bias too
    ("linear_dtype_half", F + "linear(x.astype('float16'), y)", None),
    ("linear_dtype_double_bias", F + "linear(x.astype('float64'), y, paddle.ones([2]))", None),
    ("linear_dtype_int_x", F + "linear(x.astype('int64'), y)", None),
    ("outer_int", "paddle.outer(v, 2)", "y"),
    # -- elementwise: shapes, dtypes, non-tensors
    ("add_shape", "paddle.add(x, y)", "y"),
    ("multiply_shape", "paddle.multiply(x, y)", "y"),
    ("operator_add_shape", "x + y", None),
    ("maximum_shape", "paddle.maximum(x, y)", "y"),
    ("add_int_tensor", "paddle.add(x, paddle.to_tensor([[1, 2, 3], [4, 5, 6]]))", "y"),
    ("bitwise_and_float", "paddle.bitwise_and(x, x)", "x"),
    ("logical_and_shape", "paddle.logical_and(b, paddle.to_tensor([True, False]))", "y"),
    ("pow_str", "paddle.pow(x, 'a')", "y"),
    ("clip_str", "paddle.clip(x, min='a')", "min"),
    ("tanh_list", "paddle.tanh([1.0, 2.0])", "x"),
    ("exp_float", "paddle.exp(1.0)", "x"),
    ("abs_none", "paddle.abs(None)", "x"),
    ("sum_list", "paddle.sum([1, 2])", "x"),
    ("reshape_list", "paddle.reshape([1, 2], [2])", "x"),
    ("transpose_ndarray", "paddle.transpose(np.ones((2, 3)), [1, 0])", "x"),
    ("cast_list", "paddle.cast([1.0], 'int32')", "x"),
    ("relu_str", F + "relu('a')", "x"),
    ("sigmoid_none", F + "sigmoid(None)", "x"),
    ("add_two_ints", "paddle.add(1, 2)", "x"),
    ("sqrt_int_list", "paddle.sqrt([4])", "x"),
    ("equal_all_list", "paddle.equal_all([1], [1])", "x"),
    ("allclose_int", "paddle.allclose(x, 1)", "y"),
    ("isclose_shape", "paddle.isclose(x, y)", "y"),
    ("searchsorted_dims", "paddle.searchsorted(x, v)", "values"),
    ("bincount_float", "paddle.bincount(v)", "x"),
    ("histogram_bins_zero", "paddle.histogram(v, bins=0)", "bins"),
    ("kron_list", "paddle.kron([1], v)", "x"),
    ("lerp_shape", "paddle.lerp(x, y, 0.5)", "y"),
    ("floor_divide_zero_int",
     "paddle.floor_divide(paddle.to_tensor([1]), paddle.to_tensor([0]))", "y"),
    # -- dtype and place strings
    ("zeros_bad_dtype", "paddle.zeros([2], 'flot32')", "dtype"),
    ("cast_bad_dtype", "paddle.cast(x, 'int33')", "dtype"),
    ("astype_bad_dtype", "x.astype('foo')", "dtype"),
    ("to_tensor_bad_dtype", "paddle.to_tensor([1], dtype='abc')", "dtype"),
    ("ones_int_dtype", "paddle.ones([2], dtype=5)", "dtype"),
    ("full_bad_dtype", "paddle.full([2], 1, 'xx')", "dtype"),
    ("arange_bad_dtype", "paddle.arange(5, dtype='bad')", "dtype"),
    ("randn_int_dtype", "paddle.randn([2], dtype='int32')", "dtype"),
    ("rand_int_dtype", "paddle.rand([2], dtype='int64')", "dtype"),
    ("uniform_int_dtype", "paddle.uniform([2], dtype='int32')", "dtype"),
    ("set_default_dtype_int", "paddle.set_default_dtype('int32')", "d"),
    ("set_default_dtype_bad", "paddle.set_default_dtype('foo')", "d"),
    ("empty_bad_dtype", "paddle.empty([2], dtype='q')", "dtype"),
    ("eye_bad_dtype", "paddle.eye(2, dtype='str')", "dtype"),
    ("to_tensor_bad_place", "paddle.to_tensor([1], place='cpux')", "place"),
    ("set_device_bad", "paddle.set_device('tpu')", "device"),
    ("set_device_bad_index", "paddle.set_device('gpu:abc')", "device"),
    ("tensor_to_bad", "x.to('abc')", None),
    ("cuda_place_str", "paddle.CUDAPlace('a')", None),
    # -- to_tensor of bad data
    ("to_tensor_ragged", "paddle.to_tensor([[1, 2], [3]])", "data"),
    ("to_tensor_ragged2", "paddle.to_tensor([[1], [2, 3]])", "data"),
    ("to_tensor_mixed_nesting", "paddle.to_tensor([1, [2]])", "data"),
    ("to_tensor_str", "paddle.to_tensor(['a'])", "data"),
    ("to_tensor_dict", "paddle.to_tensor({'a': 1})", "data"),
    ("to_tensor_object", "paddle.to_tensor(object())", "data"),
    ("to_tensor_none_item", "paddle.to_tensor([None])", "data"),
    ("to_tensor_none", "paddle.to_tensor(None)", "data"),
    # -- creation and shapes
    ("zeros_negative", "paddle.zeros([-2])", "shape"),
    ("zeros_float_dim", "paddle.zeros([2.5])", "shape"),
    ("ones_str_shape", "paddle.ones('a')", "shape"),
    ("full_str_value", "paddle.full([2], 'a')", "fill_value"),
    ("arange_step_zero", "paddle.arange(0, 10, 0)", "step"),
    ("linspace_negative_num", "paddle.linspace(0, 1, -1)", "num"),
    ("eye_negative", "paddle.eye(-1)", "num_rows"),
    ("randint_low_high", "paddle.randint(5, 1)", "high"),
    ("randint_float_dtype", "paddle.randint(0, 5, [2], dtype='float32')", "dtype"),
    ("randperm_negative", "paddle.randperm(-1)", "n"),
    ("full_like_list", "paddle.full_like([1, 2], 1.0)", "x"),
    ("zeros_like_none", "paddle.zeros_like(None)", "x"),
    ("diag_embed_0d", "paddle.diag_embed(paddle.to_tensor(1.0))", "input"),
    ("tril_indices_neg", "paddle.tril_indices(-1, 2)", "row"),
    # -- nn.functional
    ("conv2d_3d_input", F + "conv2d(paddle.ones([3, 4, 4]), w)", "x"),
    ("conv2d_channels", F + "conv2d(paddle.ones([1, 2, 4, 4]), w)", "weight"),
    ("conv2d_stride_zero", F + "conv2d(img, w, stride=0)", "stride"),
    ("conv2d_padding_str", F + "conv2d(img, w, padding='bad')", "padding"),
    ("conv2d_data_format", F + "conv2d(img, w, data_format='NHCW')", "data_format"),
    ("conv2d_groups", F + "conv2d(img, w, groups=2)", "groups"),
    ("conv2d_kernel_big", F + "conv2d(paddle.ones([1, 3, 2, 2]), w)", None),
    ("conv1d_4d_input", F + "conv1d(img, paddle.ones([2, 3, 3]))", "x"),
    ("conv3d_4d_input", F + "conv3d(img, paddle.ones([2, 3, 3, 3, 3]))", "x"),
    ("conv2d_transpose_3d", F + "conv2d_transpose(paddle.ones([3, 4, 4]), w)", "x"),
    ("pad_bad_len", F + "pad(img, [1])", "pad"),
    ("pad_bad_mode", F + "pad(img, [1, 1, 1, 1], mode='bad')", "mode"),
    ("pad_len3", F + "pad(img, [1, 1, 1])", "pad"),
    ("pad_reflect_big", F + "pad(img, [5, 5, 5, 5], mode='reflect')", "pad"),
    ("pad_data_format", F + "pad(img, [1, 1, 1, 1], data_format='NHCW')", "data_format"),
    ("linear_weight_1d", F + "linear(x, v)", "weight"),
    ("dropout_p_big", F + "dropout(x, p=1.5)", "p"),
    ("dropout_p_neg", F + "dropout(x, p=-0.1)", "p"),
    ("dropout_p_str", F + "dropout(x, p='a')", "p"),
    ("dropout_mode_bad", F + "dropout(x, p=0.5, mode='bad')", "mode"),
    ("dropout_axis_big", F + "dropout(x, p=0.5, axis=3)", "axis"),
    ("max_pool2d_3d", F + "max_pool2d(paddle.ones([3, 4, 4]), 2)", "x"),
    ("max_pool2d_kernel_zero", F + "max_pool2d(img, 0)", "kernel_size"),
    ("avg_pool2d_kernel_list", F + "avg_pool2d(img, [2, 2, 2])", "kernel_size"),
    ("avg_pool2d_data_format", F + "avg_pool2d(img, 2, data_format='NCWH')", "data_format"),
    ("adaptive_avg_pool2d_bad", F + "adaptive_avg_pool2d(img, [1, 2, 3])", "output_size"),
    ("interpolate_mode_bad", F + "interpolate(img, size=[8, 8], mode='bad')", "mode"),
    ("interpolate_no_size", F + "interpolate(img)", "size"),
    ("interpolate_both", F + "interpolate(img, size=[8, 8], scale_factor=2)", "scale_factor"),
    ("interpolate_align_area",
     F + "interpolate(img, size=[8, 8], mode='area', align_corners=True)", "align_corners"),
    ("cross_entropy_label_shape",
     F + "cross_entropy(x, paddle.to_tensor([0, 1, 2]))", "label"),
    ("cross_entropy_reduction", F + "cross_entropy(x, i, reduction='bad')", "reduction"),
    ("mse_loss_reduction", F + "mse_loss(x, x, reduction='bad')", "reduction"),
    ("l1_loss_reduction", F + "l1_loss(x, x, reduction='bad')", "reduction"),
    ("kl_div_reduction", F + "kl_div(x, x, reduction='bad')", "reduction"),
    ("mse_loss_shape", F + "mse_loss(x, y)", "label"),
    ("bce_shape", F + "binary_cross_entropy(F_sig, paddle.ones([3]))".replace(
        "F_sig", F + "sigmoid(x)"), "label"),
    ("nll_loss_shape", F + "nll_loss(x, paddle.to_tensor([0, 1, 2]))", "label"),
    ("smooth_l1_shape", F + "smooth_l1_loss(x, y)", "label"),
    ("batch_norm_mean_size",
     F + "batch_norm(img, paddle.zeros([2]), paddle.ones([2]), training=False)",
     "running_mean"),
    ("layer_norm_shape", F + "layer_norm(x, [4])", "normalized_shape"),
    ("group_norm_groups", F + "group_norm(img, num_groups=2)", "num_groups"),
    ("leaky_relu_str", F + "leaky_relu(x, negative_slope='a')", "negative_slope"),
    ("pixel_shuffle_factor", F + "pixel_shuffle(img, 2)", "upscale_factor"),
    ("unfold_kernel_big", F + "unfold(img, kernel_sizes=[5, 5])", "kernel_sizes"),
    ("gelu_approx_str", F + "gelu(x, approximate='a')", "approximate"),
    ("hardtanh_min_max", F + "hardtanh(x, min=1.0, max=0.0)", "min"),
    ("label_smooth_eps", F + "label_smooth(x, epsilon=2.0)", "epsilon"),
    # -- layers
    ("linear_negative", "paddle.nn.Linear(-1, 3)", "in_features"),
    ("conv2d_layer_padding_mode", "paddle.nn.Conv2D(3, 4, 3, padding_mode='bad')",
     "padding_mode"),
    ("conv2d_layer_groups", "paddle.nn.Conv2D(3, 4, 3, groups=2)", "groups"),
    ("embedding_negative", "paddle.nn.Embedding(-1, 3)", "num_embeddings"),
    ("embedding_padding_idx", "paddle.nn.Embedding(4, 3, padding_idx=10)", "padding_idx"),
    ("dropout_layer_p", "paddle.nn.Dropout(p=2)", "p"),
    ("softmax_layer_call", "paddle.nn.Softmax(axis=3)(x)", "axis"),
    ("lstm_direction", "paddle.nn.LSTM(4, 8, direction='sideways')", "direction"),
    ("batchnorm_call_rank", "paddle.nn.BatchNorm2D(3)(x)", "x"),
    ("layernorm_call_shape", "paddle.nn.LayerNorm(4)(x)", "normalized_shape"),
    ("sequential_index", "paddle.nn.Sequential(paddle.nn.ReLU())[3]", None),
    ("layerlist_index", "paddle.nn.LayerList([paddle.nn.ReLU()])[5]", None),
    # -- autograd misuse
    ("grad_not_requiring", "paddle.grad(x.sum(), [x])", "inputs"),
    ("backward_non_scalar_grad", "paddle.autograd.backward([x], [paddle.ones([5])])",
     "grad_tensors"),
    ("tensor_item_many", "x.item()", None),
    ("tensor_bool_many", "bool(x)", None),
    ("tensor_float_many", "float(x)", None),
    ("tensor_len_0d", "len(paddle.to_tensor(1.0))", None),
    ("tensor_iter_0d", "list(paddle.to_tensor(1.0))", None),
    ("numpy_bad_arg", "x.numpy(1)", None),
]


def _first_line(msg):
    for line in msg.splitlines():
        if line.strip():
            return line.strip()[:300]
    return ""


def names_arg(msg, arg):
    """Whether ``msg`` names the argument ``arg`` as a word (any case: Paddle writes ``x`` as
    ``Input(X)``, ``axis`` as ``Attr(axis)``)."""
    return bool(arg) and re.search(rf"(?<![A-Za-z0-9_]){re.escape(arg)}(?![A-Za-z0-9_])", msg,
                                   re.IGNORECASE) is not None


def describe_exception(e, arg):
    builtin = next(c for c in type(e).__mro__ if c.__module__ == "builtins")
    msg = str(e)
    return {"type": builtin.__name__, "class": type(e).__name__,
            "names_arg": names_arg(msg, arg), "msg": _first_line(msg)}


def run_case(paddle, np, code, arg):
    """What running ``code`` does: ``{"ok": True}`` or the exception's description."""
    env = {"paddle": paddle, "np": np}
    exec(PRELUDE, env)
    try:
        exec(code, env)
    except Exception as e:       # noqa: BLE001 - the exception is the result
        return describe_exception(e, arg)
    return {"ok": True}


def main():
    import numpy as np
    import paddle
    out = {"paddle_version": paddle.__version__, "prelude": PRELUDE, "cases": {}}
    for cid, code, arg in CASES:
        paddle.disable_static()
        paddle.set_default_dtype("float32")
        out["cases"][cid] = dict(code=code, arg=arg, **run_case(paddle, np, code, arg))
        r = out["cases"][cid]
        print(f"{cid}: {r.get('class', 'ok')} {r.get('msg', '')[:100]}")
    ids = [c[0] for c in CASES]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    with open(os.path.join(ROOT, "tests", "goldens", "exceptions.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"{len(CASES)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
