// mma_f16/13_stream_k. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::mma_f16_13_stream_k {

inline constexpr const char* kTitle = "Stream-K: the last wave's tiles shared out along k";
inline constexpr const char* kAdds =
    "Rung 12 deals whole tiles to its 132 CTAs, so a last wave that is partly empty leaves SMs idle: at 8192^3 the "
    "2048 tiles make 15.5 waves and 64 SMs wait out the 16th; 68 tiles (4352x512) keep 64 SMs idle all the way. "
    "Here rung 12's kernel computes the whole waves, and a second kernel shares the k-tiles of the tiles left over "
    "equally among all the SMs (stream-K): each CTA takes one run, which may begin or end inside a tile. The CTA "
    "holding a tile's first k-tiles owns it: the others write their fp32 partial sums to a global workspace and "
    "raise a flag, and the owner waits for the flags, adds the partials and stores C. A split costs about 23 us "
    "(partials out and in, a pipeline filled again), so it is made only where each SM saves more than that. Paired "
    "with 12, on an H200 and an H100: 8192^3 1.5% and 1.8% faster, 5120x1280x4096 12% and 10%, 4352x512x4096 37% "
    "and 34%; 2048^3 and 4096^3 are not split (their last waves are 97% and 88% full) and run rung 12 as it is.";

}  // namespace gs::mma_f16_13_stream_k

#include <cuda_runtime.h>

#include <cstdint>
#include <mutex>

#include "kernels/gemm_args.cuh"
#include "kernels/hopper/common.cuh"
#include "kernels/hopper/layout.h"
#include "kernels/mma_f16/12_persistent.cuh"
#include "kernels/mma_f16/common.cuh"
#include "kernels/probe.cuh"

namespace gs::mma_f16_13_stream_k {

using namespace gs::mma_f16;
// The tiles, warps, stages, shared-memory map, stage ring and epilogue staging are rung 12's (this rung's own
// names, such as its kernel and its stages, hide 12's).
using namespace mma_f16_12_persistent;

enum Stage : int { kWaitEmpty, kIssue, kWaitFull, kMma, kEpilogue, kPartialOut, kPartialIn };
inline constexpr const char* kStageNames[] = {"wait empty", "TMA issue",       "wait full",
                                              "mma",        "epilogue",        "partial sums out",
                                              "partial sums in"};

// When the leftover is split. On an H200 at 8192^3 (bench/NOTES.md) the stream-K kernel took 90 us for runs of 66
// k-tiles of about 1 us each: 23 us more, for filling the pipeline again, writing, awaiting and reading the partial
// sums, and the owners' epilogue. So each CTA must save at least 24 k-tiles against rung 12's last wave, and a run
// must be at least half a tile (rounded down), so that a tile is cut in three pieces at most: 8192^3 (68 tiles left
// over, runs of 66 of 128 k-tiles, 62 saved) is split; 4096^3 (116 left, 7.8 saved) and 1024^3 (32 tiles, runs of
// 3.9 of 16) are not.
inline constexpr int kMinSavedKtiles = 24;
// Where `gemmscope record` traces this rung (KernelInfo::trace_shape): 200 tiles, so rung 12's kernel computes one
// whole wave of 132 and the stream-K kernel shares the other 68 among all 132 SMs; both halves show in the views.
inline constexpr int kTraceShape[3] = {5120, 1280, 4096};
inline constexpr int kPartialFloats = kMI * kNI * 4 * 32;  // one mma warp's 64x64 partial sums: 16 KB

// Step: stream-K, the leftover tiles' k-tiles split into equal runs over the SMs.
// What the host decides for one launch: the first dp_tiles tiles (in grouped order) go to rung 12's kernel, whole;
// the k-tiles of the other sk_tiles are split into grid equal runs for this one. No split: sk_tiles == 0.
struct Plan {
  int dp_tiles = 0, sk_tiles = 0, grid = 0;
  // CTA c's run: `run` k-tiles, one more for c < longer (sk_tiles * ktiles = grid * run + longer).
  int run = 0, longer = 0;
};
inline Plan plan(int tiles, int ktiles, int sms) {
  const int waves = tiles / sms, left = tiles % sms;
  const long long split_ktiles = static_cast<long long>(left) * ktiles;
  const bool split = 2 * left >= sms && split_ktiles < (1LL << 31) &&
                     static_cast<long long>(sms - left) * ktiles >= static_cast<long long>(kMinSavedKtiles) * sms;
  if (!split) return {tiles, 0, tiles < sms ? tiles : sms, 0, 0};
  return {waves * sms, left, sms, static_cast<int>(split_ktiles / sms), static_cast<int>(split_ktiles % sms)};
}

// Where the split tiles' partial sums meet: a slot of kMmaWarps x 16 KB per CTA (a CTA writes at most one partial,
// its run's first piece) and a flag per mma warp, which holds the epoch of the launch whose partial is in the slot.
struct Workspace {
  float* partials = nullptr;
  uint32_t* flags = nullptr;
  uint32_t epoch = 0;
};

// CTA c's run is k-tiles [run_begin(c), run_begin(c + 1)) of the split tiles' k-tiles, taken tile after tile, and
// it is cut where it crosses a tile boundary: a run is no longer than a tile, so it makes two pieces at most. The
// producer and the mma warps walk the same pieces. (The host divides, so that ptxas can keep the loop bounds in
// uniform registers.)
__device__ __forceinline__ int run_begin(const Plan& p, int c) { return c * p.run + (c < p.longer ? c : p.longer); }

// The piece of this CTA's run that begins at split k-tile x (the run ends at `end`): k-tiles [k0, k1) of tile t, and
// its probe record, two per CTA after the whole tiles' (n counts this CTA's pieces so far).
struct Piece {
  int t, k0, k1, record;
};
__device__ __forceinline__ Piece piece(const Plan& p, int ktiles, int x, int end, int n) {
  const int k0 = x % ktiles, k1 = end - x < ktiles - k0 ? k0 + end - x : ktiles;
  return {p.dp_tiles + x / ktiles, k0, k1, p.dp_tiles + 2 * static_cast<int>(blockIdx.x) + n};
}

// True in one lane of the (converged) warp, with no register kept for it. (A first version of this rung, with the
// whole waves in the same kernel, spilled `lane` and reloaded it every k-tile for the arrive on `empty`.)
__device__ __forceinline__ bool elect_one() {
  uint32_t elected = 0;
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "elect.sync _|p, 0xffffffff;\n"
      "selp.u32 %0, 1, 0, p;\n"
      "}\n"
      : "=r"(elected));
  return elected != 0;
}

