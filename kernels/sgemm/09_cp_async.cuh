// sgemm/09_cp_async. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::sgemm_09_cp_async {

inline constexpr const char* kTitle = "cp.async: a 4-stage global-to-shared pipeline";
inline constexpr const char* kAdds =
    "A 4-stage cp.async pipeline. Tiles go global -> shared without passing through registers (A transposed by "
    "4-byte copies, B in 16-byte ones), three k-tiles ahead of the FMAs: no staging registers or shared stores "
    "left in the k-loop, and edges zero-filled, so any M, N, K runs.";

}  // namespace gs::sgemm_09_cp_async

#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"
#include "kernels/sgemm/common.cuh"

namespace gs::sgemm_09_cp_async {

inline constexpr int kBM = 128, kBN = 128, kBK = 8;       // block tile of C, and the k-tile
inline constexpr int kStages = 4;                         // k-tiles in shared memory: 1 read, up to 3 landing
inline constexpr int kWarpsM = 4, kWarpsN = 2;            // 8 warps; warp tile 32 x 64, as in 07
inline constexpr int kWM = kBM / kWarpsM, kWN = kBN / kWarpsN;
inline constexpr int kLanesM = 4, kLanesN = 8;            // lane grid of a warp
inline constexpr int kSub = 4;                            // 4x4 sub-tiles, 2 x 2 per lane
inline constexpr int kSubsM = kWM / (kLanesM * kSub), kSubsN = kWN / (kLanesN * kSub);
inline constexpr int kTM = kSubsM * kSub, kTN = kSubsN * kSub;  // 8 x 8 results per thread
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;   // 256
inline constexpr int kPadA = 4;
inline constexpr int kLdA = kBM + kPadA;  // 132: the transposed A tile's rows, as in 06
inline constexpr int kCopiesA = kBM * kBK / kThreads;         // 4-byte copies of A per thread per k-tile: 4
inline constexpr int kCopiesB4 = kBK * kBN / 4 / kThreads;    // 16-byte copies of B (N % 4 == 0): 1
inline constexpr int kCopiesB1 = kBK * kBN / kThreads;        // 4-byte copies of B (any N): 4
inline constexpr int kRowsA = kThreads / kBK, kRowsB = kThreads / kBN;  // rows between a thread's copies: 32, 2
inline constexpr int kStageBytesA = kBK * kLdA * 4, kStageBytesB = kBK * kBN * 4;
static_assert(kLanesM * kLanesN == 32 && kSubsM == 2 && kSubsN == 2, "a warp is 4 x 8 lanes of 2 x 2 sub-tiles");
static_assert(kCopiesB4 == 1 && kThreads % kBK == 0 && kThreads % kBN == 0, "copy roles tile the k-tile");
inline constexpr const char* kShapeRule = "";  // any M, N, K: copies outside the matrices zero-fill
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0; }

// Two stages per k-tile: TraceProbe's stage buffer holds 16 sampled blocks x 8 warps x 512 k-tiles x 2.
enum Stage : int { kPrologue, kWait, kCompute, kEpilogue };
inline constexpr const char* kStageNames[] = {"prologue (tiles 0-2 in flight)", "wait (cp.async + barrier)",
                                              "compute (tile k; tile k+3 issued)", "epilogue"};
enum Site : int { kAsCopy, kBsCopy, kAsLoad, kBsLoad };
inline constexpr const char* kSmemSites[] = {"As cp.async (4 B, transposed)", "Bs cp.async", "As load (frag)",
                                             "Bs load (frag)"};

