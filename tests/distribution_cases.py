"""The paddle.distribution cases, shared by tools/goldens/record_distribution.py (run on real
Paddle) and tests/test_distribution.py (run on paddle_compat).

A case is ``(case_id, code, kind)``: the code runs with ``paddle`` and ``np`` bound and leaves
its result in ``out``; ``kind`` is "value" (float32 results at the "op" depth tolerance: one
formula of a few elementwise ops), "deep" (compositions: gradients of the log-normalizer,
Cholesky solves, sums over supports), or "exact" (seeded draws that are Paddle's random ops
composed with exactly rounded arithmetic, compared bit for bit).
"""

# parameters, values and the methods every family is asked for
_T = "paddle.to_tensor"
_F64 = "dtype='float64'"

# (name, constructor, value expression or None, methods, sample shape)
FAMILIES = [
    ("normal_f", "D.Normal(0.5, 2.0)", f"{_T}([-1.0, 0.3, 2.5])",
     ["mean", "variance", "entropy", "log_prob", "probs", "prob"], [3]),
    ("normal_t", f"D.Normal({_T}([0.0, 1.0]), {_T}([1.0, 0.5]))", f"{_T}([0.2, 1.7])",
     ["mean", "variance", "entropy", "log_prob", "probs"], [2]),
    ("normal_f64", f"D.Normal({_T}([0.0, 1.0], {_F64}), {_T}([1.0, 0.5], {_F64}))",
     f"{_T}([0.2, 1.7], {_F64})", ["mean", "variance", "entropy", "log_prob", "probs"], [2]),
    ("normal_np64", "D.Normal(np.array([0.1, 1.0]), np.array([1.0, 2.0]))", None,
     ["mean", "variance", "entropy"], [2]),
    ("normal_list", "D.Normal([0.1, 1.0], [1.0, 2.0])", f"{_T}([0.0, 0.0])",
     ["mean", "variance", "entropy", "log_prob"], [3]),
    ("normal_c", "D.Normal(complex(0.5, 1.0), 1.0)", f"{_T}([1+1j, 0.5-2j], dtype='complex64')",
     ["mean", "variance", "entropy", "log_prob", "probs"], [3]),
    ("normal_c128", f"D.Normal({_T}([1+2j], dtype='complex128'), {_T}([2.0], {_F64}))",
     f"{_T}([0.5-1j], dtype='complex128')", ["mean", "variance", "entropy", "log_prob"], [2]),
    ("uniform_f", "D.Uniform(-1.0, 3.0)", f"{_T}([-2.0, 0.0, 2.9])",
     ["entropy", "log_prob", "probs"], [4]),
    ("uniform_t", f"D.Uniform({_T}([0.0, 1.0]), {_T}([1.0, 5.0]))", f"{_T}([0.5, 0.5])",
     ["entropy", "log_prob", "probs"], [2]),
    ("uniform_f64", f"D.Uniform({_T}([0.0, 1.0], {_F64}), {_T}([1.0, 5.0], {_F64}))",
     f"{_T}([0.5, 2.5], {_F64})", ["entropy", "log_prob", "probs"], [2]),
    ("exponential", f"D.Exponential({_T}([0.5, 2.0]))", f"{_T}([0.3, 1.5])",
     ["mean", "variance", "entropy", "log_prob", "prob", "cdf", "icdf_half"], [3]),
    ("exponential_f", "D.Exponential(1.5)", f"{_T}([0.3, 1.5])",
     ["mean", "variance", "entropy", "log_prob"], [3]),
    ("exponential_f64", f"D.Exponential({_T}([0.5, 2.0], {_F64}))", f"{_T}([0.3, 1.5], {_F64})",
     ["mean", "variance", "entropy", "log_prob", "cdf"], [3]),
    ("gamma", f"D.Gamma({_T}([0.5, 2.0, 3.5]), {_T}([1.0, 0.5, 2.0]))",
     f"{_T}([0.3, 1.5, 2.0])", ["mean", "variance", "entropy", "log_prob", "prob"], [2]),
    ("gamma_f64", f"D.Gamma({_T}([0.5, 2.0], {_F64}), {_T}([1.0, 0.5], {_F64}))",
     f"{_T}([0.3, 1.5], {_F64})", ["mean", "variance", "entropy", "log_prob"], [2]),
    ("chi2", f"D.Chi2({_T}([1.0, 3.0]))", f"{_T}([0.5, 2.0])",
     ["mean", "variance", "entropy", "log_prob"], [2]),
    ("chi2_f", "D.Chi2(4.0)", f"{_T}([0.5, 2.0])", ["mean", "variance", "entropy", "log_prob"],
     [3]),
    ("beta", f"D.Beta({_T}([0.5, 2.0]), {_T}([1.5, 3.0]))", f"{_T}([0.3, 0.6])",
     ["mean", "variance", "entropy", "log_prob", "prob"], [2]),
    ("beta_f", "D.Beta(2.0, 3.0)", f"{_T}(0.3)", ["mean", "variance", "entropy", "log_prob"],
     [3]),
    ("dirichlet", f"D.Dirichlet({_T}([[1.5, 2.0, 0.7], [0.3, 4.0, 1.0]]))",
     f"{_T}([[0.2, 0.5, 0.3], [0.1, 0.6, 0.3]])",
     ["mean", "variance", "entropy", "log_prob", "prob"], [2]),
    ("dirichlet_f64", f"D.Dirichlet({_T}([1.5, 2.0, 0.7], {_F64}))",
     f"{_T}([0.2, 0.5, 0.3], {_F64})", ["mean", "variance", "entropy", "log_prob"], [3]),
    ("cauchy", f"D.Cauchy({_T}([0.0, 1.0]), {_T}([1.0, 2.5]))", f"{_T}([0.5, -1.0])",
     ["entropy", "log_prob", "prob", "cdf"], [2]),
    ("cauchy_f", "D.Cauchy(0.5, 2.0)", f"{_T}([0.5, -1.0])", ["entropy", "log_prob", "cdf"], [3]),
    ("laplace", f"D.Laplace({_T}([0.0, 1.0]), {_T}([1.0, 2.5]))", f"{_T}([0.5, -1.0])",
     ["mean", "variance", "stddev", "entropy", "log_prob", "prob", "cdf", "icdf_q"], [2]),
    ("laplace_f64", f"D.Laplace({_T}([0.0, 1.0], {_F64}), {_T}([1.0, 2.5], {_F64}))",
     f"{_T}([0.5, -1.0], {_F64})", ["mean", "variance", "entropy", "log_prob", "cdf"], [2]),
    ("studentt", f"D.StudentT({_T}([3.0, 1.5, 0.8]), {_T}([0.0, 1.0, -1.0]), "
     f"{_T}([1.0, 2.0, 0.5]))", f"{_T}([0.5, -1.0, 2.0])",
     ["mean", "variance", "entropy", "log_prob", "prob"], [2]),
    ("studentt_f", "D.StudentT(5.0, 1.0, 2.0)", f"{_T}([0.5, -1.0])",
     ["mean", "variance", "entropy", "log_prob"], [3]),
    ("cbern", f"D.ContinuousBernoulli({_T}([0.2, 0.4995, 0.7]))", f"{_T}([0.3, 0.5, 0.9])",
     ["mean", "variance", "entropy", "log_prob", "prob", "cdf", "icdf"], [2]),
    ("cbern_f", "D.ContinuousBernoulli(0.3)", f"{_T}([0.3, 0.9])",
     ["mean", "variance", "entropy", "log_prob", "cdf"], [3]),
    ("bernoulli", f"D.Bernoulli({_T}([0.2, 0.5, 0.9]))", f"{_T}([1.0, 0.0, 1.0])",
     ["mean", "variance", "entropy", "log_prob", "prob", "cdf"], [2]),
    ("bernoulli_f", "D.Bernoulli(0.3)", f"{_T}([1.0, 0.0])",
     ["mean", "variance", "entropy", "log_prob"], [4]),
    ("binomial", f"D.Binomial({_T}([5, 10]), {_T}([0.3, 0.6]))", f"{_T}([2.0, 7.0])",
     ["mean", "variance", "entropy", "log_prob", "prob"], None),
    ("binomial_f", "D.Binomial(6, 0.4)", f"{_T}([2.0, 5.0])",
     ["mean", "variance", "entropy", "log_prob"], None),
    ("categorical", f"D.Categorical({_T}([0.1, 0.2, 0.7]))", f"{_T}([0, 2, 1])",
     ["entropy", "log_prob", "probs"], [5]),
    ("categorical_2d", f"D.Categorical({_T}([[0.1, 0.2, 0.7], [1.0, 2.0, 3.0]]))",
     f"{_T}([0, 2])", ["entropy", "log_prob", "probs"], [3]),
    ("geometric", f"D.Geometric({_T}([0.2, 0.5]))", None,
     ["mean", "variance", "stddev", "entropy", "pmf", "log_pmf", "log_pmf_f", "pmf_t", "cdf_k"],
     [3]),
    ("geometric_f", "D.Geometric(0.3)", None, ["mean", "variance", "entropy", "pmf"], [4]),
    ("multinomial", f"D.Multinomial(5, {_T}([0.2, 0.3, 0.5]))", f"{_T}([1.0, 1.0, 3.0])",
     ["mean", "variance", "entropy", "log_prob", "prob"], [2]),
    ("multinomial_2d", f"D.Multinomial(4, {_T}([[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]]))",
     f"{_T}([[1.0, 1.0, 2.0], [4.0, 0.0, 0.0]])", ["mean", "variance", "entropy", "log_prob"],
     [2]),
    ("poisson", f"D.Poisson({_T}([0.5, 3.0, 10.0]))", f"{_T}([0.0, 2.0, 12.0])",
     ["mean", "variance", "entropy", "log_prob", "prob"], [2]),
    ("poisson_f", "D.Poisson(2.5)", f"{_T}([1.0, 4.0])",
     ["mean", "variance", "entropy", "log_prob"], [3]),
    ("lognormal", f"D.LogNormal({_T}([0.0, 0.5]), {_T}([1.0, 0.3]))", f"{_T}([0.5, 2.0])",
     ["mean", "variance", "entropy", "log_prob", "probs", "prob"], [2]),
    ("lognormal_f", "D.LogNormal(0.2, 0.8)", f"{_T}([0.5, 2.0])",
     ["mean", "variance", "entropy", "log_prob"], [3]),
    ("gumbel", f"D.Gumbel({_T}([0.0, 1.0]), {_T}([1.0, 2.5]))", f"{_T}([0.5, -1.0])",
     ["mean", "variance", "stddev", "entropy", "log_prob", "prob", "cdf"], [2]),
    ("gumbel_f", "D.Gumbel(0.5, 2.0)", f"{_T}([0.5, -1.0])",
     ["mean", "variance", "entropy", "log_prob"], [3]),
    ("mvn_cov", f"D.MultivariateNormal({_T}([0.0, 1.0]), covariance_matrix="
     f"{_T}([[2.0, 0.5], [0.5, 1.0]]))", f"{_T}([[0.3, 0.7], [1.0, -1.0]])",
     ["mean", "variance", "entropy", "log_prob", "prob"], [3]),
    ("mvn_tril", f"D.MultivariateNormal({_T}([[0.0, 1.0], [1.0, 2.0]]), scale_tril="
     f"{_T}([[1.5, 0.0], [0.3, 0.7]]))", f"{_T}([0.3, 0.7])",
     ["mean", "variance", "entropy", "log_prob"], [2]),
    ("mvn_prec", f"D.MultivariateNormal({_T}([0.0, 1.0, 2.0], {_F64}), precision_matrix="
     f"{_T}([[2.0, 0.5, 0.0], [0.5, 1.0, 0.2], [0.0, 0.2, 3.0]], {_F64}))",
     f"{_T}([0.3, 0.7, 1.0], {_F64})", ["mean", "variance", "entropy", "log_prob"], [2]),
    ("lkj_onion", "D.LKJCholesky(3, 1.5)", None, ["log_prob_sample"], [2]),
    ("lkj_cvine", "D.LKJCholesky(3, 0.8, 'cvine')", None, ["log_prob_sample"], [2]),
    ("lkj_t", f"D.LKJCholesky(2, {_T}([1.0, 2.0]))", None, ["log_prob_sample"], [2]),
    ("lkj_cvine4", f"D.LKJCholesky(4, {_T}([0.7, 2.0, 1.0]), 'cvine')", None,
     ["log_prob_sample"], [2]),
    ("lkj_onion4_f64", f"D.LKJCholesky(4, {_T}([0.7, 2.0], {_F64}))", None,
     ["log_prob_sample"], [3]),
    ("lkj_cvine5", "D.LKJCholesky(5, 1.3, 'cvine')", None, ["log_prob_sample"], [40]),
    ("bernoulli_f64", f"D.Bernoulli({_T}([0.2, 0.9], {_F64}))", f"{_T}([1.0, 0.0], {_F64})",
     ["mean", "variance", "entropy", "log_prob", "cdf"], [2]),
    ("cauchy_f64", f"D.Cauchy({_T}([0.0, 1.0], {_F64}), {_T}([1.0, 2.5], {_F64}))",
     f"{_T}([0.5, -1.0], {_F64})", ["entropy", "log_prob", "cdf"], [2]),
    ("geometric_f64", f"D.Geometric({_T}([0.2, 0.5], {_F64}))", None,
     ["mean", "variance", "entropy", "pmf", "cdf_k"], [3]),
    ("poisson_f64", f"D.Poisson({_T}([0.5, 3.0], {_F64}))", f"{_T}([0.0, 2.0], {_F64})",
     ["mean", "entropy", "log_prob"], [2]),
    ("binomial_f64", f"D.Binomial({_T}([5, 10]), {_T}([0.3, 0.6], {_F64}))",
     f"{_T}([2.0, 7.0], {_F64})", ["mean", "variance", "entropy", "log_prob"], None),
    ("cbern_f64", f"D.ContinuousBernoulli({_T}([0.2, 0.4995, 0.7], {_F64}))",
     f"{_T}([0.3, 0.5, 0.9], {_F64})", ["mean", "variance", "entropy", "log_prob", "cdf", "icdf"],
     [2]),
    ("studentt_f64", f"D.StudentT({_T}([3.0, 1.5], {_F64}), 0.5, 2.0)",
     f"{_T}([0.5, -1.0], {_F64})", ["mean", "variance", "entropy", "log_prob"], [2]),
    ("gumbel_f64", f"D.Gumbel({_T}([0.0, 1.0], {_F64}), {_T}([1.0, 2.5], {_F64}))",
     f"{_T}([0.5, -1.0], {_F64})", ["mean", "variance", "entropy", "log_prob", "cdf"], [2]),
    ("lognormal_f64", f"D.LogNormal({_T}([0.0, 0.5], {_F64}), {_T}([1.0, 0.3], {_F64}))",
     f"{_T}([0.5, 2.0], {_F64})", ["mean", "variance", "entropy", "log_prob"], [2]),
    ("categorical_f64", "D.Categorical(np.array([0.1, 0.2, 0.7]))", f"{_T}([0, 2])",
     ["entropy", "log_prob", "probs"], [4]),
    ("multinomial_f64", f"D.Multinomial(3, {_T}([0.2, 0.3, 0.5], {_F64}))",
     f"{_T}([1, 1, 1])", ["mean", "variance", "entropy", "log_prob"], [2]),
    ("beta_f64", f"D.Beta({_T}([0.5, 2.0], {_F64}), {_T}([1.5, 3.0], {_F64}))",
     f"{_T}([0.3, 0.6], {_F64})", ["mean", "variance", "entropy", "log_prob"], [2]),
    ("chi2_f64", f"D.Chi2({_T}([1.0, 3.0], {_F64}))", f"{_T}([0.5, 2.0], {_F64})",
     ["mean", "variance", "entropy", "log_prob"], [2]),
    ("laplace_f", "D.Laplace(0.5, 2.0)", "0.7", ["mean", "variance", "log_prob", "cdf"], [3]),
    ("normal_bcast", f"D.Normal({_T}([[0.0], [1.0]]), {_T}([1.0, 2.0, 3.0]))",
     f"{_T}([0.5, 1.0, 1.5])", ["mean", "variance", "entropy", "log_prob"], [2]),
    ("categorical_3d", f"D.Categorical({_T}(np.arange(1.0, 13.0).reshape([2, 2, 3])))",
     f"{_T}([[0, 2], [1, 1]])", ["entropy", "log_prob", "probs"], [2, 2]),
    ("studentt_list", "D.StudentT([3.0, 4.0], 1.0, [1.0, 2.0])", f"{_T}([0.5, 1.5])",
     ["mean", "variance", "entropy", "log_prob"], [2]),
]

