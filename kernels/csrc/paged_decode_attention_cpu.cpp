// Paged decode attention for the CPU: one query token per sequence, read straight from the paged KV cache.
//
// The PyTorch reference gathers each sequence's blocks into a new tensor, converts it to fp32 and then
// multiplies: three passes over the keys and values. This kernel reads every key and value once, in place,
// converts on the fly and keeps the scores of one span of positions in a small buffer. Each (sequence,
// KV head) pair is cut into spans of a fixed length, one task each, merged in a fixed order, so a sequence's
// result never depends on the rest of the batch.
//
// q [S, H, D] fp32; k_cache/v_cache [num_blocks, block_size, KVH, D] fp32, fp16 or bf16; block_tables [S, max_blocks]
// int32 (-1 = absent); context_lens [S] int32; keys at positions [max(0, ctx - window), ctx) (window <= 0: all).
#include "cpu_kernels.h"
#include "kv_rows.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

#if defined(__AVX512F__)
// Cache rows are read in the order of the block table, so the hardware prefetcher stalls at every jump to the
// next block; asking for the row this many positions ahead hides that (16 x ~450 positions x 18 layers:
// ~25% faster; 1 and 2 ahead help less, 8 no more).
constexpr int64_t kPrefetchRows = 4;

// Ask for bytes [0, n) of p to be brought into L1.
inline void prefetch(const void* p, int64_t n) {
  for (int64_t b = 0; b < n; b += 64) _mm_prefetch(static_cast<const char*>(p) + b, _MM_HINT_T0);
}

// Ask for bytes [0, n) of p to be brought into L2.
inline void prefetch_l2(const void* p, int64_t n) {
  for (int64_t b = 0; b < n; b += 64) _mm_prefetch(static_cast<const char*>(p) + b, _MM_HINT_T1);
}

// scores[g * n + t] = scale * q_g . k_t for the kGroup query heads of one KV head (D a multiple of 16).
// Two accumulators per head, so that eight FMA chains run side by side instead of one.
template <int kGroup, typename KV, typename Slot>
void score_keys_avx512(const float* qs, Slot key, int64_t n, int64_t D, float scale, float* scores) {
  for (int64_t t = 0; t < n; ++t) {
    const KV* k = key(t);
    if (t + kPrefetchRows < n) prefetch(key(t + kPrefetchRows), D * int64_t(sizeof(KV)));
    __m512 even[kGroup], odd[kGroup];
    for (int g = 0; g < kGroup; ++g) even[g] = odd[g] = _mm512_setzero_ps();
    int64_t d = 0;
    for (; d + 32 <= D; d += 32) {
      const __m512 k0 = load16(k + d), k1 = load16(k + d + 16);
      for (int g = 0; g < kGroup; ++g) {
        even[g] = _mm512_fmadd_ps(_mm512_loadu_ps(qs + g * D + d), k0, even[g]);
        odd[g] = _mm512_fmadd_ps(_mm512_loadu_ps(qs + g * D + d + 16), k1, odd[g]);
      }
    }
    if (d < D) {
      const __m512 k0 = load16(k + d);
      for (int g = 0; g < kGroup; ++g) even[g] = _mm512_fmadd_ps(_mm512_loadu_ps(qs + g * D + d), k0, even[g]);
    }
    for (int g = 0; g < kGroup; ++g) scores[g * n + t] = _mm512_reduce_add_ps(_mm512_add_ps(even[g], odd[g])) * scale;
  }
}

// out_g[d0, d0 + 16 * kChunks) = sum_t probs[g * n + t] * v_t[...], with the accumulators in registers.
template <int kGroup, int kChunks, typename KV, typename Slot>
void weigh_values_block(const float* probs, Slot value, int64_t n, int64_t D, int64_t d0, float* out) {
  __m512 acc[kGroup][kChunks];
  for (int g = 0; g < kGroup; ++g)
    for (int j = 0; j < kChunks; ++j) acc[g][j] = _mm512_setzero_ps();
  for (int64_t t = 0; t < n; ++t) {
    const KV* v = value(t) + d0;
    if (t + kPrefetchRows < n) prefetch(value(t + kPrefetchRows) + d0, 16 * kChunks * int64_t(sizeof(KV)));
    __m512 vv[kChunks];
    for (int j = 0; j < kChunks; ++j) vv[j] = load16(v + 16 * j);
    for (int g = 0; g < kGroup; ++g) {
      const __m512 p = _mm512_set1_ps(probs[g * n + t]);
      for (int j = 0; j < kChunks; ++j) acc[g][j] = _mm512_fmadd_ps(p, vv[j], acc[g][j]);
    }
  }
  for (int g = 0; g < kGroup; ++g)
    for (int j = 0; j < kChunks; ++j) _mm512_storeu_ps(out + g * D + d0 + 16 * j, acc[g][j]);
}

