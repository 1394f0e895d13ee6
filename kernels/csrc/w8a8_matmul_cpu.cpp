// int8 x int8 matmul with group-wise scales (llama.cpp's Q8_0 x Q8_0 scheme) for the CPU int8 linear.
//
// Weights: int8 with one scale per output channel and group of inputs (32 in the engine), packed by
// kernels/w8a8_matmul_cpu.py as tiles of 16 output channels, [tiles, K/4, 16, 4] (four consecutive inputs
// of one channel side by side, the layout of VNNI's dot product) with 128 added (uint8, as VNNI's unsigned
// operand wants them), scales [tiles, groups, 16] in fp16.
// Activations: quantized here per token and group of `act_group` inputs (16 in the engine; it divides the
// weight's group), step = max|x| / 127, q = round(x / step).
// Per output: y = sum over activation groups, in order, of float(integer dot) * (weight scale * step), + bias.
// The integer dots are exact, and every output runs the same float operations in the same order whatever
// the batch, so a row's result never depends on the rest of the batch, and equals the PyTorch reference
// (kernels/w8a8_matmul_ref.py) bit for bit. AVX-512 VNNI computes the dots where the build has it
// (unsigned weight x signed activation; the 128 added to the weights is taken off again by starting each
// dot at -128 * sum(q)); AVX2 computes the same exact dots where there is no VNNI (`avx2_block`), and the
// portable loop gives the same bits elsewhere.
#include "cpu_kernels.h"
#include "simd.h"

#include <c10/util/Half.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#if defined(__AVX512F__) && defined(__AVX512VNNI__)
#include <immintrin.h>
#define SUPPORTDESK_VNNI 1
#elif defined(__AVX2__) && defined(__F16C__)
#include <immintrin.h>
#define SUPPORTDESK_AVX2 1
#endif

namespace {
constexpr float kInt8Max = 127.f;
constexpr float kMinAbsMax = 1e-30f;
constexpr int kRowBlock = 4;
// The first row block reads each weight line from memory; asking for the line this far ahead keeps loads in
// flight while the dots run (15-25% faster for 1 to 4 rows, ~10% for 16; 1 KB and 8 KB measured a bit worse).
// The later row blocks of a tile pair, which find its lines in cache, ask for the next pair's lines instead,
// so memory and the dots overlap there too (5 to 16 rows: head 10.4 -> 8.0 ms at 8 rows, 15.5 -> 12.2 at 16).
constexpr int64_t kPrefetchBytes = 2048;

struct Problem {
  const int8_t* qx;     // [M, K] quantized activations
  const float* step;    // [M, groups]: per activation group
  const int32_t* qcorr;  // [M, groups]: -128 * the sum of each activation group's q
  const uint8_t* w;     // [tiles, K/4, 16, 4], weight + 128
  const c10::Half* ws;  // [tiles, weight_groups, 16]
  int64_t k, group, groups, weight_groups, per_weight_group;  // group: inputs per activation group
};

#if defined(SUPPORTDESK_SIMD)
// One group of a multiple of simd::kWidth inputs: the same operations as the scalar loop below, a register at
// a time (division and round half to even are exact in both), without a libm call per element.
void quantize_group_simd(const float* in, int64_t n, int8_t* out, float* step, int32_t* qcorr) {
  simd::Floats abs_max = simd::zero();
  for (int64_t i = 0; i < n; i += simd::kWidth) abs_max = simd::max(abs_max, simd::abs(simd::load(in + i)));
  const float s = std::max(simd::reduce_max(abs_max), kMinAbsMax) / kInt8Max;
  const simd::Floats divisor = simd::set1(s);
  simd::Ints total = simd::set1(0);
  for (int64_t i = 0; i < n; i += simd::kWidth) {
    const simd::Ints v = simd::to_ints_nearest(simd::div(simd::load(in + i), divisor));
    simd::store_int8(out + i, v);
    total = simd::add(total, v);
  }
  *step = s;
  *qcorr = -128 * simd::reduce_add(total);
}
#endif

void quantize_groups(const float* x, int64_t rows, const Problem& p, int8_t* q, float* step, int32_t* qcorr) {
  at::parallel_for(0, rows, 16, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      for (int64_t g = 0; g < p.groups; ++g) {
        const float* in = x + r * p.k + g * p.group;
#if defined(SUPPORTDESK_SIMD)
        if (p.group % simd::kWidth == 0) {
          quantize_group_simd(in, p.group, q + r * p.k + g * p.group, step + r * p.groups + g,
                              qcorr + r * p.groups + g);
          continue;
        }
#endif
        float abs_max = 0.f;
        for (int64_t i = 0; i < p.group; ++i) abs_max = std::max(abs_max, std::fabs(in[i]));
        const float s = std::max(abs_max, kMinAbsMax) / kInt8Max;
        int8_t* out = q + r * p.k + g * p.group;
        int32_t total = 0;
        for (int64_t i = 0; i < p.group; ++i) {
          out[i] = static_cast<int8_t>(std::nearbyint(in[i] / s));
          total += out[i];
        }
        step[r * p.groups + g] = s;
        qcorr[r * p.groups + g] = -128 * total;
      }
    }
  });
}

