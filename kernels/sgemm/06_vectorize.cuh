// sgemm/06_vectorize. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::sgemm_06_vectorize {

inline constexpr const char* kTitle = "float4 loads, A transposed in shared memory";
inline constexpr const char* kAdds =
    "float4 everywhere. Global loads and C stores move 16 bytes per instruction, and A is stored transposed in "
    "shared memory (As[k][m]): a thread's 8-row sliver of A for one k-step is 32 contiguous bytes, so every "
    "k-step reads A and B as two float4 each (05 held 8 k-steps of A in registers).";

}  // namespace gs::sgemm_06_vectorize

#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"
#include "kernels/sgemm/common.cuh"

namespace gs::sgemm_06_vectorize {

inline constexpr int kBM = 128, kBN = 128, kBK = 8;  // block tile of C, and the k-tile
inline constexpr int kTM = 8, kTN = 8;               // a thread's block of C
inline constexpr int kThreads = kBM * kBN / (kTM * kTN);  // 256
inline constexpr int kPadA = 4;             // As rows are 132 floats: see the store of A below
inline constexpr int kLdA = kBM + kPadA;    // leading dimension of the transposed A tile
static_assert(kBM * kBK / 4 == kThreads && kBK * kBN / 4 == kThreads, "one float4 of each tile per thread");
// A row of A (K floats) or of B and C (N floats) must start 16-byte aligned and hold whole float4s.
inline constexpr const char* kShapeRule = "K and N must be multiples of 4 (float4 rows of A, B and C)";
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0 && k % 4 == 0 && n % 4 == 0; }

enum Stage : int { kLoad, kCompute, kEpilogue };
inline constexpr const char* kStageNames[] = {"load tile", "compute", "epilogue"};
enum Site : int { kAsStore, kBsStore, kAsLoad, kBsLoad };
inline constexpr const char* kSmemSites[] = {"As store (transposed)", "Bs store", "As load (frag)", "Bs load (frag)"};

template <class Probe>
__global__ void __launch_bounds__(kThreads, 2) kernel(GemmArgs<float, float> g, Probe probe) {
  __shared__ __align__(16) float As[kBK][kLdA];  // (BK, BM) tile of A, transposed: As[k][m], +4 floats padding per row
  __shared__ __align__(16) float Bs[kBK][kBN];   // (BK, BN) tile of B, row-major

  const int tid = threadIdx.x;
  const int m0 = blockIdx.y * kBM, n0 = blockIdx.x * kBN;
  GS_PROBE(probe.block_begin(blockIdx.y, blockIdx.x));

  // Computing role as in 05: thread (tr, tc) owns rows tr*8 .. +8 and columns tc*8 .. +8.
  const int tc = tid % (kBN / kTN), tr = tid / (kBN / kTN);
  // Loading role: one float4 of A, A[m0 + ar][k0 + ac .. +4) (a warp: 16 rows x 32 bytes), and one of
  // B, B[k0 + br][n0 + bc .. +4) (a warp: 512 contiguous bytes of one row). With K and N multiples of
  // 4 a float4 is wholly inside the matrix or wholly outside (then zeros).
  const int ar = tid / (kBK / 4), ac = tid % (kBK / 4) * 4;
  const int br = tid / (kBN / 4), bc = tid % (kBN / 4) * 4;
  const bool a_in = m0 + ar < g.m, b_in = n0 + bc < g.n;
  const float* a = g.a + static_cast<size_t>(a_in ? m0 + ar : 0) * g.k + ac;  // A[m0 + ar][ac + k0], row clamped
  const float* b = g.b + static_cast<size_t>(br) * g.n + (b_in ? n0 + bc : 0);  // B[br + k0][n0 + bc]

  float acc[kTM][kTN] = {};
  for (int k0 = 0, kt = 0; k0 < g.k; k0 += kBK, ++kt) {
    GS_PROBE(probe.iteration(kt));
    GS_PROBE(probe.stage(kLoad));
    GS_PROBE(probe.gmem(kGmemA, a + k0, a_in && k0 + ac < g.k ? 16 : 0, GmemKind::kLoad));  // 0: predicated off
    GS_PROBE(probe.gmem(kGmemB, b + static_cast<size_t>(k0) * g.n, b_in && k0 + br < g.k ? 16 : 0, GmemKind::kLoad));
    const float4 va = a_in && k0 + ac < g.k ? *reinterpret_cast<const float4*>(a + k0) : make_float4(0, 0, 0, 0);
    const float4 vb = b_in && k0 + br < g.k ? *reinterpret_cast<const float4*>(b + static_cast<size_t>(k0) * g.n)
                                            : make_float4(0, 0, 0, 0);
    // The float4 of A is 4 consecutive k of row ar: it scatters down column ar of As. A warp's 32 lanes
    // write rows ac .. ac+3 at columns ar = 16 consecutive m; with 132-float rows, row ac + 4 starts 16
    // banks after row ac, so the two halves of the warp land on disjoint banks: conflict-free.
    As[ac + 0][ar] = va.x;
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
    // Per kk: a warp's A slivers are 2 tr x 32 bytes, each LDS.128 two chunks shared by 16 lanes (2
    // wavefronts); its B slivers are 16 tc x 32 bytes, and tc, tc + 4 still share banks: each LDS.128 takes 8
    // wavefronts where 4 would do. 20 per kk, as Nsight Compute counts them.
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      float reg_a[kTM], reg_b[kTN];
      GS_PROBE(probe.smem(kAsLoad, &As[kk][tr * kTM], 16, SmemKind::kLoad));
      *reinterpret_cast<float4*>(&reg_a[0]) = *reinterpret_cast<const float4*>(&As[kk][tr * kTM]);
      GS_PROBE(probe.smem(kAsLoad, &As[kk][tr * kTM + 4], 16, SmemKind::kLoad));
      *reinterpret_cast<float4*>(&reg_a[4]) = *reinterpret_cast<const float4*>(&As[kk][tr * kTM + 4]);
      GS_PROBE(probe.smem(kBsLoad, &Bs[kk][tc * kTN], 16, SmemKind::kLoad));
      *reinterpret_cast<float4*>(&reg_b[0]) = *reinterpret_cast<const float4*>(&Bs[kk][tc * kTN]);
      GS_PROBE(probe.smem(kBsLoad, &Bs[kk][tc * kTN + 4], 16, SmemKind::kLoad));
      *reinterpret_cast<float4*>(&reg_b[4]) = *reinterpret_cast<const float4*>(&Bs[kk][tc * kTN + 4]);
#pragma unroll
      for (int i = 0; i < kTM; ++i) {
#pragma unroll
        for (int j = 0; j < kTN; ++j) acc[i][j] += reg_a[i] * reg_b[j];
      }
    }
    __syncthreads();
    GS_PROBE(probe.mark(Mark::kBarrier));
  }

  GS_PROBE(probe.stage(kEpilogue));
#pragma unroll
  for (int i = 0; i < kTM; ++i) {
    const int row = m0 + tr * kTM + i;
    if (row >= g.m) break;
    float* c = g.c + static_cast<size_t>(row) * g.n;
#pragma unroll
    for (int j = 0; j < kTN; j += 4) {
      const int col = n0 + tc * kTN + j;  // N % 4 == 0: the float4 is wholly inside or outside
      if (col < g.n) {
        sgemm_common::store_c4(c + col, make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]),
                               g.alpha, g.beta, probe);
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

}  // namespace gs::sgemm_06_vectorize
