// Paged decode attention for the CPU: one query token per sequence, read straight from the paged KV cache.
//
// The PyTorch reference gathers each sequence's blocks into a new tensor, converts it to fp32 and then
// multiplies: three passes over the keys and values. This kernel reads every key and value once, in place,
// converting on the fly. A task is one (sequence, KV head) pair (`attend_split` spreads fewer pairs than threads
// over the threads by span and by dimension, in the same order). It walks the keys in spans of absolute
// positions [64j, 64j + 64) with the arithmetic of attention_span.h, which the prefill kernel shares: a
// sequence's result is the same bits alone or in any batch, and the same bits the prefill kernel gives its row,
// so a drafted decode and a recompute after preemption (both prefill kernel) match a plain decode.
//
// q [S, H, D] fp32; k_cache/v_cache [num_blocks, block_size, KVH, D] fp32, fp16 or bf16; block_tables [S, max_blocks]
// int32 (-1 = absent); context_lens [S] int32; keys at positions [max(0, ctx - window), ctx) (window <= 0: all).
#include "attention_span.h"
#include "cpu_kernels.h"
#include "kv_rows.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace {

using attention_span::exp1;
using attention_span::kSpan;

#if defined(SUPPORTDESK_SIMD)
// Ask for bytes [0, n) of p to be brought into L2. Rows come in block-table order, which the hardware
// prefetcher cannot follow.
inline void prefetch_l2(const void* p, int64_t n) {
  for (int64_t b = 0; b < n; b += 64) _mm_prefetch(static_cast<const char*>(p) + b, _MM_HINT_T1);
}

constexpr int64_t kKeyLanes = simd::kWidth;  // keys side by side in one register of score_keys

// scores[h * kSpan + t] = scale * (key(t) . q_h) for kKeyLanes keys from t0 and HQ query heads (rows of q, D
// apart): each dot one chain of FMAs over d in order, the keys side by side in the lanes (their rows
// transposed a register's width of dims at a time). Keys past n repeat the last one; their scores land in
// the span buffer's unused tail.
template <int HQ, typename KV, typename KeyRow>
void score_keys(KeyRow key, int64_t t0, int64_t n, const float* q, int64_t D, float scale, float* scores) {
  simd::Floats acc[HQ];
  for (int h = 0; h < HQ; ++h) acc[h] = simd::zero();
  const KV* rows[kKeyLanes];
  for (int i = 0; i < kKeyLanes; ++i) rows[i] = key(std::min<int64_t>(t0 + i, n - 1));
  for (int64_t d0 = 0; d0 < D; d0 += kKeyLanes) {
    simd::Floats r[kKeyLanes];
    for (int i = 0; i < kKeyLanes; ++i) r[i] = simd::load(rows[i] + d0);
    simd::transpose(r);
    for (int j = 0; j < kKeyLanes; ++j)
      for (int h = 0; h < HQ; ++h) acc[h] = simd::fmadd(r[j], simd::set1(q[h * D + d0 + j]), acc[h]);
  }
  for (int h = 0; h < HQ; ++h) simd::store(scores + h * kSpan + t0, simd::mul(acc[h], simd::set1(scale)));
}
#endif

// scores[g * kSpan + t] = scale * (key(t) . q_g) for t < n, g < group: each dot one chain of FMAs over d in order.
template <typename KV, typename KeyRow>
void score_span(KeyRow key, int64_t n, const float* q, int64_t group, int64_t D, float scale, float* scores) {
  int64_t g0 = 0;
#if defined(SUPPORTDESK_SIMD)
  if (D % kKeyLanes == 0) {
    for (; g0 < group; g0 += 4)
      for (int64_t t0 = 0; t0 < n; t0 += kKeyLanes) {
        const float* qh = q + g0 * D;
        float* s = scores + g0 * kSpan;
        switch (std::min<int64_t>(4, group - g0)) {
          case 1: score_keys<1, KV>(key, t0, n, qh, D, scale, s); break;
          case 2: score_keys<2, KV>(key, t0, n, qh, D, scale, s); break;
          case 3: score_keys<3, KV>(key, t0, n, qh, D, scale, s); break;
          default: score_keys<4, KV>(key, t0, n, qh, D, scale, s); break;
        }
      }
  }
#endif
  for (; g0 < group; ++g0)
    for (int64_t t = 0; t < n; ++t) {
      const KV* k = key(t);
      float dot = 0.f;
      for (int64_t d = 0; d < D; ++d) dot = std::fma(static_cast<float>(k[d]), q[g0 * D + d], dot);
      scores[g0 * kSpan + t] = dot * scale;
    }
}

