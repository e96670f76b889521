// sgemm/05_blocktile_2d. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::sgemm_05_blocktile_2d {

inline constexpr const char* kTitle = "2D block tiling: 8x8 results per thread";
inline constexpr const char* kAdds =
    "Each thread computes an 8x8 block of C (TM x TN) from register-cached slivers of A (8 values) and B (8 "
    "values): 64 multiply-adds per 16 shared loads where 04 did 8 per 9. The block tile grows to 128x128 with "
    "256 threads, so each element fetched from global feeds 128 FMAs.";

}  // namespace gs::sgemm_05_blocktile_2d

#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"
#include "kernels/sgemm/common.cuh"

namespace gs::sgemm_05_blocktile_2d {

inline constexpr int kBM = 128, kBN = 128, kBK = 8;  // block tile of C, and the k-tile
inline constexpr int kTM = 8, kTN = 8;               // a thread's block of C
inline constexpr int kThreads = kBM * kBN / (kTM * kTN);  // 256
inline constexpr int kLoadsA = kBM * kBK / kThreads, kLoadsB = kBK * kBN / kThreads;  // 4 + 4 per thread
static_assert(kThreads % kBK == 0 && kThreads % kBN == 0, "loading roles tile the k-tile exactly");
inline constexpr const char* kShapeRule = "";  // any M, N, K: tile loads outside the matrices read 0
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0; }

enum Stage : int { kLoad, kCompute, kEpilogue };
inline constexpr const char* kStageNames[] = {"load tile", "compute", "epilogue"};
enum Site : int { kAsStore, kBsStore, kAsLoad, kBsLoad };
inline constexpr const char* kSmemSites[] = {"As store", "Bs store", "As load (frag)", "Bs load (frag)"};

template <class Probe>
__global__ void __launch_bounds__(kThreads, 2) kernel(GemmArgs<float, float> g, Probe probe) {
  __shared__ float As[kBM][kBK];  // (BM, BK) tile of A, row-major
  __shared__ float Bs[kBK][kBN];  // (BK, BN) tile of B, row-major

  const int tid = threadIdx.x;
  const int m0 = blockIdx.y * kBM, n0 = blockIdx.x * kBN;
  GS_PROBE(probe.block_begin(blockIdx.y, blockIdx.x));

  // Computing role: the 16 x 16 threads tile the block, thread (tr, tc) owning rows tr*8 .. +8 and
  // columns tc*8 .. +8. A warp is two tr by 16 tc: its Bs[kk][tc*8 + j] words sit 32 bytes apart, so
  // tc, tc + 4, tc + 8, tc + 12 share a bank, and its two As[tr*8 + i][kk] words sit 256 bytes apart. The
  // compiler reads both 16 bytes at a time (LDS.128, 8 lanes a wavefront): a B read's 8 lanes of a phase hit
  // 4 bank groups twice (8 wavefronts where 4 would do); an A read is two 16-byte chunks, each shared by 16
  // lanes (2 wavefronts, no conflict). 07 fixes B.
  const int tc = tid % (kBN / kTN), tr = tid / (kBN / kTN);
  // Loading role, p = 0..3: As[ar + 32p][ac] and Bs[br + 2p][bc], as in 04 but four of each.
  const int ar = tid / kBK, ac = tid % kBK;
  const int br = tid / kBN, bc = tid % kBN;
  constexpr int kStepA = kThreads / kBK, kStepB = kThreads / kBN;  // rows between a thread's loads: 32, 2

  bool a_in[kLoadsA];
  const float* a[kLoadsA];
#pragma unroll
  for (int p = 0; p < kLoadsA; ++p) {
    const int row = m0 + ar + p * kStepA;
    a_in[p] = row < g.m;
    a[p] = g.a + static_cast<size_t>(a_in[p] ? row : 0) * g.k + ac;  // A[row][ac + k0], row clamped
  }
  const bool b_in = n0 + bc < g.n;
  const float* b = g.b + static_cast<size_t>(br) * g.n + (b_in ? n0 + bc : 0);  // B[br + k0][n0 + bc]

  float acc[kTM][kTN] = {};
  float reg_a[kTM], reg_b[kTN];  // this k-step's sliver of A (a column) and of B (a row)
  for (int k0 = 0, kt = 0; k0 < g.k; k0 += kBK, ++kt) {
    GS_PROBE(probe.iteration(kt));
    GS_PROBE(probe.stage(kLoad));
#pragma unroll
    for (int p = 0; p < kLoadsA; ++p) {
      GS_PROBE(probe.gmem(kGmemA, a[p] + k0, a_in[p] && k0 + ac < g.k ? 4 : 0, GmemKind::kLoad));  // 0: predicated off
      As[ar + p * kStepA][ac] = a_in[p] && k0 + ac < g.k ? a[p][k0] : 0.0f;
    }
#pragma unroll
    for (int p = 0; p < kLoadsB; ++p) {
      const int kb = k0 + br + p * kStepB;
      GS_PROBE(probe.gmem(kGmemB, b + static_cast<size_t>(k0 + p * kStepB) * g.n, b_in && kb < g.k ? 4 : 0,
                          GmemKind::kLoad));
      Bs[br + p * kStepB][bc] = b_in && kb < g.k ? b[static_cast<size_t>(k0 + p * kStepB) * g.n] : 0.0f;
    }
    GS_PROBE(probe.smem(kAsStore, &As[ar][ac], 4, SmemKind::kStore));
    GS_PROBE(probe.smem(kBsStore, &Bs[br][bc], 4, SmemKind::kStore));
    __syncthreads();
    GS_PROBE(probe.mark(Mark::kBarrier));

    GS_PROBE(probe.stage(kCompute));
    // What runs per k-tile (SASS, bench/NOTES.md): the compiler joins four consecutive words into one LDS.128,
    // kk .. kk+3 of a row of As and j .. j+3 of a row of Bs; the probe records those instructions.
#pragma unroll
    for (int i = 0; i < kTM; ++i) {
#pragma unroll
      for (int kk = 0; kk < kBK; kk += 4) GS_PROBE(probe.smem(kAsLoad, &As[tr * kTM + i][kk], 16, SmemKind::kLoad));
    }
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
#pragma unroll
      for (int j = 0; j < kTN; j += 4) GS_PROBE(probe.smem(kBsLoad, &Bs[kk][tc * kTN + j], 16, SmemKind::kLoad));
    }
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
#pragma unroll
      for (int i = 0; i < kTM; ++i) reg_a[i] = As[tr * kTM + i][kk];
#pragma unroll
      for (int j = 0; j < kTN; ++j) reg_b[j] = Bs[kk][tc * kTN + j];
#pragma unroll
      for (int i = 0; i < kTM; ++i) {
#pragma unroll
        for (int j = 0; j < kTN; ++j) acc[i][j] += reg_a[i] * reg_b[j];  // outer product of the slivers
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
    for (int j = 0; j < kTN; ++j) {
      const int col = n0 + tc * kTN + j;
      if (col < g.n) sgemm_common::store_c(c + col, acc[i][j], g.alpha, g.beta, probe);
    }
  }
  GS_PROBE(probe.block_end());
}

template <class Probe>
cudaError_t launch(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  // grid x covers the columns of C, grid y its rows: ceil(N/128) x ceil(M/128) blocks
  const dim3 grid((g.n + kBN - 1) / kBN, (g.m + kBM - 1) / kBM);
  kernel<Probe><<<grid, kThreads, 0, stream>>>(g, probe);
  return cudaGetLastError();
}

}  // namespace gs::sgemm_05_blocktile_2d
