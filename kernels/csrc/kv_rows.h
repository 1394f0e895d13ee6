// Rows of the paged KV cache as fp32, shared by the paged attention kernels: exact for every cache dtype.
#pragma once
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>

#include <cstdint>

#if defined(__AVX512F__)
#include <immintrin.h>

// Sixteen cached values as fp32.
inline __m512 load16(const float* p) { return _mm512_loadu_ps(p); }
inline __m512 load16(const at::Half* p) {
  return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}
inline __m512 load16(const at::BFloat16* p) {
  const __m512i wide = _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  return _mm512_castsi512_ps(_mm512_slli_epi32(wide, 16));
}
#endif

// One cached key or value row as fp32. With AVX-512, sixteen at a time: c10::Half's own conversion is bit
// arithmetic the compiler does not vectorize; the hardware's is one op.
template <typename KV>
inline void widen(const KV* src, float* dst, int64_t n) {
  int64_t d = 0;
#if defined(__AVX512F__)
  for (; d + 16 <= n; d += 16) _mm512_storeu_ps(dst + d, load16(src + d));
#endif
  for (; d < n; ++d) dst[d] = static_cast<float>(src[d]);
}