// Rows [row, row + rows) of one tile, without SIMD intrinsics; acc is [rows][16].
void portable_tile(const Problem& p, int64_t tile, int64_t row, int64_t rows, float* acc) {
  const uint8_t* w = p.w + tile * p.k * kTile;
  const c10::Half* ws = p.ws + tile * p.weight_groups * kTile;
  for (int64_t r = 0; r < rows; ++r) {
    const int8_t* x = p.qx + (row + r) * p.k;
    float* out = acc + r * kTile;
    std::fill(out, out + kTile, 0.f);
    for (int64_t g = 0; g < p.groups; ++g) {
      int32_t dot[kTile] = {};
      for (int64_t quad = g * p.group / 4; quad < (g + 1) * p.group / 4; ++quad) {
        const uint8_t* wq = w + quad * 4 * kTile;
        for (int64_t lane = 0; lane < kTile; ++lane)
          for (int64_t b = 0; b < 4; ++b) dot[lane] += (int32_t(wq[lane * 4 + b]) - 128) * int32_t(x[quad * 4 + b]);
      }
      const float s = p.step[(row + r) * p.groups + g];
      for (int64_t lane = 0; lane < kTile; ++lane) {
        const float t = static_cast<float>(ws[g / p.per_weight_group * kTile + lane]) * s;
        out[lane] = out[lane] + static_cast<float>(dot[lane]) * t;
      }
    }
  }
}

#ifdef SUPPORTDESK_VNNI
// Where a row block after the first prefetches the next tile pair's weights: `bytes` ahead (0: nowhere), on
// every `phases`-th quad starting at `phase`, so that those row blocks share the pair's lines between them.
struct Prefetch {
  int64_t bytes = 0, phase = 0, phases = 1;
};

