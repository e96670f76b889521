// mma_tf32/05_double_buffer. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::mma_tf32_05_double_buffer {

inline constexpr const char* kTitle = "Double buffering of shared-memory stages";
inline constexpr const char* kAdds =
    "04 with two shared-memory stages: the cp.async of slice k+1 is in flight while the warps compute slice k, "
    "and one barrier per slice replaces two. Fragments are not double-buffered: that took 168 registers and "
    "cost 04's second block per SM (103 vs 133 TFLOP/s); at <= 128 the second block stays.";

}  // namespace gs::mma_tf32_05_double_buffer

#include <cstdint>

#include "kernels/gemm_args.cuh"
#include "kernels/mma_tf32/common.cuh"
#include "kernels/probe.cuh"

namespace gs::mma_tf32_05_double_buffer {

using namespace gs::mma_tf32;

inline constexpr int kBM = 128, kBN = 128;          // tile of C per block
inline constexpr int kBK = 32;                      // k-slice of A and B per stage
inline constexpr int kWarpsM = 4, kWarpsN = 2;      // warp grid over the block tile
inline constexpr int kWM = kBM / kWarpsM;           // 32 x 64 tile of C per warp
inline constexpr int kWN = kBN / kWarpsN;
inline constexpr int kTilesM = kWM / 16;            // 2 x 8 mma tiles of 16x8 per warp
inline constexpr int kTilesN = kWN / 8;
inline constexpr int kSteps = kBK / 8;              // 4 mma k-steps per k-slice
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;
inline constexpr int kStages = 2;
inline constexpr int kAsStride = kBK + 4;           // padded rows as in 02: conflict-free fragment reads
inline constexpr int kBsStride = kBN + 8;
inline constexpr int kAsFloats = kBM * kAsStride;   // one stage: As (BM, BK+4) then Bs (BK, BN+8)
inline constexpr int kStageFloats = kAsFloats + kBK * kBsStride;
inline constexpr int kSmemBytes = kStages * kStageFloats * 4;  // 71680: dynamic, above the 48 KB static limit;
                                                                // two blocks (140 KB) fit in an SM's 228 KB
inline constexpr const char* kShapeRule = "M and N must be multiples of 128, K a multiple of 32";
inline constexpr bool supports(int m, int n, int k) {
  return m > 0 && n > 0 && k > 0 && m % kBM == 0 && n % kBN == 0 && k % kBK == 0;
}

enum Stage : int { kPrologue, kWait, kMma, kEpilogue };
inline constexpr const char* kStageNames[] = {"prologue", "wait", "mma", "epilogue"};
enum Site : int { kAsCopy, kBsCopy, kAsFrag, kBsFrag };
inline constexpr const char* kSmemSites[] = {"As cp.async", "Bs cp.async", "As load (frag)", "Bs load (frag)"};

// Issues (does not wait for) the cp.async of one k-slice into one stage: 4 + 4 chunks of 16 bytes per
// thread, mapped as in 03 (coalesced rows, each 8-lane phase writing 128 consecutive bytes). a_src, b_src:
// the thread's first chunk of the slice in A and B; as_dst, bs_dst: where it goes in a stage.
template <class Probe>
__device__ __forceinline__ void load_slice(const GemmArgs<float, float>& g, const float* a_src, const float* b_src,
                                           float* stage, int as_dst, int bs_dst, Probe& probe) {
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    float* as = stage + as_dst + i * 32 * kAsStride;  // A chunk i: 32 rows further down
    GS_PROBE(probe.gmem(kGmemA, a_src + static_cast<size_t>(i * 32) * g.k, 16, GmemKind::kCpAsync));
    cp_async_16(as, a_src + static_cast<size_t>(i * 32) * g.k);
    GS_PROBE(probe.smem(kAsCopy, as, 16, SmemKind::kCpAsync));
    float* bs = stage + bs_dst + i * 8 * kBsStride;  // B chunk i: 8 rows further down
    GS_PROBE(probe.gmem(kGmemB, b_src + static_cast<size_t>(i * 8) * g.n, 16, GmemKind::kCpAsync));
    cp_async_16(bs, b_src + static_cast<size_t>(i * 8) * g.n);
    GS_PROBE(probe.smem(kBsCopy, bs, 16, SmemKind::kCpAsync));
  }
}

// One k-step's fragments of the warp: 2 A (16x8) and 8 B (8x8), tf32 bits.
struct Frags {
  uint32_t a[kTilesM][4];
  uint32_t b[kTilesN][2];
};

// a_lane, b_lane: this lane's a_0 / b_0 word of k-step 0 in the stage being read (as in 04, every other
// word is a compile-time offset from them).
template <class Probe>
__device__ __forceinline__ void load_frags(Frags& f, const float* a_lane, const float* b_lane, int ks, Probe& probe) {
#pragma unroll
  for (int mi = 0; mi < kTilesM; ++mi) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      // A(gr + 8(i&1), tc + 4(i>>1)) of the 16x8 tile at rows wm0 + 16 mi, cols 8 ks
      const float* p = a_lane + (mi * 16 + 8 * (i & 1)) * kAsStride + ks * 8 + 4 * (i >> 1);
      f.a[mi][i] = to_tf32(*p);
      GS_PROBE(probe.smem(kAsFrag, p, 4, SmemKind::kLoad));
    }
  }
