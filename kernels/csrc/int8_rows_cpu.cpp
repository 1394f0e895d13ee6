// Per-token int8 quantization around oneDNN's int8 linear (engine/quant.py), each in one pass instead of
// five or six PyTorch ops. The arithmetic is the PyTorch form's, operation for operation (multiply by the
// smoothing scale, absolute maximum, clamp, divide by 127, divide, round half to even; then the weight
// scale and the row step, one multiply each), built without contraction into FMAs, so the results are
// the same bits. Rows are independent: a row's result never depends on the rest of the batch.
#include "cpu_kernels.h"

#include <algorithm>
#include <cmath>

namespace {
constexpr float kInt8Max = 127.f;
constexpr float kMinAbsMax = 1e-30f;
constexpr int64_t kRowsPerTask = 16;
}  // namespace

std::vector<at::Tensor> quantize_rows(const at::Tensor& x, const std::optional<at::Tensor>& input_scale) {
  TORCH_CHECK(x.dim() == 2 && x.scalar_type() == at::kFloat && x.is_contiguous(), "x must be contiguous fp32 [R, K]");
  const int64_t rows = x.size(0), cols = x.size(1);
  const float* scale = nullptr;
  at::Tensor scale_tensor;
  if (input_scale.has_value()) {
    scale_tensor = input_scale->contiguous();
    TORCH_CHECK(scale_tensor.scalar_type() == at::kFloat && scale_tensor.numel() == cols, "input_scale must be fp32 [K]");
    scale = scale_tensor.data_ptr<float>();
  }
  auto q = at::empty({rows, cols}, x.options().dtype(at::kChar));
  auto step = at::empty({rows, 1}, x.options());
  const float* in = x.data_ptr<float>();
  int8_t* out = q.data_ptr<int8_t>();
  float* steps = step.data_ptr<float>();
  at::parallel_for(0, rows, kRowsPerTask, [&](int64_t begin, int64_t end) {
    std::vector<float> scaled(cols);
    for (int64_t r = begin; r < end; ++r) {
      const float* row = in + r * cols;
      float abs_max = 0.f;
      for (int64_t k = 0; k < cols; ++k) {
        scaled[k] = scale ? row[k] * scale[k] : row[k];
        abs_max = std::max(abs_max, std::fabs(scaled[k]));
      }
      const float s = std::max(abs_max, kMinAbsMax) / kInt8Max;
      steps[r] = s;
      int8_t* q_row = out + r * cols;
      for (int64_t k = 0; k < cols; ++k) q_row[k] = static_cast<int8_t>(std::nearbyint(scaled[k] / s));
    }
  });
  return {q, step};
}

at::Tensor scale_rows_(at::Tensor out, const at::Tensor& col_scale, const at::Tensor& row_step,
                       const std::optional<at::Tensor>& bias) {
  TORCH_CHECK(out.dim() == 2 && out.scalar_type() == at::kFloat && out.is_contiguous(), "out must be contiguous fp32");
  const int64_t rows = out.size(0), cols = out.size(1);
  auto cs = col_scale.contiguous();
  auto rs = row_step.contiguous();
  TORCH_CHECK(cs.numel() == cols && rs.numel() == rows, "scale shapes do not match the output");
  at::Tensor b;
  if (bias.has_value()) {
    b = bias->contiguous();
    TORCH_CHECK(b.scalar_type() == at::kFloat && b.numel() == cols, "bias must be fp32 [N]");
  }
  float* o = out.data_ptr<float>();
  const float* c = cs.data_ptr<float>();
  const float* s = rs.data_ptr<float>();
  const float* bb = bias.has_value() ? b.data_ptr<float>() : nullptr;
  at::parallel_for(0, rows, std::max<int64_t>(1, (1 << 15) / std::max<int64_t>(cols, 1)), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      float* row = o + r * cols;
      const float step = s[r];
      for (int64_t k = 0; k < cols; ++k) {
        const float v = (row[k] * c[k]) * step;
        row[k] = bb ? v + bb[k] : v;
      }
    }
  });
  return out;
}
