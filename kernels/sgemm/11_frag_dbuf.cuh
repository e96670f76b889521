// sgemm/11_frag_dbuf: the fragments are double-buffered in registers. The slivers for k-step kk+1 load
// under the FMAs of kk, and the barrier moves to a tile's last k-step, so the next tile's first slivers
// load under its 128 FMAs (in 10, under only the copies' issue): no shared-load latency is left bare.
#pragma once

#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"
#include "kernels/sgemm/common.cuh"

namespace gs::sgemm_11_frag_dbuf {

inline constexpr int kBM = 128, kBN = 128, kBK = 8;       // block tile of C, and the k-tile
inline constexpr int kStages = 4;                         // k-tiles in shared memory, each landing or read
inline constexpr int kWarpsM = 2, kWarpsN = 2;            // 4 warps; warp tile 64 x 64
inline constexpr int kWM = kBM / kWarpsM, kWN = kBN / kWarpsN;
inline constexpr int kLanesM = 4, kLanesN = 8;            // lane grid of a warp, as in 10
inline constexpr int kSub = 4;                            // 4x4 sub-tiles, 4 x 2 per lane
inline constexpr int kSubsM = kWM / (kLanesM * kSub), kSubsN = kWN / (kLanesN * kSub);
inline constexpr int kTM = kSubsM * kSub, kTN = kSubsN * kSub;  // 16 x 8 results per thread
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;   // 128
// 128 accumulators + 2 x 24 fragment registers: about 225 registers, so 2 blocks (8 warps) per SM; 3
// would need 168 or fewer, no room for the second buffer (and 4096^3 runs better at 2: see 10).
inline constexpr int kMinBlocksPerSM = 2;
// Rows of the transposed A tile: 132 floats, as in 06. The A copies of a warp write k = lane % kBK,
// m = lane / kBK + const, i.e. word k * kLdA + m: with kLdA % 32 == 32 / kBK those are 32 distinct banks
// (kBK = 4 would need 136).
inline constexpr int kPadA = 32 / kBK;
inline constexpr int kLdA = kBM + kPadA;
inline constexpr int kCopiesA = kBM * kBK / kThreads;         // 4-byte copies of A per thread per k-tile: 8
inline constexpr int kCopiesB4 = kBK * kBN / 4 / kThreads;    // 16-byte copies of B (N % 4 == 0): 2
inline constexpr int kCopiesB1 = kBK * kBN / kThreads;        // 4-byte copies of B (any N): 8
inline constexpr int kRowsA = kThreads / kBK;                 // rows between a thread's copies of A: 16
inline constexpr int kRowsB4 = kThreads / (kBN / 4), kRowsB1 = kThreads / kBN;  // ... of B: 4 or 1
inline constexpr int kStageBytesA = kBK * kLdA * 4, kStageBytesB = kBK * kBN * 4;
static_assert(kLanesM * kLanesN == 32 && kSubsM == 4 && kSubsN == 2, "a warp is 4 x 8 lanes of 4 x 2 sub-tiles");
static_assert(kThreads % kBK == 0 && kThreads % (kBN / 4) == 0 && kThreads % kBN == 0, "copy roles tile the k-tile");
static_assert(kBK == 4 || kBK == 8, "the padding of As keeps the copies conflict-free for these only");
static_assert(kBK % 2 == 0, "k-step 0 of every tile uses fragment buffer 0");
inline constexpr const char* kShapeRule = "";  // any M, N, K: copies outside the matrices zero-fill
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0; }

// Two stages per k-tile: TraceProbe's stage buffer holds 16 sampled blocks x 4 warps x 512 k-tiles x 2.
enum Stage : int { kPrologue, kCompute, kWait, kEpilogue };
inline constexpr const char* kStageNames[] = {"prologue (tiles 0-3 in flight, tile 0 landed)", "compute",
                                              "wait for tile k+1 (cp.async + barrier)", "epilogue"};
enum Site : int { kAsCopy, kBsCopy, kAsLoad, kBsLoad };
inline constexpr const char* kSmemSites[] = {"As cp.async (4 B, transposed)", "Bs cp.async", "As load (frag)",
                                             "Bs load (frag)"};