_METHOD = {
    "mean": "d.mean", "variance": "d.variance", "stddev": "d.stddev", "entropy": "d.entropy()",
    "log_prob": "d.log_prob(v)", "prob": "d.prob(v)", "probs": "d.probs(v)", "cdf": "d.cdf(v)",
    "icdf": "d.icdf(v)", "icdf_half": "d.icdf(paddle.full_like(v, 0.25))",
    "icdf_q": "d.icdf(paddle.to_tensor([0.1, 0.8]))",
    "pmf": "d.pmf(2)", "log_pmf": "d.log_pmf(paddle.to_tensor([1, 3]))", "cdf_k": "d.cdf(2)",
    "log_pmf_f": "d.log_pmf(paddle.to_tensor([1.0, 3.0]))", "pmf_t": "d.pmf(paddle.to_tensor(2.0))",
    "batch_shape": "list(d.batch_shape)", "event_shape": "list(d.event_shape)",
    "log_prob_sample": "d.log_prob(d.sample([2]))",
}

# draws that are Paddle's random ops composed with exactly rounded arithmetic only
EXACT_SAMPLES = {
    "normal_f", "normal_c", "normal_c128", "normal_t", "normal_f64", "normal_np64", "normal_list",
    "normal_bcast", "uniform_f", "uniform_t", "uniform_f64", "categorical", "categorical_2d",
    "categorical_3d", "gamma", "gamma_f64", "chi2", "chi2_f", "dirichlet", "dirichlet_f64", "beta",
    "beta_f", "bernoulli", "bernoulli_f", "multinomial", "multinomial_2d", "poisson", "poisson_f",
    "bernoulli_f64", "poisson_f64", "categorical_f64", "multinomial_f64", "beta_f64", "chi2_f64"}
