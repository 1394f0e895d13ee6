// Paged prefill attention for the CPU: a flat batch of prefill chunks against the paged KV cache, read in
// place, with a fixed order of operations for every query row.
//
// PyTorch's attention (the reference) blocks its work by the number of queries and keys of the call, so a
// token's last bits moved with the way its prompt was cut into chunks, and chunking depends on the batch.
// Here a task is a block of consecutive rows of one sequence and one KV head. It walks the keys in spans of
// absolute positions [64j, 64j + 64), converted once per span and shared by the block's query heads: scores
// as a small matrix product (queries transposed, each dot one chain of FMAs over the head dimension), an online
// softmax per query head, and the weighted values summed in position order. Keys a row must not see
// (causal, sliding window) get weight exactly zero, which adds exactly nothing, and spans a row sees none of
// leave it untouched. A row's result therefore depends only on its own position and the cache: the same
// bits in one chunk or several, alone or batched, and the same bits the decode kernel gives it
// (attention_span.h).
//
// q [N, H, D] fp32; caches [num_blocks, block_size, KVH, D] fp32, fp16 or bf16; block_tables [S, max_blocks]
// int32; cu_seqlens [S + 1] int32 (sequence s owns rows [cu[s], cu[s + 1]), the last new tokens of its
// context_lens[s]); keys at positions [max(0, p + 1 - window), p] for the row at position p (window <= 0: all).
#include "attention_span.h"
#include "cpu_kernels.h"
#include "kv_rows.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace {

using attention_span::kSpan;
constexpr int64_t kQueryRowBlock = 8;  // query rows per task, times the query heads of one KV head
constexpr int64_t kLanes = 16;    // query heads are padded to a multiple of this (one AVX-512 register, two AVX2)

struct Task {
  int64_t seq, first_row, num_rows, kv_head;
};

#if defined(SUPPORTDESK_SIMD)
constexpr int64_t W = simd::kWidth;
constexpr int64_t kKeys = simd::kRegisters == 32 ? 8 : 4;  // keys per register block of the score micro-kernel

// One register block of score_span: keys [t0, t0 + NT) against query lanes [m0, m0 + W * NC).
template <int64_t NT, int64_t NC>
inline void score_block(const float* keys, int64_t t0, const float* qt, int64_t L, int64_t m0, int64_t D,
                        float scale, float* scores) {
  simd::Floats acc[NT][NC];
  for (int64_t t = 0; t < NT; ++t)
    for (int64_t c = 0; c < NC; ++c) acc[t][c] = simd::zero();
  for (int64_t d = 0; d < D; ++d) {
    simd::Floats q[NC];
    for (int64_t c = 0; c < NC; ++c) q[c] = simd::load(qt + d * L + m0 + W * c);
    for (int64_t t = 0; t < NT; ++t) {
      const simd::Floats k = simd::set1(keys[(t0 + t) * D + d]);
      for (int64_t c = 0; c < NC; ++c) acc[t][c] = simd::fmadd(k, q[c], acc[t][c]);
    }
  }
  for (int64_t t = 0; t < NT; ++t)
    for (int64_t c = 0; c < NC; ++c)
      simd::store(scores + (t0 + t) * L + m0 + W * c, simd::mul(acc[t][c], simd::set1(scale)));
}

template <int64_t NC>
inline void score_columns(const float* keys, int64_t n, const float* qt, int64_t L, int64_t m0, int64_t D,
                          float scale, float* scores) {
  int64_t t0 = 0;
  for (; t0 + kKeys <= n; t0 += kKeys) score_block<kKeys, NC>(keys, t0, qt, L, m0, D, scale, scores);
  for (; t0 < n; ++t0) score_block<1, NC>(keys, t0, qt, L, m0, D, scale, scores);
}
#endif

