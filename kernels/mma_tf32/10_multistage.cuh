// mma_tf32/10_multistage. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::mma_tf32_10_multistage {

inline constexpr const char* kTitle = "4-stage cp.async pipeline, any shape";
inline constexpr const char* kAdds =
    "09 with a 4-stage cp.async pipeline: slices k+1..k+3 are in flight while slice k is computed, so a slow "
    "copy (an L2 miss, DRAM queueing) stalls no warp unless it is three slices late; 09 waited on the very "
    "next slice. Copies are spread over three k-steps; blocks inside C copy with no bounds checks at all (a "
    "quarter fewer instructions than checking per slice). Any shape (zero-fill).";

}  // namespace gs::mma_tf32_10_multistage

#include <cstdint>

#include "kernels/gemm_args.cuh"
#include "kernels/mma_tf32/common.cuh"
#include "kernels/probe.cuh"

namespace gs::mma_tf32_10_multistage {

using namespace gs::mma_tf32;

inline constexpr int kBM = 256, kBN = 128;          // tile of C per block
inline constexpr int kBK = 32;                      // k-slice of A and B per stage
inline constexpr int kWarpsM = 4, kWarpsN = 2;      // warp grid over the block tile
inline constexpr int kWM = kBM / kWarpsM;           // 64 x 64 tile of C per warp
inline constexpr int kWN = kBN / kWarpsN;
inline constexpr int kTilesM = kWM / 16;            // 4 x 8 mma tiles of 16x8 per warp
inline constexpr int kTilesN = kWN / 8;
inline constexpr int kSteps = kBK / 8;              // 4 mma k-steps per k-slice
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;
inline constexpr int kStages = 4;                   // slices in flight + the one being read (variants: 2, 3)
inline constexpr int kAChunks = kBM * kBK / 4 / kThreads;  // 8 16-byte chunks of A per thread per slice
inline constexpr int kBChunks = kBK * kBN / 4 / kThreads;  // 4 of B
// A slice's 12 copies per thread are issued 4 per k-step over k-steps 0..2 (the wait comes at k-step 3), so no
// k-step stalls its warp's mma for a burst of 12 copies and their address arithmetic.
inline constexpr int kCopyParts = kSteps - 1;
inline constexpr int kChunksPerPart = (kAChunks + kBChunks) / kCopyParts;
static_assert((kAChunks + kBChunks) % kCopyParts == 0, "copies split evenly over the k-steps before the wait");
// Unpadded stages, 16-byte chunks XOR-permuted per row:
//   As word (m, k) at m * BK + (k ^ 4 (m % 8))          as in 09: conflict-free cp.async and ldmatrix
//   Bs word (k, n) at k * BN + (n ^ 8 (k % 4))         as in 09: conflict-free cp.async and LDS.32
inline constexpr int kAsFloats = kBM * kBK;         // one stage: As (BM, BK) then Bs (BK, BN)
inline constexpr int kStageFloats = kAsFloats + kBK * kBN;
inline constexpr int kSmemBytes = kStages * kStageFloats * 4;  // 196608 of the 227 KB a block may have
// Shared memory of an S-stage pipeline (the variants [stages=S]).
template <int S>
constexpr int smem_bytes() {
  return S * kStageFloats * 4;
}
inline constexpr int kMaxLogTile = 5;               // cutlass:5 swizzle as in 07
// Any shape. Fast path when K and N are multiples of 4 and A, B are 16-byte aligned (then every 16-byte
// chunk of a row is wholly inside or wholly outside the matrix); otherwise 4-byte copies, same layout.
inline constexpr const char* kShapeRule = "";
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0; }

enum Stage : int { kPrologue, kWait, kMma, kEpilogue };
inline constexpr const char* kStageNames[] = {"prologue", "wait", "mma", "epilogue"};
enum Site : int { kAsCopy, kBsCopy, kAsFrag, kBsFrag };
inline constexpr const char* kSmemSites[] = {"As cp.async", "Bs cp.async", "As ldmatrix (frag)", "Bs load (frag)"};