#pragma unroll
  for (int ni = 0; ni < kTilesN; ++ni) {
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const float* p = b_lane + (ks * 8 + 4 * i) * kBsStride + ni * 8;  // B(tc + 4i, gr)
      f.b[ni][i] = to_tf32(*p);
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

// Two blocks per SM, as 04: at most 65536 / (2 x 256) = 128 registers per thread (64 of them accumulators).
template <class Probe>
__global__ void __launch_bounds__(kThreads, 2) kernel(GemmArgs<float, float> g, Probe probe) {
  extern __shared__ __align__(16) float smem[];  // kStages x [As | Bs]

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int gr = lane / 4, tc = lane % 4;  // PTX groupID and threadID_in_group (common.cuh)
  const int wm0 = warp / kWarpsN * kWM;    // warp's tile inside the block tile: rows wm0.., cols wn0..
  const int wn0 = warp % kWarpsN * kWN;
  GS_PROBE(probe.block_begin(blockIdx.y, blockIdx.x));  // grid x walks tile columns, y tile rows
  // The thread's 16-byte chunks of a slice: A rows tid / 8 + 32 i, column chunk tid % 8 (128 x 8 chunks);
  // B rows tid / 32 + 8 i, column chunk tid % 32 (32 x 32 chunks). Slice kt starts kt * BK further right
  // in A and kt * BK rows further down in B.
  const float* a_src = g.a + static_cast<size_t>(blockIdx.y * kBM + tid / 8) * g.k + tid % 8 * 4;
  const float* b_src = g.b + static_cast<size_t>(tid / 32) * g.n + blockIdx.x * kBN + tid % 32 * 4;
  const int as_dst = tid / 8 * kAsStride + tid % 8 * 4;              // in a stage's As
  const int bs_dst = kAsFloats + tid / 32 * kBsStride + tid % 32 * 4;  // in a stage's Bs
  const int a_lane = (wm0 + gr) * kAsStride + tc;              // lane's a_0 of k-step 0 in a stage
  const int b_lane = kAsFloats + tc * kBsStride + wn0 + gr;    // lane's b_0 of k-step 0 in a stage
  const int num_kt = g.k / kBK;

  float acc[kTilesM][kTilesN][4] = {};

  // Step: two stages, slice k+1's cp.async in flight while slice k is computed.
  GS_PROBE(probe.stage(kPrologue));
  load_slice(g, a_src, b_src, smem, as_dst, bs_dst, probe);  // slice 0 -> stage 0
  cp_async_commit();

  // No mma stamp here: each k-tile starts with its wait (slice 0's is the prologue's copy), so the prologue span
  // runs into the first wait and every k-tile is one wait and one mma span.
  for (int kt = 0; kt < num_kt; ++kt) {
    GS_PROBE(probe.iteration(kt));
    const float* cur = smem + (kt % 2) * kStageFloats;  // slice kt: read by this iteration
    float* nxt = smem + ((kt + 1) % 2) * kStageFloats;  // slice kt + 1: written during it
    // The one group in flight is slice kt (issued during the previous iteration, or the prologue): wait for
    // this thread's part; the barrier then publishes everyone's, and also tells this iteration's copy that
    // every warp has finished reading slice kt - 1 from nxt. One barrier per slice (04 needed two).
    GS_PROBE(probe.stage(kWait));
    cp_async_wait<0>();
    GS_PROBE(probe.mark(Mark::kCpAsyncWait));
    __syncthreads();
    GS_PROBE(probe.mark(Mark::kBarrier));
    GS_PROBE(probe.stage(kMma));
    if (kt + 1 < num_kt) {
      a_src += kBK;                             // slice kt + 1 of A: BK columns right
      b_src += static_cast<size_t>(kBK) * g.n;  // of B: BK rows down
      load_slice(g, a_src, b_src, nxt, as_dst, bs_dst, probe);  // lands while the mma below run
      cp_async_commit();
    }
#pragma unroll
    for (int ks = 0; ks < kSteps; ++ks) {
      Frags f;  // loaded and used in the same k-step: the other block on the SM covers the load latency
      load_frags(f, cur + a_lane, cur + b_lane, ks, probe);
      mma_all(acc, f);
    }
  }

  GS_PROBE(probe.stage(kEpilogue));
  const int row0 = blockIdx.y * kBM + wm0 + gr;      // c0, c1 of tile (mi, ni): row0 + 16 mi
  const int col0 = blockIdx.x * kBN + wn0 + 2 * tc;  // columns col0 + 8 ni, +1; c2, c3 eight rows down
#pragma unroll
  for (int mi = 0; mi < kTilesM; ++mi) {
#pragma unroll
    for (int ni = 0; ni < kTilesN; ++ni) {
      store_c2(g, row0 + mi * 16, col0 + ni * 8, acc[mi][ni][0], acc[mi][ni][1], probe);
      store_c2(g, row0 + mi * 16 + 8, col0 + ni * 8, acc[mi][ni][2], acc[mi][ni][3], probe);
    }
  }
  GS_PROBE(probe.block_end());
}

template <class Probe>
cudaError_t launch(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;  // the runner checks first; never launch
  // Above 48 KB of dynamic shared memory a kernel must opt in, once per instantiation.
  static const cudaError_t opt_in =
      cudaFuncSetAttribute(kernel<Probe>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
  if (opt_in != cudaSuccess) return opt_in;
  const dim3 grid(g.n / kBN, g.m / kBM);  // x: tile columns, y: tile rows (row-major raster)
  kernel<Probe><<<grid, kThreads, kSmemBytes, stream>>>(g, probe);
  return cudaGetLastError();
}

}  // namespace gs::mma_tf32_05_double_buffer