__device__ __forceinline__ void st_release_gpu(uint32_t* p, uint32_t v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ uint32_t ld_acquire_gpu(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

// The stream-K kernel, launched after rung 12's has computed the whole waves: CTA c computes its run, in one or
// two pieces, with rung 12's producer warpgroup, stage ring, warp tiles and epilogue.
template <class Probe>
__global__ void __launch_bounds__(kThreads, 1)
    kernel(const __grid_constant__ CUtensorMap tma_a, const __grid_constant__ CUtensorMap tma_b,
           GemmArgs<__half, float> g, Plan p, Workspace ws, Probe probe) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const uint32_t as = gs::hopper::smem_base();      // kStages x (256, 64) halves, 128B-swizzled (TMA)
  const uint32_t bs = as + kStages * kAStageBytes;  // kStages x 2 boxes of (64 k, 64 n)
  const uint32_t full = as + kBarOffset;            // stage s landed: 1 arrival + 48 KB of TMA
  const uint32_t empty = full + 8 * kStages;        // stage s read: one arrival per mma warp
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int tiles_m = (g.m + kBlockM - 1) / kBlockM, tiles_n = (g.n + kBlockN - 1) / kBlockN;
  const int ktiles = (g.k + kBlockK - 1) / kBlockK;  // TMA fills zeros past K, M and N
  GS_PROBE(probe.block_begin(-1, -1));  // pieces get their records from probe.tile()

  if (tid == 0) {
    gs::hopper::prefetch_tensormap(&tma_a);
    gs::hopper::prefetch_tensormap(&tma_b);
    for (int s = 0; s < kStages; ++s) {
      gs::hopper::mbar_init(full + 8 * s, 1);
      gs::hopper::mbar_init(empty + 8 * s, kMmaWarps);
    }
    gs::hopper::fence_barrier_init();
  }
  __syncthreads();  // the only block-wide barrier: from here producer and mma warps meet on mbarriers

  if (warp >= kMmaWarps) {
    gs::hopper::setmaxnreg_dec<kProducerRegs>();
    if (warp == kMmaWarps) {  // warps 9-11 only gave their registers away
      Ring r;
      auto produce = [&](int t, int k0, int k1, int record) {
        const gs::hopper::TileIndex tile = gs::hopper::grouped_tile(t, tiles_m, tiles_n, kGroup);
        GS_PROBE(probe.tile(record, tile.m, tile.n));
        const int bm0 = tile.m * kBlockM, bn0 = tile.n * kBlockN;
        for (int kt = k0; kt < k1; ++kt, r.next()) {
          GS_PROBE(probe.stage(kWaitEmpty));
          gs::hopper::mbar_wait(empty + 8 * r.stage, r.phase ^ 1);  // round 0 waits for the phase before: done
          GS_PROBE(probe.stage(kIssue));
          if (lane == 0) {
            const uint32_t bar = full + 8 * r.stage;
            gs::hopper::mbar_arrive_expect_tx(bar, kStageBytes);
            gs::hopper::tma_load_2d(as + r.stage * kAStageBytes, &tma_a, kt * kBlockK, bm0, bar);  // A[bm0 ..][k0 ..]
#pragma unroll
            for (int j = 0; j < kBlockN / kBoxN; ++j) {  // B[k0 ..][bn0 + 64 j ..]
              gs::hopper::tma_load_2d(bs + r.stage * kBStageBytes + j * kBBoxBytes, &tma_b, bn0 + j * kBoxN,
                                      kt * kBlockK, bar);
            }
          }
          __syncwarp();
        }
      };
      const int end = run_begin(p, blockIdx.x + 1);
      for (int x = run_begin(p, blockIdx.x), n = 0; x < end; ++n) {
        const Piece pc = piece(p, ktiles, x, end, n);
        produce(pc.t, pc.k0, pc.k1, pc.record);
        x += pc.k1 - pc.k0;
      }
    }
    GS_PROBE(probe.block_end());
    return;
  }

  gs::hopper::setmaxnreg_inc<kMmaRegs>();
  const uint32_t cs = as + kCsOffset + warp * kCsWarpBytes;  // this warp's epilogue staging
  const int wm0 = (warp / kWarpsN) * kWarpM, wn0 = (warp % kWarpsN) * kWarpN;
  // Fragment addresses exactly as in 11 and 12 (TMA's 128B swizzle is rung 09's XOR layout).
  const int x = (lane / 16) ^ (lane % 8);
  const uint32_t a_frag = as + (wm0 + lane % 16) * kRowBytes + x * 16;
  const uint32_t b_frag = bs + (wn0 / kBoxN) * kBBoxBytes + (lane % 16) * kRowBytes + x * 16;
  auto load_frags = [&](int s, int kk, uint32_t(&af)[kMI][4], uint32_t(&bf)[kNI][2]) {
    const uint32_t a = (a_frag + s * kAStageBytes) ^ (kk * 32);
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) {
      const uint32_t q = a + mi * kMmaM * kRowBytes;
      GS_PROBE(probe.smem(kAsFrag, smem_generic(q), 16, SmemKind::kLdmatrix));
      ldmatrix_x4(af[mi], q);
    }
    const uint32_t b = b_frag + s * kBStageBytes + kk * kMmaK * kRowBytes;
#pragma unroll
    for (int ni = 0; ni < kNI; ni += 2) {
      const uint32_t q = b ^ (ni * 16);
      GS_PROBE(probe.smem(kBsFrag, smem_generic(q), 16, SmemKind::kLdmatrix));
      uint32_t r[4];
      ldmatrix_x4_trans(r, q);
      bf[ni][0] = r[0], bf[ni][1] = r[1], bf[ni + 1][0] = r[2], bf[ni + 1][1] = r[3];
    }
  };
  // This warp's partial-sum slot of CTA c: lane l keeps acc[mi][ni][0..3] at float4 (mi * kNI + ni) * 32 + l, so
  // each store and load of the warp moves 512 contiguous bytes.
  auto slot = [&](int c) {
    return reinterpret_cast<float4*>(ws.partials + (static_cast<size_t>(c) * kMmaWarps + warp) * kPartialFloats) + lane;
  };

  float acc[kMI][kNI][4];
  uint32_t af[2][kMI][4], bf[2][kNI][2];
  Ring r;  // the stage of the k-tile being computed, from piece to piece
  // One piece: k-tiles [k0, k1) of tile t; `more`: this CTA has a piece after it.
  auto work = [&](int t, int k0, int k1, int record, bool more) {
    const gs::hopper::TileIndex tile = gs::hopper::grouped_tile(t, tiles_m, tiles_n, kGroup);
    GS_PROBE(probe.tile(record, tile.m, tile.n));
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
      for (int ni = 0; ni < kNI; ++ni) {
#pragma unroll
        for (int i = 0; i < 4; ++i) acc[mi][ni][i] = 0.0f;
      }
    }
    for (int kt = k0; kt < k1; ++kt) {
      GS_PROBE(probe.iteration(kt - k0));  // the probe records the CTA's first piece only
      Ring nx = r;
      nx.next();
#pragma unroll
      for (int kk = 0; kk < kKI; ++kk) {
        if (kk == kKI - 1) {
          // Step 0 of the next k-tile, which is the next piece's first when this one ends: the ring runs on.
          if (kt + 1 < k1 || more) {
            GS_PROBE(probe.stage(kWaitFull));
            gs::hopper::mbar_wait(full + 8 * nx.stage, nx.phase);
            GS_PROBE(probe.stage(kMma));
            load_frags(nx.stage, 0, af[(kk + 1) % 2], bf[(kk + 1) % 2]);
          }
        } else {
          load_frags(r.stage, kk + 1, af[(kk + 1) % 2], bf[(kk + 1) % 2]);
        }
#pragma unroll
        for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
          for (int n = 0; n < kNI; ++n) {
            const int ni = mi % 2 ? kNI - 1 - n : n;  // serpentine, as in 10
            mma_16816(acc[mi][ni], af[kk % 2][mi], bf[kk % 2][ni]);
          }
        }
      }
      __syncwarp();
      if (elect_one()) gs::hopper::mbar_arrive(empty + 8 * r.stage);  // the producer may refill it
      r = nx;
    }

    if (k0 > 0) {
      // Not the tile's first k-tiles: hand the sums to the tile's owner. Every lane's stores are made visible at
      // GPU scope before lane 0 raises the flag (the fence, then the warp barrier, then a release store).
      GS_PROBE(probe.stage(kPartialOut));
      float4* out = slot(blockIdx.x);
#pragma unroll
      for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
        for (int ni = 0; ni < kNI; ++ni) {
          const float4 v = make_float4(acc[mi][ni][0], acc[mi][ni][1], acc[mi][ni][2], acc[mi][ni][3]);
          __stcg(out + (mi * kNI + ni) * 32, v);
        }
      }
      __threadfence();
      __syncwarp();
      if (lane == 0) st_release_gpu(ws.flags + blockIdx.x * kMmaWarps + warp, ws.epoch);
    } else {
      if (k1 < ktiles) {
        // The owner of a split tile: the CTAs after this one hold its other k-tiles, each as its run's first piece.
        // Every run is as long as this one, give or take a k-tile, so the wait is about the time to write a partial.
        GS_PROBE(probe.stage(kPartialIn));
        const int tile_end = (t - p.dp_tiles + 1) * ktiles;
        for (int c = blockIdx.x + 1; c < static_cast<int>(gridDim.x) && run_begin(p, c) < tile_end;
             ++c) {
          if (lane == 0) {
            while (ld_acquire_gpu(ws.flags + c * kMmaWarps + warp) != ws.epoch) __nanosleep(64);
          }
          __syncwarp();
          const float4* in = slot(c);
#pragma unroll
          for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
            for (int ni = 0; ni < kNI; ++ni) {
              const float4 v = __ldcg(in + (mi * kNI + ni) * 32);
              acc[mi][ni][0] += v.x, acc[mi][ni][1] += v.y, acc[mi][ni][2] += v.z, acc[mi][ni][3] += v.w;
            }
          }
        }
      }
      GS_PROBE(probe.stage(kEpilogue));
      GS_PROBE(probe.epilogue());
      // C leaves through the warp's own 4 KB, a 16-row slab at a time, as in 12.
      const int row0 = tile.m * kBlockM + wm0, col = tile.n * kBlockN + wn0 + 4 * (lane % 16);