// kRows rows x kTiles tiles with VNNI; acc is [kRows][kTiles * 16]. kQuads: dot steps per activation group
// when known at compile time (0: from p), so the group's loop unrolls (16% faster at 16 rows).
template <int kRows, int kTiles, int kQuads>
void vnni_block(const Problem& p, int64_t tile, int64_t row, float* acc, const Prefetch& next) {
  const int64_t quads = kQuads ? kQuads : p.group / 4;
  __m512 sum[kRows][kTiles];
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kTiles; ++c) sum[r][c] = _mm512_setzero_ps();
  for (int64_t g = 0; g < p.groups; ++g) {
    // Each dot starts at -128 * sum(q) (broadcast from memory: no vector ALU work), which takes off again
    // what the 128 added to the weights puts in, so the dot ends exact.
    __m512i dot[kRows][kTiles];
    for (int r = 0; r < kRows; ++r) {
      const __m512i start = _mm512_set1_epi32(p.qcorr[(row + r) * p.groups + g]);
      for (int c = 0; c < kTiles; ++c) dot[r][c] = start;
    }
    for (int64_t i = 0; i < quads; ++i) {
      const int64_t quad = g * quads + i;
      __m512i w[kTiles];
      for (int c = 0; c < kTiles; ++c) {
        const uint8_t* at = p.w + ((tile + c) * p.k + quad * 4) * kTile;
        if (row == 0) _mm_prefetch(reinterpret_cast<const char*>(at) + kPrefetchBytes, _MM_HINT_T0);
        else if (next.bytes && quad % next.phases == next.phase)
          _mm_prefetch(reinterpret_cast<const char*>(at) + next.bytes, _MM_HINT_T1);
        w[c] = _mm512_loadu_si512(at);
      }
      for (int r = 0; r < kRows; ++r) {
        int32_t four;
        std::memcpy(&four, p.qx + (row + r) * p.k + quad * 4, sizeof(four));
        const __m512i x = _mm512_set1_epi32(four);
        for (int c = 0; c < kTiles; ++c) dot[r][c] = _mm512_dpbusd_epi32(dot[r][c], w[c], x);
      }
    }
    for (int c = 0; c < kTiles; ++c) {
      const int64_t wg = (tile + c) * p.weight_groups + g / p.per_weight_group;
      const auto* scale = reinterpret_cast<const __m256i*>(p.ws + wg * kTile);
      const __m512 ws = _mm512_cvtph_ps(_mm256_loadu_si256(scale));
      for (int r = 0; r < kRows; ++r) {
        const int64_t at = (row + r) * p.groups + g;
        const __m512 t = _mm512_mul_ps(ws, _mm512_set1_ps(p.step[at]));
        sum[r][c] = _mm512_add_ps(sum[r][c], _mm512_mul_ps(_mm512_cvtepi32_ps(dot[r][c]), t));
      }
    }
  }
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kTiles; ++c) _mm512_storeu_ps(acc + (r * kTiles + c) * kTile, sum[r][c]);
}

template <int kTiles, int kQuads>
void vnni_rows_q(const Problem& p, int64_t tile, int64_t row, int64_t rows, float* acc, const Prefetch& next) {
  switch (rows) {
    case 1: return vnni_block<1, kTiles, kQuads>(p, tile, row, acc, next);
    case 2: return vnni_block<2, kTiles, kQuads>(p, tile, row, acc, next);
    case 3: return vnni_block<3, kTiles, kQuads>(p, tile, row, acc, next);
    default: return vnni_block<4, kTiles, kQuads>(p, tile, row, acc, next);
  }
}

template <int kTiles>
void vnni_rows(const Problem& p, int64_t tile, int64_t row, int64_t rows, float* acc, const Prefetch& next) {
  if (p.group == 16) return vnni_rows_q<kTiles, 4>(p, tile, row, rows, acc, next);  // the engine's activation group
  return vnni_rows_q<kTiles, 0>(p, tile, row, rows, acc, next);
}
#endif

