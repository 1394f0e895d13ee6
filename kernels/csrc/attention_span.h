// The arithmetic the paged decode and prefill attention kernels share, so that a query row gets the same bits
// through either: a plain decode (decode kernel), a drafted decode and a recompute after preemption (prefill
// kernel). Both walk a row's keys in spans of absolute positions [64j, 64j + 64) and, per query head:
//   scores    scale * (k . q), each dot one chain of FMAs over the head dimension in order;
//   softmax   online: the span's max over the keys the head sees, new max = max(running max, span max),
//             weights simd::exp(score - new max) (exactly 0 for keys it must not see), their sum in key
//             order, running sum = running sum * simd::exp(old max - new max) + that sum, and the weighted
//             values so far times the same factor;
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

#if defined(SUPPORTDESK_SIMD)
// e^x of one float: the same bits as its lane of simd::exp, which the kernels' vector loops use.
inline float exp1(float x) { return simd::first_lane(simd::exp(simd::set1(x))); }
#else
inline float exp1(float x) { return std::exp(x); }  // the softmax's portable loops use std::exp too
#endif

// acc[m * D + d] += prob(t, m) * value(t)[d] for t < n in order (one FMA each), for m < M, where
// prob(t, m) = probs[t * t_stride + m * m_stride] and value(t) is a cached row (fp32, fp16 or bf16).
template <typename ValueRow>
void weigh_span(const float* probs, int64_t t_stride, int64_t m_stride, int64_t M, ValueRow value, int64_t n,
                int64_t D, float* acc) {
  int64_t m = 0;
#if defined(SUPPORTDESK_SIMD)
  constexpr int64_t R = simd::kRegisters / 8, W = simd::kWidth;  // registers per head: 4 x 16 or 2 x 8 dims
  if (D % (R * W) == 0) {
    const int64_t blocked = M / kHeads * kHeads;
    for (int64_t d0 = 0; d0 < D; d0 += R * W)  // these dims of the span's values stay in L1 for every head
      for (m = 0; m < blocked; m += kHeads) {
        simd::Floats a[kHeads][R];
        for (int64_t i = 0; i < kHeads; ++i)
          for (int64_t c = 0; c < R; ++c) a[i][c] = simd::load(acc + (m + i) * D + d0 + W * c);
        for (int64_t t = 0; t < n; ++t) {
          const auto* row = value(t) + d0;
          simd::Floats v[R];
          for (int64_t c = 0; c < R; ++c) v[c] = simd::load(row + W * c);
          for (int64_t i = 0; i < kHeads; ++i) {
            const simd::Floats p = simd::set1(probs[t * t_stride + (m + i) * m_stride]);
            for (int64_t c = 0; c < R; ++c) a[i][c] = simd::fmadd(p, v[c], a[i][c]);
          }
        }
        for (int64_t i = 0; i < kHeads; ++i)
          for (int64_t c = 0; c < R; ++c) simd::store(acc + (m + i) * D + d0 + W * c, a[i][c]);
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
