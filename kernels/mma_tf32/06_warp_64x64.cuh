// mma_tf32/06_warp_64x64. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::mma_tf32_06_warp_64x64 {

inline constexpr const char* kTitle = "64x64 warp tiles, tf32 by truncation";
inline constexpr const char* kAdds =
    "05 with 64x64 warp tiles (32 mma per k-step, 256x128 block, next k-step's fragments loaded first): a "
    "third fewer smem bytes per mma. Operands are raw fp32 bits, truncated by the tensor core: cvt.rna (3 "
    "instrs/register) would take 96 of 148 issue slots per k-step. Error vs cuBLAS ~8e-4, was 1e-8 (bound "
    "5e-3). On an H100 it is no faster than 05 (0.99x; on an H200 1.15x): 234 registers leave one block of 8 "
    "warps per SM where 05 runs two, and with 2 stages about 30% of its stall samples wait at the barrier for the "
    "next tile's copy, which 05's second block hid (Nsight Compute at 4096^3: 980 against 958 us, 2.5x fewer "
    "instructions, no eligible warp 81% of cycles against 52%; bench/NOTES.md). 10's 4 stages hide the wait.";

}  // namespace gs::mma_tf32_06_warp_64x64

#include <cstdint>

#include "kernels/gemm_args.cuh"
#include "kernels/mma_tf32/common.cuh"
#include "kernels/probe.cuh"

namespace gs::mma_tf32_06_warp_64x64 {

using namespace gs::mma_tf32;

// Step: 64 x 64 warp tiles in a 256 x 128 block, operands as raw fp32 bits.
inline constexpr int kBM = 256, kBN = 128;          // tile of C per block
inline constexpr int kBK = 32;                      // k-slice of A and B per stage
inline constexpr int kWarpsM = 4, kWarpsN = 2;      // warp grid over the block tile
inline constexpr int kWM = kBM / kWarpsM;           // 64 x 64 tile of C per warp
inline constexpr int kWN = kBN / kWarpsN;
inline constexpr int kTilesM = kWM / 16;            // 4 x 8 mma tiles of 16x8 per warp
inline constexpr int kTilesN = kWN / 8;
inline constexpr int kSteps = kBK / 8;              // 4 mma k-steps per k-slice
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;
inline constexpr int kStages = 2;
inline constexpr int kAsStride = kBK + 4;           // padded rows as in 02: conflict-free fragment reads
inline constexpr int kBsStride = kBN + 8;
inline constexpr int kAsFloats = kBM * kAsStride;   // one stage: As (BM, BK+4) then Bs (BK, BN+8)
inline constexpr int kStageFloats = kAsFloats + kBK * kBsStride;
inline constexpr int kSmemBytes = kStages * kStageFloats * 4;  // 108544: dynamic, above the 48 KB static limit
inline constexpr const char* kShapeRule = "M must be a multiple of 256, N of 128, K of 32";
inline constexpr bool supports(int m, int n, int k) {
  return m > 0 && n > 0 && k > 0 && m % kBM == 0 && n % kBN == 0 && k % kBK == 0;
}

enum Stage : int { kPrologue, kWait, kMma, kEpilogue };
inline constexpr const char* kStageNames[] = {"prologue", "wait", "mma", "epilogue"};
enum Site : int { kAsCopy, kBsCopy, kAsFrag, kBsFrag };
inline constexpr const char* kSmemSites[] = {"As cp.async", "Bs cp.async", "As load (frag)", "Bs load (frag)"};

// Issues (does not wait for) the cp.async of one k-slice into one stage: 8 + 4 chunks of 16 bytes per
// thread, mapped as in 03 (coalesced rows, each 8-lane phase writing 128 consecutive bytes). a_src, b_src:
// the thread's first chunk of the slice in A and B; as_dst, bs_dst: where it goes in a stage.
template <class Probe>
__device__ __forceinline__ void load_slice(const GemmArgs<float, float>& g, const float* a_src, const float* b_src,
                                           float* stage, int as_dst, int bs_dst, Probe& probe) {
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    float* as = stage + as_dst + i * 32 * kAsStride;  // A chunk i: 32 rows further down
    GS_PROBE(probe.gmem(kGmemA, a_src + static_cast<size_t>(i * 32) * g.k, 16, GmemKind::kCpAsync));
    cp_async_16(as, a_src + static_cast<size_t>(i * 32) * g.k);
    GS_PROBE(probe.smem(kAsCopy, as, 16, SmemKind::kCpAsync));
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    float* bs = stage + bs_dst + i * 8 * kBsStride;  // B chunk i: 8 rows further down
    GS_PROBE(probe.gmem(kGmemB, b_src + static_cast<size_t>(i * 8) * g.n, 16, GmemKind::kCpAsync));
    cp_async_16(bs, b_src + static_cast<size_t>(i * 8) * g.n);
    GS_PROBE(probe.smem(kBsCopy, bs, 16, SmemKind::kCpAsync));
  }
}