// scores[t * L + m] = scale * k_t . q_m for t < n and every lane m < L (a multiple of kLanes); keys [kSpan][D],
// the queries transposed, qt [D][L]. Each dot is summed over d in order, one FMA at a time.
void score_span(const float* keys, int64_t n, const float* qt, int64_t L, int64_t D, float scale, float* scores) {
  int64_t m0 = 0;
#if defined(SUPPORTDESK_SIMD)
  for (; m0 + 2 * W <= L; m0 += 2 * W) score_columns<2>(keys, n, qt, L, m0, D, scale, scores);
  for (; m0 + W <= L; m0 += W) score_columns<1>(keys, n, qt, L, m0, D, scale, scores);
#endif
  for (; m0 < L; ++m0)
    for (int64_t t = 0; t < n; ++t) {
      float dot = 0.f;
      for (int64_t d = 0; d < D; ++d) dot = std::fma(keys[t * D + d], qt[d * L + m0], dot);
      scores[t * L + m0] = dot * scale;
    }
}

// The online softmax of one span, per query head m (lane): only keys t in [from[m], to[m]) count. Scores
// become weights, exp(score - new running max), and exactly 0 for keys the head must not see; rescale[m]
// is the factor for what the head summed before (1 where it sees nothing here, which leaves it untouched).
// Each lane's sums run over t in order.
void softmax_span(float* scores, int64_t n, int64_t L, const int32_t* from, const int32_t* to,
                  float* running_max, float* running_sum, float* rescale) {
  const float minus_inf = -std::numeric_limits<float>::infinity();
  int64_t m0 = 0;
#if defined(SUPPORTDESK_SIMD)
  for (; m0 + W <= L; m0 += W) {
    const simd::Ints lo = simd::load(from + m0), hi = simd::load(to + m0);
    const simd::Mask sees = simd::less(lo, hi);
    auto visible = [&](int64_t t) {
      const simd::Ints tt = simd::set1(static_cast<int32_t>(t));
      return simd::both(simd::less_equal(lo, tt), simd::less(tt, hi));
    };
    simd::Floats span_max = simd::set1(minus_inf);
    for (int64_t t = 0; t < n; ++t)
      span_max = simd::select(visible(t), simd::max(span_max, simd::load(scores + t * L + m0)), span_max);
    const simd::Floats old_max = simd::load(running_max + m0);
    const simd::Floats new_max = simd::select(sees, simd::max(old_max, span_max), old_max);
    const simd::Floats factor = simd::select(sees, simd::exp(simd::sub(old_max, new_max)), simd::set1(1.f));
    simd::Floats sum = simd::zero();
    for (int64_t t = 0; t < n; ++t) {
      float* row = scores + t * L + m0;
      const simd::Floats p = simd::zero_unless(visible(t), simd::exp(simd::sub(simd::load(row), new_max)));
      simd::store(row, p);
      sum = simd::add(sum, p);
    }
    simd::store(running_sum + m0, simd::add(simd::mul(simd::load(running_sum + m0), factor), sum));
    simd::store(running_max + m0, new_max);
    simd::store(rescale + m0, factor);
  }
#endif
  for (int64_t m = m0; m < L; ++m) {
    if (from[m] >= to[m]) {
      for (int64_t t = 0; t < n; ++t) scores[t * L + m] = 0.f;
      rescale[m] = 1.f;
      continue;
    }
    float span_max = minus_inf;
    for (int64_t t = from[m]; t < to[m]; ++t) span_max = std::max(span_max, scores[t * L + m]);
    const float new_max = std::max(running_max[m], span_max);
    rescale[m] = std::exp(running_max[m] - new_max);
    float sum = 0.f;
    for (int64_t t = 0; t < n; ++t) {
      float& s = scores[t * L + m];
      s = t >= from[m] && t < to[m] ? std::exp(s - new_max) : 0.f;
      sum += s;
    }
    running_sum[m] = running_sum[m] * rescale[m] + sum;
    running_max[m] = new_max;
  }
}

