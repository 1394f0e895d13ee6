// The paged KV cache as the paged attention kernels read it: its checks, its dtypes, and rows as fp32 (exact
// for every cache dtype).
#pragma once
#include <ATen/core/Tensor.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>

#include <cstdint>

#include "simd.h"

// One cached key or value row as fp32, a register at a time where the build has SIMD: c10::Half's own
// conversion is bit arithmetic the compiler does not vectorize; the hardware's is one op.
template <typename KV>
inline void widen(const KV* src, float* dst, int64_t n) {
  int64_t d = 0;
#if defined(SUPPORTDESK_SIMD)
  for (; d + simd::kWidth <= n; d += simd::kWidth) simd::store(dst + d, simd::load(src + d));
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
