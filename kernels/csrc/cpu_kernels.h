// The CPU kernels built into one extension module (see kernels/cpu_extension.py).
#pragma once
#include <torch/extension.h>

#include <vector>

torch::Tensor paged_decode_attention(torch::Tensor q, torch::Tensor k_cache, torch::Tensor v_cache,
                                     torch::Tensor block_tables, torch::Tensor context_lens, double scale,
                                     int64_t window);

std::vector<torch::Tensor> quantize_rows(const torch::Tensor& x, const c10::optional<torch::Tensor>& input_scale);

torch::Tensor scale_rows_(torch::Tensor out, const torch::Tensor& col_scale, const torch::Tensor& row_step,
                          const c10::optional<torch::Tensor>& bias);