template <typename KV>
void attend_prefill(const float* q, const KV* k_cache, const KV* v_cache, const int32_t* block_tables,
                    const int32_t* cu_seqlens, const int32_t* context_lens, float* out, int64_t num_seqs,
                    int64_t num_heads, int64_t num_kv_heads, int64_t D, int64_t block_size, int64_t max_blocks,
                    float scale, int64_t window) {
  const int64_t group = num_heads / num_kv_heads;
  std::vector<Task> tasks;
  for (int64_t s = 0; s < num_seqs; ++s)
    for (int64_t r = cu_seqlens[s]; r < cu_seqlens[s + 1]; r += kQueryRowBlock)
      for (int64_t h = 0; h < num_kv_heads; ++h)
        tasks.push_back({s, r, std::min<int64_t>(kQueryRowBlock, cu_seqlens[s + 1] - r), h});
  // Later rows see more keys; the cores take contiguous ranges of tasks, so interleave cheap and dear ones.
  const int64_t num_tasks = static_cast<int64_t>(tasks.size());
  std::vector<int64_t> order(num_tasks);
  for (int64_t i = 0; i < num_tasks; ++i) order[i] = i % 2 == 0 ? i / 2 : num_tasks - 1 - i / 2;
  at::parallel_for(0, num_tasks, 1, [&](int64_t begin, int64_t end) {
    const int64_t max_heads = kQueryRowBlock * group, lanes = (max_heads + kLanes - 1) / kLanes * kLanes;
    std::vector<float> qt(D * lanes), keys(kSpan * D), values(kSpan * D), scores(kSpan * lanes), acc(max_heads * D);
    std::vector<float> running_max(lanes), running_sum(lanes), rescale(lanes);
    std::vector<int32_t> from(lanes), to(lanes);  // lanes past M see nothing
    std::vector<int64_t> position(kQueryRowBlock), first_key(kQueryRowBlock);
    for (int64_t i = begin; i < end; ++i) {
      const Task& task = tasks[order[i]];
      const int64_t M = task.num_rows * group, L = (M + kLanes - 1) / kLanes * kLanes;
      const int64_t last_position = context_lens[task.seq] - (cu_seqlens[task.seq + 1] - task.first_row);
      std::fill(qt.begin(), qt.begin() + D * L, 0.f);
      for (int64_t r = 0; r < task.num_rows; ++r) {
        position[r] = last_position + r;
        first_key[r] = window > 0 ? std::max<int64_t>(0, position[r] + 1 - window) : 0;
        for (int64_t g = 0; g < group; ++g) {
          const float* qm = q + ((task.first_row + r) * num_heads + task.kv_head * group + g) * D;
          for (int64_t d = 0; d < D; ++d) qt[d * L + r * group + g] = qm[d];
        }
      }
      std::fill(acc.begin(), acc.begin() + M * D, 0.f);
      std::fill(running_max.begin(), running_max.end(), -std::numeric_limits<float>::infinity());
      std::fill(running_sum.begin(), running_sum.end(), 0.f);
      std::fill(from.begin(), from.end(), 0);
      std::fill(to.begin(), to.end(), 0);
      const int32_t* table = block_tables + task.seq * max_blocks;
      const int64_t last_key = position[task.num_rows - 1];
      for (int64_t lo = first_key[0] / kSpan * kSpan; lo <= last_key; lo += kSpan) {
        const int64_t n = std::min<int64_t>(kSpan, last_key + 1 - lo);
        for (int64_t t = 0; t < n; ++t) {
          const int64_t pos = lo + t;
          if (pos < first_key[0]) {  // before every row's window: its block may be gone (-1); no row reads it
            std::fill(keys.begin() + t * D, keys.begin() + (t + 1) * D, 0.f);
            std::fill(values.begin() + t * D, values.begin() + (t + 1) * D, 0.f);
            continue;
          }
          const int64_t row = ((static_cast<int64_t>(table[pos / block_size]) * block_size + pos % block_size) *
                                   num_kv_heads + task.kv_head) * D;
          widen(k_cache + row, keys.data() + t * D, D);
          widen(v_cache + row, values.data() + t * D, D);
        }
        score_span(keys.data(), n, qt.data(), L, D, scale, scores.data());
        for (int64_t r = 0; r < task.num_rows; ++r)  // each query head's visible keys in this span: [from, to)
          for (int64_t g = 0; g < group; ++g) {
            from[r * group + g] = static_cast<int32_t>(std::max(first_key[r], lo) - lo);
            to[r * group + g] = static_cast<int32_t>(std::min(position[r] + 1, lo + n) - lo);
          }
        softmax_span(scores.data(), n, L, from.data(), to.data(), running_max.data(), running_sum.data(),
                     rescale.data());
        for (int64_t m = 0; m < M; ++m) attention_span::rescale_row(acc.data() + m * D, rescale[m], D);
        attention_span::weigh_span(scores.data(), L, 1, M, [&](int64_t t) { return values.data() + t * D; }, n, D,
                                   acc.data());
      }
      for (int64_t r = 0; r < task.num_rows; ++r)
        for (int64_t g = 0; g < group; ++g) {
          const int64_t m = r * group + g;
          attention_span::normalize_row(acc.data() + m * D, running_sum[m], D,
                                        out + ((task.first_row + r) * num_heads + task.kv_head * group + g) * D);
        }
    }
  });
}

}  // namespace

