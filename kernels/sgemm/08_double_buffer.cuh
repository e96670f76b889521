// sgemm/08_double_buffer. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::sgemm_08_double_buffer {

inline constexpr const char* kTitle = "Double buffering: loads of tile k+1 overlap tile k";
inline constexpr const char* kAdds =
    "Two shared-memory stages. The global loads of k-tile kt+1 are issued into registers before the FMAs on "
    "tile kt and stored to the other stage after them, so their latency hides behind compute, and one "
    "__syncthreads per k-tile replaces two.";

}  // namespace gs::sgemm_08_double_buffer

#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"
#include "kernels/sgemm/common.cuh"

namespace gs::sgemm_08_double_buffer {

inline constexpr int kBM = 128, kBN = 128, kBK = 8;       // block tile of C, and the k-tile
inline constexpr int kStages = 2;                         // one stage read by the FMAs, one being filled
inline constexpr int kWarpsM = 4, kWarpsN = 2;            // 8 warps; warp tile 32 x 64, as in 07
inline constexpr int kWM = kBM / kWarpsM, kWN = kBN / kWarpsN;
inline constexpr int kLanesM = 4, kLanesN = 8;            // lane grid of a warp
inline constexpr int kSub = 4;                            // 4x4 sub-tiles, 2 x 2 per lane
inline constexpr int kSubsM = kWM / (kLanesM * kSub), kSubsN = kWN / (kLanesN * kSub);
inline constexpr int kTM = kSubsM * kSub, kTN = kSubsN * kSub;  // 8 x 8 results per thread
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;   // 256
inline constexpr int kPadA = 4;
inline constexpr int kLdA = kBM + kPadA;  // 132: the transposed A tile's rows, as in 06
static_assert(kLanesM * kLanesN == 32 && kSubsM == 2 && kSubsN == 2, "a warp is 4 x 8 lanes of 2 x 2 sub-tiles");
static_assert(kBM * kBK / 4 == kThreads && kBK * kBN / 4 == kThreads, "one float4 of each tile per thread");
inline constexpr const char* kShapeRule = "K and N must be multiples of 4 (float4 rows of A, B and C)";
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0 && k % 4 == 0 && n % 4 == 0; }

// Two stages per k-tile at most: TraceProbe's stage buffer holds 16 sampled blocks x 8 warps x 512 k-tiles x 2.
enum Stage : int { kPrologue, kCompute, kStore, kEpilogue };
inline constexpr const char* kStageNames[] = {"prologue (tile 0)", "compute (tile k; tile k+1 loading)",
                                              "store tile k+1 + barrier", "epilogue"};
enum Site : int { kAsStore, kBsStore, kAsLoad, kBsLoad };
inline constexpr const char* kSmemSites[] = {"As store (transposed)", "Bs store", "As load (frag)", "Bs load (frag)"};

