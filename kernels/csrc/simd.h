// One register of fp32 lanes, as wide as the build's instruction set: sixteen with AVX-512, eight with AVX2
// (with FMA and F16C, x86-64-v3). The kernels write each SIMD loop once against these helpers, and the
// build picks the width; SUPPORTDESK_SIMD is undefined where neither is there, and the kernels' portable
// loops run alone. Every helper is one instruction or a fixed sequence, so a lane's bits never depend on
// the other lanes.
#pragma once
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>

#include <cstdint>
#include <cstring>

#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__) && defined(__F16C__))
#define SUPPORTDESK_SIMD 1
#include <immintrin.h>

namespace simd {

#if defined(__AVX512F__)
constexpr int kWidth = 16;      // fp32 lanes per register
constexpr int kRegisters = 32;  // vector registers, for sizing register blocks
using Floats = __m512;
using Ints = __m512i;
using Mask = __mmask16;

inline Floats zero() { return _mm512_setzero_ps(); }
inline Floats set1(float x) { return _mm512_set1_ps(x); }
inline Floats load(const float* p) { return _mm512_loadu_ps(p); }
inline Floats load(const c10::Half* p) { return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))); }
inline Floats load(const c10::BFloat16* p) {
  const __m512i wide = _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  return _mm512_castsi512_ps(_mm512_slli_epi32(wide, 16));
}
inline void store(float* p, Floats v) { _mm512_storeu_ps(p, v); }
inline Floats add(Floats a, Floats b) { return _mm512_add_ps(a, b); }
inline Floats sub(Floats a, Floats b) { return _mm512_sub_ps(a, b); }
inline Floats mul(Floats a, Floats b) { return _mm512_mul_ps(a, b); }
inline Floats div(Floats a, Floats b) { return _mm512_div_ps(a, b); }
inline Floats max(Floats a, Floats b) { return _mm512_max_ps(a, b); }
inline Floats min(Floats a, Floats b) { return _mm512_min_ps(a, b); }
inline Floats abs(Floats a) { return _mm512_abs_ps(a); }
inline Floats fmadd(Floats a, Floats b, Floats c) { return _mm512_fmadd_ps(a, b, c); }    // a * b + c
inline Floats fnmadd(Floats a, Floats b, Floats c) { return _mm512_fnmadd_ps(a, b, c); }  // c - a * b
inline Floats round_nearest(Floats x) { return _mm512_roundscale_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
// p * 2^n for whole n in [-127, 128].
inline Floats times_pow2(Floats p, Floats n) { return _mm512_scalef_ps(p, n); }
inline float reduce_max(Floats v) { return _mm512_reduce_max_ps(v); }
inline float first_lane(Floats v) { return _mm512_cvtss_f32(v); }

inline Mask less(Floats a, Floats b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
inline Mask greater(Floats a, Floats b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
inline Mask is_nan(Floats a) { return _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q); }
inline Mask either(Mask a, Mask b) { return a | b; }
inline Mask both(Mask a, Mask b) { return a & b; }
inline bool any(Mask m) { return m != 0; }
inline Floats select(Mask m, Floats if_set, Floats otherwise) { return _mm512_mask_blend_ps(m, otherwise, if_set); }
inline Floats zero_unless(Mask m, Floats v) { return _mm512_maskz_mov_ps(m, v); }

inline Ints set1(int32_t x) { return _mm512_set1_epi32(x); }
inline Ints load(const int32_t* p) { return _mm512_loadu_si512(p); }
inline void store(int32_t* p, Ints v) { _mm512_storeu_si512(p, v); }
inline Ints add(Ints a, Ints b) { return _mm512_add_epi32(a, b); }
inline Ints iota(int32_t start) {  // start, start + 1, ...
  return _mm512_add_epi32(_mm512_set1_epi32(start), _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}
inline Ints select(Mask m, Ints if_set, Ints otherwise) { return _mm512_mask_blend_epi32(m, otherwise, if_set); }
inline Mask less(Ints a, Ints b) { return _mm512_cmplt_epi32_mask(a, b); }
inline Mask less_equal(Ints a, Ints b) { return _mm512_cmple_epi32_mask(a, b); }
inline Ints to_ints_nearest(Floats x) { return _mm512_cvt_roundps_epi32(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
inline int32_t reduce_add(Ints v) { return _mm512_reduce_add_epi32(v); }
// The lanes as int8 (each must be in [-128, 127]).
inline void store_int8(int8_t* p, Ints v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm512_cvtepi32_epi8(v)); }

// Sixteen rows of sixteen floats, transposed in registers: afterwards r[j] holds element j of row i in lane i.
inline void transpose(Floats* r) {
  Floats t[16];
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int i = 0; i < 16; i += 4) {
    const __m512d a = _mm512_castps_pd(t[i]), b = _mm512_castps_pd(t[i + 1]);
    const __m512d c = _mm512_castps_pd(t[i + 2]), d = _mm512_castps_pd(t[i + 3]);
    r[i] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, c));
    r[i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, c));
    r[i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(b, d));
    r[i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(b, d));
  }
  for (int i = 0; i < 4; ++i) {
    t[i] = _mm512_shuffle_f32x4(r[i], r[i + 4], 0x88);
    t[i + 4] = _mm512_shuffle_f32x4(r[i], r[i + 4], 0xdd);
    t[i + 8] = _mm512_shuffle_f32x4(r[i + 8], r[i + 12], 0x88);
    t[i + 12] = _mm512_shuffle_f32x4(r[i + 8], r[i + 12], 0xdd);
  }
  for (int i = 0; i < 8; ++i) {
    r[i] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0x88);
    r[i + 8] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0xdd);
  }
}
#else
constexpr int kWidth = 8;
constexpr int kRegisters = 16;
using Floats = __m256;
using Ints = __m256i;
using Mask = __m256;  // all bits set in the lanes that are in