// What one thread copies of every slice, fixed for the block.
struct CopyPlan {
  const float* a_src;  // kVec: its A chunk 0 of slice 0 (row tile_m * BM + tid / 8, column a_col);
                       // chunk i is 32 i rows down, slice kt BK further right
  const float* b_src;  // kVec: its B chunk 0 of slice 0 (row tid / 32, column tile_n * BN + tid % 32 * 4);
                       // chunk i is 8 i rows down, slice kt BK rows further down
  int a_col, b_row0;   // slice column of its A chunks; slice row of its B chunk 0
  unsigned in_mn;      // bit i < 8: A chunk i's row < M; bit 8: its B column < N
  bool full_mn;        // the block's whole tile is inside C (all of in_mn set for every thread)
  int as_dst, bs_dst;  // its chunk 0 in a stage, permuted
  size_t a_rows32;     // 32 rows of A (K floats each): A chunk i + 1 is this far past chunk i
  size_t b_rows8;      // 8 rows of B (N floats each): likewise for B's chunks
};

// Interior blocks (whole tile inside C, K a multiple of BK): chunks j / 4 == kPart of the thread's 8 (A) + 4 (B)
// of the slice starting at a_slice (its A chunk 0) and b_slice (its B chunk 0), kPart < 0: all 12. No bounds
// check, no substitute address, no zero-fill size: per chunk one 64-bit add and one cp.async. (The first
// version of this rung decided full / partial per slice inside the loop; the compiler kept both paths under
// predicates, about 45 issue slots per 4 copies. Nsight Compute, bench/NOTES.md.)
template <int kPart, class Probe>
__device__ __forceinline__ void copy_fast(const CopyPlan& cp, const float* a_slice, const float* b_slice,
                                          float* stage, Probe& probe) {
#pragma unroll
  for (int j = 0; j < kAChunks + kBChunks; ++j) {
    if (kPart >= 0 && j / kChunksPerPart != kPart) continue;
    if (j < kAChunks) {
      float* as = stage + cp.as_dst + j * 32 * kBK;  // 32 rows further down, same m % 8
      GS_PROBE(probe.gmem(kGmemA, a_slice + j * cp.a_rows32, 16, GmemKind::kCpAsync));
      cp_async_16(as, a_slice + j * cp.a_rows32);
      GS_PROBE(probe.smem(kAsCopy, as, 16, SmemKind::kCpAsync));
    } else {
      const int i = j - kAChunks;
      float* bs = stage + cp.bs_dst + i * 8 * kBN;  // 8 rows further down, same k % 4
      GS_PROBE(probe.gmem(kGmemB, b_slice + i * cp.b_rows8, 16, GmemKind::kCpAsync));
      cp_async_16(bs, b_slice + i * cp.b_rows8);
      GS_PROBE(probe.smem(kBsCopy, bs, 16, SmemKind::kCpAsync));
    }
  }
}

// kVec copies of chunks j of the thread's 8 (A) + 4 (B) with j / 4 == kPart (kPart < 0: all 12). kFull: the
// slice lies wholly inside A and B (every slice of an interior block), so no chunk needs a bounds check, a
// substitute address or a zero-fill size: an address and a cp.async per chunk.
template <bool kFull, int kPart, class Probe>
__device__ __forceinline__ void copy_chunks(const GemmArgs<float, float>& g, const CopyPlan& cp, int k0, float* stage,
                                            Probe& probe) {
  const bool a_k_ok = k0 + cp.a_col < g.k;  // K % 4 == 0: the chunk is wholly inside or outside
  const bool b_n_ok = cp.in_mn >> 8 & 1u;   // N % 4 == 0: likewise
#pragma unroll
  for (int j = 0; j < kAChunks + kBChunks; ++j) {
    if (kPart >= 0 && j / kChunksPerPart != kPart) continue;
    if (j < kAChunks) {
      const int i = j;
      float* as = stage + cp.as_dst + i * 32 * kBK;  // 32 rows further down, same m % 8
      if (kFull) {
        GS_PROBE(probe.gmem(kGmemA, cp.a_src + k0 + static_cast<size_t>(i * 32) * g.k, 16, GmemKind::kCpAsync));
        cp_async_16(as, cp.a_src + k0 + static_cast<size_t>(i * 32) * g.k);
      } else {
        const bool ok = a_k_ok && (cp.in_mn >> i & 1u);
        GS_PROBE(probe.gmem(kGmemA, cp.a_src + k0 + static_cast<size_t>(i * 32) * g.k, ok ? 16 : 0, GmemKind::kCpAsync));
        cp_async_16_zfill(as, ok ? cp.a_src + k0 + static_cast<size_t>(i * 32) * g.k : g.a, ok);
      }
      GS_PROBE(probe.smem(kAsCopy, as, 16, SmemKind::kCpAsync));
    } else {
      const int i = j - kAChunks;
      float* bs = stage + cp.bs_dst + i * 8 * kBN;  // 8 rows further down, same k % 4
      if (kFull) {
        GS_PROBE(probe.gmem(kGmemB, cp.b_src + static_cast<size_t>(k0 + 8 * i) * g.n, 16, GmemKind::kCpAsync));
        cp_async_16(bs, cp.b_src + static_cast<size_t>(k0 + 8 * i) * g.n);
      } else {
        const bool ok = b_n_ok && k0 + cp.b_row0 + 8 * i < g.k;
        GS_PROBE(probe.gmem(kGmemB, cp.b_src + static_cast<size_t>(k0 + 8 * i) * g.n, ok ? 16 : 0, GmemKind::kCpAsync));
        cp_async_16_zfill(bs, ok ? cp.b_src + static_cast<size_t>(k0 + 8 * i) * g.n : g.b, ok);
      }
      GS_PROBE(probe.smem(kBsCopy, bs, 16, SmemKind::kCpAsync));
    }
  }
}