// kVecB: N % 4 == 0 with 16-byte aligned B and C, so B moves in 16-byte copies and C in float4 stores;
// otherwise both go one float at a time (the launcher picks).
template <class Probe, bool kVecB>
__global__ void __launch_bounds__(kThreads, 2) kernel(GemmArgs<float, float> g, Probe probe) {
  // 33.3 KB for four stages: two blocks per SM, as the registers allow
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

  // Copy role for A: copy p moves A[m0 + am + 32p][k0 + ak] to As[ak][am + 32p] (copy q = tid + p*256
  // takes element q of the tile in row-major order). A warp reads 4 rows x 32 bytes (4 sectors) and
  // writes word 132*k + m: bank 4*(lane%8) + lane/8 + const, all 32 distinct. Every copy of a thread
  // has the same k, so rows differ by a fixed offset and one pointer walks along k for all four.
  const int ak = tid % kBK, am = tid / kBK;  // + p * 32 rows
  const float* a_src = g.a + static_cast<size_t>(m0) * g.k + ak;  // A[m0][ak + k0]: + kBK per k-tile
  int a_off[kCopiesA], a_bytes[kCopiesA];  // row offset (elements, < 128 K) and 4, or 0 and 0 past M
#pragma unroll
  for (int p = 0; p < kCopiesA; ++p) {
    const int row = am + p * (kThreads / kBK);
    const bool in = m0 + row < g.m;
    a_off[p] = in ? row * g.k : 0;  // rows past M re-read row m0 (mapped) and zero-fill instead
    a_bytes[p] = in ? 4 : 0;
  }
  const uint32_t a_dst = sgemm_common::smem_u32(&As[0][ak][am]);  // + stage * kStageBytesA + p * 128
  // Copy role for B. kVecB: B[k0 + bk][n0 + bn .. +4) to Bs[bk][bn] (a warp: 512 contiguous bytes of one
  // row). Otherwise four floats, B[k0 + bk + 2p][n0 + bn] (a warp: 128 contiguous bytes).
  const int bk = kVecB ? tid / (kBN / 4) : tid / kBN;
  const int bn = kVecB ? tid % (kBN / 4) * 4 : tid % kBN;
  const bool b_in = n0 + bn < g.n;
  const float* b_src = g.b + static_cast<size_t>(bk) * g.n + (b_in ? n0 + bn : 0);  // B[bk + k0][n0 + bn]
  const int b_bytes = b_in ? (kVecB ? 16 : 4) : 0;
  const uint32_t b_dst = sgemm_common::smem_u32(&Bs[0][bk][bn]);  // + stage * kStageBytesB (+ p * 2 rows)
  const size_t b_step = static_cast<size_t>(kBK) * g.n;           // B advances kBK rows per k-tile

  // Issues (does not wait for) the copies of the next k-tile into stage st and advances the sources.
  // Whole k-tiles need no test; only a tail tile (K % 8 != 0) checks k and points the copies that fall
  // past K back at the matrix base.
  auto issue = [&](int st, int k0) {
    const uint32_t sa = a_dst + st * kStageBytesA, sb = b_dst + st * kStageBytesB;
    if (k0 + kBK <= g.k) {
#pragma unroll
      for (int p = 0; p < kCopiesA; ++p) {
        GS_PROBE(probe.gmem(kGmemA, a_src + a_off[p], a_bytes[p], GmemKind::kCpAsync));  // 0: zero fill past M
        sgemm_common::cp_async_4(sa + p * kRowsA * 4, a_src + a_off[p], a_bytes[p]);
      }
      if constexpr (kVecB) {
        GS_PROBE(probe.gmem(kGmemB, b_src, b_bytes, GmemKind::kCpAsync));
        sgemm_common::cp_async_16(sb, b_src, b_bytes);
      } else {
#pragma unroll
        for (int p = 0; p < kCopiesB1; ++p) {
          GS_PROBE(probe.gmem(kGmemB, b_src + p * kRowsB * g.n, b_bytes, GmemKind::kCpAsync));
          sgemm_common::cp_async_4(sb + p * kRowsB * kBN * 4, b_src + p * kRowsB * g.n, b_bytes);
        }
      }
    } else {
      const bool ka = k0 + ak < g.k;
#pragma unroll
      for (int p = 0; p < kCopiesA; ++p) {
        GS_PROBE(probe.gmem(kGmemA, ka ? a_src + a_off[p] : g.a, ka ? a_bytes[p] : 0, GmemKind::kCpAsync));
        sgemm_common::cp_async_4(sa + p * kRowsA * 4, ka ? a_src + a_off[p] : g.a, ka ? a_bytes[p] : 0);
      }
      if constexpr (kVecB) {
        const bool kb = k0 + bk < g.k;
        GS_PROBE(probe.gmem(kGmemB, kb ? b_src : g.b, kb ? b_bytes : 0, GmemKind::kCpAsync));
        sgemm_common::cp_async_16(sb, kb ? b_src : g.b, kb ? b_bytes : 0);
      } else {
#pragma unroll
        for (int p = 0; p < kCopiesB1; ++p) {
          const bool kb = k0 + bk + p * kRowsB < g.k;
          GS_PROBE(probe.gmem(kGmemB, kb ? b_src + p * kRowsB * g.n : g.b, kb ? b_bytes : 0, GmemKind::kCpAsync));
          sgemm_common::cp_async_4(sb + p * kRowsB * kBN * 4, kb ? b_src + p * kRowsB * g.n : g.b, kb ? b_bytes : 0);
        }
      }
    }
    // One shared-memory record per copy the warp issued: 4 of A, and 1 (16 B) or 4 of B (a zero-filled copy
    // still writes its bytes).
#pragma unroll
    for (int p = 0; p < kCopiesA; ++p)
      GS_PROBE(probe.smem(kAsCopy, &As[st][ak][am + p * kRowsA], 4, SmemKind::kCpAsync));
#pragma unroll
    for (int p = 0; p < (kVecB ? kCopiesB4 : kCopiesB1); ++p)
      GS_PROBE(probe.smem(kBsCopy, &Bs[st][bk + p * kRowsB][bn], kVecB ? 16 : 4, SmemKind::kCpAsync));
    a_src += kBK;
    b_src += b_step;
  };

  const int num_kt = (g.k + kBK - 1) / kBK;
  // Group g holds k-tile g: one commit per tile, empty past the end, so "tile kt has landed" is always
  // "at most kStages - 2 newer groups pending" below.
  GS_PROBE(probe.stage(kPrologue));
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < num_kt) issue(s, s * kBK);
    sgemm_common::cp_async_commit();
  }

  float acc[kTM][kTN] = {};  // acc[s*4 + i][t*4 + j]
  for (int kt = 0; kt < num_kt; ++kt) {
    const int rd = kt % kStages;                 // stage holding tile kt
    const int wr = (kt + kStages - 1) % kStages;  // stage receiving tile kt + 3: the one tile kt-1 used
    GS_PROBE(probe.iteration(kt));
    GS_PROBE(probe.stage(kWait));
    sgemm_common::cp_async_wait<kStages - 2>();  // this thread's copies of tile kt have landed ...
    GS_PROBE(probe.mark(Mark::kCpAsyncWait));
    __syncthreads();  // ... and everyone's; also, every warp is done with tile kt-1, whose stage wr is
    GS_PROBE(probe.mark(Mark::kBarrier));

    GS_PROBE(probe.stage(kCompute));
    if (kt + kStages - 1 < num_kt) issue(wr, (kt + kStages - 1) * kBK);
    sgemm_common::cp_async_commit();

#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      float reg_a[kTM], reg_b[kTN];  // reg_a[s*4 + i], reg_b[t*4 + j]
#pragma unroll
      for (int s = 0; s < kSubsM; ++s) {
        GS_PROBE(probe.smem(kAsLoad, &As[rd][kk][a_frag + s * kSubStrideM], 16, SmemKind::kLoad));
        *reinterpret_cast<float4*>(&reg_a[s * kSub]) =
            *reinterpret_cast<const float4*>(&As[rd][kk][a_frag + s * kSubStrideM]);
      }
#pragma unroll
      for (int t = 0; t < kSubsN; ++t) {
        GS_PROBE(probe.smem(kBsLoad, &Bs[rd][kk][b_frag + t * kSubStrideN], 16, SmemKind::kLoad));
        *reinterpret_cast<float4*>(&reg_b[t * kSub]) =
            *reinterpret_cast<const float4*>(&Bs[rd][kk][b_frag + t * kSubStrideN]);
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
  }
  sgemm_common::cp_async_wait<0>();  // only empty groups remain; leave none behind
  GS_PROBE(probe.mark(Mark::kCpAsyncWait));

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
          const int col = n0 + b_frag + t * kSubStrideN;
          const float* v = &acc[s * kSub + i][t * kSub];
          if constexpr (kVecB) {  // N % 4 == 0: the float4 is wholly inside or outside
            if (col < g.n) sgemm_common::store_c4(c + col, make_float4(v[0], v[1], v[2], v[3]), g.alpha, g.beta, probe);
          } else {
#pragma unroll
            for (int j = 0; j < kSub; ++j) {
              if (col + j < g.n) sgemm_common::store_c(c + col + j, v[j], g.alpha, g.beta, probe);
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

}  // namespace gs::sgemm_09_cp_async