DEEP = {"mvn_cov", "mvn_tril", "mvn_prec", "lkj_onion", "lkj_cvine", "lkj_t", "lkj_cvine4",
        "lkj_cvine5", "lkj_onion4_f64", "binomial", "binomial_f", "poisson", "poisson_f",
        "multinomial", "multinomial_2d", "studentt", "studentt_f", "studentt_list", "poisson_f64",
        "binomial_f64", "studentt_f64", "multinomial_f64"}


def _family_cases():
    for name, ctor, value, methods, sample in FAMILIES:
        lines = ["import warnings", "warnings.simplefilter('ignore')",
                 "D = paddle.distribution", f"d = {ctor}"]
        if value is not None:
            lines.append(f"v = {value}")
        lines.append("out = {}")
        for m in ["batch_shape", "event_shape"] + methods:
            if m == "log_prob_sample":
                lines.append("paddle.seed(11)")
            lines.append("try:")
            lines.append(f"    out[{m!r}] = {_METHOD[m]}")
            lines.append("except Exception as e:")
            lines.append(f"    out[{m!r}] = e")
        yield name, "\n".join(lines), "deep" if name in DEEP else "value"
        if sample is not None:
            code = "\n".join(lines[:4] + [
                "paddle.seed(2024)",
                f"out = {{'s1': d.sample({sample}), 's0': d.sample([])}}"])
            yield f"{name}.sample", code, "exact" if name in EXACT_SAMPLES else "value"