at::Tensor paged_prefill_attention(at::Tensor q, at::Tensor k_cache, at::Tensor v_cache, at::Tensor block_tables,
                                   at::Tensor cu_seqlens, at::Tensor context_lens, double scale, int64_t window) {
  TORCH_CHECK(q.dim() == 3 && q.scalar_type() == at::kFloat && q.is_contiguous(), "q must be contiguous fp32 [N, H, D]");
  check_kv_caches(q, k_cache, v_cache);
  TORCH_CHECK(block_tables.scalar_type() == at::kInt && cu_seqlens.scalar_type() == at::kInt &&
                  context_lens.scalar_type() == at::kInt, "block_tables, cu_seqlens and context_lens must be int32");
  auto tables = block_tables.contiguous();
  auto cu = cu_seqlens.contiguous();
  auto lens = context_lens.contiguous();
  const int64_t num_seqs = lens.numel(), num_heads = q.size(1), head_dim = q.size(2);
  const int64_t block_size = k_cache.size(1), num_kv_heads = k_cache.size(2), max_blocks = tables.size(1);
  TORCH_CHECK(cu.numel() == num_seqs + 1 && tables.size(0) >= num_seqs, "one cu_seqlens step and table row per sequence");
  const int32_t* c = cu.data_ptr<int32_t>();
  const int32_t* l = lens.data_ptr<int32_t>();
  TORCH_CHECK(c[0] == 0 && c[num_seqs] == q.size(0), "cu_seqlens must run from 0 to the number of rows");
  for (int64_t s = 0; s < num_seqs; ++s)
    TORCH_CHECK(c[s + 1] >= c[s] && l[s] >= c[s + 1] - c[s] && l[s] <= max_blocks * block_size,
                "each sequence's context must hold its new rows and fit its block table");
  auto out = at::empty_like(q);
  if (q.size(0) == 0) return out;
  with_kv_cache_type(k_cache, [&](auto element) {
    using KV = decltype(element);
    attend_prefill(q.data_ptr<float>(), k_cache.data_ptr<KV>(), v_cache.data_ptr<KV>(), tables.data_ptr<int32_t>(), c,
                   l, out.data_ptr<float>(), num_seqs, num_heads, num_kv_heads, head_dim, block_size, max_blocks,
                   static_cast<float>(scale), window);
  });
  return out;
}