// The online softmax of one span for one head, whose keys are t in [from, n): scores become weights (0 before
// from), and the running max and sum move on. Returns the factor for what the head summed before.
float softmax_span(float* s, int64_t from, int64_t n, float& running_max, float& running_sum) {
  float span_max = -std::numeric_limits<float>::infinity();
  for (int64_t t = from; t < n; ++t) span_max = std::max(span_max, s[t]);
  const float new_max = std::max(running_max, span_max);
  const float factor = exp1(running_max - new_max);
  std::fill(s, s + from, 0.f);
  int64_t t = from;
#if defined(SUPPORTDESK_SIMD)
  const simd::Floats max_lanes = simd::set1(new_max);
  for (; t + simd::kWidth <= n; t += simd::kWidth)
    simd::store(s + t, simd::exp(simd::sub(simd::load(s + t), max_lanes)));
#endif
  for (; t < n; ++t) s[t] = exp1(s[t] - new_max);
  float sum = 0.f;
  for (t = from; t < n; ++t) sum += s[t];
  running_sum = running_sum * factor + sum;
  running_max = new_max;
  return factor;
}

// A (sequence, KV head) pair's keys: positions [start, ctx) in spans of kSpan from start, each position's row
// in the cache, -1 before the window's first position (its block may be gone; it reads as zeros).
struct PairKeys {
  int64_t first = 0, start = 0, ctx = 0;
  std::vector<int64_t> rows;
};

// Fills `keys` for one pair, reusing its row buffer (one call per pair and layer on the decode hot path).
void find_pair_keys(int64_t seq, int64_t kv_head, const int32_t* block_tables, const int32_t* context_lens,
                    int64_t num_kv_heads, int64_t D, int64_t block_size, int64_t max_blocks, int64_t window,
                    PairKeys& keys) {
  keys.ctx = context_lens[seq];
  keys.first = window > 0 ? std::max<int64_t>(0, keys.ctx - window) : 0;
  keys.start = keys.first / kSpan * kSpan;
  keys.rows.assign(keys.ctx - keys.start, -1);
  const int32_t* table = block_tables + seq * max_blocks;
  for (int64_t pos = keys.first; pos < keys.ctx; ++pos)
    keys.rows[pos - keys.start] = ((table[pos / block_size] * block_size + pos % block_size) * num_kv_heads + kv_head) * D;
}

// One task per (sequence, KV head) pair, each walking its spans once: scores, softmax, weighted values.
template <typename KV>
void attend(const float* q, const KV* k_cache, const KV* v_cache, const int32_t* block_tables,
            const int32_t* context_lens, float* out, int64_t num_seqs, int64_t num_heads, int64_t num_kv_heads,
            int64_t D, int64_t block_size, int64_t max_blocks, float scale, int64_t window) {
  const int64_t group = num_heads / num_kv_heads;
  at::parallel_for(0, num_seqs * num_kv_heads, 1, [&](int64_t begin, int64_t end) {
    std::vector<float> scores(group * kSpan), acc(group * D), running_max(group), running_sum(group);
    const std::vector<KV> zeros(D, KV(0.f));
    PairKeys keys;
    for (int64_t pair = begin; pair < end; ++pair) {
      const int64_t seq = pair / num_kv_heads, kv_head = pair % num_kv_heads;
      find_pair_keys(seq, kv_head, block_tables, context_lens, num_kv_heads, D, block_size, max_blocks, window, keys);
      const float* queries = q + (seq * num_heads + kv_head * group) * D;
      std::fill(acc.begin(), acc.end(), 0.f);
      std::fill(running_max.begin(), running_max.end(), -std::numeric_limits<float>::infinity());
      std::fill(running_sum.begin(), running_sum.end(), 0.f);
      for (int64_t lo = keys.start; lo < keys.ctx; lo += kSpan) {
        const int64_t n = std::min<int64_t>(kSpan, keys.ctx - lo), from = std::max(keys.first, lo) - lo;
        const int64_t* rows = keys.rows.data() + (lo - keys.start);
#if defined(SUPPORTDESK_SIMD)
        const int64_t row_bytes = D * static_cast<int64_t>(sizeof(KV));
        for (int64_t t = from; t < n; ++t) prefetch_l2(v_cache + rows[t], row_bytes);  // read after the keys
        for (int64_t t = n; t < std::min<int64_t>(n + kSpan, keys.ctx - lo); ++t)
          prefetch_l2(k_cache + rows[t], row_bytes);
#endif
        auto key = [&](int64_t t) { return rows[t] < 0 ? zeros.data() : k_cache + rows[t]; };
        auto value = [&](int64_t t) { return rows[t] < 0 ? zeros.data() : v_cache + rows[t]; };
        score_span<KV>(key, n, queries, group, D, scale, scores.data());
        for (int64_t g = 0; g < group; ++g) {
          const float factor = softmax_span(scores.data() + g * kSpan, from, n, running_max[g], running_sum[g]);
          attention_span::rescale_row(acc.data() + g * D, factor, D);
        }
        attention_span::weigh_span(scores.data(), 1, kSpan, group, value, n, D, acc.data());
      }
      for (int64_t g = 0; g < group; ++g)
        attention_span::normalize_row(acc.data() + g * D, running_sum[g], D,
                                      out + (seq * num_heads + kv_head * group + g) * D);
    }
  });
}