# rsample gradients (Paddle supports rsample on these), and a few seeded rsample values
RSAMPLE = [
    ("normal", "D.Normal(loc, scale)", "[0.5, -1.0]", "[1.0, 2.0]", [3]),
    ("exponential", "D.Exponential(scale)", None, "[1.0, 2.0]", [3]),
    ("gamma", "D.Gamma(loc, scale)", "[1.5, 2.0]", "[1.0, 2.0]", [3]),
    ("cauchy", "D.Cauchy(loc, scale)", "[0.5, -1.0]", "[1.0, 2.0]", [3]),
    ("laplace", "D.Laplace(loc, scale)", "[0.5, -1.0]", "[1.0, 2.0]", [3]),
    ("gumbel", "D.Gumbel(loc, scale)", "[0.5, -1.0]", "[1.0, 2.0]", [3]),
    ("lognormal", "D.LogNormal(loc, scale)", "[0.5, -1.0]", "[1.0, 2.0]", [3]),
    ("cbern", "D.ContinuousBernoulli(scale * 0.3)", None, "[1.0, 2.0]", [3]),
    ("bernoulli", "D.Bernoulli(scale * 0.3)", None, "[1.0, 2.0]", [3]),
    ("geometric", "D.Geometric(scale * 0.3)", None, "[1.0, 2.0]", [3]),
    ("mvn", "D.MultivariateNormal(loc, scale_tril=paddle.diag(scale))", "[0.5, -1.0]",
     "[1.0, 2.0]", [3]),
]


