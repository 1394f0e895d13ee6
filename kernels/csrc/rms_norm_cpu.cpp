// RMSNorm for the CPU, with the optional residual add fused in: one pass per row instead of the five or six
// PyTorch ops of kernels/rms_norm_ref.py (each a dispatch and a trip through memory).
// y = x / sqrt(mean(x^2) + eps) * scale; with a residual, x = x + residual first, and x is returned too.
// Rows are independent, so a row's result never depends on the rest of the batch. The sum of squares
// runs in a different order than PyTorch's, so the last bits can differ from the reference.
#include "cpu_kernels.h"

std::vector<at::Tensor> rms_norm(const at::Tensor& x, const at::Tensor& scale, double eps,
                                 const std::optional<at::Tensor>& residual) {
  TORCH_CHECK(x.dim() == 2 && x.scalar_type() == at::kFloat && x.is_contiguous(), "x must be contiguous fp32 [R, D]");
  const int64_t rows = x.size(0), dim = x.size(1);
  TORCH_CHECK(scale.scalar_type() == at::kFloat && scale.is_contiguous() && scale.numel() == dim,
              "scale must be contiguous fp32 [D]");
  at::Tensor summed;
  const float* add = nullptr;
  if (residual.has_value()) {
    TORCH_CHECK(residual->sizes() == x.sizes() && residual->scalar_type() == at::kFloat && residual->is_contiguous(),
                "residual must be contiguous fp32 like x");
    add = residual->data_ptr<float>();
    summed = at::empty_like(x);
  }
  auto out = at::empty_like(x);
  const float* in = x.data_ptr<float>();
  const float* w = scale.data_ptr<float>();
  float* y = out.data_ptr<float>();
  float* sum_out = add ? summed.data_ptr<float>() : nullptr;
  const float epsilon = static_cast<float>(eps);
  at::parallel_for(0, rows, std::max<int64_t>(1, 4096 / std::max<int64_t>(dim, 1)), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const float* row = in + r * dim;
      if (add) {
        float* s = sum_out + r * dim;
        const float* a = add + r * dim;
#pragma omp simd
        for (int64_t d = 0; d < dim; ++d) s[d] = row[d] + a[d];
        row = s;
      }
      rms_norm_row(row, w, epsilon, dim, y + r * dim);
    }
  });
  if (add) return {out, summed};
  return {out};
}