// Issues (does not wait for) part of the copy of slice kt into one stage. Anything outside A or B is
// zero-filled: rows past M or columns past N give C elements the epilogue drops, and k past K adds 0 * 0.
// kVec: chunks j / 4 == kPart of the thread's 12 (kPart < 0: all); coalesced rows and conflict-free stores as
// in 09.
// !kVec: the whole slice at kPart <= 0, nothing otherwise, in 4-byte copies (32 of A and 16 of B per thread);
// a warp copies one 128-byte row of A or a 32-float run of a B row. Slow, but only unaligned shapes take it.
template <bool kVec, int kPart, class Probe>
__device__ __forceinline__ void load_slice(const GemmArgs<float, float>& g, const CopyPlan& cp, int kt, float* stage,
                                           int tile_m, int tile_n, int tid, Probe& probe) {
  const int k0 = kt * kBK;  // first k of the slice
  if constexpr (kVec) {
    if (cp.full_mn && k0 + kBK <= g.k) {
      copy_chunks<true, kPart>(g, cp, k0, stage, probe);
    } else {
      copy_chunks<false, kPart>(g, cp, k0, stage, probe);
    }
  } else {
    if (kPart > 0) return;
    const int a_c = tid % 32;                              // slice column; rows tid / 32 + 8 j
    const int a_r0 = tid / 32;
    const bool a_k_ok = k0 + a_c < g.k;
    const float* a = g.a + static_cast<size_t>(tile_m) * kBM * g.k + k0 + a_c;  // A(tile row 0, k0 + a_c)
    float* as = stage + a_r0 * kBK + (a_c ^ a_r0 % 8 * 4);  // (r % 8 is a_r0 % 8 for every j)
#pragma unroll 1
    for (int j = 0; j < kBM / 8; ++j) {
      const int r = a_r0 + 8 * j;
      const bool ok = a_k_ok && tile_m * kBM + r < g.m;
      GS_PROBE(probe.gmem(kGmemA, a + static_cast<size_t>(r) * g.k, ok ? 4 : 0, GmemKind::kCpAsync));
      cp_async_4_zfill(as + 8 * j * kBK, ok ? a + static_cast<size_t>(r) * g.k : g.a, ok);
      GS_PROBE(probe.smem(kAsCopy, as + 8 * j * kBK, 4, SmemKind::kCpAsync));
    }
    const int b_c = tid % kBN;                             // tile column; slice rows tid / 128 + 2 j
    const int b_r0 = tid / kBN;
    const bool b_n_ok = tile_n * kBN + b_c < g.n;
    const float* b = g.b + static_cast<size_t>(k0) * g.n + tile_n * kBN + b_c;  // B(k0, column)
#pragma unroll 1
    for (int j = 0; j < kBK / 2; ++j) {
      const int r = b_r0 + 2 * j;
      const bool ok = b_n_ok && k0 + r < g.k;
      float* bs = stage + kAsFloats + r * kBN + (b_c ^ r % 4 * 8);
      GS_PROBE(probe.gmem(kGmemB, b + static_cast<size_t>(r) * g.n, ok ? 4 : 0, GmemKind::kCpAsync));
      cp_async_4_zfill(bs, ok ? b + static_cast<size_t>(r) * g.n : g.b, ok);
      GS_PROBE(probe.smem(kBsCopy, bs, 4, SmemKind::kCpAsync));
    }
  }
}