// kVecB: N % 4 == 0 with 16-byte aligned B and C, so B moves in 16-byte copies and C in float4 stores;
// otherwise both go one float at a time (the launcher picks).
template <class Probe, bool kVecB>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSM) kernel(GemmArgs<float, float> g, Probe probe) {
  // 33.3 KB for four stages, as in 09
  __shared__ __align__(16) float As[kStages][kBK][kLdA];  // (stage, BK, BM) tiles of A, transposed, + kPadA
  __shared__ __align__(16) float Bs[kStages][kBK][kBN];   // (stage, BK, BN) tiles of B, row-major

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int m0 = blockIdx.y * kBM, n0 = blockIdx.x * kBN;
  GS_PROBE(probe.block_begin(blockIdx.y, blockIdx.x));

  // Computing role, as in 10: lane (lm, ln) of warp (wm, wn) owns rows a_frag + s*16 + i and columns
  // b_frag + t*32 + j of the block tile (s = 0..3, t = 0, 1).
  const int wm = warp / kWarpsN, wn = warp % kWarpsN;
  const int lm = lane / kLanesN, ln = lane % kLanesN;
  const int a_frag = wm * kWM + lm * kSub;
  const int b_frag = wn * kWN + ln * kSub;
  constexpr int kSubStrideM = kLanesM * kSub, kSubStrideN = kLanesN * kSub;  // 16 rows, 32 columns

  // Copy roles, as in 10: A copy p moves A[m0 + am + 16p][k0 + ak] to As[ak][am + 16p] (4 bytes,
  // conflict-free); B moves in two 16-byte copies per thread (kVecB) or eight 4-byte ones.
  const int ak = tid % kBK, am = tid / kBK;
  const float* a_src = g.a + static_cast<size_t>(m0 + am) * g.k + ak;  // A[m0 + am][ak + k0]: + kBK per k-tile
  const size_t a_pstride = static_cast<size_t>(kRowsA) * g.k;           // copy p reads a_src + p * a_pstride
  const int a_rows = g.m - m0 - am;                                     // copy p is inside A if p*16 < a_rows
  const bool rows_full = m0 + kBM <= g.m;                               // block-uniform: no row past M
  const uint32_t a_dst = sgemm_common::smem_u32(&As[0][ak][am]);        // + stage * kStageBytesA + p * 64
  constexpr int kCopiesB = kVecB ? kCopiesB4 : kCopiesB1;
  constexpr int kRowsB = kVecB ? kRowsB4 : kRowsB1;
  const int bk = kVecB ? tid / (kBN / 4) : tid / kBN;
  const int bn = kVecB ? tid % (kBN / 4) * 4 : tid % kBN;
  const bool b_in = n0 + bn < g.n;
  const float* b_src = g.b + static_cast<size_t>(bk) * g.n + (b_in ? n0 + bn : 0);  // B[bk + k0][n0 + bn]
  const int b_bytes = b_in ? (kVecB ? 16 : 4) : 0;
  const uint32_t b_dst = sgemm_common::smem_u32(&Bs[0][bk][bn]);  // + stage * kStageBytesB + p * kRowsB rows
  const size_t b_step = static_cast<size_t>(kBK) * g.n;           // B advances kBK rows per k-tile

  auto copy_b = [](uint32_t smem, const float* gmem, int bytes) {
    if constexpr (kVecB) {
      sgemm_common::cp_async_16(smem, gmem, bytes);
    } else {
      sgemm_common::cp_async_4(smem, gmem, bytes);
    }
  };
  // Issues (does not wait for) the copies of the next k-tile into stage st and advances the sources.
  // Whole k-tiles of blocks inside M need no test, as in 10.
  auto issue = [&](int st, int k0) {
    const uint32_t sa = a_dst + st * kStageBytesA, sb = b_dst + st * kStageBytesB;
    if (rows_full && k0 + kBK <= g.k) {
#pragma unroll
      for (int p = 0; p < kCopiesA; ++p) sgemm_common::cp_async_4(sa + p * kRowsA * 4, a_src + p * a_pstride, 4);
#pragma unroll
      for (int p = 0; p < kCopiesB; ++p) copy_b(sb + p * kRowsB * kBN * 4, b_src + p * kRowsB * g.n, b_bytes);
    } else {
      const bool ka = k0 + ak < g.k;
#pragma unroll
      for (int p = 0; p < kCopiesA; ++p) {
        const bool in = ka && p * kRowsA < a_rows;
        sgemm_common::cp_async_4(sa + p * kRowsA * 4, in ? a_src + p * a_pstride : g.a, in ? 4 : 0);
      }
#pragma unroll
      for (int p = 0; p < kCopiesB; ++p) {
        const bool kb = k0 + bk + p * kRowsB < g.k;
        copy_b(sb + p * kRowsB * kBN * 4, kb ? b_src + p * kRowsB * g.n : g.b, kb ? b_bytes : 0);
      }
    }
    GS_PROBE(probe.smem(kAsCopy, &As[st][ak][am], 4, SmemKind::kCpAsync));
    GS_PROBE(probe.smem(kBsCopy, &Bs[st][bk][bn], kVecB ? 16 : 4, SmemKind::kCpAsync));
    a_src += kBK;
    b_src += b_step;
  };

  // Two register buffers of slivers: frag_a[buf][s*4 + i], frag_b[buf][t*4 + j]. k-step kk computes
  // from buffer kk % 2 while buffer (kk+1) % 2 fills; every index is a compile-time constant once the
  // k-steps are unrolled, so both stay in registers.
  float frag_a[2][kTM], frag_b[2][kTN];
  auto load_frags = [&](int buf, int st, int kk) {
#pragma unroll
    for (int s = 0; s < kSubsM; ++s) {
      *reinterpret_cast<float4*>(&frag_a[buf][s * kSub]) =
          *reinterpret_cast<const float4*>(&As[st][kk][a_frag + s * kSubStrideM]);
    }
#pragma unroll
    for (int t = 0; t < kSubsN; ++t) {
      *reinterpret_cast<float4*>(&frag_b[buf][t * kSub]) =
          *reinterpret_cast<const float4*>(&Bs[st][kk][b_frag + t * kSubStrideN]);
    }
  };

  const int num_kt = (g.k + kBK - 1) / kBK;
  // Group g holds k-tile g, one commit per tile (empty past the end). A tile's stage is refilled as soon
  // as its last slivers are in registers, so all four stages are in flight or being read.
  GS_PROBE(probe.stage(kPrologue));
#pragma unroll
  for (int s = 0; s < kStages; ++s) {
    if (s < num_kt) issue(s, s * kBK);
    sgemm_common::cp_async_commit();
  }
  sgemm_common::cp_async_wait<kStages - 1>();  // tile 0 has landed for this thread ...
  __syncthreads();                             // ... and for everyone
  load_frags(0, 0, 0);

  float acc[kTM][kTN] = {};  // acc[s*4 + i][t*4 + j]
  GS_PROBE(probe.stage(kCompute));
  for (int kt = 0; kt < num_kt; ++kt) {
    const int rd = kt % kStages;  // stage holding tile kt
    GS_PROBE(probe.iteration(kt));
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      // Slivers of the next k-step: kk+1 of this tile, or k-step 0 of tile kt+1 from the next stage.
      const int next = kk + 1 < kBK ? rd : (kt + 1) % kStages;
      if (kk == kBK - 1) {
        // The slivers of this last k-step are already in registers, so stage rd is free once every
        // warp is here. Wait for tile kt+1 (issued 3 tiles ago: at most 2 newer groups pending) and
        // refill stage rd with tile kt+4. After the last tile the next stage is read but never used.
        GS_PROBE(probe.stage(kWait));
        sgemm_common::cp_async_wait<kStages - 2>();
        __syncthreads();
        GS_PROBE(probe.stage(kCompute));
      }
      load_frags((kk + 1) % 2, next, (kk + 1) % kBK);
      if (kk == kBK - 1) {  // copies after the slivers, as in 10, so those loads do not queue behind them
        if (kt + kStages < num_kt) issue(rd, (kt + kStages) * kBK);
        sgemm_common::cp_async_commit();
      }
      if (kk == 0) {
        GS_PROBE(probe.smem(kAsLoad, &As[rd][1][a_frag], 16, SmemKind::kLoad));
        GS_PROBE(probe.smem(kBsLoad, &Bs[rd][1][b_frag], 16, SmemKind::kLoad));
      }
      const int cur = kk % 2;
      // Serpentine order, as in 10.
#pragma unroll
      for (int i = 0; i < kTM; ++i) {
#pragma unroll
        for (int jj = 0; jj < kTN; ++jj) {
          const int j = i % 2 ? kTN - 1 - jj : jj;
          acc[i][j] += frag_a[cur][i] * frag_b[cur][j];
        }
      }
    }
  }
  sgemm_common::cp_async_wait<0>();  // only empty groups remain; leave none behind

  GS_PROBE(probe.stage(kEpilogue));
  // A warp's store of one (s, i, t) is 4 rows x 128 contiguous bytes: whole lines.