// out_g = sum_t probs[g * n + t] * v_t, as many dims at a time as the registers hold.
template <int kGroup, typename KV, typename Slot>
void weigh_values_avx512(const float* probs, Slot value, int64_t n, int64_t D, float* out) {
  constexpr int kChunks = kGroup <= 4 ? 4 : 2;
  int64_t d0 = 0;
  for (; d0 + 16 * kChunks <= D; d0 += 16 * kChunks) weigh_values_block<kGroup, kChunks, KV>(probs, value, n, D, d0, out);
  for (; d0 < D; d0 += 16) weigh_values_block<kGroup, 1, KV>(probs, value, n, D, d0, out);
}

// Both phases for group sizes 1, 2, 4 and 8; false where the generic loops must run.
template <typename KV, typename Slot>
bool attend_avx512(int64_t group, int phase, const float* in, Slot row, int64_t n, int64_t D, float scale,
                   float* out) {
  if (D % 16 != 0) return false;
  switch (group) {
#define SUPPORTDESK_GROUP(G)                                                   \
  case G:                                                                      \
    if (phase == 0) score_keys_avx512<G, KV>(in, row, n, D, scale, out);       \
    else weigh_values_avx512<G, KV>(in, row, n, D, out);                       \
    return true;
    SUPPORTDESK_GROUP(1)
    SUPPORTDESK_GROUP(2)
    SUPPORTDESK_GROUP(4)
    SUPPORTDESK_GROUP(8)
#undef SUPPORTDESK_GROUP
    default:
      return false;
  }
}
#endif

// Split-K: each (sequence, KV head) pair is cut into spans of kSplitPositions positions, one task each, so a
// single sequence keeps both cores busy; a span leaves its running max, its sum of exps and its unnormalized
// weighted values, and the spans are merged in order. The spans depend only on the sequence's own context,
// so its result is the same bits alone or in any batch.
constexpr int64_t kSplitPositions = 64;