#ifdef SUPPORTDESK_AVX2
// kRows rows of one tile with AVX2, written to acc[r * stride + lane]: VNNI's exact int32 dots from vpmaddubsw
// and vpmaddwd. vpmaddubsw adds two unsigned x signed byte products into int16 with saturation, so it gets the
// signed weight's magnitude (<= 128) as the unsigned operand and the activation with the weight's sign
// (|q| <= 127): a pair is at most 2 * 128 * 127 = 32512, never saturated. The float part is vnni_block's.
template <int kRows, int kQuads>
void avx2_block(const Problem& p, int64_t tile, int64_t row, float* acc, int64_t stride) {
  const int64_t quads = kQuads ? kQuads : p.group / 4;
  const __m256i ones = _mm256_set1_epi16(1), flip = _mm256_set1_epi8(static_cast<char>(0x80));
  const uint8_t* w = p.w + tile * p.k * kTile;
  const c10::Half* ws = p.ws + tile * p.weight_groups * kTile;
  for (int r = 0; r < kRows; ++r) {
    _mm256_storeu_ps(acc + r * stride, _mm256_setzero_ps());
    _mm256_storeu_ps(acc + r * stride + 8, _mm256_setzero_ps());
  }
  for (int64_t g = 0; g < p.groups; ++g) {
    __m256i dot[kRows][2];
    for (int r = 0; r < kRows; ++r) dot[r][0] = dot[r][1] = _mm256_setzero_si256();
    for (int64_t i = 0; i < quads; ++i) {
      const int64_t quad = g * quads + i;
      const uint8_t* at = w + quad * 4 * kTile;  // 16 channels x 4 inputs: channels 0-7, then 8-15
      if (row == 0) _mm_prefetch(reinterpret_cast<const char*>(at) + kPrefetchBytes, _MM_HINT_T0);
      const __m256i signed0 = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(at)), flip);
      const __m256i signed1 = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(at + 32)), flip);
      const __m256i magnitude0 = _mm256_abs_epi8(signed0), magnitude1 = _mm256_abs_epi8(signed1);
      for (int r = 0; r < kRows; ++r) {
        int32_t four;
        std::memcpy(&four, p.qx + (row + r) * p.k + quad * 4, sizeof(four));
        const __m256i x = _mm256_set1_epi32(four);
        const __m256i pairs0 = _mm256_maddubs_epi16(magnitude0, _mm256_sign_epi8(x, signed0));
        const __m256i pairs1 = _mm256_maddubs_epi16(magnitude1, _mm256_sign_epi8(x, signed1));
        dot[r][0] = _mm256_add_epi32(dot[r][0], _mm256_madd_epi16(pairs0, ones));
        dot[r][1] = _mm256_add_epi32(dot[r][1], _mm256_madd_epi16(pairs1, ones));
      }
    }
    const c10::Half* scale = ws + g / p.per_weight_group * kTile;
    const __m256 scale0 = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(scale)));
    const __m256 scale1 = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(scale + 8)));
    for (int r = 0; r < kRows; ++r) {
      const __m256 s = _mm256_set1_ps(p.step[(row + r) * p.groups + g]);
      float* out = acc + r * stride;
      const __m256 t0 = _mm256_mul_ps(scale0, s), t1 = _mm256_mul_ps(scale1, s);
      _mm256_storeu_ps(out, _mm256_add_ps(_mm256_loadu_ps(out), _mm256_mul_ps(_mm256_cvtepi32_ps(dot[r][0]), t0)));
      _mm256_storeu_ps(out + 8, _mm256_add_ps(_mm256_loadu_ps(out + 8), _mm256_mul_ps(_mm256_cvtepi32_ps(dot[r][1]), t1)));
    }
  }
}

template <int kQuads>
void avx2_rows_q(const Problem& p, int64_t tile, int64_t row, int64_t rows, float* acc, int64_t stride) {
  switch (rows) {
    case 1: return avx2_block<1, kQuads>(p, tile, row, acc, stride);
    case 2: return avx2_block<2, kQuads>(p, tile, row, acc, stride);
    case 3: return avx2_block<3, kQuads>(p, tile, row, acc, stride);
    default: return avx2_block<4, kQuads>(p, tile, row, acc, stride);
  }
}

void avx2_rows(const Problem& p, int64_t tile, int64_t row, int64_t rows, float* acc, int64_t stride) {
  if (p.group == 16) return avx2_rows_q<4>(p, tile, row, rows, acc, stride);  // the engine's activation group
  return avx2_rows_q<0>(p, tile, row, rows, acc, stride);
}
#endif
}  // namespace

