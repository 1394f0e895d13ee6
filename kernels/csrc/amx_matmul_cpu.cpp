// The int8 linear for prefill rows on CPUs with AMX: bf16 tile matmuls over weights dequantized on the fly.
//
// Weights stay int8 in memory, in the layout of kernels/w8a8_matmul_cpu.py ([tiles, K/4, 16, 4] + 128, fp16
// scales [tiles, groups, 16]). For each block of 32 output channels the kernel dequantizes the whole K range
// once (int8 x scale, exact in fp32, rounded to bf16) into AMX's pair layout, and then runs every row of x
// through it: the conversion is paid once per call, not per row, which is why this path is for many rows
// (prefill) and the VNNI kernel stays for decode. Activations are rounded to bf16; products accumulate in fp32
// with TDPBF16PS, 32 inputs at a time, in the same order for every row: a row's result does not depend on the
// other rows of the call, or on how many there are. Where AMX is missing, `amx_matmul_available` says so and
// the caller keeps the VNNI kernel.
#include "cpu_kernels.h"

#include <c10/util/Half.h>

#include <algorithm>
#include <cstring>
#include <vector>

#if defined(__AMX_TILE__) && defined(__AMX_BF16__) && defined(__AVX512BF16__)
#include <immintrin.h>
#include <sys/syscall.h>
#include <unistd.h>
#define SUPPORTDESK_AMX 1
#endif

namespace {
constexpr int64_t kKStep = 32;      // inputs per TDPBF16PS
constexpr int64_t kBlockRows = 32;  // two A tiles
constexpr int64_t kBlockCols = 32;  // two B tiles

#ifdef SUPPORTDESK_AMX
// Linux hands out AMX's tile state only on request, once per process.
bool request_amx() {
  constexpr int kArchReqXcompPerm = 0x1023;
  constexpr int kXfeatureXtiledata = 18;
  return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
}

struct alignas(64) TileConfig {
  uint8_t palette = 1;
  uint8_t start_row = 0;
  uint8_t reserved[14] = {};
  uint16_t colsb[16] = {};
  uint8_t rows[16] = {};
};

// Tiles 0-3: C (16 x 16 fp32), 4-5: A (16 rows x 32 bf16), 6-7: B (16 input pairs x 16 channels x 2 bf16).
void configure_tiles() {
  TileConfig config;
  for (int t = 0; t < 8; ++t) {
    config.colsb[t] = 64;
    config.rows[t] = 16;
  }
  _tile_loadconfig(&config);
}

// Dequantize output channels [16 * tile, 16 * tile + 32) over all K into `out`, laid out as
// [K / 32][2 tiles][16 pairs][16 channels][2]: the B operand of TDPBF16PS for each step of 32 inputs.
// A tile past the weight's last one is zeros.
void dequantize_block(const uint8_t* packed, const c10::Half* scales, int64_t tiles, int64_t k,
                      int64_t weight_groups, int64_t tile, uint16_t* out) {
  const int64_t group = k / weight_groups;
  const __m512i sign = _mm512_set1_epi8(static_cast<char>(0x80));
  // cvtne2ps gives [16 from b | 16 from a]; interleave them into pairs (b[n], a[n]).
  alignas(64) uint16_t order[32];
  for (int n = 0; n < 16; ++n) {
    order[2 * n] = static_cast<uint16_t>(n);
    order[2 * n + 1] = static_cast<uint16_t>(16 + n);
  }
  const __m512i interleave = _mm512_load_si512(order);
  for (int64_t c = 0; c < 2; ++c) {
    for (int64_t quad = 0; quad < k / 4; ++quad) {
      const int64_t step = quad * 4 / kKStep, pair = (quad * 4 % kKStep) / 2;
      uint16_t* dst = out + ((step * 2 + c) * kTile + pair) * kTile * 2;
      if (tile + c >= tiles) {
        std::memset(dst, 0, 2 * kTile * 2 * sizeof(uint16_t));
        continue;
      }
      const __m512i v = _mm512_xor_si512(
          _mm512_loadu_si512(packed + ((tile + c) * (k / 4) + quad) * kTile * 4), sign);  // back to int8
      const __m512 s = _mm512_cvtph_ps(_mm256_loadu_si256(
          reinterpret_cast<const __m256i*>(scales + ((tile + c) * weight_groups + quad * 4 / group) * kTile)));
      const __m512 w0 = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_srai_epi32(_mm512_slli_epi32(v, 24), 24)), s);
      const __m512 w1 = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_srai_epi32(_mm512_slli_epi32(v, 16), 24)), s);
      const __m512 w2 = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_srai_epi32(_mm512_slli_epi32(v, 8), 24)), s);
      const __m512 w3 = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_srai_epi32(v, 24)), s);
      const __m512i lo = _mm512_permutexvar_epi16(interleave, (__m512i)_mm512_cvtne2ps_pbh(w1, w0));
      const __m512i hi = _mm512_permutexvar_epi16(interleave, (__m512i)_mm512_cvtne2ps_pbh(w3, w2));
      _mm512_storeu_si512(dst, lo);
      _mm512_storeu_si512(dst + kTile * 2, hi);
    }
  }
}

// x [M, K] fp32 to bf16 in whole A tiles, [padded_rows / 16][K / 32][16 rows][32], rows past M zero: each
// tile the kernel loads is 1 KB in one piece.
void round_rows(const float* x, int64_t rows, int64_t padded_rows, int64_t k, uint16_t* out) {
  const int64_t steps = k / kKStep;
  at::parallel_for(0, padded_rows, 16, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      uint16_t* dst = out + ((r / kTile) * steps * kTile + r % kTile) * kKStep;
      for (int64_t s = 0; s < steps; ++s, dst += kTile * kKStep) {
        if (r >= rows) {
          std::memset(dst, 0, kKStep * sizeof(uint16_t));
          continue;
        }
        const float* src = x + r * k + s * kKStep;
        const __m512i both = (__m512i)_mm512_cvtne2ps_pbh(_mm512_loadu_ps(src + 16), _mm512_loadu_ps(src));
        _mm512_storeu_si512(dst, both);
      }
    }
  });
}
#endif
}  // namespace