// One k-step's fragments of the warp: 4 A (16x8) and 8 B (8x8), raw fp32 bits (truncated by the mma).
struct Frags {
  uint32_t a[kTilesM][4];
  uint32_t b[kTilesN][2];
};

// Where a lane's fragment loads start in a stage; everything else is a compile-time offset from them.
struct FragPlan {
  int a_ks[kSteps];  // its ldmatrix row of tile mi = 0 at k-step ks: row (wm0 + l % 8 + 8 (l / 8 % 2)) (quarter
                     // l / 8, row l % 8), chunk (2 ks + l / 16) ^ (l % 8); tile mi is 16 mi rows further down
  int b_grp[4];      // its b_0 of k-step 0 in tile ni = j: Bs(tc, wn0 + 8 (j ^ tc) + gr). Row k's permutation
                     // (k % 4 = tc in rows tc + 4 i + 8 ks) puts tile ni's 8 columns at group ni ^ tc = (ni & 4) +
                     // ((ni & 3) ^ tc): tile ni is at b_grp[ni & 3] + 8 (ni & 4), four registers for eight tiles
};

// As in 09: A by ldmatrix.x4, B by LDS.32 straight into the mma's register pair, raw fp32 bits (06). (A B pair
// b_0, b_1 sits in two rows of Bs, so no wider load can fill it.)
template <class Probe>
__device__ __forceinline__ void load_frags(Frags& f, const float* stage, const FragPlan& fp, int ks, Probe& probe) {
#pragma unroll
  for (int mi = 0; mi < kTilesM; ++mi) {
    const float* p = stage + fp.a_ks[ks] + mi * 16 * kBK;
    ldmatrix_x4(f.a[mi], p);
    GS_PROBE(probe.smem(kAsFrag, p, 16, SmemKind::kLdmatrix));
  }
#pragma unroll
  for (int ni = 0; ni < kTilesN; ++ni) {
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const float* p = stage + fp.b_grp[ni & 3] + 8 * (ni & 4) + (ks * 8 + 4 * i) * kBN;  // B(tc + 4i, gr) of ni
      f.b[ni][i] = *reinterpret_cast<const uint32_t*>(p);
      GS_PROBE(probe.smem(kBsFrag, p, 4, SmemKind::kLoad));
    }
  }
}

__device__ __forceinline__ void mma_all(float (&acc)[kTilesM][kTilesN][4], const Frags& f) {
#pragma unroll
  for (int mi = 0; mi < kTilesM; ++mi) {
#pragma unroll
    for (int ni = 0; ni < kTilesN; ++ni) mma_m16n8k8(acc[mi][ni], f.a[mi], f.b[ni]);
  }
}