def _rsample_cases():
    for name, ctor, loc, scale, shape in RSAMPLE:
        lines = ["D = paddle.distribution",
                 f"scale = paddle.to_tensor({scale}, stop_gradient=False)"]
        if loc is not None:
            lines.append(f"loc = paddle.to_tensor({loc}, stop_gradient=False)")
        lines += [f"d = {ctor}", "paddle.seed(7)", f"s = d.rsample({shape})",
                  "(s * s).sum().backward()",
                  "out = {'s': s, 'scale.grad': scale.grad"
                  + (", 'loc.grad': loc.grad}" if loc is not None else "}")]
        yield f"rsample.{name}", "\n".join(lines), "value"


# KL divergences, by kl_divergence and by the method where Paddle has one
KL = [
    ("normal", "D.Normal(paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([1.0, 2.0]))",
     "D.Normal(paddle.to_tensor([0.5, 0.0]), paddle.to_tensor([2.0, 1.0]))", True),
    ("normal_c", "D.Normal(complex(0.5, 1.0), 1.0)", "D.Normal(complex(0.0, 0.0), 2.0)", True),
    ("normal_field", "D.Normal(complex(0.5, 1.0), 1.0)", "D.Normal(0.0, 2.0)", True),
    ("uniform", "D.Uniform(0.0, 1.0)", "D.Uniform(0.0, 2.0)", True),
    ("exponential", "D.Exponential(paddle.to_tensor([0.5, 2.0]))",
     "D.Exponential(paddle.to_tensor([1.0, 1.0]))", True),
    ("gamma", "D.Gamma(paddle.to_tensor([0.5, 2.0]), paddle.to_tensor([1.0, 3.0]))",
     "D.Gamma(paddle.to_tensor([1.5, 1.0]), paddle.to_tensor([2.0, 1.0]))", True),
    ("beta", "D.Beta(paddle.to_tensor([0.5, 2.0]), paddle.to_tensor([1.0, 3.0]))",
     "D.Beta(paddle.to_tensor([1.5, 1.0]), paddle.to_tensor([2.0, 1.0]))", False),
    ("dirichlet", "D.Dirichlet(paddle.to_tensor([1.5, 2.0, 0.7]))",
     "D.Dirichlet(paddle.to_tensor([1.0, 1.0, 3.0]))", False),
    ("cauchy", "D.Cauchy(0.0, 1.0)", "D.Cauchy(1.0, 2.0)", True),
    ("laplace", "D.Laplace(paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([1.0, 2.0]))",
     "D.Laplace(paddle.to_tensor([0.5, 0.0]), paddle.to_tensor([2.0, 1.0]))", True),
    ("bernoulli", "D.Bernoulli(paddle.to_tensor([0.2, 0.7]))",
     "D.Bernoulli(paddle.to_tensor([0.5, 0.4]))", True),
    ("binomial", "D.Binomial(paddle.to_tensor([5, 8]), paddle.to_tensor([0.3, 0.6]))",
     "D.Binomial(paddle.to_tensor([5, 8]), paddle.to_tensor([0.5, 0.5]))", True),
    ("categorical", "D.Categorical(paddle.to_tensor([[0.1, 0.2, 0.7], [1.0, 2.0, 3.0]]))",
     "D.Categorical(paddle.to_tensor([[0.3, 0.3, 0.4], [3.0, 2.0, 1.0]]))", True),
    ("geometric", "D.Geometric(paddle.to_tensor([0.2, 0.5]))",
     "D.Geometric(paddle.to_tensor([0.4, 0.3]))", True),
    ("poisson", "D.Poisson(paddle.to_tensor([0.5, 3.0]))",
     "D.Poisson(paddle.to_tensor([1.0, 2.0]))", True),
    ("cbern", "D.ContinuousBernoulli(paddle.to_tensor([0.2, 0.7]))",
     "D.ContinuousBernoulli(paddle.to_tensor([0.4, 0.5]))", True),
    ("lognormal", "D.LogNormal(paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([1.0, 2.0]))",
     "D.LogNormal(paddle.to_tensor([0.5, 0.0]), paddle.to_tensor([2.0, 1.0]))", True),
    ("mvn", "D.MultivariateNormal(paddle.to_tensor([0.0, 1.0]), covariance_matrix="
     "paddle.to_tensor([[2.0, 0.5], [0.5, 1.0]]))",
     "D.MultivariateNormal(paddle.to_tensor([1.0, 0.0]), covariance_matrix="
     "paddle.to_tensor([[1.0, 0.2], [0.2, 1.5]]))", True),
    ("mixed", "D.Normal(0.0, 1.0)", "D.Cauchy(0.0, 1.0)", False),
    ("chi2_gamma", "D.Chi2(paddle.to_tensor([2.0]))",
     "D.Gamma(paddle.to_tensor([1.0]), paddle.to_tensor([0.5]))", False),
]


