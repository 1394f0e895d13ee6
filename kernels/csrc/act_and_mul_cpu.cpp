// The gated feed-forward's activation, fused: out = act(gate) * up, where each input row is the fused
// gate/up projection's output [gate | up]. act 0: GELU with the tanh approximation (Gemma); act 1: SiLU
// (Llama, Qwen2). Both are written as x * sigmoid(z), sigmoid(z) = 1 / (1 + exp(-z)): for GELU
// z = 2 * sqrt(2 / pi) * (x + 0.044715 x^3), the same function as 0.5 x (1 + tanh(z / 2)).
//
// PyTorch's reference (kernels/act_and_mul_ref.py) takes three ops and two temporaries; its tanh GELU ran
// at ~6 cycles per value. Here exp is a vectorized Cephes-style polynomial (a few ulp from libm's).
#include "cpu_kernels.h"

#include <ATen/ops/empty.h>

#include <algorithm>
#include <cmath>

#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
#include <immintrin.h>
#endif

namespace {
constexpr float kGeluScale = 1.5957691216057308f;  // 2 * sqrt(2 / pi)
constexpr float kGeluCubic = 0.044715f;
constexpr float kExpLow = -88.3762626647949f;  // e^x below this is under fp32's smallest normal number
constexpr float kExpHigh = 89.f;  // above 88.72, e^x overflows to inf, as it must: x / (1 + inf) = 0

inline float sigmoid_argument(float x, int64_t act) {
  return act == 0 ? kGeluScale * (x + kGeluCubic * x * x * x) : x;
}

#if defined(__AVX512F__)
// e^x (inputs clamped to [kExpLow, kExpHigh]), Cody-Waite range reduction and a degree-6 polynomial.
inline __m512 exp16(__m512 x) {
  x = _mm512_max_ps(_mm512_min_ps(x, _mm512_set1_ps(kExpHigh)), _mm512_set1_ps(kExpLow));
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
  __m512 p = _mm512_set1_ps(1.9875691500e-4f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
  p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), _mm512_add_ps(r, _mm512_set1_ps(1.f)));
  return _mm512_scalef_ps(p, n);
}

inline __m512 act16(__m512 x, int64_t act) {
  __m512 z = x;
  if (act == 0) {
    const __m512 cubic = _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(kGeluCubic), x), _mm512_mul_ps(x, x));
    z = _mm512_mul_ps(_mm512_set1_ps(kGeluScale), _mm512_add_ps(x, cubic));
  }
  const __m512 denominator = _mm512_add_ps(_mm512_set1_ps(1.f), exp16(_mm512_sub_ps(_mm512_setzero_ps(), z)));
  return _mm512_div_ps(x, denominator);
}
#elif defined(__AVX2__) && defined(__FMA__)
// exp16 and act16 with AVX2, eight at a time; 2^n is built in the exponent field (n in [-127, 128]: 2^-127
// reads as 0 and 2^128 as inf, where the sigmoid is 1 or 0 to fp32 precision anyway).
inline __m256 exp8(__m256 x) {
  x = _mm256_max_ps(_mm256_min_ps(x, _mm256_set1_ps(kExpHigh)), _mm256_set1_ps(kExpLow));
  const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.f)));
  const __m256i biased = _mm256_max_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)),
                                          _mm256_setzero_si256());
  return _mm256_mul_ps(p, _mm256_castsi256_ps(_mm256_slli_epi32(biased, 23)));
}

inline __m256 act8(__m256 x, int64_t act) {
  __m256 z = x;
  if (act == 0) {
    const __m256 cubic = _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(kGeluCubic), x), _mm256_mul_ps(x, x));
    z = _mm256_mul_ps(_mm256_set1_ps(kGeluScale), _mm256_add_ps(x, cubic));
  }
  const __m256 denominator = _mm256_add_ps(_mm256_set1_ps(1.f), exp8(_mm256_sub_ps(_mm256_setzero_ps(), z)));
  return _mm256_div_ps(x, denominator);
}
#endif

void act_and_mul_row(const float* gate, const float* up, float* out, int64_t n, int64_t act) {
  int64_t i = 0;
#if defined(__AVX512F__)
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps(out + i, _mm512_mul_ps(act16(_mm512_loadu_ps(gate + i), act), _mm512_loadu_ps(up + i)));
#elif defined(__AVX2__) && defined(__FMA__)
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(out + i, _mm256_mul_ps(act8(_mm256_loadu_ps(gate + i), act), _mm256_loadu_ps(up + i)));
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