// Step: 4 cp.async stages, copies spread over three k-steps, unchecked inside C.
// The pipeline over all slices. kFast: an interior block (copy_fast, no checks); otherwise load_slice, which
// checks each chunk against the edges of A and B. Instantiated twice, so each loop holds one copy path only.
template <bool kFast, bool kVec, int S, class Probe>
__device__ __forceinline__ void k_loop(const GemmArgs<float, float>& g, const CopyPlan& cp, const FragPlan& fp,
                                       float* smem, int tile_m, int tile_n, int tid,
                                       float (&acc)[kTilesM][kTilesN][4], Probe& probe) {
  const int num_kt = (g.k + kBK - 1) / kBK;  // the last slice may be partial: zero-filled
  const float* a_next = cp.a_src;            // kFast: chunk 0 of the next slice to copy, A and B
  const float* b_next = cp.b_src;
  const size_t b_slice = static_cast<size_t>(kBK) * g.n;  // BK rows of B
  Frags frag[2];  // frag[ks % 2] feeds the mma of k-step ks while frag[(ks + 1) % 2] loads

  // Prologue: slices 0 .. S-2 in flight, one commit group each (empty past the last slice, so that
  // "group j holds slice j" stays true and the wait count below is the same for every iteration).
  GS_PROBE(probe.stage(kPrologue));
#pragma unroll
  for (int s = 0; s < S - 1; ++s) {
    if (s < num_kt) {
      if (kFast) {
        copy_fast<-1>(cp, a_next, b_next, smem + s * kStageFloats, probe);
        a_next += kBK;
        b_next += b_slice;
      } else {
        load_slice<kVec, -1>(g, cp, s, smem + s * kStageFloats, tile_m, tile_n, tid, probe);
      }
    }
    cp_async_commit();
  }
  cp_async_wait<S - 2>();  // group 0 (slice 0) complete; S-2 younger groups may still fly
  GS_PROBE(probe.mark(Mark::kCpAsyncWait));
  __syncthreads();
  GS_PROBE(probe.mark(Mark::kBarrier));
  load_frags(frag[0], smem, fp, 0, probe);

  GS_PROBE(probe.stage(kMma));
  float* const last = smem + (S - 1) * kStageFloats;
  float* rd = smem;    // stage holding slice kt (kt % S)
  float* wr = last;    // stage (kt - 1) % S: slice kt + S - 1 goes there
  for (int kt = 0; kt < num_kt; ++kt) {
    GS_PROBE(probe.iteration(kt));
    const bool copy = kt + S - 1 < num_kt;  // past the last slice nothing is copied
#pragma unroll
    for (int ks = 0; ks < kSteps; ++ks) {
      if (ks == kSteps - 1) {
        // The last k-step reads fragments of slice kt + 1. Committed so far: S - 1 + (kt + 1) groups,
        // the youngest holding slice kt + S - 1; letting S - 2 stay in flight completes slice kt + 1.
        // The barrier publishes every thread's copies and marks slice kt as fully read.
        GS_PROBE(probe.stage(kWait));
        cp_async_wait<S - 2>();
        GS_PROBE(probe.mark(Mark::kCpAsyncWait));
        __syncthreads();
        GS_PROBE(probe.mark(Mark::kBarrier));
        GS_PROBE(probe.stage(kMma));
        wr = rd;
        rd = rd == last ? smem : rd + kStageFloats;
      }
      load_frags(frag[(ks + 1) % 2], rd, fp, (ks + 1) % kSteps, probe);
      if (ks < kCopyParts) {
        // wr held slice kt - 1, last read before the previous iteration's barrier. The empty group past the
        // last slice keeps the accounting uniform.
        if (copy) {
          if (kFast) {
            if (ks == 0) copy_fast<0>(cp, a_next, b_next, wr, probe);
            if (ks == 1) copy_fast<1>(cp, a_next, b_next, wr, probe);
            if (ks == 2) copy_fast<2>(cp, a_next, b_next, wr, probe);
          } else {
            if (ks == 0) load_slice<kVec, 0>(g, cp, kt + S - 1, wr, tile_m, tile_n, tid, probe);
            if (ks == 1) load_slice<kVec, 1>(g, cp, kt + S - 1, wr, tile_m, tile_n, tid, probe);
            if (ks == 2) load_slice<kVec, 2>(g, cp, kt + S - 1, wr, tile_m, tile_n, tid, probe);
          }
        }
        if (ks == kCopyParts - 1) {
          cp_async_commit();
          a_next += kBK;
          b_next += b_slice;
        }
      }
      mma_all(acc, frag[ks % 2]);
    }
  }
  cp_async_wait<0>();  // only empty groups remain; nothing may be in flight when the block exits
  GS_PROBE(probe.mark(Mark::kCpAsyncWait));
}

