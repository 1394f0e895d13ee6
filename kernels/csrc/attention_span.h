// The arithmetic the paged decode and prefill attention kernels share, so that a query row gets the same bits
// through either: a plain decode (decode kernel), a drafted decode and a recompute after preemption (prefill
// kernel). Both walk a row's keys in spans of absolute positions [64j, 64j + 64) and, per query head:
//   scores    scale * (k . q), each dot one chain of FMAs over the head dimension in order;
//   softmax   online: the span's max over the keys the head sees, new max = max(running max, span max),
//             weights exp16(score - new max) (exactly 0 for keys it must not see), their sum in key order,
//             running sum = running sum * exp16(old max - new max) + that sum, and the weighted values so far
//             times the same factor;
//   values    weigh_span: one FMA chain per output element, in key order;
//   output    the weighted values times 1 / running sum.
// The kernels lay these out differently (the prefill kernel puts query heads side by side, the decode kernel
// keys); `test_every_row_is_the_same_bits_as_the_prefill_kernel_gives_it` holds them to the same bits.
#pragma once
#include "kv_rows.h"

#include <cmath>
#include <cstdint>

namespace attention_span {

constexpr int64_t kSpan = 64;   // key positions per span (absolute: [64j, 64j + 64))
constexpr int64_t kHeads = 4;   // query heads per register block of the weighted values

#if defined(__AVX512F__)
// e^x for sixteen floats: x = n ln2 + r, |r| <= ln2 / 2, a degree-6 polynomial for e^r, times 2^n; within
// 2 ulp of expf, and 0 below -87 (where expf is denormal or 0). The same bits on every call.
inline __m512 exp16(__m512 x) {
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504f)), _MM_FROUND_TO_NEAREST_INT);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693145752f), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(1.42860677e-6f), r);
  __m512 p = _mm512_set1_ps(1.f / 720);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.f / 120));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.f / 24));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.f / 6));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.f));
  const __mmask16 tiny = _mm512_cmp_ps_mask(x, _mm512_set1_ps(-87.f), _CMP_LT_OQ);
  return _mm512_maskz_mov_ps(static_cast<__mmask16>(~tiny), _mm512_scalef_ps(p, n));
}

// exp16 of one float (the same bits as its lane would get).
inline float exp1(float x) { return _mm512_cvtss_f32(exp16(_mm512_set1_ps(x))); }
#else
inline float exp1(float x) { return std::exp(x); }  // the softmax's portable loops use std::exp too
#endif

// acc[m * D + d] += prob(t, m) * value(t)[d] for t < n in order (one FMA each), for m < M, where
// prob(t, m) = probs[t * t_stride + m * m_stride] and value(t) is a cached row (fp32, fp16 or bf16).
template <typename ValueRow>
void weigh_span(const float* probs, int64_t t_stride, int64_t m_stride, int64_t M, ValueRow value, int64_t n,
                int64_t D, float* acc) {
  int64_t m = 0;
#if defined(__AVX512F__)
  if (D % 64 == 0) {
    const int64_t blocked = M / kHeads * kHeads;
    for (int64_t d0 = 0; d0 < D; d0 += 64)  // these 64 dims of the span's values stay in L1 for every head
      for (m = 0; m < blocked; m += kHeads) {
        __m512 a[kHeads][4];
        for (int64_t i = 0; i < kHeads; ++i)
          for (int c = 0; c < 4; ++c) a[i][c] = _mm512_loadu_ps(acc + (m + i) * D + d0 + 16 * c);
        for (int64_t t = 0; t < n; ++t) {
          const auto* row = value(t) + d0;
          const __m512 v0 = load16(row), v1 = load16(row + 16), v2 = load16(row + 32), v3 = load16(row + 48);
          for (int64_t i = 0; i < kHeads; ++i) {
            const __m512 p = _mm512_set1_ps(probs[t * t_stride + (m + i) * m_stride]);
            a[i][0] = _mm512_fmadd_ps(p, v0, a[i][0]);
            a[i][1] = _mm512_fmadd_ps(p, v1, a[i][1]);
            a[i][2] = _mm512_fmadd_ps(p, v2, a[i][2]);
            a[i][3] = _mm512_fmadd_ps(p, v3, a[i][3]);
          }
        }
        for (int64_t i = 0; i < kHeads; ++i)
          for (int c = 0; c < 4; ++c) _mm512_storeu_ps(acc + (m + i) * D + d0 + 16 * c, a[i][c]);
      }
    m = blocked;
  }
#elif defined(SUPPORTDESK_AVX2_ATTENTION)
  if (D % 16 == 0) {  // the same blocks with AVX2, 16 dims (two registers) per head
    const int64_t blocked = M / kHeads * kHeads;
    for (int64_t d0 = 0; d0 < D; d0 += 16)
      for (m = 0; m < blocked; m += kHeads) {
        __m256 a[kHeads][2];
        for (int64_t i = 0; i < kHeads; ++i)
          for (int c = 0; c < 2; ++c) a[i][c] = _mm256_loadu_ps(acc + (m + i) * D + d0 + 8 * c);
        for (int64_t t = 0; t < n; ++t) {
          const auto* row = value(t) + d0;
          const __m256 v0 = load8(row), v1 = load8(row + 8);
          for (int64_t i = 0; i < kHeads; ++i) {
            const __m256 p = _mm256_broadcast_ss(probs + t * t_stride + (m + i) * m_stride);
            a[i][0] = _mm256_fmadd_ps(p, v0, a[i][0]);
            a[i][1] = _mm256_fmadd_ps(p, v1, a[i][1]);
          }
        }
        for (int64_t i = 0; i < kHeads; ++i)
          for (int c = 0; c < 2; ++c) _mm256_storeu_ps(acc + (m + i) * D + d0 + 8 * c, a[i][c]);
      }
    m = blocked;
  }
#endif
  for (; m < M; ++m) {  // the rest one query head at a time: the same FMAs in the same order
    float* a = acc + m * D;
    for (int64_t t = 0; t < n; ++t) {
      const float p = probs[t * t_stride + m * m_stride];
      const auto* row = value(t);
      for (int64_t d = 0; d < D; ++d) a[d] = std::fma(p, static_cast<float>(row[d]), a[d]);
    }
  }
}

// What a head summed before a span, rescaled to the span's new running max: a[d] *= factor.
inline void rescale_row(float* a, float factor, int64_t D) {
  for (int64_t d = 0; d < D; ++d) a[d] *= factor;
}

// A head's output: its weighted values times 1 / its running sum.
inline void normalize_row(const float* a, float running_sum, int64_t D, float* out) {
  const float inv = 1.f / running_sum;
  for (int64_t d = 0; d < D; ++d) out[d] = a[d] * inv;
}

}  // namespace attention_span
