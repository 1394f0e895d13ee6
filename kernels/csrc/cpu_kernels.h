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

std::vector<at::Tensor> quantize_rows(const at::Tensor& x, const std::optional<at::Tensor>& input_scale);

at::Tensor scale_rows_(at::Tensor out, const at::Tensor& col_scale, const at::Tensor& row_step,
                       const std::optional<at::Tensor>& bias);