at::Tensor w8a8_matmul(const at::Tensor& x, const at::Tensor& packed, const at::Tensor& packed_scale,
                       int64_t out_features, int64_t act_group, const std::optional<at::Tensor>& bias,
                       bool portable, const std::optional<at::Tensor>& out_rows) {
  TORCH_CHECK(x.dim() == 2 && x.scalar_type() == at::kFloat && x.is_contiguous(), "x must be contiguous fp32 [M, K]");
  check_packed_weight(packed, packed_scale);
  const int64_t rows = x.size(0), k = x.size(1), tiles = packed.size(0), weight_groups = packed_scale.size(1);
  TORCH_CHECK(packed.size(1) * 4 == k, "x has ", k, " inputs, the packed weight ", packed.size(1) * 4);
  TORCH_CHECK(weight_groups > 0 && k % weight_groups == 0, "the weight's groups must split K");
  const int64_t weight_group = k / weight_groups;
  TORCH_CHECK(act_group > 0 && act_group % 4 == 0 && weight_group % act_group == 0,
              "act_group must be a multiple of 4 that divides the weight's group of ", weight_group);
  const int64_t groups = k / act_group;
  TORCH_CHECK(out_features > (tiles - 1) * kTile && out_features <= tiles * kTile, "out_features does not match");
  const float* b = nullptr;
  at::Tensor bias_tensor;
  if (bias.has_value()) {
    bias_tensor = bias->contiguous();
    TORCH_CHECK(bias_tensor.scalar_type() == at::kFloat && bias_tensor.numel() == out_features, "bias must be fp32 [N]");
    b = bias_tensor.data_ptr<float>();
  }
  auto q = at::empty({rows, k}, x.options().dtype(at::kChar));
  auto step = at::empty({rows, groups}, x.options());
  auto qcorr = at::empty({rows, groups}, x.options().dtype(at::kInt));
  Problem p{q.data_ptr<int8_t>(), step.data_ptr<float>(), qcorr.data_ptr<int32_t>(), packed.data_ptr<uint8_t>(),
            packed_scale.data_ptr<c10::Half>(), k, act_group, groups, weight_groups, weight_group / act_group};
  quantize_groups(x.data_ptr<float>(), rows, p, q.data_ptr<int8_t>(), step.data_ptr<float>(), qcorr.data_ptr<int32_t>());
  at::Tensor out = matmul_output(out_rows, rows, out_features, x.options());
  float* y = out.data_ptr<float>();
  const int64_t pairs = (tiles + 1) / 2;
  [[maybe_unused]] const int64_t row_blocks = (rows + kRowBlock - 1) / kRowBlock;
  at::parallel_for(0, pairs, 1, [&](int64_t begin, int64_t end) {
    float acc[kRowBlock * 2 * kTile];
    for (int64_t pair = begin; pair < end; ++pair) {
      const int64_t tile = pair * 2, width = std::min<int64_t>(2, tiles - tile) * kTile;
      for (int64_t row = 0; row < rows; row += kRowBlock) {
        const int64_t block = std::min<int64_t>(kRowBlock, rows - row);
#ifdef SUPPORTDESK_VNNI
        if (!portable) {
          Prefetch next;
          if (row > 0 && pair + 1 < end && width == 2 * kTile)
            next = {2 * k * kTile, row / kRowBlock - 1, row_blocks - 1};
          width == 2 * kTile ? vnni_rows<2>(p, tile, row, block, acc, next) : vnni_rows<1>(p, tile, row, block, acc, next);
        } else
#elif defined(SUPPORTDESK_AVX2)
        if (!portable) {
          for (int64_t c = 0; c * kTile < width; ++c) avx2_rows(p, tile + c, row, block, acc + c * kTile, width);
        } else
#endif
        {  // the same [rows][width] layout as the VNNI blocks
          float one[kRowBlock * kTile];
          for (int64_t c = 0; c * kTile < width; ++c) {
            portable_tile(p, tile + c, row, block, one);
            for (int64_t r = 0; r < block; ++r) std::copy(one + r * kTile, one + (r + 1) * kTile, acc + r * width + c * kTile);
          }
        }
        for (int64_t r = 0; r < block; ++r) {
          const int64_t n0 = tile * kTile, n = std::min(width, out_features - n0);
          float* dst = y + (row + r) * out_features + n0;
          for (int64_t i = 0; i < n; ++i) dst[i] = b ? acc[r * width + i] + b[n0 + i] : acc[r * width + i];
        }
      }
    }
  });
  return out;
}