// The same arithmetic for fewer pairs than threads (one sequence with MQA), in three passes that each spread
// over the threads: the scores of every span; each head's online softmax over its spans in order; the weighted
// values, 64 dimensions per task (each output element still one FMA chain in key order, so the same bits).
template <typename KV>
void attend_split(const float* q, const KV* k_cache, const KV* v_cache, const int32_t* block_tables,
                  const int32_t* context_lens, float* out, int64_t num_seqs, int64_t num_heads, int64_t num_kv_heads,
                  int64_t D, int64_t block_size, int64_t max_blocks, float scale, int64_t window) {
  const int64_t group = num_heads / num_kv_heads, num_pairs = num_seqs * num_kv_heads;
  std::vector<PairKeys> keys(num_pairs);
  std::vector<int64_t> first_span{0};  // the spans of pair p: [first_span[p], first_span[p + 1])
  for (int64_t pair = 0; pair < num_pairs; ++pair) {
    find_pair_keys(pair / num_kv_heads, pair % num_kv_heads, block_tables, context_lens, num_kv_heads, D, block_size,
                   max_blocks, window, keys[pair]);
    first_span.push_back(first_span.back() + (keys[pair].ctx - keys[pair].start + kSpan - 1) / kSpan);
  }
  std::vector<float> scores(first_span.back() * group * kSpan), factors(first_span.back() * group);
  std::vector<float> sums(num_pairs * group);
  const std::vector<KV> zeros(D, KV(0.f));
  auto rows_of = [&](int64_t pair, int64_t span) { return keys[pair].rows.data() + span * kSpan; };
  auto length_of = [&](int64_t pair, int64_t span) {
    return std::min<int64_t>(kSpan, keys[pair].ctx - keys[pair].start - span * kSpan);
  };
  auto from_of = [&](int64_t pair, int64_t span) { return span == 0 ? keys[pair].first - keys[pair].start : 0; };
  at::parallel_for(0, first_span.back(), 1, [&](int64_t begin, int64_t end) {
    for (int64_t task = begin; task < end; ++task) {
      const int64_t pair = std::upper_bound(first_span.begin(), first_span.end(), task) - first_span.begin() - 1;
      const int64_t span = task - first_span[pair];
      const int64_t* rows = rows_of(pair, span);
      auto key = [&](int64_t t) { return rows[t] < 0 ? zeros.data() : k_cache + rows[t]; };
      const float* queries = q + ((pair / num_kv_heads) * num_heads + (pair % num_kv_heads) * group) * D;
      score_span<KV>(key, length_of(pair, span), queries, group, D, scale, scores.data() + task * group * kSpan);
    }
  });
  at::parallel_for(0, num_pairs * group, 1, [&](int64_t begin, int64_t end) {
    for (int64_t head = begin; head < end; ++head) {
      const int64_t pair = head / group, g = head % group;
      float running_max = -std::numeric_limits<float>::infinity(), running_sum = 0.f;
      for (int64_t span = 0; span < first_span[pair + 1] - first_span[pair]; ++span) {
        const int64_t task = first_span[pair] + span;
        factors[task * group + g] = softmax_span(scores.data() + (task * group + g) * kSpan, from_of(pair, span),
                                                 length_of(pair, span), running_max, running_sum);
      }
      sums[head] = running_sum;
    }
  });
  const int64_t block = D % 64 == 0 ? 64 : D, num_blocks = D / block;
  at::parallel_for(0, num_pairs * num_blocks, 1, [&](int64_t begin, int64_t end) {
    std::vector<float> acc(group * block);
    for (int64_t task = begin; task < end; ++task) {
      const int64_t pair = task / num_blocks, d0 = task % num_blocks * block;
      std::fill(acc.begin(), acc.end(), 0.f);
      for (int64_t span = 0; span < first_span[pair + 1] - first_span[pair]; ++span) {
        const int64_t s = first_span[pair] + span;
        for (int64_t g = 0; g < group; ++g)
          attention_span::rescale_row(acc.data() + g * block, factors[s * group + g], block);
        const int64_t* rows = rows_of(pair, span);
        auto value = [&](int64_t t) { return (rows[t] < 0 ? zeros.data() : v_cache + rows[t]) + d0; };
        attention_span::weigh_span(scores.data() + s * group * kSpan, 1, kSpan, group, value, length_of(pair, span),
                                   block, acc.data());
      }
      float* out_pair = out + ((pair / num_kv_heads) * num_heads + (pair % num_kv_heads) * group) * D + d0;
      for (int64_t g = 0; g < group; ++g)
        attention_span::normalize_row(acc.data() + g * block, sums[pair * group + g], block, out_pair + g * D);
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
    // Fewer pairs than threads would leave threads idle in one pass per pair.
    const auto run = num_seqs * num_kv_heads < at::get_num_threads() ? attend_split<KV> : attend<KV>;
    run(q.data_ptr<float>(), k_cache.data_ptr<KV>(), v_cache.data_ptr<KV>(), tables.data_ptr<int32_t>(),
        lens.data_ptr<int32_t>(), out.data_ptr<float>(), num_seqs, num_heads, num_kv_heads, head_dim, block_size,
        max_blocks, static_cast<float>(scale), window);
  });
  return out;
}
