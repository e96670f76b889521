// mma_tf32/07_swizzle. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::mma_tf32_07_swizzle {

inline constexpr const char* kTitle = "Threadblock swizzle for L2 reuse (cutlass:5)";
inline constexpr const char* kAdds =
    "06 with a threadblock swizzle (cutlass:5): blocks launch in bands of 32 tile columns walking down the "
    "rows, so on C wider than 4096 a wave of ~132 blocks still reads only ~4 A and 32 B panels. At N = 4096 "
    "the band is all of C, 06's order, yet it runs 2-9% slower than 06: ptxas issues its 12 cp.async back to "
    "back, filling the copy queue that 06 paced with address arithmetic (Nsight Compute, bench/NOTES.md).";

}  // namespace gs::mma_tf32_07_swizzle

#include <cstdint>

#include "kernels/gemm_args.cuh"
#include "kernels/mma_tf32/common.cuh"
#include "kernels/probe.cuh"

namespace gs::mma_tf32_07_swizzle {

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
inline constexpr int kStages = 2;
inline constexpr int kAsStride = kBK + 4;           // padded rows as in 02: conflict-free fragment reads
inline constexpr int kBsStride = kBN + 8;
inline constexpr int kAsFloats = kBM * kAsStride;   // one stage: As (BM, BK+4) then Bs (BK, BN+8)
inline constexpr int kStageFloats = kAsFloats + kBK * kBsStride;
inline constexpr int kSmemBytes = kStages * kStageFloats * 4;  // 108544: dynamic, above the 48 KB static limit
// Step: the launch order, bands of 2^5 tile columns (cutlass:5), applied by order_tile.
// Swizzle band width 2^5 = 32 tile columns (4096 columns of C). A wave of 132 blocks (one per SM) covers
// 132 / 2^L tile rows x 2^L columns; per k-slice it reads one 128-byte line from each of 256 x 132 / 2^L rows
// of A (lines K * 4 bytes apart: scattered over DRAM pages and L2 sets) and 2^L x 512 contiguous bytes of each
// of 32 B rows. Counting rows alone balances at 2^L = 16 (cutlass:4, 9 A panels + 16 B panels); measured on an
// H200 at 4096^3 that was 11% slower than 06's raster (143.8 vs 162.1 TFLOP/s) with the same k-loop SASS
// (128 HMMA, 131 LDS, 12 LDGSTS; 319 vs 311 instructions), most likely from 2304 scattered A lines per slice
// instead of 1024, with one slice (~1.7 us) of two-stage pipeline to hide their misses. Weighting a strided
// A line ~4x a contiguous one balances at 2^L = 32: 4 A panels + 32 B panels. At N = 4096 that is 06's raster
// (the same order: the gap to 06 has another cause, see the header); wider C keeps the wave at 4 + 32 panels
// where the raster would read 2 + 64 (all of a 64 MB B per wave at N = 8192, K = 4096, more than the L2 holds).
// Narrower C uses the widest band that fits (kernels/block_order.cuh banded_log_tile).
inline constexpr int kMaxLogTile = 5;
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

// One k-step's fragments of the warp: 4 A (16x8) and 8 B (8x8), tf32 bits.
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
__global__ void __launch_bounds__(kThreads, 1) kernel(GemmArgs<float, float> g, BlockOrder order, Probe probe) {
  extern __shared__ __align__(16) float smem[];  // kStages x [As | Bs]

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int gr = lane / 4, tc = lane % 4;  // PTX groupID and threadID_in_group (common.cuh)
  const int wm0 = warp / kWarpsN * kWM;    // warp's tile inside the block tile: rows wm0.., cols wn0..
  const int wn0 = warp % kWarpsN * kWN;
  // The rung's own order, cutlass:L (DESIGN.md `swizzle`): launch order is blockIdx.x fastest; x runs through the 2^L columns of
  // one band (low bits) for each tile row (high bits), y picks the band.
  const int tiles_m = g.m / kBM, tiles_n = g.n / kBN;
  int tile_m, tile_n;  // the block order of the rung or its variant [order=...] (kernels/block_order.cuh)
  if (!order_tile(order, tiles_m, tiles_n, &tile_m, &tile_n)) return;  // cutlass's last band overhangs C
  GS_PROBE(probe.block_begin(tile_m, tile_n));
  // The thread's 16-byte chunks of a slice: A rows tid / 8 + 32 i, column chunk tid % 8 (256 x 8 chunks);
  // B rows tid / 32 + 8 i, column chunk tid % 32 (32 x 32 chunks). Slice kt starts kt * BK further right
  // in A and kt * BK rows further down in B.
  const float* a_src = g.a + (static_cast<size_t>(tile_m) * kBM + tid / 8) * g.k + tid % 8 * 4;
  const float* b_src = g.b + static_cast<size_t>(tid / 32) * g.n + tile_n * kBN + tid % 32 * 4;
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
  const int row0 = tile_m * kBM + wm0 + gr;      // c0, c1 of tile (mi, ni): row0 + 16 mi
  const int col0 = tile_n * kBN + wn0 + 2 * tc;  // columns col0 + 8 ni, +1; c2, c3 eight rows down
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

// kOrder: a variant's block order (order_code), or kOrderDefault for the rung's own bands.
template <class Probe, int kOrder = kOrderDefault>
cudaError_t launch(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;  // the runner checks first; never launch
  // Above 48 KB of dynamic shared memory a kernel must opt in, once per instantiation.
  static const cudaError_t opt_in =
      cudaFuncSetAttribute(kernel<Probe>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
  if (opt_in != cudaSuccess) return opt_in;
  const int tiles_m = g.m / kBM, tiles_n = g.n / kBN;
  const BlockOrder order = variant_order<kOrder>(tiles_n, kMaxLogTile);
  const dim3 grid = order_grid(order, tiles_m, tiles_n);
  kernel<Probe><<<grid, kThreads, kSmemBytes, stream>>>(g, order, probe);
  return cudaGetLastError();
}

}  // namespace gs::mma_tf32_07_swizzle
