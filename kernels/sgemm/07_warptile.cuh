// sgemm/07_warptile. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::sgemm_07_warptile {

inline constexpr const char* kTitle = "Warp tiling: conflict-free 32x64 warp tiles";
inline constexpr const char* kAdds =
    "An explicit warp tile. Each warp owns 32x64 of the block tile, each lane an 8x8 block as 2x2 sub-tiles of "
    "4x4 spaced 16 rows / 32 columns apart, so a warp's fragment loads read contiguous shared memory: 12 "
    "wavefronts per k-step where 06 took 20 (as Nsight Compute counts them; 06's B reads conflicted 2-way), "
    "and FMAs run in serpentine order for register reuse.";

}  // namespace gs::sgemm_07_warptile

#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"
#include "kernels/sgemm/common.cuh"

namespace gs::sgemm_07_warptile {

inline constexpr int kBM = 128, kBN = 128, kBK = 8;       // block tile of C, and the k-tile
inline constexpr int kWarpsM = 4, kWarpsN = 2;            // 8 warps, 4 down x 2 across the block tile
inline constexpr int kWM = kBM / kWarpsM, kWN = kBN / kWarpsN;  // 32 x 64 warp tile
inline constexpr int kLanesM = 4, kLanesN = 8;            // lane grid of a warp: 4 down x 8 across
inline constexpr int kSub = 4;                            // a lane's sub-tile is 4x4 ...
inline constexpr int kSubsM = kWM / (kLanesM * kSub), kSubsN = kWN / (kLanesN * kSub);  // ... 2 x 2 of them
inline constexpr int kTM = kSubsM * kSub, kTN = kSubsN * kSub;  // 8 x 8 results per thread
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;   // 256
inline constexpr int kPadA = 4;
inline constexpr int kLdA = kBM + kPadA;  // 132: the transposed A tile's rows, as in 06
static_assert(kLanesM * kLanesN == 32 && kSubsM == 2 && kSubsN == 2, "a warp is 4 x 8 lanes of 2 x 2 sub-tiles");
static_assert(kBM * kBK / 4 == kThreads && kBK * kBN / 4 == kThreads, "one float4 of each tile per thread");
// The warp tile's shape as a template parameter: kWarpsDown warps down the block tile (the rung: 4, warp tiles
// of 32x64; the variant [warp=64x32]: 2). A lane keeps its 2 x 2 sub-tiles of 4x4, so the lane grid takes the
// warp's shape: 4 x 8 lanes in a 32x64 tile, 8 x 4 in a 64x32 one.
template <int kWarpsDown>
struct WarpShape {
  static constexpr int kWarpsM = kWarpsDown, kWarpsN = 8 / kWarpsDown;
  static constexpr int kWM = kBM / kWarpsM, kWN = kBN / kWarpsN;
  static constexpr int kLanesM = kWM / (2 * kSub), kLanesN = kWN / (2 * kSub);
  static_assert(kWarpsM * kWarpsN == 8 && kLanesM * kLanesN == 32, "8 warps of 32 lanes of 2 x 2 sub-tiles");
};
static_assert(WarpShape<kWarpsM>::kLanesM == kLanesM && WarpShape<kWarpsM>::kLanesN == kLanesN &&
                  WarpShape<kWarpsM>::kWN == kWN,
              "the rung's own shape is WarpShape<kWarpsM>");
inline constexpr const char* kWarp64x32Adds =
    "Variant: the same kernel with 2 x 4 warps of 64x32 instead of 4 x 2 of 32x64, each lane still an 8x8 "
    "block. The lane grid turns with the warp (8 x 4): a fragment load of A now spans 8 distinct 16-byte "
    "chunks shared by 4 lanes each, one of B 4 chunks shared by 8 lanes. Same FMAs, same bytes.";
inline constexpr const char* kShapeRule = "K and N must be multiples of 4 (float4 rows of A, B and C)";
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0 && k % 4 == 0 && n % 4 == 0; }

enum Stage : int { kLoad, kCompute, kEpilogue };
inline constexpr const char* kStageNames[] = {"load tile", "compute", "epilogue"};
enum Site : int { kAsStore, kBsStore, kAsLoad, kBsLoad };
inline constexpr const char* kSmemSites[] = {"As store (transposed)", "Bs store", "As load (frag)", "Bs load (frag)"};