inline Floats zero() { return _mm256_setzero_ps(); }
inline Floats set1(float x) { return _mm256_set1_ps(x); }
inline Floats load(const float* p) { return _mm256_loadu_ps(p); }
inline Floats load(const c10::Half* p) { return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))); }
inline Floats load(const c10::BFloat16* p) {
  const __m256i wide = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  return _mm256_castsi256_ps(_mm256_slli_epi32(wide, 16));
}
inline void store(float* p, Floats v) { _mm256_storeu_ps(p, v); }
inline Floats add(Floats a, Floats b) { return _mm256_add_ps(a, b); }
inline Floats sub(Floats a, Floats b) { return _mm256_sub_ps(a, b); }
inline Floats mul(Floats a, Floats b) { return _mm256_mul_ps(a, b); }
inline Floats div(Floats a, Floats b) { return _mm256_div_ps(a, b); }
inline Floats max(Floats a, Floats b) { return _mm256_max_ps(a, b); }
inline Floats min(Floats a, Floats b) { return _mm256_min_ps(a, b); }
inline Floats abs(Floats a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.f), a); }
inline Floats fmadd(Floats a, Floats b, Floats c) { return _mm256_fmadd_ps(a, b, c); }
inline Floats fnmadd(Floats a, Floats b, Floats c) { return _mm256_fnmadd_ps(a, b, c); }
inline Floats round_nearest(Floats x) { return _mm256_round_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
// p * 2^n, 2^n built in the exponent field: 2^-127 reads as 0 and 2^128 as inf (exp's callers can take that).
inline Floats times_pow2(Floats p, Floats n) {
  const __m256i biased = _mm256_max_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)),
                                          _mm256_setzero_si256());
  return _mm256_mul_ps(p, _mm256_castsi256_ps(_mm256_slli_epi32(biased, 23)));
}
inline float first_lane(Floats v) { return _mm256_cvtss_f32(v); }
inline float reduce_max(Floats v) {
  __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  m = _mm_max_ps(m, _mm_movehl_ps(m, m));
  return _mm_cvtss_f32(_mm_max_ss(m, _mm_shuffle_ps(m, m, 1)));
}

