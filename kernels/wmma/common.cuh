// Helpers the wmma rungs share: cp.async in PTX (wmma has no copy API), the row address a lane gives
// the ldmatrix that load_matrix_sync compiles to (for the bank-conflict probe), predicated 16-byte
// chunks of edge tiles, and the guarded epilogue that writes a C tile staged in shared memory.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda_fp16.h>

#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"

namespace gs::wmma_common {

inline constexpr int kTile = 16;  // wmma m16n16k16: a fragment is 16 x 16, one mma_sync is a k-step of 16
inline constexpr int kChunk = 8;  // halves per 16-byte copy: the unit of every global -> shared copy

// ---- cp.async (sm_80+): global -> shared without passing through registers ---------------------
// .cg caches in L2 only: a tile is read once per block, so L1 would only be polluted. "memory"
// clobbers keep the compiler from moving shared-memory accesses across these.

// Copies 16 bytes; both addresses 16-byte aligned.
__device__ __forceinline__ void cp_async_16(void* smem, const void* gmem) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem) : "memory");
}

// Copies 16 bytes when `full`, else reads nothing and writes 16 zero bytes (src-size 0): the
// zero fill that pads edge tiles. gmem must still be a valid address; callers clamp it to the base.
__device__ __forceinline__ void cp_async_16_zfill(void* smem, const void* gmem, bool full) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  const int src_bytes = full ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem), "r"(src_bytes) : "memory");
}

// Closes the group of copies this thread issued since the last commit.
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

// Waits until at most N of this thread's groups are still in flight (the newest N). Other threads'
// copies are visible only after a __syncthreads that follows every thread's wait.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// ---- what the probe records for a fragment load ---------------------------------------------
// load_matrix_sync of a 16x16 f16 tile from shared memory compiles to one ldmatrix.x4 (LDSM.16.M88.4
// for A, LDSM.16.MT88.4 for row-major B): four 8x8 matrices, each 8 rows of 16 bytes. Lane i hands it
// one row address: rows 0-15 of the tile at column 0 (lanes 0-15), then at column 8 (lanes 16-31).
// wmma hides which lane names which row; the set of rows each 8x8 matrix reads, which decides
// its bank conflicts, is the same for any assignment.
__device__ __forceinline__ const __half* ldsm_row(const __half* tile, int ld, int lane) {
  return tile + (lane % kTile) * ld + (lane / kTile) * kChunk;  // (row lane % 16, col 0 or 8) of the 16x16 tile
}

// store_matrix_sync and load_matrix_sync of a 16x16 accumulator fragment (row-major, to or from shared
// memory) compile to four STS or LDS per lane on sm_90 (Nsight Compute: 4 per fragment), one per pair of
// elements x[2p], x[2p + 1]: 8 bytes for float, 4 for half. Pair p of lane l sits at row l / 4 + 8 (p % 2),
// columns 8 (p / 2) + 2 (l % 4) + {0, 1}: the accumulator layout the layout probe traces for
// wmma.m16n16k16 (check_wmma_acc_pairs in layout_probe.cu tests this against store_matrix_sync itself).
inline constexpr int kAccPairs = 4;
template <class T>
__device__ __forceinline__ const T* acc_pair(const T* tile, int ld, int lane, int p) {
  return tile + (lane / 4 + 8 * (p % 2)) * ld + 8 * (p / 2) + 2 * (lane % 4);
}
// The probe's records of one such store or load: four accesses of 2 * sizeof(T) bytes per lane.
template <class T, class Probe>
__device__ __forceinline__ void probe_acc_pairs(Probe& probe, int site, const T* tile, int ld, int lane,
                                                SmemKind kind) {
#pragma unroll
  for (int p = 0; p < kAccPairs; ++p) {
    GS_PROBE(probe.smem(site, acc_pair(tile, ld, lane, p), 2 * static_cast<int>(sizeof(T)), kind));
  }
}

// ---- predicated 16-byte chunks of edge tiles ------------------------------------------------
// Halves [c, c + 8) of row r of a row-major (rows x cols) matrix, leading dimension cols, into smem:
// zero outside the matrix. Used when rows are not 16-byte aligned (K or N not a multiple of 8):
// eight guarded 2-byte loads and one 16-byte shared store. Synchronous, so slow, but the data is in
// shared memory before the barrier that publishes it, like a landed cp.async. The probe records each
// 2-byte load under `site` (a lane outside the matrix loads nothing: 0 bytes).
template <class Probe>
__device__ __forceinline__ void copy_chunk_guarded(__half* smem, const __half* g, int rows, int cols, int r, int c,
                                                   int site, Probe& probe) {
  __align__(16) __half v[kChunk];
#pragma unroll
  for (int j = 0; j < kChunk; ++j) {
    GS_PROBE(probe.gmem(site, g + static_cast<size_t>(r) * cols + c + j, r < rows && c + j < cols ? 2 : 0,
                        GmemKind::kLoad));
    v[j] = r < rows && c + j < cols ? g[static_cast<size_t>(r) * cols + c + j] : __ushort_as_half(0);
  }
  *reinterpret_cast<uint4*>(smem) = *reinterpret_cast<const uint4*>(v);
}