#pragma unroll
  for (int s = 0; s < kSubsM; ++s) {
#pragma unroll
    for (int i = 0; i < kSub; ++i) {
      const int row = m0 + a_frag + s * kSubStrideM + i;
      if (row < g.m) {
        float* c = g.c + static_cast<size_t>(row) * g.n;
#pragma unroll
        for (int t = 0; t < kSubsN; ++t) {
          const int col = n0 + b_frag + t * kSubStrideN;
          const float* v = &acc[s * kSub + i][t * kSub];
          if constexpr (kVecB) {  // N % 4 == 0: the float4 is wholly inside or outside
            if (col < g.n) sgemm_common::store_c4(c + col, make_float4(v[0], v[1], v[2], v[3]), g.alpha, g.beta);
          } else {
#pragma unroll
            for (int j = 0; j < kSub; ++j) {
              if (col + j < g.n) sgemm_common::store_c(c + col + j, v[j], g.alpha, g.beta);
            }
          }
        }
      }
    }
  }
  GS_PROBE(probe.block_end());
}

template <class Probe>
cudaError_t launch(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  // grid x covers the columns of C, grid y its rows: ceil(N/128) x ceil(M/128) blocks
  const dim3 grid((g.n + kBN - 1) / kBN, (g.m + kBM - 1) / kBM);
  if (g.n % 4 == 0 && sgemm_common::aligned16(g.b) && sgemm_common::aligned16(g.c)) {
    kernel<Probe, true><<<grid, kThreads, 0, stream>>>(g, probe);
  } else {
    kernel<Probe, false><<<grid, kThreads, 0, stream>>>(g, probe);
  }
  return cudaGetLastError();
}

}  // namespace gs::sgemm_11_frag_dbuf