#pragma unroll
      for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
        for (int ni = 0; ni < kNI; ++ni) {
#pragma unroll
          for (int h = 0; h < 2; ++h) {  // h = 0: (c0, c1) at row g; h = 1: (c2, c3) at row g + 8
            const int row = lane / 4 + 8 * h, c = ni * kMmaN + 2 * (lane % 4);
            GS_PROBE(probe.smem(kCStage, smem_generic(cs + cs_offset(row, c)), 8, SmemKind::kStore));
            st_shared_f32x2(cs + cs_offset(row, c), acc[mi][ni][2 * h], acc[mi][ni][2 * h + 1]);
          }
        }
        __syncwarp();  // the slab is written: its lanes read back what other lanes of the warp wrote
#pragma unroll
        for (int rr = lane / 16; rr < kMmaM; rr += 2) {
          GS_PROBE(probe.smem(kCRead, smem_generic(cs + cs_offset(rr, 4 * (lane % 16))), 16, SmemKind::kLoad));
          const float4 v = ld_shared_f32x4(cs + cs_offset(rr, 4 * (lane % 16)));
          const int grow = row0 + mi * kMmaM + rr;
          if (grow < g.m && col < g.n) {  // N % 8 == 0: a 4-column group is wholly inside C or past its edge
            GS_PROBE(probe.gmem(kGmemC, g.c + static_cast<size_t>(grow) * g.n + col, 16, GmemKind::kStore));
            update_c_quad(g.c + static_cast<size_t>(grow) * g.n + col, v, g.alpha, g.beta);
          }
        }
        __syncwarp();  // read back before the next slab overwrites it
      }
    }
    if (more) GS_PROBE(probe.stage(kMma));
  };
  const int run0 = run_begin(p, blockIdx.x), end = run_begin(p, blockIdx.x + 1);
  if (run0 < end) {
    GS_PROBE(probe.stage(kWaitFull));
    gs::hopper::mbar_wait(full, 0);
    GS_PROBE(probe.stage(kMma));
    load_frags(0, 0, af[0], bf[0]);
  }
  for (int x = run0, n = 0; x < end; ++n) {
    const Piece pc = piece(p, ktiles, x, end, n);
    x += pc.k1 - pc.k0;
    work(pc.t, pc.k0, pc.k1, pc.record, x < end);
  }
  GS_PROBE(probe.block_end());