// One thread's 16-byte chunks of the A tile, followed along K. Every rung's copy order gives a thread
// kCount chunks in one column c of the tile, in rows row0 + p * kRowStep; their rows of A are fixed
// and k moves the column. kVec (K % 8 == 0, A 16-byte aligned): a chunk is wholly inside or wholly
// outside A, and is one predicated cp.async; which rows exist and the address of chunk 0 are worked
// out once, so the k-loop carries one pointer and a bit mask instead of an address per chunk.
template <bool kVec, int kCount, int kRowStep>
struct AChunks {
  const __half* src;  // A[row0][c]: chunk 0 of k-tile 0
  size_t step;        // kRowStep rows of A: from chunk p to chunk p + 1
  int row0, c;        // row of A of chunk 0; column within the k-tile
  unsigned rows_in;   // bit p: row row0 + p * kRowStep exists
  __device__ __forceinline__ AChunks(const __half* a, int m, int k, int row0_, int c_) : row0(row0_), c(c_) {
    src = a + static_cast<size_t>(row0) * k + c;
    step = static_cast<size_t>(kRowStep) * k;
    rows_in = 0;
#pragma unroll
    for (int p = 0; p < kCount; ++p) rows_in |= (row0 + p * kRowStep < m ? 1u : 0u) << p;
  }
  // Chunk p of the k-tile that starts at column k0: A[row0 + p * kRowStep][k0 + c .. +8) -> smem.
  template <class Probe>
  __device__ __forceinline__ void copy(int p, __half* smem, const __half* a, int m, int k, int k0, Probe& probe) const {
    if constexpr (kVec) {
      const bool in = (rows_in >> p & 1u) && k0 + c < k;
      GS_PROBE(probe.gmem(kGmemA, in ? src + p * step + k0 : a, in ? 16 : 0, GmemKind::kCpAsync));
      cp_async_16_zfill(smem, in ? src + p * step + k0 : a, in);  // outside: src-size 0, 16 zero bytes
    } else {
      copy_chunk_guarded(smem, a, m, k, row0 + p * kRowStep, k0 + c, kGmemA, probe);
    }
  }
};

// The same for B: kCount chunks in one column col of B, tile rows r0 + p * kRowStep; k moves the
// rows. kVec: N % 8 == 0 and B 16-byte aligned.
template <bool kVec, int kCount, int kRowStep>
struct BChunks {
  const __half* src;  // B[r0][col]: chunk 0 of k-tile 0
  size_t step;        // kRowStep rows of B
  int r0, col;        // row within the k-tile of chunk 0; column of B
  bool col_in;
  __device__ __forceinline__ BChunks(const __half* b, int n, int r0_, int col_) : r0(r0_), col(col_) {
    src = b + static_cast<size_t>(r0) * n + col;
    step = static_cast<size_t>(kRowStep) * n;
    col_in = col < n;
  }
  // Chunk p of the k-tile that starts at row k0: B[k0 + r0 + p * kRowStep][col .. +8) -> smem.
  template <class Probe>
  __device__ __forceinline__ void copy(int p, __half* smem, const __half* b, int k, int n, int k0, Probe& probe) const {
    if constexpr (kVec) {
      const bool in = col_in && k0 + r0 + p * kRowStep < k;
      GS_PROBE(probe.gmem(kGmemB, in ? src + p * step + static_cast<size_t>(k0) * n : b, in ? 16 : 0,
                          GmemKind::kCpAsync));
      cp_async_16_zfill(smem, in ? src + p * step + static_cast<size_t>(k0) * n : b, in);
    } else {
      copy_chunk_guarded(smem, b, k, n, k0 + r0 + p * kRowStep, col, kGmemB, probe);
    }
  }
};

// 16-byte alignment of a pointer, for choosing the vector path at launch.
inline bool aligned16(const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }

// 16 bytes of floats or halves <-> floats.
__device__ __forceinline__ void unpack(uint4 v, float (&f)[4]) {
  f[0] = __uint_as_float(v.x);
  f[1] = __uint_as_float(v.y);
  f[2] = __uint_as_float(v.z);
  f[3] = __uint_as_float(v.w);
}
__device__ __forceinline__ void unpack(uint4 v, float (&f)[8]) {
  const unsigned w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const float2 p = __half22float2(*reinterpret_cast<const __half2*>(&w[i]));
    f[2 * i] = p.x;
    f[2 * i + 1] = p.y;
  }
}
template <class TOut>
__device__ __forceinline__ uint4 pack(const float (&f)[16 / sizeof(TOut)]) {
  if constexpr (std::is_same_v<TOut, float>) {
    return make_uint4(__float_as_uint(f[0]), __float_as_uint(f[1]), __float_as_uint(f[2]), __float_as_uint(f[3]));
  } else {
    unsigned w[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const __half2 p = __floats2half2_rn(f[2 * i], f[2 * i + 1]);
      w[i] = *reinterpret_cast<const unsigned*>(&p);
    }
    return make_uint4(w[0], w[1], w[2], w[3]);
  }
}

// ---- guarded epilogue -------------------------------------------------------------------------
// A (kRows x kCols) tile of accumulators, staged in shared memory as TOut at row stride lds (16-byte
// aligned rows), becomes C[row0 .., col0 ..] = alpha * acc + beta * C, clipped to M x N; with
// beta == 0, C is never read (BLAS; the runner poisons it with NaN). kThreads threads share the
// work, thread `t` taking 16-byte vectors t, t + kThreads, ... in row-major order: consecutive
// threads write consecutive 16 bytes of a row of C (coalesced) and read consecutive 16 bytes of a
// staged row (conflict-free). The probe records each global read (beta != 0) and store of C, and each
// 16-byte read of the staging under smem site `site`.
template <int kRows, int kCols, int kThreads, class TOut, class Probe>
__device__ __forceinline__ void write_c_tile(const TOut* s, int lds, const GemmArgs<__half, TOut>& g, int row0,
                                             int col0, int t, int site, Probe& probe) {
  constexpr int kVecElems = 16 / static_cast<int>(sizeof(TOut));  // 4 floats or 8 halves per vector
  constexpr int kVecsPerRow = kCols / kVecElems;
  static_assert(kCols % kVecElems == 0, "staged rows are whole 16-byte vectors");
  // C's rows are 16-byte aligned only when N is a multiple of the vector: else element by element
  const bool vec = g.n % kVecElems == 0 && reinterpret_cast<uintptr_t>(g.c) % 16 == 0;
#pragma unroll 2
  for (int i = t; i < kRows * kVecsPerRow; i += kThreads) {
    const int r = i / kVecsPerRow, c = i % kVecsPerRow * kVecElems;  // (row, first col) within the tile
    const int gr = row0 + r, gc = col0 + c;                          // the same in C
    if (gr >= g.m || gc >= g.n) continue;
    TOut* dst = g.c + static_cast<size_t>(gr) * g.n + gc;
    float acc[kVecElems], old[kVecElems];
    GS_PROBE(probe.smem(site, s + r * lds + c, 16, SmemKind::kLoad));
    const uint4 staged = *reinterpret_cast<const uint4*>(s + r * lds + c);
    unpack(staged, acc);
    if (vec) {  // gc % kVecElems == 0 and N % kVecElems == 0: the whole vector lies inside C
      if (g.beta == 0.0f) {
#pragma unroll
        for (int j = 0; j < kVecElems; ++j) acc[j] *= g.alpha;
      } else {
        GS_PROBE(probe.gmem(kGmemC, dst, 16, GmemKind::kLoad));
        unpack(*reinterpret_cast<const uint4*>(dst), old);
#pragma unroll
        for (int j = 0; j < kVecElems; ++j) acc[j] = g.alpha * acc[j] + g.beta * old[j];
      }
      GS_PROBE(probe.gmem(kGmemC, dst, 16, GmemKind::kStore));
      *reinterpret_cast<uint4*>(dst) = pack<TOut>(acc);
    } else {
#pragma unroll
      for (int j = 0; j < kVecElems; ++j) {
        if (gc + j >= g.n) break;
        if (g.beta != 0.0f) GS_PROBE(probe.gmem(kGmemC, dst + j, static_cast<int>(sizeof(TOut)), GmemKind::kLoad));
        GS_PROBE(probe.gmem(kGmemC, dst + j, static_cast<int>(sizeof(TOut)), GmemKind::kStore));
        const float v = g.beta == 0.0f ? g.alpha * acc[j] : g.alpha * acc[j] + g.beta * to_float(dst[j]);
        dst[j] = from_float<TOut>(v);
      }
    }
  }
}

}  // namespace gs::wmma_common
