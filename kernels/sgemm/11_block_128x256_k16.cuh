// sgemm/11_block_128x256_k16. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::sgemm_11_block_128x256_k16 {

inline constexpr const char* kTitle = "128x256 blocks of 8 warps, 16-deep k-tiles";
inline constexpr const char* kAdds =
    "10's warps and thread tiles, with fewer copies and barriers per FMA. One 128x256 block of 8 warps per SM "
    "instead of two 128x128 blocks of 4: each tile of A is copied once for 256 columns, not twice for 128, so the "
    "4-byte transposing copies of A per FMA halve. And 16-deep k-tiles: one barrier, wait and copy issue per "
    "2048 FMAs, not 1024. On an H100 at 4096^3 and 8192^3, interleaved with cuBLAS: 10 0.94-0.96, the k-tile "
    "alone 0.97-0.98, the block alone 0.96-0.98, both 1.00-1.02. Not a step below 2048^3: at 1024^3 the big tiles "
    "leave 32 blocks for 132 SMs (10: 64), 0.35 of cuBLAS against 10's 0.58 (H100 and H200 alike).";

}  // namespace gs::sgemm_11_block_128x256_k16

#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"
#include "kernels/sgemm/common.cuh"

namespace gs::sgemm_11_block_128x256_k16 {

inline constexpr int kBM = 128, kBN = 256, kBK = 16;      // block tile of C, and the k-tile
inline constexpr int kStages = 4;                         // k-tiles in shared memory: 1 read, up to 3 landing
// (3 stages measured 0.4-1.4 points slower at 4096^3 and 8192^3, 2 stages 0.1-0.4: bench/NOTES.md)
inline constexpr int kWarpsM = 2, kWarpsN = 4;            // 8 warps; warp tile 64 x 64 as in 10
inline constexpr int kWM = kBM / kWarpsM, kWN = kBN / kWarpsN;
inline constexpr int kLanesM = 4, kLanesN = 8;            // lane grid of a warp, as in 07
inline constexpr int kSub = 4;                            // 4x4 sub-tiles, 4 x 2 per lane
inline constexpr int kSubsM = kWM / (kLanesM * kSub), kSubsN = kWN / (kLanesN * kSub);
inline constexpr int kTM = kSubsM * kSub, kTN = kSubsN * kSub;  // 16 x 8 results per thread, as in 10
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;   // 256
// About 210 registers: one block (8 warps, 2 per scheduler) per SM, as 10's two blocks. At 4096^3 that is
// 512 tiles over 132 SMs, 3.88 waves, the same tail as 10.
inline constexpr int kMinBlocksPerSM = 1;
// Rows of the transposed A tile: 132 floats, as in 10. A thread copies 8 consecutive k of one row
// (k = tid % 8: one 32-byte sector of A), so a warp writes word k * kLdA + m with k = lane % 8 and
// m = lane / 8 + const: bank 4 * (lane % 8) + lane / 8 + const, all 32 distinct. The second 8 of the
// k-tile lie 8 * 132 words further, a multiple of 32: the same banks.
inline constexpr int kLdA = kBM + 4;
inline constexpr int kHalvesK = kBK / 8;                      // a thread's copies of A cover k and k + 8
inline constexpr int kRowsA = kThreads / 8;                   // rows between a thread's copies of A: 32
inline constexpr int kCopiesA = kBM * kBK / kThreads;         // 4-byte copies of A per thread per k-tile: 8 (10: 8 per half as many FMAs)
inline constexpr int kCopiesB4 = kBK * kBN / 4 / kThreads;    // 16-byte copies of B (N % 4 == 0): 4
inline constexpr int kCopiesB1 = kBK * kBN / kThreads;        // 4-byte copies of B (any N): 16
inline constexpr int kRowsB4 = kThreads / (kBN / 4), kRowsB1 = kThreads / kBN;  // rows between copies of B: 4 or 1
inline constexpr int kStageFloatsA = kBK * kLdA, kStageFloatsB = kBK * kBN;
inline constexpr int kStageBytesA = kStageFloatsA * 4, kStageBytesB = kStageFloatsB * 4;
inline constexpr int kSmemBytes = kStages * (kStageBytesA + kStageBytesB);  // 99,328: past the 48 KB default
static_assert(kLanesM * kLanesN == 32 && kSubsM == 4 && kSubsN == 2, "a warp is 4 x 8 lanes of 4 x 2 sub-tiles");
static_assert(kBK % 8 == 0 && kCopiesA == kHalvesK * (kBM / kRowsA), "copies of A: 8 k of a row per thread");
static_assert(kThreads % (kBN / 4) == 0 && kThreads % kBN == 0, "copy roles of B tile the k-tile");
static_assert(kLdA % 32 == 4 && (8 * kLdA) % 32 == 0, "the transposing copies of A are conflict-free");
inline constexpr const char* kShapeRule = "";  // any M, N, K: copies outside the matrices zero-fill
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0; }