def _kl_cases():
    for name, p, q, method in KL:
        code = ["import warnings", "warnings.simplefilter('ignore')",
                "D = paddle.distribution", f"p = {p}", f"q = {q}", "out = {}",
                "try:", "    out['kl'] = D.kl_divergence(p, q)",
                "except Exception as e:", "    out['kl'] = e"]
        if method:
            code += ["try:", "    out['method'] = p.kl_divergence(q)",
                     "except Exception as e:", "    out['method'] = e"]
        kind = "deep" if name in ("mvn", "poisson", "binomial", "beta", "dirichlet") else "value"
        yield f"kl.{name}", "\n".join(code), kind


# transforms: forward, inverse, log-det-Jacobians, shapes
TRANSFORMS = [
    ("abs", "D.AbsTransform()", "x"),
    ("affine", "D.AffineTransform(paddle.to_tensor([0.5, 1.0, -1.0]), "
     "paddle.to_tensor([2.0, -0.5, 1.5]))", "x"),
    ("exp", "D.ExpTransform()", "x"),
    ("power", "D.PowerTransform(paddle.to_tensor([2.0]))", "xp"),
    ("sigmoid", "D.SigmoidTransform()", "x"),
    ("tanh", "D.TanhTransform()", "x"),
    ("softmax", "D.SoftmaxTransform()", "x"),
    ("stickbreaking", "D.StickBreakingTransform()", "x"),
    ("reshape", "D.ReshapeTransform((3,), (3, 1))", "x"),
    ("chain", "D.ChainTransform([D.AffineTransform(paddle.to_tensor(0.5), "
     "paddle.to_tensor(2.0)), D.ExpTransform()])", "x"),
    ("independent", "D.IndependentTransform(D.ExpTransform(), 1)", "x"),
    ("stack", "D.StackTransform([D.ExpTransform(), D.PowerTransform(paddle.to_tensor(2.0)), "
     "D.TanhTransform()], axis=1)", "x"),
]


def _transform_cases():
    for name, ctor, arg in TRANSFORMS:
        code = ["D = paddle.distribution", f"t = {ctor}",
                "x = paddle.to_tensor([[0.3, -1.2, 0.8], [1.5, 0.1, -0.4]])",
                "xp = paddle.abs(x) + 0.1", "out = {}"]
        for key, expr in (("forward", f"t.forward({arg})"), ("call", f"t({arg})"),
                          ("inverse", f"t.inverse(t.forward({arg}))"),
                          ("fldj", f"t.forward_log_det_jacobian({arg})"),
                          ("ildj", f"t.inverse_log_det_jacobian(t.forward({arg}))"),
                          ("forward_shape", "list(t.forward_shape((2, 3)))"),
                          ("inverse_shape", "list(t.inverse_shape((2, 3)))")):
            code += ["try:", f"    out[{key!r}] = {expr}", "except Exception as e:",
                     f"    out[{key!r}] = e"]
        yield f"transform.{name}", "\n".join(code), "value"


