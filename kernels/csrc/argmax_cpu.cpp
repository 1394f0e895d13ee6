// Row-wise argmax of fp32 logits for greedy decoding: the first index of each row's maximum, NaN counting as
// the maximum (as torch.max does). `argmax_rows_penalized` does the same after a repetition penalty, without
// copying the logits.
//
// torch.max(dim=-1) walks 16 x 262,144 logits at about 1.5 values per cycle; this reads them at memory speed
// a register at a time (simd.h). Each row is cut into a fixed number of chunks, one task each, so the work
// spreads over the threads even for one row; the chunks' winners are then compared in order, so ties go to
// the first index whatever the thread count.
#include "cpu_kernels.h"
#include "simd.h"

#include <ATen/ops/empty.h>

#include <cmath>
#include <vector>

namespace {
constexpr int64_t kChunks = 8;  // per row

struct Best {
  float value;
  int64_t index;
};

// The better of two candidates in torch.max's order: NaN first, then the larger value, ties to the lower index.
Best better(const Best& a, const Best& b) {
  const bool a_nan = std::isnan(a.value), b_nan = std::isnan(b.value);
  if (a_nan != b_nan) return a_nan ? a : b;
  if (!a_nan && a.value != b.value) return a.value > b.value ? a : b;
  return a.index <= b.index ? a : b;
}

#if defined(SUPPORTDESK_SIMD)
// The best of the SIMD scan's lanes, each holding its lane's first maximum (no NaN among them).
Best best_of_lanes(const float* values, const int32_t* indices, int lanes) {
  Best best{values[0], indices[0]};
  for (int lane = 1; lane < lanes; ++lane) best = better(best, {values[lane], indices[lane]});
  return best;
}

// The first NaN of x[begin, end), where the SIMD scan saw one (rare: found the plain way).
Best first_nan(const float* x, int64_t begin, int64_t end) {
  int64_t j = begin;
  while (j < end && !std::isnan(x[j])) ++j;
  return {x[j], j};
}
#endif

// The first maximum of x[begin, end), or the first NaN.
Best scan(const float* x, int64_t begin, int64_t end) {
  Best best{-INFINITY, begin};
  int64_t i = begin;
#if defined(SUPPORTDESK_SIMD)
  constexpr int W = simd::kWidth;
  if (end - i >= W) {
    simd::Floats values = simd::load(x + i);
    simd::Ints indices = simd::iota(static_cast<int32_t>(i)), at = indices;
    simd::Mask nan = simd::is_nan(values);
    for (i += W; i + W <= end; i += W) {
      at = simd::add(at, simd::set1(W));
      const simd::Floats v = simd::load(x + i);
      const simd::Mask greater = simd::greater(v, values);  // strictly: each lane keeps its first
      values = simd::select(greater, v, values);
      indices = simd::select(greater, at, indices);
      nan = simd::either(nan, simd::is_nan(v));
    }
    if (simd::any(nan)) return first_nan(x, begin, end);
    float lane_values[W];
    int32_t lane_indices[W];
    simd::store(lane_values, values);
    simd::store(lane_indices, indices);
    best = best_of_lanes(lane_values, lane_indices, W);
  }
#endif
  for (; i < end; ++i) {
    if (std::isnan(x[i])) return {x[i], i};
    if (x[i] > best.value) best = {x[i], i};
  }
  return best;
}

void check_logits(const at::Tensor& logits) {
  TORCH_CHECK(logits.dim() == 2 && logits.scalar_type() == at::kFloat && logits.is_contiguous(),
              "logits must be contiguous fp32 [rows, vocab]");
  TORCH_CHECK(logits.size(1) > 0 && logits.size(1) < (int64_t(1) << 31), "vocab size out of range");
}

// Each row's winner over the logits as they are now.
std::vector<Best> row_winners(const float* x, int64_t rows, int64_t vocab) {
  const int64_t chunk = (vocab + kChunks - 1) / kChunks;
  std::vector<Best> winners(rows * kChunks);
  at::parallel_for(0, rows * kChunks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t task = begin; task < end; ++task) {
      const int64_t row = task / kChunks, lo = std::min(vocab, task % kChunks * chunk), hi = std::min(vocab, lo + chunk);
      winners[task] = lo < hi ? scan(x + row * vocab, lo, hi) : Best{-INFINITY, vocab};
    }
  });
  std::vector<Best> best(rows);
  for (int64_t row = 0; row < rows; ++row) {
    best[row] = winners[row * kChunks];
    for (int64_t c = 1; c < kChunks && !std::isnan(best[row].value); ++c) {
      const Best& w = winners[row * kChunks + c];
      if (std::isnan(w.value) || w.value > best[row].value) best[row] = w;
    }
  }
  return best;
}
}  // namespace

