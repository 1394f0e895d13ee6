// Row-wise argmax of fp32 logits for greedy decoding: the first index of each row's maximum, NaN counting as
// the maximum (as torch.max does).
//
// torch.max(dim=-1) walks 16 x 262,144 logits at about 1.5 values per cycle; this reads them at memory speed
// with AVX-512. Each row is cut into a fixed number of chunks, one task each, so the work spreads over the
// threads even for one row; the chunks' winners are then compared in order, so ties go to the first index
// whatever the thread count.
#include "cpu_kernels.h"

#include <ATen/ops/empty.h>

#include <cmath>
#include <vector>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace {
constexpr int64_t kChunks = 8;  // per row

struct Best {
  float value;
  int64_t index;
};

// The first maximum of x[begin, end), or the first NaN.
Best scan(const float* x, int64_t begin, int64_t end) {
  Best best{-INFINITY, begin};
  int64_t i = begin;
#if defined(__AVX512F__)
  if (end - i >= 16) {
    __m512 values = _mm512_loadu_ps(x + i);
    __m512i indices = _mm512_add_epi32(_mm512_set1_epi32(static_cast<int32_t>(i)),
                                       _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    __m512i at = indices;
    const __m512i sixteen = _mm512_set1_epi32(16);
    __mmask16 nan = _mm512_cmp_ps_mask(values, values, _CMP_UNORD_Q);
    for (i += 16; i + 16 <= end; i += 16) {
      at = _mm512_add_epi32(at, sixteen);
      const __m512 v = _mm512_loadu_ps(x + i);
      const __mmask16 greater = _mm512_cmp_ps_mask(v, values, _CMP_GT_OQ);  // strictly: each lane keeps its first
      values = _mm512_mask_blend_ps(greater, values, v);
      indices = _mm512_mask_blend_epi32(greater, indices, at);
      nan |= _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    }
    if (nan) {  // rare: find the first NaN the plain way
      for (int64_t j = begin; j < end; ++j)
        if (std::isnan(x[j])) return {x[j], j};
    }
    float lane_values[16];
    int32_t lane_indices[16];
    _mm512_storeu_ps(lane_values, values);
    _mm512_storeu_si512(lane_indices, indices);
    best = {lane_values[0], lane_indices[0]};
    for (int lane = 1; lane < 16; ++lane)
      if (lane_values[lane] > best.value || (lane_values[lane] == best.value && lane_indices[lane] < best.index))
        best = {lane_values[lane], lane_indices[lane]};
  }
#endif
  for (; i < end; ++i) {
    if (std::isnan(x[i])) return {x[i], i};
    if (x[i] > best.value) best = {x[i], i};
  }
  return best;
}
}  // namespace

at::Tensor argmax_rows(const at::Tensor& logits) {
  TORCH_CHECK(logits.dim() == 2 && logits.scalar_type() == at::kFloat && logits.is_contiguous(),
              "logits must be contiguous fp32 [rows, vocab]");
  const int64_t rows = logits.size(0), vocab = logits.size(1);
  TORCH_CHECK(vocab > 0 && vocab < (int64_t(1) << 31), "vocab size out of range");
  auto out = at::empty({rows}, logits.options().dtype(at::kLong));
  const float* x = logits.data_ptr<float>();
  const int64_t chunk = (vocab + kChunks - 1) / kChunks;
  std::vector<Best> winners(rows * kChunks);
  at::parallel_for(0, rows * kChunks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t task = begin; task < end; ++task) {
      const int64_t row = task / kChunks, lo = std::min(vocab, task % kChunks * chunk), hi = std::min(vocab, lo + chunk);
      winners[task] = lo < hi ? scan(x + row * vocab, lo, hi) : Best{-INFINITY, vocab};
    }
  });
  int64_t* result = out.data_ptr<int64_t>();
  for (int64_t row = 0; row < rows; ++row) {
    Best best = winners[row * kChunks];
    for (int64_t c = 1; c < kChunks && !std::isnan(best.value); ++c) {
      const Best& w = winners[row * kChunks + c];
      if (std::isnan(w.value) || w.value > best.value) best = w;
    }
    result[row] = best.index;
  }
  return out;
}