// Two stages per k-tile, as in 10; 8 warps and half as many k-tiles fill TraceProbe's stage buffer as 10 does.
enum Stage : int { kPrologue, kWait, kCompute, kEpilogue };
inline constexpr const char* kStageNames[] = {"prologue (tiles 0-2 in flight)", "wait (cp.async + barrier)",
                                              "compute (tile k; tile k+3 issued)", "epilogue"};
enum Site : int { kAsCopy, kBsCopy, kAsLoad, kBsLoad };
inline constexpr const char* kSmemSites[] = {"As cp.async (4 B, transposed)", "Bs cp.async", "As load (frag)",
                                             "Bs load (frag)"};

// kVecB: N % 4 == 0 with 16-byte aligned B and C, so B moves in 16-byte copies and C in float4 stores;
// otherwise both go one float at a time (the launcher picks).
template <class Probe, bool kVecB>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSM) kernel(GemmArgs<float, float> g, Probe probe) {
  // 97 KB for four stages, dynamic: (stage, BK, BM + 4) tiles of A, transposed, then (stage, BK, BN) of B
  extern __shared__ __align__(16) float smem[];
  float* const As = smem;
  float* const Bs = smem + kStages * kStageFloatsA;

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int tile_m = blockIdx.y, tile_n = blockIdx.x;  // row-major over C
  const int m0 = tile_m * kBM, n0 = tile_n * kBN;
  GS_PROBE(probe.block_begin(tile_m, tile_n));

  // Computing role, as in 10. Warp (wm, wn) owns block rows wm*64 .. +64, columns wn*64 .. +64; lane (lm, ln)
  // owns rows a_frag + s*16 + i (s = 0..3, i = 0..3) and columns b_frag + t*32 + j (t = 0, 1; j = 0..3).
  const int wm = warp / kWarpsN, wn = warp % kWarpsN;
  const int lm = lane / kLanesN, ln = lane % kLanesN;
  const int a_frag = wm * kWM + lm * kSub;
  const int b_frag = wn * kWN + ln * kSub;
  constexpr int kSubStrideM = kLanesM * kSub, kSubStrideN = kLanesN * kSub;  // 16 rows, 32 columns

  // Copy role for A: copy p = h + 2r moves A[m0 + am + 32r][k0 + ak + 8h] to As[ak + 8h][am + 32r]. A warp
  // reads 4 rows x 32 bytes per copy.
  const int ak = tid % 8, am = tid / 8;
  const float* a_src = g.a + static_cast<size_t>(m0 + am) * g.k + ak;  // A[m0 + am][ak + k0]: + kBK per k-tile
  const size_t a_rstride = static_cast<size_t>(kRowsA) * g.k;           // row block r reads a_src + r * a_rstride
  const int a_rows = g.m - m0 - am;                                     // row block r is inside A if r*32 < a_rows
  const bool rows_full = m0 + kBM <= g.m;                               // block-uniform: no row past M
  const uint32_t a_dst = sgemm_common::smem_u32(&As[ak * kLdA + am]);  // + stage * kStageBytesA + copy offset
  // Shared offset (bytes) and global offset (floats, less the row stride) of copy p of A.
  auto a_soff = [](int p) { return ((p % kHalvesK) * 8 * kLdA + (p / kHalvesK) * kRowsA) * 4; };
  // Copy role for B, as in 10. kVecB: copy p moves B[k0 + bk + 4p][n0 + bn .. +4) (a warp: 512 contiguous
  // bytes of one row). Otherwise one float, B[k0 + p][n0 + bn] (a warp: 128 contiguous bytes).
  constexpr int kCopiesB = kVecB ? kCopiesB4 : kCopiesB1;
  constexpr int kRowsB = kVecB ? kRowsB4 : kRowsB1;
  const int bk = kVecB ? tid / (kBN / 4) : tid / kBN;
  const int bn = kVecB ? tid % (kBN / 4) * 4 : tid % kBN;
  const bool b_in = n0 + bn < g.n;
  const float* b_src = g.b + static_cast<size_t>(bk) * g.n + (b_in ? n0 + bn : 0);  // B[bk + k0][n0 + bn]
  const int b_bytes = b_in ? (kVecB ? 16 : 4) : 0;
  const uint32_t b_dst = sgemm_common::smem_u32(&Bs[bk * kBN + bn]);  // + stage * kStageBytesB + p * kRowsB rows
  const size_t b_step = static_cast<size_t>(kBK) * g.n;               // B advances kBK rows per k-tile

  auto copy_b = [](uint32_t dst, const float* src, int bytes) {
    if constexpr (kVecB) {
      sgemm_common::cp_async_16(dst, src, bytes);
    } else {
      sgemm_common::cp_async_4(dst, src, bytes);
    }
  };
  // Issues (does not wait for) the copies of the next k-tile into stage st and advances the sources.
  // Whole k-tiles of blocks inside M need no test; the others check each copy and point those that
  // fall outside back at the matrix base.
  auto issue = [&](int st, int k0) {
    const uint32_t sa = a_dst + st * kStageBytesA, sb = b_dst + st * kStageBytesB;
    if (rows_full && k0 + kBK <= g.k) {
#pragma unroll
      for (int p = 0; p < kCopiesA; ++p) {
        const float* src = a_src + (p / kHalvesK) * a_rstride + (p % kHalvesK) * 8;
        GS_PROBE(probe.gmem(kGmemA, src, 4, GmemKind::kCpAsync));
        sgemm_common::cp_async_4(sa + a_soff(p), src, 4);
      }
#pragma unroll
      for (int p = 0; p < kCopiesB; ++p) {
        GS_PROBE(probe.gmem(kGmemB, b_src + p * kRowsB * g.n, b_bytes, GmemKind::kCpAsync));  // 0: past N
        copy_b(sb + p * kRowsB * kBN * 4, b_src + p * kRowsB * g.n, b_bytes);
      }
    } else {
#pragma unroll
      for (int p = 0; p < kCopiesA; ++p) {
        const bool in = k0 + ak + (p % kHalvesK) * 8 < g.k && (p / kHalvesK) * kRowsA < a_rows;
        const float* src = in ? a_src + (p / kHalvesK) * a_rstride + (p % kHalvesK) * 8 : g.a;
        GS_PROBE(probe.gmem(kGmemA, src, in ? 4 : 0, GmemKind::kCpAsync));  // 0: zero fill
        sgemm_common::cp_async_4(sa + a_soff(p), src, in ? 4 : 0);
      }
#pragma unroll
      for (int p = 0; p < kCopiesB; ++p) {
        const bool kb = k0 + bk + p * kRowsB < g.k;
        GS_PROBE(probe.gmem(kGmemB, kb ? b_src + p * kRowsB * g.n : g.b, kb ? b_bytes : 0, GmemKind::kCpAsync));
        copy_b(sb + p * kRowsB * kBN * 4, kb ? b_src + p * kRowsB * g.n : g.b, kb ? b_bytes : 0);
      }
    }
    // One shared-memory record per copy the warp issued (a zero-filled copy still writes its bytes).
#pragma unroll
    for (int p = 0; p < kCopiesA; ++p)
      GS_PROBE(probe.smem(kAsCopy, &As[st * kStageFloatsA + ak * kLdA + am + a_soff(p) / 4], 4, SmemKind::kCpAsync));
#pragma unroll
    for (int p = 0; p < kCopiesB; ++p)
      GS_PROBE(probe.smem(kBsCopy, &Bs[st * kStageFloatsB + (bk + p * kRowsB) * kBN + bn], kVecB ? 16 : 4,
                          SmemKind::kCpAsync));
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
    const int rd = kt % kStages;                  // stage holding tile kt
    const int wr = (kt + kStages - 1) % kStages;  // stage receiving tile kt + 3: the one tile kt-1 used
    const float* as = As + rd * kStageFloatsA;    // (BK, BM + 4)
    const float* bs = Bs + rd * kStageFloatsB;    // (BK, BN)
    GS_PROBE(probe.iteration(kt));
    GS_PROBE(probe.stage(kWait));
    sgemm_common::cp_async_wait<kStages - 2>();  // this thread's copies of tile kt have landed ...
    GS_PROBE(probe.mark(Mark::kCpAsyncWait));
    __syncthreads();  // ... and everyone's; also, every warp is done with tile kt-1, so stage wr is free
    GS_PROBE(probe.mark(Mark::kBarrier));

    GS_PROBE(probe.stage(kCompute));
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      float reg_a[kTM], reg_b[kTN];  // reg_a[s*4 + i], reg_b[t*4 + j]
#pragma unroll
      for (int s = 0; s < kSubsM; ++s) {
        const float* p = &as[kk * kLdA + a_frag + s * kSubStrideM];
        GS_PROBE(probe.smem(kAsLoad, p, 16, SmemKind::kLoad));
        *reinterpret_cast<float4*>(&reg_a[s * kSub]) = *reinterpret_cast<const float4*>(p);
      }
#pragma unroll
      for (int t = 0; t < kSubsN; ++t) {
        const float* p = &bs[kk * kBN + b_frag + t * kSubStrideN];
        GS_PROBE(probe.smem(kBsLoad, p, 16, SmemKind::kLoad));
        *reinterpret_cast<float4*>(&reg_b[t * kSub]) = *reinterpret_cast<const float4*>(p);
      }
      if (kk == 0) {
        // After k-step 0's slivers are requested, as in 10.
        if (kt + kStages - 1 < num_kt) issue(wr, (kt + kStages - 1) * kBK);
        sgemm_common::cp_async_commit();
      }
      // Serpentine order, as in 10: consecutive FMAs share an operand for the register reuse cache.
#pragma unroll
      for (int i = 0; i < kTM; ++i) {
#pragma unroll
        for (int jj = 0; jj < kTN; ++jj) {
          const int j = i % 2 ? kTN - 1 - jj : jj;
          acc[i][j] += reg_a[i] * reg_b[j];
        }
      }
    }
  }
  sgemm_common::cp_async_wait<0>();  // only empty groups remain; leave none behind
  GS_PROBE(probe.mark(Mark::kCpAsyncWait));

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

// Raises a kernel's dynamic shared-memory limit past the default 48 KB; once per instantiation (a
// function-local static in launch), the result returned on every launch.
template <class Kernel>
cudaError_t allow_dynamic_smem(Kernel* kernel) {
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
}

template <class Probe>
cudaError_t launch(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  // grid x covers the columns of C, grid y its rows: ceil(N/256) x ceil(M/128) blocks, row-major
  const dim3 grid((g.n + kBN - 1) / kBN, (g.m + kBM - 1) / kBM);
  if (g.n % 4 == 0 && sgemm_common::aligned16(g.b) && sgemm_common::aligned16(g.c)) {
    static const cudaError_t smem_limit = allow_dynamic_smem(kernel<Probe, true>);
    if (smem_limit != cudaSuccess) return smem_limit;
    kernel<Probe, true><<<grid, kThreads, kSmemBytes, stream>>>(g, probe);
  } else {
    static const cudaError_t smem_limit = allow_dynamic_smem(kernel<Probe, false>);
    if (smem_limit != cudaSuccess) return smem_limit;
    kernel<Probe, false><<<grid, kThreads, kSmemBytes, stream>>>(g, probe);
  }
  return cudaGetLastError();
}

}  // namespace gs::sgemm_11_block_128x256_k16
