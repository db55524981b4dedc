#pragma once
/// Four nodes at once: the SIMD lane type of the batched node updates (theory §5, §6; see
/// docs/performance.md). A Lane holds one double of four different nodes; every operation acts
/// lane by lane with IEEE double arithmetic, so a node's result does not depend on the lane it
/// sits in, on its neighbours, or on the instruction set a function is compiled for (SSE2 pairs
/// or AVX2; no fused multiply-add is enabled, hence no contraction). GCC/Clang vector extensions.

/// Every function on lanes is forced inline: the AVX2 and baseline builds of the march kernels
/// (march/slab_lanes.cpp, noether/slab_terms_lanes.cpp) must each hold their own copy, as a Lane
/// passed by value to an out-of-line function would cross between two calling conventions; each
/// kernel is flattened (FIELD_LANES_FLATTEN). FIELD_LANES_X86: the AVX2 build exists.
///
/// FIELD_LANES_BASELINE_ONLY (defined by CMake in a sanitizer build, FIELD_SANITIZE): the kernels
/// are built once, for the baseline, and the compiler chooses what to inline. The same source and
/// the same memory accesses are instrumented (an AVX2 lane reads the 32 bytes two SSE2 halves
/// read), and the two largest files of the instrumented build compile in a fraction of the time
/// (slab_lanes.cpp: 14 CPU-s instead of 72, slab_terms_lanes.cpp 9 instead of 55, GCC 12;
/// README.md, "Build by hand").
/// SlabLanes::avx2_available() is false there.
#if defined(FIELD_LANES_BASELINE_ONLY)
#define FIELD_LANES_INLINE inline
#define FIELD_LANES_FLATTEN
#define FIELD_LANES_X86 0
#else
#define FIELD_LANES_INLINE inline __attribute__((always_inline))
#define FIELD_LANES_FLATTEN __attribute__((flatten))
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define FIELD_LANES_X86 1
#else
#define FIELD_LANES_X86 0
#endif
#endif

namespace field::lanes {

inline constexpr int kWidth = 4;
typedef double Lane __attribute__((vector_size(8 * kWidth)));
/// Result of a lane comparison: all bits set where true, zero where false.
typedef long long Mask __attribute__((vector_size(8 * kWidth)));

FIELD_LANES_INLINE Lane splat(double x) {
  return Lane{x, x, x, x};
}
FIELD_LANES_INLINE Mask splat_mask(bool b) {
  const long long m = b ? -1 : 0;
  return Mask{m, m, m, m};
}
/// a where m is set, b elsewhere.
FIELD_LANES_INLINE Lane select(Mask m, Lane a, Lane b) {
  return (Lane)(((Mask)a & m) | ((Mask)b & ~m));
}
FIELD_LANES_INLINE Mask select(Mask m, Mask a, Mask b) {
  return (a & m) | (b & ~m);
}
/// |x|: the sign bit cleared.
FIELD_LANES_INLINE Lane abs(Lane x) {
  return (Lane)((Mask)x & ~(Mask)splat(-0.0));
}
/// Larger of a and b (b where a is NaN).
FIELD_LANES_INLINE Lane max(Lane a, Lane b) {
  return select(a > b, a, b);
}
/// Set where x is neither infinite nor NaN.
FIELD_LANES_INLINE Mask finite(Lane x) {
  return (x - x) == splat(0.0);
}
FIELD_LANES_INLINE bool any(Mask m) {
  return (m[0] | m[1] | m[2] | m[3]) != 0;
}
FIELD_LANES_INLINE bool all(Mask m) {
  return (m[0] & m[1] & m[2] & m[3]) == -1;
}

}  // namespace field::lanes