#endif
}

// The registry's availability check: nullptr on an sm_90 GPU, otherwise why not.
inline const char* unavailable_here() {
  return gs::hopper::require_sm90a() == cudaSuccess
             ? nullptr
             : "unavailable on this GPU: mma_f16/13 is built for sm_90a only (TMA, setmaxnreg) and needs compute "
               "capability 9.0 (H100, H200)";
}

// The workspace of the current device, made on its first launch and kept for the process (17 MB on 132 SMs). Its
// flags are zeroed on `stream` once, before the first launch; each launch takes a new epoch, so no launch clears
// them. Launches that use it must not run at once (one stream, as gemmscope runs them), nor be captured in a CUDA
// graph (a replay would find its epoch already in the flags).
inline cudaError_t workspace(cudaStream_t stream, Workspace* ws) {
  struct Slot {
    float* partials = nullptr;
    uint32_t* flags = nullptr;
  };
  constexpr int kMaxDevices = 64;
  static Slot slots[kMaxDevices];
  static uint32_t epochs = 0;
  static std::mutex made;
  const std::lock_guard<std::mutex> lock(made);
  int dev = 0;
  if (const cudaError_t e = cudaGetDevice(&dev); e != cudaSuccess) return e;
  if (dev < 0 || dev >= kMaxDevices) return cudaErrorInvalidDevice;
  Slot& s = slots[dev];
  if (s.partials == nullptr) {
    const size_t ctas = static_cast<size_t>(gs::hopper::sm_count());
    float* partials = nullptr;
    uint32_t* flags = nullptr;
    cudaError_t e = cudaMalloc(&partials, ctas * kMmaWarps * kPartialFloats * sizeof(float));
    if (e == cudaSuccess) e = cudaMalloc(&flags, ctas * kMmaWarps * sizeof(uint32_t));
    if (e == cudaSuccess) e = cudaMemsetAsync(flags, 0, ctas * kMmaWarps * sizeof(uint32_t), stream);
    if (e != cudaSuccess) {
      cudaFree(partials);
      cudaFree(flags);
      return e;
    }
    s.partials = partials;
    s.flags = flags;
  }
  uint32_t epoch = ++epochs;
  if (epoch == 0) epoch = ++epochs;  // 0 is the flags' first value
  *ws = {s.partials, s.flags, epoch};
  return cudaSuccess;
}