template <class Probe>
__global__ void __launch_bounds__(kThreads, 2) kernel(GemmArgs<float, float> g, Probe probe) {
  // 16.6 KB for both stages
  __shared__ __align__(16) float As[kStages][kBK][kLdA];  // (stage, BK, BM) tiles of A, transposed, +4 padding
  __shared__ __align__(16) float Bs[kStages][kBK][kBN];   // (stage, BK, BN) tiles of B, row-major

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int m0 = blockIdx.y * kBM, n0 = blockIdx.x * kBN;
  GS_PROBE(probe.block_begin(blockIdx.y, blockIdx.x));

  // Computing role, as in 07: lane (lm, ln) of warp (wm, wn) owns rows a_frag + s*16 + i and
  // columns b_frag + t*32 + j of the block tile.
  const int wm = warp / kWarpsN, wn = warp % kWarpsN;
  const int lm = lane / kLanesN, ln = lane % kLanesN;
  const int a_frag = wm * kWM + lm * kSub;
  const int b_frag = wn * kWN + ln * kSub;
  constexpr int kSubStrideM = kLanesM * kSub, kSubStrideN = kLanesN * kSub;  // 16 rows, 32 columns

  // Loading role, as in 06: one float4 of A (stored transposed) and one of B per thread per k-tile.
  const int ar = tid / (kBK / 4), ac = tid % (kBK / 4) * 4;
  const int br = tid / (kBN / 4), bc = tid % (kBN / 4) * 4;
  const bool a_in = m0 + ar < g.m, b_in = n0 + bc < g.n;
  const float* a = g.a + static_cast<size_t>(a_in ? m0 + ar : 0) * g.k + ac;  // A[m0 + ar][ac + k0]
  const float* b = g.b + static_cast<size_t>(br) * g.n + (b_in ? n0 + bc : 0);  // B[br + k0][n0 + bc]
  const int num_kt = (g.k + kBK - 1) / kBK;

  // The staging registers: tile kt+1 waits here while tile kt is computed.
  float4 va, vb;
  auto load_global = [&](int kt) {
    const int k0 = kt * kBK;
    GS_PROBE(probe.gmem(kGmemA, a + k0, a_in && k0 + ac < g.k ? 16 : 0, GmemKind::kLoad));  // 0: predicated off
    GS_PROBE(probe.gmem(kGmemB, b + static_cast<size_t>(k0) * g.n, b_in && k0 + br < g.k ? 16 : 0, GmemKind::kLoad));
    va = a_in && k0 + ac < g.k ? *reinterpret_cast<const float4*>(a + k0) : make_float4(0, 0, 0, 0);
    vb = b_in && k0 + br < g.k ? *reinterpret_cast<const float4*>(b + static_cast<size_t>(k0) * g.n)
                               : make_float4(0, 0, 0, 0);
  };
  auto store_smem = [&](int st) {
    As[st][ac + 0][ar] = va.x;  // transposed store, conflict-free thanks to the 132-float rows (see 06)
    As[st][ac + 1][ar] = va.y;
    As[st][ac + 2][ar] = va.z;
    As[st][ac + 3][ar] = va.w;
    *reinterpret_cast<float4*>(&Bs[st][br][bc]) = vb;
    GS_PROBE(probe.smem(kAsStore, &As[st][ac + 0][ar], 4, SmemKind::kStore));
    GS_PROBE(probe.smem(kAsStore, &As[st][ac + 1][ar], 4, SmemKind::kStore));
    GS_PROBE(probe.smem(kAsStore, &As[st][ac + 2][ar], 4, SmemKind::kStore));
    GS_PROBE(probe.smem(kAsStore, &As[st][ac + 3][ar], 4, SmemKind::kStore));
    GS_PROBE(probe.smem(kBsStore, &Bs[st][br][bc], 16, SmemKind::kStore));
  };

  // Step: two stages; tile kt+1's loads are issued before tile kt's FMAs, stored after.
  GS_PROBE(probe.stage(kPrologue));
  load_global(0);
  store_smem(0);
  __syncthreads();
  GS_PROBE(probe.mark(Mark::kBarrier));

  float acc[kTM][kTN] = {};  // acc[s*4 + i][t*4 + j]
  for (int kt = 0; kt < num_kt; ++kt) {
    GS_PROBE(probe.iteration(kt));
    const int cur = kt % kStages;
    const bool more = kt + 1 < num_kt;  // block-uniform
    GS_PROBE(probe.stage(kCompute));
    if (more) load_global(kt + 1);  // in flight during the FMAs below; nothing reads va, vb until the store
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      float reg_a[kTM], reg_b[kTN];  // reg_a[s*4 + i], reg_b[t*4 + j]
#pragma unroll
      for (int s = 0; s < kSubsM; ++s) {
        GS_PROBE(probe.smem(kAsLoad, &As[cur][kk][a_frag + s * kSubStrideM], 16, SmemKind::kLoad));
        *reinterpret_cast<float4*>(&reg_a[s * kSub]) =
            *reinterpret_cast<const float4*>(&As[cur][kk][a_frag + s * kSubStrideM]);
      }
#pragma unroll
      for (int t = 0; t < kSubsN; ++t) {
        GS_PROBE(probe.smem(kBsLoad, &Bs[cur][kk][b_frag + t * kSubStrideN], 16, SmemKind::kLoad));
        *reinterpret_cast<float4*>(&reg_b[t * kSub]) =
            *reinterpret_cast<const float4*>(&Bs[cur][kk][b_frag + t * kSubStrideN]);
      }
      // Serpentine order: down column j, then back up column j+1. Consecutive FMAs share an operand
      // (reg_b[j] within a column, reg_a[i] at the turn), which the register reuse cache supplies, so
      // fewer FMAs need three register-file reads (two banks: three reads always collide).
#pragma unroll
      for (int j = 0; j < kTN; ++j) {
#pragma unroll
        for (int ii = 0; ii < kTM; ++ii) {
          const int i = j % 2 ? kTM - 1 - ii : ii;
          acc[i][j] += reg_a[i] * reg_b[j];
        }
      }
    }

    // The other stage was last read during iteration kt-1, and every thread has passed the barrier
    // that ended it, so it can be overwritten without a second barrier; the one below publishes it.
    GS_PROBE(probe.stage(kStore));
    if (more) store_smem(cur ^ 1);
    __syncthreads();
    GS_PROBE(probe.mark(Mark::kBarrier));
  }

  GS_PROBE(probe.stage(kEpilogue));
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

template <class Probe>
cudaError_t launch(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k) || !sgemm_common::aligned16(g.a) || !sgemm_common::aligned16(g.b) ||
      !sgemm_common::aligned16(g.c)) {
    return cudaErrorInvalidValue;  // the runner checks the shape first; cudaMalloc'd buffers are aligned
  }
  // grid x covers the columns of C, grid y its rows: ceil(N/128) x ceil(M/128) blocks
  const dim3 grid((g.n + kBN - 1) / kBN, (g.m + kBM - 1) / kBM);
  kernel<Probe><<<grid, kThreads, 0, stream>>>(g, probe);
  return cudaGetLastError();
}

}  // namespace gs::sgemm_08_double_buffer