at::Tensor argmax_rows(const at::Tensor& logits) {
  check_logits(logits);
  const int64_t rows = logits.size(0);
  auto out = at::empty({rows}, logits.options().dtype(at::kLong));
  const std::vector<Best> best = row_winners(logits.data_ptr<float>(), rows, logits.size(1));
  int64_t* result = out.data_ptr<int64_t>();
  for (int64_t row = 0; row < rows; ++row) result[row] = best[row].index;
  return out;
}

// The seen tokens' penalized values are scored on their own; their logits are set to -inf for the scan of the
// rest and put back afterwards, so the caller's logits are unchanged. The winner of the two is the winner of
// the penalized row: a -inf placeholder only wins the scan when every unseen logit is -inf, and then a seen
// token wins unless it is -inf too, when the lowest index, which the scan returned, is the answer.
at::Tensor argmax_rows_penalized(const at::Tensor& logits, const at::Tensor& seen_ids, const at::Tensor& offsets,
                                 const at::Tensor& penalties) {
  check_logits(logits);
  const int64_t rows = logits.size(0), vocab = logits.size(1);
  TORCH_CHECK(seen_ids.dim() == 1 && seen_ids.scalar_type() == at::kLong && seen_ids.is_contiguous(),
              "seen_ids must be contiguous int64 [total]");
  TORCH_CHECK(offsets.dim() == 1 && offsets.scalar_type() == at::kLong && offsets.is_contiguous() &&
                  offsets.size(0) == rows + 1, "offsets must be contiguous int64 [rows + 1]");
  TORCH_CHECK(penalties.dim() == 1 && penalties.scalar_type() == at::kFloat && penalties.is_contiguous() &&
                  penalties.size(0) == rows, "penalties must be contiguous fp32 [rows]");
  const int64_t* ids = seen_ids.data_ptr<int64_t>();
  const int64_t* off = offsets.data_ptr<int64_t>();
  const float* penalty = penalties.data_ptr<float>();
  TORCH_CHECK(off[0] == 0 && off[rows] == seen_ids.size(0), "offsets must run from 0 to len(seen_ids)");
  for (int64_t row = 0; row < rows; ++row) {
    TORCH_CHECK(off[row] <= off[row + 1], "offsets must not decrease");
    for (int64_t j = off[row]; j < off[row + 1]; ++j)
      TORCH_CHECK(ids[j] >= 0 && ids[j] < vocab, "seen token id ", ids[j], " out of range");
  }
  float* x = logits.data_ptr<float>();
  const int64_t total = seen_ids.size(0);
  std::vector<float> saved(total);
  std::vector<Best> best_seen(rows, Best{-INFINITY, vocab});
  for (int64_t row = 0; row < rows; ++row) {
    const float p = penalty[row];
    for (int64_t j = off[row]; j < off[row + 1]; ++j) {  // read every original before any -inf is written
      const float v = x[row * vocab + ids[j]];
      saved[j] = v;
      best_seen[row] = better(best_seen[row], Best{v < 0.f ? v * p : v / p, ids[j]});
    }
  }
  for (int64_t row = 0; row < rows; ++row)
    for (int64_t j = off[row]; j < off[row + 1]; ++j) x[row * vocab + ids[j]] = -INFINITY;
  const std::vector<Best> best_rest = row_winners(x, rows, vocab);
  for (int64_t row = 0; row < rows; ++row)  // a repeated id saved the same original each time
    for (int64_t j = off[row]; j < off[row + 1]; ++j) x[row * vocab + ids[j]] = saved[j];
  auto out = at::empty({rows}, logits.options().dtype(at::kLong));
  int64_t* result = out.data_ptr<int64_t>();
  for (int64_t row = 0; row < rows; ++row) result[row] = better(best_rest[row], best_seen[row]).index;
  return out;
}