template <class Probe, int kWarpsDown = kWarpsM>
__global__ void __launch_bounds__(kThreads, 2) kernel(GemmArgs<float, float> g, Probe probe) {
  using W = WarpShape<kWarpsDown>;
  __shared__ __align__(16) float As[kBK][kLdA];  // (BK, BM) tile of A, transposed, +4 floats padding per row
  __shared__ __align__(16) float Bs[kBK][kBN];   // (BK, BN) tile of B, row-major

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int m0 = blockIdx.y * kBM, n0 = blockIdx.x * kBN;
  GS_PROBE(probe.block_begin(blockIdx.y, blockIdx.x));

  // Step: a warp tile, 32 x 64 of C a warp, each lane 2 x 2 sub-tiles of 4 x 4.
  // Computing role. Warp (wm, wn) owns block rows wm*32 .. +32, columns wn*64 .. +64; lane (lm, ln)
  // of its 4 x 8 grid owns rows   wm*32 + s*16 + lm*4 + i   (s = 0, 1; i = 0..3)
  //                    columns wn*64 + t*32 + ln*4 + j   (t = 0, 1; j = 0..3).
  // For one (s, kk) the warp's A reads are 4 chunks of 16 contiguous bytes, each shared by 8 lanes; for one
  // (t, kk) its B reads 8 chunks, each shared by lanes l, l + 8, l + 16, l + 24. A 16-byte load is served 8 lanes a
  // wavefront, 16 when neighbouring lanes share an address: A takes 2 wavefronts, B 4, with no conflict.
  // (That is the rung's shape; the variant [warp=64x32] turns the lane grid to 8 x 4, and A and B swap
  // roles: 8 chunks shared by 4 lanes, 2 wavefronts; 4 chunks shared by 8, 4 wavefronts.)
  const int wm = warp / W::kWarpsN, wn = warp % W::kWarpsN;
  const int lm = lane / W::kLanesN, ln = lane % W::kLanesN;
  const int a_frag = wm * W::kWM + lm * kSub;  // column of As (row of C within the block) of sub-tile s = 0
  const int b_frag = wn * W::kWN + ln * kSub;  // column of Bs (column of C within the block) of sub-tile t = 0
  constexpr int kSubStrideM = W::kLanesM * kSub, kSubStrideN = W::kLanesN * kSub;  // 16 rows, 32 columns (64x32: 32, 16)

  // Loading role, as in 06: one float4 of A (stored transposed) and one of B per thread per k-tile.
  const int ar = tid / (kBK / 4), ac = tid % (kBK / 4) * 4;
  const int br = tid / (kBN / 4), bc = tid % (kBN / 4) * 4;
  const bool a_in = m0 + ar < g.m, b_in = n0 + bc < g.n;
  const float* a = g.a + static_cast<size_t>(a_in ? m0 + ar : 0) * g.k + ac;  // A[m0 + ar][ac + k0]
  const float* b = g.b + static_cast<size_t>(br) * g.n + (b_in ? n0 + bc : 0);  // B[br + k0][n0 + bc]

  float acc[kTM][kTN] = {};  // acc[s*4 + i][t*4 + j]
  for (int k0 = 0, kt = 0; k0 < g.k; k0 += kBK, ++kt) {
    GS_PROBE(probe.iteration(kt));
    GS_PROBE(probe.stage(kLoad));
    GS_PROBE(probe.gmem(kGmemA, a + k0, a_in && k0 + ac < g.k ? 16 : 0, GmemKind::kLoad));  // 0: predicated off
    GS_PROBE(probe.gmem(kGmemB, b + static_cast<size_t>(k0) * g.n, b_in && k0 + br < g.k ? 16 : 0, GmemKind::kLoad));
    const float4 va = a_in && k0 + ac < g.k ? *reinterpret_cast<const float4*>(a + k0) : make_float4(0, 0, 0, 0);
    const float4 vb = b_in && k0 + br < g.k ? *reinterpret_cast<const float4*>(b + static_cast<size_t>(k0) * g.n)
                                            : make_float4(0, 0, 0, 0);
    As[ac + 0][ar] = va.x;  // transposed store, conflict-free thanks to the 132-float rows (see 06)
    As[ac + 1][ar] = va.y;
    As[ac + 2][ar] = va.z;
    As[ac + 3][ar] = va.w;
    *reinterpret_cast<float4*>(&Bs[br][bc]) = vb;
    GS_PROBE(probe.smem(kAsStore, &As[ac + 0][ar], 4, SmemKind::kStore));
    GS_PROBE(probe.smem(kAsStore, &As[ac + 1][ar], 4, SmemKind::kStore));
    GS_PROBE(probe.smem(kAsStore, &As[ac + 2][ar], 4, SmemKind::kStore));
    GS_PROBE(probe.smem(kAsStore, &As[ac + 3][ar], 4, SmemKind::kStore));
    GS_PROBE(probe.smem(kBsStore, &Bs[br][bc], 16, SmemKind::kStore));
    __syncthreads();
    GS_PROBE(probe.mark(Mark::kBarrier));

    GS_PROBE(probe.stage(kCompute));
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      float reg_a[kTM], reg_b[kTN];  // reg_a[s*4 + i], reg_b[t*4 + j]
#pragma unroll
      for (int s = 0; s < kSubsM; ++s) {
        GS_PROBE(probe.smem(kAsLoad, &As[kk][a_frag + s * kSubStrideM], 16, SmemKind::kLoad));
        *reinterpret_cast<float4*>(&reg_a[s * kSub]) =
            *reinterpret_cast<const float4*>(&As[kk][a_frag + s * kSubStrideM]);
      }
#pragma unroll
      for (int t = 0; t < kSubsN; ++t) {
        GS_PROBE(probe.smem(kBsLoad, &Bs[kk][b_frag + t * kSubStrideN], 16, SmemKind::kLoad));
        *reinterpret_cast<float4*>(&reg_b[t * kSub]) =
            *reinterpret_cast<const float4*>(&Bs[kk][b_frag + t * kSubStrideN]);
      }
      // Serpentine order: along row i, then back along row i+1. Consecutive FMAs share an operand
      // (reg_a[i] within a row, reg_b[j] at the turn), which the register reuse cache supplies, so
      // fewer FMAs need three register-file reads (two banks: three reads always collide).
#pragma unroll
      for (int i = 0; i < kTM; ++i) {
#pragma unroll
        for (int jj = 0; jj < kTN; ++jj) {
          const int j = i % 2 ? kTN - 1 - jj : jj;
          acc[i][j] += reg_a[i] * reg_b[j];
        }
      }
    }
    __syncthreads();
    GS_PROBE(probe.mark(Mark::kBarrier));
  }

  GS_PROBE(probe.stage(kEpilogue));
  // A warp's store of one (s, i, t) is 4 rows x 128 contiguous bytes: whole lines (64x32 warps: 8 rows x 64 bytes).