inline Mask less(Floats a, Floats b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
inline Mask greater(Floats a, Floats b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
inline Mask is_nan(Floats a) { return _mm256_cmp_ps(a, a, _CMP_UNORD_Q); }
inline Mask either(Mask a, Mask b) { return _mm256_or_ps(a, b); }
inline Mask both(Mask a, Mask b) { return _mm256_and_ps(a, b); }
inline bool any(Mask m) { return _mm256_movemask_ps(m) != 0; }
inline Floats select(Mask m, Floats if_set, Floats otherwise) { return _mm256_blendv_ps(otherwise, if_set, m); }
inline Floats zero_unless(Mask m, Floats v) { return _mm256_and_ps(m, v); }

inline Ints set1(int32_t x) { return _mm256_set1_epi32(x); }
inline Ints load(const int32_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
inline void store(int32_t* p, Ints v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
inline Ints add(Ints a, Ints b) { return _mm256_add_epi32(a, b); }
inline Ints iota(int32_t start) { return _mm256_add_epi32(_mm256_set1_epi32(start), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)); }
inline Ints select(Mask m, Ints if_set, Ints otherwise) {
  return _mm256_blendv_epi8(otherwise, if_set, _mm256_castps_si256(m));
}
inline Mask less(Ints a, Ints b) { return _mm256_castsi256_ps(_mm256_cmpgt_epi32(b, a)); }
inline Mask less_equal(Ints a, Ints b) {
  return _mm256_castsi256_ps(_mm256_xor_si256(_mm256_cmpgt_epi32(a, b), _mm256_set1_epi32(-1)));
}
inline Ints to_ints_nearest(Floats x) { return _mm256_cvtps_epi32(x); }  // MXCSR's default: to nearest even
inline int32_t reduce_add(Ints v) {
  __m128i t = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  t = _mm_add_epi32(t, _mm_shuffle_epi32(t, _MM_SHUFFLE(1, 0, 3, 2)));
  return _mm_cvtsi128_si32(_mm_add_epi32(t, _mm_shuffle_epi32(t, _MM_SHUFFLE(2, 3, 0, 1))));
}
inline void store_int8(int8_t* p, Ints v) {
  const __m256i words = _mm256_packs_epi32(v, v);          // per 128-bit half: its four lanes, twice
  const __m256i bytes = _mm256_packs_epi16(words, words);  // the same as bytes (in range: exact)
  const int32_t low = _mm_cvtsi128_si32(_mm256_castsi256_si128(bytes));
  const int32_t high = _mm_cvtsi128_si32(_mm256_extracti128_si256(bytes, 1));
  std::memcpy(p, &low, 4);
  std::memcpy(p + 4, &high, 4);
}

// Eight rows of eight floats, transposed in registers: afterwards r[j] holds element j of row i in lane i.
inline void transpose(Floats* r) {
  Floats t[8], u[8];
  for (int i = 0; i < 8; i += 2) {  // t[i] = a0 b0 a1 b1 | a4 b4 a5 b5, t[i + 1] = a2 b2 a3 b3 | a6 b6 a7 b7
    t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int i = 0; i < 8; i += 4) {  // u[i + j] = element j (and j + 4) of four rows
    u[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
    u[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
    u[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
    u[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
  }
  for (int j = 0; j < 4; ++j) {
    r[j] = _mm256_permute2f128_ps(u[j], u[j + 4], 0x20);
    r[j + 4] = _mm256_permute2f128_ps(u[j], u[j + 4], 0x31);
  }
}
#endif

// e^x lane by lane, within 2 ulp of expf: x = n ln2 + r, |r| <= ln2 / 2 (Cody-Waite: ln2 in two parts), a
// degree-6 polynomial for e^r (Cephes' coefficients), times 2^n. Exactly 0 below -87 (where expf turns
// denormal; -inf too), inf from about 88.7.
inline Floats exp(Floats x) {
  const Floats clamped = min(max(x, set1(-88.f)), set1(89.f));
  const Floats n = round_nearest(mul(clamped, set1(1.44269504088896341f)));
  Floats r = fnmadd(n, set1(0.693359375f), clamped);
  r = fnmadd(n, set1(-2.12194440e-4f), r);
  Floats p = set1(1.9875691500e-4f);
  p = fmadd(p, r, set1(1.3981999507e-3f));
  p = fmadd(p, r, set1(8.3334519073e-3f));
  p = fmadd(p, r, set1(4.1665795894e-2f));
  p = fmadd(p, r, set1(1.6666665459e-1f));
  p = fmadd(p, r, set1(5.0000001201e-1f));
  p = fmadd(p, mul(r, r), add(r, set1(1.f)));
  return zero_unless(less(set1(-87.f), x), times_pow2(p, n));
}

}  // namespace simd
#endif