// One k-step's fragments of the warp: 4 A (16x8) and 8 B (8x8), raw fp32 bits (tf32_trunc, common.cuh).
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
      f.a[mi][i] = tf32_trunc(*p);
      GS_PROBE(probe.smem(kAsFrag, p, 4, SmemKind::kLoad));
    }
  }
#pragma unroll
  for (int ni = 0; ni < kTilesN; ++ni) {
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const float* p = b_lane + (ks * 8 + 4 * i) * kBsStride + ni * 8;  // B(tc + 4i, gr)
      f.b[ni][i] = tf32_trunc(*p);
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

template <class Probe>
__global__ void __launch_bounds__(kThreads, 1) kernel(GemmArgs<float, float> g, Probe probe) {
  extern __shared__ __align__(16) float smem[];  // kStages x [As | Bs]

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int gr = lane / 4, tc = lane % 4;  // PTX groupID and threadID_in_group (common.cuh)
  const int wm0 = warp / kWarpsN * kWM;    // warp's tile inside the block tile: rows wm0.., cols wn0..
  const int wn0 = warp % kWarpsN * kWN;
  GS_PROBE(probe.block_begin(blockIdx.y, blockIdx.x));  // grid x walks tile columns, y tile rows
  // The thread's 16-byte chunks of a slice: A rows tid / 8 + 32 i, column chunk tid % 8 (256 x 8 chunks);
  // B rows tid / 32 + 8 i, column chunk tid % 32 (32 x 32 chunks). Slice kt starts kt * BK further right
  // in A and kt * BK rows further down in B.
  const float* a_src = g.a + (static_cast<size_t>(blockIdx.y) * kBM + tid / 8) * g.k + tid % 8 * 4;
  const float* b_src = g.b + static_cast<size_t>(tid / 32) * g.n + blockIdx.x * kBN + tid % 32 * 4;
  const int as_dst = tid / 8 * kAsStride + tid % 8 * 4;              // in a stage's As
  const int bs_dst = kAsFloats + tid / 32 * kBsStride + tid % 32 * 4;  // in a stage's Bs
  const int a_lane = (wm0 + gr) * kAsStride + tc;              // lane's a_0 of k-step 0 in a stage
  const int b_lane = kAsFloats + tc * kBsStride + wn0 + gr;    // lane's b_0 of k-step 0 in a stage
  const int num_kt = g.k / kBK;

  float acc[kTilesM][kTilesN][4] = {};
  Frags frag[2];  // frag[ks % 2] feeds the mma of k-step ks while frag[(ks + 1) % 2] loads

  GS_PROBE(probe.stage(kPrologue));
  load_slice(g, a_src, b_src, smem, as_dst, bs_dst, probe);
  cp_async_commit();
  cp_async_wait<0>();
  GS_PROBE(probe.mark(Mark::kCpAsyncWait));
  __syncthreads();
  GS_PROBE(probe.mark(Mark::kBarrier));
  load_frags(frag[0], smem + a_lane, smem + b_lane, 0, probe);

  GS_PROBE(probe.stage(kMma));
  for (int kt = 0; kt < num_kt; ++kt) {
    GS_PROBE(probe.iteration(kt));
    const float* cur = smem + (kt % 2) * kStageFloats;  // slice kt: read by this iteration
    float* nxt = smem + ((kt + 1) % 2) * kStageFloats;  // slice kt + 1: written during it
#pragma unroll
    for (int ks = 0; ks < kSteps; ++ks) {
      if (ks == kSteps - 1) {
        // The last k-step reads fragments of slice kt + 1: its copy must have landed (wait: this
        // thread's part; barrier: everyone's). The barrier also tells the next iteration's copy that
        // every warp has finished reading slice kt, which it is about to overwrite.
        GS_PROBE(probe.stage(kWait));
        cp_async_wait<0>();
        GS_PROBE(probe.mark(Mark::kCpAsyncWait));
        __syncthreads();
        GS_PROBE(probe.mark(Mark::kBarrier));
        GS_PROBE(probe.stage(kMma));
      }
      const float* src = ks == kSteps - 1 ? nxt : cur;  // k-step ks + 1 lives in slice kt or kt + 1
      load_frags(frag[(ks + 1) % 2], src + a_lane, src + b_lane, (ks + 1) % kSteps, probe);
      if (ks == 0) {
        // nxt was last read before the previous iteration's barrier: safe to overwrite. The last
        // iteration has no slice to fetch; its empty group keeps the accounting uniform.
        a_src += kBK;                                  // slice kt + 1 of A: BK columns right
        b_src += static_cast<size_t>(kBK) * g.n;       // of B: BK rows down
        if (kt + 1 < num_kt) load_slice(g, a_src, b_src, nxt, as_dst, bs_dst, probe);
        cp_async_commit();
      }
      mma_all(acc, frag[ks % 2]);  // issued after the loads above, so their latency overlaps these mma
    }
  }
  // The last iteration loaded fragments of a slice that does not exist (stale shared memory): unused.

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

}  // namespace gs::mma_tf32_06_warp_64x64
