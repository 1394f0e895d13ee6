// Writes one step's keys and values into the paged KV cache: row t of k/v goes to flat slot slot_mapping[t]
// (block * block_size + offset) of k_cache/v_cache, converted to the cache's dtype with round-to-nearest-even
// as Tensor.to does; slots < 0 are skipped.
//
// k, v [T, KVH, D] fp32, each row contiguous (rows may be strided, as V's view of the fused QKV output); k_cache, v_cache [num_blocks, block_size, KVH, D] fp32, fp16 or bf16;
// slot_mapping [T] int64 or int32. Replaces the reference's two conversions and two index_copy_ calls
// (kernels/attention_ref.py: store_kv_ref), which cost more than the copy itself at decode sizes.
#include "cpu_kernels.h"

#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>

#include <type_traits>

#if defined(__F16C__)
#include <immintrin.h>
#endif

namespace {
// One row converted to the cache's dtype. fp16 eight at a time with F16C where the CPU has it (round to
// nearest even, as c10::Half's own conversion, which is bit arithmetic the compiler does not vectorize).
template <typename Cache>
inline void narrow(const float* src, Cache* dst, int64_t n) {
  int64_t i = 0;
#if defined(__F16C__)
  if constexpr (std::is_same_v<Cache, c10::Half>)
    for (; i + 8 <= n; i += 8)
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT));
#endif
  for (; i < n; ++i) dst[i] = static_cast<Cache>(src[i]);
}

template <typename Cache, typename Slot>
void store_rows(const float* k, const float* v, int64_t k_stride, int64_t v_stride, Cache* k_cache, Cache* v_cache,
                const Slot* slots, int64_t rows, int64_t row_size, int64_t num_slots) {
  for (int64_t t = 0; t < rows; ++t) {
    const int64_t slot = static_cast<int64_t>(slots[t]);
    if (slot < 0) continue;
    TORCH_CHECK(slot < num_slots, "slot ", slot, " out of range for a cache of ", num_slots, " slots");
    narrow(k + t * k_stride, k_cache + slot * row_size, row_size);
    narrow(v + t * v_stride, v_cache + slot * row_size, row_size);
  }
}

template <typename Cache>
void store_typed(const at::Tensor& k, const at::Tensor& v, at::Tensor& k_cache, at::Tensor& v_cache,
                 const at::Tensor& slots, int64_t row_size, int64_t num_slots) {
  const int64_t rows = k.size(0);
  if (slots.scalar_type() == at::kLong)
    store_rows(k.data_ptr<float>(), v.data_ptr<float>(), k.stride(0), v.stride(0), k_cache.data_ptr<Cache>(),
               v_cache.data_ptr<Cache>(), slots.data_ptr<int64_t>(), rows, row_size, num_slots);
  else
    store_rows(k.data_ptr<float>(), v.data_ptr<float>(), k.stride(0), v.stride(0), k_cache.data_ptr<Cache>(),
               v_cache.data_ptr<Cache>(), slots.data_ptr<int32_t>(), rows, row_size, num_slots);
}
}  // namespace

void store_kv(const at::Tensor& k, const at::Tensor& v, at::Tensor k_cache, at::Tensor v_cache,
              const at::Tensor& slot_mapping) {
  TORCH_CHECK(k.scalar_type() == at::kFloat && v.scalar_type() == at::kFloat && k.dim() == 3 && k.sizes() == v.sizes(),
              "k and v must be fp32 [T, KVH, D] of one shape");
  for (const at::Tensor* t : {&k, &v})
    TORCH_CHECK(t->stride(2) == 1 && t->stride(1) == t->size(2), "each k/v row must be contiguous");
  TORCH_CHECK(k_cache.dim() == 4 && k_cache.is_contiguous() && v_cache.is_contiguous() && k_cache.sizes() == v_cache.sizes()
                  && k_cache.scalar_type() == v_cache.scalar_type(), "caches must be contiguous [blocks, block_size, KVH, D] of one shape and dtype");
  TORCH_CHECK(k_cache.size(2) == k.size(1) && k_cache.size(3) == k.size(2), "k/v heads and head size must match the cache");
  TORCH_CHECK(slot_mapping.dim() == 1 && slot_mapping.is_contiguous() && slot_mapping.size(0) == k.size(0)
                  && (slot_mapping.scalar_type() == at::kLong || slot_mapping.scalar_type() == at::kInt),
              "slot_mapping must be contiguous int64 or int32 [T]");
  const int64_t row_size = k.size(1) * k.size(2), num_slots = k_cache.size(0) * k_cache.size(1);
  switch (k_cache.scalar_type()) {
    case at::kFloat: store_typed<float>(k, v, k_cache, v_cache, slot_mapping, row_size, num_slots); break;
    case at::kHalf: store_typed<c10::Half>(k, v, k_cache, v_cache, slot_mapping, row_size, num_slots); break;
    case at::kBFloat16: store_typed<c10::BFloat16>(k, v, k_cache, v_cache, slot_mapping, row_size, num_slots); break;
    default: TORCH_CHECK(false, "cache dtype must be fp32, fp16 or bf16");
  }
}