# TransformedDistribution, Independent, and exceptions for bad arguments
MISC = [
    ("transformed", """D = paddle.distribution
d = D.TransformedDistribution(D.Normal(paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([1.0, 2.0])),
                              [D.AffineTransform(paddle.to_tensor(1.0), paddle.to_tensor(2.0)),
                               D.ExpTransform()])
v = paddle.to_tensor([0.5, 3.0])
paddle.seed(3)
out = {'batch': list(d.batch_shape), 'event': list(d.event_shape), 'log_prob': d.log_prob(v),
       'prob': d.prob(v), 'sample': d.sample([2]), 'rsample': d.rsample([2])}""", "value"),
    ("transformed_event", """D = paddle.distribution
d = D.TransformedDistribution(D.Normal(paddle.zeros([2, 3]), paddle.ones([2, 3])),
                              [D.StickBreakingTransform()])
v = D.StickBreakingTransform().forward(paddle.to_tensor([[0.1, 0.2, 0.3], [0.5, -0.5, 1.0]]))
out = {'batch': list(d.batch_shape), 'event': list(d.event_shape), 'log_prob': d.log_prob(v)}""",
     "value"),
    ("transform_call_dist", """D = paddle.distribution
d = D.ExpTransform()(D.Normal(paddle.to_tensor([0.0]), paddle.to_tensor([1.0])))
out = {'type': type(d).__name__, 'log_prob': d.log_prob(paddle.to_tensor([2.0]))}""", "value"),
    ("independent", """D = paddle.distribution
b = D.Normal(paddle.to_tensor([[0.0, 1.0], [2.0, 3.0]]), paddle.to_tensor([[1.0, 2.0], [0.5, 1.5]]))
d = D.Independent(b, 1)
v = paddle.to_tensor([[0.3, 0.7], [2.5, 2.0]])
paddle.seed(4)
out = {'batch': list(d.batch_shape), 'event': list(d.event_shape), 'log_prob': d.log_prob(v),
       'prob': d.prob(v), 'entropy': d.entropy(), 'mean': d.mean, 'variance': d.variance,
       'sample': d.sample([2])}""", "value"),
    ("expfamily_entropy", """D = paddle.distribution
out = {'exp': D.ExponentialFamily.entropy(D.Exponential(paddle.to_tensor([0.5, 2.0]))),
       'dirichlet': D.ExponentialFamily.entropy(D.Dirichlet(paddle.to_tensor([1.5, 2.0, 0.7]))),
       'beta': D.ExponentialFamily.entropy(D.Beta(paddle.to_tensor([0.5]),
                                                  paddle.to_tensor([1.5])))}""",
     "deep"),
    ("bregman", """D = paddle.distribution
class MyExp(D.ExponentialFamily):
    def __init__(self, rate):
        self.rate = rate
        super().__init__(rate.shape)
    @property
    def _natural_parameters(self):
        return (-self.rate,)
    def _log_normalizer(self, x):
        return -paddle.log(-x)
    @property
    def _mean_carrier_measure(self):
        return 0
a = MyExp(paddle.to_tensor([0.5, 2.0]))
b = MyExp(paddle.to_tensor([1.0, 3.0]))
out = {'entropy': a.entropy(), 'kl': D.kl_divergence(a, b)}""", "value"),
    ("grad_log_prob", """D = paddle.distribution
loc = paddle.to_tensor([0.5, -1.0], stop_gradient=False)
scale = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
D.Normal(loc, scale).log_prob(paddle.to_tensor([0.0, 0.0])).sum().backward()
out = {'loc': loc.grad, 'scale': scale.grad}""", "value"),
    ("value_cast", """import warnings
warnings.simplefilter('ignore')
D = paddle.distribution
d = D.Normal(paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([1.0, 2.0]))
v = paddle.to_tensor([0.5, 1.5], dtype='float64')
out = {'log_prob': d.log_prob(v), 'probs': d.probs(v),
       'cauchy': D.Cauchy(paddle.to_tensor([0.0]), paddle.to_tensor([1.0])).log_prob(v),
       'uniform': D.Uniform(0.0, 2.0).log_prob(v)}""", "value"),
    ("uniform_seed", """D = paddle.distribution
paddle.seed(1)
a = D.Uniform(0.0, 1.0).sample([3], seed=5)
b = paddle.rand([2])
out = {'a': a, 'b': b}""", "exact"),
    ("normal_seed", """D = paddle.distribution
paddle.seed(1)
a = D.Normal(0.0, 1.0).sample([3], seed=5)
b = D.Normal(paddle.to_tensor([1.0], dtype='float64'),
             paddle.to_tensor([2.0], dtype='float64')).sample([2], seed=-7)
c = D.Normal(complex(0.5, 1.0), 1.0).sample([2], seed=3)
out = {'a': a, 'b': b, 'c': c, 'after': paddle.randn([2])}""", "exact"),
    ("sample_tuple_shapes", """D = paddle.distribution
paddle.seed(9)
out = {'normal': D.Normal(paddle.to_tensor([0.0]), paddle.to_tensor([1.0])).sample((2, 1)),
       'gamma': D.Gamma(paddle.to_tensor([2.0]), paddle.to_tensor([1.0])).sample((2,)),
       'bern': D.Bernoulli(paddle.to_tensor([0.5])).sample((3,)),
       'poisson': D.Poisson(paddle.to_tensor([2.0])).sample((2,))}""", "exact"),
    ("stop_gradient", """D = paddle.distribution
p = paddle.to_tensor([0.3, 0.6], stop_gradient=False)
loc = paddle.to_tensor([0.0, 1.0], stop_gradient=False)
scale = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
n = D.Normal(loc, scale)
paddle.seed(2)
out = {'geometric_variance': D.Geometric(p).variance, 'geometric_stddev': D.Geometric(p).stddev,
       'geometric_mean': D.Geometric(p).mean, 'bernoulli_sample': D.Bernoulli(p).sample([1]),
       'normal_sample': n.sample([1]), 'normal_rsample': n.rsample([1]),
       'normal_entropy': n.entropy(), 'gamma_sample': D.Gamma(scale, scale).sample([1]),
       'gamma_rsample': D.Gamma(scale, scale).rsample([1]),
       'cauchy_sample': D.Cauchy(loc, scale).sample([1])}""", "value"),
    ("register_kl", """D = paddle.distribution
class MyNormal(D.Normal):
    pass
@D.register_kl(MyNormal, D.Normal)
def _kl(p, q):
    return paddle.to_tensor(42.0)
out = {'mine': D.kl_divergence(MyNormal(0.0, 1.0), D.Normal(0.0, 1.0)),
       'base': D.kl_divergence(D.Normal(0.0, 1.0), MyNormal(1.0, 1.0))}""", "value"),
]