bool amx_matmul_available() {
#ifdef SUPPORTDESK_AMX
  static const bool ok = request_amx();
  return ok;
#else
  return false;
#endif
}

at::Tensor amx_matmul(const at::Tensor& x, const at::Tensor& packed, const at::Tensor& packed_scale,
                      int64_t out_features, const std::optional<at::Tensor>& bias,
                      const std::optional<at::Tensor>& out_rows) {
  TORCH_CHECK(amx_matmul_available(), "this CPU (or build) has no AMX bf16 tiles");
  TORCH_CHECK(x.dim() == 2 && x.scalar_type() == at::kFloat && x.is_contiguous(), "x must be contiguous fp32 [M, K]");
  check_packed_weight(packed, packed_scale);
  const int64_t rows = x.size(0), k = x.size(1), tiles = packed.size(0), weight_groups = packed_scale.size(1);
  TORCH_CHECK(packed.size(1) * 4 == k, "x has ", k, " inputs, the packed weight ", packed.size(1) * 4);
  TORCH_CHECK(k % kKStep == 0, "K must be a multiple of ", kKStep);
  TORCH_CHECK(weight_groups > 0 && k % weight_groups == 0 && (k / weight_groups) % 4 == 0,
              "the weight's groups must split K into multiples of 4");
  TORCH_CHECK(out_features > (tiles - 1) * kTile && out_features <= tiles * kTile, "out_features does not match");
  at::Tensor bias_tensor;
  const float* b = nullptr;
  if (bias.has_value()) {
    bias_tensor = bias->contiguous();
    TORCH_CHECK(bias_tensor.scalar_type() == at::kFloat && bias_tensor.numel() == out_features, "bias must be fp32 [N]");
    b = bias_tensor.data_ptr<float>();
  }
  at::Tensor out = matmul_output(out_rows, rows, out_features, x.options());
#ifdef SUPPORTDESK_AMX
  if (rows == 0) return out;
  const int64_t padded_rows = (rows + kBlockRows - 1) / kBlockRows * kBlockRows;
  std::vector<uint16_t> a(padded_rows * k);
  round_rows(x.data_ptr<float>(), rows, padded_rows, k, a.data());
  const uint8_t* w = packed.data_ptr<uint8_t>();
  const c10::Half* ws = packed_scale.data_ptr<c10::Half>();
  float* y = out.data_ptr<float>();
  const int64_t blocks = (tiles + 1) / 2, steps = k / kKStep;
  at::parallel_for(0, blocks, 1, [&](int64_t begin, int64_t end) {
    std::vector<uint16_t> bbuf(k * kBlockCols);
    alignas(64) float c[kBlockRows * kBlockCols];  // a block at the edge of y
    configure_tiles();
    for (int64_t block = begin; block < end; ++block) {
      dequantize_block(w, ws, tiles, k, weight_groups, block * 2, bbuf.data());
      const int64_t n0 = block * kBlockCols, width = std::min(kBlockCols, out_features - n0);
      for (int64_t row = 0; row < padded_rows; row += kBlockRows) {
        _tile_zero(0);
        _tile_zero(1);
        _tile_zero(2);
        _tile_zero(3);
        const uint16_t* a0 = a.data() + row * k;  // two row tiles' worth: [2][steps][16][32]
        const uint16_t* a1 = a0 + kTile * k;
        for (int64_t s = 0; s < steps; ++s) {
          _tile_loadd(4, a0 + s * kTile * kKStep, kKStep * 2);
          _tile_loadd(5, a1 + s * kTile * kKStep, kKStep * 2);
          _tile_loadd(6, bbuf.data() + (s * 2) * kTile * kTile * 2, 64);
          _tile_loadd(7, bbuf.data() + (s * 2 + 1) * kTile * kTile * 2, 64);
          _tile_dpbf16ps(0, 4, 6);
          _tile_dpbf16ps(1, 4, 7);
          _tile_dpbf16ps(2, 5, 6);
          _tile_dpbf16ps(3, 5, 7);
        }
        if (width == kBlockCols && row + kBlockRows <= rows) {  // a whole block: straight into y
          float* dst = y + row * out_features + n0;
          const int64_t stride = out_features * 4;
          _tile_stored(0, dst, stride);
          _tile_stored(1, dst + kTile, stride);
          _tile_stored(2, dst + kTile * out_features, stride);
          _tile_stored(3, dst + kTile * out_features + kTile, stride);
        } else {
          _tile_stored(0, c, kBlockCols * 4);
          _tile_stored(1, c + kTile, kBlockCols * 4);
          _tile_stored(2, c + kTile * kBlockCols, kBlockCols * 4);
          _tile_stored(3, c + kTile * kBlockCols + kTile, kBlockCols * 4);
          for (int64_t r = 0; r < kBlockRows && row + r < rows; ++r)
            std::memcpy(y + (row + r) * out_features + n0, c + r * kBlockCols, width * sizeof(float));
        }
      }
    }
    _tile_release();
  });
  if (b) {
    at::parallel_for(0, rows, 16, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        float* dst = y + r * out_features;
#pragma omp simd
        for (int64_t i = 0; i < out_features; ++i) dst[i] += b[i];
      }
    });
  }
#endif
  return out;
}
