// The gated feed-forward's activation, fused: out = act(gate) * up, where each input row is the fused
// gate/up projection's output [gate | up]. act 0: GELU with the tanh approximation (Gemma); act 1: SiLU
// (Llama, Qwen2). Both are written as x * sigmoid(z), sigmoid(z) = 1 / (1 + exp(-z)): for GELU
// z = 2 * sqrt(2 / pi) * (x + 0.044715 x^3), the same function as 0.5 x (1 + tanh(z / 2)).
//
// PyTorch's reference (kernels/act_and_mul_ref.py) takes three ops and two temporaries; its tanh GELU ran
// at ~6 cycles per value. Here exp is simd.h's polynomial (within 2 ulp of libm's), a register of values at a time.
#include "cpu_kernels.h"
#include "simd.h"

#include <ATen/ops/empty.h>

#include <algorithm>
#include <cmath>

namespace {
constexpr float kGeluScale = 1.5957691216057308f;  // 2 * sqrt(2 / pi)
constexpr float kGeluCubic = 0.044715f;
constexpr float kExpLow = -88.3762626647949f;  // e^x below this is under fp32's smallest normal number
constexpr float kExpHigh = 89.f;  // above 88.72, e^x overflows to inf, as it must: x / (1 + inf) = 0

inline float sigmoid_argument(float x, int64_t act) {
  return act == 0 ? kGeluScale * (x + kGeluCubic * x * x * x) : x;
}

#if defined(SUPPORTDESK_SIMD)
// x * sigmoid(z) for a register of gate values.
inline simd::Floats act_lanes(simd::Floats x, int64_t act) {
  simd::Floats z = x;
  if (act == 0) {
    const simd::Floats cubic = simd::mul(simd::mul(simd::set1(kGeluCubic), x), simd::mul(x, x));
    z = simd::mul(simd::set1(kGeluScale), simd::add(x, cubic));
  }
  return simd::div(x, simd::add(simd::set1(1.f), simd::exp(simd::sub(simd::zero(), z))));
}
#endif

void act_and_mul_row(const float* gate, const float* up, float* out, int64_t n, int64_t act) {
  int64_t i = 0;
#if defined(SUPPORTDESK_SIMD)
  for (; i + simd::kWidth <= n; i += simd::kWidth)
    simd::store(out + i, simd::mul(act_lanes(simd::load(gate + i), act), simd::load(up + i)));
#endif
  for (; i < n; ++i) {
    const float minus_z = std::clamp(-sigmoid_argument(gate[i], act), kExpLow, kExpHigh);
    out[i] = gate[i] / (1.f + std::exp(minus_z)) * up[i];
  }
}
}  // namespace

at::Tensor act_and_mul(const at::Tensor& x, int64_t act) {
  TORCH_CHECK(x.dim() == 2 && x.scalar_type() == at::kFloat && x.is_contiguous() && x.size(1) % 2 == 0,
              "x must be contiguous fp32 [rows, 2 * n]");
  TORCH_CHECK(act == 0 || act == 1, "act must be 0 (tanh GELU) or 1 (SiLU)");
  const int64_t rows = x.size(0), n = x.size(1) / 2;
  auto out = at::empty({rows, n}, x.options());
  const float* in = x.data_ptr<float>();
  float* y = out.data_ptr<float>();
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(n, 1));  // small batches: one thread
  at::parallel_for(0, rows, grain, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) act_and_mul_row(in + r * 2 * n, in + r * 2 * n + n, y + r * n, n, act);
  });
  return out;
}
