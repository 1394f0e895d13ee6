// The CPU kernels built into one extension module (see kernels/cpu_extension.py), most of them as one
// translation unit. The kernels use ATen's per-operator headers, which compile ~6x faster than libtorch's.
#pragma once
#include <ATen/Parallel.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>

#include <cmath>
#include <optional>
#include <vector>

// One RMSNorm row: out = x / sqrt(mean(x^2) + eps) * scale. Shared by the RMSNorm and the Q/K-norm + RoPE
// kernels, so that both give the same bits.
inline void rms_norm_row(const float* x, const float* scale, float eps, int64_t dim, float* out) {
  float squares = 0.f;
#pragma omp simd reduction(+ : squares)
  for (int64_t d = 0; d < dim; ++d) squares += x[d] * x[d];
  const float inv = 1.f / std::sqrt(squares / static_cast<float>(dim) + eps);
#pragma omp simd
  for (int64_t d = 0; d < dim; ++d) out[d] = x[d] * inv * scale[d];
}

// The int8 weight layout of kernels/w8a8_matmul_cpu.py, shared by the VNNI and AMX matmuls: uint8
// [tiles, K/4, 16, 4] (weight + 128) and fp16 scales [tiles, groups, 16].
constexpr int64_t kTile = 16;  // output channels per packed weight tile (and rows per AMX tile)

inline void check_packed_weight(const at::Tensor& packed, const at::Tensor& packed_scale) {
  TORCH_CHECK(packed.dim() == 4 && packed.scalar_type() == at::kByte && packed.is_contiguous() &&
                  packed.size(2) == kTile && packed.size(3) == 4,
              "packed weight must be contiguous uint8 [tiles, K/4, 16, 4]");
  TORCH_CHECK(packed_scale.dim() == 3 && packed_scale.scalar_type() == at::kHalf && packed_scale.is_contiguous() &&
                  packed_scale.size(0) == packed.size(0) && packed_scale.size(2) == kTile,
              "packed scales must be contiguous fp16 [tiles, groups, 16]");
}

// Where a matmul writes its [rows, out_features] fp32 result: `out` when given (checked), else a new tensor.
inline at::Tensor matmul_output(const std::optional<at::Tensor>& out, int64_t rows, int64_t out_features,
                                const at::TensorOptions& options) {
  if (!out.has_value()) return at::empty({rows, out_features}, options);
  TORCH_CHECK(out->dim() == 2 && out->size(0) == rows && out->size(1) == out_features && out->is_contiguous() &&
                  out->scalar_type() == at::kFloat,
              "out must be contiguous fp32 [M, N]");
  return *out;
}

at::Tensor paged_decode_attention(at::Tensor q, at::Tensor k_cache, at::Tensor v_cache, at::Tensor block_tables,
                                  at::Tensor context_lens, double scale, int64_t window);

at::Tensor paged_prefill_attention(at::Tensor q, at::Tensor k_cache, at::Tensor v_cache, at::Tensor block_tables,
                                   at::Tensor cu_seqlens, at::Tensor context_lens, double scale, int64_t window);

at::Tensor w8a8_matmul(const at::Tensor& x, const at::Tensor& packed, const at::Tensor& packed_scale,
                       int64_t out_features, int64_t act_group, const std::optional<at::Tensor>& bias,
                       bool portable, const std::optional<at::Tensor>& out_rows);

bool amx_matmul_available();

at::Tensor amx_matmul(const at::Tensor& x, const at::Tensor& packed, const at::Tensor& packed_scale,
                      int64_t out_features, const std::optional<at::Tensor>& bias,
                      const std::optional<at::Tensor>& out);

std::vector<at::Tensor> rms_norm(const at::Tensor& x, const at::Tensor& scale, double eps,
                                 const std::optional<at::Tensor>& residual);

at::Tensor argmax_rows(const at::Tensor& logits);

void store_kv(const at::Tensor& k, const at::Tensor& v, at::Tensor k_cache, at::Tensor v_cache,
              const at::Tensor& slot_mapping);

at::Tensor argmax_rows_penalized(const at::Tensor& logits, const at::Tensor& seen_ids, const at::Tensor& offsets,
                                 const at::Tensor& penalties);

at::Tensor act_and_mul(const at::Tensor& x, int64_t act);

std::vector<at::Tensor> qk_norm_rope(const at::Tensor& qkv, int64_t num_heads, int64_t num_kv_heads,
                                     const std::optional<at::Tensor>& q_scale, const std::optional<at::Tensor>& k_scale,
                                     double eps, const at::Tensor& cos, const at::Tensor& sin);