template <class Probe>
cudaError_t launch(const GemmArgs<__half, float>& g, Probe probe, cudaStream_t stream) {
  namespace dp = mma_f16_12_persistent;
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;
  if (const cudaError_t e = gs::hopper::require_sm90a(); e != cudaSuccess) return e;
  const int tiles = ((g.m + kBlockM - 1) / kBlockM) * ((g.n + kBlockN - 1) / kBlockN);
  const Plan p = plan(tiles, (g.k + kBlockK - 1) / kBlockK, gs::hopper::sm_count());
  if (p.sk_tiles == 0) return dp::launch(g, probe, stream);  // nothing to split: rung 12 as it is
  static const cudaError_t smem_limit = allow_dynamic_smem(kernel<Probe>, kSmemBytes);
  if (smem_limit != cudaSuccess) return smem_limit;
  static const cudaError_t dp_smem_limit = allow_dynamic_smem(dp::kernel<Probe>, kSmemBytes);
  if (dp_smem_limit != cudaSuccess) return dp_smem_limit;
  // An owner waits for CTAs after it, so the stream-K grid must be resident all at once: one CTA per SM (225 KB of
  // shared memory each). Checked here, before anything is launched, so that a GPU where it cannot be is refused with
  // C untouched; the launch below is cooperative, so it is never run with some CTAs waiting for others that cannot
  // start (a GPU shared with other work).
  int per_sm = 0;
  if (const cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel<Probe>, kThreads, kSmemBytes);
      e != cudaSuccess)
    return e;
  if (per_sm * gs::hopper::sm_count() < p.grid) return cudaErrorCooperativeLaunchTooLarge;
  CUtensorMap ta, tb;
  if (const cudaError_t e = gs::hopper::make_ab_maps(g, kBlockM, &ta, &tb); e != cudaSuccess) return e;
  Workspace ws;
  if (const cudaError_t e = workspace(stream, &ws); e != cudaSuccess) return e;
  // The whole waves: rung 12's kernel, unchanged, on the first dp_tiles tiles. (One kernel for both parts ran
  // rung 12's k-loop 3% slower: ptxas scheduled and allocated it differently beside the stream-K code.)
  if (p.dp_tiles > 0) {
    // A trace numbers this launch's CTAs after the stream-K kernel's (grid to 2 grid - 1), so that the CTAs of the
    // two launches stay apart, and none of them stamps: their stamps would slow some of these CTAs (1.3x), and the
    // stream-K kernel would wait for the slowest; rung 12's own trace shows its stamps.
    Probe dp_probe = probe;
    offset_blocks(&dp_probe, static_cast<uint32_t>(p.grid), static_cast<uint32_t>(p.grid), false);
    dp::kernel<Probe><<<p.grid, kThreads, kSmemBytes, stream>>>(ta, tb, g, p.dp_tiles, dp_probe);
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
  }
  // The rest, split along k, on one CTA per SM, launched cooperatively: all of them resident at once, or none.
  cudaLaunchAttribute cooperative = {};
  cooperative.id = cudaLaunchAttributeCooperative;
  cooperative.val.cooperative = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(p.grid);
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = kSmemBytes;
  config.stream = stream;
  config.attrs = &cooperative;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, kernel<Probe>, ta, tb, g, p, ws, probe);
}

}  // namespace gs::mma_f16_13_stream_k