#pragma unroll
  for (int s = 0; s < kSubsM; ++s) {
#pragma unroll
    for (int i = 0; i < kSub; ++i) {
      const int row = m0 + a_frag + s * kSubStrideM + i;
      if (row < g.m) {
        float* c = g.c + static_cast<size_t>(row) * g.n;
#pragma unroll
        for (int t = 0; t < kSubsN; ++t) {
          const int col = n0 + b_frag + t * kSubStrideN;  // N % 4 == 0: the float4 is wholly inside or outside
          const float* v = &acc[s * kSub + i][t * kSub];
          if (col < g.n) sgemm_common::store_c4(c + col, make_float4(v[0], v[1], v[2], v[3]), g.alpha, g.beta, probe);
        }
      }
    }
  }
  GS_PROBE(probe.block_end());
}

template <class Probe, int kWarpsDown = kWarpsM>
cudaError_t launch(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k) || !sgemm_common::aligned16(g.a) || !sgemm_common::aligned16(g.b) ||
      !sgemm_common::aligned16(g.c)) {
    return cudaErrorInvalidValue;  // the runner checks the shape first; cudaMalloc'd buffers are aligned
  }
  // grid x covers the columns of C, grid y its rows: ceil(N/128) x ceil(M/128) blocks
  const dim3 grid((g.n + kBN - 1) / kBN, (g.m + kBM - 1) / kBM);
  kernel<Probe, kWarpsDown><<<grid, kThreads, 0, stream>>>(g, probe);
  return cudaGetLastError();
}

// The variant [warp=64x32]: 2 x 4 warps of 64x32.
template <class Probe>
cudaError_t launch_warp_64x32(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  return launch<Probe, 2>(g, probe, stream);
}

}  // namespace gs::sgemm_07_warptile
