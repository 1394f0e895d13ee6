// The attention block's per-head work between the QKV projection and the KV write, in one pass: split the
// fused projection's rows into heads, RMSNorm each query and key head (Gemma's Q/K norms; optional), and
// rotate it by RoPE (rotate-half layout, with the sign-folded sin table of engine/layers/rotary.py:
// out = x * cos + roll(x, D / 2) * sin). In PyTorch that is a split, three reshapes, two norm calls and
// eight RoPE ops per layer; the reference is kernels/qk_norm_rope_ref.py. The norm is the RMSNorm kernel's
// own row function, and RoPE's product and sum round as PyTorch's do, so the bits match the unfused path.
#include "cpu_kernels.h"

#include <ATen/ops/empty.h>

#include <algorithm>
#include <vector>

std::vector<at::Tensor> qk_norm_rope(const at::Tensor& qkv, int64_t num_heads, int64_t num_kv_heads,
                                     const std::optional<at::Tensor>& q_scale, const std::optional<at::Tensor>& k_scale,
                                     double eps, const at::Tensor& cos, const at::Tensor& sin) {
  TORCH_CHECK(qkv.dim() == 2 && qkv.scalar_type() == at::kFloat && qkv.is_contiguous(),
              "qkv must be contiguous fp32 [T, (H + 2 * KVH) * D]");
  const int64_t tokens = qkv.size(0), heads = num_heads + num_kv_heads;
  TORCH_CHECK(num_heads > 0 && num_kv_heads > 0 && qkv.size(1) % (heads + num_kv_heads) == 0, "head layout mismatch");
  const int64_t dim = qkv.size(1) / (heads + num_kv_heads);
  TORCH_CHECK(dim % 2 == 0, "head_dim must be even");
  TORCH_CHECK(cos.scalar_type() == at::kFloat && sin.scalar_type() == at::kFloat && cos.is_contiguous() &&
                  sin.is_contiguous() && cos.numel() == tokens * dim && sin.numel() == tokens * dim,
              "cos and sin must be contiguous fp32 [T, D]");
  TORCH_CHECK(q_scale.has_value() == k_scale.has_value(), "give both Q and K norm scales, or neither");
  const float* scales[2] = {nullptr, nullptr};
  if (q_scale.has_value()) {
    for (const auto* t : {&*q_scale, &*k_scale})
      TORCH_CHECK(t->scalar_type() == at::kFloat && t->is_contiguous() && t->numel() == dim, "norm scales must be fp32 [D]");
    scales[0] = q_scale->data_ptr<float>();
    scales[1] = k_scale->data_ptr<float>();
  }
  auto q = at::empty({tokens, num_heads, dim}, qkv.options());
  auto k = at::empty({tokens, num_kv_heads, dim}, qkv.options());
  const float* in = qkv.data_ptr<float>();
  const float* c = cos.data_ptr<float>();
  const float* s = sin.data_ptr<float>();
  float* outs[2] = {q.data_ptr<float>(), k.data_ptr<float>()};
  const float epsilon = static_cast<float>(eps);
  const int64_t half = dim / 2, row_stride = qkv.size(1);
  at::parallel_for(0, tokens * heads, std::max<int64_t>(1, 16384 / dim), [&](int64_t begin, int64_t end) {
    std::vector<float> normed(dim);
    for (int64_t task = begin; task < end; ++task) {
      const int64_t t = task / heads, h = task % heads, is_key = h >= num_heads;
      const float* x = in + t * row_stride + h * dim;
      if (scales[is_key] != nullptr) {
        rms_norm_row(x, scales[is_key], epsilon, dim, normed.data());
        x = normed.data();
      }
      float* o = outs[is_key] + (t * (is_key ? num_kv_heads : num_heads) + (is_key ? h - num_heads : h)) * dim;
      const float* ct = c + t * dim;
      const float* st = s + t * dim;
#pragma omp simd
      for (int64_t d = 0; d < half; ++d) {
        const float direct = x[d] * ct[d], rotated = x[d + half] * st[d];
        o[d] = direct + rotated;
      }
#pragma omp simd
      for (int64_t d = half; d < dim; ++d) {
        const float direct = x[d] * ct[d], rotated = x[d - half] * st[d];
        o[d] = direct + rotated;
      }
    }
  });
  return {q, k};
}