template <class Probe, bool kVec, int S = kStages>
__global__ void __launch_bounds__(kThreads, 1) kernel(GemmArgs<float, float> g, BlockOrder order, Probe probe) {
  extern __shared__ __align__(16) float smem[];  // kStages x [As | Bs]

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int gr = lane / 4, tc = lane % 4;  // PTX groupID and threadID_in_group (common.cuh)
  const int wm0 = warp / kWarpsN * kWM;    // warp's tile inside the block tile: rows wm0.., cols wn0..
  const int wn0 = warp % kWarpsN * kWN;
  // cutlass:L swizzle (07); partial tiles at the bottom and right edges are tiles like any other.
  const int tiles_m = (g.m + kBM - 1) / kBM, tiles_n = (g.n + kBN - 1) / kBN;  // edge tiles overhang C
  int tile_m, tile_n;  // the block order of the rung or its variant [order=...] (kernels/block_order.cuh)
  if (!order_tile(order, tiles_m, tiles_n, &tile_m, &tile_n)) return;  // cutlass's last band overhangs C
  GS_PROBE(probe.block_begin(tile_m, tile_n));

  CopyPlan cp;
  cp.a_col = tid % 8 * 4;
  cp.b_row0 = tid / 32;
  const int a_row0 = tile_m * kBM + tid / 8, b_col = tile_n * kBN + tid % 32 * 4;
  cp.a_src = g.a + static_cast<size_t>(a_row0) * g.k + cp.a_col;  // only dereferenced when in bounds
  cp.b_src = g.b + static_cast<size_t>(cp.b_row0) * g.n + b_col;
  cp.a_rows32 = static_cast<size_t>(32) * g.k;
  cp.b_rows8 = static_cast<size_t>(8) * g.n;
  cp.in_mn = b_col < g.n ? 1u << 8 : 0u;
  cp.full_mn = (tile_m + 1) * kBM <= g.m && (tile_n + 1) * kBN <= g.n;
#pragma unroll
  for (int i = 0; i < kAChunks; ++i) cp.in_mn |= a_row0 + 32 * i < g.m ? 1u << i : 0u;
  cp.as_dst = tid / 8 * kBK + (tid % 8 ^ tid / 8 % 8) * 4;                    // chunk ^ (m % 8)
  cp.bs_dst = kAsFloats + tid / 32 * kBN + (tid % 32 ^ tid / 32 % 4 * 2) * 4;  // chunk ^ 2 (k % 4)
  FragPlan fp;
#pragma unroll
  for (int ks = 0; ks < kSteps; ++ks) {
    fp.a_ks[ks] = (wm0 + lane % 8 + lane / 8 % 2 * 8) * kBK + ((2 * ks + lane / 16) ^ lane % 8) * 4;
  }
#pragma unroll
  for (int j = 0; j < 4; ++j) fp.b_grp[j] = kAsFloats + tc * kBN + wn0 + 8 * (j ^ tc) + gr;

  float acc[kTilesM][kTilesN][4] = {};
  // Interior blocks (all of a 4096^3 problem) take the loop without bounds checks.
  if (kVec && cp.full_mn && g.k % kBK == 0) {
    k_loop<true, kVec, S>(g, cp, fp, smem, tile_m, tile_n, tid, acc, probe);
  } else {
    k_loop<false, kVec, S>(g, cp, fp, smem, tile_m, tile_n, tid, acc, probe);
  }

  GS_PROBE(probe.stage(kEpilogue));
  const int row0 = tile_m * kBM + wm0 + gr;      // c0, c1 of tile (mi, ni): row0 + 16 mi
  const int col0 = tile_n * kBN + wn0 + 2 * tc;  // columns col0 + 8 ni, +1; c2, c3 eight rows down
#pragma unroll
  for (int mi = 0; mi < kTilesM; ++mi) {
#pragma unroll
    for (int ni = 0; ni < kTilesN; ++ni) {
      store_c2_guarded(g, row0 + mi * 16, col0 + ni * 8, acc[mi][ni][0], acc[mi][ni][1], probe);
      store_c2_guarded(g, row0 + mi * 16 + 8, col0 + ni * 8, acc[mi][ni][2], acc[mi][ni][3], probe);
    }
  }
  GS_PROBE(probe.block_end());
}

template <class Probe, bool kVec, int kOrder, int S>
cudaError_t launch_as(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  // Above 48 KB of dynamic shared memory a kernel must opt in, once per instantiation.
  static const cudaError_t opt_in =
      cudaFuncSetAttribute(kernel<Probe, kVec, S>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes<S>());
  if (opt_in != cudaSuccess) return opt_in;
  const int tiles_m = (g.m + kBM - 1) / kBM, tiles_n = (g.n + kBN - 1) / kBN;
  const BlockOrder order = variant_order<kOrder>(tiles_n, kMaxLogTile);
  const dim3 grid = order_grid(order, tiles_m, tiles_n);
  kernel<Probe, kVec, S><<<grid, kThreads, smem_bytes<S>(), stream>>>(g, order, probe);
  return cudaGetLastError();
}

// kOrder: a variant's block order (order_code), or kOrderDefault for the rung's own bands.
template <class Probe, int kOrder = kOrderDefault, int S = kStages>
cudaError_t launch(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;
  const bool aligned = reinterpret_cast<uintptr_t>(g.a) % 16 == 0 && reinterpret_cast<uintptr_t>(g.b) % 16 == 0;
  if (aligned && g.k % 4 == 0 && g.n % 4 == 0) return launch_as<Probe, true, kOrder, S>(g, probe, stream);
  return launch_as<Probe, false, kOrder, S>(g, probe, stream);
}

// The variant [stages=S]: the rung's own order, S stages.
template <class Probe, int S>
cudaError_t launch_stages(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  return launch<Probe, kOrderDefault, S>(g, probe, stream);
}

}  // namespace gs::mma_tf32_10_multistage
