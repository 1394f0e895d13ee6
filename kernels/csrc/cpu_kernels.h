// The CPU kernels built into one extension module (see kernels/cpu_extension.py). Only bindings.cpp
// includes <torch/extension.h>; the kernels use ATen's per-operator headers, which compile ~6x faster.
#pragma once
#include <ATen/Parallel.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>

#include <optional>
#include <vector>

at::Tensor paged_decode_attention(at::Tensor q, at::Tensor k_cache, at::Tensor v_cache, at::Tensor block_tables,
                                  at::Tensor context_lens, double scale, int64_t window);

at::Tensor w8a8_matmul(const at::Tensor& x, const at::Tensor& packed, const at::Tensor& packed_scale,
                       int64_t out_features, int64_t act_group, const std::optional<at::Tensor>& bias,
                       bool portable);

std::vector<at::Tensor> rms_norm(const at::Tensor& x, const at::Tensor& scale, double eps,
                                 const std::optional<at::Tensor>& residual);

at::Tensor argmax_rows(const at::Tensor& logits);

at::Tensor act_and_mul(const at::Tensor& x, int64_t act);