template <typename KV>
void attend(const float* q, const KV* k_cache, const KV* v_cache, const int32_t* block_tables,
            const int32_t* context_lens, float* out, int64_t num_seqs, int64_t num_heads, int64_t num_kv_heads,
            int64_t head_dim, int64_t block_size, int64_t max_blocks, float scale, int64_t window) {
  const int64_t group = num_heads / num_kv_heads;
  const int64_t D = head_dim;
  const int64_t num_pairs = num_seqs * num_kv_heads;
  auto first_position = [&](int64_t seq) {
    return window > 0 ? std::max<int64_t>(0, context_lens[seq] - window) : int64_t(0);
  };
  std::vector<int64_t> first_task(num_pairs + 1, 0);  // tasks of pair p: [first_task[p], first_task[p + 1])
  for (int64_t pair = 0; pair < num_pairs; ++pair) {
    const int64_t seq = pair / num_kv_heads, n = context_lens[seq] - first_position(seq);
    first_task[pair + 1] = first_task[pair] + std::max<int64_t>(1, (n + kSplitPositions - 1) / kSplitPositions);
  }
  const int64_t stride = group * D + 2 * group;  // per task: weighted values [group][D], max [group], sum [group]
  // Reused across calls: a fresh zeroed buffer of this size (~0.4 MB at 16 sequences of ~350 tokens) cost a
  // memset and, from the OS, page faults on every call.
  static thread_local std::vector<float> partial_buffer;
  const size_t partial_size = static_cast<size_t>(first_task[num_pairs] * stride);
  if (partial_buffer.size() < partial_size) partial_buffer.resize(partial_size);
  float* const partial = partial_buffer.data();
  at::parallel_for(0, first_task[num_pairs], 1, [&](int64_t begin, int64_t end) {
    std::vector<float> scores(group * kSplitPositions), row(D);
    std::vector<int64_t> offsets(kSplitPositions), next_offsets(kSplitPositions);  // each position's cache row
    // A task's span: its length, its pair, and each position's row in the cache.
    auto span_of = [&](int64_t task, int64_t* rows, int64_t& pair) {
      pair = std::upper_bound(first_task.begin(), first_task.end(), task) - first_task.begin() - 1;
      const int64_t seq = pair / num_kv_heads, kv_head = pair % num_kv_heads;
      const int64_t lo = first_position(seq) + (task - first_task[pair]) * kSplitPositions;
      const int64_t n = std::min<int64_t>(kSplitPositions, context_lens[seq] - lo);
      const int32_t* table = block_tables + seq * max_blocks;
      for (int64_t t = 0, block = lo / block_size, in_block = lo % block_size; t < n; ++t) {
        rows[t] = ((table[block] * block_size + in_block) * num_kv_heads + kv_head) * D;
        if (++in_block == block_size) in_block = 0, ++block;
      }
      return n;
    };
    int64_t next_pair = 0;
    int64_t next_n = span_of(begin, next_offsets.data(), next_pair);
    for (int64_t task = begin; task < end; ++task) {
      std::swap(offsets, next_offsets);
      const int64_t pair = next_pair, n = next_n;
      next_n = task + 1 < end ? span_of(task + 1, next_offsets.data(), next_pair) : 0;
      const int64_t seq = pair / num_kv_heads, kv_head = pair % num_kv_heads;
      const float* qs = q + (seq * num_heads + kv_head * group) * D;
      // Rows come in block-table order, which the hardware prefetcher cannot follow. Into L2 now: this span's
      // values (read after all its keys) and the next span's keys; the keys' own rows are asked for again
      // kPrefetchRows ahead, into L1.
#if defined(__AVX512F__)
      const int64_t row_bytes = D * static_cast<int64_t>(sizeof(KV));
      for (int64_t t = 0; t < n; ++t) prefetch_l2(v_cache + offsets[t], row_bytes);
      for (int64_t t = 0; t < next_n; ++t) prefetch_l2(k_cache + next_offsets[t], row_bytes);
#endif
      auto key = [&](int64_t t) { return k_cache + offsets[t]; };
      auto value = [&](int64_t t) { return v_cache + offsets[t]; };
      float* acc = partial + task * stride;
      float* max_out = acc + group * D;
      float* sum_out = max_out + group;
#if defined(__AVX512F__)
      const bool vector_scores = attend_avx512<KV>(group, 0, qs, key, n, D, scale, scores.data());
#else
      const bool vector_scores = false;
#endif
      for (int64_t t = 0; t < n && !vector_scores; ++t) {
        widen(key(t), row.data(), D);
        for (int64_t g = 0; g < group; ++g) {
          const float* qg = qs + g * D;
          float dot = 0.f;
#pragma omp simd reduction(+ : dot)
          for (int64_t d = 0; d < D; ++d) dot += qg[d] * row[d];
          scores[g * n + t] = dot * scale;
        }
      }
      for (int64_t g = 0; g < group; ++g) {  // unnormalized: exp(score - span max)
        float* sg = scores.data() + g * n;
        float max_score = -INFINITY, sum = 0.f;
        for (int64_t t = 0; t < n; ++t) max_score = std::max(max_score, sg[t]);
        for (int64_t t = 0; t < n; ++t) {
          sg[t] = std::exp(sg[t] - max_score);
          sum += sg[t];
        }
        max_out[g] = max_score;
        sum_out[g] = sum;
      }
#if defined(__AVX512F__)
      if (attend_avx512<KV>(group, 1, scores.data(), value, n, D, scale, acc)) continue;
#endif
      std::fill(acc, acc + group * D, 0.f);
      for (int64_t t = 0; t < n; ++t) {
        widen(value(t), row.data(), D);
        for (int64_t g = 0; g < group; ++g) {
          const float p = scores[g * n + t];
          float* a = acc + g * D;
#pragma omp simd
          for (int64_t d = 0; d < D; ++d) a[d] += p * row[d];
        }
      }
    }
  });
  at::parallel_for(0, num_pairs, 1, [&](int64_t begin, int64_t end) {  // merge each pair's spans, in order
    for (int64_t pair = begin; pair < end; ++pair) {
      const int64_t seq = pair / num_kv_heads, kv_head = pair % num_kv_heads;
      float* out_heads = out + (seq * num_heads + kv_head * group) * D;
      for (int64_t g = 0; g < group; ++g) {
        float max_score = -INFINITY, sum = 0.f;
        for (int64_t task = first_task[pair]; task < first_task[pair + 1]; ++task)
          max_score = std::max(max_score, partial[task * stride + group * D + g]);
        float* o = out_heads + g * D;
        std::fill(o, o + D, 0.f);
        for (int64_t task = first_task[pair]; task < first_task[pair + 1]; ++task) {
          const float* span = partial + task * stride;
          const float weight = std::exp(span[group * D + g] - max_score);
          sum += weight * span[group * D + group + g];
          const float* a = span + g * D;
#pragma omp simd
          for (int64_t d = 0; d < D; ++d) o[d] += weight * a[d];
        }
        const float inv = 1.f / sum;
#pragma omp simd
        for (int64_t d = 0; d < D; ++d) o[d] *= inv;
      }
    }
  });
}

}  // namespace

at::Tensor paged_decode_attention(at::Tensor q, at::Tensor k_cache, at::Tensor v_cache,
                                     at::Tensor block_tables, at::Tensor context_lens, double scale,
                                     int64_t window) {
  TORCH_CHECK(q.dim() == 3 && q.scalar_type() == at::kFloat && q.is_contiguous(), "q must be contiguous fp32 [S, H, D]");
  check_kv_caches(q, k_cache, v_cache);
  TORCH_CHECK(block_tables.scalar_type() == at::kInt && context_lens.scalar_type() == at::kInt,
              "block_tables and context_lens must be int32");
  auto tables = block_tables.contiguous();
  auto lens = context_lens.contiguous();
  auto out = at::empty_like(q);
  const int64_t num_seqs = q.size(0), num_heads = q.size(1), head_dim = q.size(2);
  const int64_t block_size = k_cache.size(1), num_kv_heads = k_cache.size(2), max_blocks = tables.size(1);
  with_kv_cache_type(k_cache, [&](auto element) {
    using KV = decltype(element);
    attend(q.data_ptr<float>(), k_cache.data_ptr<KV>(), v_cache.data_ptr<KV>(), tables.data_ptr<int32_t>(),
           lens.data_ptr<int32_t>(), out.data_ptr<float>(), num_seqs, num_heads, num_kv_heads, head_dim,
           block_size, max_blocks, static_cast<float>(scale), window);
  });
  return out;
}
