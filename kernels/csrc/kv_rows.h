// The paged KV cache as the paged attention kernels read it: its checks, its dtypes, and rows as fp32 (exact
// for every cache dtype).
#pragma once
#include <ATen/core/Tensor.h>
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
#elif defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#include <immintrin.h>
#define SUPPORTDESK_AVX2_ATTENTION 1

// Eight cached values as fp32 (the AVX2 paths, on CPUs without AVX-512).
inline __m256 load8(const float* p) { return _mm256_loadu_ps(p); }
inline __m256 load8(const at::Half* p) { return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))); }
inline __m256 load8(const at::BFloat16* p) {
  const __m256i wide = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  return _mm256_castsi256_ps(_mm256_slli_epi32(wide, 16));
}
#endif

// One cached key or value row as fp32. With AVX-512 sixteen at a time, with AVX2 eight: c10::Half's own
// conversion is bit arithmetic the compiler does not vectorize; the hardware's is one op.
template <typename KV>
inline void widen(const KV* src, float* dst, int64_t n) {
  int64_t d = 0;
#if defined(__AVX512F__)
  for (; d + 16 <= n; d += 16) _mm512_storeu_ps(dst + d, load16(src + d));
#elif defined(SUPPORTDESK_AVX2_ATTENTION)
  for (; d + 8 <= n; d += 8) _mm256_storeu_ps(dst + d, load8(src + d));
#endif
  for (; d < n; ++d) dst[d] = static_cast<float>(src[d]);
}

// The caches' shared checks: [num_blocks, block_size, KVH, D], contiguous, one dtype, q's head layout.
inline void check_kv_caches(const at::Tensor& q, const at::Tensor& k_cache, const at::Tensor& v_cache) {
  TORCH_CHECK(k_cache.dim() == 4 && k_cache.is_contiguous() && v_cache.is_contiguous(), "caches must be contiguous 4-D");
  TORCH_CHECK(k_cache.scalar_type() == v_cache.scalar_type(), "k_cache and v_cache dtypes differ");
  TORCH_CHECK(k_cache.size(3) == q.size(2) && q.size(1) % k_cache.size(2) == 0, "head layout mismatch");
}

// Calls f with a value of the cache's element type (fp32, fp16 or bf16), to instantiate a kernel for it.
template <typename F>
void with_kv_cache_type(const at::Tensor& cache, F&& f) {
  switch (cache.scalar_type()) {
    case at::kBFloat16: return f(at::BFloat16{});
    case at::kHalf: return f(at::Half{});
    case at::kFloat: return f(float{});
    default: TORCH_CHECK(false, "caches must be fp32, fp16 or bf16");
  }
}