ERRORS = [
    ("normal_mixed", "D.Normal(paddle.to_tensor(0.0), 1.0)"),
    ("normal_str", "D.Normal('a', 1.0)"),
    ("normal_sample_shape", "D.Normal(0.0, 1.0).sample(3)"),
    ("exponential_int", "D.Exponential(1)"),
    ("bernoulli_str", "D.Bernoulli('a')"),
    ("chi2_negative", "D.Chi2(-1.0)"),
    ("cauchy_str", "D.Cauchy('a', 1.0)"),
    ("cauchy_mean", "D.Cauchy(0.0, 1.0).mean"),
    ("cauchy_value", "D.Cauchy(0.0, 1.0).log_prob(0.5)"),
    ("laplace_str", "D.Laplace(0.0, 'b')"),
    ("gumbel_str", "D.Gumbel('a', 1.0)"),
    ("geometric_str", "D.Geometric('a')"),
    ("geometric_pmf_float", "D.Geometric(0.5).pmf(1.5)"),
    ("multinomial_count", "D.Multinomial(0, paddle.to_tensor([0.5, 0.5]))"),
    ("multinomial_probs", "D.Multinomial(3, paddle.to_tensor(0.5))"),
    ("dirichlet_0d", "D.Dirichlet(paddle.to_tensor(1.0))"),
    ("independent_rank", "D.Independent(D.Normal(0.0, 1.0), 1)"),
    ("independent_base", "D.Independent(1.0, 1)"),
    ("mvn_none", "D.MultivariateNormal(paddle.zeros([2]))"),
    ("mvn_two", "D.MultivariateNormal(paddle.zeros([2]), covariance_matrix=paddle.eye(2), "
     "scale_tril=paddle.eye(2))"),
    ("mvn_1d", "D.MultivariateNormal(paddle.zeros([2]), covariance_matrix=paddle.ones([2]))"),
    ("lkj_dim", "D.LKJCholesky(1)"),
    ("lkj_method", "D.LKJCholesky(3, 1.0, 'x')"),
    ("lkj_negative", "D.LKJCholesky(3, -1.0)"),
    ("studentt_df", "D.StudentT(-1.0, 0.0, 1.0)"),
    ("studentt_scale", "D.StudentT(1.0, 0.0, -1.0)"),
    ("studentt_str", "D.StudentT('a', 0.0, 1.0)"),
    ("kl_unregistered", "D.kl_divergence(D.Normal(0.0, 1.0), D.Cauchy(0.0, 1.0))"),
    ("register_not_dist", "D.register_kl(int, D.Normal)"),
    ("transformed_base", "D.TransformedDistribution(1.0, [D.ExpTransform()])"),
    ("transformed_list", "D.TransformedDistribution(D.Normal(0.0, 1.0), [1])"),
    ("affine_float", "D.AffineTransform(0.0, 1.0)"),
    ("power_float", "D.PowerTransform(2.0)"),
    ("chain_bad", "D.ChainTransform([1])"),
    ("independent_transform_rank", "D.IndependentTransform(D.ExpTransform(), 0)"),
    ("reshape_numel", "D.ReshapeTransform((2, 3), (4,))"),
    ("reshape_shape", "D.ReshapeTransform((3,), (3, 1)).forward_shape((2, 4))"),
    ("stack_empty", "D.StackTransform([])"),
    ("stack_axis", "D.StackTransform([D.ExpTransform()], axis=1.0)"),
    ("transform_forward_float", "D.ExpTransform().forward(1.0)"),
    ("abs_fldj", "D.AbsTransform().forward_log_det_jacobian(paddle.to_tensor([1.0]))"),
    ("softmax_fldj", "D.SoftmaxTransform().forward_log_det_jacobian(paddle.to_tensor([1.0]))"),
    ("base_mean", "D.Distribution().mean"),
    ("base_sample", "D.Distribution().sample()"),
    ("uniform_kl", "D.Uniform(0.0, 1.0).kl_divergence(D.Uniform(0.0, 2.0))"),
    ("poisson_kl_shape", "D.Poisson(paddle.to_tensor([1.0, 2.0])).kl_divergence("
     "D.Poisson(paddle.to_tensor([1.0])))"),
    ("cbern_kl_shape", "D.ContinuousBernoulli(paddle.to_tensor([0.2, 0.3])).kl_divergence("
     "D.ContinuousBernoulli(paddle.to_tensor([0.2])))"),
    ("gamma_kl_type", "D.Gamma(1.0, 1.0).kl_divergence(D.Exponential(1.0))"),
    ("exponential_kl_type", "D.Exponential(1.0).kl_divergence(D.Gamma(1.0, 1.0))"),
    ("geometric_kl_type", "D.Geometric(0.5).kl_divergence(D.Exponential(1.0))"),
    ("binomial_sample_shape", "D.Binomial(5, 0.5).sample(3)"),
    ("poisson_sample_shape", "D.Poisson(1.0).sample(3)"),
]


def _error_cases():
    for name, expr in ERRORS:
        code = ("import warnings\nwarnings.simplefilter('ignore')\nD = paddle.distribution\n"
                f"out = {expr}")
        yield f"error.{name}", code, "value"


def cases():
    """Every case, in recording order."""
    yield from _family_cases()
    yield from _rsample_cases()
    yield from _kl_cases()
    yield from _transform_cases()
    for name, code, kind in MISC:
        yield f"misc.{name}", code, kind
    yield from _error_cases()
